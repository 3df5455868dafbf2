"""The Python SDK's events helpers (``tessera_open_platform.events``) against the running service:
typed events oldest first, a resume after the last processed event, polling, refusals raised."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import islice

import httpx
import pytest
from tessera_open_platform.client import AuthenticatedClient
from tessera_open_platform.events import EventsError, iter_events, poll_events
from tessera_open_platform.models import AssetsAssignmentChangedEvent

from tests.conftest import Env, TenantUsers
from tests.feed.test_events_api import assign
from tests.support.openplatform import Integration, seed_assets


@pytest.fixture
def app(env: Env, tenant: TenantUsers) -> Integration:
    return Integration(env, tenant)


@pytest.fixture
def sdk(env: Env, app: Integration) -> Iterator[AuthenticatedClient]:
    """The generated client, speaking to the app in process through the test client's transport."""
    client = AuthenticatedClient(base_url="http://testserver", token="unused")
    with httpx.Client(transport=env.client._transport, base_url="http://testserver", headers=app.auth) as http:
        client.set_httpx_client(http)
        yield client


def test_iter_events_yields_every_event_typed_oldest_first(app: Integration, sdk: AuthenticatedClient) -> None:
    pid = seed_assets(app.tenant, 1)[0]
    assign(app, pid, "a", "b", "c")
    events = list(iter_events(sdk))
    assert all(isinstance(e, AssetsAssignmentChangedEvent) for e in events)
    assert [e.data.assignee for e in events] == ["a", "b", "c"]


def test_iter_events_resumes_after_the_last_processed_event(app: Integration, sdk: AuthenticatedClient) -> None:
    pid = seed_assets(app.tenant, 1)[0]
    assign(app, pid, "a", "b")
    last = list(iter_events(sdk))[-1].id
    assign(app, pid, "c", "d")
    assert [e.data.assignee for e in iter_events(sdk, after=last)] == ["c", "d"]


def test_poll_events_asks_again_once_the_feed_is_exhausted(app: Integration, sdk: AuthenticatedClient) -> None:
    pid = seed_assets(app.tenant, 1)[0]
    assign(app, pid, "a")
    waits: list[float] = []

    def sleep(seconds: float) -> None:  # the consumer's wait, during which a change happens
        waits.append(seconds)
        assign(app, pid, f"after-wait-{len(waits)}")

    polled = list(islice(poll_events(sdk, interval=0.5, sleep=sleep), 3))
    assert [e.data.assignee for e in polled] == ["a", "after-wait-1", "after-wait-2"]
    assert waits == [0.5, 0.5]


@pytest.mark.rule("op.error.branch-on-code")
def test_a_refused_page_raises_events_error_with_the_service_code(sdk: AuthenticatedClient) -> None:
    with pytest.raises(EventsError) as refused:
        list(iter_events(sdk, after="evt_3f8k1m6p9r2t5v0x4z7b1d3f6h"))
    assert refused.value.status == 404
    assert refused.value.code == "event_not_found"
    assert refused.value.request_id
