"""Schemathesis hooks for Tessera's conformance runs (loaded by ``hooks`` in ``schemathesis.toml``).

Three things, each explained where it is done: `ast.parse` one at a time (a CPython 3.11 bug with
two workers); link bodies handed back to Schemathesis (below); and half the schema-valid cases
aimed at real demo objects (``before_call``), so that no operation only ever answers 404.

The published Open Platform document puts the request body an OpenAPI link fills under
``x-tessera-request-body`` instead of the Link Object's ``requestBody``: openapi-generator's parser
refuses a ``requestBody`` that is not a string, and the body to carry over is an object
(``{"targetPid": "$response.body#/pid"}``). Before Schemathesis builds its state machine, this hook
moves it back where Schemathesis reads it, so stateful testing still runs a command on the record
that was just read, under that record's ETag.
"""

from __future__ import annotations

import ast
import base64
import os
import sys
import threading
import uuid
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import schemathesis

# CPython 3.11 keeps the AST constructor's recursion depth in state shared by every thread
# (python/cpython#106905): two threads parsing at once (Hypothesis parses lambdas' source while it
# builds strategies, and `--workers 2` runs two threads) can fail with "SystemError: AST
# constructor recursion depth mismatch". One parse at a time in this process avoids it.
_parse = ast.parse
_parsing = threading.Lock()


def _one_parse_at_a_time(*args: Any, **kwargs: Any) -> Any:
    with _parsing:
        return _parse(*args, **kwargs)


ast.parse = _one_parse_at_a_time

LINK_BODY = "x-tessera-request-body"  # tessera.registry.document.LINK_BODY


@schemathesis.hook
def before_load_schema(context: Any, raw_schema: dict[str, Any]) -> None:  # noqa: ARG001  # hook signature
    for path_item in (raw_schema.get("paths") or {}).values():
        for operation in path_item.values():
            if not isinstance(operation, dict):
                continue
            for response in (operation.get("responses") or {}).values():
                for link in (response.get("links") or {}).values() if isinstance(response, dict) else ():
                    if LINK_BODY in link and "requestBody" not in link:
                        link["requestBody"] = link[LINK_BODY]


# -- Aiming at real objects ---------------------------------------------------------------------
#
# Made-up ids only ever earn 404, and values the documents cannot pin down (a registry's command
# codes, a real public key, the demo's credentials) only ever earn 400, so the core of those
# operations would go unfuzzed. In the examples, coverage and fuzzing phases, every other
# schema-valid case of such an operation is aimed at a real demo object instead
# (`conformance_objects.py`), with the tenant and the registry's values filled in; the rest, and
# every invalid case, go out as generated. The stateful phase keeps to its OpenAPI links.

sys.path.insert(0, str(Path(__file__).resolve().parent))
from conformance_objects import (  # noqa: E402  # after the path
    AUTOMATION,
    RECORDS,
    ConformanceSetupError,
    DemoObjects,
    public_jwk,
)

Binder = Callable[[DemoObjects, Any], None]
UNIT_PHASES = {"examples", "coverage", "fuzzing"}
_objects: DemoObjects | None = None
_aimed: Counter[tuple[str, str]] = Counter()
_aiming = threading.Lock()
# The shared objects each aimed case used, by case id, until its response is in.
_used: dict[str, set[str]] = {}


def _ids(**made: Callable[[DemoObjects], str]) -> Binder:
    """A binder that sets path parameters to objects made (or looked up) when the case goes out."""
    def bind(objects: DemoObjects, case: Any) -> None:
        for name, make in made.items():
            case.path_parameters[name] = make(objects)
    return bind


def _then(*binders: Binder) -> Binder:
    def bind(objects: DemoObjects, case: Any) -> None:
        for binder in binders:
            binder(objects, case)
    return bind


def _body(change: Callable[[DemoObjects, dict[str, Any]], None]) -> Binder:
    def bind(objects: DemoObjects, case: Any) -> None:
        if isinstance(case.body, dict):
            change(objects, case.body)
    return bind


def _demo_login(objects: DemoObjects, body: dict[str, Any]) -> None:  # noqa: ARG001  # binder signature
    body.update(email=os.environ["TESSERA_EMAIL"], password=os.environ["TESSERA_PASSWORD"])


def _new_record(page: str) -> Binder:
    """A create command's payload: a valid new record of the page (its unique values unused)."""
    def change(objects: DemoObjects, body: dict[str, Any]) -> None:  # noqa: ARG001  # binder signature
        body["payload"] = RECORDS[page]()
    return _body(change)


def _target(page: str, fresh: bool) -> Binder:
    """An update's or a delete's target: the page's kept record, or a fresh one for a delete."""
    def change(objects: DemoObjects, body: dict[str, Any]) -> None:
        body["targetRecordId"] = objects.fresh_record(page) if fresh else objects.record_of(page)
    return _body(change)


def _page_binders(pages: tuple[str, ...]) -> dict[tuple[str, str], Binder]:
    """Each declared page's generated operations aimed at its real records."""
    found: dict[tuple[str, str], Binder] = {}
    for page in pages:
        found[("GET", f"/api/dynamic/{page}/{{recordId}}")] = _ids(recordId=lambda o, p=page: o.record_of(p))
        found[("POST", f"/api/meta/commands/execute/{page}:create")] = _new_record(page)
        found[("POST", f"/api/meta/commands/execute/{page}:update")] = _target(page, fresh=False)
        found[("POST", f"/api/meta/commands/execute/{page}:delete")] = _target(page, fresh=True)
    return found


def _new_member(objects: DemoObjects, body: dict[str, Any]) -> None:
    """A user of the demo who is not a member yet, named by exactly one of userPid and email."""
    body.pop("email", None)
    body["userPid"] = objects.member(present=False)


def _real_key(objects: DemoObjects, body: dict[str, Any]) -> None:  # noqa: ARG001  # binder signature
    if "publicJwk" in body:
        body["publicJwk"] = public_jwk()
    if "jwks" in body:
        body["jwks"] = {"keys": [public_jwk()]}


def _secret_rotation(objects: DemoObjects, body: dict[str, Any]) -> None:  # noqa: ARG001  # binder signature
    body.pop("publicJwk", None)
    body.pop("jwks", None)


def _registry_automation(objects: DemoObjects, body: dict[str, Any]) -> None:  # noqa: ARG001  # binder signature
    for part in ("trigger", "actions"):
        if part in body:
            body[part] = AUTOMATION[part]


def _demo_installation(objects: DemoObjects, body: dict[str, Any]) -> None:  # noqa: ARG001  # binder signature
    body["tenantId"] = "demo"
    if "scopes" in body:
        body["scopes"] = ["assets.read"]


def _receiver(objects: DemoObjects, body: dict[str, Any]) -> None:
    if "url" in body:
        body["url"] = objects.receiver_url


def _current_asset(objects: DemoObjects, case: Any) -> None:
    """A command on a real asset under its current ETag and a key of its own: the record exists,
    the precondition holds, and the key is new. The generated key is often the document's example,
    used by an earlier case with another body, so the command would answer 409
    ``idempotency_key_conflict``; with the unaimed cases' 412s, every case of a scenario refused read
    as an operation refusing schema-valid data (``validation_mismatch``)."""
    pid, etag = objects.current_asset()
    if isinstance(case.body, dict):
        case.body["targetPid"] = pid
    case.headers = {**(case.headers or {}), "If-Match": etag, "Idempotency-Key": f"aimed-{uuid.uuid4().hex}"}


def _client(objects: DemoObjects, case: Any) -> None:  # noqa: ARG001  # binder signature
    """The conformance credential, by HTTP Basic (the cases carry a generated Basic header)."""
    if isinstance(case.body, dict):
        for name in ("client_id", "client_secret", "client_assertion", "client_assertion_type"):
            case.body.pop(name, None)
        if "scope" in case.body:
            case.body["scope"] = "assets.read"
    pair = f"{os.environ['TESSERA_CLIENT_ID']}:{os.environ['TESSERA_CLIENT_SECRET']}".encode()
    case.headers = {**(case.headers or {}), "Authorization": f"Basic {base64.b64encode(pair).decode()}"}


APP = _ids(appId=lambda o: o.app_id)
INSTALLATION = _ids(installationId=lambda o: o.installation_id)
ENDPOINT = _ids(endpointId=lambda o: o.endpoint_id)
AUTOMATION_ID = _ids(automationId=lambda o: o.automation_id)
OP = "/api/open-platform"
# Operations whose every schema-valid case is aimed: a generated public key fits the schema but is
# no key of its type (a rule no schema can state, see docs/development/conformance.md, "The plain
# run"), so only real keys.
# The same holds for a webhook URL: whether its host resolves, and to what, no schema can state.
ALWAYS = {("POST", f"{OP}/installations/{{installationId}}/credentials"),
          ("POST", f"{OP}/credentials/{{clientId}}/rotate"),
          ("POST", f"{OP}/installations/{{installationId}}/webhook-endpoints"),
          ("PUT", f"{OP}/webhook-endpoints/{{endpointId}}")}
BINDERS: dict[tuple[str, str], Binder] = {
    ("POST", "/api/auth/login"): _body(_demo_login),
    **_page_binders(tuple(RECORDS)),
    ("GET", f"{OP}/applications/{{appId}}"): APP,
    # Renaming, disabling or deleting the shared application would change what the other cases see.
    ("PUT", f"{OP}/applications/{{appId}}"): _ids(appId=lambda o: o.fresh_app()),
    ("DELETE", f"{OP}/applications/{{appId}}"): _ids(appId=lambda o: o.fresh_app()),
    ("GET", f"{OP}/applications/{{appId}}/members/list"): APP,
    ("POST", f"{OP}/applications/{{appId}}/members"): _then(APP, _body(_new_member)),
    ("PUT", f"{OP}/applications/{{appId}}/members/{{userPid}}"):
        _ids(appId=lambda o: o.app_id, userPid=lambda o: o.member(present=True)),
    ("DELETE", f"{OP}/applications/{{appId}}/members/{{userPid}}"):
        _ids(appId=lambda o: o.app_id, userPid=lambda o: o.member(present=True)),
    ("GET", f"{OP}/applications/{{appId}}/installations/list"): APP,
    ("POST", f"{OP}/applications/{{appId}}/installations"):
        _then(_ids(appId=lambda o: o.fresh_app()), _body(_demo_installation)),
    ("GET", f"{OP}/installations/{{installationId}}"): INSTALLATION,
    ("PUT", f"{OP}/installations/{{installationId}}"): _ids(installationId=lambda o: o.fresh_installation()),
    ("GET", f"{OP}/installations/{{installationId}}/call-stats"): INSTALLATION,
    ("GET", f"{OP}/installations/{{installationId}}/credentials/list"): INSTALLATION,
    ("POST", f"{OP}/installations/{{installationId}}/credentials"): _then(INSTALLATION, _body(_real_key)),
    ("POST", f"{OP}/credentials/{{clientId}}/rotate"):
        _then(_ids(clientId=lambda o: o.fresh_credential()), _body(_secret_rotation)),
    ("POST", f"{OP}/credentials/{{clientId}}/revoke"): _ids(clientId=lambda o: o.fresh_credential()),
    ("GET", f"{OP}/installations/{{installationId}}/webhook-endpoints/list"): INSTALLATION,
    ("GET", f"{OP}/installations/{{installationId}}/events/list"): INSTALLATION,
    ("POST", f"{OP}/installations/{{installationId}}/webhook-endpoints"): _then(INSTALLATION, _body(_receiver)),
    ("GET", f"{OP}/webhook-endpoints/{{endpointId}}"): ENDPOINT,
    ("PUT", f"{OP}/webhook-endpoints/{{endpointId}}"):
        _then(_ids(endpointId=lambda o: o.fresh_endpoint()), _body(_receiver)),
    ("DELETE", f"{OP}/webhook-endpoints/{{endpointId}}"): _ids(endpointId=lambda o: o.fresh_endpoint()),
    ("POST", f"{OP}/webhook-endpoints/{{endpointId}}/rotate-secret"):
        _ids(endpointId=lambda o: o.fresh_endpoint()),
    ("GET", f"{OP}/webhook-endpoints/{{endpointId}}/deliveries/list"): ENDPOINT,
    ("POST", f"{OP}/webhook-endpoints/{{endpointId}}/deliveries/recover"): ENDPOINT,
    ("GET", f"{OP}/webhook-endpoints/{{endpointId}}/stats"): ENDPOINT,
    ("POST", f"{OP}/deliveries/{{deliveryId}}/replay"): _ids(deliveryId=lambda o: o.delivery_id),
    ("POST", f"{OP}/automations"): _body(_registry_automation),
    ("GET", f"{OP}/automations/{{automationId}}"): AUTOMATION_ID,
    ("PUT", f"{OP}/automations/{{automationId}}"):
        _then(_ids(automationId=lambda o: o.fresh_automation()), _body(_registry_automation)),
    ("DELETE", f"{OP}/automations/{{automationId}}"): _ids(automationId=lambda o: o.fresh_automation()),
    ("GET", f"{OP}/automations/{{automationId}}/runs/list"): AUTOMATION_ID,
    ("POST", f"{OP}/automation-runs/{{runId}}/retry"): _ids(runId=lambda o: o.run_id),
    # The Open Platform's events API: an event the conformance credential reads.
    ("GET", "/api/open/v1/events/{eventId}"): _ids(eventId=lambda o: o.event_id),
    # The Open Platform's update command: a real asset under its current ETag, read with the
    # conformance credential just before the case goes out (a made-up pid is 404, a made-up ETag 412).
    ("POST", "/api/open/v1/commands/assets.assign:execute"): _current_asset,
    # The Open Platform's OAuth endpoints: the conformance credential authenticates the client.
    ("POST", "/oauth2/token"): _client,
    ("POST", "/oauth2/introspect"): _client,
    ("POST", "/oauth2/revoke"): _client,
}


def _aim(case: Any) -> Binder | None:
    """The binder for this case, if it is a schema-valid unit-phase case whose turn it is."""
    binder = BINDERS.get((case.method.upper(), case.operation.path))
    meta = case.meta
    if binder is None or meta is None or str(meta.phase.name) not in UNIT_PHASES:
        return None
    if str(meta.generation.mode) != "positive":
        return None
    if (case.method.upper(), case.operation.path) in ALWAYS:
        return binder
    with _aiming:
        turn = _aimed[(case.operation.label, str(meta.phase.name))]
        _aimed[(case.operation.label, str(meta.phase.name))] += 1
    return binder if turn % 2 == 0 else None


@schemathesis.hook
def before_call(context: Any, case: Any, **kwargs: Any) -> None:  # noqa: ARG001  # hook signature
    global _objects  # one set of demo objects per run, made on first use
    binder = _aim(case)
    if binder is None:
        return
    with _aiming:
        if _objects is None:
            _objects = DemoObjects()
    _used[case.id] = _objects.tracking()
    try:
        binder(_objects, case)
    except ConformanceSetupError as gone:
        if gone.status != 404:
            raise
        # A shared object this case builds on (the shared application, say) was deleted by an
        # earlier case aimed elsewhere (the fuzzer reuses ids it saw): make it again, once.
        _objects.forget(_used[case.id])
        _used[case.id] = _objects.tracking()
        binder(_objects, case)
    if case.headers is None:
        case.headers = {}
    case.headers["X-Tenant-Id"] = "demo"


@schemathesis.hook
def after_call(context: Any, case: Any, response: Any) -> None:  # noqa: ARG001  # hook signature
    used = _used.pop(case.id, None)
    if used and response.status_code == 404 and _objects is not None:
        _objects.forget(used)
