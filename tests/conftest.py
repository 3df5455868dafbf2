"""Fixtures: the app on a real SQLite file and on a real PostgreSQL database, and helpers.

Every HTTP test runs once per backend. PostgreSQL and Redis must be reachable (the test command
starts them); when they are not, the tests that need them fail with a message saying so, they
never skip silently.
"""

from __future__ import annotations

import dataclasses
import functools
import logging
import os
import resource
import uuid
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import psycopg
import pytest
import redis
from hypothesis import settings as hypothesis_settings
from sqlalchemy import Engine
from starlette.testclient import TestClient

from storage import identity
from storage.drivers.db import make_engine
from storage.schema.migrate import upgrade
from tessera.access.actors import Actor, resolve_actor
from tessera.app import create_app
from tessera.core.clock import ShiftedClock
from tessera.core.settings import load_settings
from tessera.demo import seed_demo
from tessera.registry.models import load_declarations
from tessera.runtime import Runtime, build_runtime
from tests.support import moved_time
from tests.support.server_errors import ACCESS_LOGGER, ServerErrorWatch

PG_ADMIN_URL = os.environ.get("TESSERA_TEST_PG_URL", "postgresql://postgres@127.0.0.1:5432/test")
REDIS_URL = os.environ.get("TESSERA_TEST_REDIS_URL", "redis://127.0.0.1:6379/15")
DEMO_PASSWORD = "demo-password-for-tests"
USER_PASSWORD = "user-password-for-tests"
BACKENDS = ("sqlite", "postgresql")
T = TypeVar("T")
# The specification's rules (rules.yaml) and the tests that name them: tests/support/rules.py.
pytest_plugins = ["tests.support.rules"]

# Property tests (Hypothesis) draw the same examples on every run and keep no example database, as
# the Schemathesis runs take fixed seeds: the test command is green or red the same way on every
# clone. New draws are exploration's (scripts/fuzz.sh), not the test command's.
hypothesis_settings.register_profile("tessera", derandomize=True, database=None)
hypothesis_settings.load_profile("tessera")


# scripts/fast.sh: the fast loop, where a test that needs a server it does not have is skipped. Never in
# CI, where every such test fails with how to start the server.
FAST_LOOP = os.environ.get("TESSERA_TEST_FAST") == "1" and os.environ.get("CI") != "true"


def _missing(server: str, message: str) -> None:
    if FAST_LOOP:
        pytest.skip(f"needs {server} (the fast loop runs without it; bash scripts/test.sh runs it)")
    pytest.fail(message, pytrace=False)


def pg_reachable() -> None:
    try:
        psycopg.connect(PG_ADMIN_URL, connect_timeout=3).close()
    except psycopg.OperationalError as exc:
        _missing("PostgreSQL",
            f"PostgreSQL is not reachable at {PG_ADMIN_URL} ({exc}). Start it with "
            "`pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start` "
            "or run the README's test command, which starts it.")


def redis_reachable() -> None:
    try:
        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=3).ping()
    except redis.RedisError as exc:
        _missing("Redis",
                 f"Redis is not reachable at {REDIS_URL} ({exc}). Start it with `redis-server --daemonize yes "
                 "--bind 127.0.0.1 --port 6379 --save '' --appendonly no` or run the README's test command.")


def create_pg_database() -> str:
    """A fresh, uniquely named PostgreSQL database for this test session."""
    pg_reachable()
    name = f"tessera_test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(PG_ADMIN_URL, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    base = PG_ADMIN_URL.rsplit("/", 1)[0]
    return f"{base}/{name}"


def drop_pg_database(url: str) -> None:
    name = url.rsplit("/", 1)[1]
    with psycopg.connect(PG_ADMIN_URL, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def make_settings(tmp: Path, database_url: str, **overrides: str) -> Any:
    env = {
        "TESSERA_ENV": "test",
        "TESSERA_DATABASE_URL": database_url,
        "TESSERA_VAR_DIR": str(tmp / "var"),
        "TESSERA_SECRET_KEY": "test-secret-key-0123456789abcdef0123456789",
        "TESSERA_LOG_JSON": "true",
        # Webhook tests deliver to receivers on 127.0.0.1 and drive retries without waiting.
        "TESSERA_WEBHOOK_ALLOW_LOOPBACK": "true",
        "TESSERA_WEBHOOK_RETRY_SCHEDULE": "0,0",
        "TESSERA_AUTOMATION_RETRY_SCHEDULE": "0",
        "TESSERA_WEBHOOK_TIMEOUT_SECONDS": "5",
        "TESSERA_REDIS_PREFIX": f"tessera-test-{uuid.uuid4().hex[:8]}",
        **overrides,
    }
    return load_settings(env)


@dataclass
class Env:
    """One running app on one backend, with the demo data seeded.

    ``run`` calls a coroutine function on the app's own event loop (where its pools live), for
    tests that call services or storage directly; ``sql`` is a synchronous engine on the same
    database, for tests that only look at rows.
    """

    backend: str
    runtime: Runtime
    client: TestClient
    database_url: str
    sql: Engine

    def run(self, fn: Callable[..., Awaitable[T]], *args: Any, **kwargs: Any) -> T:
        portal = self.client.portal
        assert portal is not None, "the test client is not running"
        return portal.call(functools.partial(fn, *args, **kwargs))

    def login(self, email: str, password: str = DEMO_PASSWORD) -> dict[str, str]:
        response = self.client.post("/api/auth/login", json={"email": email, "password": password})
        assert response.status_code == 200, response.text
        return {"Authorization": f"Bearer {response.json()['data']['jwt']}"}

    def new_tenant(self, roles: tuple[str, ...] = ("admin", "viewer")) -> TenantUsers:
        """A fresh tenant with one user per role, so tests never share counters or records."""
        suffix = uuid.uuid4().hex[:10]
        rt = self.runtime
        now = rt.clock.now()
        password_hash = _password_hash(rt)

        async def create() -> tuple[int, dict[str, str]]:
            async with rt.db.write() as conn:
                tenant_id = await identity.create_tenant(conn, f"t-{suffix}", f"Tenant {suffix}",
                                                         rt.declarations.roles, now=now)
                emails = {}
                for role in roles:
                    email = f"{role}-{suffix}@example.test"
                    user = await identity.create_user(conn, email, f"{role} {suffix}", password_hash, tenant_id,
                                                      now=now)
                    await identity.add_membership(conn, tenant_id, user.id, role, now=now)
                    if role == "admin":
                        await identity.grant_platform_role(conn, user.id, "sys.connector.update")
                    emails[role] = email
            return tenant_id, emails

        tenant_id, emails = self.run(create)
        return TenantUsers(self, f"t-{suffix}", tenant_id, emails)


@dataclass
class TenantUsers:
    env: Env
    code: str
    tenant_id: int
    emails: dict[str, str]

    _jwts: dict[str, dict[str, str]] = dataclasses.field(default_factory=dict)

    def headers(self, role: str = "admin") -> dict[str, str]:
        """Authorization header of the role's user (logged in once: login is rate-limited)."""
        if role not in self._jwts:
            self._jwts[role] = self.env.login(self.emails[role], USER_PASSWORD)
        return dict(self._jwts[role])

    def sign_in_again(self) -> None:
        """Forget the JWTs (after moving the clock past their lifetime)."""
        self._jwts.clear()

    def user_pid(self, role: str) -> str:
        user = self.env.run(identity.find_user_by_email, self.env.runtime.db, self.emails[role])
        assert user is not None
        return str(user.pid)

    def admin_call(self, method: str, path: str, role: str = "admin", **kwargs: Any) -> Any:
        """A call to the administration surface as this tenant's user of ``role``."""
        headers = {**self.headers(role), **kwargs.pop("headers", {})}
        return self.env.client.request(method, f"/api/open-platform{path}", headers=headers, **kwargs)

    def install(self, scopes: tuple[str, ...] = ("assets.read", "assets.manage"),
                environment: str = "production") -> dict[str, str]:
        """Create an application, install it here, create a credential: ids and the secret."""
        app = self.admin_call("POST", "/applications", json={"name": "Integration"}).json()["data"]
        inst = self.admin_call("POST", f"/applications/{app['appId']}/installations",
                               json={"tenantId": self.code, "environment": environment, "scopes": list(scopes)})
        assert inst.status_code == 200, inst.text
        installation = inst.json()["data"]
        cred = self.admin_call("POST", f"/installations/{installation['installationId']}/credentials")
        assert cred.status_code == 200, cred.text
        return {"appId": app["appId"], "installationId": installation["installationId"], **cred.json()["data"]}

    def create(self, page: str, payload: dict[str, Any], headers: dict[str, str] | None = None) -> dict[str, Any]:
        response = self.env.client.post(
            f"/api/meta/commands/execute/{page}:create", json={"payload": payload},
            headers=headers or self.headers(),
        )
        assert response.status_code == 200, response.text
        data: dict[str, Any] = response.json()["data"]
        return data


_HASHES: dict[int, str] = {}


def _password_hash(rt: Runtime) -> str:
    key = id(rt)
    if key not in _HASHES:
        _HASHES[key] = rt.passwords.hash(USER_PASSWORD)
    return _HASHES[key]


@pytest.fixture(scope="session", params=BACKENDS)
def env(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Env]:
    backend = request.param
    tmp = tmp_path_factory.mktemp(backend)
    database_url = f"sqlite:///{tmp / 'tessera.db'}" if backend == "sqlite" else create_pg_database()
    settings = make_settings(tmp, database_url)
    # With the models, as ``tessera migrate`` does: the tests run on the indexes that follow them.
    upgrade(settings.database_url, models=load_declarations(settings.models_file).models.values())
    runtime = build_runtime(settings, clock=ShiftedClock())
    app = create_app(settings, runtime)
    sql = make_engine(settings.database_url)
    with TestClient(app, raise_server_exceptions=False) as client:
        env = Env(backend, runtime, client, settings.database_url, sql)
        env.run(seed_demo, runtime, DEMO_PASSWORD)
        yield env
    sql.dispose()
    runtime.close()
    if backend == "postgresql":
        drop_pg_database(database_url)


@pytest.fixture(autouse=True)
def no_unexpected_5xx(request: pytest.FixtureRequest) -> Iterator[None]:
    """Fails a test whose in-process servers answered a 5xx it did not expect (``allows_5xx``)."""
    access = logging.getLogger(ACCESS_LOGGER)
    watch, level = ServerErrorWatch(), access.level
    access.setLevel(logging.INFO)
    access.addHandler(watch)
    try:
        yield
    finally:
        access.removeHandler(watch)
        access.setLevel(level)
    if watch.seen and request.node.get_closest_marker("allows_5xx") is None:
        pytest.fail(f"a server answered a 5xx this test did not expect: {watch.seen[:5]}")


@pytest.fixture
def tenant(env: Env) -> TenantUsers:
    return env.new_tenant()


@pytest.fixture(scope="session")
def demo_admin(env: Env) -> dict[str, str]:
    return env.login("admin@demo.example")


@pytest.fixture
def clock(env: Env) -> Iterator[ShiftedClock]:
    """The app's clock, to move time instead of waiting for it; set back after the test.

    What a test writes after moving the clock is stamped in the future, and every test of the
    backend shares the database and the clock. Two things keep such rows from reaching later tests:

    - each test that moves the clock writes its tenant-scoped rows in a tenant of its own (the
      ``tenant`` fixture, or ``env.new_tenant()``), and worker passes serve only the test's tenant,
      so no other test lists, counts or sends them;
    - at teardown, with the clock set back, every timestamp beyond the present of the rows the test
      created is moved back to the present (``tests/support/moved_time.py``). Nothing a test made is
      later than its end, so what reads across tenants (the retention purge, the metrics, a worker
      serving every tenant) never sees one test's rows as not yet due, not yet expired or newest,
      nor has them fall due in the middle of a later test that moves the clock as far.

    Re-stamping rather than deleting keeps the rows' references intact; the test that wrote them
    has ended, so none of its rows needs its future any more.
    """
    moved = env.runtime.clock
    assert isinstance(moved, ShiftedClock)
    before = moved_time.marks(env.sql)
    yield moved
    moved.reset()
    moved_time.bring_back(env.sql, before, moved.now())


def actor_for(env: Env, headers: dict[str, str], tenant_header: str | None = None) -> Actor:
    """The actor a request with these headers acts as (for calling services directly)."""
    claims = env.runtime.session_tokens.verify(headers["Authorization"].removeprefix("Bearer "))
    assert claims is not None
    return env.run(resolve_actor, env.runtime, claims, tenant_header)


@contextmanager
def fresh_quota(clock: ShiftedClock, window: int = 60) -> Iterator[None]:
    """A whole rate-limit quota (the clock moved a window on), and time held still while the test
    counts up to it: a slow run would otherwise see the first of its requests leave the window
    before it counted the last, one request too many allowed."""
    clock.advance(window)
    with clock.held():
        yield


def issue_token(env: Env, client_id: str, client_secret: str, scope: str | None = None) -> Any:
    form = {"grant_type": "client_credentials", "client_id": client_id, "client_secret": client_secret}
    if scope is not None:
        form["scope"] = scope
    return env.client.post("/oauth2/token", data=form)


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _xdist_group(item: pytest.Item) -> str:
    """The tests that run on one pytest-xdist worker (``--dist loadgroup``): a module's tests on one
    backend, so a module's server or app on that backend starts once (a module marked
    ``whole_module``, whose costly module fixtures do not depend on the backend, on one worker
    whole); a Schemathesis run alone, as each is minutes of CPU and the suite's wall time is the
    longest group."""
    params = getattr(getattr(item, "callspec", None), "params", {})
    backend = next((value for value in params.values() if value in BACKENDS), None)
    if item.get_closest_marker("whole_module") is not None:  # its setup serves both backends
        backend = None
    group = item.nodeid.split("::", 1)[0] + (f"@{backend}" if backend else "")
    if item.get_closest_marker("conformance") is not None:
        group += "@" + "-".join(str(value) for value in params.values() if value not in BACKENDS)
    return group


def _start_rank(item: pytest.Item) -> int:
    """When a test's group is handed to a worker: the Schemathesis runs (minutes each) first, the
    session document's before the Open Platform's, then the other tests that run a live server,
    then the rest. xdist hands out groups in collection order, so without this the longest groups
    (tests/system, collected last) start when most of the suite is done and the run ends on one
    busy worker; longest first keeps every worker busy to the end (the suite is CPU-bound on 2
    cores)."""
    if item.get_closest_marker("conformance") is not None:
        return 1 if "open-platform" in item.nodeid else 0  # the session document's runs are longer
    return 2 if item.path.parent.name == "system" else 3


# Fixtures that start a PostgreSQL cluster or a redis-server of their own (the fault tests).
OWN_SERVERS = frozenset({"own_pg", "own_redis"})


def _on_a_server(item: pytest.Item) -> bool:
    """A test run on PostgreSQL or Redis: one of its parameters names the server, its name says so,
    or it starts one of its own."""
    params = getattr(getattr(item, "callspec", None), "params", {})
    return (any(value in ("postgresql", "redis") for value in params.values()) or "postgresql" in item.name
            or bool(OWN_SERVERS & set(getattr(item, "fixturenames", ()))))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark each test by what it needs, so the fast ones run alone with ``pytest -m unit``, and by
    the worker group it runs in (``_xdist_group``); the longest groups start first (``_start_rank``)."""
    items.sort(key=_start_rank)  # stable: a module's tests keep their order
    for item in items:
        item.add_marker(pytest.mark.xdist_group(_xdist_group(item)))
        fixtures = set(getattr(item, "fixturenames", ()))
        if item.path.name == "test_console.py" and "server" in fixtures:
            item.add_marker(pytest.mark.browser)
        elif fixtures & {"env", "tenant", "demo_admin", "server"} or item.path.parent.name == "system":
            item.add_marker(pytest.mark.http)
        elif _on_a_server(item):
            item.add_marker(pytest.mark.services)
        elif item.get_closest_marker("tools") is not None:
            pass  # needs Node or Java (marked by the test): not a unit test
        else:
            item.add_marker(pytest.mark.unit)


# A test's CPU seconds, from its setup to its teardown: the pytest process's own and those of the
# processes it started and waited for (servers, Schemathesis, generators, node, tessera commands).
CPU_PROPERTY = "cpu_seconds"
_CPU_START = pytest.StashKey[float]()
CPU_SHOWN = 15


def _cpu_now() -> float:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_setup(item: pytest.Item) -> Iterator[None]:
    item.stash[_CPU_START] = _cpu_now()
    yield


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    outcome = yield
    if call.when == "teardown" and _CPU_START in item.stash:
        report = outcome.get_result()  # type: ignore[attr-defined]
        report.user_properties.append((CPU_PROPERTY, round(_cpu_now() - item.stash[_CPU_START], 2)))


def _report_cpu(terminalreporter: Any) -> None:
    """The tests that used the most CPU, and what all of them used: where the test command's CPU goes."""
    used = [(value, report.nodeid) for reports in terminalreporter.stats.values() for report in reports
            for name, value in getattr(report, "user_properties", ()) if name == CPU_PROPERTY]
    if not used:
        return
    terminalreporter.write_line(f"cpu: {sum(v for v, _ in used):.0f} s in {len(used)} tests (with the processes "
                                f"they started); the {CPU_SHOWN} that used the most:")
    for value, nodeid in sorted(used, reverse=True)[:CPU_SHOWN]:
        terminalreporter.write_line(f"cpu: {value:8.1f} s  {nodeid}")
    by_file: dict[str, float] = {}
    for value, nodeid in used:
        by_file[nodeid.split("::")[0]] = by_file.get(nodeid.split("::")[0], 0.0) + value
    terminalreporter.write_line(f"cpu: the {CPU_SHOWN} test files that used the most:")
    for path, value in sorted(by_file.items(), key=lambda item: -item[1])[:CPU_SHOWN]:
        terminalreporter.write_line(f"cpu: {value:8.1f} s  {path}")


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Report how many cases Schemathesis generated per document and database, where the CPU went,
    and where the browser tests left their screenshots (a serial run; under xdist they stay in each
    worker)."""
    from tests.support.conformance_stats import STATS_PROPERTY
    from tests.support.screenshots import ROOT, SCREENSHOTS

    _report_cpu(terminalreporter)

    runs = {value[0]: value for outcome in ("passed", "failed") for report in terminalreporter.stats.get(outcome, [])
            for name, value in getattr(report, "user_properties", ()) if name == STATS_PROPERTY}
    for label, count, not_reached in sorted(runs.values()):
        reached = "" if not_reached is None else (
            f"; operations that only answered 404: {not_reached[0]}, that only refused schema-valid data: "
            f"{not_reached[1]}")
        terminalreporter.write_line(f"schemathesis: {count} generated cases, {label} (all checks){reached}")
    for path in SCREENSHOTS:
        terminalreporter.write_line(f"console screenshot: {path.relative_to(ROOT)}")
