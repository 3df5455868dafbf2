"""Bearer access tokens of the Open Platform: who is calling, checked on every business call.

Tokens are opaque; only their keyed digest is stored. Validation reads the token with its
credential, installation and tenant in one query on every call, so revoking a credential or
disabling an installation takes effect on the very next call, in every process. A read by pid
asks for its record in that same query (``validate_reading``), saving the call a round trip.
"""

from __future__ import annotations

import functools
import json
import secrets
from dataclasses import dataclass
from datetime import datetime

from storage.openplatform import tokens as token_store
from storage.openplatform.tokens import TokenContextRow
from storage.records import RecordRow
from tessera.core.errors import InsufficientScope, InvalidToken
from tessera.core.text import storable_text
from tessera.runtime import Runtime

ACCESS_TOKEN_PREFIX = "tat_"  # noqa: S105 - a prefix (secret scanners find leaked tokens by it), not a secret
MAX_TOKEN_LENGTH = 512


def new_access_token() -> str:
    """256 random bits with a readable prefix."""
    return ACCESS_TOKEN_PREFIX + secrets.token_urlsafe(32)


@dataclass(frozen=True)
class Caller:
    """A verified Open Platform caller: one installation of one application in one tenant."""

    client_id: str
    installation_id: int
    installation_pid: str
    application_id: int
    application_pid: str
    application_name: str
    tenant_id: int
    tenant_code: str
    environment: str
    scopes: tuple[str, ...]
    expires_at: datetime

    def require(self, scope: str) -> None:
        """403 ``insufficient_scope`` naming ``scope`` unless the token holds it."""
        if scope not in self.scopes:
            raise InsufficientScope(scope, data={"requiredScope": scope})


async def validate(rt: Runtime, token: str) -> Caller:
    """The caller behind a bearer token, or ``invalid_token``.

    A token dies when it expires, when its credential is revoked, when its installation is
    disabled, or, for a token minted by a rotated credential during its grace window, when that
    window ends. Tokens issued before the rotation live their full lifetime.
    """
    return _caller(rt, await lookup(rt, token))


async def validate_reading(rt: Runtime, token: str, model: str, pid: str) -> tuple[Caller, RecordRow | None]:
    """``validate``, with the caller's tenant's live record ``pid`` of ``model`` read in the same
    statement (None when there is none). Whether the caller may read it is the reader's to check:
    nothing about the record reaches a caller whose token or scopes fail."""
    if not token or len(token) > MAX_TOKEN_LENGTH:
        raise InvalidToken()
    if not storable_text(pid):  # no record has such a pid, and PostgreSQL would refuse the NUL
        return await validate(rt, token), None
    found = await token_store.token_context_and_record(rt.db, rt.digests.digest(token), model, pid)
    if found is None:
        raise InvalidToken()
    row, record = found
    return _caller(rt, row), record


def _caller(rt: Runtime, row: TokenContextRow | None) -> Caller:
    if row is None or not alive(row, rt.clock.now()):
        raise InvalidToken()
    return Caller(
        client_id=row.client_id, installation_id=row.installation_id, installation_pid=row.installation_pid,
        application_id=row.application_id, application_pid=row.application_pid,
        application_name=row.application_name, tenant_id=row.tenant_id, tenant_code=row.tenant_code,
        environment=row.environment, scopes=scopes_of(row), expires_at=row.expires_at,
    )


async def lookup(rt: Runtime, token: str) -> TokenContextRow | None:
    """The stored token with its credential, installation and tenant (``token_context``), or None."""
    if not token or len(token) > MAX_TOKEN_LENGTH:
        return None
    return await token_store.token_context(rt.db, rt.digests.digest(token))


def alive(row: TokenContextRow, now: datetime) -> bool:
    """Whether a stored token (``token_context``) still authorizes calls at ``now``."""
    if now >= row.expires_at:
        return False
    if row.credential_status != "active" or row.installation_status != "enabled" or row.tenant_status != "active":
        return False
    # A rotation sets the grace window's end with ``rotated_at``: a rotated credential has one.
    return not (row.rotated_at is not None and row.issued_at >= row.rotated_at
                and row.credential_expires_at is not None and now >= row.credential_expires_at)


def scopes_of(row: TokenContextRow) -> tuple[str, ...]:
    """The token's scopes that its installation still grants (narrowing a grant narrows live tokens)."""
    return _granted(row.scopes, row.granted_scopes)


@functools.lru_cache(maxsize=1024)
def _granted(scopes: str, granted: str) -> tuple[str, ...]:
    """Parsed once per distinct pair of JSON texts (``storage.openplatform.tokens``): every call of a token pays
    a dictionary lookup instead of two JSON parses and a sort."""
    return tuple(sorted(set(json.loads(scopes)) & set(json.loads(granted))))
