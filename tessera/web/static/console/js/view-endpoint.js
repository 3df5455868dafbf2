// A webhook endpoint's deliveries, each with every attempt (time, HTTP status, latency, error),
// the dead-letter queue (status `dead`) as a filter, and replay for owners. The list refreshes
// itself every few seconds while the screen is open, so a delivery can be watched as it is
// retried, dies and, after a replay, is delivered.

import { api, listQuery } from "./api.js";
import { append, h } from "./dom.js";
import { formatNumber, formatTime, t } from "./i18n.js";
import { roleAllows } from "./session.js";
import { ListPanel, badge, busy, button, code, facts, notify, section, selectBox, toolbar } from "./ui.js";
import { breadcrumbs, heading } from "./view-applications.js";

const REFRESH_MS = 3000;
const STATUSES = ["dead", "pending", "retrying", "delivered"];

export async function endpointView({ root, params: [endpointId] }) {
  const endpoint = await api("GET", `/api/open-platform/webhook-endpoints/${endpointId}`);
  const inst = await api("GET", `/api/open-platform/installations/${endpoint.installationId}`);
  const app = await api("GET", `/api/open-platform/applications/${inst.appId}`);
  const instTitle = `${inst.tenantId} · ${t(`env.${inst.environment}`)}`;
  document.title = `${t("deliveries.title")} · ${endpoint.url} · ${t("shell.title")}`;
  const mayReplay = roleAllows(app.role, "replayDeliveries");
  const expanded = new Set();

  const attemptsOf = (d) => h("div", { class: "attempts", id: `attempts-${d.deliveryId}`,
                                       hidden: !expanded.has(d.deliveryId) },
    d.attempts.length === 0 ? h("p", { class: "field-hint" }, t("deliveries.noAttempts")) : h("table", { class: "table table-inner" },
      h("caption", { class: "visually-hidden" }, t("deliveries.attemptsOf", { id: d.deliveryId })),
      h("thead", {}, h("tr", {}, [t("deliveries.attemptTime"), t("deliveries.httpStatus"), t("deliveries.latency"),
                                  t("deliveries.error")].map((label) => h("th", { scope: "col" }, label)))),
      h("tbody", {}, d.attempts.map((a) => h("tr", {},
        h("td", { "data-label": t("deliveries.attemptTime") }, formatTime(a.attemptedAt)),
        h("td", { "data-label": t("deliveries.httpStatus") }, a.httpStatus === null ? "—" : String(a.httpStatus)),
        h("td", { "data-label": t("deliveries.latency") },
          a.latencyMs === null ? "—" : t("deliveries.ms", { ms: formatNumber(a.latencyMs) })),
        h("td", { "data-label": t("deliveries.error") }, a.error || "—"))))));

  const toggleAttempts = (d, control) => {
    const open = !expanded.has(d.deliveryId);
    if (open) expanded.add(d.deliveryId);
    else expanded.delete(d.deliveryId);
    control.setAttribute("aria-expanded", String(open));
    document.getElementById(`attempts-${d.deliveryId}`).hidden = !open;
  };

  const panel = new ListPanel({
    caption: t("deliveries.title"),
    columns: [
      { label: t("deliveries.delivery"), render: (d) => [code(d.deliveryId), h("span", { class: "sub" }, d.eventType)] },
      { label: t("deliveries.status"), render: (d) => badge(d.status) },
      { label: t("deliveries.attempts"), render: (d) => [
        h("button", { type: "button", class: "link-button", "aria-expanded": String(expanded.has(d.deliveryId)),
                      "aria-controls": `attempts-${d.deliveryId}`, dataset: { focusKey: `attempts-${d.deliveryId}` },
                      on: { click: (event) => toggleAttempts(d, event.currentTarget) } },
          t("deliveries.attemptCount", { n: d.attempts.length })),
        attemptsOf(d)] },
      { label: t("deliveries.next"), render: (d) => (d.nextAttemptAt ? formatTime(d.nextAttemptAt) : "—") },
      { label: t("common.created"), render: (d) => formatTime(d.created_at) },
      { label: t("common.actions"), render: (d) => (mayReplay && (d.status === "dead" || d.status === "delivered")
        ? button(t("deliveries.replay"), (event) => replay(d, event.currentTarget),
                 { kind: d.status === "dead" ? "primary" : "secondary", dataset: { focusKey: `replay-${d.deliveryId}` },
                   "aria-label": t("deliveries.replayLabel", { id: d.deliveryId }) })
        : "—") },
    ],
    fetch: (query) => api("GET", `/api/open-platform/webhook-endpoints/${endpointId}/deliveries/list`,
                          { query: listQuery(query) }),
    empty: h("p", {}, t("deliveries.empty")),
    rowProps: (d) => ({ dataset: { status: d.status } }),
  });
  const replay = (d, control) => busy(control, async () => {
    await api("POST", `/api/open-platform/deliveries/${d.deliveryId}/replay`);
    notify(t("deliveries.replayed", { id: d.deliveryId }));
    await panel.reload({ quiet: true });
  });

  const filter = selectBox({
    label: t("deliveries.show"),
    options: [{ value: "", label: t("deliveries.all") },
              ...STATUSES.map((s) => ({ value: s, label: s === "dead" ? t("deliveries.deadLetter") : t(`status.${s}`) }))],
    value: "",
    onChange: (status) => panel.set({ filters: status ? [{ fieldName: "status", operator: "eq", value: status }] : [] }),
  });
  const autoId = "auto-refresh";
  const auto = h("input", { type: "checkbox", id: autoId, checked: true });
  let timer = setInterval(() => {
    if (auto.checked && document.visibilityState === "visible") panel.reload({ quiet: true });
  }, REFRESH_MS);

  append(root, [
    breadcrumbs([[t("applications.title"), "#/applications"], [app.name, `#/applications/${app.appId}`],
                 [instTitle, `#/installations/${inst.installationId}`], [t("deliveries.title")]]),
    heading(t("deliveries.title")),
    facts([[t("endpoints.url"), h("span", { class: "url" }, endpoint.url)],
           [t("endpoints.eventTypes"), endpoint.eventTypes.join(", ")],
           [t("endpoints.enabled"), badge(endpoint.enabled ? "on" : "off", endpoint.enabled ? t("endpoints.on") : t("endpoints.off"))],
           [t("applications.roleLabel"), badge(app.role)]]),
    section(t("deliveries.log"),
      h("p", { class: "section-lead" }, t("deliveries.lead")),
      toolbar(filter, button(t("action.refresh"), (event) => busy(event.currentTarget, () => panel.reload())),
              h("div", { class: "check" }, auto, h("label", { for: autoId }, t("deliveries.auto")))),
      panel.element),
  ]);
  await panel.reload();
  return () => {
    clearInterval(timer);
    timer = null;
  };
}
