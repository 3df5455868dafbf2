"""The configuration reference: every ``TESSERA_*`` variable, its default and its meaning.

``tessera generate`` writes ``docs/operator/configuration.md`` from ``REFERENCE`` (and
``generate --check``, in the test command, fails when the page differs), so the page is the
settings' own description rather than a copy kept by hand. The entries are Markdown cells, kept
here with the page's other build-time writers; ``tests/architecture/test_configuration_reference.py``
checks them against ``tessera.core.settings``, which reads the variables: they name exactly the
variables the service reads, and a plain numeric default is the one ``load_settings`` applies.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple


class Setting(NamedTuple):
    """One row of the reference: the variable (or a group of them), its default, its meaning."""

    variable: str
    default: str
    meaning: str


REFERENCE: tuple[Setting, ...] = (
    Setting('`TESSERA_VAR_DIR`',
            '`var` (in the repository)',
            'where the service keeps its files: the SQLite database of the default `TESSERA_DATABASE_URL` '
            '(`tessera.db`) and the generated `secret.key`'),
    Setting('`TESSERA_DATABASE_URL`',
            '`sqlite:///var/tessera.db`',
            '`sqlite:///...` or `postgresql://user@host/db` (psycopg 3)'),
    Setting('`TESSERA_REDIS_URL`',
            'unset',
            '`redis://...`: rate limits shared by all processes; while it is unreachable each process limits '
            'on its own (logged `ratelimit.degraded`, counted `tessera_rate_limit_degraded`)'),
    Setting('`TESSERA_REDIS_PREFIX`',
            '`tessera`',
            'prefix of every Redis key the service writes, so that several deployments (or test runs) can '
            'share one Redis'),
    Setting('`TESSERA_SECRET_KEY`',
            'generated into `var/secret.key`',
            'signs JWTs; required (32+ chars) when `TESSERA_ENV=production`'),
    Setting('`TESSERA_ENV`',
            '`development`',
            '`development`, `test` or `production`'),
    Setting('`TESSERA_JWT_TTL_SECONDS`',
            '`28800`',
            'session JWT lifetime'),
    Setting('`TESSERA_RATE_LIMIT_READ` / `_WRITE` / `_LOGIN`',
            '`100` / `30` / `10`',
            'per minute per user, whichever tenant they act in (login: per email)'),
    Setting('`TESSERA_RATE_LIMIT_WINDOW_SECONDS`',
            '`60`',
            'the window every limit above counts in (the limits are per this many seconds; "a minute" by '
            'default)'),
    Setting('`TESSERA_RATE_LIMIT_TOKEN`',
            '`60`',
            'token, introspection and revocation requests per minute per client id (one limit for the three)'),
    Setting('`TESSERA_RATE_LIMIT_OPEN`',
            '`600`',
            'Open Platform business calls per minute per installation (429 `rate_limit_exceeded`)'),
    Setting('`TESSERA_TOKEN_TTL_SECONDS`',
            '`3600`',
            'Open Platform access token lifetime'),
    Setting('`TESSERA_PUBLIC_URL`',
            'unset',
            'origin clients reach the service at (`https://api.example.com`), the issuer of the OAuth '
            "metadata; unset, each request's scheme and `Host`"),
    Setting('`TESSERA_CAPABILITIES_FILE`',
            '`capabilities.yaml`',
            'published Open Platform capabilities'),
    Setting('`TESSERA_IDEMPOTENCY_TTL_SECONDS`',
            '`86400`',
            'command dedupe window'),
    Setting('`TESSERA_RESPONSE_VALIDATION`',
            'off (on when `TESSERA_ENV=test`)',
            'validate responses against the document'),
    Setting('`TESSERA_PASSWORD_HASH_COST`',
            '`standard` (`minimal` when `TESSERA_ENV=test`)',
            "argon2id cost of new password hashes: `standard` is RFC 9106's low-memory profile (64 MiB, 3 "
            'passes); `minimal` (8 KiB, 1 pass) is for test suites only and is refused with '
            '`TESSERA_ENV=production`; a stored hash keeps its own cost'),
    Setting('`TESSERA_DEMO_PASSWORD`',
            'random',
            'password of the demo users'),
    Setting('`TESSERA_LOG_LEVEL`, `TESSERA_LOG_JSON`',
            '`INFO`, `true`',
            'logging'),
    Setting('`TESSERA_MODELS_FILE`',
            '`models.yaml`',
            'declared models, pages, commands, data sources, roles'),
    Setting('`TESSERA_WEBHOOK_RETRY_SCHEDULE`',
            '`5,300,1800,7200,18000,36000,50400,72000,86400`',
            "seconds before each retry of a failed delivery (±20% jitter; Standard Webhooks' schedule, about "
            'three days); after the last, the dead-letter queue'),
    Setting('`TESSERA_WEBHOOK_DISABLE_AFTER_SECONDS`',
            '`432000` (5 days)',
            'an endpoint whose every attempt failed for this long is disabled (audited; `disabledReason` '
            'says since when)'),
    Setting('`TESSERA_WEBHOOK_CONCURRENCY`',
            '`32`',
            'deliveries a worker sends at once (it leases up to 200 per pass)'),
    Setting('`TESSERA_AUTOMATION_CONCURRENCY`',
            '`8`',
            'automation runs a worker executes at once (it leases up to 200 per pass), each in its own '
            'transaction'),
    Setting('`TESSERA_WEBHOOK_MAX_RETRY_AFTER_SECONDS`',
            '`3600`',
            'a receiver answering 429 or 503 with `Retry-After` is retried no sooner than it asks, up to this'),
    Setting('`TESSERA_WEBHOOK_ALLOW_LOOPBACK`',
            '`false`',
            'also allow `http`/`https` endpoints on loopback addresses (development, tests); private and '
            'link-local stay refused'),
    Setting('`TESSERA_WEBHOOK_TIMEOUT_SECONDS`',
            '`10`',
            'per delivery attempt'),
    Setting('`TESSERA_AUTOMATION_RETRY_SCHEDULE`',
            '`5,30,120,600`',
            'seconds before each retry of a failed automation run; after the last, the run is parked'),
    Setting('`TESSERA_METRICS_TOKEN`',
            'unset',
            '32+ characters: `GET /metrics` on the API port answers a scraper sending `Authorization: Bearer '
            '<token>` (see [Operations: health and metrics](health-and-metrics.md)); unset, the API port '
            'does not serve `/metrics`'),
    Setting('`TESSERA_METRICS_PORT`',
            'unset (off)',
            'a listener of its own for `GET /metrics`, no token, opened by `tessera serve` (one process) and '
            '`tessera worker`; e.g. `9464`'),
    Setting('`TESSERA_METRICS_HOST`',
            '`127.0.0.1`',
            'the address that listener binds; widen it only to a private network'),
    Setting('`TESSERA_WORKERS_IN_PROCESS`',
            '`true`',
            'run one delivery/automation worker inside `tessera serve`'),
    Setting('`TESSERA_WORKER_POLL_SECONDS`',
            '`1`',
            'how long an idle worker sleeps between passes'),
    Setting('`TESSERA_DATABASE_POOL_SIZE`',
            '`20`',
            'PostgreSQL connections a process may open (kept open, reused; two at idle)'),
    Setting('`TESSERA_DATABASE_UNAVAILABLE_SECONDS`',
            '`1.5`',
            'PostgreSQL: a request that cannot get a connection because the pool cannot make one (database '
            'down, refusing, not answering) answers 503 with `Retry-After` after at most this long; a '
            'database known to be down answers at once; a pool merely busy is waited for up to 30 s'),
    Setting('`TESSERA_RETENTION_INTERVAL_SECONDS`',
            '`300`',
            'how often each worker runs the retention purge (see [Retention](retention.md)); `0` never purges'),
    Setting('`TESSERA_RETENTION_BATCH_SIZE`',
            '`1000`',
            'rows one purge `DELETE` removes at most'),
    Setting('`TESSERA_RETENTION_CALL_AUDIT_SECONDS`',
            '`7776000` (90 days)',
            'call-audit rows are kept this long; `0` keeps them forever (as for every retention period)'),
    Setting('`TESSERA_RETENTION_DELIVERY_ATTEMPTS_SECONDS`',
            '`2592000` (30 days)',
            'delivery attempts are kept this long'),
    Setting('`TESSERA_RETENTION_EVENTS_SECONDS`',
            '`2592000` (30 days)',
            'finished deliveries, dispatched outbox events, succeeded automation runs and dispatched inbound '
            'events are kept this long'),
    Setting('`TESSERA_RETENTION_TOKENS_SECONDS`',
            '`86400` (1 day)',
            'access tokens are kept this long after they expired or their credential was revoked'),
    Setting('`TESSERA_CREDENTIAL_ROTATION_DAYS`',
            '`90`',
            'the rotation baseline: an active credential this old is `rotationDue`, counted in '
            '`tessera_credentials_rotation_due` and announced once with `credential.rotation.due` (see '
            '[Credential '
            'rotation](../integrator/open-platform.md#credential-rotation-the-90-day-baseline-and-an-optional-maximum-age))'),
    Setting('`TESSERA_CREDENTIAL_MAX_AGE_DAYS`',
            '`0` (none)',
            'a credential this old obtains no more tokens (401 `invalid_client`) and is listed as `expired`'),
    Setting('`TESSERA_CREDENTIAL_EXPIRY_NOTICE_DAYS`',
            '`14`',
            'how many days before the maximum age `credential.expiry.approaching` is sent'),
    Setting('`TESSERA_CREDENTIAL_CHECK_INTERVAL_SECONDS`',
            '`3600`',
            'how often a worker looks for credentials that crossed the baseline or near their maximum age '
            '(and on its first pass)'),
    Setting('`TESSERA_TLS_CERT_FILE`, `TESSERA_TLS_KEY_FILE`',
            'unset',
            'PEM certificate chain and its private key: `tessera serve` terminates TLS (both or neither; see '
            '[Operating behind TLS](deployment.md#operating-behind-tls))'),
    Setting('`TESSERA_TRUSTED_PROXIES`',
            'unset',
            'IPs or CIDR ranges (comma-separated) of the proxies whose forwarded scheme and client address '
            'are believed'),
    Setting('`TESSERA_HEADER_TIMEOUT_SECONDS`',
            '`10`',
            'a connection whose request head (request line and header fields) is not complete this long '
            'after its first byte, or after the connection opened, is closed without an answer (slow or '
            'stalled clients hold no connection for long). A URL over 8 KiB gets 414 and header fields over '
            '16 KiB get 431, in the envelope, however long they are'),
    Setting('`TESSERA_PROXY_HEADERS`',
            '`x-forwarded`',
            'the headers those proxies set: `x-forwarded` (`X-Forwarded-Proto`, `X-Forwarded-For`) or '
            '`forwarded` (RFC 7239)'),
    Setting('`TESSERA_REQUIRE_TLS`',
            'on when `TESSERA_ENV=production`',
            'refuse requests not over HTTPS with 403 `TLS_REQUIRED` (health checks excepted) and send HSTS '
            'over HTTPS'),
    Setting('`TESSERA_HSTS_SECONDS`',
            '`31536000`',
            '`Strict-Transport-Security` `max-age` while TLS is required; `0` sends none'),
)

PAGE = Path("docs") / "operator" / "configuration.md"


def render() -> str:
    """The reference page, as ``tessera generate`` writes it."""
    lines = [
        "# Configuration",
        "",
        "<!-- Generated by `tessera generate` from codegen/configuration_reference.py: edit that file. -->",
        "",
        "| Variable | Default | Meaning |",
        "|---|---|---|",
        *(f"| {s.variable} | {s.default} | {s.meaning} |" for s in REFERENCE),
        "",
        "A bad value stops the start with a message naming the variable.",
        "",
        "Tracing is configured by OpenTelemetry's own `OTEL_*` variables (`OTEL_TRACES_EXPORTER`, "
        "`OTEL_EXPORTER_OTLP_ENDPOINT`, `OTEL_EXPORTER_OTLP_PROTOCOL`, `OTEL_TRACES_SAMPLER_ARG`...), off unless "
        "an exporter is named: see [tracing](tracing.md).",
        "",
    ]
    return "\n".join(lines)
