// The one way the console talks to the service: the documented session API, envelope
// {code, message, data}. The session JWT lives only in the `token` variable of this module: never
// in localStorage, sessionStorage, IndexedDB, a cookie or a URL. Reloading the page therefore
// signs the user out, and since the service never reads a cookie there is nothing for another
// site to ride on (no CSRF surface).

import { getLocale, t } from "./i18n.js";

let token = null;
let unauthorizedHandler = null;

export function setToken(jwt) {
  token = jwt;
}

export function clearToken() {
  token = null;
}

export function signedIn() {
  return token !== null;
}

/** Called with the server's message when a call answers 401 (expired or invalid JWT). */
export function onUnauthorized(handler) {
  unauthorizedHandler = handler;
}

/** A refused or failed call: the server's translated `message`, its `code`, HTTP status and data. */
export class ApiError extends Error {
  constructor(status, code, message, data) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    this.data = data ?? null;
  }

  get fieldErrors() {
    return (this.data && this.data.fieldErrors) || {};
  }
}

const SUCCESS = new Set(["0", "IDEMPOTENT_REPLAY"]);

/**
 * Call an operation of the session API.
 * options.query: plain values (ids, paging, filters); never a secret (query strings end up in logs).
 * options.body: JSON body; omitted for operations without one.
 */
export async function api(method, path, { query, body } = {}) {
  const url = new URL(path, window.location.origin);
  for (const [name, value] of Object.entries(query || {})) {
    if (value !== undefined && value !== null && value !== "") url.searchParams.set(name, String(value));
  }
  const headers = {
    Accept: "application/json",
    "Accept-Language": getLocale(),
    "X-Request-Id": crypto.randomUUID(),
  };
  if (token !== null) headers.Authorization = `Bearer ${token}`;
  const init = { method, headers, credentials: "omit", cache: "no-store", referrerPolicy: "no-referrer" };
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(url, init);
  } catch {
    throw new ApiError(0, "NETWORK_ERROR", t("error.network"), null);
  }
  let envelope = null;
  try {
    envelope = await response.json();
  } catch {
    envelope = null;
  }
  if (response.ok && envelope && SUCCESS.has(envelope.code)) return envelope.data;
  const code = envelope?.code || `HTTP_${response.status}`;
  const message = envelope?.message || t("error.http", { status: response.status });
  const error = new ApiError(response.status, code, message, envelope?.data);
  if (response.status === 401 && token !== null && unauthorizedHandler) {
    error.handled = true;  // the handler signs out and shows the message once
    unauthorizedHandler(error);
  }
  throw error;
}

/** The list contract's query parameters (pageNum, pageSize, keyword, sortField, sortOrder, filters). */
export function listQuery({ pageNum = 1, pageSize = 10, keyword, sortField, sortOrder, filters } = {}) {
  const query = { pageNum, pageSize, keyword, sortField, sortOrder };
  if (filters && filters.length) query.filters = JSON.stringify(filters);
  return query;
}
