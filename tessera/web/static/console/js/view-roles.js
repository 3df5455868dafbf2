// The tenant's roles (tenant permission roles:view): what each grants, the models.yaml template it
// follows, and how it differs from it (`tessera migrate` brings what a template gained).

import { api } from "./api.js";
import { append, h } from "./dom.js";
import { t } from "./i18n.js";
import { ListPanel, code, section } from "./ui.js";
import { heading } from "./view-applications.js";

const codes = (list) => (list && list.length ? h("ul", { class: "tags" }, list.map((p) => h("li", {}, code(p)))) : "—");

export async function rolesView({ root }) {
  document.title = `${t("roles.title")} · ${t("shell.title")}`;
  const panel = new ListPanel({
    caption: t("roles.title"),
    columns: [
      { label: t("roles.role"), render: (r) => [r.name, h("span", { class: "sub" }, r.code)] },
      { label: t("roles.permissions"), render: (r) => codes(r.permissions) },
      { label: t("roles.template"), render: (r) => (r.template === null ? t("roles.noTemplate") : codes(r.template)) },
      { label: t("roles.extra"), render: (r) => codes(r.extra) },
      { label: t("roles.missing"), render: (r) => codes(r.missing) },
    ],
    fetch: () => api("GET", "/api/roles/list"),
    empty: h("p", {}, t("roles.empty")),
    pageSize: 500,
  });
  append(root, [heading(t("roles.title")), h("p", { class: "lead" }, t("roles.lead")),
                section(t("roles.title"), panel.element)]);
  await panel.reload();
}
