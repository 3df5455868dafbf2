"""POST /api/meta/commands/execute/<command>, one operation per declared command.

Like the dynamic pages (``handlers/session/records.py``), each declared command has a concrete
path and operationId (``executeAssetsCreateCommand``) in the generated document; ``operations`` binds a
closure per command.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from handlers.session.base import authenticated, header, request_id
from tessera.registry.models import CommandDecl, Declarations
from tessera.registry.names import execute_command_id
from tessera.session.commands import execute as commands
from tessera.web.envelopes import ok

Handler = Callable[..., Any]


def _execute(command: CommandDecl) -> Handler:
    async def handler(body: dict[str, Any]) -> tuple[dict[str, Any], int, dict[str, str]]:
        rt, actor, headers = await authenticated("write")
        outcome = await commands.execute(rt, actor, command.code, body, header("x-idempotent-key"), request_id())
        return ok(outcome.data, headers, replay=outcome.replay)

    return handler


def operations(declarations: Declarations) -> dict[str, Handler]:
    return {execute_command_id(command.code): _execute(command) for command in declarations.commands.values()}
