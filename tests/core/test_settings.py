"""Settings come from TESSERA_* variables; a bad one stops the start with its name in the message."""

from __future__ import annotations

from pathlib import Path

import pytest

from tessera.core.settings import SettingsError, load_settings


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    return {"TESSERA_VAR_DIR": str(tmp_path), **extra}


@pytest.mark.rule("session.idempotency.window-24h")
def test_defaults_are_sqlite_under_var_and_the_spec_rate_limits(tmp_path: Path) -> None:
    settings = load_settings(_env(tmp_path))
    assert settings.database_url == f"sqlite:///{tmp_path / 'tessera.db'}"
    assert (settings.rate_limit_read, settings.rate_limit_write, settings.rate_limit_login) == (100, 30, 10)
    assert settings.idempotency_ttl_seconds == 24 * 3600
    assert settings.response_validation is False


def test_a_development_secret_key_is_kept_in_var(tmp_path: Path) -> None:
    first = load_settings(_env(tmp_path)).secret_key
    assert load_settings(_env(tmp_path)).secret_key == first
    assert oct((tmp_path / "secret.key").stat().st_mode)[-3:] == "600"


def test_postgresql_urls_use_psycopg(tmp_path: Path) -> None:
    settings = load_settings(_env(tmp_path, TESSERA_DATABASE_URL="postgresql://u@h/db"))
    assert settings.database_url == "postgresql+psycopg://u@h/db"


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("TESSERA_RATE_LIMIT_READ", "many"),
        ("TESSERA_RATE_LIMIT_WRITE", "0"),
        ("TESSERA_DATABASE_URL", "mysql://x"),
        ("TESSERA_REDIS_URL", "http://x"),
        ("TESSERA_ENV", "staging"),
        ("TESSERA_RESPONSE_VALIDATION", "maybe"),
        ("TESSERA_SECRET_KEY", "short"),
        ("TESSERA_LOG_LEVEL", "LOUD"),
        ("TESSERA_PASSWORD_HASH_COST", "cheap"),
    ],
)
def test_a_bad_value_names_its_variable(tmp_path: Path, name: str, value: str) -> None:
    with pytest.raises(SettingsError, match=name):
        load_settings(_env(tmp_path, **{name: value}))


def test_production_requires_an_explicit_secret_key(tmp_path: Path) -> None:
    with pytest.raises(SettingsError, match="TESSERA_SECRET_KEY"):
        load_settings(_env(tmp_path, TESSERA_ENV="production"))


def test_passwords_are_hashed_at_the_standard_cost_outside_tests(tmp_path: Path) -> None:
    assert load_settings(_env(tmp_path)).password_hash_cost == "standard"
    assert load_settings(_env(tmp_path, TESSERA_ENV="test")).password_hash_cost == "minimal"


def test_production_refuses_the_minimal_password_hash_cost(tmp_path: Path) -> None:
    with pytest.raises(SettingsError, match="TESSERA_PASSWORD_HASH_COST"):
        load_settings(_env(tmp_path, TESSERA_ENV="production", TESSERA_SECRET_KEY="k" * 40,
                           TESSERA_PASSWORD_HASH_COST="minimal"))


@pytest.mark.rule("webhook.retry.backoff")
def test_the_default_webhook_retry_schedule_is_standard_webhooks_about_three_days(tmp_path: Path) -> None:
    """Standard Webhooks: now, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h."""
    schedule = load_settings(_env(tmp_path)).webhook_retry_schedule
    assert schedule == (5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400)
    assert 2.9 * 86400 < sum(schedule) < 3.3 * 86400


def test_the_delivery_rule_defaults(tmp_path: Path) -> None:
    settings = load_settings(_env(tmp_path))
    assert settings.webhook_disable_after_seconds == 5 * 86400  # Svix: 5 days of failure disables
    assert settings.webhook_max_retry_after_seconds == 3600
    assert (settings.webhook_concurrency, settings.automation_concurrency) == (32, 8)
