"""Where webhooks may go: https to public addresses; loopback only when explicitly allowed."""

from __future__ import annotations

import pytest

from tessera.core.settings import SettingsError, load_settings
from tessera.events.urls import UnsafeWebhookUrl, check_url


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:9000/hooks",
        "https://127.0.0.1/hooks",
        "https://localhost/hooks",
        "https://[::1]/hooks",
        "https://10.1.2.3/hooks",
        "https://172.16.0.1/hooks",
        "https://192.168.0.10/hooks",
        "https://169.254.169.254/latest/meta-data",
        "https://[fe80::1]/hooks",
        "https://0.0.0.0/hooks",
        "https://[::ffff:127.0.0.1]/hooks",
        "https://224.0.0.1/hooks",
    ],
)
def test_loopback_private_link_local_and_special_addresses_are_refused(url: str) -> None:
    with pytest.raises(UnsafeWebhookUrl):
        check_url(url, allow_loopback=False)


@pytest.mark.parametrize("url", ["ftp://8.8.8.8/x", "http://8.8.8.8/hooks", "https://", "not a url", "https://u:p@8.8.8.8/"])
def test_anything_but_a_plain_https_url_is_refused(url: str) -> None:
    with pytest.raises(UnsafeWebhookUrl):
        check_url(url, allow_loopback=False)


def allowed(url: str, *, allow_loopback: bool) -> bool:
    try:
        check_url(url, allow_loopback=allow_loopback)
    except UnsafeWebhookUrl:
        return False
    return True


def test_a_public_https_address_is_allowed() -> None:
    assert allowed("https://8.8.8.8/hooks", allow_loopback=False)


@pytest.mark.parametrize("url", ["http://127.0.0.1:9000/hooks", "https://[::1]/hooks", "http://localhost:8080/x"])
def test_allowing_loopback_allows_loopback_only(url: str) -> None:
    assert allowed(url, allow_loopback=True)
    assert not allowed(url, allow_loopback=False)


@pytest.mark.parametrize("url", ["http://10.0.0.1/hooks", "https://192.168.1.1/", "http://8.8.8.8/hooks"])
def test_allowing_loopback_still_refuses_private_addresses_and_plain_http_elsewhere(url: str) -> None:
    with pytest.raises(UnsafeWebhookUrl):
        check_url(url, allow_loopback=True)


def test_the_retry_schedule_is_comma_separated_seconds(tmp_path: object) -> None:
    settings = load_settings({"TESSERA_VAR_DIR": str(tmp_path), "TESSERA_WEBHOOK_RETRY_SCHEDULE": "1, 2.5,60"})
    assert settings.webhook_retry_schedule == (1.0, 2.5, 60.0)


@pytest.mark.parametrize("raw", ["1,x", "-1", "inf", "1,,2"])
def test_a_bad_retry_schedule_stops_the_start_naming_the_variable(tmp_path: object, raw: str) -> None:
    with pytest.raises(SettingsError, match="TESSERA_WEBHOOK_RETRY_SCHEDULE"):
        load_settings({"TESSERA_VAR_DIR": str(tmp_path), "TESSERA_WEBHOOK_RETRY_SCHEDULE": raw})
