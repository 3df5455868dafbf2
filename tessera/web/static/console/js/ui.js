// Shared pieces of the console: notices, dialogs (native <dialog>: focus trapping and Escape come
// with it), forms that show the server's field errors, the one-time secret dialog, tables that
// turn into cards on a phone, paging, and lists with loading, empty and error states.

import { ApiError } from "./api.js";
import { append, clear, h, uid } from "./dom.js";
import { formatNumber, t } from "./i18n.js";

// -- notices ---------------------------------------------------------------------------------------

let noticeRegion = null;

export function setNoticeRegion(element) {
  noticeRegion = element;
}

export function clearNotices() {
  if (noticeRegion) clear(noticeRegion);
}

/** A message above the current screen: `success`/`info` are polite status, `error` is an alert. */
export function notify(message, kind = "success", detail = null) {
  if (!noticeRegion) return;
  const notice = h("div", { class: ["notice", `notice-${kind}`], role: kind === "error" ? "alert" : "status" },
    h("p", { class: "notice-text" }, message),
    detail ? h("p", { class: "notice-detail" }, detail) : null,
    h("button", { type: "button", class: "link-button notice-close", on: { click: () => notice.remove() } },
      t("action.dismiss")));
  noticeRegion.prepend(notice);
  while (noticeRegion.children.length > 3) noticeRegion.lastElementChild.remove();
}

/** Show why a call failed: the server's translated message, and its code for support. */
export function reportError(error) {
  if (error instanceof ApiError && error.handled) return;
  if (error instanceof ApiError) {
    notify(error.message, "error", errorDetail(error));
  } else {
    notify(t("error.unexpected"), "error", String(error?.message || error));
  }
}

export function errorDetail(error) {
  if (!(error instanceof ApiError) || error.code === "NETWORK_ERROR") return null;
  const parts = [t("error.code", { code: error.code })];
  if (error.data?.permission) parts.push(t("error.permission", { permission: error.data.permission }));
  const fields = Object.entries(error.fieldErrors);
  for (const [field, message] of fields) parts.push(`${field}: ${message}`);
  return parts.join(" · ");
}

// -- small pieces ------------------------------------------------------------------------------------

const TONES = {
  owner: "info", maintainer: "info", viewer: "neutral",
  enabled: "ok", disabled: "bad", active: "ok", rotated: "warn", expired: "neutral", revoked: "bad",
  delivered: "ok", pending: "info", retrying: "warn", dead: "bad",
  succeeded: "ok", parked: "bad", on: "ok", off: "neutral", rotationDue: "warn",
};

/** A status or role shown as text with a colour that only repeats what the text says. */
export function badge(value, label = null) {
  return h("span", { class: ["badge", `tone-${TONES[value] || "neutral"}`] }, label ?? t(`status.${value}`));
}

export function button(label, onClick, { kind = "secondary", ...props } = {}) {
  return h("button", { type: "button", class: ["button", `button-${kind}`], on: { click: onClick }, ...props }, label);
}

export function link(label, href, props = {}) {
  return h("a", { href, ...props }, label);
}

export function code(value) {
  return h("code", { class: "mono" }, value);
}

export function loading(text = t("state.loading")) {
  return h("p", { class: "loading", role: "status" }, h("span", { class: "spinner", "aria-hidden": "true" }), text);
}

/** Runs `action` with the button disabled; a refusal is reported with the server's message. */
export async function busy(buttonElement, action) {
  buttonElement.disabled = true;
  buttonElement.setAttribute("aria-busy", "true");
  try {
    return await action();
  } catch (error) {
    reportError(error);
    return undefined;
  } finally {
    buttonElement.disabled = false;
    buttonElement.removeAttribute("aria-busy");
  }
}

// -- dialogs -----------------------------------------------------------------------------------------

/**
 * A modal dialog, removed from the document when it closes.
 *
 * `close()` removes it at once, in the same task: the browser fires the "close" event later, in a
 * task of its own, and until then a closed dialog (a secret dialog, say) would still be in the
 * document. Closing by Escape arrives through that event; either way `onClose` runs once.
 */
export function openDialog({ title, content = [], actions = [], onClose, className }) {
  const titleId = uid("dialog-title");
  const dialog = h("dialog", { class: ["dialog", className], "aria-labelledby": titleId },
    h("div", { class: "dialog-body" }, h("h2", { id: titleId, class: "dialog-title" }, title), content),
    actions.length ? h("div", { class: "dialog-actions" }, actions) : null);
  let finished = false;
  const finish = () => {
    if (finished) return;
    finished = true;
    dialog.remove();
    if (onClose) onClose(dialog.returnValue);
  };
  dialog.addEventListener("close", finish);
  document.body.append(dialog);
  dialog.showModal();
  const close = (value = "") => {
    if (dialog.open) dialog.close(value);
    finish();
  };
  return { dialog, close };
}

/** Resolves true when the user confirms. */
export function confirmDialog({ title, message, confirmLabel, danger = false }) {
  return new Promise((resolve) => {
    let confirmed = false;
    const { close } = openDialog({
      title,
      content: [h("p", {}, message)],
      actions: [
        button(t("action.cancel"), () => close(), { kind: "secondary" }),
        button(confirmLabel, () => { confirmed = true; close("confirm"); }, { kind: danger ? "danger" : "primary" }),
      ],
      onClose: () => resolve(confirmed),
    });
  });
}

/**
 * A dialog with a form. `fields`: [{name, label, type, required, value, options, hint, ...}].
 * `onSubmit(values)` runs the call; when it throws, the server's message is shown in the dialog and
 * each of its field errors next to its field, and the dialog stays open.
 */
export function formDialog({ title, intro, fields, submitLabel, onSubmit }) {
  const controls = new Map();
  const alertBox = h("div", { class: "form-alert", role: "alert", tabindex: "-1", hidden: true });
  const form = h("form", { class: "form", method: "post", novalidate: true },
    intro ? h("p", { class: "form-intro" }, intro) : null,
    alertBox,
    fields.map((field) => renderField(field, controls)));
  const submit = h("button", { type: "submit", class: "button button-primary" }, submitLabel);
  const cancel = button(t("action.cancel"), () => close(), { kind: "secondary" });
  append(form, [h("div", { class: "dialog-actions" }, cancel, submit)]);
  const { close } = openDialog({ title, content: [form] });
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearFieldErrors(controls, alertBox);
    const values = {};
    for (const [name, control] of controls) values[name] = control.read();
    const missing = fields.filter((f) => f.required && isEmpty(values[f.name]));
    if (missing.length) {
      for (const field of missing) showFieldError(controls.get(field.name), t("form.required"));
      controls.get(missing[0].name).focus();
      return;
    }
    submit.disabled = true;
    form.setAttribute("aria-busy", "true");
    try {
      await onSubmit(values, close);
      close("submitted");
    } catch (error) {
      showFormError(error, controls, alertBox);
    } finally {
      submit.disabled = false;
      form.removeAttribute("aria-busy");
    }
  });
  return { close };
}

function isEmpty(value) {
  return value === undefined || value === null || value === "" || (Array.isArray(value) && value.length === 0);
}

function renderField(field, controls) {
  const id = uid(`field-${field.name}`);
  const errorId = `${id}-error`;
  const hintId = field.hint ? `${id}-hint` : null;
  const describedBy = [hintId, errorId].filter(Boolean).join(" ");
  const error = h("p", { class: "field-error", id: errorId, hidden: true });
  const hint = field.hint ? h("p", { class: "field-hint", id: hintId }, field.hint) : null;
  const label = field.required ? [field.label, h("span", { class: "required", "aria-hidden": "true" }, " *")] : field.label;

  if (field.type === "checkboxes") {
    const boxes = (field.options || []).map((option) => {
      const boxId = uid(`${id}-opt`);
      const input = h("input", { type: "checkbox", id: boxId, value: option.value,
                                 checked: (field.value || []).includes(option.value) });
      return { input, node: h("div", { class: "check" }, input,
        h("label", { for: boxId }, h("span", { class: "check-label" }, option.label),
          option.hint ? h("span", { class: "check-hint" }, option.hint) : null)) };
    });
    const fieldset = h("fieldset", { class: "field", "aria-describedby": describedBy },
      h("legend", {}, label), hint, boxes.map((b) => b.node), error);
    controls.set(field.name, {
      read: () => boxes.filter((b) => b.input.checked).map((b) => b.input.value),
      focus: () => boxes[0]?.input.focus(),
      error, invalidTarget: fieldset,
    });
    return fieldset;
  }

  if (field.type === "checkbox") {
    const input = h("input", { type: "checkbox", id, checked: Boolean(field.value), "aria-describedby": describedBy });
    controls.set(field.name, { read: () => input.checked, focus: () => input.focus(), error, invalidTarget: input });
    return h("div", { class: "field field-check" }, h("div", { class: "check" }, input, h("label", { for: id }, label)),
      hint, error);
  }

  let input;
  if (field.type === "select") {
    input = h("select", { id, name: field.name, "aria-describedby": describedBy, required: field.required },
      (field.options || []).map((o) => h("option", { value: o.value, selected: o.value === field.value }, o.label)));
  } else if (field.type === "textarea") {
    input = h("textarea", { id, name: field.name, rows: field.rows || 4, "aria-describedby": describedBy,
                            required: field.required, placeholder: field.placeholder, spellcheck: "false" });
    input.value = field.value ?? "";
  } else {
    input = h("input", { id, name: field.name, type: field.type || "text", "aria-describedby": describedBy,
                         required: field.required, autocomplete: field.autocomplete || "off",
                         placeholder: field.placeholder, inputmode: field.inputmode });
    input.value = field.value ?? "";
  }
  controls.set(field.name, { read: () => (field.type === "select" || field.type === "textarea" ? input.value
                                         : input.value.trim()),
                             focus: () => input.focus(), error, invalidTarget: input });
  return h("div", { class: "field" }, h("label", { for: id }, label), hint, input, error);
}

function clearFieldErrors(controls, alertBox) {
  alertBox.hidden = true;
  clear(alertBox);
  for (const control of controls.values()) {
    control.error.hidden = true;
    control.error.textContent = "";
    control.invalidTarget.removeAttribute("aria-invalid");
  }
}

function showFieldError(control, message) {
  control.error.textContent = message;
  control.error.hidden = false;
  control.invalidTarget.setAttribute("aria-invalid", "true");
}

/** Field errors come keyed by field code, or by a path into it (`eventTypes.0`, `actions[1].command`). */
function showFormError(error, controls, alertBox) {
  const message = error instanceof ApiError ? error.message : t("error.unexpected");
  append(alertBox, [h("p", {}, message)]);
  const detail = errorDetail(error);
  if (detail) append(alertBox, [h("p", { class: "notice-detail" }, detail)]);
  alertBox.hidden = false;
  let first = null;
  if (error instanceof ApiError) {
    for (const [key, text] of Object.entries(error.fieldErrors)) {
      const name = key.split(/[.[]/, 1)[0];
      const control = controls.get(name);
      if (!control) continue;
      showFieldError(control, control.error.hidden ? text : `${control.error.textContent} ${text}`);
      first = first || control;
    }
  }
  if (first) first.focus();
  else alertBox.focus();
}

/**
 * Shows a secret exactly once: a warning, the value, a copy button. Closing the dialog removes it
 * from the document and nothing else holds the value, so it is gone from the page.
 */
export function secretDialog({ title, intro, items, note }) {
  const status = h("p", { class: "copy-status", role: "status" });
  const rows = items.map((item) => {
    const valueId = uid("secret");
    const value = h("code", { id: valueId, class: ["mono", "secret-value", item.secret ? "is-secret" : null] },
      item.value);
    const copy = button(t("action.copy"), async () => {
      try {
        await navigator.clipboard.writeText(value.textContent);
        status.textContent = t("secret.copied", { what: item.label });
      } catch {
        status.textContent = t("secret.copyFailed");
      }
    }, { kind: "secondary", "aria-label": t("secret.copyLabel", { what: item.label }) });
    return h("div", { class: "secret-row" }, h("p", { class: "secret-label", id: `${valueId}-label` }, item.label),
      h("div", { class: "secret-line" }, value, copy));
  });
  const { close } = openDialog({
    title,
    className: "dialog-secret",
    content: [
      h("div", { class: "warning", role: "note" }, h("strong", {}, t("secret.warningTitle")), " ", t("secret.warning")),
      intro ? h("p", {}, intro) : null,
      rows,
      note ? h("p", { class: "field-hint" }, note) : null,
      status,
    ],
    actions: [button(t("secret.done"), () => close(), { kind: "primary" })],
    onClose: () => {
      // Nothing else holds the values: with the rows gone, the secret is gone from the page.
      for (const row of rows) row.remove();
      status.textContent = "";
    },
  });
}

// -- tables, paging, lists ---------------------------------------------------------------------------

/** columns: [{label, render(row)}]; below 640px each row becomes a card labelled by the column names. */
export function table({ caption, columns, rows, rowProps }) {
  return h("div", { class: "table-wrap" },
    h("table", { class: "table" },
      h("caption", { class: "visually-hidden" }, caption),
      h("thead", {}, h("tr", {}, columns.map((c) => h("th", { scope: "col", class: c.class }, c.label)))),
      h("tbody", {}, rows.map((row) => h("tr", rowProps ? rowProps(row) : {},
        columns.map((c) => h("td", { "data-label": c.label, class: c.class },
          h("div", { class: "cell" }, c.render(row)))))))));
}

export function pager({ total, pageNum, pageSize, onPage }) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  if (total <= pageSize && pageNum === 1) {
    return h("p", { class: "pager-summary" }, t("list.total", { total: formatNumber(total) }));
  }
  return h("nav", { class: "pager", "aria-label": t("list.pages") },
    button(t("list.previous"), () => onPage(pageNum - 1), { disabled: pageNum <= 1 }),
    h("span", { class: "pager-summary" }, t("list.page", { page: pageNum, pages, total: formatNumber(total) })),
    button(t("list.next"), () => onPage(pageNum + 1), { disabled: pageNum >= pages }));
}

/**
 * A list of the list contract: fetch(params) -> {records, total, pageNum, pageSize}. Shows a
 * loading state, the server's message when the call fails (with a retry), an empty state, or the
 * table and pager. reload({quiet: true}) swaps the table in place (polling) and keeps focus.
 */
export class ListPanel {
  constructor({ caption, columns, fetch, empty, pageSize = 10, rowProps, after }) {
    Object.assign(this, { caption, columns, fetcher: fetch, empty, rowProps, after });
    this.params = { pageNum: 1, pageSize };
    this.element = h("div", { class: "list-panel" });
    this.records = [];
  }

  set(params) {
    this.params = { ...this.params, pageNum: 1, ...params };
    return this.reload();
  }

  async reload({ quiet = false } = {}) {
    const ticket = (this.ticket = (this.ticket || 0) + 1);
    if (!quiet) {
      this.element.setAttribute("aria-busy", "true");
      clear(this.element).append(loading());
    }
    let data;
    try {
      data = await this.fetcher(this.params);
    } catch (error) {
      if (ticket !== this.ticket) return;
      this.element.removeAttribute("aria-busy");
      if (quiet) return;  // a failed background refresh leaves the last good page in place
      clear(this.element).append(h("div", { class: "list-error", role: "alert" },
        h("p", {}, error instanceof ApiError ? error.message : t("error.unexpected")),
        errorDetail(error) ? h("p", { class: "notice-detail" }, errorDetail(error)) : null,
        button(t("action.retry"), () => this.reload())));
      return;
    }
    if (ticket !== this.ticket) return;
    this.records = data.records;
    const focusKey = document.activeElement?.dataset?.focusKey;
    this.element.removeAttribute("aria-busy");
    const content = data.total === 0
      ? h("div", { class: "empty" }, this.empty)
      : [table({ caption: this.caption, columns: this.columns, rows: data.records, rowProps: this.rowProps }),
         pager({ total: data.total, pageNum: data.pageNum, pageSize: data.pageSize,
                 onPage: (pageNum) => { this.params = { ...this.params, pageNum }; this.reload(); } })];
    clear(this.element);
    append(this.element, [content]);
    if (this.after) this.after(data);
    if (focusKey) this.element.querySelector(`[data-focus-key="${CSS.escape(focusKey)}"]`)?.focus();
  }
}

/** A labelled search box that calls `onSearch` as the user types (debounced) or presses Enter. */
export function searchBox({ label, onSearch, value = "" }) {
  const id = uid("search");
  const input = h("input", { id, type: "search", value, autocomplete: "off" });
  let timer = null;
  input.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(() => onSearch(input.value.trim()), 300);
  });
  input.addEventListener("keydown", (event) => {
    if (event.key === "Enter") {
      clearTimeout(timer);
      onSearch(input.value.trim());
    }
  });
  return h("div", { class: "search" }, h("label", { for: id }, label), input);
}

/** A labelled select that calls `onChange(value)`; `hideLabel` keeps the label for screen readers only. */
export function selectBox({ label, options, value, onChange, hideLabel = false }) {
  const id = uid("select");
  const select = h("select", { id, on: { change: () => onChange(select.value) } },
    options.map((o) => h("option", { value: o.value, selected: o.value === value }, o.label)));
  return h("div", { class: "inline-field" }, h("label", { for: id, class: hideLabel ? "visually-hidden" : null }, label),
    select);
}

export function section(title, ...children) {
  const id = uid("section");
  return h("section", { class: "section", "aria-labelledby": id }, h("h2", { id }, title), children);
}

export function toolbar(...children) {
  return h("div", { class: "toolbar" }, children);
}

/** Definition list of label/value pairs (values may be nodes). */
export function facts(pairs) {
  return h("dl", { class: "facts" }, pairs.filter(Boolean).map(([label, value]) =>
    h("div", { class: "fact" }, h("dt", {}, label), h("dd", {}, value))));
}

export function jsonBlock(value) {
  return h("pre", { class: "json" }, JSON.stringify(value, null, 2));
}
