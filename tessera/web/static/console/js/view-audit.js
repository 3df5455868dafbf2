// Audit search with the list contract: keyword, field filters (action, actor, target, request id,
// time range), sort order, paging. The service decides what the user may see (tenant
// administrators their tenant's entries, application members their applications').

import { api, listQuery } from "./api.js";
import { append, h, uid } from "./dom.js";
import { formatTime, t } from "./i18n.js";
import { ListPanel, code, jsonBlock, section } from "./ui.js";
import { heading } from "./view-applications.js";

const TEXT_FILTERS = [
  ["action", "like"], ["actor", "like"], ["targetType", "eq"], ["targetId", "eq"], ["requestId", "eq"],
];

function field(label, input, hint = null) {
  input.id = input.id || uid("audit");
  return h("div", { class: "field" }, h("label", { for: input.id }, label),
    hint ? h("p", { class: "field-hint", id: `${input.id}-hint` }, hint) : null, input);
}

export async function auditView({ root }) {
  document.title = `${t("audit.title")} · ${t("shell.title")}`;
  const inputs = {
    keyword: h("input", { type: "search", name: "keyword", autocomplete: "off" }),
    ...Object.fromEntries(TEXT_FILTERS.map(([name]) => [name, h("input", { type: "text", name, autocomplete: "off" })])),
    from: h("input", { type: "datetime-local", name: "from", step: "1" }),
    to: h("input", { type: "datetime-local", name: "to", step: "1" }),
    sortOrder: h("select", { name: "sortOrder" }, h("option", { value: "desc" }, t("audit.newest")),
      h("option", { value: "asc" }, t("audit.oldest"))),
    pageSize: h("select", { name: "pageSize" }, [10, 25, 50, 100].map((n) => h("option", { value: String(n) }, String(n)))),
  };
  const panel = new ListPanel({
    caption: t("audit.title"),
    columns: [
      { label: t("audit.time"), render: (e) => formatTime(e.created_at) },
      { label: t("audit.action"), render: (e) => code(e.action) },
      { label: t("audit.actor"), render: (e) => e.actor || "—" },
      { label: t("audit.target"), render: (e) => (e.targetType ? [e.targetType, " ", e.targetId ? code(e.targetId) : null]
                                                                 : "—") },
      { label: t("audit.requestId"), render: (e) => (e.requestId ? code(e.requestId) : "—") },
      { label: t("audit.change"), render: (e) => (e.before || e.after ? h("details", { class: "details" },
        h("summary", {}, t("audit.showChange")),
        e.before ? [h("p", { class: "sub" }, t("audit.before")), jsonBlock(e.before)] : null,
        e.after ? [h("p", { class: "sub" }, t("audit.after")), jsonBlock(e.after)] : null) : "—") },
    ],
    fetch: (query) => api("GET", "/api/audit/list", { query: listQuery(query) }),
    empty: h("p", {}, t("audit.empty")),
  });
  const search = () => {
    const filters = [];
    for (const [name, operator] of TEXT_FILTERS) {
      const value = inputs[name].value.trim();
      if (value) filters.push({ fieldName: name, operator, value });
    }
    // datetime-local is the reader's local time; the service compares instants in UTC.
    if (inputs.from.value) filters.push({ fieldName: "created_at", operator: "gte", value: new Date(inputs.from.value).toISOString() });
    if (inputs.to.value) filters.push({ fieldName: "created_at", operator: "lte", value: new Date(inputs.to.value).toISOString() });
    return panel.set({ keyword: inputs.keyword.value.trim(), filters, sortField: "created_at",
                       sortOrder: inputs.sortOrder.value, pageSize: Number(inputs.pageSize.value) });
  };
  const form = h("form", { class: "filters", method: "post", role: "search", "aria-label": t("audit.filters") },
    h("div", { class: "filter-grid" },
      field(t("audit.keyword"), inputs.keyword),
      field(t("audit.action"), inputs.action, t("audit.containsHint")),
      field(t("audit.actor"), inputs.actor, t("audit.containsHint")),
      field(t("audit.targetType"), inputs.targetType),
      field(t("audit.targetId"), inputs.targetId),
      field(t("audit.requestId"), inputs.requestId),
      field(t("audit.from"), inputs.from),
      field(t("audit.to"), inputs.to),
      field(t("audit.order"), inputs.sortOrder),
      field(t("audit.pageSize"), inputs.pageSize)),
    h("div", { class: "toolbar" },
      h("button", { type: "submit", class: "button button-primary" }, t("audit.search")),
      h("button", { type: "reset", class: "button button-secondary" }, t("audit.reset"))));
  for (const input of Object.values(inputs)) {
    const hint = input.parentElement?.querySelector(".field-hint");
    if (hint) input.setAttribute("aria-describedby", hint.id);
  }
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    search();
  });
  form.addEventListener("reset", () => setTimeout(search, 0));
  append(root, [
    heading(t("audit.title")),
    h("p", { class: "lead" }, t("audit.lead")),
    section(t("audit.filters"), form),
    section(t("audit.results"), panel.element),
  ]);
  panel.params = { ...panel.params, sortField: "created_at", sortOrder: "desc" };
  await panel.reload();
}
