"""The Python SDK's token manager (``tessera_open_platform.auth.TokenSource``) against ``tessera serve --demo``.

The service is the real one, as a process on 127.0.0.1, on SQLite and on PostgreSQL, with a short token
lifetime (``TESSERA_TOKEN_TTL_SECONDS=60``, the least it allows). The test of a token the service expires
moves that token's stored expiry back to its issue time in the service's database (the service then
refuses it by its own rule, ``now >= expires_at``) instead of sleeping through its lifetime. Every call
goes through the generated client with a ``TokenSource`` as its httpx auth; the client's transport is the
real one wrapped in a counter of the requests it sends, which is how the token requests (``POST
/oauth2/token``) are counted. Administration (applications, credentials, revocation of a credential) goes
through the generated session SDK.
"""

from __future__ import annotations

import asyncio
import json
import re
import textwrap
import threading
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from http import HTTPStatus
from pathlib import Path
from typing import Any

import httpx
import jwt
import pytest
from cryptography.hazmat.primitives.asymmetric import ec
from sqlalchemy import select, update

from storage.drivers.db import make_engine
from storage.schema.tables import access_tokens, credentials
from tests.conftest import BACKENDS
from tests.support.live_server import ROOT, demo_on
from tests.support.sdk_calls import ok

try:
    from tessera_open_platform import AuthenticatedClient
    from tessera_open_platform.api.assets import list_assets
    from tessera_open_platform.api.identity import whoami
    from tessera_open_platform.auth import TokenError, TokenSource
    from tessera_open_platform.models import AssetPage, WhoAmI
    from tessera_session import AuthenticatedClient as SessionClient
    from tessera_session import Client as SessionAnonymous
    from tessera_session.api.auth import login
    from tessera_session.api.open_platform import (
        create_application,
        create_credential,
        create_installation,
        revoke_credential,
    )
    from tessera_session.models import (
        ApplicationEnvelope,
        CreateApplicationRequest,
        CreateCredentialRequest,
        CreateInstallationRequest,
        CredentialEnvelope,
        Environment,
        InstallationEnvelope,
        LoginEnvelope,
        LoginRequest,
        RevokedCredentialEnvelope,
        ScopeListItem,
    )
    from tessera_session.types import UNSET
except ModuleNotFoundError as exc:  # never a silent skip: the suite's command installs them
    raise ImportError(
        f"the generated SDKs are not installed ({exc}): run `pip install -e generated/python/open-platform-client "
        "-e generated/python/session-client` (scripts/test.sh does)"
    ) from exc

PASSWORD = "sdk-token-source-password"
ADMIN = "admin@demo.example"
TOKEN_TTL = 60  # TESSERA_TOKEN_TTL_SECONDS: the shortest lifetime the service allows
TIMEOUT = httpx.Timeout(30.0)
TOKEN = ("POST", "/oauth2/token")
WHOAMI = ("GET", "/api/open/v1/whoami")
RAISED_LIMITS = {f"TESSERA_RATE_LIMIT_{kind}": "1000000" for kind in ("READ", "WRITE", "LOGIN", "TOKEN", "OPEN")}


class Clock:
    """The SDK's clock, moved by the test (the service keeps its own, real, time)."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class Counting(httpx.BaseTransport, httpx.AsyncBaseTransport):
    """The real transports, counting the requests sent (method, path) and the answers' statuses."""

    def __init__(self) -> None:
        self.sent: Counter[tuple[str, str]] = Counter()
        self.statuses: list[tuple[str, int]] = []
        self._lock = threading.Lock()
        self._sync = httpx.HTTPTransport()
        self._async = httpx.AsyncHTTPTransport()

    def _count(self, request: httpx.Request) -> None:
        with self._lock:
            self.sent[(request.method, request.url.path)] += 1

    def _answered(self, request: httpx.Request, response: httpx.Response) -> httpx.Response:
        with self._lock:
            self.statuses.append((request.url.path, response.status_code))
        return response

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        self._count(request)
        return self._answered(request, self._sync.handle_request(request))

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self._count(request)
        return self._answered(request, await self._async.handle_async_request(request))

    @property
    def tokens(self) -> int:
        return self.sent[TOKEN]

    def close(self) -> None:
        self._sync.close()

    async def aclose(self) -> None:
        await self._async.aclose()


class Demo:
    """A running demo, signed in as its administrator through the session SDK."""

    def __init__(self, base: str, backend: str, admin: SessionClient, database_url: str) -> None:
        self.base, self.backend, self.admin, self.database_url = base, backend, admin, database_url

    def expire_tokens(self, client_id: str) -> int:
        """Every live token of the credential expires now: its stored expiry is moved back to its issue
        time, as if its lifetime had passed (the service's clock is the real one). The count moved."""
        engine = make_engine(self.database_url)
        try:
            with engine.begin() as conn:
                credential = select(credentials.c.id).where(credentials.c.client_id == client_id).scalar_subquery()
                moved = conn.execute(update(access_tokens).where(access_tokens.c.credential_id == credential)
                                     .values(expires_at=access_tokens.c.issued_at))
                return moved.rowcount
        finally:
            engine.dispose()

    def credential(self, body: dict[str, Any] | None = None,
                   scopes: tuple[ScopeListItem, ...] = (ScopeListItem.ASSETS_READ,)) -> tuple[str, str | None]:
        """A fresh application installed in tenant demo (assets.read by default), and a credential: id, secret."""
        app = ok(create_application.sync_detailed(
            client=self.admin, body=CreateApplicationRequest(name=f"Token source {uuid.uuid4().hex[:6]}")),
            ApplicationEnvelope).data
        installation = ok(create_installation.sync_detailed(
            app.app_id, client=self.admin,
            body=CreateInstallationRequest(tenant_id="demo", environment=Environment.PRODUCTION,
                                           scopes=list(scopes))), InstallationEnvelope).data
        credential = ok(create_credential.sync_detailed(
            installation.installation_id, client=self.admin,
            body=CreateCredentialRequest.from_dict(body) if body else UNSET), CredentialEnvelope).data
        return credential.client_id, credential.client_secret if isinstance(credential.client_secret, str) else None

    def revoke_credential(self, client_id: str) -> None:
        ok(revoke_credential.sync_detailed(client_id, client=self.admin), RevokedCredentialEnvelope)

    def revoke_token(self, client_id: str, secret: str, token: str) -> None:
        """RFC 7009 revocation at /oauth2/revoke, authenticated with the credential (HTTP Basic)."""
        answer = httpx.post(f"{self.base}/oauth2/revoke", auth=(client_id, secret), data={"token": token},
                            timeout=TIMEOUT)
        assert answer.status_code == HTTPStatus.OK, answer.text

    def op(self, tokens: TokenSource, counting: Counting) -> AuthenticatedClient:
        return tokens.client(timeout=TIMEOUT, httpx_args={"transport": counting})


@pytest.fixture(scope="module", params=BACKENDS)
def demo(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Demo]:
    settings = {"TESSERA_DEMO_PASSWORD": PASSWORD, "TESSERA_TOKEN_TTL_SECONDS": str(TOKEN_TTL),
                "TESSERA_REDIS_PREFIX": f"tessera-tokens-{uuid.uuid4().hex[:8]}", **RAISED_LIMITS}
    tmp: Path = tmp_path_factory.mktemp(f"token-source-{request.param}")
    with demo_on(request.param, tmp, **settings) as (base, env):
        with SessionAnonymous(base_url=base, timeout=TIMEOUT) as anonymous:
            jwt_token = ok(login.sync_detailed(client=anonymous, body=LoginRequest(email=ADMIN, password=PASSWORD)),
                           LoginEnvelope).data.jwt
        with SessionClient(base_url=base, token=jwt_token, timeout=TIMEOUT) as admin:
            yield Demo(base, request.param, admin, env["TESSERA_DATABASE_URL"])


def me(op: AuthenticatedClient) -> WhoAmI:
    return ok(whoami.sync_detailed(client=op), WhoAmI)


def report(demo: Demo, what: str, counting: Counting) -> None:
    print(f"[{demo.backend}] {what}: token requests {counting.tokens}, whoami calls {counting.sent[WHOAMI]}, "
          f"answers {[status for path, status in counting.statuses if path != '/oauth2/token']}")


def test_one_token_serves_many_calls_sync_and_async(demo: Demo) -> None:
    client_id, secret = demo.credential()
    assert secret is not None
    counting, tokens = Counting(), TokenSource(demo.base, client_id, secret)
    with demo.op(tokens, counting) as op:
        for _ in range(5):
            assert me(op).client_id == client_id
        page = ok(list_assets.sync_detailed(client=op, limit=5), AssetPage)
        assert len(page.items) == 5

    async def async_calls() -> list[int]:
        async with demo.op(tokens, counting) as op:
            answers = [await whoami.asyncio_detailed(client=op) for _ in range(5)]
        return [int(answer.status_code) for answer in answers]

    assert asyncio.run(async_calls()) == [200] * 5
    report(demo, "11 calls, sync then async", counting)
    assert counting.tokens == 1 and tokens.issued == 1
    assert counting.sent[WHOAMI] == 10
    assert tokens.scopes == ["assets.read"]


@pytest.mark.rule("sdk.token.reuse-until-margin")
def test_crossing_the_margin_on_the_sdks_clock_fetches_exactly_one_new_token(demo: Demo) -> None:
    client_id, secret = demo.credential()
    assert secret is not None
    clock, counting = Clock(), Counting()
    tokens = TokenSource(demo.base, client_id, secret, clock=clock)  # the default margin: 30 s
    with demo.op(tokens, counting) as op:
        me(op)
        first = tokens.access_token
        clock.now = TOKEN_TTL - 30 - 0.01  # just inside the reuse window of a 60 s token
        me(op)
        assert (counting.tokens, tokens.access_token) == (1, first)
        clock.now = TOKEN_TTL - 30  # 30 s before expiry: renewed before the call, once
        for _ in range(3):
            me(op)
        assert counting.tokens == 2 and tokens.access_token != first
        # A margin of 10 s instead: the token lasts until 50 s.
        narrow = TokenSource(demo.base, client_id, secret, clock=clock, refresh_margin_seconds=10)
        with demo.op(narrow, counting) as op2:
            me(op2)
            clock.now += TOKEN_TTL - 10 - 0.01
            me(op2)
            assert counting.tokens == 3
            clock.now += 0.01
            me(op2)
            assert counting.tokens == 4
    report(demo, "SDK clock moved past expiry minus margin", counting)
    assert all(status == 200 for _path, status in counting.statuses)  # renewed ahead: never a 401


@pytest.mark.rule("sdk.token.refresh-once-on-401")
def test_a_token_the_service_expired_is_refreshed_once_and_the_call_retried(demo: Demo) -> None:
    client_id, secret = demo.credential()
    assert secret is not None
    clock, counting = Clock(), Counting()
    # No margin and a clock that never moves: the SDK keeps using its token, so the service must refuse it.
    tokens = TokenSource(demo.base, client_id, secret, clock=clock, refresh_margin_seconds=0)
    with demo.op(tokens, counting) as op:
        me(op)
        first = tokens.access_token
        assert demo.expire_tokens(client_id) == 1  # its lifetime is over, for the service
        assert me(op).client_id == client_id
    report(demo, "token expired by the service", counting)
    assert counting.tokens == 2 and tokens.access_token != first
    assert [status for path, status in counting.statuses if path == WHOAMI[1]] == [200, 401, 200]


def test_a_revoked_token_is_refreshed_once_sync_and_async(demo: Demo) -> None:
    client_id, secret = demo.credential()
    assert secret is not None
    counting, tokens = Counting(), TokenSource(demo.base, client_id, secret)
    with demo.op(tokens, counting) as op:
        me(op)
        first = tokens.access_token
        assert first is not None
        demo.revoke_token(client_id, secret, first)
        assert me(op).client_id == client_id
    assert counting.tokens == 2
    second = tokens.access_token
    assert second is not None and second != first
    demo.revoke_token(client_id, secret, second)

    async def async_call() -> int:
        async with demo.op(tokens, counting) as op:
            return int((await whoami.asyncio_detailed(client=op)).status_code)

    assert asyncio.run(async_call()) == 200
    report(demo, "two tokens revoked at /oauth2/revoke (one sync, one async call)", counting)
    assert counting.tokens == 3
    assert [status for path, status in counting.statuses if path == WHOAMI[1]] == [200, 401, 200, 401, 200]


def test_a_failing_refresh_is_an_error_after_one_attempt(demo: Demo) -> None:
    client_id, secret = demo.credential()
    assert secret is not None
    counting, tokens = Counting(), TokenSource(demo.base, client_id, secret)
    with demo.op(tokens, counting) as op:
        me(op)
        demo.revoke_credential(client_id)  # its tokens stop working, and it gets no new one
        with pytest.raises(TokenError) as refused:
            whoami.sync_detailed(client=op)
        assert (refused.value.status, refused.value.code) == (401, "invalid_client")
        assert counting.tokens == 2  # the first token, then exactly one refresh attempt
        assert [status for path, status in counting.statuses if path == WHOAMI[1]] == [200, 401]
        with pytest.raises(TokenError):  # the next call tries once more, no more
            whoami.sync_detailed(client=op)
    report(demo, "credential revoked: refresh refused", counting)
    assert counting.tokens == 3 and counting.sent[WHOAMI] == 2

    wrong, counting = TokenSource(demo.base, client_id, "not-the-secret"), Counting()
    with demo.op(wrong, counting) as op, pytest.raises(TokenError, match="invalid_client"):
        whoami.sync_detailed(client=op)
    assert (counting.tokens, counting.sent[WHOAMI], wrong.issued) == (1, 0, 0)


def test_twenty_threads_and_twenty_tasks_share_one_token_request(demo: Demo) -> None:
    client_id, secret = demo.credential()
    assert secret is not None
    counting, tokens = Counting(), TokenSource(demo.base, client_id, secret)
    statuses: list[int] = []
    with demo.op(tokens, counting) as op:
        start = threading.Barrier(20)

        def call() -> None:
            start.wait()
            statuses.append(int(whoami.sync_detailed(client=op).status_code))

        def twenty_threads() -> None:
            threads = [threading.Thread(target=call) for _ in range(20)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()

        twenty_threads()
        assert (statuses, counting.tokens) == ([200] * 20, 1)
        first = tokens.access_token
        assert first is not None
        demo.revoke_token(client_id, secret, first)  # 20 threads refused at once: one refresh
        statuses.clear()
        twenty_threads()
        assert statuses == [200] * 20
    report(demo, "20 threads, then 20 threads after a revocation", counting)
    assert counting.tokens == 2

    async_tokens, async_counting = TokenSource(demo.base, client_id, secret), Counting()

    async def twenty_tasks() -> list[int]:
        async with demo.op(async_tokens, async_counting) as op:
            answers = await asyncio.gather(*(whoami.asyncio_detailed(client=op) for _ in range(20)))
            first_async = async_tokens.access_token
            assert first_async is not None
            demo.revoke_token(client_id, secret, first_async)
            again = await asyncio.gather(*(whoami.asyncio_detailed(client=op) for _ in range(20)))
        return [int(answer.status_code) for answer in answers + again]

    assert asyncio.run(twenty_tasks()) == [200] * 40
    report(demo, "20 tasks, then 20 tasks after a revocation", async_counting)
    assert async_counting.tokens == 2


def test_private_key_jwt_gets_and_refreshes_tokens(demo: Demo) -> None:
    key = ec.generate_private_key(ec.SECP256R1())
    public = json.loads(jwt.algorithms.ECAlgorithm.to_jwk(key.public_key()))
    client_id, secret = demo.credential({"publicJwk": {**public, "kid": "sdk-1"}})
    assert secret is None
    meta = httpx.get(f"{demo.base}/.well-known/oauth-authorization-server", timeout=TIMEOUT).json()
    assert meta["token_endpoint"] == f"{demo.base}/oauth2/token"  # the default audience
    counting, tokens = Counting(), TokenSource(demo.base, client_id, private_key=key, kid="sdk-1")
    with demo.op(tokens, counting) as op:
        me(op)
        me(op)
        first = tokens.access_token
        assert first is not None and counting.tokens == 1
        # Revoked at /oauth2/revoke (the client authenticates with an assertion there too): one refresh, a
        # new assertion with a new jti, and the call goes through.
        now = int(time.time())
        assertion = jwt.encode({"iss": client_id, "sub": client_id, "aud": meta["token_endpoint"], "iat": now,
                                "exp": now + 60, "jti": uuid.uuid4().hex}, key, algorithm="ES256")
        revoked = httpx.post(f"{demo.base}/oauth2/revoke", timeout=TIMEOUT, data={
            "token": first, "client_assertion_type": "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
            "client_assertion": assertion})
        assert revoked.status_code == HTTPStatus.OK, revoked.text
        assert me(op).client_id == client_id
    report(demo, "private_key_jwt (ES256, kid), its token revoked", counting)
    assert counting.tokens == 2 and tokens.access_token != first
    assert [status for path, status in counting.statuses if path == WHOAMI[1]] == [200, 200, 401, 200]


def readme_block(name: str) -> str:
    readme = (ROOT / "generated" / "README.md").read_text(encoding="utf-8")
    block = re.search(rf"<!-- {name}:begin -->\n```python\n(.*?)```\n<!-- {name}:end -->", readme, re.S)
    assert block is not None, f"generated/README.md lost its {name} markers"
    return block.group(1)


def test_the_readmes_token_source_examples_run_verbatim(demo: Demo) -> None:
    client_id, secret = demo.credential(scopes=(ScopeListItem.ASSETS_READ, ScopeListItem.ASSETS_MANAGE))
    scope: dict[str, Any] = {"BASE": demo.base, "CLIENT_ID": client_id, "CLIENT_SECRET": secret}
    exec(readme_block("token-source-sync"), scope)  # noqa: S102 - the README's own snippet
    assert scope["result"].idempotent_replay is False
    assert scope["tokens"].issued == 1  # four pages, a read and a command on one token
    # The async example, inside a coroutine, with the sync example's `tokens`.
    body = textwrap.indent(readme_block("token-source-async"), "    ")
    exec(f"async def example():\n{body}    return pages\n", {**scope, "asyncio": asyncio, "httpx": httpx},  # noqa: S102
         scope)
    pages = asyncio.run(scope["example"]())
    assert len(pages) == 20 and all(isinstance(page, AssetPage) for page in pages)
    assert scope["tokens"].issued == 1
