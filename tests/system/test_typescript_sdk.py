"""The TypeScript SDK (generated/typescript/open-platform): it type-checks, and drives the integrator flow.

The package is copied to a temporary directory and installed there from its lock file (``npm ci``), so the
committed tree stays as `tessera generate` wrote it. ``tsc`` type-checks the SDK alone, then compiles it with
tests/system/typescript/integrator-flow.ts, which node runs against `tessera serve --demo`: a token (and its
refresh after 401 invalid_token), a cursor walk, a read with its ETag, an assignment under If-Match and an
Idempotency-Key, its replay, a stale ETag refused, and the assignment's event read back through the events
API. The webhook the assignment emits reaches a loopback receiver per signature format (`tessera`,
`standard-webhooks`) and the SDK's Node verifier checks each
recorded delivery; the Standard Webhooks project's own JavaScript library (npm `standardwebhooks`) checks the
standard one too. The session API set-up goes through the Python session SDK, as in
test_sdk_end_to_end.py. Needs Node.js and npm: never skipped.
"""

from __future__ import annotations

import base64
import json
import shutil
import subprocess
import uuid
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
import pytest

from codegen import typescript
from tests.conftest import BACKENDS
from tests.support.live_server import ROOT, demo_on
from tests.support.receivers import receiver
from tests.support.sdk_calls import first_delivery, ok

try:
    from tessera_session import AuthenticatedClient as SessionClient
    from tessera_session import Client as SessionAnonymous
    from tessera_session.api.auth import login
    from tessera_session.api.open_platform import create_application, create_credential, create_installation
    from tessera_session.api.webhooks import create_webhook_endpoint
    from tessera_session.models import (
        ApplicationEnvelope,
        CreateApplicationRequest,
        CreatedWebhookEndpointEnvelope,
        CreateInstallationRequest,
        CreateWebhookEndpointRequest,
        CredentialEnvelope,
        Environment,
        InstallationEnvelope,
        LoginEnvelope,
        LoginRequest,
        ScopeListItem,
        WebhookEventType,
        WebhookSignatureFormat,
    )
except ModuleNotFoundError as exc:  # never a silent skip: the suite's command installs them
    raise ImportError(
        f"the generated session SDK is not installed ({exc}): run `pip install -e generated/python/session-client`"
    ) from exc

# npm ci and the compilation serve both backends' runs: one xdist worker runs the whole module.
pytestmark = pytest.mark.whole_module

SDK = ROOT / typescript.TARGET
FLOW = ROOT / "tests" / "system" / "typescript" / "integrator-flow.ts"
# The client-side rules against a service written as a fetch function (exact delays and headers).
RULES = ROOT / "tests" / "system" / "typescript" / "sdk-rules.ts"
# The Standard Webhooks project's own verifier (npm `standardwebhooks`, pinned by its lock file).
OFFICIAL_VERIFIER = ROOT / "tests" / "system" / "typescript" / "standard-webhooks"
PASSWORD = "typescript-sdk-password"
ADMIN = "admin@demo.example"
DEMO_ASSETS = 120
DELIVERY_DEADLINE_SECONDS = 30
TIMEOUT = httpx.Timeout(30.0)


def _run(command: list[str], cwd: Path, *, env: dict[str, str] | None = None, timeout: float = 300) -> str:
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, check=False)
    assert done.returncode == 0, f"{' '.join(command)} failed (exit {done.returncode}):\n{done.stdout}\n{done.stderr}"
    return done.stdout


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The SDK copied out and installed from its lock file, with the flow script beside its sources."""
    node, npm = shutil.which("node"), shutil.which("npm")
    assert node and npm, "the TypeScript SDK's tests need node and npm (Node.js >= 20; apt-get install nodejs npm)"
    copy = tmp_path_factory.mktemp("typescript-sdk") / "open-platform"
    shutil.copytree(SDK, copy, ignore=shutil.ignore_patterns("node_modules", "dist"))
    _run([npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"], copy)
    (copy / "e2e").mkdir()
    for script in (FLOW, RULES):
        shutil.copyfile(script, copy / "e2e" / script.name)
    (copy / "tsconfig.e2e.json").write_text(json.dumps({
        "extends": "./tsconfig.json",
        "compilerOptions": {"rootDir": ".", "outDir": "dist-e2e", "declaration": False},
        "include": ["src", "e2e"],
    }), encoding="utf-8")
    return copy


@pytest.fixture(scope="module")
def official_verifier(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``verify.mjs`` beside the official ``standardwebhooks`` package, installed from its lock file."""
    npm = shutil.which("npm")
    assert npm, "the TypeScript SDK's tests need node and npm (Node.js >= 20; apt-get install nodejs npm)"
    copy = tmp_path_factory.mktemp("standard-webhooks") / "verifier"
    shutil.copytree(OFFICIAL_VERIFIER, copy, ignore=shutil.ignore_patterns("node_modules"))
    _run([npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"], copy)
    return copy / "verify.mjs"


def _tsc(package: Path, *args: str) -> str:
    return _run([str(package / "node_modules" / ".bin" / "tsc"), *args], package)


def test_the_sdk_type_checks_with_its_pinned_typescript(package: Path) -> None:
    _tsc(package, "-p", "tsconfig.json", "--noEmit")
    lock = json.loads((package / "package-lock.json").read_text(encoding="utf-8"))
    pinned = json.loads((package / "package.json").read_text(encoding="utf-8"))
    assert pinned["dependencies"] == {"openapi-fetch": "0.17.0"}
    assert lock["packages"]["node_modules/openapi-fetch"]["version"] == "0.17.0"
    assert "export interface paths" in (package / typescript.SCHEMA).read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def compiled(package: Path) -> Path:
    """The SDK and the flow script compiled to JavaScript (node 20 runs no TypeScript)."""
    _tsc(package, "-p", "tsconfig.e2e.json")
    script = package / "dist-e2e" / "e2e" / "integrator-flow.js"
    assert script.is_file()
    return script


@pytest.mark.rule("sdk.backoff-on-429", "sdk.request-id.sent", "sdk.token.reuse-until-margin",
                  "sdk.client-secret.no-frontend-bundles", "webhook.receiver.timestamp-tolerance",
                  "limits.webhook-timestamp-tolerance")
def test_the_client_side_rules_hold_in_the_typescript_sdk(compiled: Path) -> None:
    seen = _node(compiled.parent / "sdk-rules.js")
    # 429: Retry-After (2 s) plus half (the fixed draw) of 0.5 s, 1 s, 2 s; capped at 8 s, six retries at most.
    assert seen["backoff"]["slept"] == [2250, 2500, 3000]
    assert seen["bounded"] == {"slept": [1000, 2000, 4000, 8000, 8000, 8000], "sends": 7}
    assert seen["tokenBackoff"] == {"tokenRequests": 2}
    generated, other, callers = seen["requestIds"]["ids"]
    assert uuid.UUID(generated) != uuid.UUID(other) and callers == "erp-sync-42"
    assert seen["tokenReuse"]["bearers"] == ["Bearer t1", "Bearer t1", "Bearer t2"]
    assert seen["verifierTolerance"] == {"at300Late": "ok", "at300Early": "ok",
                                         "at301Late": "timestamp_out_of_tolerance",
                                         "at301Early": "timestamp_out_of_tolerance"}
    assert "must not ship in a browser bundle" in seen["browser"]["refused"]


@pytest.fixture(params=BACKENDS)
def base_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    settings = {
        "TESSERA_DEMO_PASSWORD": PASSWORD,
        "TESSERA_WEBHOOK_ALLOW_LOOPBACK": "true",
        "TESSERA_WEBHOOK_RETRY_SCHEDULE": "0,0",
        "TESSERA_WORKER_POLL_SECONDS": "0.2",
        "TESSERA_REDIS_PREFIX": f"tessera-ts-{uuid.uuid4().hex[:8]}",
    }
    with demo_on(request.param, tmp_path, **settings) as (base, _env):
        yield base






def _node(script: Path, *args: str, env: dict[str, str] | None = None) -> dict[str, Any]:
    node = shutil.which("node")
    assert node is not None
    out = _run([node, str(script), *args], script.parent, env=env, timeout=120)
    result: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return result


@pytest.mark.rule("op.error.precondition-failed")
def test_the_integrator_flow_with_the_typescript_sdk(compiled: Path, official_verifier: Path, base_url: str,
                                                     tmp_path: Path) -> None:
    with ExitStack() as stack:
        # Set-up as an administrator (Python session SDK): an installation, its credential, a webhook endpoint.
        with SessionAnonymous(base_url=base_url, timeout=TIMEOUT) as anonymous:
            jwt = ok(login.sync_detailed(client=anonymous, body=LoginRequest(email=ADMIN, password=PASSWORD)),
                      LoginEnvelope).data.jwt
        admin = stack.enter_context(SessionClient(base_url=base_url, token=jwt, timeout=TIMEOUT))
        app = ok(create_application.sync_detailed(
            client=admin, body=CreateApplicationRequest(name="TypeScript SDK")), ApplicationEnvelope).data
        installation = ok(create_installation.sync_detailed(
            app.app_id, client=admin, body=CreateInstallationRequest(
                tenant_id="demo", environment=Environment.PRODUCTION,
                scopes=[ScopeListItem.ASSETS_READ, ScopeListItem.ASSETS_MANAGE])),
            InstallationEnvelope).data
        credential = ok(create_credential.sync_detailed(installation.installation_id, client=admin),
                         CredentialEnvelope).data
        # Two receivers: one endpoint in each signature format.
        hooks, secrets = {}, {}
        for signature_format in WebhookSignatureFormat:
            hooks[signature_format] = stack.enter_context(receiver(200))
            secrets[signature_format] = ok(create_webhook_endpoint.sync_detailed(
                installation.installation_id, client=admin, body=CreateWebhookEndpointRequest(
                    url=hooks[signature_format].url, event_types=[WebhookEventType.ASSETS_ASSIGNMENT_CHANGED],
                    signature_format=signature_format)),
                CreatedWebhookEndpointEnvelope).data.secret

        # The flow, in node, with the TypeScript SDK only.
        env = {"PATH": str(Path(shutil.which("node") or "node").parent), "BASE_URL": base_url,
               "CLIENT_ID": credential.client_id, "CLIENT_SECRET": credential.client_secret}
        outcome = _node(compiled, "flow", env=env)
        assert outcome["tenant"] == "demo"
        assert outcome["walked"] == DEMO_ASSETS
        assert outcome["replayed"] is True and outcome["staleEtag"] == "precondition_failed"
        assert outcome["tokensIssued"] == 2  # the first, and one refresh after 401 invalid_token

        # The assignment's webhook in each format, verified by the SDK's Node verifier over the recorded raw body.
        for signature_format, hook in hooks.items():
            got = first_delivery(hook.requests, DELIVERY_DEADLINE_SECONDS)
            standard = signature_format == WebhookSignatureFormat.STANDARD_WEBHOOKS
            assert ("webhook-signature" in got.headers) is standard, got.headers
            recorded = tmp_path / f"delivery-{signature_format}.json"
            recorded.write_text(json.dumps({"body": base64.b64encode(got.body).decode(), "headers": got.headers,
                                            "secret": secrets[signature_format]}), encoding="utf-8")
            verified = _node(compiled, "verify", str(recorded))
            event = verified["event"]
            assert event["type"] == "assets.assignment.changed" and event["id"].startswith("evt_")
            # The event the flow caught up with through the events API is this delivery's event.
            assert outcome["caughtUp"] == {"id": event["id"], "type": event["type"]}
            assert event["data"] == {"pid": outcome["pid"], "assignee": outcome["assignee"], "status": "assigned",
                                     "previousAssignee": outcome["before"]}
            assert verified["wrongSecret"] == "signature_mismatch", signature_format
            assert verified["tampered"] == "signature_mismatch", signature_format
            if standard:  # and by the Standard Webhooks project's own JavaScript library
                official = _node(official_verifier, str(recorded))
                assert official["event"] == event
                assert official["wrongSecret"] == official["tampered"] == "WebhookVerificationError"
