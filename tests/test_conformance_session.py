"""Schemathesis conformance: every operation of the session document, all checks, both databases.

The app runs as a real uvicorn server on loopback with its real storage; rate limits are raised
for this run only, so the fuzzer exercises the operations instead of the 429 path (which has its own tests).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, settings

from tessera.app import create_app
from tessera.runtime import build_runtime
from tests.conformance_stats import CASES
from tests.conftest import DEMO_PASSWORD, Env, make_settings
from tests.live_server import serve

SPEC = Path(__file__).resolve().parent.parent / "openapi" / "session-api.yaml"
MAX_EXAMPLES = 60


schema = schemathesis.openapi.from_path(str(SPEC))


@pytest.fixture(scope="session")
def conformance_server(env: Env, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, dict[str, str]]]:
    """Point the schema at an app on this backend, signed in as the demo administrator."""
    tmp = tmp_path_factory.mktemp(f"conformance-{env.backend}")
    settings_ = make_settings(
        tmp, env.database_url,
        TESSERA_RATE_LIMIT_READ="1000000", TESSERA_RATE_LIMIT_WRITE="1000000", TESSERA_RATE_LIMIT_LOGIN="1000000",
        TESSERA_RESPONSE_VALIDATION="true",
    )
    app = create_app(settings_, build_runtime(settings_))
    with serve(app) as base:
        login = httpx.post(f"{base}/api/auth/login", json={"email": "admin@demo.example", "password": DEMO_PASSWORD})
        token = login.json()["data"]["jwt"]
        yield base, {"Authorization": f"Bearer {token}"}


@pytest.mark.conformance
@schema.parametrize()
@settings(max_examples=MAX_EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
def test_session_api_conforms_to_its_document(
    case: schemathesis.Case, conformance_server: tuple[str, dict[str, str]]
) -> None:
    base_url, auth = conformance_server
    CASES["session-api.yaml"] += 1
    case.call_and_validate(base_url=base_url, headers=auth)
