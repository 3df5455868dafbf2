"""A per-layer cost table, measured: microseconds of CPU (and wall) per request in each ASGI layer,
router pass, security check, validation, handler, storage call, driver round trip and log line.

    .venv/bin/python benchmarks/layers.py [--backend postgresql|sqlite|both] [--requests 2000]
        [--warmup 200] [--records 2000] [--only token,whoami,...] [--log-level WARNING] [--json]
    .venv/bin/python benchmarks/layers.py --compare BEFORE.json AFTER.json

No sockets and no load generator: the real app of ``tessera.app.create_app`` (``workers=0``, the
``TESSERA_*`` variables of the other benchmarks' servers, then ``tune_gc`` as ``tessera serve`` does)
is built in this process, its lifespan run, and each request handed to it as a hand-built ASGI
scope with ``receive`` and ``send`` callables, one at a time, on asyncio's own event loop (not
uvloop: the loop is patched to count socket waits). Every answer must be 2xx.

How the layers are found (nothing about today's chain is written down here, so the table follows
the request path when it is rewritten): after the lifespan started (Connexion builds its middleware
stack then), the app object is walked from the outside in through its attributes (``app``,
``next_app``, ``router``, ``routes``, ``middleware_stack``, every attribute, list and dict of the
framework's and the service's objects), and every object whose ``__call__`` takes ``(scope, receive,
send)`` is an ASGI layer: its class's ``__call__`` is wrapped with a timer (instances told apart by
where they were found; classes with many instances, such as one per operation, are one row), and
a plain function in that place (Starlette's per-route app) is replaced by a timed one. Then the
*probes*: named functions (``PROBES``: ``module:qualname``, each optional: one that no longer exists
is listed as absent and the table still works) wrapped the same way before the app is built, so the
handlers and security functions Connexion resolves are the wrapped ones; the operation's own
function is timed by wrapping what the resolver returns.

Timing: each timed call pushes a frame on its task's stack (CPU and ``perf_counter_ns`` wall); a
row's *own* time is its inclusive time minus that of the timed calls made inside it, so the rows
of a request add up to the request's whole app call, and the driver's gap around the app call (the
hand-built scope, ``send``) is the unattributed rest. CPU is on the task's own clock: every loop
callback that steps a task (``Handle._run``) adds its ``thread_time_ns`` to that task, so a frame
that awaits the database is not charged with what the loop did meanwhile (its select, the
call-audit writer's flush); that work is one line beside the table ("+ loop"). A driver row's
*wall* includes the database's time (PostgreSQL's work and the loopback), its CPU only this
process's. Timed calls of other tasks and of threads (SQLite's statements run on the storage
layer's threads) are listed apart. Round trips are counted where the process waits: every
``loop.add_reader`` of the request's task is one wait for a peer's answer (PostgreSQL), every
``run_in_executor`` one hop to a thread (SQLite's statements).

The timers' own cost is calibrated (a timed call inside a timed call, against untimed ones, in a
tight loop) and measured in place (the same requests with every timed call doubled by an empty
shadow frame: the difference per timed call, the median over all blocks of all endpoints); the
rows are corrected with the larger (an average: a row of a few microseconds, a thin layer, can come
out a little below zero). The check beside each table: the same requests with the
recorder off (its wrappers then only test a flag, a cost calibrated too), in ABBA blocks with the
recording ones so that the host's drift falls on both; the thread's CPU recording, less the timers'
cost, should come within the host's noise of it (each block's figure is shown, to tell the noise).
Requests are one at a time: no contention, no pool wait; what a layer costs under load is the
suite's question, not this one's.

Steps, per backend: a fresh database, migrated, and the suite's fixture (``harness.endpoints``:
tenants, an administrator and its JWT, an installation with 16 credentials and tokens,
``--records`` assets); the app, with its probes and layers timed; per endpoint ``--warmup``
requests, then ``--requests`` recorded and as many with the recorder off (the suite's request
variants, rotated, a unique key in every write); one table per endpoint (rows in the order they
were first entered, indented by nesting depth) and a summary by kind. ``--json`` writes
``benchmarks/results/layers-<backend>.json`` (and ``.txt``); ``--compare`` prints two such files
side by side, row by row (before/after a change of the request path).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import importlib
import inspect
import json
import logging
import os
import statistics
import sys
import threading
import time
import uuid
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from harness import RESULTS_DIR, endpoints, log, results, tables
from harness.databases import BACKENDS, fresh
from harness.wrk import Call

from tessera.app import create_app, tune_gc
from tessera.core.logs import configure_logging
from tessera.core.settings import load_settings

DEFAULT_ONLY = ("token", "whoami", "read", "list", "command", "event", "session-create", "session-list")

# Named functions timed on every request, by kind. Each is optional. Kinds: router, security,
# validation, handler, service, storage, driver, log, json, metrics.
PROBES: tuple[tuple[str, str], ...] = (
    ("router", "starlette.routing:Mount.handle"),
    ("router", "starlette.routing:Route.handle"),
    ("security", "handlers.open.security:access_token_info"),
    ("security", "handlers.open.security:validate_scopes"),
    ("security", "handlers.session.security:bearer_info"),
    ("security", "tessera.openplatform.tokens.bearer:validate"),
    ("security", "tessera.openplatform.tokens.bearer:lookup"),
    ("security", "tessera.core.crypto:SessionTokens.verify"),
    ("validation", "tessera.web.connexion.validators:CollectingJSONBodyValidator._parse"),
    ("validation", "tessera.web.connexion.validators:CollectingJSONBodyValidator._validate"),
    ("validation", "tessera.web.connexion.validators:CollectingFormValidator._validate"),
    ("validation", "tessera.web.connexion.validators:CollectingParameterValidator.validate_request"),
    ("validation", "connexion.validators.form_data:FormDataValidator._parse"),
    ("service", "tessera.openplatform.tokens.grants:issue"),
    ("service", "tessera.openplatform.resources.reads:read"),
    ("service", "tessera.openplatform.resources.reads:list_page"),
    ("service", "tessera.openplatform.commands.execute:execute"),
    ("service", "tessera.inbound.events:receive"),
    ("storage", "storage.drivers.postgres:PostgresDatabase.execute"),
    ("storage", "storage.drivers.postgres:PostgresTransaction.execute"),
    ("storage", "storage.drivers.postgres:PostgresTransaction.enqueue"),
    ("storage", "storage.drivers.sqlite:SqliteDatabase.execute"),
    ("storage", "storage.drivers.sqlite:SqliteTransaction.execute"),
    ("storage", "storage.drivers.sqlite:SqliteTransaction.enqueue"),
    ("driver", "psycopg_pool:AsyncConnectionPool.getconn"),
    ("driver", "psycopg_pool:AsyncConnectionPool.putconn"),
    ("driver", "psycopg:AsyncConnection.execute"),
    ("driver", "psycopg:AsyncCursor.execute"),
    ("driver", "psycopg:AsyncCursor.fetchall"),
    ("driver", "psycopg:AsyncPipeline.sync"),
    ("driver", "psycopg:AsyncConnection.wait"),
    ("driver", "storage.drivers.sqlite:_run"),
    ("log", "tessera.web.context:RequestContextMiddleware._log"),
    ("log", "logging:Logger._log"),
    ("log", "logging.handlers:QueueHandler.emit"),
    ("log", "tessera.core.logs:JsonFormatter.format"),
    ("metrics", "tessera.core.metrics:Metrics.request"),
    ("metrics", "storage.openplatform.call_audit:CallAudit.record"),
    ("json", "connexion.jsonifier:Jsonifier.dumps"),
    ("json", "tessera.web.connexion.responses:encode"),
)
# What the resolver returns is the operation's own function: wrapped as the "handler" row.
RESOLVERS = ("connexion.resolver:Resolver.resolve_function_from_operation_id",
             "tessera.web.connexion.resolver:CapabilityResolver.resolve_function_from_operation_id")
HANDLER_KEY = "handler: the operation's function"
ASGI_PARAMS = ("scope", "receive", "send")
WALKED_PACKAGES = ("starlette", "connexion", "tessera", "handlers", "storage")
BLOCKS = 8  # per endpoint: blocks of --requests/8 requests, idle, timed, doubled, doubled, timed, idle, ...
MANY_INSTANCES = 4  # a class with more layer instances than this is one row
MAX_WALK = 200_000  # objects visited when looking for layers


# -- the recorder ----------------------------------------------------------------------------------

@dataclass
class Stat:
    key: str
    kind: str
    order: int
    depth: int
    calls: int = 0
    cpu_ns: int = 0  # own
    wall_ns: int = 0  # own
    incl_cpu_ns: int = 0
    incl_wall_ns: int = 0
    children: int = 0  # timed calls made directly inside
    steps: int = 0  # times its task was resumed while this was the innermost frame


@dataclass
class Frame:
    key: str
    kind: str
    ident: int
    cpu0: int
    wall0: int
    child_cpu: int = 0
    child_wall: int = 0
    children: int = 0
    steps: int = 0


@dataclass
class Recorder:
    """Frames per task (or thread); stats per key, the request's task apart from everything else."""

    enabled: bool = False
    double: bool = False  # every timed call pushes a second, empty frame: the timers' cost in place
    tracking: bool = True  # the step hook keeps the tasks' clocks (always, but while calibrating it)
    request_task: object = None
    stats: dict[str, Stat] = field(default_factory=dict)
    stacks: dict[object, list[Frame]] = field(default_factory=dict)
    first: dict[str, tuple[int, int]] = field(default_factory=dict)  # key -> (entry order, depth)
    read_waits: int = 0  # loop.add_reader in the request's task
    hops: int = 0  # run_in_executor in the request's task
    other_read_waits: int = 0
    other_hops: int = 0
    # Each task's own CPU clock: the CPU of its steps (the loop runs one task step at a time), so a
    # frame that awaits is not charged with the other tasks and the loop's select in between.
    task_cpu: dict[object, int] = field(default_factory=dict)
    stepping: object = None
    step_cpu0: int = 0
    request_steps: int = 0

    def save(self) -> tuple[Any, ...]:
        return (self.stats, self.stacks, self.first, self.read_waits, self.hops, self.other_read_waits,
                self.other_hops, self.request_steps)

    def restore(self, saved: tuple[Any, ...]) -> None:
        (self.stats, self.stacks, self.first, self.read_waits, self.hops, self.other_read_waits, self.other_hops,
         self.request_steps) = saved

    def reset(self) -> None:
        self.stats, self.stacks, self.first = {}, {}, {}
        self.read_waits = self.hops = self.other_read_waits = self.other_hops = self.request_steps = 0

    def cpu_now(self, owner: object) -> int:
        """``owner``'s CPU clock: a task's steps, or a thread's CPU."""
        if owner is self.stepping:
            return self.task_cpu.get(owner, 0) + time.thread_time_ns() - self.step_cpu0
        return time.thread_time_ns()

    def step(self, task: object, run: Callable[[], object]) -> None:
        """One step of ``task``, its CPU added to the task's clock."""
        stack = self.stacks.get(task)
        if stack:
            stack[-1].steps += 1
        if self.enabled and task is self.request_task:
            self.request_steps += 1
        outer, outer_cpu0 = self.stepping, self.step_cpu0
        self.stepping = task
        self.step_cpu0 = started = time.thread_time_ns()
        try:
            run()
        finally:
            self.task_cpu[task] = self.task_cpu.get(task, 0) + time.thread_time_ns() - started
            self.stepping, self.step_cpu0 = outer, outer_cpu0

    def in_request(self) -> bool:
        return _task() is self.request_task and self.request_task is not None

    def _owner(self) -> tuple[object, str]:
        task = _task()
        if task is not None and task is self.request_task:
            return task, ""
        if task is not None:
            return task, "[other task] "
        return threading.get_ident(), "[thread] "

    def enter(self, key: str, kind: str, ident: int) -> tuple[object, list[Frame], Frame] | None:
        owner, prefix = self._owner()
        stack = self.stacks.setdefault(owner, [])
        if stack and stack[-1].ident == ident and stack[-1].key == prefix + key:
            return None  # the same layer calling its base class's __call__, or a wrapper wrapped twice
        full = prefix + key
        if full not in self.first:
            self.first[full] = (len(self.first), len(stack))
        frame = Frame(full, kind, ident, self.cpu_now(owner), time.perf_counter_ns())
        stack.append(frame)
        return owner, stack, frame

    def exit(self, entered: tuple[object, list[Frame], Frame] | None) -> None:
        if entered is None:
            return
        owner, stack, frame = entered
        wall1, cpu1 = time.perf_counter_ns(), self.cpu_now(owner)
        while stack and stack[-1] is not frame:  # a frame left by an exception path: close it with this one
            stack.pop()
        if stack:
            stack.pop()
        cpu, wall = cpu1 - frame.cpu0, wall1 - frame.wall0
        stat = self.stats.get(frame.key)
        if stat is None:
            order, depth = self.first.get(frame.key, (len(self.first), len(stack)))
            stat = self.stats[frame.key] = Stat(frame.key, frame.kind, order, depth)
        stat.calls += 1
        stat.incl_cpu_ns += cpu
        stat.incl_wall_ns += wall
        stat.cpu_ns += cpu - frame.child_cpu
        stat.wall_ns += wall - frame.child_wall
        stat.children += frame.children
        stat.steps += frame.steps
        if stack:
            parent = stack[-1]
            parent.child_cpu += cpu
            parent.child_wall += wall
            parent.children += 1


REC = Recorder()
SHADOW = "(timer shadow)"  # the second frame of every timed call while measuring the timers in place


def _task() -> object:
    try:
        return asyncio.current_task()
    except RuntimeError:
        return None


def timed_async(fn: Callable[..., Awaitable[Any]], key: str, kind: str) -> Callable[..., Awaitable[Any]]:
    @functools.wraps(fn)
    async def wrapper(*args: Any, **kwargs: Any) -> Any:
        if not REC.enabled:
            return await fn(*args, **kwargs)
        entered = REC.enter(key, kind, id(fn))
        shadow = REC.enter(SHADOW, "shadow", 0) if REC.double else None
        try:
            return await fn(*args, **kwargs)
        finally:
            REC.exit(shadow)
            REC.exit(entered)

    wrapper.__layers_timed__ = True  # type: ignore[attr-defined]
    return wrapper


def timed_sync(fn: Callable[..., Any], key: str, kind: str) -> Callable[..., Any]:
    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if not REC.enabled:
            return fn(*args, **kwargs)
        entered = REC.enter(key, kind, id(fn))
        shadow = REC.enter(SHADOW, "shadow", 0) if REC.double else None
        try:
            return fn(*args, **kwargs)
        finally:
            REC.exit(shadow)
            REC.exit(entered)

    wrapper.__layers_timed__ = True  # type: ignore[attr-defined]
    return wrapper


def timed(fn: Callable[..., Any], key: str, kind: str) -> Callable[..., Any]:
    return timed_async(fn, key, kind) if inspect.iscoroutinefunction(fn) else timed_sync(fn, key, kind)


# -- probes ----------------------------------------------------------------------------------------

@dataclass
class Patches:
    """What was replaced, to put back."""

    undo: list[Callable[[], None]] = field(default_factory=list)
    absent: list[str] = field(default_factory=list)
    probed: list[str] = field(default_factory=list)

    def restore(self) -> None:
        for undo in reversed(self.undo):
            undo()
        self.undo.clear()


def _resolve(target: str) -> tuple[Any, str, Any] | None:
    """(owner, attribute name, the raw attribute) of ``module:qualname``, or None."""
    module_name, _, qualname = target.partition(":")
    try:
        owner: Any = importlib.import_module(module_name)
    except ImportError:
        return None
    *path, name = qualname.split(".")
    for part in path:
        owner = getattr(owner, part, None)
        if owner is None:
            return None
    if inspect.isclass(owner):
        raw = next((c.__dict__[name] for c in owner.__mro__ if name in c.__dict__), None)
    else:
        raw = getattr(owner, name, None)
    return None if raw is None else (owner, name, raw)


def _set(patches: Patches, owner: Any, name: str, value: Any) -> None:
    had = name in vars(owner)
    old = vars(owner).get(name)
    setattr(owner, name, value)
    patches.undo.append(lambda: setattr(owner, name, old) if had else delattr(owner, name))


def _rebind_imports(patches: Patches, old: Any, new: Any) -> None:
    """``from module import f`` elsewhere: those names are replaced too."""
    for module in list(sys.modules.values()):
        if module is None or not (getattr(module, "__name__", "") or "").startswith(WALKED_PACKAGES):
            continue
        for name, value in list(vars(module).items()):
            if value is old:
                _set(patches, module, name, new)


def probe(patches: Patches, kind: str, target: str) -> None:
    found = _resolve(target)
    key = target.replace(":", ".")
    if found is None:
        patches.absent.append(target)
        return
    owner, name, raw = found
    if isinstance(raw, staticmethod):
        _set(patches, owner, name, staticmethod(timed(raw.__func__, key, kind)))
    elif isinstance(raw, classmethod):
        _set(patches, owner, name, classmethod(timed(raw.__func__, key, kind)))
    elif inspect.isfunction(raw) and not inspect.isasyncgenfunction(raw) and not inspect.isgeneratorfunction(raw):
        wrapper = timed(raw, key, kind)
        _set(patches, owner, name, wrapper)
        if not inspect.isclass(owner):
            _rebind_imports(patches, raw, wrapper)
    else:
        patches.absent.append(f"{target} (not a plain function)")
        return
    patches.probed.append(target)


def wrap_resolvers(patches: Patches) -> None:
    """The operation's function, as the resolver hands it to the framework, wrapped as the handler row."""
    for target in RESOLVERS:
        found = _resolve(target)
        if found is None or not inspect.isfunction(found[2]):
            patches.absent.append(target)
            continue
        owner, name, original = found

        def resolving(self: Any, operation_id: str, _original: Any = original) -> Any:
            fn = _original(self, operation_id)
            if callable(fn) and not getattr(fn, "__layers_timed__", False):
                return timed(fn, HANDLER_KEY, "handler")
            return fn

        _set(patches, owner, name, resolving)
        patches.probed.append(target)


# -- layers ----------------------------------------------------------------------------------------

def _asgi_signature(fn: Any, bound: bool) -> bool:
    try:
        names = list(inspect.signature(fn).parameters)
    except (TypeError, ValueError):
        return False
    if bound and names and names[0] == "self":
        names = names[1:]
    return tuple(names[:3]) == ASGI_PARAMS and len(names) == 3


def _is_layer_object(value: Any) -> bool:
    call = vars(type(value)).get("__call__") or next(
        (vars(c)["__call__"] for c in type(value).__mro__ if "__call__" in vars(c)), None)
    return (not inspect.isclass(value) and not inspect.isroutine(value) and call is not None
            and inspect.isfunction(call) and _asgi_signature(call, bound=True))


def _is_layer_function(value: Any) -> bool:
    return inspect.isfunction(value) and _asgi_signature(value, bound=False)


def _walkable(value: Any) -> bool:
    module = type(value).__module__ or ""
    return module.startswith(WALKED_PACKAGES) and hasattr(value, "__dict__") and not inspect.isclass(value)


@dataclass
class Found:
    objects: list[tuple[Any, str]]  # (layer, where it was found: "Parent.attr")
    functions: list[tuple[Any, str | int, Any, str]]  # (container, key, function, where)


def _entries(current: Any, where: str) -> list[tuple[Any, str | int, Any, str]]:
    """(container, key, value, where) of what ``current`` holds; a tuple's container is None (read-only)."""
    if isinstance(current, dict):
        return [(current, k, v, where) for k, v in current.items()]
    if isinstance(current, list):
        return [(current, i, v, where) for i, v in enumerate(current)]
    if isinstance(current, tuple):
        return [(None, i, v, where) for i, v in enumerate(current)]
    if hasattr(current, "__dict__"):
        return [(current, k, v, f"{type(current).__name__}.{k}") for k, v in vars(current).items()]
    return []


def discover(app: Any) -> Found:
    """Every ASGI layer reachable from ``app``, breadth first (outermost first)."""
    seen: set[int] = {id(app)}
    objects: list[tuple[Any, str]] = [(app, "app")] if _is_layer_object(app) else []
    functions: list[tuple[Any, str | int, Any, str]] = []
    queue: list[tuple[Any, str]] = [(app, type(app).__name__)]
    visited = 0
    while queue and visited < MAX_WALK:
        current, where = queue.pop(0)
        visited += 1
        for container, key, value, place in _entries(current, where):
            if isinstance(value, (str, bytes, int, float, bool)) or value is None or id(value) in seen:
                continue
            seen.add(id(value))
            if _is_layer_function(value) and container is not None:
                functions.append((container, key, value, place))
            elif _is_layer_object(value):
                objects.append((value, place))
                queue.append((value, type(value).__name__))
            elif isinstance(value, (dict, list, tuple)) or _walkable(value):
                queue.append((value, place))
    return Found(objects, functions)


def _kind_of(name: str) -> str:
    lowered = name.lower()
    for word, kind in (("rout", "router"), ("mount", "router"), ("security", "security"),
                       ("validation", "validation")):
        if word in lowered:
            return kind
    return "layer"


def time_layers(patches: Patches, found: Found) -> list[str]:
    """Wrap every layer found; returns the labels, outermost first."""
    by_class: dict[type, list[tuple[Any, str]]] = {}
    for obj, where in found.objects:
        by_class.setdefault(type(obj), []).append((obj, where))
    labels: dict[int, str] = {}
    for cls, instances in by_class.items():
        name = f"{cls.__module__.split('.')[0]}.{cls.__qualname__}"
        if len(instances) == 1:
            labels[id(instances[0][0])] = name
        elif len(instances) <= MANY_INSTANCES:
            for obj, where in instances:
                labels[id(obj)] = f"{name} (in {where})"
        else:
            for obj, _ in instances:
                labels[id(obj)] = f"{name} (x{len(instances)}, one per route or operation)"
        _wrap_class(patches, cls, name, labels)
    _wrap_functions(patches, found)
    return sorted(set(labels.values()))


def _wrap_class(patches: Patches, cls: type, name: str, labels: dict[int, str]) -> None:
    """The class's ``__call__``, timed under its instance's label."""
    original = vars(cls).get("__call__") or next(vars(c)["__call__"] for c in cls.__mro__ if "__call__" in vars(c))
    kind = _kind_of(cls.__qualname__)

    async def call(self: Any, scope: Any, receive: Any, send: Any) -> None:
        if not REC.enabled:
            await original(self, scope, receive, send)
            return
        entered = REC.enter(labels.get(id(self), name), kind, id(self))
        shadow = REC.enter(SHADOW, "shadow", 0) if REC.double else None
        try:
            await original(self, scope, receive, send)
        finally:
            REC.exit(shadow)
            REC.exit(entered)

    _set(patches, cls, "__call__", call)


def _wrap_functions(patches: Patches, found: Found) -> None:
    """Plain functions in a layer's place (Starlette's per-route app), replaced by timed ones."""
    for container, key, fn, where in found.functions:
        label = f"{fn.__module__.split('.')[0]}.{fn.__qualname__} (in {where})"
        counted = sum(1 for _, _, f, _ in found.functions if f.__qualname__ == fn.__qualname__)
        if counted > MANY_INSTANCES:
            label = f"{fn.__module__.split('.')[0]}.{fn.__qualname__} (x{counted}, one per route)"
        wrapper = timed_async(fn, label, _kind_of(fn.__qualname__))
        if isinstance(container, list):
            index = int(key)
            container[index] = wrapper
            patches.undo.append(functools.partial(container.__setitem__, index, fn))
        elif isinstance(container, dict):
            container[key] = wrapper
            patches.undo.append(functools.partial(container.__setitem__, key, fn))
        else:
            _set(patches, container, str(key), wrapper)


@contextlib.contextmanager
def loop_hooks(loop: asyncio.AbstractEventLoop) -> Iterator[None]:
    """Each ``add_reader`` is a wait for a peer's answer; each ``run_in_executor`` a hop to a thread;
    each callback that steps a task (``Handle._run``) adds its CPU to that task's clock."""
    add_reader, run_in_executor = loop.add_reader, loop.run_in_executor
    handle_run = asyncio.events.Handle._run

    def run_handle(handle: asyncio.Handle) -> None:
        task = getattr(handle._callback, "__self__", None)  # type: ignore[attr-defined]
        if REC.tracking and isinstance(task, asyncio.Task):
            REC.step(task, functools.partial(handle_run, handle))
        else:
            handle_run(handle)

    def counted_reader(*args: Any) -> Any:
        if REC.enabled:
            if REC.in_request():
                REC.read_waits += 1
            else:
                REC.other_read_waits += 1
        return add_reader(*args)

    def counted_hop(*args: Any) -> Any:
        if REC.enabled:
            if REC.in_request():
                REC.hops += 1
            else:
                REC.other_hops += 1
        return run_in_executor(*args)

    setattr(loop, "add_reader", counted_reader)  # noqa: B010  # an instance attribute, over the method
    setattr(loop, "run_in_executor", counted_hop)  # noqa: B010
    setattr(asyncio.events.Handle, "_run", run_handle)  # noqa: B010
    try:
        yield
    finally:
        setattr(asyncio.events.Handle, "_run", handle_run)  # noqa: B010
        delattr(loop, "add_reader")
        delattr(loop, "run_in_executor")


# -- driving the app -------------------------------------------------------------------------------

def scope_of(call: Call) -> tuple[dict[str, Any], bytes]:
    path, _, query = call.path.partition("?")
    body = (call.body or "").encode()
    headers = [(b"host", b"bench.local"), *((k.lower().encode("latin-1"), v.encode("latin-1"))
                                             for k, v in call.headers.items())]
    if call.body is not None:
        headers.append((b"content-length", str(len(body)).encode()))
    return {"type": "http", "asgi": {"version": "3.0", "spec_version": "2.4"}, "http_version": "1.1",
            "method": call.method, "scheme": "http", "path": unquote(path), "raw_path": path.encode(),
            "query_string": query.encode(), "root_path": "", "headers": headers,
            "client": ("127.0.0.1", 40000), "server": ("127.0.0.1", 8000), "state": {}}, body


@dataclass
class Answer:
    status: int = 0
    body: bytearray = field(default_factory=bytearray)


async def request(app: Any, call: Call) -> Answer:
    scope, body = scope_of(call)
    answer = Answer()
    sent = False

    async def receive() -> dict[str, Any]:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            answer.status = message["status"]
        elif message["type"] == "http.response.body":
            answer.body += message.get("body", b"")

    await app(scope, receive, send)
    return answer


@contextlib.asynccontextmanager
async def lifespan(app: Any) -> Any:
    """The app's lifespan, started and, at the end, shut down (as uvicorn does)."""
    inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    started, stopped = asyncio.Event(), asyncio.Event()
    failed: list[str] = []

    async def receive() -> dict[str, Any]:
        return await inbox.get()

    async def send(message: dict[str, Any]) -> None:
        if message["type"].endswith(".failed"):
            failed.append(str(message.get("message")))
        (started if message["type"].startswith("lifespan.startup") else stopped).set()

    task = asyncio.get_running_loop().create_task(
        app({"type": "lifespan", "asgi": {"version": "3.0", "spec_version": "2.0"}, "state": {}}, receive, send))
    await inbox.put({"type": "lifespan.startup"})
    await started.wait()
    if failed:
        raise RuntimeError(f"lifespan startup failed: {failed}")
    try:
        yield
    finally:
        await inbox.put({"type": "lifespan.shutdown"})
        await asyncio.wait_for(stopped.wait(), 30)
        await task


class Variants:
    """The suite's request variants of an endpoint, rotated, a unique key in every write."""

    def __init__(self, calls: list[Call]) -> None:
        self.calls, self.at = calls, 0

    def next(self) -> Call:
        call = self.calls[self.at % len(self.calls)]
        self.at += 1
        return call.with_key(f"lay{uuid.uuid4().hex[:20]}")


@dataclass
class Totals:
    """The app call per request, on the driver's clocks."""

    requests: int
    cpu_us: float  # mean
    wall_us: float  # mean
    wall_p50_us: float
    problems: list[str]
    task_cpu_us: float = 0.0  # recording: the request's task alone (its steps), mean
    block_cpu_us: list[float] = field(default_factory=list)  # the mean of each block combined


async def drive(app: Any, variants: Variants, count: int, record: bool) -> Totals:
    cpu = wall = task_cpu = 0
    walls: list[int] = []
    problems: list[str] = []
    me = asyncio.current_task()
    for _ in range(count):
        call = variants.next()
        if record:
            REC.request_task, REC.enabled = me, True
            await asyncio.sleep(0)  # the request then starts in a step whose CPU is on the task's clock
        t0, c0, w0 = REC.cpu_now(me), time.thread_time_ns(), time.perf_counter_ns()
        answer = await request(app, call)
        w1, c1, t1 = time.perf_counter_ns(), time.thread_time_ns(), REC.cpu_now(me)
        REC.enabled = False
        cpu += c1 - c0
        task_cpu += t1 - t0
        wall += w1 - w0
        walls.append(w1 - w0)
        if not 200 <= answer.status < 300 and len(problems) < 3:
            problems.append(f"{call.method} {call.path}: HTTP {answer.status} {bytes(answer.body[:300])!r}")
    return Totals(count, cpu / max(1, count) / 1000, wall / max(1, count) / 1000,
                  statistics.median(walls) / 1000 if walls else 0.0, problems,
                  task_cpu / max(1, count) / 1000 if record else 0.0)


# -- calibration -----------------------------------------------------------------------------------

@dataclass
class Overhead:
    """ns a timed call costs: inside its own row (``self_*``) and in its caller's (``parent_*``)."""

    self_cpu: float
    self_wall: float
    parent_cpu: float
    parent_wall: float
    idle_cpu: float  # a timed call while the recorder is off (the wrapper's call and test)
    step_cpu: float  # a task step (the hook that keeps the tasks' clocks, on with the timers idle too)


async def _noop() -> None:
    return None


_INNER = timed_async(_noop, "calibration.inner", "calibration")


async def _loop_empty(rounds: int) -> None:
    for _ in range(rounds):
        pass


async def _loop_plain(rounds: int) -> None:
    for _ in range(rounds):
        await _noop()


async def _loop_timed(rounds: int) -> None:
    for _ in range(rounds):
        await _INNER()


async def _idle_cost(rounds: int) -> float:
    """A timed call with the recorder off, less an untimed one."""
    c0 = time.thread_time_ns()
    await _loop_plain(rounds)
    c1 = time.thread_time_ns()
    await _loop_timed(rounds)
    return (time.thread_time_ns() - c1 - (c1 - c0)) / rounds


async def _recording_cost(rounds: int) -> tuple[float, float, float, float]:
    """(self CPU, self wall, parent CPU, parent wall) of a timed call, recording."""
    loops = [timed_async(fn, f"calibration.{fn.__name__}", "calibration")
             for fn in (_loop_empty, _loop_plain, _loop_timed)]
    REC.reset()
    REC.request_task, REC.enabled = asyncio.current_task(), True
    await asyncio.sleep(0)  # from here on in a step on the task's clock
    for fn in loops:
        await fn(rounds)
    REC.enabled = False
    own = {k.removeprefix("calibration."): stat for k, stat in REC.stats.items()}
    body_cpu = (own["_loop_plain"].cpu_ns - own["_loop_empty"].cpu_ns) / rounds
    body_wall = (own["_loop_plain"].wall_ns - own["_loop_empty"].wall_ns) / rounds
    return (own["inner"].cpu_ns / rounds - body_cpu, own["inner"].wall_ns / rounds - body_wall,
            (own["_loop_timed"].cpu_ns - own["_loop_plain"].cpu_ns) / rounds + body_cpu,
            (own["_loop_timed"].wall_ns - own["_loop_plain"].wall_ns) / rounds + body_wall)


async def _step_cost(rounds: int) -> float:
    """A task step with the step hook keeping the clocks, less one without."""
    spent = []
    for tracking in (False, True):
        REC.tracking = tracking
        await asyncio.sleep(0)
        c0 = time.thread_time_ns()
        for _ in range(rounds):
            await asyncio.sleep(0)
        spent.append((time.thread_time_ns() - c0) / rounds)
    REC.tracking = True
    return spent[1] - spent[0]


async def calibrate(rounds: int = 20_000, repeat: int = 7) -> Overhead:
    """The timers' costs, each the median of ``repeat`` measurements.

    Three timed loops of ``rounds``: empty, awaiting an untimed no-op, awaiting a timed no-op. The
    no-op's own cost (the body) comes from the first two; a timed call's cost inside its row is the
    timed no-op's own time less the body, and in its caller's row the difference of the last two
    loops' own times plus the body (which moved from the caller's row into the no-op's)."""
    idle = [await _idle_cost(rounds) for _ in range(repeat)]
    recording = [await _recording_cost(rounds) for _ in range(repeat)]
    steps = [await _step_cost(rounds // 10) for _ in range(repeat)]
    REC.reset()
    costs = [max(0.0, float(statistics.median(r[i] for r in recording))) for i in range(4)]
    return Overhead(costs[0], costs[1], costs[2], costs[3], max(0.0, float(statistics.median(idle))),
                    max(0.0, float(statistics.median(steps))))


# -- one backend -----------------------------------------------------------------------------------

@dataclass
class Row:
    key: str
    kind: str
    depth: int
    calls: float  # per request
    cpu_us: float  # own, per request, overhead subtracted
    wall_us: float
    incl_wall_us: float


@dataclass
class EndpointFigures:
    key: str
    label: str
    requests: int
    plain: Totals
    timed: Totals
    rows: list[Row]
    apart: list[Row]  # other tasks and threads, per request of this endpoint
    frames: float  # timed calls per request
    overhead_cpu_us: float
    overhead_wall_us: float
    idle_cpu_us: float
    steps: float  # the request task's steps per request
    step_cpu_us: float  # what the step hook cost, per request
    read_waits: float
    hops: float
    other_read_waits: float
    other_hops: float
    timer_ns_calibrated: float  # CPU of one timed call, in a tight loop
    timer_ns_in_place: float  # the same measured among the app's code (shadow frames); the rows use this

    @property
    def rows_cpu_us(self) -> float:
        return sum(r.cpu_us for r in self.rows)

    @property
    def rows_wall_us(self) -> float:
        return sum(r.wall_us for r in self.rows)


def frames_of(stats: dict[str, Stat]) -> float:
    """Timed calls in the request's task, over all the requests the stats hold."""
    return float(sum(s.calls for s in stats.values() if not s.key.startswith("[") and not s.key.endswith(SHADOW)))


def in_place(calibrated: Overhead, measured: float) -> Overhead:
    """The calibrated costs scaled to what a timed call costs in place (``measured``, ns: the thread's CPU
    per request with every timed call doubled, an empty shadow frame inside each, less that without,
    per timed call). A tight loop runs the timers' code hot; among the app's code it runs slower. The
    scale is kept between 1 (the calibration is the floor) and 5 (a noisy host can give anything)."""
    per_call = calibrated.self_cpu + calibrated.parent_cpu
    scale = min(5.0, max(1.0, measured / per_call)) if per_call else 1.0
    return Overhead(calibrated.self_cpu * scale, calibrated.self_wall * scale, calibrated.parent_cpu * scale,
                    calibrated.parent_wall * scale, calibrated.idle_cpu, calibrated.step_cpu)


def figures_of(spec_key: str, label: str, plain: Totals, timed_totals: Totals, calibrated: Overhead,
               measured: float) -> EndpointFigures:
    requests = timed_totals.requests
    per = max(1, requests)
    rows: list[Row] = []
    apart: list[Row] = []
    frames = frames_of(REC.stats)
    cost = in_place(calibrated, measured)
    for stat in sorted(REC.stats.values(), key=lambda s: s.order):
        if stat.key.endswith(SHADOW):  # a shadow frame of another task, open when a doubled block ended
            continue
        own_cpu = stat.cpu_ns - stat.calls * cost.self_cpu - stat.children * cost.parent_cpu
        own_wall = stat.wall_ns - stat.calls * cost.self_wall - stat.children * cost.parent_wall
        row = Row(stat.key, stat.kind, stat.depth, stat.calls / per, own_cpu / per / 1000, own_wall / per / 1000,
                  stat.incl_wall_ns / per / 1000)
        (apart if stat.key.startswith("[") else rows).append(row)
    overhead_cpu = frames * (cost.self_cpu + cost.parent_cpu) / per / 1000
    overhead_wall = frames * (cost.self_wall + cost.parent_wall) / per / 1000
    return EndpointFigures(spec_key, label, requests, plain, timed_totals, rows, apart, frames / per, overhead_cpu,
                           overhead_wall, frames * cost.idle_cpu / per / 1000, REC.request_steps / per,
                           REC.request_steps * cost.step_cpu / per / 1000, REC.read_waits / per, REC.hops / per,
                           REC.other_read_waits / per, REC.other_hops / per,
                           calibrated.self_cpu + calibrated.parent_cpu, measured)


def build_app(env: dict[str, str]) -> Any:
    settings = load_settings(env)
    app = create_app(settings, workers=0)
    tune_gc()
    return app


async def run_block(app: Any, variants: Variants, count: int, mode: str) -> Totals:
    """``count`` requests: ``idle`` (recorder off), ``timed`` (into the stats), ``doubled`` (every timed
    call with a shadow frame, its stats thrown away: only its CPU total is used)."""
    if mode != "doubled":
        return await drive(app, variants, count, record=mode == "timed")
    saved = REC.save()
    REC.reset()
    REC.double = True
    try:
        return await drive(app, variants, count, record=True)
    finally:
        REC.double = False
        REC.restore(saved)


def combined(blocks: list[Totals]) -> Totals:
    count = sum(b.requests for b in blocks)
    return Totals(count, sum(b.cpu_us * b.requests for b in blocks) / max(1, count),
                  sum(b.wall_us * b.requests for b in blocks) / max(1, count),
                  statistics.median(b.wall_p50_us for b in blocks), [p for b in blocks for p in b.problems][:3],
                  sum(b.task_cpu_us * b.requests for b in blocks) / max(1, count), [b.cpu_us for b in blocks])


async def measure(env: dict[str, str], specs: list[endpoints.Spec], fx: endpoints.Fixture, warmup: int,
                  requests: int, rounds: int = 20_000) -> tuple[list[EndpointFigures], list[str], list[str], Overhead]:
    """The timed app: per endpoint, a warm-up, then blocks with the timers recording and idle in ABBA
    order (idle, recording, recording, idle), so the host's drift falls on both alike. Returns the
    figures of every endpoint, the layers' rows and the absent probes."""
    loop = asyncio.get_running_loop()
    patches = Patches()
    try:
        for kind, target in PROBES:
            probe(patches, kind, target)
        wrap_resolvers(patches)
        app = build_app(env)
        out: list[EndpointFigures] = []
        with loop_hooks(loop):
            async with lifespan(app):
                found = discover(app)
                layers = time_layers(patches, found)
                log(f"{len(found.objects)} layer objects ({len(layers)} rows) and {len(found.functions)} per-route "
                    f"functions timed; {len(patches.probed)} probes, {len(patches.absent)} absent")
                cost = await calibrate(rounds)
                log(f"timer cost per timed call: {cost.self_cpu + cost.parent_cpu:,.0f} ns CPU, "
                    f"{cost.self_wall + cost.parent_wall:,.0f} ns wall recording; {cost.idle_cpu:,.0f} ns CPU idle")
                pending = []
                for spec in specs:
                    variants = Variants(endpoints.calls_for(spec, fx))
                    await drive(app, variants, warmup, record=False)
                    REC.reset()
                    block = max(1, requests // BLOCKS)
                    blocks: dict[str, list[Totals]] = {"idle": [], "timed": [], "doubled": []}
                    for mode in ("idle", "timed", "doubled", "doubled", "timed", "idle") * (BLOCKS // 2):
                        blocks[mode].append(await run_block(app, variants, block, mode))
                    pending.append((spec, REC.save(), blocks))
                    log(f"{spec.key}: {combined(blocks['timed']).cpu_us:,.0f} us CPU per request recording, "
                        f"{combined(blocks['doubled']).cpu_us:,.0f} us with every timed call doubled, "
                        f"{combined(blocks['idle']).cpu_us:,.0f} us with the timers idle")
        # What a timed call costs in place: the median over every pair of adjacent blocks, timed and
        # doubled, of every endpoint (one pair alone moves with the host's noise).
        estimates = [(d.cpu_us - t.cpu_us) * 1000 / (frames_of(saved[0]) / combined(blocks["timed"]).requests)
                     for _, saved, blocks in pending if frames_of(saved[0])
                     for t, d in zip(blocks["timed"], blocks["doubled"], strict=True)]
        measured = float(statistics.median(estimates)) if estimates else 0.0
        for spec, saved, blocks in pending:
            REC.restore(saved)
            out.append(figures_of(spec.key, spec.label, combined(blocks["idle"]), combined(blocks["timed"]), cost,
                                  measured))
        return out, layers, patches.absent, cost
    finally:
        patches.restore()
        REC.reset()


# -- tables ----------------------------------------------------------------------------------------

def _us(value: float | None) -> str:
    return tables.fixed(value, 1)


def endpoint_lines(fig: EndpointFigures, backend: str) -> list[str]:
    total_cpu, total_wall = fig.timed.task_cpu_us - fig.overhead_cpu_us, fig.timed.wall_us - fig.overhead_wall_us
    rest_cpu, rest_wall = total_cpu - fig.rows_cpu_us, total_wall - fig.rows_wall_us
    rows: list[dict[str, Any]] = [
        {"name": " " * r.depth + r.key, "kind": r.kind, "calls": r.calls, "cpu": r.cpu_us, "wall": r.wall_us,
         "pct": 100 * r.cpu_us / total_cpu if total_cpu else None} for r in fig.rows]
    rows.append({"name": "(rest: the driver's gap around the app call)", "kind": "", "calls": None,
                 "cpu": rest_cpu, "wall": rest_wall, "pct": 100 * rest_cpu / total_cpu if total_cpu else None})
    rows.append({"name": "the request's task, timers subtracted", "kind": "", "calls": fig.frames,
                 "cpu": total_cpu, "wall": total_wall, "pct": 100.0})
    columns = [tables.Column("row (call order, indented by nesting)", "name", align="<"),
               tables.Column("kind", "kind", align="<"),
               tables.Column("calls/req", "calls", lambda v: tables.fixed(v, 2)),
               tables.Column("own CPU us", "cpu", _us), tables.Column("own wall us", "wall", _us),
               tables.Column("% CPU", "pct", tables.pct)]
    lines = [f"=== {backend}: {fig.label} ({fig.key}), {fig.requests:,} requests, one at a time ==="]
    lines += tables.render(columns, rows)
    loop_cpu = fig.timed.cpu_us - fig.timed.task_cpu_us - fig.step_cpu_us
    recorded = fig.timed.cpu_us - fig.overhead_cpu_us
    off = fig.plain
    off_cpu = off.cpu_us - fig.idle_cpu_us
    gap = 100 * (recorded - off_cpu) / off_cpu if off_cpu else 0.0
    lines.append(f"beside the request's task, while it ran: {loop_cpu:,.1f} us CPU per request of the event loop "
                 f"(select, callbacks) and other tasks ({fig.steps:,.1f} steps of the request's task)")
    lines.append(f"timer cost per timed call: {fig.timer_ns_calibrated:,.0f} ns CPU in a tight loop, "
                 f"{fig.timer_ns_in_place:,.0f} ns in place (every call doubled, the median over all endpoints); "
                 f"the rows are corrected with "
                 f"{fig.overhead_cpu_us / fig.frames * 1000 if fig.frames else 0:,.0f} ns")
    lines.append(f"check: the thread's CPU recording, {fig.timed.cpu_us:,.1f} us less {fig.overhead_cpu_us:,.1f} us "
                 f"for {fig.frames:,.1f} timed calls = {recorded:,.1f} us; with the timers idle (ABBA blocks beside "
                 f"it), {off.cpu_us:,.1f} us less "
                 f"{fig.idle_cpu_us:,.1f} us for the idle wrappers = {off_cpu:,.1f} us: {gap:+.1f}% apart; wall "
                 f"idle: mean {off.wall_us:,.1f} us, p50 {off.wall_p50_us:,.1f} us (the task-step hook, on in both, "
                 f"{fig.step_cpu_us:,.1f} us)")
    if off.block_cpu_us and fig.timed.block_cpu_us:
        lines.append(f"the host's noise: the thread's CPU per request of each block ranged {min(off.block_cpu_us):,.0f}"
                     f"-{max(off.block_cpu_us):,.0f} us idle, {min(fig.timed.block_cpu_us):,.0f}-"
                     f"{max(fig.timed.block_cpu_us):,.0f} us recording")
    lines.append(f"round trips per request: {fig.read_waits:,.2f} socket waits for a reply, {fig.hops:,.2f} hops "
                 "to a thread (a driver row's wall includes the database's time)")
    if fig.apart:
        lines.append("outside the request's task, per request (other tasks, threads; not in the rows above):")
        lines += ["  " + " | ".join((r.key, f"{r.calls:,.2f} calls", f"{r.cpu_us:,.1f} us CPU",
                                     f"{r.wall_us:,.1f} us wall")) for r in fig.apart]
        if fig.other_read_waits or fig.other_hops:
            lines.append(f"  {fig.other_read_waits:,.2f} socket waits, {fig.other_hops:,.2f} thread hops per request")
    return lines


KINDS = ("layer", "router", "security", "validation", "handler", "service", "storage", "driver", "json", "log",
         "metrics")


def summary_lines(figs: list[EndpointFigures], backend: str) -> list[str]:
    rows = []
    for fig in figs:
        by_kind = {kind: sum(r.cpu_us for r in fig.rows if r.kind == kind) for kind in KINDS}
        driver_wall = sum(r.wall_us for r in fig.rows if r.kind == "driver")
        rows.append({"endpoint": fig.key, "total": fig.timed.task_cpu_us - fig.overhead_cpu_us,
                     "loop": fig.timed.cpu_us - fig.timed.task_cpu_us - fig.step_cpu_us,
                     "off": fig.plain.cpu_us - fig.idle_cpu_us,
                     **by_kind, "driver_wall": driver_wall, "trips": fig.read_waits + fig.hops})
    columns: list[tables.Column | str] = [
        tables.Column("endpoint", "endpoint", align="<"), tables.Column("task CPU us", "total", _us),
        tables.Column("+ loop", "loop", _us), tables.Column("thread, timers idle", "off", _us), tables.SEP,
        *(tables.Column(kind, kind, _us) for kind in KINDS), tables.SEP,
        tables.Column("driver wall", "driver_wall", _us), tables.Column("trips", "trips", lambda v: tables.fixed(v, 1))]
    return [f"=== {backend}: own CPU us per request by kind (task CPU: the request's task; + loop: the event loop "
            "and other tasks meanwhile; layer: the middlewares' own code; driver wall includes the database) ===",
            *tables.render(columns, rows)]


# -- the run ---------------------------------------------------------------------------------------

@dataclass
class BackendRun:
    backend: str
    figures: list[EndpointFigures]
    layers: list[str]
    absent: list[str]
    overhead: Overhead
    lines: list[str]
    problems: list[str]


def run_backend(backend: str, only: list[str], requests: int, records: int = 2000, warmup: int | None = None,
                rounds: int = 20_000,
                log_level: str = "WARNING") -> BackendRun:
    specs = [endpoints.BY_KEY[key] for key in only]
    warm = warmup if warmup is not None else max(20, requests // 10)
    with fresh(backend, f"layers-{backend}", TESSERA_LOG_LEVEL=log_level) as ws:
        fx = endpoints.setup(ws.env, records)
        settings = load_settings(ws.env)
        configure_logging(settings.log_level, settings.log_json)
        if logging.getLevelNamesMapping().get(settings.log_level.upper(), logging.WARNING) < logging.WARNING:
            _quiet_log_writer()
        figs, layers, absent, cost = asyncio.run(measure(ws.env, specs, fx, warm, requests, rounds))
    problems = [f"{backend} {f.key}: {p}" for f in figs for p in [*f.plain.problems, *f.timed.problems]]
    lines: list[str] = []
    for fig in figs:
        lines += [*endpoint_lines(fig, backend), ""]
    lines += summary_lines(figs, backend)
    if absent:
        lines.append("absent probes (no longer in the code): " + ", ".join(absent))
    return BackendRun(backend, figs, layers, absent, cost, lines, problems)


def _quiet_log_writer() -> None:
    """At INFO the access lines are written (by the log writer's thread) to /dev/null, not over the tables."""
    from tessera.core import logs
    writer = getattr(logs, "_writer", None)
    handler = getattr(writer, "_handler", None)
    if isinstance(handler, logging.StreamHandler):
        handler.setStream(open(os.devnull, "w"))  # noqa: SIM115  # for the life of the process


def layer_tables(backend: str, only: list[str], requests: int, records: int = 2000) -> list[str]:
    """The printable tables of one backend (``suite.py --layers``): a run of its own, a fresh database."""
    run = run_backend(backend, only, requests, records)
    return [*run.lines, *(f"FAILED: {p}" for p in run.problems)]


def report_of(run: BackendRun) -> dict[str, Any]:
    return {"backend": run.backend, "overhead_ns": asdict(run.overhead), "layers": run.layers, "absent": run.absent,
            "problems": run.problems,
            "endpoints": {f.key: {"label": f.label, "requests": f.requests, "timers_idle": asdict(f.plain),
                                  "timed": asdict(f.timed), "frames": f.frames, "overhead_cpu_us": f.overhead_cpu_us,
                                  "overhead_wall_us": f.overhead_wall_us, "idle_cpu_us": f.idle_cpu_us,
                                  "steps": f.steps, "step_cpu_us": f.step_cpu_us,
                                  "timer_ns_calibrated": f.timer_ns_calibrated,
                                  "timer_ns_in_place": f.timer_ns_in_place,
                                  "read_waits": f.read_waits,
                                  "thread_hops": f.hops, "rows": [asdict(r) for r in f.rows],
                                  "apart": [asdict(r) for r in f.apart]} for f in run.figures}}


def compare(before_path: Path, after_path: Path) -> list[str]:
    """Two ``--json`` reports side by side: each endpoint's rows (by key) and totals."""
    before, after = (json.loads(p.read_text()) for p in (before_path, after_path))
    lines = [f"=== before: {before_path} ({before.get('finished_at', '?')}); after: {after_path} "
             f"({after.get('finished_at', '?')}) ==="]
    for key in [k for k in before["endpoints"] if k in after["endpoints"]]:
        a, b = before["endpoints"][key], after["endpoints"][key]
        rows_a = {r["key"]: r for r in a["rows"]}
        rows_b = {r["key"]: r for r in b["rows"]}
        keys = list(rows_a) + [k for k in rows_b if k not in rows_a]
        rows = [{"name": k, "calls_a": rows_a.get(k, {}).get("calls"), "calls_b": rows_b.get(k, {}).get("calls"),
                 "a": rows_a.get(k, {}).get("cpu_us"), "b": rows_b.get(k, {}).get("cpu_us")} for k in keys]
        total_a = a["timed"]["task_cpu_us"] - a["overhead_cpu_us"]
        total_b = b["timed"]["task_cpu_us"] - b["overhead_cpu_us"]
        rows.append({"name": "the request's task, timers subtracted", "calls_a": a["frames"], "calls_b": b["frames"],
                     "a": total_a, "b": total_b})
        rows.append({"name": "total, timers idle", "a": a["timers_idle"]["cpu_us"], "b": b["timers_idle"]["cpu_us"]})
        rows.append({"name": "wall us, timers idle (mean)", "a": a["timers_idle"]["wall_us"],
                     "b": b["timers_idle"]["wall_us"]})
        columns = [tables.Column("row", "name", align="<"),
                   tables.Column("calls before", "calls_a", lambda v: tables.fixed(v, 2)),
                   tables.Column("calls after", "calls_b", lambda v: tables.fixed(v, 2)),
                   tables.Column("CPU us before", "a", _us), tables.Column("CPU us after", "b", _us),
                   tables.Column("change", lambda r: None if r.get("a") is None or r.get("b") is None
                                 else r["b"] - r["a"], lambda v: "-" if v is None else f"{v:+,.1f}")]
        lines += ["", f"--- {key} ---", *tables.render(columns, rows)]
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--backend", choices=[*BACKENDS, "both"], default="both")
    parser.add_argument("--requests", type=int, default=2000, help="measured requests per endpoint (default 2000)")
    parser.add_argument("--warmup", type=int, default=None, help="requests before each measured run "
                        "(default a tenth of --requests, at least 20)")
    parser.add_argument("--records", type=int, default=2000, help="assets of the tenant (default 2000)")
    parser.add_argument("--only", default=",".join(DEFAULT_ONLY), help="endpoints, comma separated: "
                        + ", ".join(endpoints.BY_KEY))
    parser.add_argument("--log-level", default="WARNING", help="TESSERA_LOG_LEVEL (default WARNING, as the "
                        "suite's servers; INFO writes the access line of every request)")
    parser.add_argument("--calibration-rounds", type=int, default=20_000, help="timed calls per calibration "
                        "loop (default 20000)")
    parser.add_argument("--json", action="store_true", help="write benchmarks/results/layers-<backend>.json")
    parser.add_argument("--compare", nargs=2, type=Path, metavar=("BEFORE", "AFTER"),
                        help="print two --json reports side by side and exit")
    args = parser.parse_args()
    if args.compare:
        for line in compare(*args.compare):
            log(line)
        return 0
    only = [k.strip() for k in args.only.split(",") if k.strip()]
    unknown = [k for k in only if k not in endpoints.BY_KEY]
    if unknown or not only:
        parser.error(f"unknown --only keys {unknown}; choose from {', '.join(endpoints.BY_KEY)}")
    if args.requests < 1 or args.records < 1 or args.calibration_rounds < 10:
        parser.error("--requests and --records must be positive, --calibration-rounds at least 10")
    started = time.perf_counter()
    failures: list[str] = []
    for backend in BACKENDS if args.backend == "both" else [args.backend]:
        log(f"--- {backend} ---")
        run = run_backend(backend, only, args.requests, args.records, args.warmup, args.calibration_rounds,
                          args.log_level)
        for line in run.lines:
            log(line)
        failures += run.problems
        if args.json:
            results.write(f"layers-{backend}", args, {"versions": results.versions(), **report_of(run)}, run.lines,
                          RESULTS_DIR / f"layers-{backend}.json")
    return results.finish(failures, started)


if __name__ == "__main__":
    sys.exit(main())
