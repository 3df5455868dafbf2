"""``POST /api/open/v1/commands/{code}:execute`` for create commands: one statement when all is well.

Why the key is written completed: Tessera claims its key in a committed statement of its own (so a
concurrent duplicate sees it in progress), then writes the record and completes the key. Here the
key, the record, its audit entry and its outbox rows commit together in one statement, so no other
request can ever see the key in progress: a concurrent duplicate waits on the key's unique index and
then finds it completed (the statement's snapshot predates it, so it asks once more). A key found
instead of claimed gets Tessera's answers: replayed when completed with the same body, 409 for
another body or a run still holding its lease, started afresh when expired or when the run holding
it died (its lease lapsed).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from baseline import checks, payloads, refusals, rules
from baseline.calls import CallAudit
from baseline.config import Config, Keys
from baseline.open_api import Business, Call
from baseline.published import present
from baseline.refusals import Refusal
from baseline.registry import OpenCommand, Registry
from baseline.rules import Caller
from baseline.store import Duplicate, KeyRow, OpenCreate, RecordRow, Store
from baseline.web import Reply

CLAIM_LEASE = timedelta(seconds=30)
TRIES = 3


def input_names(command: OpenCommand, field_errors: dict[str, str]) -> dict[str, str]:
    """Model-rule errors named after the input property that fed the field, when there is one."""
    return {f"input.{command.apply.get(f, {})['input']}" if "input" in command.apply.get(f, {}) else f: message
            for f, message in field_errors.items()}


class Commands(Business):
    def __init__(self, store: Store, keys: Keys, calls: CallAudit, registry: Registry, config: Config) -> None:
        super().__init__(store, keys, calls)
        self.registry, self.ttl = registry, timedelta(seconds=config.idempotency_ttl_seconds)

    async def execute(self, call: Call, command: OpenCommand) -> Reply:
        digest = call.digest(self.keys)
        try:
            key = checks.idempotency_key(call.request.header("idempotency-key"))
            body = call.json()
            given = checks.command_input(command, body)
        except Refusal:
            await self.token_first(call, digest, command.scope)
            raise
        request_hash = rules.fingerprint(command.code, body)
        model = command.resource.model
        try:
            data = payloads.for_create(model, command.changes(given))
        except payloads.Invalid as exc:  # Tessera claims the key first: its answers come before this one
            caller = self.verify(call, await self.store.token(digest), command.scope)
            if (stored := await self._found(call, caller, key, request_hash)) is not None:
                return stored
            raise refusals.invalid_request(input_names(command, exc.field_errors)) from None
        at, pid = rules.now(), rules.new_pid("rec")
        record = present(command.resource, RecordRow(0, pid, 1, data, at, at))
        result, tag = {"commandCode": command.code, "record": record}, rules.etag(pid, 1)
        plan = OpenCreate(
            **payloads.new_record(self.registry, model, pid, data, at), action=f"open.command.{command.code}",
            request_id=call.request_id, request_hash=request_hash, response=result, scope=command.scope, key=key,
            etag=tag, lock=at + CLAIM_LEASE)
        for _ in range(TRIES):
            try:
                row, created, seen = await self.store.open_create(digest, plan)
            except Duplicate as exc:
                self.verify(call, await self.store.token(digest), command.scope)
                raise refusals.invalid_request(
                    input_names(command, dict.fromkeys(exc.fields, "This value is already used."))) from None
            caller = self.verify(call, row, command.scope, at)
            if created:
                return call.reply(200, {**result, "idempotentReplay": False}, ETag=tag)
            if seen is not None and (stored := await self._answer(call, seen, request_hash, at)) is not None:
                return stored
        raise refusals.in_progress()

    async def _answer(self, call: Call, seen: KeyRow, request_hash: str, at: datetime) -> Reply | None:
        """The answer a key found gives (a replay, or a refusal), or None once it is out of the way."""
        if seen.created_at < at - self.ttl:
            await self.store.forget_key(seen.id, only_in_progress=False)
            return None
        if seen.request_hash != request_hash:
            raise refusals.key_conflict()
        if seen.state == "completed":
            return call.reply(200, {**seen.response, "idempotentReplay": True}, ETag=seen.etag or "",
                              **{"Idempotent-Replayed": "true"})
        if seen.locked_until > at:
            raise refusals.in_progress()
        await self.store.forget_key(seen.id, only_in_progress=True)  # its run died: start afresh
        return None

    async def _found(self, call: Call, caller: Caller, key: str, request_hash: str) -> Reply | None:
        """For a body the model refuses: a live key's answer, as Tessera gives it before judging the body
        (an expired key or a dead run's is cleared, as Tessera's claim and release would leave it)."""
        seen = await self.store.key(caller.installation_id, key)
        return None if seen is None else await self._answer(call, seen, request_hash, rules.now())
