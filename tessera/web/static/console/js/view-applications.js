// Applications the user is a member of; one application with its installations and members.

import { api, listQuery } from "./api.js";
import { append, h } from "./dom.js";
import { formatTime, t } from "./i18n.js";
import { catalog, hasPlatformRole, roleAllows, session } from "./session.js";
import {
  ListPanel, badge, busy, button, confirmDialog, facts, formDialog, link, notify, reportError, searchBox, section,
  selectBox, toolbar,
} from "./ui.js";

const ROLES = ["owner", "maintainer", "viewer"];

export function roleOptions() {
  return ROLES.map((role) => ({ value: role, label: t(`status.${role}`) }));
}

export function heading(title, ...after) {
  return h("div", { class: "page-head" }, h("h1", { tabindex: "-1" }, title), after);
}

export function breadcrumbs(items) {
  return h("nav", { class: "breadcrumbs", "aria-label": t("nav.breadcrumbs") },
    h("ol", {}, items.map(([label, href], index) => h("li", {},
      href && index < items.length - 1 ? h("a", { href }, label) : h("span", { "aria-current": "page" }, label)))));
}

export async function applicationsView({ root, navigate }) {
  document.title = `${t("applications.title")} · ${t("shell.title")}`;
  const mayCreate = hasPlatformRole("sys.connector.update");
  const panel = new ListPanel({
    caption: t("applications.title"),
    columns: [
      { label: t("applications.name"), render: (a) => link(a.name, `#/applications/${a.appId}`) },
      { label: t("applications.role"), render: (a) => badge(a.role) },
      { label: t("applications.status"), render: (a) => badge(a.status) },
      { label: t("common.created"), render: (a) => formatTime(a.created_at) },
    ],
    fetch: (params) => api("GET", "/api/open-platform/applications/list", { query: listQuery({ ...params, sortField: "name", sortOrder: "asc" }) }),
    empty: [h("p", {}, t("applications.empty")), h("p", { class: "field-hint" },
      mayCreate ? t("applications.emptyCreate") : t("applications.emptyAsk"))],
  });
  const create = () => formDialog({
    title: t("applications.new"),
    submitLabel: t("action.create"),
    fields: [
      { name: "name", label: t("applications.name"), required: true },
      { name: "description", label: t("applications.description"), type: "textarea", rows: 3 },
    ],
    onSubmit: async (values) => {
      const app = await api("POST", "/api/open-platform/applications",
                            { body: { name: values.name, description: values.description || null } });
      notify(t("applications.created", { name: app.name }));
      navigate(`#/applications/${app.appId}`, { keep: true });
    },
  });
  append(root, [
    heading(t("applications.title")),
    h("p", { class: "lead" }, t("applications.lead")),
    toolbar(searchBox({ label: t("applications.search"), onSearch: (keyword) => panel.set({ keyword }) }),
      mayCreate ? button(t("applications.new"), create, { kind: "primary" }) : null),
    panel.element,
  ]);
  await panel.reload();
}

export async function applicationView({ root, params: [appId] }) {
  let app = await api("GET", `/api/open-platform/applications/${appId}`);
  const owner = roleAllows(app.role, "manageInstallations");
  const published = await catalog();

  const installations = new ListPanel({
    caption: t("installations.title"),
    columns: [
      { label: t("installations.installation"), render: (i) => link(`${i.tenantId} · ${t(`env.${i.environment}`)}`,
                                                                     `#/installations/${i.installationId}`) },
      { label: t("installations.scopes"), render: (i) => h("ul", { class: "tags" }, i.scopes.map((s) => h("li", {}, s))) },
      { label: t("installations.status"), render: (i) => badge(i.status) },
      { label: t("common.created"), render: (i) => formatTime(i.created_at) },
    ],
    fetch: (query) => api("GET", `/api/open-platform/applications/${appId}/installations/list`,
                          { query: listQuery(query) }),
    empty: [h("p", {}, t("installations.empty")), owner ? h("p", { class: "field-hint" }, t("installations.emptyOwner"))
      : null],
  });
  const install = () => formDialog({
    title: t("installations.new"),
    intro: t("installations.newIntro"),
    submitLabel: t("installations.install"),
    fields: [
      { name: "tenantId", label: t("installations.tenant"), type: "select", required: true,
        value: session().tenantId,
        options: session().tenants.map((tenant) => ({ value: tenant.tenantId, label: `${tenant.name} (${tenant.tenantId})` })) },
      { name: "environment", label: t("installations.environment"), type: "select", required: true, value: "production",
        options: published.environments.map((e) => ({ value: e, label: t(`env.${e}`) })) },
      { name: "scopes", label: t("installations.scopes"), type: "checkboxes", required: true,
        options: published.scopes.map((s) => ({ value: s.scope, label: s.scope, hint: s.description })) },
    ],
    onSubmit: async (values) => {
      const created = await api("POST", `/api/open-platform/applications/${appId}/installations`, { body: values });
      notify(t("installations.created", { tenant: created.tenantId, environment: t(`env.${created.environment}`) }));
      await installations.reload();
    },
  });

  const me = session().userPid;
  const members = new ListPanel({
    caption: t("members.title"),
    columns: [
      { label: t("members.name"), render: (m) => m.username },
      { label: t("members.email"), render: (m) => m.email },
      { label: t("members.role"), render: (m) => (roleAllows(app.role, "manageMembers")
        ? selectBox({ label: t("members.roleOf", { name: m.username }), options: roleOptions(), value: m.role,
                      onChange: (role) => changeRole(m, role), hideLabel: true })
        : badge(m.role)) },
      { label: t("members.since"), render: (m) => formatTime(m.created_at) },
      { label: t("common.actions"), render: (m) => (roleAllows(app.role, "manageMembers")
        ? button(t("members.remove"), (event) => remove(m, event.currentTarget),
                 { kind: "danger-quiet", "aria-label": t("members.removeLabel", { name: m.username }) })
        : "—") },
    ],
    fetch: (query) => api("GET", `/api/open-platform/applications/${appId}/members/list`,
                          { query: listQuery({ ...query, sortField: "created_at", sortOrder: "asc" }) }),
    empty: h("p", {}, t("members.empty")),
  });
  const changeRole = async (member, role) => {
    try {
      await api("PUT", `/api/open-platform/applications/${appId}/members/${member.userPid}`, { body: { role } });
      notify(t("members.changed", { name: member.username, role: t(`status.${role}`) }));
    } catch (error) {
      reportError(error);
    }
    await members.reload({ quiet: true });
  };
  const remove = async (member, control) => {
    const confirmed = await confirmDialog({
      title: t("members.remove"), message: t("members.removeConfirm", { name: member.username, app: app.name }),
      confirmLabel: t("members.remove"), danger: true,
    });
    if (!confirmed) return;
    await busy(control, async () => {
      await api("DELETE", `/api/open-platform/applications/${appId}/members/${member.userPid}`);
      notify(t("members.removed", { name: member.username }));
      await members.reload();
    });
    if (member.userPid === me) window.location.hash = "#/applications";
  };
  const add = () => formDialog({
    title: t("members.add"),
    intro: t("members.addIntro"),
    submitLabel: t("members.add"),
    fields: [
      { name: "email", label: t("members.email"), type: "email", required: true, autocomplete: "off" },
      { name: "role", label: t("members.role"), type: "select", value: "viewer", options: roleOptions() },
    ],
    onSubmit: async (values) => {
      const added = await api("POST", `/api/open-platform/applications/${appId}/members`, { body: values });
      notify(t("members.added", { name: added.username, role: t(`status.${added.role}`) }));
      await members.reload();
    },
  });

  // -- the application itself: its owners rename, describe, disable, enable and delete it --------------
  const summary = h("div", { class: "summary" });
  const renderSummary = () => {
    document.title = `${app.name} · ${t("shell.title")}`;
    summary.replaceChildren(
      breadcrumbs([[t("applications.title"), "#/applications"], [app.name]]),
      heading(app.name, badge(app.role, t("applications.yourRole", { role: t(`status.${app.role}`) }))),
      app.description ? h("p", { class: "lead" }, app.description) : null,
      facts([[t("applications.id"), h("code", { class: "mono" }, app.appId)],
             [t("applications.status"), badge(app.status)], [t("common.created"), formatTime(app.created_at)]]),
      toolbar(
        owner ? button(t("applications.edit"), edit) : null,
        owner ? button(app.status === "active" ? t("applications.disable") : t("applications.enable"),
                       (event) => toggle(event.currentTarget),
                       { kind: app.status === "active" ? "danger" : "secondary" }) : null,
        owner ? button(t("applications.delete"), (event) => destroy(event.currentTarget), { kind: "danger-quiet" })
          : null));
  };
  const update = async (body) => {
    app = await api("PUT", `/api/open-platform/applications/${appId}`, { body });
    renderSummary();
  };
  const edit = () => formDialog({
    title: t("applications.edit"),
    intro: t("applications.editIntro"),
    submitLabel: t("action.save"),
    fields: [
      { name: "name", label: t("applications.name"), required: true, value: app.name },
      { name: "description", label: t("applications.description"), type: "textarea", value: app.description || "" },
    ],
    onSubmit: async (values) => {
      await update({ name: values.name, description: values.description || null });
      notify(t("applications.saved"));
    },
  });
  const toggle = async (control) => {
    const enabling = app.status !== "active";
    if (!enabling && !(await confirmDialog({ title: t("applications.disable"),
                                             message: t("applications.disableConfirm", { app: app.name }),
                                             confirmLabel: t("applications.disable"), danger: true }))) return;
    await busy(control, async () => {
      await update({ status: enabling ? "active" : "disabled" });
      notify(enabling ? t("applications.enabled") : t("applications.disabled"));
    });
  };
  const destroy = async (control) => {
    if (!(await confirmDialog({ title: t("applications.delete"), message: t("applications.deleteConfirm", { app: app.name }),
                                confirmLabel: t("applications.delete"), danger: true }))) return;
    await busy(control, async () => {
      await api("DELETE", `/api/open-platform/applications/${appId}`);
      notify(t("applications.deleted", { app: app.name }));
      window.location.hash = "#/applications";
    });
  };
  renderSummary();

  append(root, [
    summary,
    h("p", { class: "role-help" }, t(`roles.help.${app.role}`)),
    section(t("installations.title"),
      toolbar(owner ? button(t("installations.new"), install, { kind: "primary" }) : null),
      installations.element),
    section(t("members.title"),
      toolbar(roleAllows(app.role, "manageMembers") ? button(t("members.add"), add, { kind: "primary" }) : null),
      members.element),
  ]);
  await Promise.all([installations.reload(), members.reload()]);
}
