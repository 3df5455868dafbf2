// Who is signed in and what they may do, from GET /api/auth/session. The console uses it to show
// only the controls the user's roles allow; the service still decides every call, and a refusal
// is shown with the server's own message.

import { api, clearToken, setToken } from "./api.js";

let current = null;
let catalogCache = null;

export function session() {
  return current;
}

export async function signIn(email, password) {
  const result = await api("POST", "/api/auth/login", { body: { email, password } });
  setToken(result.jwt);
  return refresh();
}

export async function refresh() {
  current = await api("GET", "/api/auth/session");
  return current;
}

/** A new JWT acting in another of the user's tenants (POST /api/auth/switch-tenant). */
export async function switchTenant(tenantId) {
  const result = await api("POST", "/api/auth/switch-tenant", { body: { tenantId } });
  setToken(result.jwt);
  return refresh();
}

export function signOut() {
  clearToken();
  current = null;
  catalogCache = null;
}

/** Whether the tenant role grants `permission` ("*" grants every permission). */
export function can(permission) {
  const granted = current?.permissions || [];
  return granted.includes("*") || granted.includes(permission);
}

export function hasPlatformRole(role) {
  return (current?.platformRoles || []).includes(role);
}

/** What the Open Platform publishes (scopes, webhook event types, event sources); read once. */
export async function catalog() {
  if (catalogCache === null) catalogCache = await api("GET", "/api/open-platform/catalog");
  return catalogCache;
}

// What each application role may do (the session API document's descriptions): owners manage
// members, installations, credentials, secrets and replays; maintainers manage webhook endpoints
// (runtime concerns); viewers read.
export const ROLE_ALLOWS = {
  manageMembers: ["owner"],
  manageInstallations: ["owner"],
  manageCredentials: ["owner"],
  manageEndpoints: ["owner", "maintainer"],
  rotateWebhookSecret: ["owner"],
  replayDeliveries: ["owner"],
};

export function roleAllows(role, action) {
  return (ROLE_ALLOWS[action] || []).includes(role);
}
