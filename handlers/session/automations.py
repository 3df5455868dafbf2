"""Tenant automations and their runs on the administration surface."""

from __future__ import annotations

from typing import Any

from handlers.session.base import authenticated, query_params
from tessera.automations import admin as automations
from tessera.web.envelopes import Reply, ok


async def createAutomation(body: dict[str, Any]) -> Reply:
    rt, actor, headers = await authenticated("write")
    return ok(await automations.create(rt, actor, body), headers)


async def listAutomations() -> Reply:
    rt, actor, headers = await authenticated("read")
    return ok(await automations.list_automations(rt, actor, query_params()), headers)


async def getAutomation(automationId: str) -> Reply:
    rt, actor, headers = await authenticated("read")
    return ok(await automations.get_automation(rt, actor, automationId), headers)


async def updateAutomation(automationId: str, body: dict[str, Any]) -> Reply:
    rt, actor, headers = await authenticated("write")
    return ok(await automations.update_automation(rt, actor, automationId, body), headers)


async def deleteAutomation(automationId: str) -> Reply:
    rt, actor, headers = await authenticated("write")
    return ok(await automations.delete_automation(rt, actor, automationId), headers)


async def listAutomationRuns(automationId: str) -> Reply:
    rt, actor, headers = await authenticated("read")
    return ok(await automations.list_runs(rt, actor, automationId, query_params()), headers)


async def retryAutomationRun(runId: str) -> Reply:
    rt, actor, headers = await authenticated("write")
    return ok(await automations.retry_run(rt, actor, runId), headers)
