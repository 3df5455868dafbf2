// Hourly plots drawn as SVG by the page itself: no library, no build step, nothing inline (every
// colour and font comes from console.css through classes; positions are SVG geometry attributes).
// Each plot is an image with a title and a description for screen readers, a legend in words,
// and its numbers as a table under "Show the numbers"; colour never carries meaning alone.

import { ApiError, api } from "./api.js";
import { h, uid } from "./dom.js";
import { formatNumber, getLocale, t } from "./i18n.js";
import { busy, errorDetail, loading, table } from "./ui.js";

const SVG_NS = "http://www.w3.org/2000/svg";
// The drawing's own units; the SVG scales to its box (about 560 px wide beside another plot on a
// laptop, the whole width on a phone), and console.css sizes its text in these units.
const WIDTH = 560;
const HEIGHT = 250;
const MARGIN = { top: 12, right: 12, bottom: 52, left: 72 };
export const WINDOWS = ["24h", "7d"];

/** An SVG element; attributes only (a `class` too), children are nodes or text. */
export function svg(tag, attributes = {}, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value !== undefined && value !== null && value !== false) el.setAttribute(name, String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** A y axis from 0 with about four steps of 1, 2 or 5 times a power of ten (whole steps for counts). */
export function axis(highest, { whole = true } = {}) {
  const top = highest > 0 ? highest : 1;
  const rough = top / 4;
  const power = 10 ** Math.floor(Math.log10(rough));
  let step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= rough);
  if (whole) step = Math.max(1, Math.round(step));
  const max = Math.ceil(top / step) * step;
  const ticks = [];
  for (let value = 0; value <= max + step / 2; value += step) ticks.push(value);
  return { max, ticks };
}

// The hours that get a label on the x axis, in the reader's time zone: every fourth hour of a day,
// or the first hour of each day of a week (labelled with its date).
function tickLabel(iso, windowKey) {
  const date = new Date(iso);
  if (windowKey === "24h") {
    return date.getHours() % 4 === 0
      ? new Intl.DateTimeFormat(getLocale(), { hour: "numeric", minute: "2-digit" }).format(date) : null;
  }
  return date.getHours() === 0
    ? new Intl.DateTimeFormat(getLocale(), { month: "numeric", day: "numeric" }).format(date) : null;
}

export function hourTitle(iso) {
  return new Intl.DateTimeFormat(getLocale(), { dateStyle: "medium", timeStyle: "short" }).format(new Date(iso));
}

// Tick numbers stay short beside the axis label: 6K rather than 6,000 (the table has exact values).
function tickNumber(value) {
  return new Intl.NumberFormat(getLocale(), { notation: "compact", maximumFractionDigits: 1 }).format(value);
}

function frame({ titleId, descId, title, description, yLabel, xLabel, yAxis, buckets, windowKey, bodyClass }) {
  const plotWidth = WIDTH - MARGIN.left - MARGIN.right;
  const plotHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const y = (value) => MARGIN.top + plotHeight - (value / yAxis.max) * plotHeight;
  const slot = plotWidth / buckets.length;
  const grid = yAxis.ticks.map((value) => svg("g", { class: "chart-tick" },
    svg("line", { x1: MARGIN.left, x2: WIDTH - MARGIN.right, y1: y(value), y2: y(value) }),
    svg("text", { x: MARGIN.left - 8, y: y(value) + 4, class: "chart-tick-y" }, tickNumber(value))));
  const xTicks = buckets.map((b, i) => {
    const label = tickLabel(b.hour, windowKey);
    const at = MARGIN.left + slot * (windowKey === "24h" ? i + 0.5 : i);  // a day starts at its first hour's edge
    return label === null ? null : svg("g", { class: "chart-tick-x" },
      svg("line", { x1: at, x2: at, y1: HEIGHT - MARGIN.bottom, y2: HEIGHT - MARGIN.bottom + 4 }),
      svg("text", { x: at, y: HEIGHT - MARGIN.bottom + 18 }, label));
  });
  const body = svg("g", { class: bodyClass });
  const root = svg("svg", { class: "chart-svg", viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: "img",
                            "aria-labelledby": `${titleId} ${descId}` },
    svg("title", { id: titleId }, title),
    svg("desc", { id: descId }, description),
    svg("g", { class: "chart-grid" }, grid),
    svg("line", { class: "chart-axis", x1: MARGIN.left, x2: WIDTH - MARGIN.right, y1: y(0), y2: y(0) }),
    svg("g", { class: "chart-ticks-x" }, xTicks),
    svg("text", { class: "chart-axis-label", x: MARGIN.left + plotWidth / 2, y: HEIGHT - 8 }, xLabel),
    svg("text", { class: "chart-axis-label", transform: `rotate(-90) translate(${-(MARGIN.top + plotHeight / 2)} 14)` },
        yLabel),
    body);
  return { root, body, y, slot, x: (i) => MARGIN.left + slot * (i + 0.5) };
}

/**
 * A figure: the plot, its legend and its numbers as a table.
 * series: [{key, label}]; kind "bars" stacks the series per hour, "lines" draws one line each with
 * a point per hour that has a value (null leaves a gap). extraColumns: more {label, render(bucket)}
 * columns for the table.
 */
export function plot({ kind, title, description, buckets, series, yLabel, windowKey, format = formatNumber,
                       empty, extraColumns = [] }) {
  const titleId = uid("plot-title");
  const descId = uid("plot-desc");
  const values = (b) => series.map((s) => b[s.key]);
  const highest = Math.max(0, ...buckets.map((b) => (kind === "bars"
    ? values(b).reduce((sum, v) => sum + (v || 0), 0) : Math.max(0, ...values(b).map((v) => v ?? 0)))));
  const drawn = frame({ titleId, descId, title, description, yLabel, xLabel: t("stats.hourAxis"),
                        yAxis: axis(highest, { whole: kind === "bars" }), buckets, windowKey,
                        bodyClass: kind === "bars" ? "chart-bars" : "chart-lines" });
  if (kind === "bars") drawBars(drawn, buckets, series, format);
  else drawLines(drawn, buckets, series, format);
  const shown = buckets.filter((b) => values(b).some((v) => v !== null && v !== 0));
  return h("figure", { class: "chart", dataset: { kind } },
    h("figcaption", { class: "chart-title" }, title),
    drawn.root,
    h("ul", { class: "chart-legend" }, series.map((s) => h("li", {},
      h("span", { class: ["legend-swatch", `series-${s.key}`], "aria-hidden": "true" }), s.label))),
    shown.length === 0 ? h("p", { class: "field-hint chart-empty" }, empty) : null,
    h("details", { class: "details chart-data" },
      h("summary", {}, t("stats.showNumbers")),
      shown.length === 0 ? h("p", { class: "field-hint" }, empty) : [
        h("p", { class: "field-hint" }, t("stats.onlyActive")),
        table({ caption: title,
                columns: [{ label: t("stats.hour"), render: (b) => hourTitle(b.hour) },
                          ...series.map((s) => ({ label: s.label, render: (b) => (b[s.key] === null ? "—" : format(b[s.key])) })),
                          ...extraColumns],
                rows: shown })]));
}

function drawBars({ body, y, slot, x }, buckets, series, format) {
  const width = Math.max(1, slot * 0.72);
  buckets.forEach((b, i) => {
    let base = 0;
    for (const s of series) {
      const value = b[s.key] || 0;
      if (value === 0) continue;
      body.append(svg("rect", { class: ["bar", `series-${s.key}`].join(" "), x: x(i) - width / 2, y: y(base + value),
                                width, height: y(base) - y(base + value), "data-hour": b.hour, "data-series": s.key,
                                "data-value": value },
        svg("title", {}, `${hourTitle(b.hour)} · ${s.label}: ${format(value)}`)));
      base += value;
    }
  });
}

function drawLines({ body, y, x }, buckets, series, format) {
  series.forEach((s, index) => {
    const radius = index === 0 ? 4.5 : 3;  // a later series drawn over an equal earlier one leaves it visible
    let run = [];
    const flush = () => {
      if (run.length > 1) body.append(svg("polyline", { class: ["line", `series-${s.key}`].join(" "), points: run.join(" ") }));
      run = [];
    };
    buckets.forEach((b, i) => {
      const value = b[s.key];
      if (value === null || value === undefined) {
        flush();
        return;
      }
      run.push(`${x(i)},${y(value)}`);
      body.append(svg("circle", { class: ["point", `series-${s.key}`].join(" "), cx: x(i), cy: y(value), r: radius,
                                  "data-hour": b.hour, "data-series": s.key, "data-value": value },
        svg("title", {}, `${hourTitle(b.hour)} · ${s.label}: ${format(value)}`)));
    });
    flush();
  });
}

/** Two buttons, "Last 24 hours" and "Last 7 days"; the pressed one is the period shown. */
export function windowToggle({ value, onChange }) {
  const buttons = WINDOWS.map((key) => h("button", {
    type: "button", class: "button button-secondary toggle", "aria-pressed": String(key === value),
    dataset: { window: key },
    on: { click: async (event) => {
      if (event.currentTarget.getAttribute("aria-pressed") === "true") return;
      for (const other of buttons) other.setAttribute("aria-pressed", String(other === event.currentTarget));
      await busy(event.currentTarget, () => onChange(key));
    } },
  }, t(`stats.window.${key}`)));
  return h("div", { class: "toggle-group", role: "group", "aria-label": t("stats.period") }, buttons);
}

/**
 * A panel of plots over a period the user picks: `load(windowKey)` answers the statistics and
 * `render(data, windowKey)` the figures. Shows a loading state, or the server's message with a retry.
 */
export class StatsPanel {
  constructor({ path, render }) {
    this.path = path;
    this.render = render;
    this.windowKey = "24h";
    this.plots = h("div", { class: "charts" });
    this.element = h("div", { class: "stats-panel" },
      windowToggle({ value: this.windowKey, onChange: (key) => this.reload(key) }), this.plots);
  }

  async reload(windowKey = this.windowKey) {
    this.windowKey = windowKey;
    const ticket = (this.ticket = (this.ticket || 0) + 1);
    this.plots.setAttribute("aria-busy", "true");
    if (!this.plots.firstChild) this.plots.append(loading());
    let data;
    try {
      data = await api("GET", this.path, { query: { window: windowKey } });
    } catch (error) {
      if (ticket !== this.ticket) return;
      this.plots.removeAttribute("aria-busy");
      this.plots.replaceChildren(h("div", { class: "list-error", role: "alert" },
        h("p", {}, error instanceof ApiError ? error.message : t("error.unexpected")),
        errorDetail(error) ? h("p", { class: "notice-detail" }, errorDetail(error)) : null));
      return;
    }
    if (ticket !== this.ticket) return;
    this.plots.removeAttribute("aria-busy");
    this.plots.replaceChildren(...this.render(data, windowKey));
    this.plots.dataset.window = windowKey;
  }
}
