// A webhook endpoint's deliveries, each with every attempt (time, HTTP status, latency, error,
// worker, the start of the receiver's answer), the dead-letter queue (status `dead`) as a filter,
// and replay for owners. The list refreshes itself every few seconds while the screen is open, so
// a delivery can be watched as it is retried, dies and, after a replay, is delivered.
//
// Above the list: whether the endpoint is disabled and why, with re-enabling for owners and
// maintainers; hourly plots of deliveries and first-attempt latency over 24 hours or 7 days; and,
// for owners, recovery of every dead or retrying delivery since a time (after an outage).

import { api, listQuery } from "./api.js";
import { append, clear, h, uid } from "./dom.js";
import { formatNumber, formatTime, t } from "./i18n.js";
import { StatsPanel, plot } from "./chart.js";
import { roleAllows } from "./session.js";
import { ListPanel, badge, busy, button, code, facts, notify, searchBox, section, selectBox, toolbar } from "./ui.js";
import { breadcrumbs, heading } from "./view-applications.js";

const REFRESH_MS = 3000;
const STATUSES = ["dead", "pending", "retrying", "delivered"];
const DAY_MS = 24 * 3600 * 1000;

/** The service's reason for disabling an endpoint, in the reader's language when it is a known one. */
export function disabledReason(reason) {
  if (!reason) return t("endpoints.disabledByOwner");
  if (reason === "410 Gone") return t("endpoints.reasonGone");
  const failing = /^failing since (.+)$/.exec(reason);
  if (failing) return t("endpoints.reasonFailing", { time: formatTime(failing[1]) });
  return reason;
}

/** A value for <input type="datetime-local">: the reader's local time, to the minute. */
function localInputValue(date) {
  const pad = (n) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:`
    + pad(date.getMinutes());
}

function deliveryPlots(data, windowKey) {
  const buckets = data.buckets;
  const sum = (key) => buckets.reduce((total, b) => total + b[key], 0);
  const ms = (value) => t("deliveries.ms", { ms: formatNumber(value) });
  const highest = Math.max(0, ...buckets.map((b) => b.p95LatencyMs ?? 0));
  const period = t(`stats.window.${windowKey}`);
  return [
    plot({ kind: "bars", windowKey, buckets, title: t("stats.deliveriesTitle"),
           description: t("stats.deliveriesDesc", { period, delivered: formatNumber(sum("delivered")),
                                                    failed: formatNumber(sum("failed")), dead: formatNumber(sum("dead")) }),
           series: [{ key: "delivered", label: t("stats.delivered") }, { key: "failed", label: t("stats.failed") },
                    { key: "dead", label: t("stats.dead") }],
           yLabel: t("stats.countAxis"), empty: t("stats.noDeliveries") }),
    plot({ kind: "lines", windowKey, buckets, title: t("stats.latencyTitle"),
           description: highest ? t("stats.latencyDesc", { period, ms: ms(highest) }) : t("stats.noLatency"),
           series: [{ key: "p50LatencyMs", label: t("stats.median") }, { key: "p95LatencyMs", label: t("stats.tail") }],
           yLabel: t("stats.msAxis"), format: ms, empty: t("stats.noLatency") }),
  ];
}

export async function endpointView({ root, params: [endpointId] }) {
  const path = `/api/open-platform/webhook-endpoints/${endpointId}`;
  let endpoint = await api("GET", path);
  const inst = await api("GET", `/api/open-platform/installations/${endpoint.installationId}`);
  const app = await api("GET", `/api/open-platform/applications/${inst.appId}`);
  const instTitle = `${inst.tenantId} · ${t(`env.${inst.environment}`)}`;
  document.title = `${t("deliveries.title")} · ${endpoint.url} · ${t("shell.title")}`;
  const mayReplay = roleAllows(app.role, "replayDeliveries");
  const mayManage = roleAllows(app.role, "manageEndpoints");
  const expanded = new Set();

  // -- the endpoint, and why it is disabled ---------------------------------------------------------
  const summary = h("div", { class: "endpoint-summary" });
  const renderSummary = () => append(clear(summary), [
    endpoint.enabled ? null : h("div", { class: "disabled-box", role: "note" },
      h("p", { class: "disabled-title" }, t("endpoints.disabledTitle")),
      h("p", { class: "disabled-reason" }, disabledReason(endpoint.disabledReason)),
      mayManage ? button(t("endpoints.reEnable"), (event) => reEnable(event.currentTarget), { kind: "primary" })
        : h("p", { class: "field-hint" }, t("endpoints.reEnableAsk"))),
    facts([[t("endpoints.url"), h("span", { class: "url" }, endpoint.url)],
           [t("endpoints.eventTypes"), endpoint.eventTypes.join(", ")],
           [t("endpoints.enabled"), badge(endpoint.enabled ? "on" : "off", endpoint.enabled ? t("endpoints.on") : t("endpoints.off"))],
           [t("applications.roleLabel"), badge(app.role)]])]);
  const reEnable = (control) => busy(control, async () => {
    endpoint = await api("PUT", path, { body: { enabled: true } });
    renderSummary();
    notify(t("endpoints.reEnabled"));
    root.querySelector("h1")?.focus();  // the button is gone: keep the keyboard user on the screen
  });

  // -- hourly plots -------------------------------------------------------------------------------
  const stats = new StatsPanel({ path: `${path}/stats`, render: deliveryPlots });

  // -- recovery after an outage (owners) ------------------------------------------------------------
  const sinceId = uid("recover-since");
  const since = h("input", { id: sinceId, type: "datetime-local", required: true,
                             value: localInputValue(new Date(Date.now() - DAY_MS)) });
  const recover = (control) => busy(control, async () => {
    const when = new Date(since.value);
    if (Number.isNaN(when.getTime())) {
      notify(t("recover.badTime"), "error");
      return;
    }
    const result = await api("POST", `${path}/deliveries/recover`, { body: { since: when.toISOString() } });
    const n = formatNumber(result.recovered);
    const done = result.recovered === 0 ? t("recover.none")
      : t(result.recovered === 1 ? "recover.doneOne" : "recover.done", { n });
    notify(done, "success", result.more ? t("recover.more") : null);
    await Promise.all([panel.reload({ quiet: true }), stats.reload()]);
  });

  const attemptsOf = (d) => h("div", { class: "attempts", id: `attempts-${d.deliveryId}`,
                                       hidden: !expanded.has(d.deliveryId) },
    d.attempts.length === 0 ? h("p", { class: "field-hint" }, t("deliveries.noAttempts")) : h("table", { class: "table table-inner" },
      h("caption", { class: "visually-hidden" }, t("deliveries.attemptsOf", { id: d.deliveryId })),
      h("thead", {}, h("tr", {}, [t("deliveries.attemptTime"), t("deliveries.httpStatus"), t("deliveries.latency"),
                                  t("deliveries.error"), t("deliveries.worker"), t("deliveries.response")]
        .map((label) => h("th", { scope: "col" }, label)))),
      h("tbody", {}, d.attempts.map((a) => h("tr", {},
        h("td", { "data-label": t("deliveries.attemptTime") }, formatTime(a.attemptedAt)),
        h("td", { "data-label": t("deliveries.httpStatus") }, a.outcome === "sending" ? t("deliveries.inFlight")
          : a.outcome === "unknown" ? t("deliveries.outcomeUnknown") : a.httpStatus === null ? "—" : String(a.httpStatus)),
        h("td", { "data-label": t("deliveries.latency") },
          a.latencyMs === null ? "—" : t("deliveries.ms", { ms: formatNumber(a.latencyMs) })),
        h("td", { "data-label": t("deliveries.error") }, a.error || "—"),
        h("td", { "data-label": t("deliveries.worker") }, a.worker ? code(a.worker) : "—"),
        h("td", { "data-label": t("deliveries.response") },
          a.responseExcerpt ? h("code", { class: "mono excerpt" }, a.responseExcerpt) : "—"))))));

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
      { label: t("deliveries.requestId"), render: (d) => (d.requestId ? code(d.requestId) : "—") },
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

  // The status shown and one call's request id (from the call audit), together.
  const shown = { status: "", requestId: "" };
  const applyFilters = () => panel.set({ filters: [
    ...(shown.status ? [{ fieldName: "status", operator: "eq", value: shown.status }] : []),
    ...(shown.requestId ? [{ fieldName: "requestId", operator: "eq", value: shown.requestId }] : []),
  ] });
  const filter = selectBox({
    label: t("deliveries.show"),
    options: [{ value: "", label: t("deliveries.all") },
              ...STATUSES.map((s) => ({ value: s, label: s === "dead" ? t("deliveries.deadLetter") : t(`status.${s}`) }))],
    value: "",
    onChange: (status) => { shown.status = status; applyFilters(); },
  });
  const byRequest = searchBox({
    label: t("deliveries.requestIdSearch"),
    onSearch: (requestId) => { shown.requestId = requestId; applyFilters(); },
  });
  const autoId = "auto-refresh";
  const auto = h("input", { type: "checkbox", id: autoId, checked: true });
  let timer = setInterval(() => {
    if (auto.checked && document.visibilityState === "visible") panel.reload({ quiet: true });
  }, REFRESH_MS);

  renderSummary();
  append(root, [
    breadcrumbs([[t("applications.title"), "#/applications"], [app.name, `#/applications/${app.appId}`],
                 [instTitle, `#/installations/${inst.installationId}`], [t("deliveries.title")]]),
    heading(t("deliveries.title")),
    summary,
    section(t("stats.deliveriesSection"),
      h("p", { class: "section-lead" }, t("stats.deliveriesLead")),
      stats.element),
    mayReplay ? section(t("recover.title"),
      h("p", { class: "section-lead" }, t("recover.lead")),
      h("div", { class: "toolbar" },
        h("div", { class: "inline-field" }, h("label", { for: sinceId }, t("recover.since")), since),
        button(t("recover.action"), (event) => recover(event.currentTarget), { kind: "primary" }))) : null,
    section(t("deliveries.log"),
      h("p", { class: "section-lead" }, t("deliveries.lead")),
      toolbar(filter, byRequest, button(t("action.refresh"), (event) => busy(event.currentTarget,
                                                                  () => Promise.all([panel.reload(), stats.reload()]))),
              h("div", { class: "check" }, auto, h("label", { for: autoId }, t("deliveries.auto")))),
      panel.element),
  ]);
  await Promise.all([panel.reload(), stats.reload()]);
  return () => {
    clearInterval(timer);
    timer = null;
  };
}
