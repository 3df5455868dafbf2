"""Webhook endpoints, deliveries and replays on the administration surface."""

from __future__ import annotations

from typing import Any

from handlers.session.base import authenticated, query_params, request_id
from tessera.feed import pages as feed
from tessera.web.envelopes import Reply, ok
from tessera.webhooks import deliveries, endpoints

NO_STORE = {"Cache-Control": "no-store"}


async def createWebhookEndpoint(installationId: str, body: dict[str, Any]) -> Reply:
    rt, actor, headers = await authenticated("write")
    data = await endpoints.create_endpoint(rt, actor, installationId, body, request_id())
    return ok(data, {**headers, **NO_STORE})


async def listWebhookEndpoints(installationId: str) -> Reply:
    rt, actor, headers = await authenticated("read")
    return ok(await endpoints.list_endpoints(rt, actor, installationId, query_params()), headers)


async def getWebhookEndpoint(endpointId: str) -> Reply:
    rt, actor, headers = await authenticated("read")
    return ok(await endpoints.get_endpoint(rt, actor, endpointId), headers)


async def updateWebhookEndpoint(endpointId: str, body: dict[str, Any]) -> Reply:
    rt, actor, headers = await authenticated("write")
    return ok(await endpoints.update_endpoint(rt, actor, endpointId, body, request_id()), headers)


async def deleteWebhookEndpoint(endpointId: str) -> Reply:
    rt, actor, headers = await authenticated("write")
    return ok(await endpoints.delete_endpoint(rt, actor, endpointId, request_id()), headers)


async def rotateWebhookSecret(endpointId: str, body: dict[str, Any]) -> Reply:
    rt, actor, headers = await authenticated("write")
    data = await endpoints.rotate_secret(rt, actor, endpointId, int(body["overlapSeconds"]), request_id())
    return ok(data, {**headers, **NO_STORE})


async def listDeliveries(endpointId: str) -> Reply:
    rt, actor, headers = await authenticated("read")
    return ok(await deliveries.list_deliveries(rt, actor, endpointId, query_params()), headers)


async def replayDelivery(deliveryId: str) -> Reply:
    rt, actor, headers = await authenticated("write")
    return ok(await deliveries.replay(rt, actor, deliveryId, request_id()), headers)


async def recoverDeliveries(endpointId: str, body: dict[str, Any]) -> Reply:
    rt, actor, headers = await authenticated("write")
    return ok(await deliveries.recover(rt, actor, endpointId, body.get("since"), request_id()), headers)


async def listInstallationEvents(installationId: str, limit: int | None = None, before: str | None = None) -> Reply:
    rt, actor, headers = await authenticated("read")
    return ok(await feed.recent_events(rt, actor, installationId, before=before, limit=limit), headers)
