"""Schemathesis conformance of openapi/open-platform.yaml (token endpoint, whoami), both databases.

Every check runs but one: ``unsupported_method`` expects 405 for a method a path does not
document, while the specification's invariant 2 makes any unpublished route or method under
/api/open/v1/ answer 404 ``open_api_capability_not_found`` (tested in test_op_tokens.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import unsupported_method

from tessera.app import create_app
from tessera.runtime import build_runtime
from tests.conformance_stats import CASES
from tests.conftest import Env, issue_token, make_settings
from tests.live_server import serve

SPEC = Path(__file__).resolve().parent.parent / "openapi" / "open-platform.yaml"
MAX_EXAMPLES = 60

schema = schemathesis.openapi.from_path(str(SPEC))


@pytest.fixture(scope="session")
def open_platform_server(env: Env, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, dict[str, str]]]:
    """A live server and the bearer token of a fresh installation."""
    cred = env.new_tenant().install()
    token = issue_token(env, cred["clientId"], cred["clientSecret"]).json()["access_token"]
    tmp = tmp_path_factory.mktemp(f"op-conformance-{env.backend}")
    settings_ = make_settings(tmp, env.database_url, TESSERA_RATE_LIMIT_TOKEN="1000000",
                              TESSERA_RESPONSE_VALIDATION="true")
    app = create_app(settings_, build_runtime(settings_))
    with serve(app) as base:
        yield base, {"Authorization": f"Bearer {token}"}


@pytest.mark.conformance
@schema.parametrize()
@settings(max_examples=MAX_EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
def test_open_platform_conforms_to_its_document(
    case: schemathesis.Case, open_platform_server: tuple[str, dict[str, str]]
) -> None:
    base_url, auth = open_platform_server
    headers = auth if case.operation.path.startswith("/api/open/") else None
    CASES["open-platform.yaml"] += 1
    case.call_and_validate(base_url=base_url, headers=headers, excluded_checks=[unsupported_method])
