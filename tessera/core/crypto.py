"""Every cryptographic primitive the service uses, each keyed for one purpose only.

- ``derive_key``: one key per purpose from the server key, so a key that signs JWTs can never forge
  a digest, open a cursor or unseal a webhook secret.
- ``KeyedDigest``: HMAC-SHA-256 digests of client secrets and access tokens, compared in constant
  time. The values are 256-bit random strings: a fast keyed hash is as strong as a slow KDF
  against guessing, and keeps the token endpoint fast.
- ``SealedBox``: authenticated encryption (Fernet) of values the service must read back: list
  cursors (with their issue time, so they expire) and webhook signing secrets.
- ``Passwords``: argon2id with the library's RFC 9106 low-memory profile.
- ``SessionTokens``: session JWTs (PyJWT, HS256 under a derived key, algorithm pinned), their
  expiry checked against the injected clock.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from dataclasses import dataclass
from typing import Any

import jwt
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from cryptography.fernet import Fernet, InvalidToken

from tessera.core.clock import Clock

JWT_ALGORITHM = "HS256"
JWT_ISSUER = "tessera"
JWT_AUDIENCE = "tessera-session"


def derive_key(secret_key: bytes, purpose: str) -> bytes:
    """A separate key per purpose, so a JWT key can't be used to forge a digest and vice versa."""
    return hmac.new(secret_key, f"tessera:{purpose}".encode(), hashlib.sha256).digest()


class KeyedDigest:
    """Digests of high-entropy secrets under a server key; only digests are ever stored."""

    def __init__(self, key: bytes) -> None:
        self._key = key

    def digest(self, value: str) -> str:
        return hmac.new(self._key, value.encode("utf-8", "surrogatepass"), hashlib.sha256).hexdigest()

    def matches(self, value: str, stored_digest: str) -> bool:
        return hmac.compare_digest(self.digest(value), stored_digest)


class Unreadable(ValueError):
    """A sealed value that was tampered with, sealed under another key, or is older than allowed."""


# The shape of every value ``SealedBox.seal`` makes, as a document's ``pattern``: a Fernet token
# (version byte 0x80, then a 64-bit timestamp whose high 32 bits are zero until 2106) in URL-safe
# base64 with padding, at least 73 bytes. Whether one was sealed here, and is still fresh, only
# opening it can tell.
SEALED_PATTERN = "^gAAAAA[A-Za-z0-9_-]{2}(?:[A-Za-z0-9_-]{4})*(?:[A-Za-z0-9_-]{3}=|[A-Za-z0-9_-]{2}==)?$"
SEALED_MIN_LENGTH = 100


class SealedBox:
    """Encrypt and authenticate values the service reads back later (Fernet: AES-128-CBC + HMAC)."""

    def __init__(self, key: bytes, clock: Clock) -> None:
        self._fernet = Fernet(base64.urlsafe_b64encode(key))
        self._clock = clock

    def seal(self, plain: bytes) -> str:
        """The sealed value, stamped with the clock's time."""
        return self._fernet.encrypt_at_time(plain, int(self._clock.time())).decode("ascii")

    def open(self, sealed: str, max_age_seconds: int | None = None) -> bytes:
        """The plain value; ``Unreadable`` when forged, damaged or sealed more than ``max_age_seconds`` ago."""
        try:
            token = sealed.encode("ascii")
            if max_age_seconds is None:
                return self._fernet.decrypt(token)
            return self._fernet.decrypt_at_time(token, max_age_seconds, int(self._clock.time()))
        except (InvalidToken, UnicodeError, ValueError, TypeError):
            raise Unreadable() from None


class Passwords:
    """argon2id with the library's RFC 9106 low-memory profile (``cost="standard"``).

    ``cost="minimal"`` (one pass over 8 KiB) is for the test suite, where a standard hash's
    0.1 s of CPU per login adds minutes to a run and protects nothing; settings refuse it in
    production. A stored hash names its own parameters, so either hasher verifies both kinds."""

    def __init__(self, cost: str = "standard") -> None:
        self._hasher = (PasswordHasher(time_cost=1, memory_cost=8, parallelism=1) if cost == "minimal"
                        else PasswordHasher())
        # Verifying against a dummy hash for unknown users keeps login time independent of
        # whether the email exists.
        self._dummy = self._hasher.hash(secrets.token_urlsafe(16))

    def hash(self, password: str) -> str:
        return self._hasher.hash(password)

    def verify(self, stored_hash: str | None, password: str) -> bool:
        try:
            return self._hasher.verify(stored_hash or self._dummy, password) and stored_hash is not None
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return False


@dataclass(frozen=True)
class SessionClaims:
    user_pid: str
    tenant_code: str
    issued_at: int
    expires_at: int
    jti: str


# How many verified session tokens a process remembers (``SessionTokens``): about 200 bytes each.
REMEMBERED_SESSIONS = 10_000


class SessionTokens:
    """Session JWTs: ``sub`` (user pid), ``tid`` (tenant code), ``iat``, ``exp``, ``jti``."""

    def __init__(self, key: bytes, ttl_seconds: int, clock: Clock, remembered: int = REMEMBERED_SESSIONS) -> None:
        self._key = key
        self.ttl_seconds = ttl_seconds
        self._clock = clock
        # Tokens whose signature and claims were verified, by their SHA-256 (never the token itself),
        # oldest first; at most ``remembered``. Decoding and checking a JWT costs about 180 us of CPU
        # on every session call; a signed token's claims never change, so a token seen before only
        # has its expiry checked again. Forged or malformed tokens are not remembered.
        self._verified: dict[bytes, SessionClaims] = {}
        self._remembered = remembered

    def issue(self, user_pid: str, tenant_code: str) -> str:
        now = int(self._clock.time())
        claims = {
            "iss": JWT_ISSUER,
            "aud": JWT_AUDIENCE,
            "sub": user_pid,
            "tid": tenant_code,
            "iat": now,
            "exp": now + self.ttl_seconds,
            "jti": secrets.token_urlsafe(12),
        }
        return jwt.encode(claims, self._key, algorithm=JWT_ALGORITHM)

    def verify(self, token: str) -> SessionClaims | None:
        """Claims of a valid token, else None (expired, forged, wrong algorithm, malformed).

        PyJWT checks the signature, algorithm, audience, issuer and required claims; expiry is
        checked here against the injected clock (PyJWT would read the system's), on every call.
        """
        key = hashlib.sha256(token.encode("utf-8", "surrogatepass")).digest()
        known = self._verified.get(key)
        if known is not None:
            return known if self._clock.time() < known.expires_at else None
        claims = self._decode(token)
        if claims is not None:
            if len(self._verified) >= self._remembered:
                self._verified.pop(next(iter(self._verified)), None)  # the oldest
            self._verified[key] = claims
        return claims

    def _decode(self, token: str) -> SessionClaims | None:
        try:
            claims: dict[str, Any] = jwt.decode(
                token,
                self._key,
                algorithms=[JWT_ALGORITHM],
                audience=JWT_AUDIENCE,
                issuer=JWT_ISSUER,
                options={"require": ["exp", "iat", "sub", "tid", "jti"], "verify_exp": False, "verify_iat": False},
            )
        except jwt.PyJWTError:
            return None
        if not isinstance(claims.get("sub"), str) or not isinstance(claims.get("tid"), str):
            return None
        expires_at, issued_at = claims.get("exp"), claims.get("iat")
        if not isinstance(expires_at, int) or not isinstance(issued_at, int) or self._clock.time() >= expires_at:
            return None
        return SessionClaims(claims["sub"], claims["tid"], issued_at, expires_at, claims["jti"])
