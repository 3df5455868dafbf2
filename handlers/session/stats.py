"""Hourly statistics for the console's plots: an endpoint's deliveries, an installation's calls."""

from __future__ import annotations

from handlers.session.base import authenticated
from tessera.web.envelopes import Reply, ok
from tessera.webhooks import stats


async def getWebhookEndpointStats(endpointId: str, window: str = "24h") -> Reply:
    rt, actor, headers = await authenticated("read")
    return ok(await stats.endpoint_stats(rt, actor, endpointId, window), headers)


async def getInstallationCallStats(installationId: str, window: str = "24h") -> Reply:
    rt, actor, headers = await authenticated("read")
    return ok(await stats.call_stats(rt, actor, installationId, window), headers)
