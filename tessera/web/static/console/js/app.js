// The admin console's entry point: the shell (header, navigation, tenant and language switches),
// hash routing over public ids only (#/applications/app_..., never a secret), and sign-in.

import { onUnauthorized, signedIn } from "./api.js";
import { clear, h } from "./dom.js";
import { LOCALES, getLocale, preferredLocale, setLocale, t } from "./i18n.js";
import { can, session, signOut, switchTenant } from "./session.js";
import { clearNotices, notify, reportError, selectBox, setNoticeRegion } from "./ui.js";
import { applicationView, applicationsView } from "./view-applications.js";
import { auditView } from "./view-audit.js";
import { rolesView } from "./view-roles.js";
import { automationView, automationsView } from "./view-automations.js";
import { endpointView } from "./view-endpoint.js";
import { installationView } from "./view-installation.js";
import { signInView } from "./view-signin.js";

const ROUTES = [
  { pattern: /^\/applications$/, view: applicationsView, nav: "applications" },
  { pattern: /^\/applications\/(app_[0-9a-z]{26})$/, view: applicationView, nav: "applications" },
  { pattern: /^\/installations\/(ins_[0-9a-z]{26})$/, view: installationView, nav: "applications" },
  { pattern: /^\/endpoints\/(whe_[0-9a-z]{26})$/, view: endpointView, nav: "applications" },
  { pattern: /^\/automations$/, view: automationsView, nav: "automations" },
  { pattern: /^\/automations\/(aut_[0-9a-z]{26})$/, view: automationView, nav: "automations" },
  { pattern: /^\/audit$/, view: auditView, nav: "audit" },
  { pattern: /^\/roles$/, view: rolesView, nav: "roles" },
];
const HOME = "#/applications";

const root = document.getElementById("app");
let main = null;
let viewHost = null;
let cleanup = null;
let keepNotices = false;
let afterSignIn = null;

/** Go to a route; `keep` leaves the current notices up (an action's outcome shown on the next screen). */
export function navigate(hash, { keep = false } = {}) {
  keepNotices = keep;
  if (window.location.hash === hash) route();
  else window.location.hash = hash;
}

function currentPath() {
  const hash = window.location.hash || "";
  return hash.startsWith("#/") ? hash.slice(1) : "";
}

async function route() {
  if (cleanup) {
    cleanup();
    cleanup = null;
  }
  if (!signedIn()) {
    const path = currentPath();
    if (path && path !== "/sign-in") afterSignIn = `#${path}`;
    renderShell();
    if (!keepNotices) clearNotices();
    keepNotices = false;
    signInView({ root: viewHost, onSignedIn });
    return;
  }
  const path = currentPath();
  const match = ROUTES.map((r) => ({ r, m: r.pattern.exec(path) })).find((x) => x.m);
  if (!match) {
    window.location.replace(HOME);
    return;
  }
  renderShell(match.r.nav);
  if (!keepNotices) clearNotices();
  keepNotices = false;
  const host = viewHost;
  try {
    const result = await match.r.view({ root: host, params: match.m.slice(1), navigate });
    if (host === viewHost && typeof result === "function") cleanup = result;
  } catch (error) {
    reportError(error);
  }
  if (host === viewHost) host.querySelector("h1")?.focus({ preventScroll: false });
}

function onSignedIn() {
  const target = afterSignIn && afterSignIn !== "#/sign-in" ? afterSignIn : HOME;
  afterSignIn = null;
  navigate(target);
}

function languageSwitch() {
  return selectBox({
    label: t("shell.language"),
    options: LOCALES.map((l) => ({ value: l.code, label: l.label })),
    value: getLocale(),
    onChange: async (code) => {
      await setLocale(code);
      route();
    },
  });
}

function tenantSwitch(current) {
  if (current.tenants.length < 2) {
    return h("p", { class: "tenant-name" }, t("shell.tenant"), ": ", h("strong", {}, current.tenantName));
  }
  return selectBox({
    label: t("shell.tenant"),
    options: current.tenants.map((tenant) => ({ value: tenant.tenantId, label: `${tenant.name} (${tenant.tenantId})` })),
    value: current.tenantId,
    onChange: async (tenantId) => {
      try {
        const now = await switchTenant(tenantId);
        keepNotices = true;
        notify(t("shell.switched", { tenant: now.tenantName }));
      } catch (error) {
        reportError(error);
        keepNotices = true;
      }
      route();
    },
  });
}

function renderShell(active = null) {
  const current = session();
  const skip = h("a", { class: "skip-link", href: "#main", on: { click: (event) => {
    event.preventDefault();
    main.focus();
  } } }, t("shell.skip"));
  const brand = h("a", { class: "brand", href: current ? HOME : "#/sign-in" }, t("shell.title"));
  const header = h("header", { class: "topbar" }, skip, h("div", { class: "topbar-row" }, brand,
    current ? navigation(active) : null,
    h("div", { class: "topbar-controls" },
      current ? tenantSwitch(current) : null,
      languageSwitch(),
      current ? h("p", { class: "user" }, h("span", { class: "visually-hidden" }, t("shell.signedInAs")), " ",
                  current.username) : null,
      current ? h("button", { type: "button", class: "button button-secondary", on: { click: () => {
        signOut();
        keepNotices = true;
        clearNotices();
        notify(t("shell.signedOut"), "info");
        navigate("#/sign-in", { keep: true });
      } } }, t("shell.signOut")) : null)));
  const notices = h("div", { class: "notices" });
  const previous = document.querySelector(".notices");
  if (previous) for (const notice of [...previous.children]) notices.append(notice);
  viewHost = h("div", { class: "view" });
  main = h("main", { id: "main", tabindex: "-1" }, notices, viewHost);
  setNoticeRegion(notices);
  clear(root).append(header, main);
  root.removeAttribute("aria-busy");
}

function navigation(active) {
  const items = [["applications", HOME, t("nav.applications")]];
  if (can("automations:view")) items.push(["automations", "#/automations", t("nav.automations")]);
  items.push(["audit", "#/audit", t("nav.audit")]);
  if (can("roles:view")) items.push(["roles", "#/roles", t("nav.roles")]);
  return h("nav", { class: "nav", "aria-label": t("nav.label") },
    h("ul", {}, items.map(([key, href, label]) => h("li", {},
      h("a", { href, "aria-current": key === active ? "page" : null }, label)))));
}

async function start() {
  await setLocale(preferredLocale());
  onUnauthorized((error) => {
    const path = currentPath();
    if (path && path !== "/sign-in") afterSignIn = `#${path}`;  // back to this screen after signing in again
    signOut();
    keepNotices = true;
    clearNotices();
    notify(error.message, "error", t("shell.sessionEnded"));
    navigate("#/sign-in", { keep: true });
  });
  window.addEventListener("hashchange", route);
  route();
}

start().catch((error) => {
  clear(root).append(h("p", { class: "boot", role: "alert" }, `The console could not start: ${error.message}`));
});
