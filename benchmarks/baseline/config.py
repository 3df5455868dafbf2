"""What the baseline reads from its environment: the same ``TESSERA_*`` variables Tessera reads.

Why the same variables: the suite starts every target with one environment, so the baseline opens
the same database, derives the same keys from the same server key (tokens, client secrets, cursors
and session JWTs made by either server work on the other) and reads the same two registries. Only
the settings the measured endpoints depend on are read, each with Tessera's default.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from cryptography.fernet import Fernet

ROOT = Path(__file__).resolve().parents[2]


def derive_key(secret_key: bytes, purpose: str) -> bytes:
    """One key per purpose from the server key: the two lines of ``tessera.core.crypto.derive_key``."""
    return hmac.new(secret_key, f"tessera:{purpose}".encode(), hashlib.sha256).digest()


@dataclass(frozen=True)
class Config:
    """The settings the baseline needs."""

    dialect: str  # "postgresql" or "sqlite"
    dsn: str  # a libpq connection string, or the SQLite file's path
    secret_key: bytes = field(repr=False)
    token_ttl_seconds: int
    idempotency_ttl_seconds: int
    models_file: Path
    capabilities_file: Path
    pool_size: int  # PostgreSQL connections opened at start (SQLite: reader connections)


def _int(env: Mapping[str, str], name: str, default: int) -> int:
    raw = env.get(name)
    return default if raw in (None, "") else int(str(raw))


def _database(url: str) -> tuple[str, str]:
    """(dialect, dsn) from ``TESSERA_DATABASE_URL`` (``postgresql[+psycopg]://`` or ``sqlite:///path``)."""
    scheme, _, rest = url.partition("://")
    if scheme.startswith("postgresql"):
        return "postgresql", "postgresql://" + rest
    if scheme.startswith("sqlite"):
        return "sqlite", rest.removeprefix("/")
    raise SystemExit(f"TESSERA_DATABASE_URL must be postgresql:// or sqlite:///, got {url!r}")


def load(env: Mapping[str, str] | None = None) -> Config:
    """The settings from the environment; a missing server key or database stops the process."""
    env = os.environ if env is None else env
    secret = env.get("TESSERA_SECRET_KEY")
    url = env.get("TESSERA_DATABASE_URL")
    if not secret or not url:
        raise SystemExit("TESSERA_SECRET_KEY and TESSERA_DATABASE_URL must be set (as for Tessera)")
    dialect, dsn = _database(url)
    return Config(
        dialect=dialect, dsn=dsn, secret_key=secret.encode(),
        token_ttl_seconds=_int(env, "TESSERA_TOKEN_TTL_SECONDS", 3600),
        idempotency_ttl_seconds=_int(env, "TESSERA_IDEMPOTENCY_TTL_SECONDS", 24 * 3600),
        models_file=Path(env.get("TESSERA_MODELS_FILE", str(ROOT / "models.yaml"))),
        capabilities_file=Path(env.get("TESSERA_CAPABILITIES_FILE", str(ROOT / "capabilities.yaml"))),
        pool_size=_int(env, "BASELINE_POOL_SIZE", 10),
    )


class Keys:
    """The purpose keys, derived once: digests of secrets and tokens, list cursors, session JWTs."""

    def __init__(self, secret_key: bytes) -> None:
        self._digest_key = derive_key(secret_key, "secret-digest")
        self.jwt_key = derive_key(secret_key, "session-jwt")
        self.cursors = Fernet(base64.urlsafe_b64encode(derive_key(secret_key, "list-cursor")))

    def digest(self, value: str) -> str:
        """HMAC-SHA-256 under the digest key, hex: what ``credentials`` and ``access_tokens`` store."""
        return hmac.new(self._digest_key, value.encode("utf-8", "surrogatepass"), hashlib.sha256).hexdigest()

    def matches(self, value: str, stored: str) -> bool:
        """Constant-time comparison of a presented secret with a stored digest."""
        return hmac.compare_digest(self.digest(value), stored)
