"""The admin console at /console: static files under a strict Content-Security-Policy, driven end
to end in a real browser.

The browser tests drive headless Chromium, Debian's ``chromium`` package at /usr/bin/chromium
(``scripts/test.sh`` installs it), through Playwright's Python API; Playwright's own browser
downloads are never used. Without chromium the tests fail with a message saying so; they never
skip. They run against ``tessera serve --demo`` as a real process (``tests/support/live_server.demo_on``),
whose in-process worker delivers webhooks to receivers on loopback. The integration flow, the role
checks, the refused action, the hourly plots (over rows written at chosen times straight into the
server's database), recovery and re-enabling run on SQLite and on PostgreSQL; the checks that only
concern the page (language, storage, tenant switch, keyboard, phone width) run on SQLite, the
server side of each being covered on both databases by the API tests. Screenshots of every main screen land in
``test-artifacts/console/<backend>/`` and the closing summary of pytest lists them.
"""

from __future__ import annotations

import json
import os
import re
import time
import tomllib
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from functools import cached_property
from pathlib import Path, PurePosixPath
from typing import Any

import httpx
import jwt
import jwt.algorithms
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from playwright.sync_api import Browser, Locator, Page, expect, sync_playwright
from sqlalchemy import Engine, update

from storage.drivers.db import make_engine
from storage.schema.tables import credentials
from tessera.core.clock import iso
from tessera.web.console import CSP
from tessera.webhooks.verify import verify
from tests.conftest import BACKENDS, Env
from tests.support.live_server import demo_on
from tests.support.receivers import receiver
from tests.support.screenshots import screenshot
from tests.support.stats import Attempt, Seeded, seed_calls, seed_deliveries

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "tessera" / "web" / "static" / "console"
CHROMIUM = os.environ.get("TESSERA_TEST_CHROMIUM", "/usr/bin/chromium")
# No sandbox (containers and CI run as root), no GPU, and nothing that phones home.
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
PASSWORD = "console-demo-password"
ADMIN, VIEWER, ACME_ADMIN = "admin@demo.example", "viewer@demo.example", "admin@acme.example"
ROBOT_AUTOMATION = "Robot fleet receipts become stock-ins"  # seeded by tessera/demo.py
TIMEOUT = httpx.Timeout(30.0)

expect.set_options(timeout=15_000)


# -- the page as files: headers, CSP, dictionaries, package data (in-process, both databases) ---------

def test_the_shell_is_served_with_a_policy_that_allows_nothing_inline(env: Env) -> None:
    for path in ("/console", "/console/"):
        response = env.client.get(path)
        assert response.status_code == 200, path
        assert response.headers["content-type"] == "text/html; charset=utf-8"
        assert response.headers["content-security-policy"] == (
            "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
            "base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
        assert response.headers["x-content-type-options"] == "nosniff"
        assert response.headers["referrer-policy"] == "no-referrer"
        assert response.headers["cache-control"] == "no-store"
        assert response.headers["x-frame-options"] == "DENY"
        assert '<script type="module" src="/console/assets/js/app.js"></script>' in response.text


def test_every_console_file_is_served_with_its_type_nosniff_and_an_etag(env: Env) -> None:
    types = {".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8", ".json": "application/json",
             ".svg": "image/svg+xml"}
    files = [p for p in STATIC.rglob("*") if p.is_file() and p.name != "index.html"]
    assert len(files) >= 15
    for file in files:
        path = f"/console/assets/{file.relative_to(STATIC).as_posix()}"
        response = env.client.get(path)
        assert response.status_code == 200, path
        assert response.content == file.read_bytes()
        assert response.headers["content-type"] == types[file.suffix], path
        assert response.headers["x-content-type-options"] == "nosniff"
        assert response.headers["content-security-policy"] == CSP
        assert response.headers["cache-control"] == "no-cache"
        again = env.client.get(path, headers={"If-None-Match": response.headers["etag"]})
        assert again.status_code == 304 and again.content == b""


def test_console_paths_answer_only_reads_and_nothing_outside_the_files(env: Env) -> None:
    refused = env.client.post("/console", json={})
    assert refused.status_code == 405
    assert refused.headers["allow"] == "GET, HEAD"
    for path in ("/console/assets/nope.js", "/console/anything", "/console/assets/../index.html",
                 "/console/assets/js/../../index.html"):
        response = env.client.get(path)
        assert response.status_code == 404, path
        assert response.headers["x-content-type-options"] == "nosniff"


@pytest.mark.rule("security.no-secrets-in-browser-storage")
def test_the_files_contain_no_inline_script_style_markup_injection_or_browser_storage() -> None:
    """What the CSP enforces in the browser, checked in the sources too, plus no storage of anything."""
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    assert re.findall(r"<script(?![^>]*\bsrc=)[^>]*>", html) == []
    assert "<style" not in html and " style=" not in html and re.search(r"\son[a-z]+=", html) is None
    for file in (STATIC / "js").glob("*.js"):
        source = file.read_text(encoding="utf-8")
        for forbidden in (r"\binnerHTML\b", r"\bouterHTML\b", r"insertAdjacentHTML", r"document\.write", r"\beval\(",
                          r"new Function", r"\b(localStorage|sessionStorage|indexedDB)\s*\.", r"document\.cookie",
                          r"setAttribute\(\s*[\"']style", r"\.style\s*="):
            assert re.search(forbidden, source) is None, f"{file.name} uses {forbidden}"


def test_the_english_and_chinese_dictionaries_match_and_cover_every_string() -> None:
    en = json.loads((STATIC / "i18n" / "en.json").read_text(encoding="utf-8"))
    zh = json.loads((STATIC / "i18n" / "zh-CN.json").read_text(encoding="utf-8"))
    # A language's plural forms (`key.one`, ...) are its own: Chinese has none, English has `one`.
    plural = re.compile(r"\.(zero|one|two|few|many)$")
    for forms in (en, zh):
        assert all(plural.sub("", key) in forms for key in forms if plural.search(key))
    en = {k: v for k, v in en.items() if not plural.search(k)}
    zh = {k: v for k, v in zh.items() if not plural.search(k)}
    assert set(en) == set(zh)
    for key in en:
        assert set(re.findall(r"\{\w+\}", en[key])) == set(re.findall(r"\{\w+\}", zh[key])), key
        assert (zh[key] and zh[key] != en[key]) or key in {"endpoints.url"}, f"{key} is not translated"
    used: set[str] = set()
    for file in (STATIC / "js").glob("*.js"):
        used |= set(re.findall(r"\bt\(\s*\"([a-zA-Z]+\.[a-zA-Z.]+)\"", file.read_text(encoding="utf-8")))
    assert used - set(en) == set()
    for prefix in ("status.", "env.", "roles.help."):  # keys built at run time (`status.${value}`)
        assert any(k.startswith(prefix) for k in en)


def test_the_console_files_are_package_data() -> None:
    """Installed without the source tree (a wheel), the service still has every console file."""
    patterns = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["tessera"]
    for file in STATIC.rglob("*"):
        if file.is_file():
            relative = PurePosixPath(file.relative_to(ROOT / "tessera").as_posix())
            assert any(len(PurePosixPath(p).parts) == len(relative.parts) and relative.match(p) for p in patterns), (
                f"{relative} is not covered by the package-data patterns {patterns}")


# -- the browser ----------------------------------------------------------------------------------

@dataclass
class Live:
    """A running ``tessera serve --demo`` and a small session-API client for setting scenes up."""

    base: str
    backend: str
    database_url: str = field(repr=False, default="")

    @cached_property
    def sql(self) -> Engine:
        """A synchronous engine on the server's database, for writing rows at chosen times."""
        return make_engine(self.database_url)

    def login(self, email: str) -> dict[str, str]:
        response = httpx.post(f"{self.base}/api/auth/login", json={"email": email, "password": PASSWORD},
                              timeout=TIMEOUT)
        assert response.status_code == 200, response.text
        return {"Authorization": f"Bearer {response.json()['data']['jwt']}"}

    def call(self, auth: dict[str, str], method: str, path: str, **kwargs: Any) -> Any:
        response = httpx.request(method, f"{self.base}{path}", headers=auth, timeout=TIMEOUT, **kwargs)
        assert response.status_code == 200, f"{method} {path}: {response.status_code} {response.text}"
        return response.json()["data"]

    def scene(self, *, members: dict[str, str], endpoint_url: str | None = None) -> dict[str, Any]:
        """An application of the demo administrator installed in demo, with a credential, an
        endpoint and the given members (email -> role)."""
        admin = self.login(ADMIN)
        op = "/api/open-platform"
        app = self.call(admin, "POST", f"{op}/applications", json={"name": f"Scene {uuid.uuid4().hex[:6]}"})
        inst = self.call(admin, "POST", f"{op}/applications/{app['appId']}/installations",
                         json={"tenantId": "demo", "environment": "production", "scopes": ["assets.read"]})
        cred = self.call(admin, "POST", f"{op}/installations/{inst['installationId']}/credentials")
        endpoint = self.call(admin, "POST", f"{op}/installations/{inst['installationId']}/webhook-endpoints",
                             json={"url": endpoint_url or "http://127.0.0.1:9/hooks",
                                   "eventTypes": ["assets.assignment.changed"]})
        for email, role in members.items():
            self.call(admin, "POST", f"/api/open-platform/applications/{app['appId']}/members",
                      json={"email": email, "role": role})
        return {"admin": admin, "appId": app["appId"], "appName": app["name"],
                "installationId": inst["installationId"], "clientId": cred["clientId"],
                "endpointId": endpoint["endpointId"], "endpointUrl": endpoint["url"]}


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if not Path(CHROMIUM).is_file():
        pytest.fail(
            f"Chromium is not installed at {CHROMIUM}: the admin console's browser tests need Debian's chromium "
            "package. Run the README's test command (bash scripts/test.sh installs it) or "
            "`apt-get install -y chromium` as root.", pytrace=False)
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture(scope="module", params=BACKENDS)
def server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Live]:
    """The demo as a real process. Retries are fast (a failing delivery is dead in about a second)
    and the per-minute limits are raised: the tests sign in and load screens far faster than a
    person, as one user."""
    settings = {
        "TESSERA_DEMO_PASSWORD": PASSWORD,
        "TESSERA_WEBHOOK_ALLOW_LOOPBACK": "true",
        "TESSERA_WEBHOOK_RETRY_SCHEDULE": "0.3,0.3",
        "TESSERA_AUTOMATION_RETRY_SCHEDULE": "0",
        "TESSERA_WORKER_POLL_SECONDS": "0.2",
        "TESSERA_RESPONSE_VALIDATION": "true",
        "TESSERA_RATE_LIMIT_READ": "5000",
        "TESSERA_RATE_LIMIT_WRITE": "1000",
        "TESSERA_RATE_LIMIT_LOGIN": "1000",
        "TESSERA_RATE_LIMIT_TOKEN": "1000",
        "TESSERA_RATE_LIMIT_OPEN": "100000",
        "TESSERA_CREDENTIAL_CHECK_INTERVAL_SECONDS": "1",  # a backdated credential is announced at once
        "TESSERA_REDIS_PREFIX": f"tessera-console-{uuid.uuid4().hex[:8]}",
    }
    with demo_on(request.param, tmp_path_factory.mktemp(f"console-{request.param}"), **settings) as (base, env):
        live = Live(base, request.param, env["TESSERA_DATABASE_URL"])
        yield live
        if "sql" in live.__dict__:
            live.sql.dispose()  # before the PostgreSQL database is dropped


@pytest.fixture
def open_page(browser: Browser, server: Live) -> Iterator[Callable[..., Page]]:
    """New pages in fresh browser contexts; afterwards, any script error or CSP violation the
    console logged fails the test (a refused fetch logs "Failed to load resource", which is fine)."""
    contexts: list[Any] = []
    problems: list[str] = []

    def factory(locale: str = "en-US", viewport: tuple[int, int] = (1280, 800)) -> Page:
        context = browser.new_context(locale=locale, viewport={"width": viewport[0], "height": viewport[1]})
        context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.base)
        contexts.append(context)
        page = context.new_page()
        page.on("console", lambda m: problems.append(m.text) if m.type == "error"
                and not m.text.startswith("Failed to load resource") else None)
        page.on("pageerror", lambda e: problems.append(f"uncaught: {e}"))
        return page

    yield factory
    for context in contexts:
        context.close()
    assert problems == [], f"the console logged errors: {problems}"


def sign_in(page: Page, server: Live, email: str, *, route: str = "", password: str = PASSWORD) -> None:
    """Sign in through the form (English labels), landing on ``route`` (a deep link) or the applications."""
    page.goto(f"{server.base}/console{route}")
    page.get_by_label("Email").fill(email)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("button", name="Sign out")).to_be_visible()


def go(page: Page, route: str) -> None:
    """Move within the page (a reload would sign out: the JWT lives in the page's memory only)."""
    page.evaluate("route => { window.location.hash = route; }", route)


def wait_for(condition: Callable[[], bool], what: str, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.2)


def store_and_close(page: Page, dialog: Locator, secret: str) -> None:
    """Close a one-time secret dialog and check the secret is gone from the document.

    The page must remove the dialog when it is closed, not when the browser's later "close"
    event arrives, or the secret stays in the document meanwhile.
    """
    # Clicked from inside the page so the check runs in the same task as the click: the dialog must
    # be gone by then, not in a later task (a closed <dialog> leaves the accessibility tree, so a
    # role locator counts 0 while it is still in the document).
    removed_at_once = dialog.get_by_role("button", name="I have stored it").evaluate(
        "button => { button.click(); return document.querySelector('dialog.dialog-secret') === null; }")
    assert removed_at_once
    assert secret not in page.content()


def open_platform_token(server: Live, client_id: str, client_secret: str) -> dict[str, str]:
    response = httpx.post(f"{server.base}/oauth2/token", timeout=TIMEOUT, data={
        "grant_type": "client_credentials", "client_id": client_id, "client_secret": client_secret})
    assert response.status_code == 200, response.text
    return {"Authorization": f"Bearer {response.json()['access_token']}"}


def assign_an_asset(server: Live, auth: dict[str, str]) -> None:
    """An assignment through the Open Platform: it emits assets.assignment.changed."""
    pid = httpx.get(f"{server.base}/api/open/v1/resources/assets", params={"limit": 1}, headers=auth,
                    timeout=TIMEOUT).json()["items"][0]["pid"]
    etag = httpx.get(f"{server.base}/api/open/v1/resources/assets/{pid}", headers=auth, timeout=TIMEOUT).headers["etag"]
    response = httpx.post(f"{server.base}/api/open/v1/commands/assets.assign:execute", timeout=TIMEOUT,
                          headers={**auth, "If-Match": etag, "Idempotency-Key": str(uuid.uuid4())},
                          json={"targetPid": pid, "input": {"assignee": f"console-{uuid.uuid4().hex[:6]}"}})
    assert response.status_code == 200, response.text


@pytest.mark.rule("webhook.replay.admin-console")
def test_an_administrator_runs_the_whole_integration_from_the_console(server: Live,
                                                                      open_page: Callable[..., Page]) -> None:
    """Sign in, create an application, install it, create a credential, register an endpoint to a
    receiver that fails, watch the delivery reach the dead-letter queue, replay it, see it delivered;
    then the automation's runs and the audit log."""
    page = open_page()
    page.goto(f"{server.base}/console")
    expect(page.get_by_role("heading", name="Sign in")).to_be_visible()
    expect(page.get_by_label("Email")).to_be_focused()
    screenshot(page, server.backend, "01-sign-in")
    page.get_by_label("Email").fill(ADMIN)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("heading", name="Applications", level=1)).to_be_visible()
    screenshot(page, server.backend, "02-applications")

    name = f"ERP sync {uuid.uuid4().hex[:6]}"
    page.get_by_role("button", name="New application").click()
    dialog = page.get_by_role("dialog", name="New application")
    dialog.get_by_label("Name").fill(name)
    dialog.get_by_label("Description").fill("Nightly asset synchronisation")
    dialog.get_by_role("button", name="Create").click()
    expect(page.get_by_role("heading", name=name, level=1)).to_be_visible()
    expect(page.get_by_role("status").filter(has_text=f"Application {name} created")).to_be_visible()
    expect(page.get_by_text("Your role: Owner")).to_be_visible()

    page.get_by_role("button", name="Install").click()
    dialog = page.get_by_role("dialog", name="Install")
    dialog.get_by_label("Tenant").select_option("demo")
    dialog.get_by_label("Environment").select_option("production")
    for scope in ("assets.read", "assets.manage", "events.robot-fleet.publish"):
        dialog.get_by_label(scope).check()
    dialog.get_by_role("button", name="Install").click()
    expect(page.get_by_role("link", name="demo · production")).to_be_visible()

    page.get_by_role("button", name="Add member").click()
    dialog = page.get_by_role("dialog", name="Add member")
    dialog.get_by_label("Email").fill(VIEWER)
    dialog.get_by_label("Role").select_option("viewer")
    dialog.get_by_role("button", name="Add member").click()
    expect(page.get_by_role("cell", name=VIEWER, exact=True)).to_be_visible()
    screenshot(page, server.backend, "03-application")

    page.get_by_role("link", name="demo · production").click()
    expect(page.get_by_role("heading", name="Installation demo · production")).to_be_visible()
    page.get_by_role("button", name="Create credential").click()
    secret_dialog = page.get_by_role("dialog", name="New client credential")
    expect(secret_dialog.get_by_text("shown only this once")).to_be_visible()
    client_id = secret_dialog.locator("code.secret-value").nth(0).inner_text()
    client_secret = secret_dialog.locator("code.is-secret").inner_text()
    assert client_id.startswith("tcli_") and client_secret.startswith("tsec_")
    screenshot(page, server.backend, "05-new-credential-shown-once", full_page=False)
    secret_dialog.get_by_role("button", name="Copy Client secret").click()
    expect(secret_dialog.get_by_role("status")).to_have_text("Client secret copied to the clipboard.")
    assert page.evaluate("navigator.clipboard.readText()") == client_secret
    store_and_close(page, secret_dialog, client_secret)  # gone from the page once the dialog is closed
    expect(page.get_by_role("row").filter(has_text=client_id)).to_contain_text("Active")
    auth = open_platform_token(server, client_id, client_secret)  # the pair works

    with receiver(500) as hook:
        page.get_by_role("button", name="Add endpoint").click()
        dialog = page.get_by_role("dialog", name="Add endpoint")
        dialog.get_by_label("URL").fill(hook.url)
        dialog.get_by_label("assets.assignment.changed").check()
        dialog.get_by_role("button", name="Register").click()
        signing = page.get_by_role("dialog", name="Webhook signing secret")
        webhook_secret = signing.locator("code.is-secret").inner_text()
        store_and_close(page, signing, webhook_secret)
        expect(page.get_by_role("cell", name=hook.url, exact=True)).to_be_visible()
        screenshot(page, server.backend, "04-installation")

        assign_an_asset(server, auth)
        page.get_by_role("link", name=f"Deliveries to {hook.url}").click()
        expect(page.get_by_role("heading", name="Deliveries", level=1)).to_be_visible()
        page.get_by_label("Show").select_option(label="Dead-letter queue")
        dead = page.locator("tbody tr[data-status=dead]")
        expect(dead).to_have_count(1, timeout=30_000)  # the screen refreshes itself
        delivery_id = dead.locator("code").first.inner_text()
        dead.get_by_role("button", name="3 attempts").click()
        attempts = dead.locator(".attempts tbody tr")
        expect(attempts).to_have_count(3)
        for index in range(3):
            expect(attempts.nth(index)).to_contain_text("500")
            expect(attempts.nth(index)).to_contain_text(re.compile(r"\d+ ms"))
        screenshot(page, server.backend, "06-deliveries-dead-letter-queue")

        with hook.lock:
            hook.statuses[:] = [200]  # the receiver is fixed
        dead.get_by_role("button", name=f"Replay {delivery_id}").click()
        expect(page.get_by_role("status").filter(has_text=f"Delivery {delivery_id} queued again.")).to_be_visible()
        page.get_by_label("Show").select_option(label="All")
        delivered = page.locator("tbody tr[data-status=delivered]")
        expect(delivered).to_have_count(1, timeout=30_000)
        expect(delivered.get_by_role("button", name="4 attempts")).to_be_visible()
        screenshot(page, server.backend, "07-deliveries-replayed-and-delivered")
    assert len(hook.requests) == 4
    assert {r.headers["x-webhook-delivery"] for r in hook.requests} == {delivery_id}
    verify(hook.requests[-1].body, hook.requests[-1].headers, webhook_secret)  # signed with the secret shown once

    event = httpx.post(f"{server.base}/api/open/v1/event-sources/robot-fleet/events", timeout=TIMEOUT,
                       headers={**auth, "Idempotency-Key": str(uuid.uuid4())},
                       json={"type": "inventory.received", "schemaVersion": 1, "occurredAt": "2026-11-22T08:00:00Z",
                             "data": {"sku": f"SKU-{uuid.uuid4().hex[:6]}", "quantity": 3, "warehouse": "W1"}})
    assert event.status_code == 202, event.text
    admin = server.login(ADMIN)
    [automation] = [a for a in server.call(admin, "GET", "/api/open-platform/automations/list")["records"]
                    if a["name"] == ROBOT_AUTOMATION]
    runs_path = f"/api/open-platform/automations/{automation['automationId']}/runs/list"
    wait_for(lambda: any(r["eventId"] == event.json()["eventId"] and r["status"] == "succeeded"
                         for r in server.call(admin, "GET", runs_path, params={"pageSize": 500})["records"]),
             "the automation run")
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Automations").click()
    expect(page.get_by_role("heading", name="Automations", level=1)).to_be_visible()
    screenshot(page, server.backend, "08-automations")
    page.get_by_role("link", name=ROBOT_AUTOMATION).click()
    run = page.locator("tbody tr").filter(has_text=event.json()["eventId"])
    expect(run).to_contain_text("Succeeded")
    expect(run).to_contain_text("stock-ins:create")
    screenshot(page, server.backend, "09-automation-runs")

    page.get_by_role("navigation", name="Main").get_by_role("link", name="Audit log").click()
    expect(page.get_by_role("heading", name="Audit log", level=1)).to_be_visible()
    page.get_by_label("Action", exact=True).fill("delivery.replay")
    page.get_by_label("Target ID").fill(delivery_id)
    page.get_by_role("button", name="Search", exact=True).click()
    entry = page.locator(".list-panel tbody > tr")
    expect(entry).to_have_count(1)
    expect(entry).to_contain_text("delivery.replay")
    expect(entry).to_contain_text(ADMIN)
    entry.get_by_text("Show").click()
    expect(entry).to_contain_text('"status": "dead"')
    screenshot(page, server.backend, "10-audit-log")


@pytest.mark.rule("op.role.owner", "op.role.maintainer-runtime", "webhook.dlq.replay-by-owner")
def test_owner_maintainer_and_viewer_each_see_exactly_what_their_role_allows(server: Live,
                                                                             open_page: Callable[..., Page]) -> None:
    scene = server.scene(members={VIEWER: "viewer", ACME_ADMIN: "maintainer"})
    # A delivery to the endpoint (nothing listens on port 9): dead after the retries.
    demo_asset = server.call(scene["admin"], "GET", "/api/dynamic/assets/list", params={"pageSize": 1})["records"][0]
    server.call(scene["admin"], "POST", "/api/meta/commands/execute/assets:update", json={
        "operationType": "UPDATE", "targetRecordId": demo_asset["id"],
        "payload": {"status": "assigned", "assignee": f"role-{uuid.uuid4().hex[:6]}"}})
    deliveries = f"/api/open-platform/webhook-endpoints/{scene['endpointId']}/deliveries/list"
    wait_for(lambda: any(d["status"] == "dead" for d in server.call(scene["admin"], "GET", deliveries)["records"]),
             "a dead delivery")
    client_id, url = scene["clientId"], scene["endpointUrl"]
    owner_only = [f"Rotate {client_id}", f"Revoke {client_id}", f"Rotate the secret of {url}", "Create credential",
                  "Edit scopes", "Disable installation"]
    maintainer_too = ["Add endpoint", f"Edit {url}", f"Delete {url}"]
    for email, role, label in ((ADMIN, "owner", "Owner"), (ACME_ADMIN, "maintainer", "Maintainer"),
                               (VIEWER, "viewer", "Viewer")):
        page = open_page()
        sign_in(page, server, email, route=f"#/applications/{scene['appId']}")  # a deep link survives sign-in
        expect(page.get_by_role("heading", name=scene["appName"], level=1)).to_be_visible()
        expect(page.get_by_text(f"Your role: {label}")).to_be_visible()
        for control in ("Install", "Add member", "Edit application", "Disable application", "Delete application"):
            expect(page.get_by_role("button", name=control, exact=True)).to_have_count(1 if role == "owner" else 0)
        expect(page.get_by_role("combobox", name="Role of Demo Viewer")).to_have_count(1 if role == "owner" else 0)
        expect(page.get_by_role("cell", name=VIEWER, exact=True)).to_be_visible()  # every member reads the members

        go(page, f"#/installations/{scene['installationId']}")
        expect(page.get_by_role("heading", name="Installation demo · production")).to_be_visible()
        expect(page.get_by_role("row").filter(has_text=client_id)).to_be_visible()
        for control in owner_only:
            expect(page.get_by_role("button", name=control, exact=True)).to_have_count(1 if role == "owner" else 0)
        for control in maintainer_too:
            expect(page.get_by_role("button", name=control, exact=True)).to_have_count(0 if role == "viewer" else 1)
        expect(page.get_by_role("link", name=f"Deliveries to {url}")).to_be_visible()
        screenshot(page, server.backend, f"11-installation-as-{role}")

        page.get_by_role("link", name=f"Deliveries to {url}").click()
        dead = page.locator("tbody tr[data-status=dead]")
        expect(dead.first).to_be_visible()
        # Each delivery shows the request id of the call behind its event, and is found by it.
        request_id = dead.first.locator("td").nth(2).inner_text().strip()
        assert request_id not in ("", "—")
        page.get_by_label("Request ID of the call").fill(request_id)
        page.get_by_label("Request ID of the call").press("Enter")
        expect(page.locator("tbody tr[data-status]").filter(has_text=request_id).first).to_be_visible()
        expect(dead.first.get_by_role("button", name=re.compile("^Replay dlv_"))).to_have_count(
            1 if role == "owner" else 0)
        nav = page.get_by_role("navigation", name="Main")
        # Tenant permissions: the demo viewer has no automations:view in demo, the others do
        # (admin@acme.example acts in acme, where it is the administrator).
        expect(nav.get_by_role("link", name="Automations")).to_have_count(0 if role == "viewer" else 1)


def test_a_refused_action_shows_the_servers_translated_message(server: Live, open_page: Callable[..., Page]) -> None:
    """The owner loads the page, is demoted by another owner meanwhile, then clicks: the server's
    refusal is shown, in the user's language, and the screen stays."""
    scene = server.scene(members={ACME_ADMIN: "owner"})
    pages = {}
    for locale, create in (("en-US", "Create credential"), ("zh-CN", "创建凭据")):
        page = open_page(locale=locale)
        page.goto(f"{server.base}/console#/installations/{scene['installationId']}")
        page.locator("#signin-email").fill(ACME_ADMIN)
        page.locator("#signin-password").fill(PASSWORD)
        page.locator("form.signin-form button[type=submit]").click()
        expect(page.get_by_role("button", name=create)).to_be_visible()
        pages[locale] = (page, create)
    members = server.call(scene["admin"], "GET", f"/api/open-platform/applications/{scene['appId']}/members/list")
    [acme] = [m for m in members["records"] if m["email"] == ACME_ADMIN]
    server.call(scene["admin"], "PUT", f"/api/open-platform/applications/{scene['appId']}/members/{acme['userPid']}",
                json={"role": "viewer"})
    for locale, message in (("en-US", "You do not have permission to do this."), ("zh-CN", "您没有执行此操作的权限。")):
        page, create = pages[locale]
        page.get_by_role("button", name=create).click()
        alert = page.get_by_role("alert").filter(has_text=message)
        expect(alert).to_be_visible()
        expect(alert).to_contain_text("FORBIDDEN")
        expect(alert).to_contain_text("application:owner")
        expect(page.get_by_role("heading", level=1)).to_be_visible()  # never a blank page
        screenshot(page, server.backend, f"12-refused-action-{locale}")


@pytest.mark.parametrize("server", ["sqlite"], indirect=True)
def test_the_console_follows_the_browser_language_and_switches(server: Live, open_page: Callable[..., Page]) -> None:
    page = open_page(locale="zh-CN")
    page.goto(f"{server.base}/console")
    expect(page.get_by_role("heading", name="登录")).to_be_visible()
    assert page.evaluate("document.documentElement.lang") == "zh-CN"
    page.get_by_label("邮箱").fill(ADMIN)
    page.get_by_label("密码").fill("not-the-password")
    page.get_by_role("button", name="登录").click()
    expect(page.get_by_role("alert")).to_contain_text("邮箱或密码错误。")  # the server's own message, in Chinese
    page.get_by_label("密码").fill(PASSWORD)
    page.get_by_role("button", name="登录").click()
    expect(page.get_by_role("heading", name="应用", level=1)).to_be_visible()
    expect(page.get_by_role("navigation", name="主导航").get_by_role("link", name="审计日志")).to_be_visible()
    screenshot(page, server.backend, "13-applications-zh-CN")
    page.get_by_label("语言").select_option("en")
    expect(page.get_by_role("heading", name="Applications", level=1)).to_be_visible()
    assert page.evaluate("document.documentElement.lang") == "en"
    expect(page.get_by_role("button", name="Sign out")).to_be_visible()  # switching language keeps the session


@pytest.mark.parametrize("server", ["sqlite"], indirect=True)
@pytest.mark.rule("security.no-secrets-in-browser-storage")
def test_no_token_or_secret_reaches_browser_storage_cookies_or_urls(server: Live,
                                                                    open_page: Callable[..., Page]) -> None:
    page = open_page()
    requests: list[Any] = []
    page.on("request", lambda request: requests.append(request))
    with page.expect_response(lambda r: r.url.endswith("/api/auth/login")) as login:
        sign_in(page, server, ADMIN)
    jwt = login.value.json()["data"]["jwt"]
    scene = server.scene(members={})
    go(page, f"#/installations/{scene['installationId']}")
    page.get_by_role("button", name="Create credential").click()
    dialog = page.get_by_role("dialog", name="New client credential")
    secret = dialog.locator("code.is-secret").inner_text()
    store_and_close(page, dialog, secret)

    stored = page.evaluate("""async () => ({
        local: Object.keys(localStorage).length, session: Object.keys(sessionStorage).length,
        cookie: document.cookie, databases: (await indexedDB.databases()).length,
        caches: (await caches.keys()).length, url: location.href })""")
    assert {k: stored[k] for k in ("local", "session", "cookie", "databases", "caches")} == {
        "local": 0, "session": 0, "cookie": "", "databases": 0, "caches": 0}
    assert page.context.cookies() == []
    assert jwt not in stored["url"] and secret not in stored["url"]
    api_calls = [r for r in requests if "/api/" in r.url]
    assert len(api_calls) > 5
    for request in requests:
        assert jwt not in request.url and secret not in request.url, request.url
        assert "cookie" not in request.headers
    assert all(r.headers.get("authorization") == f"Bearer {jwt}" for r in api_calls if "/auth/login" not in r.url)
    page.reload()  # the session lived in the page's memory only
    expect(page.get_by_role("heading", name="Sign in")).to_be_visible()


@pytest.mark.parametrize("server", ["sqlite"], indirect=True)
def test_an_ended_session_signs_out_and_returns_to_the_same_screen(server: Live,
                                                                   open_page: Callable[..., Page]) -> None:
    """A 401 (the JWT expired) drops the session, says why, and brings the user back after sign-in."""
    page = open_page()
    sign_in(page, server, ADMIN)
    go(page, "#/audit")
    expect(page.get_by_role("heading", name="Audit log", level=1)).to_be_visible()
    expired = {"code": "UNAUTHORIZED", "message": "Authentication is required.", "data": None}
    page.route("**/api/audit/list*", lambda route: route.fulfill(status=401, content_type="application/json",
                                                                  body=json.dumps(expired)))
    page.get_by_role("button", name="Search", exact=True).click()
    expect(page.get_by_role("heading", name="Sign in")).to_be_visible()
    expect(page.get_by_role("alert").filter(has_text="Authentication is required.")).to_contain_text(
        "Your session has ended")
    page.unroute("**/api/audit/list*")
    page.get_by_label("Email").fill(ADMIN)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("heading", name="Audit log", level=1)).to_be_visible()


@pytest.mark.parametrize("server", ["sqlite"], indirect=True)
def test_a_member_of_two_tenants_switches_tenant_from_the_header(server: Live,
                                                                 open_page: Callable[..., Page]) -> None:
    page = open_page()
    sign_in(page, server, ADMIN)
    nav = page.get_by_role("navigation", name="Main")
    expect(nav.get_by_role("link", name="Automations")).to_be_visible()
    page.get_by_label("Tenant").select_option("acme")
    expect(page.get_by_role("status").filter(has_text="You now act in Acme Industries.")).to_be_visible()
    expect(page.get_by_label("Tenant")).to_have_value("acme")
    expect(nav.get_by_role("link", name="Automations")).to_have_count(0)  # a viewer in acme
    screenshot(page, server.backend, "14-tenant-switched-to-acme")
    page.get_by_label("Tenant").select_option("demo")
    expect(nav.get_by_role("link", name="Automations")).to_be_visible()


@pytest.mark.parametrize("server", ["sqlite"], indirect=True)
def test_the_console_works_with_the_keyboard_alone(server: Live, open_page: Callable[..., Page]) -> None:
    page = open_page()
    page.goto(f"{server.base}/console")
    expect(page.get_by_label("Email")).to_be_focused()
    page.keyboard.type(ADMIN)
    page.keyboard.press("Tab")
    page.keyboard.type(PASSWORD)
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", name="Applications", level=1)).to_be_focused()  # focus follows the screen
    # The skip link is the first stop of the page, just before the header's first link.
    page.get_by_role("link", name="Tessera console").focus()
    page.keyboard.press("Shift+Tab")
    expect(page.get_by_role("link", name="Skip to content")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("main")).to_be_focused()
    opener = page.get_by_role("button", name="New application")
    opener.focus()
    page.keyboard.press("Enter")
    dialog = page.get_by_role("dialog", name="New application")
    expect(dialog.get_by_label("Name")).to_be_focused()
    page.keyboard.press("Escape")
    expect(dialog).to_have_count(0)
    expect(opener).to_be_focused()


@pytest.mark.parametrize("server", ["sqlite"], indirect=True)
def test_the_console_is_readable_at_phone_width(server: Live, open_page: Callable[..., Page]) -> None:
    scene = server.scene(members={})
    page = open_page(viewport=(390, 844))
    sign_in(page, server, ADMIN)
    no_overflow = "document.documentElement.scrollWidth <= window.innerWidth"
    expect(page.get_by_role("heading", name="Applications", level=1)).to_be_visible()
    assert page.evaluate(no_overflow)
    screenshot(page, server.backend, "15-phone-applications")
    go(page, f"#/installations/{scene['installationId']}")
    expect(page.get_by_role("row").filter(has_text=scene["clientId"])).to_be_visible()
    expect(page.get_by_role("row").filter(has_text=scene["endpointUrl"])).to_be_visible()
    assert page.evaluate(no_overflow)
    screenshot(page, server.backend, "16-phone-installation")


@pytest.mark.parametrize("server", ["sqlite"], indirect=True)
def test_an_administrator_sees_the_tenants_roles_beside_their_templates(server: Live,
                                                                        open_page: Callable[..., Page]) -> None:
    page = open_page()
    sign_in(page, server, ADMIN, route="#/roles")
    expect(page.get_by_role("heading", name="Roles", level=1)).to_be_visible()
    viewer = page.get_by_role("row").filter(has_text="viewer")
    expect(viewer).to_contain_text("assets:view")
    expect(viewer).to_contain_text("stock-ins:view")
    expect(page.get_by_role("navigation", name="Main").get_by_role("link", name="Roles")).to_be_visible()


@pytest.mark.rule("op.role.owner-application-lifecycle")
def test_an_owner_renames_disables_enables_and_deletes_an_application_from_the_console(
        server: Live, open_page: Callable[..., Page]) -> None:
    scene = server.scene(members={})
    page = open_page()
    sign_in(page, server, ADMIN, route=f"#/applications/{scene['appId']}")
    expect(page.get_by_role("heading", name=scene["appName"], level=1)).to_be_visible()
    renamed = f"{scene['appName']} (EU)"
    page.get_by_role("button", name="Edit application").click()
    dialog = page.get_by_role("dialog", name="Edit application")
    dialog.get_by_label("Name").fill(renamed)
    dialog.get_by_label("Description").fill("The EU fleet.")
    dialog.get_by_role("button", name="Save").click()
    expect(page.get_by_role("heading", name=renamed, level=1)).to_be_visible()
    expect(page.get_by_text("The EU fleet.")).to_be_visible()
    summary = page.locator(".summary")
    page.get_by_role("button", name="Disable application").click()
    page.get_by_role("dialog", name="Disable application").get_by_role("button", name="Disable application").click()
    expect(summary).to_contain_text("Disabled")
    assert server.call(scene["admin"], "GET", f"/api/open-platform/applications/{scene['appId']}")["status"] == \
        "disabled"
    page.get_by_role("button", name="Enable application").click()
    expect(summary).to_contain_text("Active")
    page.get_by_role("button", name="Delete application").click()
    page.get_by_role("dialog", name="Delete application").get_by_role("button", name="Delete application").click()
    expect(page.get_by_role("heading", name="Applications", level=1)).to_be_visible()
    expect(page.get_by_text(renamed)).to_have_count(0)


def test_an_owner_rotates_revokes_edits_and_retries_from_the_console(server: Live,
                                                                     open_page: Callable[..., Page]) -> None:
    """The rest of the owner's controls: rotation with a grace window, revocation, endpoint edit,
    secret rotation with an overlap and deletion, scopes and status, member roles (the last owner
    refused with the server's message), and an automation whose parked run is retried."""
    scene = server.scene(members={VIEWER: "viewer"})
    client_id, url = scene["clientId"], scene["endpointUrl"]
    page = open_page()
    sign_in(page, server, ADMIN, route=f"#/installations/{scene['installationId']}")

    page.get_by_role("button", name=f"Rotate {client_id}", exact=True).click()
    dialog = page.get_by_role("dialog", name=f"Rotate {client_id}")
    dialog.get_by_label("Grace window").select_option(label="1 hour")
    dialog.get_by_role("button", name="Rotate").click()
    shown = page.get_by_role("dialog", name="New client credential")
    expect(shown).to_contain_text(f"The previous credential {client_id} keeps working until")
    new_id = shown.locator("code.secret-value").nth(0).inner_text()
    store_and_close(page, shown, shown.locator("code.is-secret").inner_text())
    old = page.get_by_role("row").filter(has_text=client_id)
    expect(old).to_contain_text("Rotated (grace window)")
    old.get_by_role("button", name=f"Revoke {client_id}").click()
    page.get_by_role("dialog", name="Revoke").get_by_role("button", name="Revoke").click()
    expect(old).to_contain_text("Revoked")
    expect(page.get_by_role("row").filter(has_text=new_id)).to_contain_text("Active")

    page.get_by_role("button", name=f"Edit {url}", exact=True).click()
    dialog = page.get_by_role("dialog", name="Edit endpoint")
    dialog.get_by_label("Send deliveries to this endpoint").uncheck()
    dialog.get_by_role("button", name="Save").click()
    expect(page.get_by_role("row").filter(has_text=url)).to_contain_text("Off")
    page.get_by_role("button", name=f"Rotate the secret of {url}").click()
    dialog = page.get_by_role("dialog", name="Rotate secret")
    dialog.get_by_label("Overlap of the old secrets").select_option(label="1 day")
    dialog.get_by_role("button", name="Rotate secret").click()
    signing = page.get_by_role("dialog", name="Webhook signing secret")
    expect(signing).to_contain_text("The previous secrets keep signing until")
    rotated = signing.locator("code.is-secret").inner_text()
    assert rotated.startswith("twsec_")  # the tessera format, the default
    store_and_close(page, signing, rotated)

    page.get_by_role("button", name="Edit scopes").click()
    dialog = page.get_by_role("dialog", name="Edit scopes")
    dialog.get_by_label("assets.manage").check()
    dialog.get_by_role("button", name="Save").click()
    summary = page.locator(".summary")
    expect(summary).to_contain_text("assets.manage")
    page.get_by_role("button", name="Disable installation").click()
    page.get_by_role("dialog", name="Disable installation").get_by_role("button", name="Disable installation").click()
    expect(summary).to_contain_text("Disabled")
    page.get_by_role("button", name="Enable installation").click()
    expect(summary).to_contain_text("Enabled")
    page.get_by_role("button", name=f"Delete {url}").click()
    page.get_by_role("dialog", name="Delete endpoint").get_by_role("button", name="Delete").click()
    expect(page.get_by_text("No webhook endpoints yet.")).to_be_visible()
    screenshot(page, server.backend, "17-installation-after-rotation-and-revocation")

    go(page, f"#/applications/{scene['appId']}")
    page.get_by_label("Role of Demo Viewer").select_option("maintainer")
    expect(page.get_by_role("status").filter(has_text="Demo Viewer is now Maintainer.")).to_be_visible()
    page.get_by_label("Role of Demo Admin").select_option("viewer")
    expect(page.get_by_role("alert").filter(has_text="An application must keep at least one owner.")).to_be_visible()
    expect(page.get_by_label("Role of Demo Admin")).to_have_value("owner")  # the list shows what is true

    robots = server.call(scene["admin"], "POST", f"/api/open-platform/applications/{scene['appId']}/installations",
                         json={"tenantId": "demo", "environment": "staging", "scopes": ["events.robot-fleet.publish"]})
    robot_cred = server.call(scene["admin"], "POST",
                             f"/api/open-platform/installations/{robots['installationId']}/credentials")
    go(page, "#/automations")
    page.get_by_role("button", name="New automation").click()
    dialog = page.get_by_role("dialog", name="New automation")
    name = f"Zero receipts {uuid.uuid4().hex[:6]}"
    dialog.get_by_label("Name").fill(name)
    dialog.get_by_label("Actions (JSON)").fill("not json")
    dialog.get_by_role("button", name="Create").click()
    expect(dialog.get_by_role("alert")).to_contain_text("The actions are not valid JSON.")
    dialog.get_by_label("Actions (JSON)").fill(json.dumps([{"kind": "sessionCommand", "command": "stock-ins:create",
                                                            "payload": {"sku": "$.data.sku", "quantity": 0}}]))
    dialog.get_by_role("button", name="Create").click()
    expect(page.get_by_role("heading", name=name, level=1)).to_be_visible()
    automation_id = page.url.rsplit("/", 1)[1]
    event = httpx.post(f"{server.base}/api/open/v1/event-sources/robot-fleet/events", timeout=TIMEOUT,
                       headers={**open_platform_token(server, robot_cred["clientId"], robot_cred["clientSecret"]),
                                "Idempotency-Key": str(uuid.uuid4())},
                       json={"type": "inventory.received", "schemaVersion": 1, "occurredAt": "2026-11-22T08:00:00Z",
                             "data": {"sku": "SKU-ZERO", "quantity": 1, "warehouse": "W1"}})
    assert event.status_code == 202, event.text
    runs_path = f"/api/open-platform/automations/{automation_id}/runs/list"
    wait_for(lambda: [r["status"] for r in server.call(scene["admin"], "GET", runs_path)["records"]] == ["parked"],
             "the run to be parked")
    page.get_by_role("button", name="Refresh").click()
    parked = page.locator("tbody tr").filter(has_text="Parked")
    expect(parked).to_contain_text("VALIDATION_ERROR")
    parked.get_by_role("button", name=re.compile("^Retry run_")).click()
    expect(page.get_by_role("status").filter(has_text="queued again")).to_be_visible()
    screenshot(page, server.backend, "18-automation-run-retried")

    go(page, "#/automations")
    page.get_by_role("button", name=f"Disable {name}").click()
    expect(page.get_by_role("status").filter(has_text=f"{name} is disabled.")).to_be_visible()
    page.get_by_role("button", name=f"Delete {name}").click()
    page.get_by_role("dialog", name="Delete automation").get_by_role("button", name="Delete").click()
    expect(page.get_by_role("status").filter(has_text=f"{name} deleted.")).to_be_visible()
    expect(page.get_by_role("link", name=name)).to_have_count(0)


# -- endpoint state, recovery and hourly plots ---------------------------------------------------

HOUR = timedelta(hours=1)
MINUTE = timedelta(minutes=1)


def this_hour() -> datetime:
    return datetime.now(UTC).replace(minute=0, second=0, microsecond=0)


def plotted(page: Page, figure: str, shape: str, series: str) -> Locator:
    """The bars (``rect``) or points (``circle``) of one series in the figure titled ``figure``."""
    return page.locator("figure.chart").filter(has=page.get_by_text(figure, exact=True)).locator(
        f"svg {shape}.series-{series}")


def test_the_endpoint_page_plots_deliveries_and_first_attempt_latency_per_hour(
    server: Live, open_page: Callable[..., Page]
) -> None:
    """Seeded deliveries at known hours: one bar per hour and series that had any, one point per
    hour with a first attempt, both periods; the numbers as a table; each attempt's worker and
    answer in the log; the installation's calls per status class."""
    scene = server.scene(members={})
    h0 = this_hour()  # every seeded hour is well inside both windows, whenever the test runs
    seed_deliveries(server.sql, scene["endpointId"], [
        Seeded("delivered", [Attempt(h0 - 5 * HOUR + 5 * MINUTE, 200, 80)]),
        Seeded("delivered", [Attempt(h0 - 3 * HOUR + 5 * MINUTE, 500, 300),
                             Attempt(h0 - 3 * HOUR + 6 * MINUTE, 200, 90)]),
        Seeded("delivered", [Attempt(h0 - 3 * HOUR + 10 * MINUTE, 204, 100)]),
        Seeded("dead", [Attempt(h0 - 2 * HOUR + n * MINUTE, 500, 40 + n, worker="worker-7.example:4242/3",
                                excerpt="upstream exploded") for n in (1, 2, 3)]),
        Seeded("dead", [Attempt(h0 - HOUR + MINUTE, None, 5000, error="timed out after 5 s")]),
        Seeded("delivered", [Attempt(h0 - 30 * HOUR, 200, 70)]),  # in the 7-day window only
    ])
    seed_calls(server.sql, scene["installationId"], [
        *[(h0 - 4 * HOUR + n * MINUTE, 200) for n in range(3)], (h0 - 4 * HOUR + 5 * MINUTE, 404),
        (h0 - 2 * HOUR, 500), (h0 - HOUR, 304), (h0 - HOUR + MINUTE, 304), (h0 - 40 * HOUR, 429)])

    page = open_page()
    sign_in(page, server, ADMIN, route=f"#/endpoints/{scene['endpointId']}")
    expect(page.get_by_role("heading", name="Deliveries", level=1)).to_be_visible()
    charts = page.locator(".charts[data-window='24h']")
    expect(charts).to_be_visible()
    expect(page.get_by_role("button", name="Last 24 hours")).to_have_attribute("aria-pressed", "true")
    deliveries, latency = "Deliveries per hour", "First-attempt latency"
    for series, hours in (("delivered", 2), ("failed", 3), ("dead", 2)):
        expect(plotted(page, deliveries, "rect", series)).to_have_count(hours)
    for series in ("p50LatencyMs", "p95LatencyMs"):
        expect(plotted(page, latency, "circle", series)).to_have_count(4)
        expect(plotted(page, latency, "polyline", series)).to_have_count(1)  # 5 h ago stands alone
    assert plotted(page, deliveries, "rect", "failed").evaluate_all(
        "bars => bars.map(b => [b.dataset.hour, b.dataset.value])") == [
        [iso(h0 - 3 * HOUR), "1"], [iso(h0 - 2 * HOUR), "3"], [iso(h0 - HOUR), "1"]]
    # First attempts of 100 and 300 ms three hours ago: interpolated as PostgreSQL's percentile_cont does.
    assert plotted(page, latency, "circle", "p95LatencyMs").evaluate_all(
        "points => points.map(p => p.dataset.value)") == ["80", "290", "41", "5000"]
    image = page.get_by_role("img", name=re.compile(r"^Deliveries per hour Last 24 hours: 3 attempts delivered, "
                                                    r"5 failed, 2 deliveries dead\.$"))
    expect(image).to_be_visible()
    figure = page.locator("figure.chart").filter(has_text=latency)
    figure.get_by_text("Show the numbers").click()
    rows = figure.locator("tbody tr")
    expect(rows).to_have_count(4)
    expect(rows.nth(1)).to_contain_text("200 ms")
    expect(rows.nth(1)).to_contain_text("290 ms")
    screenshot(page, server.backend, "19-endpoint-plots-24h")

    page.get_by_role("button", name="Last 7 days").click()
    expect(page.locator(".charts[data-window='7d']")).to_be_visible()
    expect(page.get_by_role("button", name="Last 7 days")).to_have_attribute("aria-pressed", "true")
    expect(plotted(page, deliveries, "rect", "delivered")).to_have_count(3)
    expect(plotted(page, latency, "circle", "p50LatencyMs")).to_have_count(5)
    screenshot(page, server.backend, "20-endpoint-plots-7d")

    dead = page.locator("tbody tr[data-status=dead]").filter(has=page.get_by_role("button", name="3 attempts"))
    dead.get_by_role("button", name="3 attempts").click()
    attempt = dead.locator(".attempts tbody tr").first
    expect(attempt).to_contain_text("worker-7.example:4242/3")
    expect(attempt).to_contain_text("upstream exploded")
    screenshot(page, server.backend, "21-attempts-with-worker-and-answer")

    go(page, f"#/installations/{scene['installationId']}")
    calls = "Calls per hour by status"
    expect(page.locator("figure.chart").filter(has_text=calls)).to_be_visible()
    for series in ("status2xx", "status3xx", "status4xx", "status5xx"):
        expect(plotted(page, calls, "rect", series)).to_have_count(1)
    assert plotted(page, calls, "rect", "status3xx").get_attribute("data-value") == "2"
    page.locator("figure.chart").filter(has_text=calls).get_by_text("Show the numbers").click()
    expect(page.locator("figure.chart").filter(has_text=calls).locator("tbody tr").first).to_contain_text(
        "200: 3, 404: 1")
    screenshot(page, server.backend, "22-installation-calls-24h")
    page.get_by_role("button", name="Last 7 days").click()
    expect(plotted(page, calls, "rect", "status4xx")).to_have_count(2)  # the 429 of 40 hours ago

    chinese = open_page(locale="zh-CN")
    chinese.goto(f"{server.base}/console#/endpoints/{scene['endpointId']}")
    chinese.locator("#signin-email").fill(ADMIN)
    chinese.locator("#signin-password").fill(PASSWORD)
    chinese.locator("form.signin-form button[type=submit]").click()
    expect(plotted(chinese, "每小时投递", "rect", "dead")).to_have_count(2)
    expect(chinese.get_by_role("button", name="最近 7 天")).to_be_visible()
    screenshot(chinese, server.backend, "23-endpoint-plots-zh-CN")


@pytest.mark.rule("webhook.replay.admin-console")
def test_an_owner_recovers_the_dead_deliveries_of_the_last_day_from_the_console(
    server: Live, open_page: Callable[..., Page]
) -> None:
    scene = server.scene(members={VIEWER: "viewer"})
    h0 = this_hour()
    seed_deliveries(server.sql, scene["endpointId"], [
        *[Seeded("dead", [Attempt(h0 - 2 * HOUR + n * MINUTE, 500, 20)]) for n in range(3)],
        Seeded("dead", [Attempt(h0 - 30 * HOUR, 500, 20)]),  # before the default time: left alone
    ])
    viewer = open_page()
    sign_in(viewer, server, VIEWER, route=f"#/endpoints/{scene['endpointId']}")
    expect(viewer.get_by_role("heading", name="Deliveries", level=1)).to_be_visible()
    expect(viewer.get_by_role("button", name="Recover deliveries")).to_have_count(0)  # owners only

    page = open_page()
    before = datetime.now()
    sign_in(page, server, ADMIN, route=f"#/endpoints/{scene['endpointId']}")
    since = page.get_by_label("Created since")
    default = datetime.fromisoformat(since.input_value())  # local time, to the minute
    after = datetime.now()
    # 24 hours before the page drew the form (between `before` and `after`), down to its minute.
    assert before - timedelta(hours=24, minutes=1) < default <= after - timedelta(hours=24)
    page.get_by_label("Show").select_option(label="Dead-letter queue")
    expect(page.locator("tbody tr[data-status=dead]")).to_have_count(4)
    page.get_by_role("button", name="Recover deliveries").click()
    expect(page.get_by_role("status").filter(has_text="3 deliveries queued again.")).to_be_visible()
    screenshot(page, server.backend, "24-deliveries-recovered")
    listed = f"/api/open-platform/webhook-endpoints/{scene['endpointId']}/deliveries/list"

    def tried_again() -> int:
        return sum(len(d["attempts"]) > 1 for d in server.call(scene["admin"], "GET", listed)["records"])

    wait_for(lambda: tried_again() == 3, "the recovered deliveries to be attempted again")

    # What the answer's `more` looks like (a thousand at a time): the next call answers it.
    page.route("**/deliveries/recover", lambda route: route.fulfill(
        status=200, content_type="application/json",
        body=json.dumps({"code": "0", "message": "OK", "data": {"recovered": 1000, "more": True}})))
    page.get_by_role("button", name="Recover deliveries").click()
    notice = page.get_by_role("status").filter(has_text="1,000 deliveries queued again.")
    expect(notice).to_contain_text("More remain: recover again to queue the next ones.")


def test_an_attempt_whose_worker_was_killed_after_sending_shows_as_unknown(
    server: Live, open_page: Callable[..., Page]
) -> None:
    """The attempt row a worker wrote before sending, left ``sending`` when it was killed (no lease
    holds the delivery any more): the delivery log says what is known, the request may have gone."""
    scene = server.scene(members={})
    seed_deliveries(server.sql, scene["endpointId"], [
        Seeded("retrying", [Attempt(this_hour(), None, None, worker="worker-1:4242/0", outcome="sending")])])
    page = open_page()
    sign_in(page, server, ADMIN, route=f"#/endpoints/{scene['endpointId']}")
    page.get_by_role("button", name="1 attempt").click()
    attempt = page.locator(".attempts tbody tr")
    expect(attempt.locator("td[data-label='HTTP status']")).to_have_text("Unknown: the worker stopped")
    expect(attempt.locator("td[data-label=Error]")).to_have_text(
        "worker stopped before recording the outcome (the request may have been sent)")
    expect(attempt.locator("td[data-label=Worker]")).to_have_text("worker-1:4242/0")
    screenshot(page, server.backend, "28-attempt-of-a-killed-worker")


@pytest.mark.rule("op.role.maintainer-runtime")
def test_a_disabled_endpoint_says_why_and_a_maintainer_re_enables_it(server: Live,
                                                                       open_page: Callable[..., Page]) -> None:
    """A receiver that answers 410 Gone: the service disables the endpoint; the page says so in
    words, a viewer is told who can re-enable it, a maintainer does."""
    with receiver(410) as hook:
        scene = server.scene(members={VIEWER: "viewer", ACME_ADMIN: "maintainer"}, endpoint_url=hook.url)
        admin = scene["admin"]
        asset = server.call(admin, "GET", "/api/dynamic/assets/list", params={"pageSize": 1})["records"][0]
        server.call(admin, "POST", "/api/meta/commands/execute/assets:update", json={
            "operationType": "UPDATE", "targetRecordId": asset["id"],
            "payload": {"status": "assigned", "assignee": f"gone-{uuid.uuid4().hex[:6]}"}})
        endpoint_path = f"/api/open-platform/webhook-endpoints/{scene['endpointId']}"
        wait_for(lambda: server.call(admin, "GET", endpoint_path)["enabled"] is False, "the endpoint to be disabled")

    viewer = open_page()
    sign_in(viewer, server, VIEWER, route=f"#/endpoints/{scene['endpointId']}")
    box = viewer.locator(".disabled-box")
    expect(box).to_contain_text("Deliveries to this endpoint are off.")
    expect(box).to_contain_text("the receiver answered 410 Gone")
    expect(box).to_contain_text("An owner or maintainer can re-enable them.")
    expect(viewer.get_by_role("button", name="Re-enable deliveries")).to_have_count(0)

    page = open_page()
    sign_in(page, server, ACME_ADMIN, route=f"#/endpoints/{scene['endpointId']}")
    box = page.locator(".disabled-box")
    expect(box).to_contain_text("the receiver answered 410 Gone")
    expect(page.locator(".facts")).to_contain_text("Off")
    screenshot(page, server.backend, "25-endpoint-disabled-410-gone")
    page.get_by_role("button", name="Re-enable deliveries").click()
    expect(page.get_by_role("status").filter(has_text="Deliveries to this endpoint are on again.")).to_be_visible()
    expect(box).to_have_count(0)
    expect(page.locator(".facts")).to_contain_text("On")
    assert {k: v for k, v in server.call(admin, "GET", endpoint_path).items()
            if k in ("enabled", "disabledReason")} == {"enabled": True, "disabledReason": None}
    screenshot(page, server.backend, "26-endpoint-re-enabled")


def test_an_owner_registers_a_public_key_and_the_application_signs_in_with_it(
        server: Live, open_page: Callable[..., Page]) -> None:
    """A secretless credential from the console: a pasted private key is refused on the field, the
    public key is registered, listed by kind, and a private_key_jwt assertion gets a token."""
    key = Ed25519PrivateKey.generate()
    public = json.loads(jwt.algorithms.OKPAlgorithm.to_jwk(key.public_key()))
    private = json.loads(jwt.algorithms.OKPAlgorithm.to_jwk(key))
    scene = server.scene(members={})
    page = open_page()
    sign_in(page, server, ADMIN, route=f"#/installations/{scene['installationId']}")
    page.get_by_role("button", name="Register a public key").click()
    dialog = page.get_by_role("dialog", name="Register a public key")
    dialog.get_by_label("Public key (JWK or JWK Set)").fill(json.dumps(private))
    dialog.get_by_role("button", name="Register a public key").click()
    expect(dialog.locator(".field-error")).to_be_visible()  # the private part is refused, on the field
    dialog.get_by_label("Public key (JWK or JWK Set)").fill(json.dumps(public))
    dialog.get_by_role("button", name="Register a public key").click()
    notice = page.get_by_text("Public key registered: client ID")
    expect(notice).to_be_visible()
    client_id = re.search(r"tcli_[0-9a-z]+", notice.inner_text())
    assert client_id is not None
    expect(page.get_by_role("row").filter(has_text=client_id[0])).to_contain_text("Public key (private_key_jwt)")
    screenshot(page, server.backend, "27-public-key-registered")

    token_url = f"{server.base}/oauth2/token"
    now = int(time.time())
    assertion = jwt.encode({"iss": client_id[0], "sub": client_id[0], "aud": token_url, "iat": now,
                            "exp": now + 120, "jti": uuid.uuid4().hex}, key, algorithm="EdDSA")
    response = httpx.post(token_url, timeout=TIMEOUT, data={
        "grant_type": "client_credentials", "client_assertion": assertion,
        "client_assertion_type": "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"})
    assert response.status_code == 200, response.text


def test_a_credential_past_the_rotation_baseline_shows_a_badge_sorts_by_age_and_is_in_the_audit(
        server: Live, open_page: Callable[..., Page]) -> None:
    """A credential 91 days old (its row backdated): the owner sees its age and a "Rotation due"
    badge, sorts the credentials oldest first, and finds the worker's announcement in the audit."""
    scene = server.scene(members={})
    admin, old_id = scene["admin"], scene["clientId"]
    new_id = server.call(admin, "POST", f"/api/open-platform/installations/{scene['installationId']}/credentials")[
        "clientId"]
    with server.sql.begin() as conn:
        conn.execute(update(credentials).where(credentials.c.client_id == old_id)
                     .values(created_at=datetime.now(UTC) - timedelta(days=91)))

    def announced() -> bool:
        entries = server.call(admin, "GET", "/api/audit/list", params={"keyword": old_id})["records"]
        return "credential.rotation_due" in {e["action"] for e in entries}

    wait_for(announced, "the worker to announce the credential")

    page = open_page()
    sign_in(page, server, ADMIN, route=f"#/installations/{scene['installationId']}")
    table = page.get_by_role("table", name="Client credentials")
    old_row = table.get_by_role("row").filter(has_text=old_id)
    expect(old_row).to_contain_text("91 days")
    expect(old_row.locator(".badge").filter(has_text="Rotation due")).to_be_visible()
    expect(table.get_by_role("row").filter(has_text=new_id)).not_to_contain_text("Rotation due")
    page.get_by_label("Sort by age").select_option("asc")
    expect(table.locator("tbody tr").first).to_contain_text(old_id)
    screenshot(page, server.backend, "29-credential-rotation-due")

    go(page, "#/audit")
    page.get_by_label("Keyword").fill(old_id)
    page.get_by_role("button", name="Search", exact=True).click()
    entry = page.get_by_role("row").filter(has_text="credential.rotation_due")
    expect(entry).to_contain_text("system:credentials")
    expect(entry).to_contain_text(old_id)


def test_an_installations_events_show_newest_first_as_its_events_api_serves_them(
    server: Live, open_page: Callable[..., Page]
) -> None:
    """An assignment through the Open Platform: its event is listed on the installation's page, with
    the id and body the installation's own events API serves."""
    admin, op = server.login(ADMIN), "/api/open-platform"
    app = server.call(admin, "POST", f"{op}/applications", json={"name": f"Events {uuid.uuid4().hex[:6]}"})
    inst = server.call(admin, "POST", f"{op}/applications/{app['appId']}/installations",
                       json={"tenantId": "demo", "environment": "production",
                             "scopes": ["assets.read", "assets.manage"]})
    cred = server.call(admin, "POST", f"{op}/installations/{inst['installationId']}/credentials")
    auth = open_platform_token(server, cred["clientId"], cred["clientSecret"])
    assign_an_asset(server, auth)
    newest: dict[str, Any] = {}

    def fanned_out() -> bool:  # the server's own worker fans the event out
        items = httpx.get(f"{server.base}/api/open/v1/events", headers=auth, timeout=TIMEOUT,
                          params={"type": "assets.assignment.changed", "limit": 200}).json()["items"]
        newest.update(items[-1] if items else {})
        return bool(items)

    wait_for(fanned_out, "the assignment's event in the events API")
    page = open_page()
    sign_in(page, server, ADMIN, route=f"#/installations/{inst['installationId']}")
    events = page.locator("section").filter(has=page.get_by_role("heading", name="Events", exact=True))
    first = events.locator("tbody tr").first
    expect(first).to_contain_text(newest["id"])
    expect(first).to_contain_text("assets.assignment.changed")
    expect(first).to_contain_text(newest["data"]["assignee"])
    screenshot(page, server.backend, "24-installation-events")
