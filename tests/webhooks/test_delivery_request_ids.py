"""Webhook deliveries and their attempts carry the request id of the call behind their event,
indexed, and the delivery list filters on it: one call followed from the call audit to its webhooks."""

from __future__ import annotations

import json
import uuid

import pytest

from tests.conftest import Env, TenantUsers
from tests.support.openplatform import ASSIGN, new_key
from tests.support.receivers import receiver
from tests.support.webhooks import Hooked, drain


def _assign(hooked: Hooked, assignee: str, request_id: str) -> None:
    headers = {**hooked.auth, "If-Match": hooked.etag(hooked.pid), "Idempotency-Key": new_key(),
               "X-Request-Id": request_id}
    answer = hooked.env.client.post(ASSIGN, json={"targetPid": hooked.pid, "input": {"assignee": assignee}},
                                    headers=headers)
    assert answer.status_code == 200, answer.text
    assert answer.headers["X-Request-Id"] == request_id


def _listed(hooked: Hooked, **query: str) -> list[dict[str, object]]:
    response = hooked.tenant.admin_call("GET", f"/webhook-endpoints/{hooked.endpoint['endpointId']}/deliveries/list",
                                        params=query)
    assert response.status_code == 200, response.text
    return list(response.json()["data"]["records"])


@pytest.mark.rule("webhook.request-id.delivery-logs", "op.request-id.echo")
def test_a_delivery_and_its_attempts_carry_the_request_id_of_the_call_behind_its_event(
        env: Env, tenant: TenantUsers) -> None:
    first, second = f"erp-{uuid.uuid4().hex[:8]}", f"erp-{uuid.uuid4().hex[:8]}"
    with receiver(500, 200) as hook:
        hooked = Hooked(env, tenant, hook)
        _assign(hooked, "dana", first)
        _assign(hooked, "eli", second)
        drain(env, tenant, lambda: sum(1 for d in hooked.deliveries() if d["status"] == "delivered") == 2)
    deliveries = {d["requestId"]: d for d in hooked.deliveries()}
    assert set(deliveries) == {first, second}
    for request_id, delivery in deliveries.items():
        assert delivery["attempts"] and all(a["requestId"] == request_id for a in delivery["attempts"])
    # The receiver saw both events; each delivery is found by its call's request id alone.
    assert {json.loads(r.body)["data"]["assignee"] for r in hook.requests} == {"dana", "eli"}
    only = _listed(hooked, requestId=first)
    assert [(d["requestId"], d["deliveryId"]) for d in only] == [(first, deliveries[first]["deliveryId"])]
    filtered = _listed(hooked, filters=json.dumps([{"fieldName": "requestId", "operator": "eq", "value": second}]))
    assert [d["deliveryId"] for d in filtered] == [deliveries[second]["deliveryId"]]
    assert _listed(hooked, requestId="no-such-call") == []
