"""Settings read once from ``TESSERA_*`` environment variables.

One validated object instead of scattered ``os.environ`` reads, so a bad value fails at start with
a message naming the variable, never halfway through a request.
"""

from __future__ import annotations

import ipaddress
import os
import secrets
from dataclasses import dataclass, field
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parents[2]


# Standard Webhooks' schedule after the first attempt: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h,
# 20 h, 24 h: nine retries over about three days (a receiver down for a weekend still gets it).
DEFAULT_WEBHOOK_RETRY_SCHEDULE = (5.0, 300.0, 1800.0, 7200.0, 18000.0, 36000.0, 50400.0, 72000.0, 86400.0)
DEFAULT_AUTOMATION_RETRY_SCHEDULE = (5.0, 30.0, 120.0, 600.0)


class SettingsError(ValueError):
    """A ``TESSERA_*`` variable holds a value the service cannot run with."""


def _int(env: dict[str, str], name: str, default: int, minimum: int = 0) -> int:
    raw = env.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise SettingsError(f"{name} must be an integer, got {raw!r}") from None
    if value < minimum:
        raise SettingsError(f"{name} must be >= {minimum}, got {value}")
    return value


def _bool(env: dict[str, str], name: str, default: bool) -> bool:
    raw = env.get(name)
    if raw is None or raw == "":
        return default
    lowered = raw.strip().lower()
    if lowered in {"1", "true", "yes", "on"}:
        return True
    if lowered in {"0", "false", "no", "off"}:
        return False
    raise SettingsError(f"{name} must be true or false, got {raw!r}")


def _tls_files(env: dict[str, str]) -> tuple[Path | None, Path | None]:
    """The certificate chain and private key ``tessera serve`` terminates TLS with: both or neither."""
    cert, key = env.get("TESSERA_TLS_CERT_FILE") or None, env.get("TESSERA_TLS_KEY_FILE") or None
    if (cert is None) != (key is None):
        raise SettingsError("TESSERA_TLS_CERT_FILE and TESSERA_TLS_KEY_FILE go together: set both or neither")
    for name, value in (("TESSERA_TLS_CERT_FILE", cert), ("TESSERA_TLS_KEY_FILE", key)):
        if value is not None and not Path(value).is_file():
            raise SettingsError(f"{name} points to {value}, which is not a file")
    return (Path(cert), Path(key)) if cert and key else (None, None)


def _trusted_proxies(env: dict[str, str]) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
    """The addresses (IPs or CIDRs, comma-separated) whose forwarded headers are believed."""
    raw = env.get("TESSERA_TRUSTED_PROXIES") or ""
    networks = []
    for part in filter(None, (p.strip() for p in raw.split(","))):
        try:
            networks.append(ipaddress.ip_network(part, strict=False))
        except ValueError:
            raise SettingsError(f"TESSERA_TRUSTED_PROXIES must hold IPs or CIDR ranges, got {part!r}") from None
    return tuple(networks)


def _choice(env: dict[str, str], name: str, default: str, choices: tuple[str, ...]) -> str:
    value = (env.get(name) or default).strip().lower()
    if value not in choices:
        raise SettingsError(f"{name} must be one of {', '.join(choices)}, got {env.get(name)!r}")
    return value


def _schedule(env: dict[str, str], name: str, default: tuple[float, ...]) -> tuple[float, ...]:
    raw = env.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        values = tuple(float(part) for part in raw.split(","))
    except ValueError:
        raise SettingsError(f"{name} must be comma-separated seconds, e.g. 10,60,300; got {raw!r}") from None
    if any(v < 0 or v != v or v == float("inf") for v in values):
        raise SettingsError(f"{name} must hold non-negative finite seconds, got {raw!r}")
    return values


def _seconds(env: dict[str, str], name: str, default: float, minimum: float) -> float:
    raw = env.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = float(raw)
    except ValueError:
        raise SettingsError(f"{name} must be a number of seconds, got {raw!r}") from None
    if not minimum <= value < float("inf"):
        raise SettingsError(f"{name} must be >= {minimum}, got {raw!r}")
    return value


def _public_url(env: dict[str, str]) -> str | None:
    """The origin clients reach the service at (``https://api.example.com``), without a trailing slash."""
    raw = (env.get("TESSERA_PUBLIC_URL") or "").strip().rstrip("/")
    if not raw:
        return None
    scheme, sep, authority = raw.partition("://")
    if scheme.lower() not in {"http", "https"} or not sep or not authority or any(c in authority for c in "/?#@ "):
        raise SettingsError(f"TESSERA_PUBLIC_URL must be an origin such as https://api.example.com "
                            f"(no path, query or user), got {raw!r}")
    return f"{scheme.lower()}://{authority}"


def _metrics_token(env: dict[str, str]) -> str | None:
    raw = env.get("TESSERA_METRICS_TOKEN") or None
    if raw is not None and len(raw) < 32:
        raise SettingsError("TESSERA_METRICS_TOKEN must be at least 32 characters")
    return raw


def _secret_key(env: dict[str, str], environment: str, var_dir: Path) -> bytes:
    """The server key behind JWT signatures and keyed digests.

    Production must set it explicitly; development keeps a random one in ``var/`` so restarts and
    several local processes agree on it.
    """
    raw = env.get("TESSERA_SECRET_KEY")
    if raw:
        if len(raw) < 32:
            raise SettingsError("TESSERA_SECRET_KEY must be at least 32 characters")
        return raw.encode()
    if environment == "production":
        raise SettingsError("TESSERA_SECRET_KEY is required when TESSERA_ENV=production")
    var_dir.mkdir(parents=True, exist_ok=True)
    key_file = var_dir / "secret.key"
    if not key_file.exists():
        key_file.write_text(secrets.token_urlsafe(48))
        key_file.chmod(0o600)
    return key_file.read_text().strip().encode()


@dataclass(frozen=True)
class Settings:
    environment: str
    database_url: str
    redis_url: str | None
    secret_key: bytes = field(repr=False)
    jwt_ttl_seconds: int
    rate_limit_read: int
    rate_limit_write: int
    rate_limit_login: int
    rate_limit_token: int
    rate_limit_open: int  # Open Platform business calls per installation
    token_ttl_seconds: int
    capabilities_file: Path
    rate_limit_window_seconds: int
    response_validation: bool
    password_hash_cost: str
    idempotency_ttl_seconds: int
    models_file: Path
    openapi_dir: Path
    var_dir: Path
    log_level: str
    log_json: bool
    demo_password: str | None = field(repr=False, default=None)
    redis_prefix: str = "tessera"
    # Transport (tessera/web/transport.py): TLS terminated by `tessera serve` itself; the proxies whose
    # forwarded headers (scheme, client address) are believed, and which headers they set; plain
    # HTTP refused (default: in production only), and HSTS's max-age on responses sent over HTTPS.
    tls_cert_file: Path | None = None
    tls_key_file: Path | None = None
    trusted_proxies: tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...] = ()
    proxy_headers: str = "x-forwarded"
    require_tls: bool = False
    hsts_seconds: int = 31_536_000
    # The origin clients reach the service at, for the absolute URLs of the OAuth metadata (RFC 8414
    # issuer); unset, each request's own scheme and Host are used.
    public_url: str | None = None
    # Seconds to wait before each retry of a failed webhook delivery; after the last, dead-letter.
    webhook_retry_schedule: tuple[float, ...] = DEFAULT_WEBHOOK_RETRY_SCHEDULE
    webhook_allow_loopback: bool = False
    webhook_timeout_seconds: float = 10.0
    # How long a client may take to send a request head before its connection is closed (slowloris).
    header_timeout_seconds: float = 10.0
    # An endpoint whose every attempt failed for this long is disabled (Svix: 5 days).
    webhook_disable_after_seconds: float = 5 * 86400.0
    # Requests a worker has in flight at once (a batch is sent concurrently, at most this many).
    webhook_concurrency: int = 32
    # A receiver's Retry-After (429, 503) is honoured up to this many seconds.
    webhook_max_retry_after_seconds: float = 3600.0
    # Seconds before each retry of a failed automation run; after the last, the run is parked.
    automation_retry_schedule: tuple[float, ...] = DEFAULT_AUTOMATION_RETRY_SCHEDULE
    # Automation runs a worker executes at once (each in its own transaction and connection).
    automation_concurrency: int = 8
    # Metrics (tessera/web/metrics.py): the bearer token /metrics on the API port asks for (unset:
    # /metrics is not served there), and a listener of its own for /metrics, without a token.
    metrics_token: str | None = field(repr=False, default=None)
    metrics_port: int | None = None
    metrics_host: str = "127.0.0.1"
    worker_poll_seconds: float = 1.0
    workers_in_process: bool = True
    # PostgreSQL connections per process and event loop (the pool grows to this under load).
    database_pool_size: int = 20
    # PostgreSQL: how long a request waits for a connection the pool cannot make before it
    # answers 503 with Retry-After (storage/drivers/postgres.py); a known-down database answers at once.
    database_unavailable_seconds: float = 1.5
    # Retention (tessera/background/retention.py): how often a worker purges (0: never), rows per
    # DELETE, and how long each kind of row is kept (seconds; 0 keeps it forever).
    retention_interval_seconds: float = 300.0
    retention_batch_size: int = 1000
    retention_call_audit_seconds: float = 90 * 86400.0
    retention_delivery_attempts_seconds: float = 30 * 86400.0
    retention_events_seconds: float = 30 * 86400.0
    retention_tokens_seconds: float = 86400.0
    # Credential hygiene (tessera/openplatform/identity/hygiene.py): the age past which a rotation
    # is due (90 days: rules.yaml, op.credential.rotation-baseline-90-days), the maximum age after
    # which a credential stops obtaining tokens (0: none), how many days before it the owners are
    # told, and how often a worker looks for credentials that crossed either.
    credential_rotation_days: int = 90
    credential_max_age_days: int = 0
    credential_expiry_notice_days: int = 14
    credential_check_interval_seconds: float = 3600.0

    @property
    def dialect(self) -> str:
        return self.database_url.split(":", 1)[0].split("+", 1)[0]


def _password_hash_cost(env: dict[str, str], environment: str) -> str:
    """``standard`` (argon2id, RFC 9106's low-memory profile) unless asked otherwise; ``minimal``
    (one pass over 8 KiB: no protection against guessing) is the test suite's default and is
    refused in production. Stored hashes carry their own parameters, so either verifies both."""
    cost = _choice(env, "TESSERA_PASSWORD_HASH_COST", "minimal" if environment == "test" else "standard",
                   ("standard", "minimal"))
    if cost == "minimal" and environment == "production":
        raise SettingsError("TESSERA_PASSWORD_HASH_COST=minimal is for tests; it is refused when "
                            "TESSERA_ENV=production")
    return cost


def _environment(env: dict[str, str]) -> str:
    """``TESSERA_ENV``: several defaults (and what production refuses) follow from it."""
    environment = env.get("TESSERA_ENV", "development")
    if environment not in {"development", "test", "production"}:
        raise SettingsError(f"TESSERA_ENV must be development, test or production, got {environment!r}")
    return environment


def _database_url(env: dict[str, str], var_dir: Path) -> str:
    """``TESSERA_DATABASE_URL``, by default a SQLite file in the var directory; a plain ``postgresql://`` URL
    names the psycopg (3) driver, the one the service installs (SQLAlchemy would pick psycopg2)."""
    database_url = env.get("TESSERA_DATABASE_URL") or f"sqlite:///{var_dir / 'tessera.db'}"
    if not (database_url.startswith("sqlite") or database_url.startswith("postgresql")):
        raise SettingsError("TESSERA_DATABASE_URL must be a sqlite:// or postgresql:// URL")
    if database_url.startswith("postgresql://"):
        database_url = "postgresql+psycopg://" + database_url[len("postgresql://") :]
    return database_url


def _redis_url(env: dict[str, str]) -> str | None:
    """``TESSERA_REDIS_URL``, or None (unset or empty) for no Redis."""
    redis_url = env.get("TESSERA_REDIS_URL") or None
    if redis_url and not redis_url.startswith(("redis://", "rediss://", "unix://")):
        raise SettingsError("TESSERA_REDIS_URL must be a redis://, rediss:// or unix:// URL")
    return redis_url


def _log_level(env: dict[str, str]) -> str:
    """``TESSERA_LOG_LEVEL`` in capitals, one of the levels the logs are filtered by."""
    log_level = env.get("TESSERA_LOG_LEVEL", "INFO").upper()
    if log_level not in {"DEBUG", "INFO", "WARNING", "ERROR"}:
        raise SettingsError(f"TESSERA_LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR, got {log_level!r}")
    return log_level


def _existing_file(env: dict[str, str], name: str, default: Path) -> Path:
    """A file the service reads at start (``name``, else ``default``): refused now if it is not there, rather
    than when it is first read."""
    path = Path(env.get(name, str(default)))
    if not path.is_file():
        raise SettingsError(f"{name} points to {path}, which is not a file")
    return path


def load_settings(env: dict[str, str] | None = None) -> Settings:
    """Build settings from the environment (or a given mapping, as tests do)."""
    env = dict(os.environ if env is None else env)
    # Read in this order, so that of several bad variables the same one is reported first.
    environment = _environment(env)
    var_dir = Path(env.get("TESSERA_VAR_DIR", str(PROJECT_ROOT / "var")))
    database_url = _database_url(env, var_dir)
    redis_url = _redis_url(env)
    log_level = _log_level(env)
    models_file = _existing_file(env, "TESSERA_MODELS_FILE", PROJECT_ROOT / "models.yaml")
    capabilities_file = _existing_file(env, "TESSERA_CAPABILITIES_FILE", PROJECT_ROOT / "capabilities.yaml")
    tls_cert_file, tls_key_file = _tls_files(env)
    return Settings(
        environment=environment,
        database_url=database_url,
        redis_url=redis_url,
        secret_key=_secret_key(env, environment, var_dir),
        jwt_ttl_seconds=_int(env, "TESSERA_JWT_TTL_SECONDS", 8 * 3600, minimum=60),
        rate_limit_read=_int(env, "TESSERA_RATE_LIMIT_READ", 100, minimum=1),
        rate_limit_write=_int(env, "TESSERA_RATE_LIMIT_WRITE", 30, minimum=1),
        rate_limit_login=_int(env, "TESSERA_RATE_LIMIT_LOGIN", 10, minimum=1),
        rate_limit_token=_int(env, "TESSERA_RATE_LIMIT_TOKEN", 60, minimum=1),
        rate_limit_open=_int(env, "TESSERA_RATE_LIMIT_OPEN", 600, minimum=1),
        token_ttl_seconds=_int(env, "TESSERA_TOKEN_TTL_SECONDS", 3600, minimum=60),
        capabilities_file=capabilities_file,
        rate_limit_window_seconds=_int(env, "TESSERA_RATE_LIMIT_WINDOW_SECONDS", 60, minimum=1),
        response_validation=_bool(env, "TESSERA_RESPONSE_VALIDATION", environment == "test"),
        password_hash_cost=_password_hash_cost(env, environment),
        idempotency_ttl_seconds=_int(env, "TESSERA_IDEMPOTENCY_TTL_SECONDS", 24 * 3600, minimum=1),
        models_file=models_file,
        openapi_dir=PROJECT_ROOT / "openapi",
        var_dir=var_dir,
        log_level=log_level,
        log_json=_bool(env, "TESSERA_LOG_JSON", True),
        demo_password=env.get("TESSERA_DEMO_PASSWORD") or None,
        redis_prefix=env.get("TESSERA_REDIS_PREFIX", "tessera"),
        tls_cert_file=tls_cert_file,
        tls_key_file=tls_key_file,
        trusted_proxies=_trusted_proxies(env),
        proxy_headers=_choice(env, "TESSERA_PROXY_HEADERS", "x-forwarded", ("x-forwarded", "forwarded")),
        require_tls=_bool(env, "TESSERA_REQUIRE_TLS", environment == "production"),
        hsts_seconds=_int(env, "TESSERA_HSTS_SECONDS", 31_536_000, minimum=0),
        public_url=_public_url(env),
        webhook_retry_schedule=_schedule(env, "TESSERA_WEBHOOK_RETRY_SCHEDULE", DEFAULT_WEBHOOK_RETRY_SCHEDULE),
        webhook_allow_loopback=_bool(env, "TESSERA_WEBHOOK_ALLOW_LOOPBACK", False),
        webhook_timeout_seconds=_seconds(env, "TESSERA_WEBHOOK_TIMEOUT_SECONDS", 10.0, 0.1),
        header_timeout_seconds=_seconds(env, "TESSERA_HEADER_TIMEOUT_SECONDS", 10.0, 0.1),
        webhook_disable_after_seconds=_seconds(env, "TESSERA_WEBHOOK_DISABLE_AFTER_SECONDS", 5 * 86400.0, 1.0),
        webhook_concurrency=_int(env, "TESSERA_WEBHOOK_CONCURRENCY", 32, minimum=1),
        webhook_max_retry_after_seconds=_seconds(env, "TESSERA_WEBHOOK_MAX_RETRY_AFTER_SECONDS", 3600.0, 0.0),
        automation_retry_schedule=_schedule(env, "TESSERA_AUTOMATION_RETRY_SCHEDULE",
                                            DEFAULT_AUTOMATION_RETRY_SCHEDULE),
        automation_concurrency=_int(env, "TESSERA_AUTOMATION_CONCURRENCY", 8, minimum=1),
        metrics_token=_metrics_token(env),
        metrics_port=_int(env, "TESSERA_METRICS_PORT", 0, minimum=0) or None,
        metrics_host=env.get("TESSERA_METRICS_HOST") or "127.0.0.1",
        worker_poll_seconds=_seconds(env, "TESSERA_WORKER_POLL_SECONDS", 1.0, 0.01),
        workers_in_process=_bool(env, "TESSERA_WORKERS_IN_PROCESS", True),
        database_pool_size=_int(env, "TESSERA_DATABASE_POOL_SIZE", 20, minimum=1),
        database_unavailable_seconds=_seconds(env, "TESSERA_DATABASE_UNAVAILABLE_SECONDS", 1.5, 0.1),
        retention_interval_seconds=_seconds(env, "TESSERA_RETENTION_INTERVAL_SECONDS", 300.0, 0.0),
        retention_batch_size=_int(env, "TESSERA_RETENTION_BATCH_SIZE", 1000, minimum=1),
        retention_call_audit_seconds=_seconds(env, "TESSERA_RETENTION_CALL_AUDIT_SECONDS", 90 * 86400.0, 0.0),
        retention_delivery_attempts_seconds=_seconds(env, "TESSERA_RETENTION_DELIVERY_ATTEMPTS_SECONDS",
                                                     30 * 86400.0, 0.0),
        retention_events_seconds=_seconds(env, "TESSERA_RETENTION_EVENTS_SECONDS", 30 * 86400.0, 0.0),
        retention_tokens_seconds=_seconds(env, "TESSERA_RETENTION_TOKENS_SECONDS", 86400.0, 0.0),
        credential_rotation_days=_int(env, "TESSERA_CREDENTIAL_ROTATION_DAYS", 90, minimum=1),
        credential_max_age_days=_int(env, "TESSERA_CREDENTIAL_MAX_AGE_DAYS", 0, minimum=0),
        credential_expiry_notice_days=_int(env, "TESSERA_CREDENTIAL_EXPIRY_NOTICE_DAYS", 14, minimum=0),
        credential_check_interval_seconds=_seconds(env, "TESSERA_CREDENTIAL_CHECK_INTERVAL_SECONDS", 3600.0, 1.0),
    )
