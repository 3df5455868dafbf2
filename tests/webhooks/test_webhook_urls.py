"""Where webhooks may go: https to public addresses; loopback only when explicitly allowed; and a
send goes to the addresses its check vetted, whatever the name resolves to afterwards."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import ipaddress
import socket
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from tessera.core.settings import SettingsError, load_settings
from tessera.webhooks.pinning import UnvettedHost
from tessera.webhooks.sending import Sender
from tessera.webhooks.urls import UnsafeWebhookUrl, check_url
from tests.conftest import Env, TenantUsers
from tests.support.receivers import receiver
from tests.support.webhooks import Hooked, worker_pass


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


# -- the send goes where the check looked (DNS rebinding) ------------------------------------------

class RebindingDns:
    """``socket.getaddrinfo`` for one host name: the vetted address to the first ``honest``
    lookups, the rebinding one to every later lookup (an attacker's DNS with a TTL of 0); every
    other name is resolved for real."""

    def __init__(self, host: str, vetted: str, rebound: str, honest: int = 1) -> None:
        self.host, self.vetted, self.rebound, self.honest = host, vetted, rebound, honest
        self.lookups = 0
        self.real = socket.getaddrinfo

    def __call__(self, host: Any, port: Any, *args: Any, **kwargs: Any) -> Any:
        if host != self.host:
            return self.real(host, port, *args, **kwargs)
        self.lookups += 1
        address = self.vetted if self.lookups <= self.honest else self.rebound
        return [(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP, "", (address, port or 0))]


def test_the_check_returns_the_addresses_it_vetted(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(socket, "getaddrinfo", RebindingDns("hooks.example.test", "8.8.8.8", "8.8.4.4", honest=9))
    vetted = check_url("https://Hooks.Example.Test/in", allow_loopback=False)
    assert vetted.host == "hooks.example.test"
    assert vetted.addresses == (ipaddress.ip_address("8.8.8.8"),)


def test_a_sender_answers_a_host_with_its_vetted_address_after_the_name_rebinds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    dns = RebindingDns("rebind.example.test", "93.184.216.34", "10.0.0.7")
    monkeypatch.setattr(socket, "getaddrinfo", dns)

    async def scenario() -> tuple[str | None, list[Any]]:
        sender = Sender(5.0)
        try:
            refused = await sender.refusal("https://rebind.example.test/hooks", allow_loopback=False)
            return refused, await sender.pins.resolve("rebind.example.test", 443, socket.AF_UNSPEC)
        finally:
            await sender.close()

    refused, answered = asyncio.run(scenario())
    assert refused is None  # the check saw a public address
    assert [a["host"] for a in answered] == ["93.184.216.34"]  # and the connection goes there
    assert dns.lookups == 1  # the name was not resolved again: 10.0.0.7 was never seen


def test_a_host_no_check_of_the_batch_vetted_is_never_connected_to() -> None:
    async def scenario() -> None:
        sender = Sender(5.0)
        try:
            await sender.pins.resolve("unchecked.example.test", 443, socket.AF_UNSPEC)
        finally:
            await sender.close()

    with pytest.raises(UnvettedHost):
        asyncio.run(scenario())


@contextlib.contextmanager
def listening(host: str, port: int) -> Iterator[list[str]]:
    """Something listening on ``host:port`` (the internal service a rebinding name points at):
    the paths of the requests it gets."""
    got: list[str] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            got.append(self.path)
            self.send_response(200)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *_args: object) -> None:
            return

    server = ThreadingHTTPServer((host, port), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield got
    finally:
        server.shutdown()
        server.server_close()


def test_a_name_that_rebinds_after_the_check_is_still_sent_to_the_vetted_address(
    env: Env, tenant: TenantUsers, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The tests allow loopback receivers: the vetted address is the receiver on 127.0.0.1, and the
    name then rebinds to 127.0.0.2, where another server stands for an internal service."""
    name = "rebind.tessera.test"
    dns = RebindingDns(name, "127.0.0.1", "127.0.0.2", honest=10**6)
    monkeypatch.setattr(socket, "getaddrinfo", dns)
    with receiver(200) as hook:
        port = hook.url.split(":")[2].split("/")[0]
        with listening("127.0.0.2", int(port)) as internal:
            hooked = Hooked(env, tenant, dataclasses.replace(hook, url=f"http://{name}:{port}/hooks"))
            dns.honest = dns.lookups + 1  # the worker's check sees the receiver; every later lookup rebinds
            hooked.change("dana")
            worker_pass(env, tenant)
            assert internal == []
        assert len(hook.requests) == 1
        assert hook.requests[0].headers["host"] == f"{name}:{port}"  # the URL's host name, not the address
    assert dns.lookups == dns.honest  # resolved once, by the check; never again
    assert hooked.deliveries()[0]["status"] == "delivered"
