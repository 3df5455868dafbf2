"""Webhook endpoints, deliveries and replays on the administration surface."""

from __future__ import annotations

from typing import Any

from handlers.session.base import authenticated, query_params, request_id
from tessera.events import deliveries, endpoints
from tessera.web.envelopes import Reply, ok

NO_STORE = {"Cache-Control": "no-store"}


def createWebhookEndpoint(installationId: str, body: dict[str, Any]) -> Reply:
    rt, actor, headers = authenticated("write")
    data = endpoints.create_endpoint(rt, actor, installationId, body, request_id())
    return ok(data, {**headers, **NO_STORE})


def listWebhookEndpoints(installationId: str, **_: Any) -> Reply:
    rt, actor, headers = authenticated("read")
    return ok(endpoints.list_endpoints(rt, actor, installationId, query_params()), headers)


def getWebhookEndpoint(endpointId: str) -> Reply:
    rt, actor, headers = authenticated("read")
    return ok(endpoints.get_endpoint(rt, actor, endpointId), headers)


def updateWebhookEndpoint(endpointId: str, body: dict[str, Any]) -> Reply:
    rt, actor, headers = authenticated("write")
    return ok(endpoints.update_endpoint(rt, actor, endpointId, body, request_id()), headers)


def deleteWebhookEndpoint(endpointId: str) -> Reply:
    rt, actor, headers = authenticated("write")
    return ok(endpoints.delete_endpoint(rt, actor, endpointId, request_id()), headers)


def rotateWebhookSecret(endpointId: str, body: dict[str, Any]) -> Reply:
    rt, actor, headers = authenticated("write")
    data = endpoints.rotate_secret(rt, actor, endpointId, int(body["overlapSeconds"]), request_id())
    return ok(data, {**headers, **NO_STORE})


def listDeliveries(endpointId: str, **_: Any) -> Reply:
    rt, actor, headers = authenticated("read")
    return ok(deliveries.list_deliveries(rt, actor, endpointId, query_params()), headers)


def replayDelivery(deliveryId: str) -> Reply:
    rt, actor, headers = authenticated("write")
    return ok(deliveries.replay(rt, actor, deliveryId, request_id()), headers)
