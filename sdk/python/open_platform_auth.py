"""Access tokens for the Open Platform, managed as the specification asks of every client.

``TokenSource`` is an ``httpx.Auth``: hand it to the generated client and every call carries a current
token. It gets one with the client credentials grant (a secret, sent with HTTP Basic by default, or a
``private_key_jwt`` assertion signed with your key), reuses it until ``refresh_margin_seconds`` (30 by
default) before it expires, and when the service answers 401 with ``error="invalid_token"`` (the token
expired early or was revoked) it fetches a new token once and retries the call once. A token request the
service refuses raises ``TokenError``: nothing is retried in a loop. Threads share one refresh (a lock),
and so do the tasks of an event loop (an ``asyncio.Lock`` per loop).

Two more rules of the specification's client contract hold for every call the source authenticates:

- **429 ``rate_limit_exceeded`` is waited out, not raised at once**: the call (or the token request) is
  sent again up to ``max_retries`` times (4 by default), after the ``Retry-After`` the service gave plus
  a full-jitter draw (a random share of ``Backoff.base_seconds * 2 ** attempt``, at most
  ``Backoff.cap_seconds``), so that clients refused together do not come back together. A 429 is
  refused before anything runs, so a command is safe to send again. After the last retry the 429 is
  returned (or, for a token request, raised as ``TokenError``).
- **Every call carries ``X-Request-Id``**: a new UUID per call unless the caller set one (the caller's
  wins); the retries of one call keep its id, and the service indexes it in its call audit::

    from tessera_open_platform.api.assets import list_assets
    from tessera_open_platform.auth import TokenSource

    tokens = TokenSource(BASE, client_id=CLIENT_ID, client_secret=CLIENT_SECRET)
    with tokens.client() as op:                      # an AuthenticatedClient whose httpx auth is `tokens`
        page = list_assets.sync(client=op, limit=50)
    async with tokens.client() as op:                # the same source serves the async client too
        page = await list_assets.asyncio(client=op, limit=50)

Token requests go through the client that makes the call (its transport, timeouts and TLS settings), to
``{base_url}/oauth2/token`` unless ``token_url`` says otherwise. ``private_key_jwt`` needs PyJWT with
cryptography (``pip install "pyjwt[crypto]"``); secrets need nothing beyond httpx.

The TypeScript SDK's ``TokenSource`` (``@tessera/open-platform``) follows the same rules.
"""

from __future__ import annotations

import asyncio
import base64
import random
import re
import threading
import time
import uuid
import weakref
from collections.abc import AsyncGenerator, Awaitable, Callable, Generator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal
from urllib.parse import quote

import httpx

if TYPE_CHECKING:
    from tessera_open_platform.client import AuthenticatedClient

__all__ = ["ASSERTION_TYPE", "Backoff", "TokenError", "TokenSource", "is_invalid_token", "retry_after_seconds"]

ASSERTION_TYPE = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
DEFAULT_REFRESH_MARGIN_SECONDS = 30.0
DEFAULT_MAX_RETRIES = 4
DEFAULT_BACKOFF_BASE_SECONDS = 0.5
DEFAULT_BACKOFF_CAP_SECONDS = 30.0
# A Retry-After above this is not waited for in the client: the 429 is returned (or raised) at once.
LONGEST_RETRY_AFTER_SECONDS = 120.0
REQUEST_ID_HEADER = "X-Request-Id"
# An assertion is signed per token request and lives this long (the service accepts at most 300 s).
ASSERTION_SECONDS = 60
_INVALID_TOKEN = re.compile(r'\berror\s*=\s*"?invalid_token"?', re.IGNORECASE)


class TokenError(Exception):
    """The token endpoint refused to issue a token (or answered something that is not a token).

    ``status`` is the HTTP status; ``code`` the service's stable code (``invalid_client``,
    ``invalid_scope``, ``rate_limit_exceeded``...; branch on it, never on the message); ``error`` the
    RFC 6749 error; ``request_id`` correlates with the service's call audit; ``body`` the parsed body.
    """

    def __init__(self, status: int, body: Any) -> None:
        envelope: dict[str, Any] = body if isinstance(body, dict) else {}
        self.status = status
        self.error: str | None = envelope.get("error") if isinstance(envelope.get("error"), str) else None
        code = envelope.get("code")
        self.code: str = code if isinstance(code, str) else self.error or f"http_{status}"
        request_id = envelope.get("requestId")
        self.request_id: str | None = request_id if isinstance(request_id, str) else None
        self.body = body
        message = envelope.get("message")
        super().__init__(f"{self.code}: {message}" if isinstance(message, str) else f"HTTP {status} ({self.code})")


def is_invalid_token(response: httpx.Response) -> bool:
    """True for a 401 whose ``WWW-Authenticate`` challenge says ``error="invalid_token"`` (RFC 6750)."""
    if response.status_code != 401:
        return False
    return _INVALID_TOKEN.search(", ".join(response.headers.get_list("WWW-Authenticate"))) is not None


def retry_after_seconds(response: httpx.Response) -> float:
    """``Retry-After`` in seconds (delta-seconds; an HTTP date or nothing counts as 0)."""
    try:
        return max(float(response.headers.get("Retry-After", "0")), 0.0)
    except ValueError:
        return 0.0


@dataclass(frozen=True)
class Backoff:
    """When to send a call refused with 429 again: ``Retry-After`` plus a full-jitter draw.

    ``draw`` (a float in [0, 1)) and the sleeps are injectable so that tests take no time and see
    every delay; the defaults are ``random.random``, ``time.sleep`` and ``asyncio.sleep``.
    """

    max_retries: int = DEFAULT_MAX_RETRIES
    base_seconds: float = DEFAULT_BACKOFF_BASE_SECONDS
    cap_seconds: float = DEFAULT_BACKOFF_CAP_SECONDS
    draw: Callable[[], float] = random.random
    sleep: Callable[[float], None] = time.sleep
    async_sleep: Callable[[float], Awaitable[None]] = asyncio.sleep

    def delay(self, response: httpx.Response, attempt: int) -> float | None:
        """Seconds to wait before retry number ``attempt`` (0-based), or None: do not retry."""
        if response.status_code != 429 or attempt >= self.max_retries:
            return None
        waited = retry_after_seconds(response)
        if waited > LONGEST_RETRY_AFTER_SECONDS:
            return None
        return waited + self.draw() * min(self.cap_seconds, self.base_seconds * 2.0 ** attempt)


@dataclass(frozen=True)
class _Token:
    value: str
    renew_at: float  # on the source's clock
    scope: str


class TokenSource(httpx.Auth):
    """Client credentials tokens for the generated client (``httpx.Auth``, sync and async).

    ``client_secret`` or ``private_key`` (not both). ``private_key``: a cryptography private key
    (RSA 2048+, EC P-256 or Ed25519) or its PEM; ``algorithm`` is derived from it (RS256, ES256,
    EdDSA) unless given; ``kid`` goes in the assertion's header when the credential holds several
    keys; ``audience`` is the token endpoint's absolute URL as the service's metadata advertises it
    (``token_url`` by default). ``client_auth``: ``"client_secret_basic"`` (default) or
    ``"client_secret_post"`` (the secret as form fields). ``scope``: a space-separated subset of the
    installation's scopes (all of them when omitted). ``clock``: seconds, monotonic
    (``time.monotonic`` by default); tests pass their own to move time. ``backoff``: how 429s are
    waited out (``Backoff()``: 4 retries, 0.5 s doubling up to 30 s, full jitter, after ``Retry-After``);
    ``Backoff(max_retries=0)`` returns every 429 at once.
    """

    def __init__(
        self,
        base_url: str,
        client_id: str,
        client_secret: str | None = None,
        *,
        private_key: Any = None,
        kid: str | None = None,
        algorithm: str | None = None,
        scope: str | None = None,
        refresh_margin_seconds: float = DEFAULT_REFRESH_MARGIN_SECONDS,
        token_url: str | None = None,
        audience: str | None = None,
        client_auth: Literal["client_secret_basic", "client_secret_post"] = "client_secret_basic",
        clock: Callable[[], float] = time.monotonic,
        backoff: Backoff | None = None,
    ) -> None:
        if (client_secret is None) == (private_key is None):
            raise ValueError("give client_secret or private_key (private_key_jwt), not both")
        if refresh_margin_seconds < 0:
            raise ValueError("refresh_margin_seconds must not be negative")
        if client_auth not in ("client_secret_basic", "client_secret_post"):
            raise ValueError(f"unknown client_auth {client_auth!r}")
        self.base_url = base_url.rstrip("/")
        self.client_id = client_id
        self.token_url = token_url or f"{self.base_url}/oauth2/token"
        self.scope = scope
        self.refresh_margin_seconds = float(refresh_margin_seconds)
        self._secret = client_secret
        self._client_auth = client_auth
        self._signer = None if private_key is None else _Signer(private_key, algorithm, kid,
                                                               audience or self.token_url, client_id)
        self._clock = clock
        self.backoff = backoff or Backoff()
        if self.backoff.max_retries < 0:
            raise ValueError("max_retries must not be negative")
        self._token: _Token | None = None
        self._state = threading.Lock()  # guards _token, issued and the per-loop locks
        self._refreshing = threading.Lock()  # one refresh at a time across threads
        self._loop_locks: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Lock] = (
            weakref.WeakKeyDictionary())
        self.issued = 0  # tokens issued to this source so far (each one POST to the token endpoint)

    # -- what callers may look at -------------------------------------------------------------------

    @property
    def access_token(self) -> str | None:
        """The current token (None before the first one or after ``invalidate``), to introspect or revoke it."""
        token = self._token
        return None if token is None else token.value

    @property
    def scopes(self) -> list[str]:
        """The scopes of the current token (empty before the first one)."""
        token = self._token
        return [] if token is None else token.scope.split()

    def invalidate(self) -> None:
        """Forget the current token: the next call fetches a new one."""
        with self._state:
            self._token = None

    def client(self, **kwargs: Any) -> AuthenticatedClient:
        """A generated ``AuthenticatedClient`` on ``base_url`` whose calls this source authenticates.

        Keyword arguments are the client's (``timeout``, ``headers``, ``verify_ssl``, ``httpx_args``...);
        ``httpx_args["auth"]`` is set to this source.
        """
        from tessera_open_platform.client import AuthenticatedClient

        httpx_args = {**kwargs.pop("httpx_args", {}), "auth": self}
        kwargs.setdefault("base_url", self.base_url)
        # The token the client would put in its default headers is empty: this source sets the header.
        return AuthenticatedClient(token="", prefix="", httpx_args=httpx_args, **kwargs)

    # -- httpx.Auth -------------------------------------------------------------------------------------

    def sync_auth_flow(self, request: httpx.Request) -> Generator[httpx.Request, httpx.Response, None]:
        _give_request_id(request)
        token = self._fresh()
        if token is None:
            token = yield from self._refresh_sync(None)
        request.headers["Authorization"] = f"Bearer {token}"
        response = yield from self._send_sync(request)
        if not is_invalid_token(response):
            return
        # Expired early or revoked: one new token (unless another call got one meanwhile), one retry.
        request.headers["Authorization"] = f"Bearer {(yield from self._refresh_sync(token))}"
        yield from self._send_sync(request)

    async def async_auth_flow(self, request: httpx.Request) -> AsyncGenerator[httpx.Request, httpx.Response]:
        # An async generator cannot delegate with ``yield from``: each step below is an async generator
        # that yields the requests to send and, last, its result (a token, or the final response).
        _give_request_id(request)
        token = self._fresh()
        if token is None:
            steps: AsyncGenerator[httpx.Request | str, httpx.Response | None] = self._refresh_async(None)
            step = await steps.asend(None)
            while isinstance(step, httpx.Request):
                step = await steps.asend((yield step))
            await steps.aclose()  # out of the loop's lock
            token = step
        request.headers["Authorization"] = f"Bearer {token}"
        sent = self._send_async(request)
        outcome = await sent.asend(None)
        while outcome is request:
            outcome = await sent.asend((yield request))
        await sent.aclose()
        if not (isinstance(outcome, httpx.Response) and is_invalid_token(outcome)):
            return
        steps = self._refresh_async(token)
        step = await steps.asend(None)
        while isinstance(step, httpx.Request):
            step = await steps.asend((yield step))
        await steps.aclose()
        request.headers["Authorization"] = f"Bearer {step}"
        sent = self._send_async(request)
        outcome = await sent.asend(None)
        while outcome is request:
            outcome = await sent.asend((yield request))
        await sent.aclose()

    # -- sending, with 429 waited out ---------------------------------------------------------------------

    def _send_sync(self, request: httpx.Request) -> Generator[httpx.Request, httpx.Response, httpx.Response]:
        """The request's response, each 429 waited out as ``backoff`` says (same request, same id)."""
        response = yield request
        attempt = 0
        while (delay := self.backoff.delay(response, attempt)) is not None:
            response.read()
            self.backoff.sleep(delay)
            attempt += 1
            response = yield request
        return response

    async def _send_async(self, request: httpx.Request) -> AsyncGenerator[httpx.Request | httpx.Response,
                                                                           httpx.Response | None]:
        """``_send_sync`` for the async flow: yields ``request`` to send it, then the final response."""
        response = yield request
        assert response is not None
        attempt = 0
        while (delay := self.backoff.delay(response, attempt)) is not None:
            await response.aread()
            await self.backoff.async_sleep(delay)
            attempt += 1
            response = yield request
            assert response is not None
        yield response

    # -- the token ------------------------------------------------------------------------------------

    def _fresh(self) -> str | None:
        """The current token while it is outside the refresh margin, else None."""
        token = self._token
        return token.value if token is not None and self._clock() < token.renew_at else None

    def _fresh_unless(self, stale: str) -> str | None:
        """The current token if it is fresh and not ``stale`` (the one the service just refused)."""
        fresh = self._fresh()
        return fresh if fresh != stale else None

    def _forget(self, stale: str) -> None:
        """Forget the current token if it is ``stale``."""
        with self._state:
            if self._token is not None and self._token.value == stale:
                self._token = None

    def _refresh_sync(self, stale: str | None) -> Generator[httpx.Request, httpx.Response, str]:
        """A fresh token: fetched here unless another thread fetched one while this one waited."""
        with self._refreshing:
            fresh = self._fresh() if stale is None else self._fresh_unless(stale)
            if fresh is not None:
                return fresh
            if stale is not None:
                self._forget(stale)
            attempt = 0
            while True:  # a 429 from the token endpoint is waited out too, with a new request each time
                started = self._clock()
                response = yield self._token_request()
                response.read()
                if (delay := self.backoff.delay(response, attempt)) is None:
                    return self._accept(response, started)
                self.backoff.sleep(delay)
                attempt += 1

    async def _refresh_async(self, stale: str | None) -> AsyncGenerator[httpx.Request | str, httpx.Response | None]:
        """``_refresh_sync`` for the tasks of one loop: yields token requests to send, then the token."""
        async with self._loop_lock():  # the loop's other tasks wait here for this one's token
            fresh = self._fresh() if stale is None else self._fresh_unless(stale)
            if fresh is not None:
                yield fresh
                return
            if stale is not None:
                self._forget(stale)
            attempt = 0
            while True:
                started = self._clock()
                response = yield self._token_request()
                assert response is not None
                await response.aread()
                if (delay := self.backoff.delay(response, attempt)) is None:
                    yield self._accept(response, started)
                    return
                await self.backoff.async_sleep(delay)
                attempt += 1

    def _loop_lock(self) -> asyncio.Lock:
        loop = asyncio.get_running_loop()
        with self._state:
            lock = self._loop_locks.get(loop)
            if lock is None:
                lock = self._loop_locks[loop] = asyncio.Lock()
        return lock

    def _token_request(self) -> httpx.Request:
        form = {"grant_type": "client_credentials"}
        if self.scope is not None:
            form["scope"] = self.scope
        headers = {"Accept": "application/json", REQUEST_ID_HEADER: str(uuid.uuid4())}
        if self._signer is not None:
            form["client_assertion_type"] = ASSERTION_TYPE
            form["client_assertion"] = self._signer.sign()
        elif self._client_auth == "client_secret_post":
            form["client_id"] = self.client_id
            form["client_secret"] = self._secret or ""
        else:  # RFC 6749 section 2.3.1: both form-urlencoded, then Basic
            pair = f"{quote(self.client_id, safe='')}:{quote(self._secret or '', safe='')}"
            headers["Authorization"] = "Basic " + base64.b64encode(pair.encode()).decode("ascii")
        return httpx.Request("POST", self.token_url, data=form, headers=headers)

    def _accept(self, response: httpx.Response, started: float) -> str:
        """The token of a token response (kept until the margin before it expires), or ``TokenError``."""
        try:
            body = response.json()
        except ValueError:
            body = None
        if (response.status_code != 200 or not isinstance(body, dict)
                or not isinstance(body.get("access_token"), str)
                or not isinstance(body.get("expires_in"), int | float)):
            raise TokenError(response.status_code, body)
        lifetime = float(body["expires_in"])
        token = _Token(body["access_token"], started + max(lifetime - self.refresh_margin_seconds, 0.0),
                       str(body.get("scope", "")))
        with self._state:
            self._token = token
            self.issued += 1
        return token.value


def _give_request_id(request: httpx.Request) -> None:
    """A new ``X-Request-Id`` for a call that has none; the caller's own is kept."""
    if REQUEST_ID_HEADER not in request.headers:
        request.headers[REQUEST_ID_HEADER] = str(uuid.uuid4())


class _Signer:
    """RFC 7523 client assertions: ``iss`` = ``sub`` = the client id, ``aud`` the token endpoint,
    a fresh ``jti`` and a short lifetime per token request."""

    def __init__(self, key: Any, algorithm: str | None, kid: str | None, audience: str, client_id: str) -> None:
        try:
            import jwt
            from cryptography.hazmat.primitives.asymmetric import ec, ed25519, rsa
            from cryptography.hazmat.primitives.serialization import load_pem_private_key
        except ImportError as exc:  # pragma: no cover - depends on the environment
            raise ImportError('private_key_jwt needs PyJWT and cryptography: pip install "pyjwt[crypto]"') from exc
        if isinstance(key, str | bytes):
            key = load_pem_private_key(key.encode() if isinstance(key, str) else key, password=None)
        if algorithm is None:
            if isinstance(key, rsa.RSAPrivateKey):
                algorithm = "RS256"
            elif isinstance(key, ec.EllipticCurvePrivateKey):
                algorithm = "ES256"
            elif isinstance(key, ed25519.Ed25519PrivateKey):
                algorithm = "EdDSA"
            else:
                raise ValueError("private_key must be an RSA, EC P-256 or Ed25519 private key (or its PEM)")
        self._encode = jwt.encode
        self._key = key
        self._algorithm = algorithm
        self._headers = {"kid": kid} if kid is not None else None
        self._audience = audience
        self._client_id = client_id

    def sign(self) -> str:
        now = int(time.time())  # wall-clock time: the service checks iat and exp against its own clock
        claims = {"iss": self._client_id, "sub": self._client_id, "aud": self._audience, "iat": now,
                  "exp": now + ASSERTION_SECONDS, "jti": uuid.uuid4().hex}
        return self._encode(claims, self._key, algorithm=self._algorithm, headers=self._headers)
