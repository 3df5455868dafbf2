"""POST /api/meta/commands/execute/{commandCode}."""

from __future__ import annotations

from typing import Any

from connexion import request

from handlers.session.base import authenticated, request_id
from tessera.session.commands import execute as commands
from tessera.web.envelopes import ok


def executeCommand(commandCode: str, body: dict[str, Any], **_: Any) -> tuple[dict[str, Any], int, dict[str, str]]:
    rt, actor, headers = authenticated("write")
    outcome = commands.execute(rt, actor, commandCode, body, request.headers.get("x-idempotent-key"), request_id())
    return ok(outcome.data, headers, replay=outcome.replay)
