// The tenant's automations (tenant permissions automations:view / automations:manage) and the
// runs of one automation, with retry for parked runs.

import { ApiError, api, listQuery } from "./api.js";
import { append, h } from "./dom.js";
import { formatTime, t } from "./i18n.js";
import { can, catalog, session } from "./session.js";
import {
  ListPanel, badge, busy, button, code, confirmDialog, facts, formDialog, jsonBlock, link, notify, searchBox, section,
  selectBox, toolbar,
} from "./ui.js";
import { breadcrumbs, heading } from "./view-applications.js";

const RUN_STATUSES = ["parked", "pending", "retrying", "succeeded"];
const EXAMPLE_ACTIONS = [{ kind: "sessionCommand", command: "stock-ins:create",
                           payload: { sku: "$.data.sku", quantity: "$.data.quantity", warehouse: "$.data.warehouse",
                                      receivedAt: "$.occurredAt", source: "robot-fleet" } }];

function describeActions(actions) {
  return h("ul", { class: "plain" }, actions.map((a) => h("li", {}, code(a.command), " ",
    h("span", { class: "sub" }, a.kind === "command" ? t("automations.kindCommand") : t("automations.kindSession")))));
}

export async function automationsView({ root, navigate }) {
  document.title = `${t("automations.title")} · ${t("shell.title")}`;
  const manage = can("automations:manage");
  const panel = new ListPanel({
    caption: t("automations.title"),
    columns: [
      { label: t("automations.name"), render: (a) => link(a.name, `#/automations/${a.automationId}`) },
      { label: t("automations.trigger"), render: (a) => `${a.trigger.source} · ${a.trigger.eventType}` },
      { label: t("automations.actions"), render: (a) => describeActions(a.actions) },
      { label: t("automations.enabled"), render: (a) => badge(a.enabled ? "on" : "off",
                                                               a.enabled ? t("endpoints.on") : t("endpoints.off")) },
      { label: t("common.updated"), render: (a) => formatTime(a.updated_at) },
      { label: t("common.actions"), render: (a) => (manage ? h("div", { class: "row-actions" },
        button(a.enabled ? t("automations.disable") : t("automations.enable"), (event) => toggle(a, event.currentTarget),
               { "aria-label": t(a.enabled ? "automations.disableLabel" : "automations.enableLabel", { name: a.name }) }),
        button(t("action.delete"), (event) => remove(a, event.currentTarget),
               { kind: "danger-quiet", "aria-label": t("automations.deleteLabel", { name: a.name }) })) : "—") },
    ],
    fetch: (query) => api("GET", "/api/open-platform/automations/list", { query: listQuery(query) }),
    empty: h("p", {}, t("automations.empty")),
  });
  const toggle = (a, control) => busy(control, async () => {
    await api("PUT", `/api/open-platform/automations/${a.automationId}`, { body: { enabled: !a.enabled } });
    notify(a.enabled ? t("automations.disabled", { name: a.name }) : t("automations.enabledNotice", { name: a.name }));
    await panel.reload({ quiet: true });
  });
  const remove = async (a, control) => {
    if (!(await confirmDialog({ title: t("automations.delete"), message: t("automations.deleteConfirm", { name: a.name }),
                                confirmLabel: t("action.delete"), danger: true }))) return;
    await busy(control, async () => {
      await api("DELETE", `/api/open-platform/automations/${a.automationId}`);
      notify(t("automations.deleted", { name: a.name }));
      await panel.reload();
    });
  };
  const create = async () => {
    const published = await catalog();
    const triggers = published.eventSources.flatMap((source) => source.eventTypes.map((type) => ({
      value: `${source.source}\u0000${type}`, label: `${source.source} · ${type}` })));
    formDialog({
      title: t("automations.new"),
      intro: t("automations.newIntro"),
      submitLabel: t("action.create"),
      fields: [
        { name: "name", label: t("automations.name"), required: true },
        { name: "trigger", label: t("automations.trigger"), type: "select", required: true, options: triggers,
          value: triggers[0]?.value },
        { name: "actions", label: t("automations.actionsJson"), type: "textarea", rows: 8, required: true,
          hint: t("automations.actionsHint"), value: JSON.stringify(EXAMPLE_ACTIONS, null, 2) },
        { name: "enabled", label: t("automations.enabledLabel"), type: "checkbox", value: true },
      ],
      onSubmit: async (values) => {
        let actions;
        try {
          actions = JSON.parse(values.actions);
        } catch {
          throw new ApiError(400, "VALIDATION_ERROR", t("automations.badJson"),
                             { fieldErrors: { actions: t("automations.badJsonField") } });
        }
        const [source, eventType] = values.trigger.split("\u0000");
        const created = await api("POST", "/api/open-platform/automations", {
          body: { name: values.name, trigger: { source, eventType }, actions, enabled: values.enabled } });
        notify(t("automations.created", { name: created.name }));
        navigate(`#/automations/${created.automationId}`, { keep: true });
      },
    });
  };
  append(root, [
    heading(t("automations.title")),
    h("p", { class: "lead" }, t("automations.lead", { tenant: session().tenantName })),
    toolbar(searchBox({ label: t("automations.search"), onSearch: (keyword) => panel.set({ keyword }) }),
      manage ? button(t("automations.new"), create, { kind: "primary" }) : null),
    panel.element,
  ]);
  await panel.reload();
}

export async function automationView({ root, params: [automationId] }) {
  const automation = await api("GET", `/api/open-platform/automations/${automationId}`);
  document.title = `${automation.name} · ${t("shell.title")}`;
  const manage = can("automations:manage");
  const runs = new ListPanel({
    caption: t("runs.title"),
    columns: [
      { label: t("runs.run"), render: (r) => [code(r.runId), h("span", { class: "sub" }, r.eventId)] },
      { label: t("runs.status"), render: (r) => badge(r.status) },
      { label: t("runs.attempts"), render: (r) => String(r.attempts) },
      { label: t("runs.outcome"), render: (r) => (r.error ? h("span", { class: "error-text" }, r.error)
        : r.result ? h("ul", { class: "plain" }, r.result.map((x) => h("li", {}, code(x.command), " → ", code(x.pid))))
          : "—") },
      { label: t("runs.next"), render: (r) => (r.nextAttemptAt ? formatTime(r.nextAttemptAt) : "—") },
      { label: t("common.created"), render: (r) => formatTime(r.created_at) },
      { label: t("common.actions"), render: (r) => (manage && r.status === "parked"
        ? button(t("runs.retry"), (event) => retry(r, event.currentTarget),
                 { kind: "primary", "aria-label": t("runs.retryLabel", { id: r.runId }) }) : "—") },
    ],
    fetch: (query) => api("GET", `/api/open-platform/automations/${automationId}/runs/list`, { query: listQuery(query) }),
    empty: h("p", {}, t("runs.empty")),
  });
  const retry = (r, control) => busy(control, async () => {
    await api("POST", `/api/open-platform/automation-runs/${r.runId}/retry`);
    notify(t("runs.retried", { id: r.runId }));
    await runs.reload({ quiet: true });
  });
  const filter = selectBox({
    label: t("deliveries.show"),
    options: [{ value: "", label: t("deliveries.all") }, ...RUN_STATUSES.map((s) => ({ value: s, label: t(`status.${s}`) }))],
    value: "",
    onChange: (status) => runs.set({ filters: status ? [{ fieldName: "status", operator: "eq", value: status }] : [] }),
  });
  append(root, [
    breadcrumbs([[t("automations.title"), "#/automations"], [automation.name]]),
    heading(automation.name, badge(automation.enabled ? "on" : "off",
                                   automation.enabled ? t("endpoints.on") : t("endpoints.off"))),
    facts([[t("automations.trigger"), `${automation.trigger.source} · ${automation.trigger.eventType}`],
           [t("automations.id"), code(automation.automationId)],
           [t("common.updated"), formatTime(automation.updated_at)]]),
    h("details", { class: "details" }, h("summary", {}, t("automations.actionsJson")), jsonBlock(automation.actions)),
    section(t("runs.title"),
      h("p", { class: "section-lead" }, t("runs.lead")),
      toolbar(filter, button(t("action.refresh"), (event) => busy(event.currentTarget, () => runs.reload()))),
      runs.element),
  ]);
  await runs.reload();
}
