"""Schemathesis conformance of generated/open-platform.yaml, stateless and stateful, both databases.

The server is real (uvicorn on loopback) with its real storage, and the token belongs to an
installation holding every published scope in a tenant seeded with assets and stock-ins, so links
(list -> read -> assign with the read's ETag as If-Match; command -> read) walk real records.

Every check runs but one: ``unsupported_method`` expects 405 for a method a path does not
document, while the specification's invariant 2 makes any unpublished route or method under
/api/open/v1/ answer 404 ``open_api_capability_not_found`` (tested in test_op_resources.py).
schemathesis.toml adds 412 to the accepted answers of a request without If-Match, which the
specification answers with 412 ``precondition_failed``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import unsupported_method

from tessera.app import create_app
from tessera.runtime import build_runtime
from tests.conformance_stats import CASES
from tests.conftest import Env, issue_token, make_settings
from tests.live_server import serve
from tests.test_op_resources import seed_assets

SPEC = Path(__file__).resolve().parent.parent / "generated" / "open-platform.yaml"
MAX_EXAMPLES = 60
STATEFUL_EXAMPLES = 40
SCOPES = ("assets.read", "assets.manage", "inventory.stockins.read", "inventory.stockins.manage")

schema = schemathesis.openapi.from_path(str(SPEC))


@pytest.fixture(scope="session")
def open_platform_server(env: Env, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, dict[str, str]]]:
    """A live server and the bearer token of a fresh installation with records to work on."""
    tenant = env.new_tenant()
    seed_assets(tenant, 12)
    for n in range(3):
        tenant.create("stock-ins", {"sku": f"SKU-{n}", "quantity": n + 1})
    cred = tenant.install(scopes=SCOPES)
    token = issue_token(env, cred["clientId"], cred["clientSecret"]).json()["access_token"]
    tmp = tmp_path_factory.mktemp(f"op-conformance-{env.backend}")
    settings_ = make_settings(tmp, env.database_url, TESSERA_RATE_LIMIT_TOKEN="1000000",
                              TESSERA_RESPONSE_VALIDATION="true")
    app = create_app(settings_, build_runtime(settings_))
    with serve(app) as base:
        yield base, {"Authorization": f"Bearer {token}"}


def _auth_for(case: schemathesis.Case, auth: dict[str, str]) -> dict[str, str] | None:
    return auth if case.operation.path.startswith("/api/open/") else None


@pytest.mark.conformance
@schema.parametrize()
@settings(max_examples=MAX_EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
def test_open_platform_conforms_to_its_document(
    case: schemathesis.Case, open_platform_server: tuple[str, dict[str, str]]
) -> None:
    base_url, auth = open_platform_server
    CASES["generated/open-platform.yaml"] += 1
    case.call_and_validate(base_url=base_url, headers=_auth_for(case, auth), excluded_checks=[unsupported_method])


@pytest.mark.conformance
def test_open_platform_workflows_through_links_conform(open_platform_server: tuple[str, dict[str, str]]) -> None:
    base_url, auth = open_platform_server

    class Workflows(schema.as_state_machine()):  # type: ignore[misc]
        def get_call_kwargs(self, case: schemathesis.Case) -> dict[str, Any]:
            CASES["generated/open-platform.yaml (stateful)"] += 1
            return {"base_url": base_url, "headers": _auth_for(case, auth)}

        def validate_response(self, response: Any, case: schemathesis.Case, additional_checks: Any = None,
                              **kwargs: Any) -> None:
            case.validate_response(response, excluded_checks=[unsupported_method], transport_kwargs=kwargs)

    Workflows.run(settings=settings(max_examples=STATEFUL_EXAMPLES, deadline=None, stateful_step_count=6,
                                    suppress_health_check=list(HealthCheck)))
