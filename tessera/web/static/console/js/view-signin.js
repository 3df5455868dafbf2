// Sign-in: email and password for a session JWT (POST /api/auth/login). The JWT is kept in memory
// only (api.js), so the browser's password manager may remember the password but nothing else
// about the session outlives the page.

import { ApiError } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { signIn } from "./session.js";
import { errorDetail } from "./ui.js";

export function signInView({ root, onSignedIn }) {
  document.title = `${t("signin.title")} · ${t("shell.title")}`;
  const email = h("input", { id: "signin-email", type: "email", name: "email", autocomplete: "username",
                             required: true, "aria-describedby": "signin-error" });
  const password = h("input", { id: "signin-password", type: "password", name: "password",
                                autocomplete: "current-password", required: true, "aria-describedby": "signin-error" });
  const error = h("div", { id: "signin-error", class: "form-alert", role: "alert", hidden: true });
  const submit = h("button", { type: "submit", class: "button button-primary button-wide" }, t("signin.submit"));
  const form = h("form", { class: "form signin-form", method: "post", novalidate: true },
    error,
    h("div", { class: "field" }, h("label", { for: "signin-email" }, t("signin.email")), email),
    h("div", { class: "field" }, h("label", { for: "signin-password" }, t("signin.password")), password),
    submit);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.hidden = true;
    error.textContent = "";
    if (!email.value.trim() || !password.value) {
      error.append(h("p", {}, t("signin.missing")));
      error.hidden = false;
      (email.value.trim() ? password : email).focus();
      return;
    }
    submit.disabled = true;
    submit.textContent = t("signin.busy");
    try {
      await signIn(email.value.trim(), password.value);
      password.value = "";
      onSignedIn();
    } catch (failure) {
      error.append(h("p", {}, failure instanceof ApiError ? failure.message : t("error.unexpected")));
      const detail = errorDetail(failure);
      if (detail) error.append(h("p", { class: "notice-detail" }, detail));
      error.hidden = false;
      password.focus();
      password.select();
    } finally {
      submit.disabled = false;
      submit.textContent = t("signin.submit");
    }
  });
  root.append(h("div", { class: "signin" },
    h("h1", { tabindex: "-1" }, t("signin.title")),
    h("p", { class: "lead" }, t("signin.lead")),
    form,
    h("p", { class: "field-hint" }, t("signin.memoryOnly"))));
  email.focus();
}
