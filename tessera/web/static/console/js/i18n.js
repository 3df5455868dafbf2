// Console strings in English and Simplified Chinese, from i18n/<locale>.json. The locale follows
// the browser's languages until the user picks one; the choice lives in this page only (nothing
// is kept in browser storage). Every API call sends it as Accept-Language, so the server's
// messages come back in the same language.

export const LOCALES = [
  { code: "en", label: "English" },
  { code: "zh-CN", label: "中文（简体）" },
];
const FALLBACK = "en";
const dictionaries = new Map();
const listeners = new Set();
let current = FALLBACK;

// The tags the server maps to zh-CN (tessera/core/i18n.py negotiate): the two sides agree.
const SIMPLIFIED_CHINESE = new Set(["zh", "zh-cn", "zh-hans", "zh-hans-cn", "zh-sg"]);

/** The first supported locale among the browser's preferred languages. */
export function preferredLocale(languages = navigator.languages || [navigator.language]) {
  for (const raw of languages) {
    const tag = String(raw || "").toLowerCase();
    if (SIMPLIFIED_CHINESE.has(tag)) return "zh-CN";
    if (tag === "en" || tag.startsWith("en-")) return "en";
  }
  return FALLBACK;
}

async function load(locale) {
  if (!dictionaries.has(locale)) {
    const response = await fetch(`/console/assets/i18n/${locale}.json`, { credentials: "omit", cache: "no-cache" });
    if (!response.ok) throw new Error(`cannot load the ${locale} strings (${response.status})`);
    dictionaries.set(locale, await response.json());
  }
  return dictionaries.get(locale);
}

export async function setLocale(locale) {
  const code = LOCALES.some((l) => l.code === locale) ? locale : FALLBACK;
  await load(FALLBACK);
  await load(code);
  current = code;
  document.documentElement.lang = code;
  for (const listener of listeners) listener(code);
}

export function getLocale() {
  return current;
}

export function onLocaleChange(listener) {
  listeners.add(listener);
}

/**
 * The string for `key` in the current locale (English, then the key itself, as fallbacks). With a
 * numeric `n`, the locale's plural form `key.<one|few|many|...>` is used when the dictionary has one.
 */
export function t(key, params = {}) {
  const dictionary = dictionaries.get(current);
  const plural = typeof params.n === "number" ? `${key}.${new Intl.PluralRules(current).select(params.n)}` : null;
  const text = (plural && dictionary?.[plural]) ?? dictionary?.[key] ?? dictionaries.get(FALLBACK)?.[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (match, name) => (name in params ? String(params[name]) : match));
}

/** A timestamp of the API (ISO 8601) in the reader's locale and time zone. */
export function formatTime(iso) {
  if (!iso) return "—";
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return String(iso);
  return new Intl.DateTimeFormat(current, { dateStyle: "medium", timeStyle: "medium" }).format(date);
}

export function formatNumber(value) {
  return new Intl.NumberFormat(current).format(value);
}
