"""POST /api/meta/commands/execute/{commandCode}."""

from __future__ import annotations

from typing import Any

from handlers.session.base import authenticated, header, request_id
from tessera.session.commands import execute as commands
from tessera.web.envelopes import ok


async def executeCommand(commandCode: str, body: dict[str, Any],
                         **_: Any) -> tuple[dict[str, Any], int, dict[str, str]]:
    rt, actor, headers = await authenticated("write")
    outcome = await commands.execute(rt, actor, commandCode, body, header("x-idempotent-key"), request_id())
    return ok(outcome.data, headers, replay=outcome.replay)
