"""Tenant automations and their runs on the administration surface."""

from __future__ import annotations

from typing import Any

from handlers.session.base import authenticated, query_params
from tessera.events.automations import admin as automations
from tessera.web.envelopes import Reply, ok


def createAutomation(body: dict[str, Any]) -> Reply:
    rt, actor, headers = authenticated("write")
    return ok(automations.create(rt, actor, body), headers)


def listAutomations(**_: Any) -> Reply:
    rt, actor, headers = authenticated("read")
    return ok(automations.list_automations(rt, actor, query_params()), headers)


def getAutomation(automationId: str) -> Reply:
    rt, actor, headers = authenticated("read")
    return ok(automations.get_automation(rt, actor, automationId), headers)


def updateAutomation(automationId: str, body: dict[str, Any]) -> Reply:
    rt, actor, headers = authenticated("write")
    return ok(automations.update_automation(rt, actor, automationId, body), headers)


def deleteAutomation(automationId: str) -> Reply:
    rt, actor, headers = authenticated("write")
    return ok(automations.delete_automation(rt, actor, automationId), headers)


def listAutomationRuns(automationId: str, **_: Any) -> Reply:
    rt, actor, headers = authenticated("read")
    return ok(automations.list_runs(rt, actor, automationId, query_params()), headers)


def retryAutomationRun(runId: str) -> Reply:
    rt, actor, headers = authenticated("write")
    return ok(automations.retry_run(rt, actor, runId), headers)
