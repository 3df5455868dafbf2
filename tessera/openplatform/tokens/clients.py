"""Client authentication of the OAuth endpoints: token, introspection and revocation alike.

A client authenticates with its credential's client id and secret (RFC 6749 section 2.3.1), sent
as HTTP Basic or as form fields, or, with a ``private_key_jwt`` credential, with a client assertion
it signed (RFC 7523, ``assertions``); how they arrived is the handlers' business. A secret never
authenticates a key credential, nor an assertion a secret one. ``AUTH_METHODS`` is
the one list of the methods the service accepts: the authorization server metadata publishes it
for every endpoint that authenticates clients. A credential authenticates while it is active and
unexpired (its grace window, and ``TESSERA_CREDENTIAL_MAX_AGE_DAYS`` when set: ``hygiene``), its
installation is enabled and its application active (not disabled by an owner). Unknown client ids
cost the same digest comparison as known ones, so the time taken does not tell which exist.
"""

from __future__ import annotations

from datetime import datetime

from storage.drivers.engine import Executor
from storage.openplatform import credentials as credential_store
from storage.openplatform.credentials import CredentialWithInstallationRow
from tessera.core.errors import InvalidClient
from tessera.core.text import storable_text
from tessera.openplatform.identity import hygiene
from tessera.openplatform.tokens import assertions
from tessera.runtime import Runtime

# RFC 8414 / IANA names of the client authentication methods accepted (in the order preferred).
AUTH_METHODS = ("client_secret_basic", "client_secret_post", "private_key_jwt")
MAX_FIELD = 512
# Compared against for unknown clients, so the work (and time) does not tell which client ids exist.
_NO_DIGEST = "0" * 64


def well_formed(client_id: str | None, secret: str | None, assertion: str | None = None) -> bool:
    """The client id and a secret or an assertion present, of lengths a credential can have, the
    id storable text (anything else is refused unlooked-at, and unaudited: a NUL in the id would
    fail the audit row's insert on PostgreSQL)."""
    if not client_id or len(client_id) > MAX_FIELD or not storable_text(client_id):
        return False
    if assertion is not None:
        return 0 < len(assertion) <= assertions.MAX_ASSERTION
    return bool(secret) and len(secret or "") <= MAX_FIELD


def authentic(rt: Runtime, cred: CredentialWithInstallationRow | None, secret: str, now: datetime) -> bool:
    """Whether ``secret`` authenticates the credential row (``credential_with_installation``) at ``now``."""
    digest = cred.secret_digest if cred is not None and cred.secret_digest else _NO_DIGEST
    secret_ok = rt.digests.matches(secret, digest)
    return cred is not None and secret_ok and cred.kind == credential_store.SECRET \
        and hygiene.usable(rt.settings, cred, now)


async def verify(rt: Runtime, conn: Executor, client_id: str, secret: str | None, assertion: str | None,
                 audiences: tuple[str, ...], now: datetime) -> tuple[CredentialWithInstallationRow | None, bool]:
    """The credential row of ``client_id`` (None if unknown) and whether the secret or the client
    assertion (for one of ``audiences``) authenticates it at ``now``; an assertion's ``jti`` is
    used up in ``conn``. A client id no database can store (a NUL, a lone surrogate) names no
    credential: it is not looked up (PostgreSQL would refuse the query itself)."""
    cred = await credential_store.credential_with_installation(conn, client_id) if storable_text(client_id) else None
    if assertion is not None:
        return cred, await assertions.accepted(rt, conn, cred, client_id, assertion, audiences, now)
    return cred, authentic(rt, cred, secret or "", now)


async def authenticate(rt: Runtime, client_id: str | None, secret: str | None, *, assertion: str | None = None,
                       audiences: tuple[str, ...] = ()) -> CredentialWithInstallationRow:
    """The authenticated credential (with its installation), or ``invalid_client``.

    A refusal is audited with every other refusal of the OAuth endpoints, per client, error and
    minute (``storage/openplatform/token_refusals.py``), not here.
    """
    if not well_formed(client_id, secret, assertion):
        raise InvalidClient()
    assert client_id is not None
    now = rt.clock.now()
    if assertion is None:
        cred, ok = await verify(rt, rt.db, client_id, secret, None, audiences, now)
    else:  # the jti is written
        async with rt.db.write() as conn:
            cred, ok = await verify(rt, conn, client_id, secret, assertion, audiences, now)
    if ok:
        assert cred is not None
        return cred
    raise InvalidClient()
