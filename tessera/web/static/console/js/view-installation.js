// One installation: its scopes and status, its client credentials (create, rotate with a grace
// window, revoke; each with its age and a "rotation due" badge past the baseline, sorted by age),
// its webhook endpoints (register, edit, rotate the signing secret, delete), its events as its events
// API serves them (newest first, older ones on demand) and a plot of its Open Platform calls per hour
// by status class (from the call audit).
// New secrets are shown once, in secretDialog, and nowhere else.

import { ApiError, api, listQuery } from "./api.js";
import { StatsPanel, plot } from "./chart.js";
import { append, h } from "./dom.js";
import { formatNumber, formatTime, t } from "./i18n.js";
import { catalog, roleAllows } from "./session.js";
import {
  ListPanel, badge, busy, button, code, confirmDialog, facts, formDialog, link, loading, notify, secretDialog,
  section, selectBox, table, toolbar,
} from "./ui.js";
import { breadcrumbs, heading } from "./view-applications.js";

const GRACE_WINDOWS = [300, 3600, 86400, 604800];
const OVERLAPS = [0, 3600, 86400, 604800];

export function durationLabel(seconds) {
  if (seconds === 0) return t("duration.none");
  if (seconds % 86400 === 0) return t(seconds === 86400 ? "duration.day" : "duration.days", { n: seconds / 86400 });
  if (seconds % 3600 === 0) return t(seconds === 3600 ? "duration.hour" : "duration.hours", { n: seconds / 3600 });
  return t("duration.minutes", { n: seconds / 60 });
}

const CALL_CLASSES = [["status2xx", "calls.success"], ["status3xx", "calls.redirect"],
                      ["status4xx", "calls.clientError"], ["status5xx", "calls.serverError"]];

function callPlots(data, windowKey) {
  const sum = (key) => data.buckets.reduce((total, b) => total + b[key], 0);
  const series = CALL_CLASSES.map(([key, label]) => ({ key, label: t(label) }));
  return [plot({
    kind: "bars", windowKey, buckets: data.buckets, series, title: t("calls.title"),
    description: t("calls.desc", { period: t(`stats.window.${windowKey}`), total: formatNumber(sum("total")),
                                   success: formatNumber(sum("status2xx")), redirect: formatNumber(sum("status3xx")),
                                   client: formatNumber(sum("status4xx")), server: formatNumber(sum("status5xx")) }),
    yLabel: t("calls.axis"), empty: t("calls.none"),
    extraColumns: [{ label: t("calls.statuses"), render: (b) => Object.entries(b.statuses)
      .map(([status, n]) => `${status}: ${formatNumber(n)}`).join(", ") }],
  })];
}

export async function installationView({ root, params: [installationId] }) {
  let inst = await api("GET", `/api/open-platform/installations/${installationId}`);
  const [app, published] = await Promise.all([api("GET", `/api/open-platform/applications/${inst.appId}`), catalog()]);
  const title = `${inst.tenantId} · ${t(`env.${inst.environment}`)}`;
  document.title = `${title} · ${app.name} · ${t("shell.title")}`;
  const may = (action) => roleAllows(app.role, action);
  const base = `/api/open-platform/installations/${installationId}`;

  // -- the installation itself ----------------------------------------------------------------------
  const summary = h("div", { class: "summary" });
  const renderSummary = () => {
    summary.replaceChildren(
      facts([
        [t("installations.status"), badge(inst.status)],
        [t("installations.tenant"), inst.tenantId],
        [t("installations.environment"), t(`env.${inst.environment}`)],
        [t("installations.scopes"), h("ul", { class: "tags" }, inst.scopes.map((s) => h("li", {}, s)))],
        [t("installations.id"), code(inst.installationId)],
        [t("common.updated"), formatTime(inst.updated_at)],
      ]),
      toolbar(
        may("manageInstallations") ? button(t("installations.editScopes"), editScopes) : null,
        may("manageInstallations") ? button(inst.status === "enabled" ? t("installations.disable") : t("installations.enable"),
                                            (event) => toggle(event.currentTarget),
                                            { kind: inst.status === "enabled" ? "danger" : "secondary" }) : null));
  };
  const update = async (body) => {
    inst = await api("PUT", base, { body });
    renderSummary();
  };
  const editScopes = () => formDialog({
    title: t("installations.editScopes"),
    intro: t("installations.editScopesIntro"),
    submitLabel: t("action.save"),
    fields: [{ name: "scopes", label: t("installations.scopes"), type: "checkboxes", required: true, value: inst.scopes,
               options: published.scopes.map((s) => ({ value: s.scope, label: s.scope, hint: s.description })) }],
    onSubmit: async (values) => {
      await update({ scopes: values.scopes });
      notify(t("installations.scopesSaved"));
    },
  });
  const toggle = async (control) => {
    const enabling = inst.status !== "enabled";
    if (!enabling && !(await confirmDialog({ title: t("installations.disable"), message: t("installations.disableConfirm"),
                                             confirmLabel: t("installations.disable"), danger: true }))) return;
    await busy(control, async () => {
      await update({ status: enabling ? "enabled" : "disabled" });
      notify(enabling ? t("installations.enabled") : t("installations.disabled"));
    });
  };

  // -- credentials --------------------------------------------------------------------------------
  const credentials = new ListPanel({
    caption: t("credentials.title"),
    columns: [
      { label: t("credentials.clientId"), render: (c) => code(c.clientId) },
      { label: t("credentials.kind"), render: (c) => t(`credentials.kind.${c.kind || "secret"}`) },
      { label: t("credentials.status"), render: (c) => badge(c.status) },
      { label: t("common.created"), render: (c) => formatTime(c.created_at) },
      { label: t("credentials.age"), render: (c) => credentialAge(c) },
      { label: t("credentials.worksUntil"), render: (c) => worksUntil(c) },
      { label: t("common.actions"), render: (c) => credentialActions(c) },
    ],
    fetch: (query) => api("GET", `${base}/credentials/list`, { query: listQuery(query) }),
    empty: [h("p", {}, t("credentials.empty")),
            may("manageCredentials") ? h("p", { class: "field-hint" }, t("credentials.emptyOwner")) : null],
  });
  // Its age, and past the rotation baseline (90 days by default) a badge that says a rotation is due.
  const credentialAge = (c) => h("span", { class: "credential-age" },
    c.ageDays === 1 ? t("duration.day") : t("duration.days", { n: formatNumber(c.ageDays) }),
    c.rotationDue ? [" ", badge("rotationDue", t("credentials.rotationDue")),
                     h("span", { class: "visually-hidden" }, t("credentials.rotationDueSince",
                                                                 { time: formatTime(c.rotationDueAt) }))] : null);
  // The end of a rotated credential's grace window, or of an active one's maximum age (if the service sets one).
  const worksUntil = (c) => {
    const until = c.expiresAt || (c.status === "active" ? c.maxAgeExpiresAt : null);
    return until ? formatTime(until) : "—";
  };
  const sortByAge = selectBox({
    label: t("credentials.sort"),
    options: [{ value: "desc", label: t("credentials.newestFirst") }, { value: "asc", label: t("credentials.oldestFirst") }],
    value: "desc",
    onChange: (order) => credentials.set({ sortField: "created_at", sortOrder: order }),
  });
  const credentialActions = (c) => {
    if (!may("manageCredentials")) return "—";
    return h("div", { class: "row-actions" },
      c.status === "active" ? button(t("credentials.rotate"), () => rotate(c),
                                     { "aria-label": t("credentials.rotateLabel", { id: c.clientId }) }) : null,
      c.status === "active" || c.status === "rotated"
        ? button(t("credentials.revoke"), (event) => revoke(c, event.currentTarget),
                 { kind: "danger-quiet", "aria-label": t("credentials.revokeLabel", { id: c.clientId }) }) : null);
  };
  const showCredential = (created, note) => secretDialog({
    title: t("credentials.secretTitle"),
    intro: t("credentials.secretIntro"),
    items: [{ label: t("credentials.clientId"), value: created.clientId },
            { label: t("credentials.clientSecret"), value: created.clientSecret, secret: true }],
    note,
  });
  const create = (control) => busy(control, async () => {
    const created = await api("POST", `${base}/credentials`);
    await credentials.reload();
    showCredential(created, null);
  });
  const keyField = () => ({ name: "key", label: t("credentials.key"), type: "textarea", rows: 6, required: true,
                            hint: t("credentials.keyHint") });
  // A pasted JWK or JWK Set as the API's body; its refusals are shown on the one field.
  const keyBody = (text) => {
    let parsed;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = null;
    }
    if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) {
      throw new ApiError(400, "VALIDATION_ERROR", t("credentials.keyNotJson"),
                         { fieldErrors: { key: t("credentials.keyNotJson") } });
    }
    return Array.isArray(parsed.keys) ? { jwks: parsed } : { publicJwk: parsed };
  };
  const onKeyField = async (call) => {
    try {
      return await call();
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      const fieldErrors = {};
      for (const [name, text] of Object.entries(error.fieldErrors)) {
        fieldErrors[/^(publicJwk|jwks)\b/.test(name) ? "key" : name] = text;
      }
      throw new ApiError(error.status, error.code, error.message, { ...(error.data || {}), fieldErrors });
    }
  };
  const registerKey = () => formDialog({
    title: t("credentials.registerKey"),
    intro: t("credentials.registerKeyIntro"),
    submitLabel: t("credentials.registerKey"),
    fields: [keyField()],
    onSubmit: async (values) => {
      const created = await onKeyField(() => api("POST", `${base}/credentials`, { body: keyBody(values.key) }));
      await credentials.reload();
      notify(t("credentials.keyRegistered", { id: created.clientId }));
    },
  });
  const rotate = (c) => formDialog({
    title: t("credentials.rotateTitle", { id: c.clientId }),
    intro: t(c.kind === "private_key_jwt" ? "credentials.rotateKeyIntro" : "credentials.rotateIntro"),
    submitLabel: t("credentials.rotate"),
    fields: [{ name: "graceSeconds", label: t("credentials.grace"), type: "select", value: "86400",
               options: GRACE_WINDOWS.map((s) => ({ value: String(s), label: durationLabel(s) })) },
             ...(c.kind === "private_key_jwt" ? [keyField()] : [])],
    onSubmit: async (values) => {
      const body = { graceSeconds: Number(values.graceSeconds),
                     ...(c.kind === "private_key_jwt" ? keyBody(values.key) : {}) };
      const rotated = await onKeyField(() => api("POST", `/api/open-platform/credentials/${c.clientId}/rotate`, { body }));
      await credentials.reload();
      const note = t("credentials.previousUntil", { id: rotated.previousClientId,
                                                    time: formatTime(rotated.previousExpiresAt) });
      if (c.kind === "private_key_jwt") notify(`${t("credentials.keyRegistered", { id: rotated.clientId })} ${note}`);
      else showCredential(rotated, note);
    },
  });
  const revoke = async (c, control) => {
    if (!(await confirmDialog({ title: t("credentials.revoke"), message: t("credentials.revokeConfirm", { id: c.clientId }),
                                confirmLabel: t("credentials.revoke"), danger: true }))) return;
    await busy(control, async () => {
      await api("POST", `/api/open-platform/credentials/${c.clientId}/revoke`);
      notify(t("credentials.revoked", { id: c.clientId }));
      await credentials.reload();
    });
  };

  // -- webhook endpoints ----------------------------------------------------------------------------
  const endpoints = new ListPanel({
    caption: t("endpoints.title"),
    columns: [
      { label: t("endpoints.url"), render: (e) => h("span", { class: "url" }, e.url) },
      { label: t("endpoints.eventTypes"), render: (e) => h("ul", { class: "tags" }, e.eventTypes.map((x) => h("li", {}, x))) },
      { label: t("endpoints.enabled"), render: (e) => badge(e.enabled ? "on" : "off", e.enabled ? t("endpoints.on")
                                                                                                : t("endpoints.off")) },
      { label: t("common.actions"), render: (e) => h("div", { class: "row-actions" },
        link(t("endpoints.deliveries"), `#/endpoints/${e.endpointId}`, { class: "button button-secondary",
                                                                         "aria-label": t("endpoints.deliveriesOf", { url: e.url }) }),
        may("manageEndpoints") ? button(t("action.edit"), () => editEndpoint(e),
                                        { "aria-label": t("endpoints.editLabel", { url: e.url }) }) : null,
        may("rotateWebhookSecret") ? button(t("endpoints.rotate"), () => rotateSecret(e),
                                            { "aria-label": t("endpoints.rotateLabel", { url: e.url }) }) : null,
        may("manageEndpoints") ? button(t("action.delete"), (event) => deleteEndpoint(e, event.currentTarget),
                                        { kind: "danger-quiet", "aria-label": t("endpoints.deleteLabel", { url: e.url }) })
          : null) },
    ],
    fetch: (query) => api("GET", `${base}/webhook-endpoints/list`, { query: listQuery(query) }),
    empty: [h("p", {}, t("endpoints.empty")),
            may("manageEndpoints") ? h("p", { class: "field-hint" }, t("endpoints.emptyMaintainer")) : null],
  });
  const endpointFields = (current) => [
    { name: "url", label: t("endpoints.url"), type: "url", required: true, value: current?.url ?? "",
      placeholder: "https://", hint: t("endpoints.urlHint"), inputmode: "url" },
    { name: "eventTypes", label: t("endpoints.eventTypes"), type: "checkboxes", required: true,
      value: current?.eventTypes ?? [],
      options: published.webhookEventTypes.map((e) => ({
        value: e.eventType, label: e.eventType, hint: e.scope ? `${e.description} ${t("endpoints.needsScope", { scope: e.scope })}` : e.description })) },
    { name: "enabled", label: t("endpoints.enabledLabel"), type: "checkbox", value: current ? current.enabled : true },
  ];
  const showSecret = (endpointId, secret, note) => secretDialog({
    title: t("endpoints.secretTitle"),
    intro: t("endpoints.secretIntro"),
    items: [{ label: t("endpoints.id"), value: endpointId }, { label: t("endpoints.secret"), value: secret, secret: true }],
    note,
  });
  const addEndpoint = () => formDialog({
    title: t("endpoints.new"),
    submitLabel: t("endpoints.register"),
    fields: endpointFields(null),
    onSubmit: async (values) => {
      const created = await api("POST", `${base}/webhook-endpoints`, { body: values });
      await endpoints.reload();
      showSecret(created.endpointId, created.secret, null);
    },
  });
  const editEndpoint = (e) => formDialog({
    title: t("endpoints.edit"),
    submitLabel: t("action.save"),
    fields: endpointFields(e),
    onSubmit: async (values) => {
      await api("PUT", `/api/open-platform/webhook-endpoints/${e.endpointId}`, { body: values });
      notify(t("endpoints.saved"));
      await endpoints.reload();
    },
  });
  const rotateSecret = (e) => formDialog({
    title: t("endpoints.rotate"),
    intro: t("endpoints.rotateIntro"),
    submitLabel: t("endpoints.rotate"),
    fields: [{ name: "overlapSeconds", label: t("endpoints.overlap"), type: "select", value: "86400",
               options: OVERLAPS.map((s) => ({ value: String(s), label: durationLabel(s) })) }],
    onSubmit: async (values) => {
      const rotated = await api("POST", `/api/open-platform/webhook-endpoints/${e.endpointId}/rotate-secret`,
                                { body: { overlapSeconds: Number(values.overlapSeconds) } });
      showSecret(rotated.endpointId, rotated.secret,
                 t("endpoints.previousUntil", { time: formatTime(rotated.previousSecretsExpireAt) }));
    },
  });
  const deleteEndpoint = async (e, control) => {
    if (!(await confirmDialog({ title: t("endpoints.delete"), message: t("endpoints.deleteConfirm", { url: e.url }),
                                confirmLabel: t("action.delete"), danger: true }))) return;
    await busy(control, async () => {
      await api("DELETE", `/api/open-platform/webhook-endpoints/${e.endpointId}`);
      notify(t("endpoints.deleted"));
      await endpoints.reload();
    });
  };

  // -- events: what the installation's events API serves it, newest first --------------------------
  const eventsBox = h("div", { class: "list-panel" });
  const shown = [];
  const eventColumns = [
    { label: t("events.occurredAt"), render: (e) => formatTime(e.occurredAt) },
    { label: t("events.type"), render: (e) => code(e.type) },
    { label: t("events.id"), render: (e) => code(e.id) },
    { label: t("events.data"), render: (e) => h("code", { class: "event-data" }, JSON.stringify(e.data)) },
  ];
  const loadEvents = async (before) => {
    if (!before) shown.length = 0;
    if (!shown.length) eventsBox.replaceChildren(loading());
    let data;
    try {
      data = await api("GET", `${base}/events/list`, { query: before ? { before } : {} });
    } catch (error) {
      eventsBox.replaceChildren(h("div", { class: "list-error", role: "alert" },
        h("p", {}, error instanceof ApiError ? error.message : t("error.unexpected"))));
      return;
    }
    shown.push(...data.records);
    eventsBox.replaceChildren(...(shown.length === 0 ? [h("div", { class: "empty" }, h("p", {}, t("events.empty")))]
      : [table({ caption: t("events.title"), columns: eventColumns, rows: shown }),
         data.nextBefore ? button(t("events.older"), (event) => busy(event.currentTarget,
                                                                  () => loadEvents(data.nextBefore))) : null]
        .filter(Boolean)));
  };

  const calls = new StatsPanel({ path: `${base}/call-stats`, render: callPlots });

  renderSummary();
  append(root, [
    breadcrumbs([[t("applications.title"), "#/applications"], [app.name, `#/applications/${app.appId}`], [title]]),
    heading(t("installations.heading", { name: title }),
            badge(app.role, t("applications.yourRole", { role: t(`status.${app.role}`) }))),
    summary,
    section(t("credentials.title"),
      h("p", { class: "section-lead" }, t("credentials.lead")),
      toolbar(may("manageCredentials") ? button(t("credentials.create"), (event) => create(event.currentTarget),
                                                { kind: "primary" }) : null,
              may("manageCredentials") ? button(t("credentials.registerKey"), registerKey) : null, sortByAge),
      credentials.element),
    section(t("endpoints.title"),
      h("p", { class: "section-lead" }, t("endpoints.lead")),
      toolbar(may("manageEndpoints") ? button(t("endpoints.new"), addEndpoint, { kind: "primary" }) : null),
      endpoints.element),
    section(t("events.title"),
      h("p", { class: "section-lead" }, t("events.lead")),
      toolbar(button(t("events.refresh"), (event) => busy(event.currentTarget, () => loadEvents(null)))),
      eventsBox),
    section(t("calls.section"),
      h("p", { class: "section-lead" }, t("calls.lead")),
      calls.element),
  ]);
  await Promise.all([credentials.reload(), endpoints.reload(), loadEvents(null), calls.reload()]);
}
