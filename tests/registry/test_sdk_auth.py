"""``tessera_open_platform.auth.TokenSource`` in isolation: the refresh margin on an injected clock, the one
refresh and one retry on 401 ``invalid_token``, token requests refused, and how the client authenticates.

The service here is an ``httpx.MockTransport`` so that every rule is exact; tests/system/test_sdk_token_source.py
runs the same rules against ``tessera serve --demo``.
"""

from __future__ import annotations

import asyncio
import base64
import threading
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from urllib.parse import parse_qs

import httpx
import jwt
import pytest
from cryptography.hazmat.primitives.asymmetric import ec
from tessera_open_platform.api.identity import whoami
from tessera_open_platform.auth import Backoff, TokenError, TokenSource, is_invalid_token
from tessera_open_platform.models import WhoAmI

from codegen import sdk as sdkgen

ROOT = Path(__file__).resolve().parents[2]
BASE = "https://tessera.example"
WHOAMI = {"application": {"appId": "app_1", "name": "ERP"},
          "installation": {"installationId": "ins_1", "environment": "production"},
          "tenant": {"tenantId": "demo"}, "environment": "production", "scopes": ["assets.read"],
          "clientId": "tcli_1", "expiresAt": "2026-11-25T22:00:00.000Z"}
INVALID = {"WWW-Authenticate": 'Bearer realm="tessera", error="invalid_token"'}


class Clock:
    """Seconds that move only when a test says so."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Service:
    """A token endpoint and ``/api/open/v1/whoami``: tokens ``t1``, ``t2``...; ``refused`` tokens get 401."""

    def __init__(self, expires_in: int = 3600, token_status: int = 200, delay: float = 0.0) -> None:
        self.expires_in = expires_in
        self.token_status = token_status
        self.delay = delay
        self.token_requests: list[httpx.Request] = []
        self.calls: list[str] = []  # the bearer token of each business call
        self.refused: set[str] = set()
        self._lock = threading.Lock()

    def _token(self, request: httpx.Request) -> httpx.Response:
        with self._lock:
            self.token_requests.append(request)
            number = len(self.token_requests)
        if self.token_status != 200:
            return httpx.Response(self.token_status, json={"code": "invalid_client", "error": "invalid_client",
                                                           "message": "Client authentication failed.",
                                                           "requestId": "req-1"})
        return httpx.Response(200, json={"access_token": f"t{number}", "token_type": "Bearer",
                                          "expires_in": self.expires_in, "scope": "assets.read"})

    def _call(self, request: httpx.Request) -> httpx.Response:
        token = request.headers.get("Authorization", "").removeprefix("Bearer ")
        with self._lock:
            self.calls.append(token)
        if token in self.refused:
            return httpx.Response(401, headers=INVALID, json={"code": "invalid_token", "message": "expired"})
        return httpx.Response(200, json=WHOAMI)

    def handle(self, request: httpx.Request) -> httpx.Response:
        if self.delay:
            time.sleep(self.delay)
        return self._token(request) if request.url.path == "/oauth2/token" else self._call(request)

    async def handle_async(self, request: httpx.Request) -> httpx.Response:
        if self.delay:
            await asyncio.sleep(self.delay)
        return self._token(request) if request.url.path == "/oauth2/token" else self._call(request)

    def transport(self) -> httpx.MockTransport:
        return httpx.MockTransport(self.handle)

    def async_transport(self) -> httpx.MockTransport:
        return httpx.MockTransport(self.handle_async)


def source(clock: Callable[[], float] = time.monotonic, refresh_margin_seconds: float = 30.0) -> TokenSource:
    return TokenSource(BASE, "tcli_1", "s3cret", clock=clock, refresh_margin_seconds=refresh_margin_seconds)


def who(tokens: TokenSource, service: Service) -> httpx.Response:
    with httpx.Client(base_url=BASE, auth=tokens, transport=service.transport()) as client:
        return client.get("/api/open/v1/whoami")


def test_the_sdk_ships_the_source_with_a_header() -> None:
    copy = ROOT / "generated/python/open-platform-client/tessera_open_platform/auth.py"
    source_text = (ROOT / "sdk/python/open_platform_auth.py").read_text(encoding="utf-8")
    header = sdkgen.EXTRA_HEADER.format(source="sdk/python/open_platform_auth.py")
    assert copy.read_text(encoding="utf-8") == header + source_text


@pytest.mark.rule("sdk.token.reuse-until-margin", "limits.token-reuse")
def test_a_token_is_reused_until_the_margin_before_it_expires() -> None:
    service, clock = Service(expires_in=3600), Clock()
    tokens = source(clock)
    assert who(tokens, service).status_code == 200
    clock.now += 3600 - 30 - 0.001  # just inside the reuse window
    assert who(tokens, service).status_code == 200
    assert (len(service.token_requests), service.calls) == (1, ["t1", "t1"])
    clock.now += 0.001  # 30 s before expiry: renewed before the call
    assert who(tokens, service).status_code == 200
    assert (len(service.token_requests), service.calls[-1], tokens.issued) == (2, "t2", 2)
    assert tokens.scopes == ["assets.read"]


def test_the_margin_is_configurable_and_never_makes_a_token_last_longer() -> None:
    service, clock = Service(expires_in=60), Clock()
    tokens = source(clock, refresh_margin_seconds=10)
    who(tokens, service)
    clock.now += 49.9
    who(tokens, service)
    clock.now += 0.1
    who(tokens, service)
    assert service.calls == ["t1", "t1", "t2"]
    # A margin longer than the lifetime: every call gets a fresh token, never a stale one.
    eager = source(clock, refresh_margin_seconds=120)
    who(eager, service)
    who(eager, service)
    assert service.calls[-2:] == ["t3", "t4"]
    with pytest.raises(ValueError, match="negative"):
        source(refresh_margin_seconds=-1)


@pytest.mark.rule("sdk.token.refresh-once-on-401", "op.error.invalid-token")
def test_a_401_invalid_token_refreshes_once_and_retries_once() -> None:
    service, clock = Service(), Clock()
    tokens = source(clock)
    who(tokens, service)
    service.refused.add("t1")  # revoked on the server side; the source still thinks it fresh
    response = who(tokens, service)
    assert response.status_code == 200
    assert (service.calls, len(service.token_requests)) == (["t1", "t1", "t2"], 2)


@pytest.mark.rule("sdk.token.refresh-once-on-401")
def test_a_second_401_is_returned_not_looped_on() -> None:
    service = Service()
    service.refused.update({"t1", "t2", "t3"})
    response = who(source(Clock()), service)
    assert response.status_code == 401 and is_invalid_token(response)
    assert (service.calls, len(service.token_requests)) == (["t1", "t2"], 2)


def test_a_401_without_invalid_token_is_not_retried() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/oauth2/token":
            return httpx.Response(200, json={"access_token": "t", "expires_in": 3600, "scope": ""})
        return httpx.Response(401, headers={"WWW-Authenticate": 'Bearer realm="tessera"'}, json={})

    seen: list[str] = []

    def recorded(request: httpx.Request) -> httpx.Response:
        seen.append(request.url.path)
        return handler(request)

    transport = httpx.MockTransport(recorded)
    with httpx.Client(base_url=BASE, auth=source(Clock()), transport=transport) as client:
        assert client.get("/api/open/v1/whoami").status_code == 401
    assert seen == ["/oauth2/token", "/api/open/v1/whoami"]
    assert not is_invalid_token(httpx.Response(403, headers={"WWW-Authenticate": 'Bearer error="invalid_token"'}))


def test_a_refused_token_request_raises_after_one_attempt() -> None:
    service = Service(token_status=401)
    tokens = source(Clock())
    with pytest.raises(TokenError) as refused:
        who(tokens, service)
    assert (refused.value.status, refused.value.code, refused.value.error) == (401, "invalid_client", "invalid_client")
    assert refused.value.request_id == "req-1"
    assert (len(service.token_requests), service.calls, tokens.issued) == (1, [], 0)


def test_a_failing_refresh_after_401_raises_instead_of_retrying() -> None:
    service = Service()
    tokens = source(Clock())
    who(tokens, service)
    service.refused.add("t1")
    service.token_status = 401  # the credential was revoked with its tokens
    with pytest.raises(TokenError, match="invalid_client"):
        who(tokens, service)
    assert (len(service.token_requests), service.calls) == (2, ["t1", "t1"])


def test_the_secret_goes_in_http_basic_form_urlencoded_or_in_the_form() -> None:
    service = Service()
    who(TokenSource(BASE, "tcli_1", "a:b+c d%", scope="assets.read"), service)
    request = service.token_requests[-1]
    assert str(request.url) == f"{BASE}/oauth2/token"
    basic = base64.b64decode(request.headers["Authorization"].removeprefix("Basic ")).decode()
    assert basic == "tcli_1:a%3Ab%2Bc%20d%25"
    assert parse_qs(request.content.decode()) == {"grant_type": ["client_credentials"], "scope": ["assets.read"]}
    who(TokenSource(BASE, "tcli_1", "s", client_auth="client_secret_post"), service)
    request = service.token_requests[-1]
    assert "Authorization" not in request.headers
    assert parse_qs(request.content.decode()) == {"grant_type": ["client_credentials"], "client_id": ["tcli_1"],
                                                  "client_secret": ["s"]}
    with pytest.raises(ValueError, match="not both"):
        TokenSource(BASE, "tcli_1", "s", private_key=ec.generate_private_key(ec.SECP256R1()))


def test_private_key_jwt_signs_a_fresh_short_assertion_per_token_request() -> None:
    service = Service()
    key = ec.generate_private_key(ec.SECP256R1())
    tokens = TokenSource(BASE + "/", "tcli_k", private_key=key, kid="k1", audience="https://issuer.example/oauth2/token")
    who(tokens, service)
    tokens.invalidate()
    who(tokens, service)
    assertions = [parse_qs(request.content.decode()) for request in service.token_requests]
    assert all(form["client_assertion_type"] == ["urn:ietf:params:oauth:client-assertion-type:jwt-bearer"]
               and "client_secret" not in form and "Authorization" not in request.headers
               for form, request in zip(assertions, service.token_requests, strict=True))
    signed = [form["client_assertion"][0] for form in assertions]
    claims = [jwt.decode(s, key.public_key(), algorithms=["ES256"], audience="https://issuer.example/oauth2/token")
              for s in signed]
    assert jwt.get_unverified_header(signed[0])["kid"] == "k1"
    assert all(c["iss"] == c["sub"] == "tcli_k" and 0 < c["exp"] - c["iat"] <= 300 for c in claims)
    assert claims[0]["jti"] != claims[1]["jti"]


def test_threads_waiting_for_a_token_share_one_request() -> None:
    service = Service(delay=0.05)
    tokens = source()
    statuses: list[int] = []
    with httpx.Client(base_url=BASE, auth=tokens, transport=service.transport()) as client:
        threads = [threading.Thread(target=lambda: statuses.append(client.get("/api/open/v1/whoami").status_code))
                   for _ in range(20)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert statuses == [200] * 20
    assert len(service.token_requests) == 1


def test_tasks_waiting_for_a_token_share_one_request_and_one_refresh() -> None:
    service = Service(delay=0.01)
    tokens = source()

    async def run() -> list[int]:
        async with httpx.AsyncClient(base_url=BASE, auth=tokens, transport=service.async_transport()) as client:
            first = await asyncio.gather(*(client.get("/api/open/v1/whoami") for _ in range(20)))
            service.refused.add("t1")
            second = await asyncio.gather(*(client.get("/api/open/v1/whoami") for _ in range(20)))
        return [response.status_code for response in first + second]

    assert asyncio.run(run()) == [200] * 40
    assert len(service.token_requests) == 2  # one token, then one refresh for 20 refused calls
    # A second event loop gets its own lock and reuses the token.
    assert asyncio.run(run()) == [200] * 40
    assert len(service.token_requests) == 2


def test_the_generated_client_takes_the_source() -> None:
    service = Service()
    tokens = source()
    op = tokens.client(httpx_args={"transport": service.transport()})
    with op:
        me = whoami.sync(client=op)
    assert isinstance(me, WhoAmI) and me.client_id == "tcli_1"
    assert service.calls == ["t1"]


class Limited:
    """A service that refuses the first ``refusals`` calls (or token requests) with 429 and ``Retry-After``."""

    def __init__(self, refusals: int, retry_after: str = "2", token_refusals: int = 0) -> None:
        self.refusals, self.token_refusals, self.retry_after = refusals, token_refusals, retry_after
        self.calls: list[httpx.Request] = []
        self.token_requests: list[httpx.Request] = []

    def _limited(self) -> httpx.Response:
        return httpx.Response(429, headers={"Retry-After": self.retry_after},
                              json={"code": "rate_limit_exceeded", "error": "rate_limit_exceeded",
                                    "message": "Too many requests."})

    def handle(self, request: httpx.Request) -> httpx.Response:
        if request.url.path == "/oauth2/token":
            self.token_requests.append(request)
            if len(self.token_requests) <= self.token_refusals:
                return self._limited()
            return httpx.Response(200, json={"access_token": "t", "expires_in": 3600, "scope": "assets.read"})
        self.calls.append(request)
        return self._limited() if len(self.calls) <= self.refusals else httpx.Response(200, json=WHOAMI)

    async def handle_async(self, request: httpx.Request) -> httpx.Response:
        return self.handle(request)


class Waits:
    """The backoff's sleeps, recorded instead of slept; its draws fixed at one half."""

    def __init__(self, max_retries: int = 4) -> None:
        self.slept: list[float] = []
        self.backoff = Backoff(max_retries=max_retries, draw=lambda: 0.5, sleep=self.slept.append,
                               async_sleep=self._async_sleep)

    async def _async_sleep(self, seconds: float) -> None:
        self.slept.append(seconds)


@pytest.mark.rule("sdk.backoff-on-429")
def test_a_429_is_sent_again_after_retry_after_plus_a_full_jitter_draw_that_doubles() -> None:
    service, waits = Limited(refusals=3), Waits()
    tokens = TokenSource(BASE, "tcli_1", "s", backoff=waits.backoff)
    with httpx.Client(base_url=BASE, auth=tokens, transport=httpx.MockTransport(service.handle)) as client:
        assert client.get("/api/open/v1/whoami").status_code == 200
    # Retry-After (2 s), then half (the draw) of 0.5 s, 1 s, 2 s: exponential, jittered, never before Retry-After.
    assert waits.slept == [2.25, 2.5, 3.0]
    assert len(service.calls) == 4


@pytest.mark.rule("sdk.backoff-on-429")
def test_the_backoff_is_capped_and_bounded_and_the_last_429_is_returned() -> None:
    service, slept = Limited(refusals=100, retry_after="0"), []
    backoff = Backoff(max_retries=6, base_seconds=1, cap_seconds=8, draw=lambda: 1.0, sleep=slept.append)
    tokens = TokenSource(BASE, "tcli_1", "s", backoff=backoff)
    with httpx.Client(base_url=BASE, auth=tokens, transport=httpx.MockTransport(service.handle)) as client:
        response = client.get("/api/open/v1/whoami")
    assert response.status_code == 429 and response.json()["code"] == "rate_limit_exceeded"
    assert slept == [1, 2, 4, 8, 8, 8]
    assert len(service.calls) == 7  # the call and its six retries, then the 429 is the caller's


@pytest.mark.rule("sdk.backoff-on-429")
def test_a_429_is_waited_out_on_the_async_client_too() -> None:
    service, waits = Limited(refusals=2, token_refusals=1), Waits()
    tokens = TokenSource(BASE, "tcli_1", "s", backoff=waits.backoff)

    async def call() -> int:
        transport = httpx.MockTransport(service.handle_async)
        async with httpx.AsyncClient(base_url=BASE, auth=tokens, transport=transport) as client:
            return (await client.get("/api/open/v1/whoami")).status_code

    assert asyncio.run(call()) == 200
    assert waits.slept == [2.25, 2.25, 2.5]  # the token request once, then the call twice
    assert (len(service.token_requests), len(service.calls)) == (2, 3)


@pytest.mark.rule("sdk.backoff-on-429")
def test_a_token_request_refused_with_429_is_sent_again_then_raised() -> None:
    service, waits = Limited(refusals=0, token_refusals=1), Waits()
    tokens = TokenSource(BASE, "tcli_1", "s", backoff=waits.backoff)
    with httpx.Client(base_url=BASE, auth=tokens, transport=httpx.MockTransport(service.handle)) as client:
        assert client.get("/api/open/v1/whoami").status_code == 200
    assert waits.slept == [2.25] and len(service.token_requests) == 2
    # Each retry is a new token request (a private_key_jwt assertion is signed once per request).
    assert service.token_requests[0] is not service.token_requests[1]
    always, waits = Limited(refusals=0, token_refusals=100), Waits(max_retries=2)
    tokens = TokenSource(BASE, "tcli_1", "s", backoff=waits.backoff)
    with (httpx.Client(base_url=BASE, auth=tokens, transport=httpx.MockTransport(always.handle)) as client,
          pytest.raises(TokenError) as refused):
        client.get("/api/open/v1/whoami")
    assert (refused.value.status, refused.value.code) == (429, "rate_limit_exceeded")
    assert len(always.token_requests) == 3 and waits.slept == [2.25, 2.5]


def test_a_retry_after_longer_than_two_minutes_is_returned_not_waited_for() -> None:
    service, waits = Limited(refusals=1, retry_after="3600"), Waits()
    tokens = TokenSource(BASE, "tcli_1", "s", backoff=waits.backoff)
    with httpx.Client(base_url=BASE, auth=tokens, transport=httpx.MockTransport(service.handle)) as client:
        assert client.get("/api/open/v1/whoami").status_code == 429
    assert waits.slept == [] and len(service.calls) == 1
    with pytest.raises(ValueError, match="negative"):
        TokenSource(BASE, "tcli_1", "s", backoff=Backoff(max_retries=-1))


@pytest.mark.rule("sdk.request-id.sent")
def test_every_call_and_token_request_carries_a_new_request_id_unless_the_caller_gave_one() -> None:
    service, waits = Limited(refusals=1), Waits()
    tokens = TokenSource(BASE, "tcli_1", "s", backoff=waits.backoff)
    with httpx.Client(base_url=BASE, auth=tokens, transport=httpx.MockTransport(service.handle)) as client:
        client.get("/api/open/v1/whoami")  # refused once: the retry keeps the call's id
        client.get("/api/open/v1/whoami")
        client.get("/api/open/v1/whoami", headers={"X-Request-Id": "erp-sync-42"})
    ids = [request.headers["X-Request-Id"] for request in service.calls]
    assert ids[0] == ids[1] and ids[2] != ids[0] and ids[3] == "erp-sync-42"
    assert all(str(uuid.UUID(value)) == value for value in ids[:3])
    token_id = service.token_requests[0].headers["X-Request-Id"]
    assert str(uuid.UUID(token_id)) == token_id and token_id not in ids
