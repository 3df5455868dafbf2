"""The schema. Every business row carries ``tenant_id``; public ids (``pid``) are what clients see."""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Column,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
)

from storage.schema.types import BigId, JsonDoc, UTCDateTime

metadata = MetaData(
    naming_convention={
        "ix": "ix_%(table_name)s_%(column_0_N_name)s",
        "uq": "uq_%(table_name)s_%(column_0_N_name)s",
        "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
        "pk": "pk_%(table_name)s",
    }
)

tenants = Table(
    "tenants",
    metadata,
    Column("id", BigId, primary_key=True, autoincrement=True),
    Column("code", String(64), nullable=False, unique=True),
    Column("name", String(200), nullable=False),
    Column("status", String(20), nullable=False, default="active"),
    Column("created_at", UTCDateTime(), nullable=False),
)

users = Table(
    "users",
    metadata,
    Column("id", BigId, primary_key=True, autoincrement=True),
    Column("pid", String(40), nullable=False, unique=True),
    Column("email", String(320), nullable=False, unique=True),
    Column("username", String(200), nullable=False),
    Column("password_hash", String(200), nullable=False),
    Column("status", String(20), nullable=False, default="active"),
    Column("default_tenant_id", BigId, ForeignKey("tenants.id"), nullable=True),
    Column("created_at", UTCDateTime(), nullable=False),
)

roles = Table(
    "roles",
    metadata,
    Column("id", BigId, primary_key=True, autoincrement=True),
    Column("tenant_id", BigId, ForeignKey("tenants.id"), nullable=False),
    Column("code", String(64), nullable=False),
    Column("name", String(200), nullable=False),
    UniqueConstraint("tenant_id", "code"),
)

role_permissions = Table(
    "role_permissions",
    metadata,
    Column("role_id", BigId, ForeignKey("roles.id", ondelete="CASCADE"), primary_key=True),
    Column("permission", String(128), primary_key=True),
)

memberships = Table(
    "memberships",
    metadata,
    Column("id", BigId, primary_key=True, autoincrement=True),
    Column("tenant_id", BigId, ForeignKey("tenants.id"), nullable=False),
    Column("user_id", BigId, ForeignKey("users.id"), nullable=False),
    Column("role_id", BigId, ForeignKey("roles.id"), nullable=False),
    Column("status", String(20), nullable=False, default="member"),
    Column("created_at", UTCDateTime(), nullable=False),
    UniqueConstraint("tenant_id", "user_id"),
)

platform_role_grants = Table(
    "platform_role_grants",
    metadata,
    Column("user_id", BigId, ForeignKey("users.id"), primary_key=True),
    Column("role_code", String(64), primary_key=True),
)

records = Table(
    "records",
    metadata,
    Column("id", BigId, primary_key=True, autoincrement=True),
    Column("tenant_id", BigId, ForeignKey("tenants.id"), nullable=False),
    Column("model", String(64), nullable=False),
    Column("pid", String(40), nullable=False, unique=True),
    Column("version", Integer, nullable=False, default=1),
    Column("data", JsonDoc, nullable=False),
    Column("search_text", Text, nullable=False, default=""),
    Column("created_by", BigId, ForeignKey("users.id"), nullable=True),
    Column("created_at", UTCDateTime(), nullable=False),
    Column("updated_at", UTCDateTime(), nullable=False),
    Column("deleted_at", UTCDateTime(), nullable=True),
    Index("ix_records_scope_created", "tenant_id", "model", "created_at", "id"),
    # Keyset pagination of the Open Platform walks (tenant, model) in id order.
    Index("ix_records_scope_id", "tenant_id", "model", "id"),
)

# Uniqueness of declared ``unique`` fields, per tenant and model, enforced by the database so two
# concurrent creates with the same value cannot both succeed. Soft delete releases the value.
record_unique_values = Table(
    "record_unique_values",
    metadata,
    Column("id", BigId, primary_key=True, autoincrement=True),
    Column("tenant_id", BigId, nullable=False),
    Column("model", String(64), nullable=False),
    Column("field", String(64), nullable=False),
    Column("value", String(400), nullable=False),
    Column("record_id", BigId, ForeignKey("records.id", ondelete="CASCADE"), nullable=False),
    UniqueConstraint("tenant_id", "model", "field", "value"),
    Index("ix_record_unique_values_record", "record_id"),
)

idempotency_keys = Table(
    "idempotency_keys",
    metadata,
    Column("id", BigId, primary_key=True, autoincrement=True),
    Column("tenant_id", BigId, nullable=False),
    Column("user_id", BigId, nullable=False),
    Column("key", String(200), nullable=False),
    Column("request_hash", String(64), nullable=False),
    Column("status_code", Integer, nullable=False),
    Column("response", JsonDoc, nullable=True),
    Column("created_at", UTCDateTime(), nullable=False),
    UniqueConstraint("tenant_id", "user_id", "key"),
    Index("ix_idempotency_keys_created", "created_at"),
)

audit_log = Table(
    "audit_log",
    metadata,
    Column("id", BigId, primary_key=True, autoincrement=True),
    Column("pid", String(40), nullable=False, unique=True),
    Column("tenant_id", BigId, nullable=True),
    Column("actor_user_id", BigId, nullable=True),
    Column("actor", String(320), nullable=True),
    Column("action", String(100), nullable=False),
    Column("target_type", String(64), nullable=True),
    Column("target_id", String(64), nullable=True),
    Column("before", JsonDoc, nullable=True),
    Column("after", JsonDoc, nullable=True),
    Column("request_id", String(128), nullable=True),
    Column("application_id", BigId, nullable=True),
    Column("created_at", UTCDateTime(), nullable=False),
    Index("ix_audit_log_tenant_created", "tenant_id", "created_at", "id"),
    Index("ix_audit_log_application_created", "application_id", "created_at", "id"),
    # Filters and sorts of the audit search (migration 0013; PostgreSQL also has a trigram keyword index).
    Index("ix_audit_log_tenant_action", "tenant_id", "action", "id"),
    Index("ix_audit_log_tenant_actor", "tenant_id", "actor", "id"),
    Index("ix_audit_log_tenant_target", "tenant_id", "target_id", "id"),
    Index("ix_audit_log_tenant_request", "tenant_id", "request_id", "id"),
)


# --- Open Platform -------------------------------------------------------------------------------
# Applications are platform-level identities; an installation binds one to one tenant and one
# environment with granted scopes; credentials and tokens belong to an installation.

applications = Table(
    "applications",
    metadata,
    Column("id", BigId, primary_key=True, autoincrement=True),
    Column("pid", String(40), nullable=False, unique=True),
    Column("name", String(200), nullable=False),
    Column("description", Text, nullable=True),
    Column("status", String(20), nullable=False, default="active"),
    Column("created_by", BigId, ForeignKey("users.id"), nullable=False),
    Column("created_at", UTCDateTime(), nullable=False),
    Column("updated_at", UTCDateTime(), nullable=False),
)

application_members = Table(
    "application_members",
    metadata,
    Column("id", BigId, primary_key=True, autoincrement=True),
    Column("application_id", BigId, ForeignKey("applications.id"), nullable=False),
    Column("user_id", BigId, ForeignKey("users.id"), nullable=False),
    Column("role", String(20), nullable=False),
    Column("created_at", UTCDateTime(), nullable=False),
    UniqueConstraint("application_id", "user_id"),
    Index("ix_application_members_user", "user_id"),
)

installations = Table(
    "installations",
    metadata,
    Column("id", BigId, primary_key=True, autoincrement=True),
    Column("pid", String(40), nullable=False, unique=True),
    Column("application_id", BigId, ForeignKey("applications.id"), nullable=False),
    Column("tenant_id", BigId, ForeignKey("tenants.id"), nullable=False),
    Column("environment", String(20), nullable=False),
    Column("scopes", JsonDoc, nullable=False),
    Column("status", String(20), nullable=False, default="enabled"),
    Column("created_at", UTCDateTime(), nullable=False),
    Column("updated_at", UTCDateTime(), nullable=False),
    UniqueConstraint("application_id", "tenant_id", "environment"),
)

credentials = Table(
    "credentials",
    metadata,
    Column("id", BigId, primary_key=True, autoincrement=True),
    Column("client_id", String(64), nullable=False, unique=True),
    Column("installation_id", BigId, ForeignKey("installations.id"), nullable=False),
    # ``secret``: the keyed digest of the client secret; ``private_key_jwt`` (RFC 7523): the public
    # JWK Set client assertions are verified with, and no secret.
    Column("kind", String(20), nullable=False, default="secret", server_default="secret"),
    Column("secret_digest", String(64), nullable=True),
    Column("public_jwks", JsonDoc, nullable=True),
    Column("status", String(20), nullable=False, default="active"),
    Column("created_at", UTCDateTime(), nullable=False),
    # Set on rotation: the old pair mints tokens until ``expires_at`` (the grace window).
    Column("rotated_at", UTCDateTime(), nullable=True),
    Column("expires_at", UTCDateTime(), nullable=True),
    Column("revoked_at", UTCDateTime(), nullable=True),
    # Credential hygiene (tessera/openplatform/identity/hygiene.py): when the worker announced that
    # the credential crossed the rotation baseline, that its maximum age is near, and that it
    # reached it; each is announced once, so each is set once.
    Column("rotation_due_announced_at", UTCDateTime(), nullable=True),
    Column("expiry_announced_at", UTCDateTime(), nullable=True),
    Column("aged_out_at", UTCDateTime(), nullable=True),
    Index("ix_credentials_installation", "installation_id"),
)

# The ``jti`` of each client assertion accepted (keyed digest of client id and jti), kept until the
# assertion expires: the unique constraint makes a replay lose its insert.
client_assertion_jtis = Table(
    "client_assertion_jtis",
    metadata,
    Column("id", BigId, primary_key=True, autoincrement=True),
    Column("jti_digest", String(64), nullable=False, unique=True),
    Column("expires_at", UTCDateTime(), nullable=False),
    Index("ix_client_assertion_jtis_expires", "expires_at"),
)

access_tokens = Table(
    "access_tokens",
    metadata,
    Column("id", BigId, primary_key=True, autoincrement=True),
    Column("token_digest", String(64), nullable=False, unique=True),
    Column("credential_id", BigId, ForeignKey("credentials.id"), nullable=False),
    Column("installation_id", BigId, ForeignKey("installations.id"), nullable=False),
    Column("scopes", JsonDoc, nullable=False),
    Column("issued_at", UTCDateTime(), nullable=False),
    Column("expires_at", UTCDateTime(), nullable=False),
    Index("ix_access_tokens_expires", "expires_at"),
    Index("ix_access_tokens_credential", "credential_id"),
)

# One row per Open Platform business call, searchable by request id.
open_api_calls = Table(
    "open_api_calls",
    metadata,
    Column("id", BigId, primary_key=True, autoincrement=True),
    Column("installation_id", BigId, nullable=True),
    Column("tenant_id", BigId, nullable=True),
    Column("client_id", String(64), nullable=True),
    Column("method", String(10), nullable=False),
    Column("path", String(300), nullable=False),
    Column("status", Integer, nullable=False),
    Column("request_id", String(128), nullable=False),
    Column("created_at", UTCDateTime(), nullable=False),
    Index("ix_open_api_calls_request_id", "request_id"),
    Index("ix_open_api_calls_installation_created", "installation_id", "created_at"),
    Index("ix_open_api_calls_created", "created_at"),
)


# Open Platform command idempotency: one row per (installation, key) for 24 hours. ``state`` is
# ``in_progress`` from the claim (committed on its own, so a concurrent duplicate sees it and gets
# 409 idempotency_in_progress) until the command's own transaction marks it ``completed`` with the
# response. ``locked_until`` lets a later request take over a claim whose process died.
open_idempotency_keys = Table(
    "open_idempotency_keys",
    metadata,
    Column("id", BigId, primary_key=True, autoincrement=True),
    Column("installation_id", BigId, ForeignKey("installations.id", ondelete="CASCADE"), nullable=False),
    Column("key", String(255), nullable=False),
    Column("request_hash", String(64), nullable=False),
    Column("state", String(20), nullable=False),
    Column("response", JsonDoc, nullable=True),
    Column("etag", String(100), nullable=True),
    Column("locked_until", UTCDateTime(), nullable=False),
    Column("created_at", UTCDateTime(), nullable=False),
    UniqueConstraint("installation_id", "key"),
    Index("ix_open_idempotency_keys_created", "created_at"),
)

# Transactional outbox: a webhook event row is written in the transaction of the change that
# emits it, so no event is lost and none is sent for a rolled-back change. Delivery workers fan
# events out to subscribed endpoints and stamp ``dispatched_at``.
outbox_events = Table(
    "outbox_events",
    metadata,
    Column("id", BigId, primary_key=True, autoincrement=True),
    Column("event_id", String(40), nullable=False, unique=True),
    Column("tenant_id", BigId, ForeignKey("tenants.id"), nullable=False),
    Column("event_type", String(100), nullable=False),
    Column("payload", JsonDoc, nullable=False),
    Column("request_id", String(128), nullable=True),
    Column("occurred_at", UTCDateTime(), nullable=False),
    Column("dispatched_at", UTCDateTime(), nullable=True),
    # The events API's order (``storage/openplatform/event_feed.py``): the fan-out batch that dispatched the row,
    # numbered in commit order by ``outbox_feed``; null until the row is fanned out.
    Column("feed_seq", BigId, nullable=True),
    # The application an operational event concerns (``tessera/registry/operational.py``); null
    # for a published event, which concerns the tenant's records.
    Column("application_id", BigId, nullable=True),
    # W3C trace context of the span that appended the event (null when tracing is off).
    Column("traceparent", String(55), nullable=True),
    Index("ix_outbox_events_pending", "dispatched_at", "id"),
    Index("ix_outbox_events_tenant_occurred", "tenant_id", "occurred_at"),
    Index("ix_outbox_events_tenant_feed", "tenant_id", "feed_seq", "id", "event_type"),
)

# One row (id 1): the number of the last fan-out batch. A batch takes the next number with an
# UPDATE of this row, whose lock it holds until it commits, so batches commit in number order and
# a reader that saw batch n has seen every batch before it (the events API's keyset never skips).
outbox_feed = Table(
    "outbox_feed",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=False),
    Column("last", BigId, nullable=False),
)

# --- Webhooks --------------------------------------------------------------------------------
# An endpoint belongs to an installation and subscribes to published event types. Its signing
# secrets are kept encrypted (Fernet under a key derived from the server key), not hashed: the
# service must compute HMACs with them. During a rotation overlap the old secret stays active until
# ``expires_at``; a delivery is signed with every active secret.

webhook_endpoints = Table(
    "webhook_endpoints",
    metadata,
    Column("id", BigId, primary_key=True, autoincrement=True),
    Column("pid", String(40), nullable=False, unique=True),
    Column("installation_id", BigId, ForeignKey("installations.id"), nullable=False),
    Column("url", String(2000), nullable=False),
    Column("event_types", JsonDoc, nullable=False),
    Column("enabled", Integer, nullable=False, default=1),
    Column("created_at", UTCDateTime(), nullable=False),
    Column("updated_at", UTCDateTime(), nullable=False),
    Column("deleted_at", UTCDateTime(), nullable=True),
    # Set when the service disabled the endpoint itself (a 410 Gone); cleared when re-enabled.
    Column("disabled_reason", String(200), nullable=True),
    Column("disabled_at", UTCDateTime(), nullable=True),
    # The first failed attempt since the last success: failing continuously for long disables it.
    Column("failing_since", UTCDateTime(), nullable=True),
    # Owners' throttles (null: none): deliveries per second, and deliveries awaiting an answer at
    # once; ``paced_until`` is the rate limit's next free send slot, shared by every worker.
    Column("rate_limit", Integer, nullable=True),
    Column("max_in_flight", Integer, nullable=True),
    Column("paced_until", UTCDateTime(), nullable=True),
    # How deliveries are signed: "tessera" (X-Webhook-* headers) or "standard-webhooks" (webhook-*).
    Column("signature_format", String(20), nullable=False, server_default="tessera"),
    Index("ix_webhook_endpoints_installation", "installation_id"),
)

webhook_secrets = Table(
    "webhook_secrets",
    metadata,
    Column("id", BigId, primary_key=True, autoincrement=True),
    Column("endpoint_id", BigId, ForeignKey("webhook_endpoints.id"), nullable=False),
    Column("secret_encrypted", Text, nullable=False),
    Column("created_at", UTCDateTime(), nullable=False),
    Column("expires_at", UTCDateTime(), nullable=True),
    Index("ix_webhook_secrets_endpoint", "endpoint_id"),
)

# One delivery per (event, endpoint); retries and replays reuse it and its pid (X-Webhook-Delivery).
# Workers claim due rows by setting ``locked_until`` (PostgreSQL: FOR UPDATE SKIP LOCKED); a worker
# that dies leaves a lapsed lock and the delivery is claimed again.
deliveries = Table(
    "deliveries",
    metadata,
    Column("id", BigId, primary_key=True, autoincrement=True),
    Column("pid", String(40), nullable=False, unique=True),
    Column("endpoint_id", BigId, ForeignKey("webhook_endpoints.id"), nullable=False),
    Column("event_id", BigId, ForeignKey("outbox_events.id"), nullable=False),
    Column("status", String(20), nullable=False),
    Column("attempts", Integer, nullable=False, default=0),
    Column("next_attempt_at", UTCDateTime(), nullable=True),
    Column("locked_until", UTCDateTime(), nullable=True),
    Column("last_http_status", Integer, nullable=True),
    Column("created_at", UTCDateTime(), nullable=False),
    Column("updated_at", UTCDateTime(), nullable=False),
    # The X-Request-Id of the call whose event this delivers (copied from the event at fan-out).
    Column("request_id", String(128), nullable=True),
    UniqueConstraint("event_id", "endpoint_id"),
    Index("ix_deliveries_due", "status", "next_attempt_at"),
    Index("ix_deliveries_endpoint_created", "endpoint_id", "created_at", "id"),
    Index("ix_deliveries_request_id", "request_id"),
)

delivery_attempts = Table(
    "delivery_attempts",
    metadata,
    Column("id", BigId, primary_key=True, autoincrement=True),
    Column("delivery_id", BigId, ForeignKey("deliveries.id"), nullable=False),
    Column("attempted_at", UTCDateTime(), nullable=False),
    Column("http_status", Integer, nullable=True),
    Column("latency_ms", Integer, nullable=True),
    Column("error", String(300), nullable=True),
    Column("worker", String(100), nullable=True),  # which worker process and task made the attempt
    Column("response_excerpt", String(500), nullable=True),  # the receiver's answer, cut short
    # sending (written before the request, completed after), succeeded (2xx), failed (any other
    # answer, none, or not sent), unknown (the worker stopped before recording how it ended)
    Column("outcome", String(20), nullable=False, server_default="failed"),
    Index("ix_delivery_attempts_delivery", "delivery_id", "id"),
    Index("ix_delivery_attempts_attempted", "attempted_at"),
)

# --- Inbound events and automations ----------------------------------------------------------

inbound_events = Table(
    "inbound_events",
    metadata,
    Column("id", BigId, primary_key=True, autoincrement=True),
    Column("pid", String(40), nullable=False, unique=True),
    Column("installation_id", BigId, ForeignKey("installations.id"), nullable=False),
    Column("tenant_id", BigId, ForeignKey("tenants.id"), nullable=False),
    Column("source", String(100), nullable=False),
    Column("event_type", String(100), nullable=False),
    Column("schema_version", Integer, nullable=False),
    Column("occurred_at", UTCDateTime(), nullable=False),
    Column("data", JsonDoc, nullable=False),
    Column("idempotency_key", String(255), nullable=False),
    Column("request_hash", String(64), nullable=False),
    Column("request_id", String(128), nullable=True),
    Column("received_at", UTCDateTime(), nullable=False),
    Column("dispatched_at", UTCDateTime(), nullable=True),
    # W3C trace context of the span that received the event (null when tracing is off).
    Column("traceparent", String(55), nullable=True),
    UniqueConstraint("installation_id", "idempotency_key"),
    Index("ix_inbound_events_pending", "dispatched_at", "id"),
)

automations = Table(
    "automations",
    metadata,
    Column("id", BigId, primary_key=True, autoincrement=True),
    Column("pid", String(40), nullable=False, unique=True),
    Column("tenant_id", BigId, ForeignKey("tenants.id"), nullable=False),
    Column("name", String(200), nullable=False),
    Column("trigger_source", String(100), nullable=False),
    Column("trigger_type", String(100), nullable=False),
    Column("actions", JsonDoc, nullable=False),
    Column("enabled", Integer, nullable=False, default=1),
    Column("created_at", UTCDateTime(), nullable=False),
    Column("updated_at", UTCDateTime(), nullable=False),
    Column("deleted_at", UTCDateTime(), nullable=True),
    Index("ix_automations_trigger", "tenant_id", "trigger_source", "trigger_type"),
)

# A run per (automation, inbound event): pending -> succeeded, or retrying -> parked after the
# last retry (never lost: parked runs stay listed and can be retried by an administrator).
automation_runs = Table(
    "automation_runs",
    metadata,
    Column("id", BigId, primary_key=True, autoincrement=True),
    Column("pid", String(40), nullable=False, unique=True),
    Column("automation_id", BigId, ForeignKey("automations.id"), nullable=False),
    Column("inbound_event_id", BigId, ForeignKey("inbound_events.id"), nullable=False),
    Column("status", String(20), nullable=False),
    Column("attempts", Integer, nullable=False, default=0),
    Column("next_attempt_at", UTCDateTime(), nullable=True),
    Column("locked_until", UTCDateTime(), nullable=True),
    Column("error", String(500), nullable=True),
    Column("result", JsonDoc, nullable=True),
    Column("created_at", UTCDateTime(), nullable=False),
    Column("updated_at", UTCDateTime(), nullable=False),
    UniqueConstraint("automation_id", "inbound_event_id"),
    Index("ix_automation_runs_due", "status", "next_attempt_at"),
    Index("ix_automation_runs_inbound_event", "inbound_event_id"),
)

# The fields of each model as the last migrate saw them declared (``storage.schema.field_moves``): a field
# that leaves models.yaml is named by the next migrate, and a rename's old type is known.
model_fields = Table(
    "model_fields",
    metadata,
    Column("model", String(64), primary_key=True),
    Column("field", String(64), primary_key=True),
    Column("type", String(16), nullable=False),
)

# A declared rename's progress (``storage.schema.field_moves``): the records up to ``last_id`` are moved, so
# an interrupted migrate resumes there; ``finished_at`` once a pass reached the last record.
field_moves = Table(
    "field_moves",
    metadata,
    Column("id", BigId, primary_key=True, autoincrement=True),
    Column("model", String(64), nullable=False),
    Column("old_field", String(64), nullable=False),
    Column("new_field", String(64), nullable=False),
    Column("last_id", BigInteger, nullable=False, default=0),
    Column("moved", BigInteger, nullable=False, default=0),
    Column("started_at", UTCDateTime(), nullable=False),
    Column("finished_at", UTCDateTime(), nullable=True),
    UniqueConstraint("model", "old_field", "new_field"),
)
