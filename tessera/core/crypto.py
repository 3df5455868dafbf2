"""Password hashing (argon2id) and session JWTs (PyJWT, HS256 with a derived key, algorithm pinned)."""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from dataclasses import dataclass
from typing import Any

import jwt
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

JWT_ALGORITHM = "HS256"
JWT_ISSUER = "tessera"
JWT_AUDIENCE = "tessera-session"


def derive_key(secret_key: bytes, purpose: str) -> bytes:
    """A separate key per purpose, so a JWT key can't be used to forge a digest and vice versa."""
    return hmac.new(secret_key, f"tessera:{purpose}".encode(), hashlib.sha256).digest()


class Passwords:
    """argon2id with the library's RFC 9106 low-memory profile."""

    def __init__(self) -> None:
        self._hasher = PasswordHasher()
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


class SessionTokens:
    def __init__(self, secret_key: bytes, ttl_seconds: int) -> None:
        self._key = derive_key(secret_key, "session-jwt")
        self.ttl_seconds = ttl_seconds

    def issue(self, user_pid: str, tenant_code: str) -> str:
        now = int(time.time())
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
        """Claims of a valid token, else None (expired, forged, wrong algorithm, malformed)."""
        try:
            claims: dict[str, Any] = jwt.decode(
                token,
                self._key,
                algorithms=[JWT_ALGORITHM],
                audience=JWT_AUDIENCE,
                issuer=JWT_ISSUER,
                options={"require": ["exp", "iat", "sub", "tid", "jti"]},
            )
        except jwt.PyJWTError:
            return None
        if not isinstance(claims.get("sub"), str) or not isinstance(claims.get("tid"), str):
            return None
        return SessionClaims(claims["sub"], claims["tid"], int(claims["iat"]), int(claims["exp"]), claims["jti"])
