"""Real objects of the demo for Schemathesis to aim at (used by ``scripts/schemathesis_hooks.py``).

A fuzzer that only ever sends made-up ids gets 404 from every operation on an application,
installation, credential, endpoint, delivery, automation or run, so their core logic goes untested.
This module makes, through the session API and the Open Platform as any client would, one of each
object in the demo tenant (with a loopback webhook receiver, so deliveries really happen), and a
fresh one on demand for the operations that destroy or change their target (revoke, delete,
rotate, disable). It reads the same environment as ``schemathesis.toml``: ``TESSERA_URL``,
``TESSERA_EMAIL``, ``TESSERA_PASSWORD``; the demo must allow loopback webhook endpoints
(``TESSERA_WEBHOOK_ALLOW_LOOPBACK=true``, as ``scripts/demo.sh`` sets).

Only the standard library and ``cryptography`` (for a real public key): this runs inside the
Schemathesis process, not the service.
"""

from __future__ import annotations

import base64
import json
import os
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from functools import cached_property
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

TENANT = "demo"
ENVIRONMENT = "production"
OTHER_USER = "viewer@demo.example"  # a demo user to add to and remove from applications
SCOPES = ["assets.read", "assets.manage", "inventory.stockins.read", "inventory.stockins.manage",
          "events.robot-fleet.publish"]
STOCK_IN_CREATED = "inventory.stock-in.created"
# An automation the demo registry accepts: robot-fleet receipts become stock-ins.
AUTOMATION = {
    "trigger": {"source": "robot-fleet", "eventType": "inventory.received"},
    "actions": [{"kind": "sessionCommand", "command": "stock-ins:create",
                 "payload": {"sku": "$.data.sku", "quantity": "$.data.quantity", "warehouse": "$.data.warehouse"}}],
}
# An action the registry accepts but that fails when it runs (an asset needs a serial number), so
# its run retries, then parks: the one state in which a run can be retried.
FAILING_ACTIONS = [{"kind": "sessionCommand", "command": "assets:create", "payload": {"name": "$.data.sku"}}]
RECEIPT = {"type": "inventory.received", "schemaVersion": 1, "occurredAt": "2026-11-22T08:00:00.000Z",
           "data": {"sku": "SKU-CONFORMANCE", "quantity": 1, "warehouse": "north"}}


# A valid new record of each page of the demo's models.yaml (unique values made unique).
RECORDS = {
    "assets": lambda: {"name": "Conformance asset", "serialNo": f"CONF-{uuid.uuid4().hex[:12]}"},
    "stock-ins": lambda: {"sku": f"SKU-{uuid.uuid4().hex[:8]}", "quantity": 1},
}


class ConformanceSetupError(RuntimeError):
    """The demo refused to make an object the run needs: the run cannot aim at real data."""

    def __init__(self, message: str, status: int = 0) -> None:
        super().__init__(message)
        self.status = status


class _Receiver(BaseHTTPRequestHandler):
    """A webhook receiver that acknowledges every delivery."""

    def do_POST(self) -> None:  # http.server's name
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self.send_response(204)
        self.end_headers()

    def log_message(self, format: str, *args: Any) -> None:  # noqa: ARG002  # http.server's signature
        return


def public_jwk() -> dict[str, str]:
    """A fresh Ed25519 public key as a JWK (RFC 8037), valid for a ``private_key_jwt`` credential."""
    raw = Ed25519PrivateKey.generate().public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
    return {"kty": "OKP", "crv": "Ed25519", "kid": uuid.uuid4().hex[:12],
            "x": base64.urlsafe_b64encode(raw).rstrip(b"=").decode()}


class DemoObjects:
    """Ids of real demo objects, made once on first use; ``fresh_*`` make another each call."""

    def __init__(self) -> None:
        self.base = os.environ["TESSERA_URL"].rstrip("/")
        if not self.base.startswith(("http://", "https://")):
            raise ConformanceSetupError(f"TESSERA_URL must be an http(s) URL, not {self.base!r}")
        self._lock = threading.RLock()  # makers use other objects
        self._made: dict[str, Any] = {}
        self._used = threading.local()

    # -- HTTP ----------------------------------------------------------------------------------

    def call(self, method: str, path: str, body: Any = None, *, token: str | None = None,
             form: dict[str, str] | None = None, ok: tuple[int, ...] = (200,)) -> Any:
        headers = {"X-Tenant-Id": TENANT, "Accept": "application/json"}
        data = None
        if form is not None:
            data = urllib.parse.urlencode(form).encode()
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        elif body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        if method == "POST" and path.startswith("/api/open/v1/"):
            headers["Idempotency-Key"] = uuid.uuid4().hex
        # The scheme is checked in __init__ (http or https only).
        request = urllib.request.Request(self.base + path, data=data, method=method, headers=headers)  # noqa: S310
        try:
            with urllib.request.urlopen(request, timeout=30) as response:  # noqa: S310
                status, payload = response.status, response.read()
        except urllib.error.HTTPError as refused:
            status, payload = refused.code, refused.read()
        answer = json.loads(payload) if payload else None
        if status not in ok:
            raise ConformanceSetupError(f"{method} {path} answered {status}: {answer}", status)
        return answer.get("data", answer) if isinstance(answer, dict) else answer

    @cached_property
    def jwt(self) -> str:
        return self._login(os.environ["TESSERA_EMAIL"])

    def _login(self, email: str) -> str:
        data = self.call("POST", "/api/auth/login", {"email": email, "password": os.environ["TESSERA_PASSWORD"]})
        return str(data["jwt"])

    def admin(self, method: str, path: str, body: Any = None, ok: tuple[int, ...] = (200,)) -> Any:
        return self.call(method, path, body, token=self.jwt, ok=ok)

    def _once(self, name: str, make: Any) -> Any:
        with self._lock:
            if name not in self._made:
                self._made[name] = make()
            used: set[str] = getattr(self._used, "names", set())
            used.add(name)
            return self._made[name]

    def tracking(self) -> set[str]:
        """Start recording which shared objects this thread uses; returns the (live) record."""
        self._used.names = set()
        return self._used.names  # type: ignore[no-any-return]

    def forget(self, names: set[str]) -> None:
        """Make these shared objects again on next use: a case aimed at them found one gone.

        The fuzzer reuses ids it saw in responses, so a schema-valid DELETE or PUT aimed elsewhere
        can delete or change a shared object."""
        with self._lock:
            for name in names:
                self._made.pop(name, None)

    # -- objects made once ----------------------------------------------------------------------

    @property
    def receiver_url(self) -> str:
        def start() -> str:
            server = ThreadingHTTPServer(("127.0.0.1", 0), _Receiver)
            threading.Thread(target=server.serve_forever, daemon=True).start()
            return f"http://127.0.0.1:{server.server_address[1]}/hooks"
        return str(self._once("receiver", start))

    @property
    def app_id(self) -> str:
        return str(self._once("app", lambda: self.fresh_app()))

    @property
    def installation_id(self) -> str:
        # On an application of its own: aimed cases install the shared application (``app_id``) in
        # the demo tenant and environment too, and a second installation there is a conflict.
        return str(self._once("installation", lambda: self.fresh_installation()))

    @property
    def endpoint_id(self) -> str:
        return str(self._once("endpoint", lambda: self.fresh_endpoint(self.installation_id)))

    @property
    def automation_id(self) -> str:
        return str(self._once("automation", self.fresh_automation))

    @property
    def other_user_pid(self) -> str:
        def whoami() -> str:
            token = self._login(OTHER_USER)
            return str(self.call("GET", "/api/auth/session", token=token)["userPid"])
        return str(self._once("other_user", whoami))

    @property
    def record_id(self) -> str:
        return self.record_of("assets")

    def record_of(self, page: str) -> str:
        """A record of a declared page (made when the page has none), kept for every case."""
        def first() -> str:
            records = self.admin("GET", f"/api/dynamic/{page}/list?pageSize=1")["records"]
            return str(records[0]["id"]) if records else self.fresh_record(page)
        return str(self._once(f"record:{page}", first))

    def fresh_record(self, page: str) -> str:
        """A new record of a declared page, for a case that deletes or changes it."""
        payload = RECORDS[page]()
        return str(self.admin("POST", f"/api/meta/commands/execute/{page}:create", {"payload": payload})["id"])

    @cached_property
    def open_token(self) -> str:
        """An access token of the conformance credential (``TESSERA_CLIENT_ID``, holding every scope)."""
        answer = self.call("POST", "/oauth2/token", form={
            "grant_type": "client_credentials", "client_id": os.environ["TESSERA_CLIENT_ID"],
            "client_secret": os.environ["TESSERA_CLIENT_SECRET"]})
        return str(answer["access_token"])

    @property
    def asset_pid(self) -> str:
        """A demo asset, as the Open Platform lists it to the conformance credential."""
        return str(self._once("asset", lambda: self.call(
            "GET", "/api/open/v1/resources/assets?limit=1", token=self.open_token)["items"][0]["pid"]))

    def current_asset(self) -> tuple[str, str]:
        """``asset_pid`` and its ETag now: read again for every command, since each one changes it."""
        pid = self.asset_pid
        request = urllib.request.Request(f"{self.base}/api/open/v1/resources/assets/{pid}", method="GET",  # noqa: S310
                                         headers={"Authorization": f"Bearer {self.open_token}"})
        try:
            with urllib.request.urlopen(request, timeout=30) as response:  # noqa: S310  # scheme checked in __init__
                return pid, str(response.headers["ETag"])
        except urllib.error.HTTPError as refused:
            raise ConformanceSetupError(f"GET asset {pid} answered {refused.code}") from None

    @property
    def delivery_id(self) -> str:
        """A delivered delivery of ``endpoint_id`` (a stock-in created in the tenant, delivered)."""
        return str(self._once("delivery", self._delivered))

    @property
    def event_id(self) -> str:
        """An event the conformance credential reads through the events API (a stock-in created in
        the tenant, once it is fanned out, when the tenant has none yet)."""
        return str(self._once("event", self._event))

    @property
    def run_id(self) -> str:
        """A parked run, started by an inbound robot-fleet event, of an automation whose action fails."""
        return str(self._once("run", self._run))

    # -- fresh objects ----------------------------------------------------------------------------

    def fresh_app(self) -> str:
        name = f"Conformance {uuid.uuid4().hex[:8]}"
        return str(self.admin("POST", "/api/open-platform/applications", {"name": name})["appId"])

    def fresh_installation(self, app_id: str | None = None) -> str:
        body = {"tenantId": TENANT, "environment": ENVIRONMENT, "scopes": SCOPES}
        app = app_id or self.fresh_app()
        return str(self.admin("POST", f"/api/open-platform/applications/{app}/installations", body)["installationId"])

    def fresh_credential(self) -> str:
        """A secret credential on an installation of its own (nothing else can have changed it)."""
        return self.fresh_credential_with_secret()["client_id"]

    def fresh_endpoint(self, installation_id: str | None = None) -> str:
        body = {"url": self.receiver_url, "eventTypes": [STOCK_IN_CREATED]}
        path = f"/api/open-platform/installations/{installation_id or self.fresh_installation()}/webhook-endpoints"
        return str(self.admin("POST", path, body)["endpointId"])

    def fresh_automation(self, actions: list[dict[str, Any]] | None = None) -> str:
        body = {"name": f"Conformance {uuid.uuid4().hex[:8]}", **AUTOMATION}
        if actions is not None:
            body["actions"] = actions
        return str(self.admin("POST", "/api/open-platform/automations", body)["automationId"])

    def member(self, *, present: bool) -> str:
        """The other demo user's pid, made a member of ``app_id`` (or not one) first."""
        user, base = self.other_user_pid, f"/api/open-platform/applications/{self.app_id}/members"
        if present:
            self.admin("POST", base, {"userPid": user, "role": "maintainer"}, ok=(200, 409))
        else:
            self.admin("DELETE", f"{base}/{user}", ok=(200, 404))
        return user

    # -- objects that need the service's workers ----------------------------------------------------

    def _token(self) -> str:
        client_id = self.fresh_credential_with_secret()
        answer = self.call("POST", "/oauth2/token", form={"grant_type": "client_credentials", **client_id})
        return str(answer["access_token"])

    def fresh_credential_with_secret(self) -> dict[str, str]:
        path = f"/api/open-platform/installations/{self.fresh_installation()}/credentials"
        made = self.admin("POST", path, {})
        return {"client_id": made["clientId"], "client_secret": made["clientSecret"]}

    def _delivered(self) -> str:
        endpoint = self.endpoint_id
        self.admin("POST", "/api/meta/commands/execute/stock-ins:create",
                   {"payload": {"sku": f"SKU-{uuid.uuid4().hex[:8]}", "quantity": 1}})
        return self._wait(f"/api/open-platform/webhook-endpoints/{endpoint}/deliveries/list", "deliveryId",
                          "delivered")

    def _event(self) -> str:
        listed = f"/api/open/v1/events?type={STOCK_IN_CREATED}&limit=1"
        items = self.call("GET", listed, token=self.open_token)["items"]
        if not items:
            self.admin("POST", "/api/meta/commands/execute/stock-ins:create", {"payload": RECORDS["stock-ins"]()})
        deadline = time.monotonic() + 30
        while not items and time.monotonic() < deadline:
            time.sleep(0.1)
            items = self.call("GET", listed, token=self.open_token)["items"]
        if not items:
            raise ConformanceSetupError("no event reached the events API within 30 s: is the worker running?")
        return str(items[0]["id"])

    def _run(self) -> str:
        automation = self.fresh_automation(FAILING_ACTIONS)
        self.call("POST", "/api/open/v1/event-sources/robot-fleet/events", RECEIPT, token=self._token(), ok=(200, 202))
        return self._wait(f"/api/open-platform/automations/{automation}/runs/list", "runId", "parked",
                          hint="a run parks once its retry schedule is spent: run the server with a short "
                               "TESSERA_AUTOMATION_RETRY_SCHEDULE (the conformance test sets 0.05)")

    def _wait(self, path: str, key: str, status: str, seconds: float = 30, hint: str = "") -> str:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            for row in self.admin("GET", path)["records"]:
                if row.get("status") == status:
                    return str(row[key])
            time.sleep(0.1)
        raise ConformanceSetupError(f"nothing with status {status} appeared at {path} within {seconds:.0f} s; {hint}")
