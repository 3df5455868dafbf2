"""The small rules every endpoint shares, written from Tessera's behaviour, not imported from it.

Public ids, strong ETags, request fingerprints, timestamps as clients see them, text no database can
store, the request id, and the validity of a bearer token (``Caller``). Each function says which of
Tessera's rules it keeps, so a change there can be followed here.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import secrets
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, NamedTuple

ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"  # Crockford base32, lowercase, as Tessera's public ids
SAFE_REQUEST_ID = re.compile(r"^[A-Za-z0-9._:-]{1,128}$")
MAX_FIELD = 512  # longest client id, secret or bearer token considered at all
NO_DIGEST = "0" * 64  # compared against for unknown clients, so timing tells nothing


def new_pid(prefix: str) -> str:
    """``<prefix>_<26 base32 characters>`` from 130 random bits."""
    value = secrets.randbits(130)
    chars = []
    for _ in range(26):
        value, rem = divmod(value, 32)
        chars.append(ALPHABET[rem])
    return f"{prefix}_{''.join(chars)}"


def new_access_token() -> str:
    """256 random bits behind Tessera's ``tat_`` prefix."""
    return "tat_" + secrets.token_urlsafe(32)


def now() -> datetime:
    return datetime.now(UTC)


def iso(value: datetime) -> str:
    """ISO 8601 UTC with milliseconds and ``Z``: how every timestamp leaves Tessera."""
    return value.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def etag(pid: str, version: int) -> str:
    """Strong ETag of one version of one record: base64url of the first 18 bytes of sha256("pid:version")."""
    digest = hashlib.sha256(f"{pid}:{version}".encode()).digest()[:18]
    return '"' + base64.urlsafe_b64encode(digest).decode("ascii") + '"'


def fingerprint(*parts: Any) -> str:
    """The idempotency fingerprint of a request: sha256 of its canonical JSON (sorted keys, compact)."""
    canonical = json.dumps(list(parts), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8", "surrogatepass")).hexdigest()


def request_id(supplied: str | None) -> str:
    """The client's ``X-Request-Id`` when it is safe to log and store, else a new UUID."""
    return supplied if supplied and SAFE_REQUEST_ID.match(supplied) else str(uuid.uuid4())


def storable(text: str) -> bool:
    """False for text no database stores: NUL (PostgreSQL refuses it) or a lone surrogate."""
    if "\x00" in text:
        return False
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


BAD_TEXT = "Must not contain NUL characters or invalid Unicode."


def bad_text_paths(value: Any, path: str = "") -> dict[str, str]:
    """Every place in a JSON value (keys included) holding text the database would refuse."""
    found: dict[str, str] = {}
    if isinstance(value, str):
        if not storable(value):
            found[path or "body"] = BAD_TEXT
    elif isinstance(value, dict):
        for key, item in value.items():
            if isinstance(key, str) and not storable(key):
                found[path or "body"] = BAD_TEXT
                continue
            found.update(bad_text_paths(item, f"{path}.{key}" if path else str(key)))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found.update(bad_text_paths(item, f"{path}[{index}]" if path else f"[{index}]"))
    return found


def bearer(authorization: str | None) -> str | None:
    """The token of an ``Authorization: Bearer`` header (None without one)."""
    scheme, _, token = (authorization or "").partition(" ")
    return token.strip() if scheme.lower() == "bearer" else None


class TokenRow(NamedTuple):
    """The token with its credential, installation, application and tenant: one query's columns."""

    scopes: list[str]
    issued_at: datetime
    expires_at: datetime
    client_id: str
    credential_status: str
    rotated_at: datetime | None
    credential_expires_at: datetime | None
    installation_id: int
    installation_pid: str
    environment: str
    installation_status: str
    granted_scopes: list[str]
    application_id: int
    application_pid: str
    application_name: str
    tenant_id: int
    tenant_code: str
    tenant_status: str


@dataclass(frozen=True)
class Caller:
    """A verified Open Platform caller."""

    row: TokenRow
    scopes: tuple[str, ...]

    @property
    def installation_id(self) -> int:
        return self.row.installation_id

    @property
    def tenant_id(self) -> int:
        return self.row.tenant_id

    @property
    def client_id(self) -> str:
        return self.row.client_id


def caller_of(row: TokenRow | None, at: datetime) -> Caller | None:
    """The caller, or None for a dead token: expired, credential revoked, installation disabled, tenant
    not active, or minted by a rotated credential whose grace window has ended (tokens issued before
    the rotation live their full lifetime). Scopes: the token's, cut to what is still granted."""
    if row is None or at >= row.expires_at:
        return None
    if row.credential_status != "active" or row.installation_status != "enabled" or row.tenant_status != "active":
        return None
    if row.rotated_at is not None and row.issued_at >= row.rotated_at and at >= (row.credential_expires_at or at):
        return None
    return Caller(row, tuple(sorted(set(row.scopes) & set(row.granted_scopes))))


def whoami(caller: Caller) -> dict[str, Any]:
    """The body of ``GET /api/open/v1/whoami``."""
    row = caller.row
    return {
        "application": {"appId": row.application_pid, "name": row.application_name},
        "installation": {"installationId": row.installation_pid, "environment": row.environment},
        "tenant": {"tenantId": row.tenant_code},
        "environment": row.environment,
        "scopes": list(caller.scopes),
        "clientId": row.client_id,
        "expiresAt": iso(row.expires_at),
    }
