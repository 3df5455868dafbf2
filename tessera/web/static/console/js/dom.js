// Building DOM nodes without HTML strings: every value becomes a text node or an attribute, so
// nothing from the server (names, URLs, error messages) is ever parsed as markup, and the page's
// Content-Security-Policy needs no inline script or style.

/**
 * Create an element.
 * props: {class, text, on: {event: handler}, dataset: {...}, hidden, disabled, ...attributes}
 * children: nodes, strings, numbers, arrays of those; null/undefined/false are skipped.
 */
export function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") el.className = Array.isArray(value) ? value.filter(Boolean).join(" ") : value;
    else if (key === "text") el.textContent = String(value);
    else if (key === "on") for (const [event, handler] of Object.entries(value)) el.addEventListener(event, handler);
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key === "value") el.value = value;
    else if (key === "checked" || key === "selected" || key === "disabled" || key === "hidden"
             || key === "required" || key === "multiple" || key === "readOnly") el[key] = Boolean(value);
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  append(el, children);
  return el;
}

export function append(parent, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    parent.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return parent;
}

export function clear(el) {
  while (el.firstChild) el.firstChild.remove();
  return el;
}

let counter = 0;
/** A document-unique id for label/aria wiring. */
export function uid(prefix = "id") {
  counter += 1;
  return `${prefix}-${counter}`;
}
