"""Scale-out, measured: two API processes and two delivery workers on one PostgreSQL, Redis for the
rate limits, as the README's "Scaling out" runs them; one command.

    .venv/bin/python benchmarks/scaleout.py [--records 20000] [--duration 10] [--connections 16]
        [--delivery-seconds 15]

Needs ``wrk``, PostgreSQL at ``TESSERA_TEST_PG_URL`` (a fresh database is made and dropped next to it)
and Redis at ``TESSERA_REDIS_URL`` (default ``redis://127.0.0.1:6379/0``; the rate-limit keys carry a
prefix unique to the run).

Every API process is the real service (``benchmarks/_serve.py``) and every worker the real ``tessera
worker --threads 1``, all with one ``TESSERA_SECRET_KEY``, ``TESSERA_WORKERS_IN_PROCESS=false`` and
``TESSERA_REDIS_URL``. The fixture is the suite's (``suite.setup``). Four parts, each with a check:

1. **Throughput grows with processes.** whoami, read by pid and command execute, with one API process
   (one wrk, ``--connections``) and with two (two wrk processes at once, one per API process, half the
   connections each; requests per second summed), in ABBA order (1, 2, 2, 1), medians. Nothing is
   pinned: two processes need both cores, which wrk and PostgreSQL share on a 2-core host, so the
   host's busy share is printed beside each figure. Rate limits are out of reach but still counted in
   Redis on every request. Any non-2xx answer or socket error fails the row.
2. **Rate limits hold across processes.** Two more API processes with the documented default read
   limit (100 a minute per tenant and user). One user sends 110 session reads alternating between them:
   exactly the first 100 must be 200, the rest 429 ``RATE_LIMITED``, and both processes must have
   refused some. A minute window that turns during the burst is detected and the burst retried once.
3. **Idempotency holds across processes.** 40 ``Idempotency-Key`` values, each sent at the same moment
   to both API processes with the same body: exactly one stock-in per key, and each pair of answers is
   one success plus the same success replayed, or one success plus 409 ``idempotency_in_progress``.
   The claim is a database row taken with a unique constraint, so no Redis lock is involved.
4. **Deliveries through the whole topology.** A receiver (``_webhook_peers.py receive``), one endpoint
   subscribed to ``inventory.stock-in.created``, two workers; wrk drives the command through both API
   processes for ``--delivery-seconds``; then every event must be delivered: the receiver got each
   ``X-Webhook-Delivery`` exactly once, the count equals the events, every delivery is ``delivered``
   with exactly one attempt, nothing is pending, retrying or dead, and each worker made some of the
   attempts (counted from their ``webhook.attempt`` log lines). Deliveries per second and the
   event-to-delivery p50/p95/p99 (receiver time minus the outbox row's ``occurred_at``) are printed.

Exit status 1 when a check fails. Results go to ``benchmarks/results/scaleout.json`` and ``.txt``.
"""

from __future__ import annotations

import argparse
import json
import secrets
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import _seed
import httpx
import psycopg
import session_list as common
import suite
import webhooks

from storage.migrate import upgrade
from tessera.runtime import build_runtime
from tessera.services import webhook_admin
from tessera.services.actors import resolve_actor
from tessera.settings import PROJECT_ROOT, load_settings

log = _seed.log

REDIS_URL = "redis://127.0.0.1:6379/0"
THROUGHPUT_KEYS = ("whoami", "read", "command")
READ_LIMIT = 100
BURST = 110
IDEMPOTENCY_KEYS = 40
EVENT = "inventory.stock-in.created"


def host_busy_pct(before: tuple[float, float] | None, after: tuple[float, float] | None) -> float | None:
    if before is None or after is None or after[1] <= before[1]:
        return None
    return round((after[0] - before[0]) / (after[1] - before[1]) * 100, 1)


def wrk_parallel(targets: list[tuple[str, int]], requests_file: Path, tag: str, seconds: int) -> list[suite.WrkRun]:
    """One wrk per (base URL, connections), all at once, none pinned."""
    results: list[suite.WrkRun | BaseException] = [RuntimeError("wrk did not run")] * len(targets)
    unpinned = suite.Pinning(None, None)

    def run(index: int, base_url: str, connections: int) -> None:
        try:
            results[index] = suite.run_wrk(
                base_url,
                requests_file,
                f"{tag}-{index}",
                seconds,
                argparse.Namespace(threads=1, connections=connections),
                unpinned,
            )
        except BaseException as exc:  # reported below, with the others' results
            results[index] = exc

    threads = [threading.Thread(target=run, args=(i, url, c)) for i, (url, c) in enumerate(targets)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for result in results:
        if isinstance(result, BaseException):
            raise RuntimeError(f"wrk failed: {result}")
    return [r for r in results if isinstance(r, suite.WrkRun)]


def throughput(
    fx: suite.Fixture, api: list[common.Server], tmp: Path, args: argparse.Namespace, failures: list[str]
) -> list[dict[str, Any]]:
    """Part 1: one process against two, per endpoint, ABBA."""
    rows = []
    for key in THROUGHPUT_KEYS:
        spec = next(s for s in suite.SPECS if s.key == key)
        requests_file = tmp / f"scaleout-{key}.lua"
        suite.write_requests(requests_file, suite.calls_for(spec, fx))
        log(f"\n[throughput] {spec.label}: {spec.request}")
        wrk_parallel([(api[0].base_url, args.connections)], requests_file, f"warm-{key}", 2)
        runs: dict[int, list[dict[str, Any]]] = {1: [], 2: []}
        for number, processes in enumerate((1, 2, 2, 1), 1):
            half = args.connections // processes
            targets = [(server.base_url, half) for server in api[:processes]]
            before = common.host_cpu_seconds()
            api_before = [common.process_cpu_seconds(server.process.pid) or 0.0 for server in api]
            wall = time.monotonic()
            results = wrk_parallel(targets, requests_file, f"{key}{number}", args.duration)
            busy = host_busy_pct(before, common.host_cpu_seconds())
            wall = time.monotonic() - wall
            api_cpu = [
                round(((common.process_cpu_seconds(server.process.pid) or 0.0) - start) / wall * 100, 1)
                for server, start in zip(api, api_before, strict=True)
            ]
            ok = sum(r.ok for r in results)
            bad = sum(r.not_ok for r in results) + sum(sum(r.socket_errors.values()) for r in results)
            rps = sum(r.rps for r in results)
            p99 = max(r.p99_ms for r in results)
            runs[processes].append(
                {
                    "rps": round(rps, 1),
                    "p50_ms": round(statistics.median(r.p50_ms for r in results), 1),
                    "p99_ms": round(p99, 1),
                    "host_busy_pct": busy,
                    "api_cpu_pct": api_cpu,
                    "ok": ok,
                    "bad": bad,
                }
            )
            log(
                f"  run {number}/4 {processes} process(es): {rps:8.1f} req/s  p99 {p99:7.1f} ms  host busy "
                f"{busy}%, API processes' CPU {api_cpu} % of a core  ({ok:,} 2xx, {bad} other)"
            )
            if bad:
                failures.append(
                    f"throughput {spec.label}, {processes} process(es): {bad} non-2xx answers or socket "
                    f"errors, e.g. {[s for r in results for s in r.samples][:2]}"
                )
        one = statistics.median(r["rps"] for r in runs[1])
        two = statistics.median(r["rps"] for r in runs[2])
        row = {
            "endpoint": spec.label,
            "one_process_rps": one,
            "two_processes_rps": two,
            "growth": round(two / one, 2) if one else None,
            "host_busy_pct_one": statistics.median(r["host_busy_pct"] or 0 for r in runs[1]),
            "host_busy_pct_two": statistics.median(r["host_busy_pct"] or 0 for r in runs[2]),
            "api_cpu_pct_one": statistics.median(sum(r["api_cpu_pct"]) for r in runs[1]),
            "api_cpu_pct_two": statistics.median(sum(r["api_cpu_pct"]) for r in runs[2]),
            "runs": runs,
        }
        log(f"  => 1 process {one:.1f} req/s, 2 processes {two:.1f} req/s, x{row['growth']}")
        rows.append(row)
    return rows


def burst(limited: list[common.Server], jwt: str) -> tuple[list[tuple[int, int, str]], bool]:
    """BURST session reads alternating between the processes: (process index, status, code); and whether
    one minute window held them all."""
    window = int(time.time() // 60)
    answers = []
    with httpx.Client(timeout=30) as client:
        for n in range(BURST):
            index = n % len(limited)
            response = client.get(
                limited[index].base_url + "/api/dynamic/assets/list",
                params={"pageNum": 1, "pageSize": 1},
                headers={"Authorization": f"Bearer {jwt}"},
            )
            answers.append((index, response.status_code, str(response.json().get("code"))))
    return answers, int(time.time() // 60) == window


def rate_limits(fx: suite.Fixture, env: dict[str, str], tmp: Path, failures: list[str]) -> dict[str, Any]:
    """Part 2: the 101st read of a minute is refused whichever process answers."""
    log("\n[rate limits] two API processes with the default read limit (100 a minute per tenant and user)")
    limited_env = env | {"TESSERA_RATE_LIMIT_READ": str(READ_LIMIT)}
    limited = [common.start_server(f"limited-{i}", "_serve.py", limited_env, tmp) for i in range(2)]
    try:
        if 60 - time.time() % 60 < 15:  # a burst takes a few seconds; start it in a fresh window
            time.sleep(60 - time.time() % 60 + 0.5)
        answers, one_window = burst(limited, fx.jwt)
        if not one_window:
            log("  the minute window turned during the burst: once more, in the next window")
            time.sleep(60 - time.time() % 60 + 0.5)
            answers, one_window = burst(limited, fx.jwt)
    finally:
        for server in limited:
            server.stop()
    statuses = [status for _, status, _ in answers]
    refused_by = sorted({index for index, status, _ in answers if status == 429})
    served_by = sorted({index for index, status, _ in answers if status == 200})
    codes = Counter(code for _, status, code in answers if status == 429)
    held = (
        one_window
        and statuses[:READ_LIMIT] == [200] * READ_LIMIT
        and statuses[READ_LIMIT:] == [429] * (BURST - READ_LIMIT)
        and refused_by == [0, 1]
        and served_by == [0, 1]
        and set(codes) == {"RATE_LIMITED"}
    )
    first_refusal = statuses.index(429) + 1 if 429 in statuses else None
    log(
        f"  {BURST} reads alternating between 2 processes: {statuses.count(200)} answered 200, "
        f"{statuses.count(429)} answered 429 {dict(codes)}; first refusal at read {first_refusal}; "
        f"processes that refused: {refused_by}; {'held' if held else 'DID NOT HOLD'}"
    )
    if not held:
        failures.append(f"rate limit across processes did not hold: statuses {statuses}")
    return {
        "reads": BURST,
        "limit": READ_LIMIT,
        "ok": statuses.count(200),
        "refused": statuses.count(429),
        "first_refusal": first_refusal,
        "refused_by": refused_by,
        "codes": dict(codes),
        "held": held,
    }


def idempotency(fx: suite.Fixture, api: list[common.Server], database_url: str, failures: list[str]) -> dict[str, Any]:
    """Part 3: the same key at both processes at once makes one stock-in."""
    log(f"\n[idempotency] {IDEMPOTENCY_KEYS} keys, each sent to both API processes at the same moment")
    run = secrets.token_hex(4)
    outcomes: Counter[str] = Counter()
    pair_problems: list[str] = []

    def send(base_url: str, key: str, token: str, out: list[httpx.Response], start: threading.Event) -> None:
        body = {"input": {"sku": key, "quantity": 1, "warehouse": "north", "receivedAt": "2026-11-22T08:00:00Z"}}
        start.wait()
        out.append(
            httpx.post(
                f"{base_url}/api/open/v1/commands/{suite.COMMAND}:execute",
                json=body,
                timeout=30,
                headers={"Authorization": f"Bearer {token}", "Idempotency-Key": key},
            )
        )

    for n in range(IDEMPOTENCY_KEYS):
        key = f"scaleout-{run}-{n}"
        token = fx.tokens[n % len(fx.tokens)]
        start = threading.Event()
        answers: list[list[httpx.Response]] = [[], []]
        threads = [threading.Thread(target=send, args=(api[i].base_url, key, token, answers[i], start)) for i in (0, 1)]
        for thread in threads:
            thread.start()
        start.set()
        for thread in threads:
            thread.join()
        pair = sorted(
            (
                r.status_code,
                r.headers.get("Idempotent-Replayed") == "true",
                str(r.json().get("code", r.json().get("error", ""))),
            )
            for a in answers
            for r in a
        )
        statuses = [p[0] for p in pair]
        if statuses.count(200) == 2 and sum(p[1] for p in pair) == 1:
            outcomes["one run + one replay"] += 1
        elif statuses == [200, 409] and "idempotency_in_progress" in json.dumps(pair):
            outcomes["one run + 409 in progress"] += 1
        else:
            pair_problems.append(f"{key}: {pair}")
    with psycopg.connect(database_url) as conn:
        per_key = dict(
            conn.execute(
                "SELECT data->>'sku', count(*) FROM records WHERE model = 'stockIn' AND data->>'sku' LIKE %s "
                "GROUP BY 1",
                (f"scaleout-{run}-%",),
            ).fetchall()
        )
    wrong = {k: n for k, n in per_key.items() if n != 1}
    missing = IDEMPOTENCY_KEYS - len(per_key)
    held = not pair_problems and not wrong and missing == 0
    log(
        f"  answers: {dict(outcomes)}; stock-ins per key: {Counter(per_key.values())}; "
        f"{'held' if held else 'DID NOT HOLD'}"
    )
    if not held:
        failures.append(
            f"idempotency across processes: pairs {pair_problems[:3]}, keys with != 1 record {wrong}, "
            f"keys without a record {missing}"
        )
    return {
        "keys": IDEMPOTENCY_KEYS,
        "outcomes": dict(outcomes),
        "records_per_key": dict(Counter(per_key.values())),
        "held": held,
    }


def deliveries(
    fx: suite.Fixture,
    api: list[common.Server],
    workers: list[common.Server],
    env: dict[str, str],
    tmp: Path,
    database_url: str,
    args: argparse.Namespace,
    failures: list[str],
) -> dict[str, Any]:
    """Part 4: commands through both API processes, deliveries by both workers, each exactly once."""
    log(f"\n[deliveries] 2 API processes, 2 workers, a receiver; {EVENT} for {args.delivery_seconds} s of commands")
    with psycopg.connect(database_url, autocommit=True) as db:
        # The earlier parts' events had no endpoint to go to; the workers fan them out to nobody first.
        webhooks.wait_until_finished(db, 0, timeout=300)
    receiver = webhooks.Receiver(env, tmp)
    try:
        rt = build_runtime(load_settings(env))
        try:
            actor = resolve_actor(rt, fx.jwt, None)
            webhook_admin.create_endpoint(
                rt,
                actor,
                fx.installation_pid,
                {"url": receiver.server.base_url + "/hook/scaleout", "eventTypes": [EVENT]},
                "scaleout-setup",
            )
        finally:
            rt.close()
        with psycopg.connect(database_url, autocommit=True) as db:
            mark = webhooks.outbox_mark(db)
            received_mark = receiver.count()
            attempts_before = [attempt_lines(w) for w in workers]
            spec = next(s for s in suite.SPECS if s.key == "command")
            requests_file = tmp / "scaleout-deliveries.lua"
            suite.write_requests(requests_file, suite.calls_for(spec, fx))
            started = time.time()
            runs = wrk_parallel(
                [(s.base_url, args.connections // 2) for s in api], requests_file, "deliver", args.delivery_seconds
            )
            bad = sum(r.not_ok for r in runs) + sum(sum(r.socket_errors.values()) for r in runs)
            time.sleep(1)  # requests in flight when wrk stopped finish
            events = int(
                db.execute(
                    "SELECT count(*) FROM outbox_events WHERE id > %s AND event_type = %s", (mark, EVENT)
                ).fetchone()[0]
            )  # type: ignore[index]
            log(f"  {sum(r.ok for r in runs):,} commands answered 2xx ({bad} other); {events:,} events to deliver")
            got = webhooks.wait_for_requests(receiver, received_mark, events, "delivered", timeout=300)
            webhooks.wait_until_finished(db, mark, timeout=60)
            finished = max((r.at for r in receiver.entries(received_mark)), default=time.time())
            time.sleep(webhooks.SETTLE_SECONDS)
            received = receiver.entries(received_mark)
            rows, event_rows = webhooks.deliveries_since(db, mark)
    finally:
        receiver.stop()
    problems = [
        f"{w.name} died (exit {w.process.returncode}):\n{w.log_tail()}" for w in workers if w.process.poll() is not None
    ]
    per_worker = [attempt_lines(w) - before for w, before in zip(workers, attempts_before, strict=True)]
    by_delivery = Counter(r.headers.get("x-webhook-delivery", "") for r in received)
    duplicates = {k: n for k, n in by_delivery.items() if n > 1}
    statuses = Counter(r.status for r in rows)
    attempts = Counter(r.attempt_rows for r in rows)
    occurred = {r.pid: r.occurred_at for r in rows}
    latencies = sorted(
        (r.at - occurred[r.headers["x-webhook-delivery"]]) * 1000
        for r in received
        if r.headers.get("x-webhook-delivery") in occurred
    )
    seconds = finished - started
    result = {
        "commands_ok": sum(r.ok for r in runs),
        "events": events,
        "received": len(received),
        "distinct": len(by_delivery),
        "duplicates": len(duplicates),
        "delivery_statuses": dict(statuses),
        "attempts_per_delivery": dict(attempts),
        "attempts_per_worker": per_worker,
        "seconds": round(seconds, 1),
        "deliveries_per_second": round(len(by_delivery) / seconds, 1) if seconds > 0 else None,
        "event_to_delivery_ms": {
            "p50": round(common.percentile(latencies, 50), 1),
            "p95": round(common.percentile(latencies, 95), 1),
            "p99": round(common.percentile(latencies, 99), 1),
        }
        if latencies
        else None,
    }
    checks: list[tuple[bool, str]] = [
        (not bad, f"{bad} non-2xx answers or socket errors while driving commands"),
        (not problems, "; ".join(problems)),
        (got >= events and len(by_delivery) == events, f"{len(by_delivery)} of {events} events received"),
        (not duplicates, f"{len(duplicates)} deliveries received more than once, e.g. {list(duplicates.items())[:3]}"),
        (len(rows) == events and statuses == Counter({"delivered": events}), f"delivery statuses {dict(statuses)}"),
        (set(attempts) == {1}, f"attempts per delivery {dict(attempts)}"),
        (len(event_rows) == events, f"{len(event_rows)} outbox rows for {events} events"),
        (all(n > 0 for n in per_worker), f"attempts per worker {per_worker}: a worker did nothing"),
    ]
    for ok, message in checks:
        if not ok:
            failures.append(f"deliveries: {message}")
    log(
        f"  {len(by_delivery):,} of {events:,} delivered, {len(duplicates)} duplicates, statuses {dict(statuses)}, "
        f"attempts per delivery {dict(attempts)}, attempts per worker {per_worker}; "
        f"{result['deliveries_per_second']} deliveries/s; event-to-delivery {result['event_to_delivery_ms']} ms"
    )
    return result


def attempt_lines(worker: common.Server) -> int:
    """The worker's ``webhook.attempt`` log lines so far (it logs at INFO here)."""
    return worker.log_path.read_text(errors="replace").count('"webhook.attempt"')


def report_lines(report: dict[str, Any], failures: list[str]) -> list[str]:
    lines = [
        "=== Tessera scale-out: 2 API processes + 2 workers, one PostgreSQL, Redis rate limits ===",
        f"{report['records']:,} assets | wrk {report['duration']} s runs, {report['connections']} connections in all "
        "| nothing pinned (2 CPUs shared by the API processes, wrk and PostgreSQL)",
        f"{'endpoint':<16} | {'1 process req/s':>15} | {'2 processes req/s':>17} | {'growth':>6} | "
        "host busy 1 / 2 | API CPU 1 / 2",
        "-" * 96,
    ]
    for row in report["throughput"]:
        lines.append(
            f"{row['endpoint']:<16} | {row['one_process_rps']:>15,.1f} | {row['two_processes_rps']:>17,.1f} | "
            f"x{row['growth']:<5} | {row['host_busy_pct_one']}% / {row['host_busy_pct_two']}% | "
            f"{row['api_cpu_pct_one']:.0f}% / {row['api_cpu_pct_two']:.0f}% of a core"
        )
    rl = report["rate_limits"]
    lines.append(
        f"rate limit across processes: {rl['ok']} of {rl['reads']} reads answered 200, the rest 429 "
        f"{rl['codes']}, first refusal at read {rl['first_refusal']}, refused by processes {rl['refused_by']}: "
        f"{'held' if rl['held'] else 'DID NOT HOLD'}"
    )
    idem = report["idempotency"]
    lines.append(
        f"idempotency across processes: {idem['keys']} keys sent to both at once: {idem['outcomes']}, "
        f"stock-ins per key {idem['records_per_key']}: {'held' if idem['held'] else 'DID NOT HOLD'}"
    )
    d = report["deliveries"]
    lines.append(
        f"deliveries: {d['commands_ok']:,} commands via both processes -> {d['events']:,} events, "
        f"{d['distinct']:,} delivered, {d['duplicates']} duplicates, statuses {d['delivery_statuses']}, "
        f"attempts per delivery {d['attempts_per_delivery']}, attempts per worker {d['attempts_per_worker']}, "
        f"{d['deliveries_per_second']} deliveries/s, event-to-delivery ms {d['event_to_delivery_ms']}"
    )
    lines.append("result: " + ("PASS" if not failures else "FAIL"))
    lines += [f"  - {f}" for f in failures]
    return lines


def guarded(failures: list[str], label: str, step: Callable[[], dict[str, Any] | list[dict[str, Any]]]) -> Any:
    try:
        return step()
    except (RuntimeError, httpx.HTTPError, psycopg.Error) as exc:
        failures.append(f"{label}: aborted: {exc}")
        log(f"ABORTED {label}: {exc}")
        return {} if label != "throughput" else []


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--records", type=int, default=20_000, help="assets of the tenant (default 20000)")
    parser.add_argument("--duration", type=int, default=10, help="seconds per throughput run (default 10)")
    parser.add_argument("--connections", type=int, default=16, help="wrk connections in all (default 16)")
    parser.add_argument("--delivery-seconds", type=int, default=15, help="seconds of commands in part 4 (default 15)")
    args = parser.parse_args()
    started = time.perf_counter()
    failures: list[str] = []
    report: dict[str, Any] = {"records": args.records, "duration": args.duration, "connections": args.connections}
    with tempfile.TemporaryDirectory(prefix="tessera-scaleout-") as tmp_name:
        tmp = Path(tmp_name)
        backend = _seed.create_backend("postgresql", tmp)
        api: list[common.Server] = []
        workers: list[common.Server] = []
        try:
            log(f"database: {backend.label}")
            upgrade(backend.sqlalchemy_url)
            env = common.server_env(backend.url, secrets.token_urlsafe(48), tmp / "var", PROJECT_ROOT / "models.yaml")
            env |= {
                name: suite.UNLIMITED
                for name in (
                    "TESSERA_RATE_LIMIT_READ",
                    "TESSERA_RATE_LIMIT_WRITE",
                    "TESSERA_RATE_LIMIT_LOGIN",
                    "TESSERA_RATE_LIMIT_TOKEN",
                )
            }
            env |= {
                "TESSERA_REDIS_URL": REDIS_URL,
                "TESSERA_WORKERS_IN_PROCESS": "false",
                "TESSERA_WEBHOOK_ALLOW_LOOPBACK": "true",
            }
            fx = suite.setup(env, args.records)
            api = [common.start_server(f"api-{i}", "_serve.py", env, tmp) for i in range(2)]
            workers = webhooks.start_workers(2, env | {"TESSERA_LOG_LEVEL": "INFO"}, tmp, "scaleout")
            webhooks.wait_ready(workers)
            log(
                f"API processes: {', '.join(f'{s.base_url} (pid {s.process.pid})' for s in api)}; workers: pids "
                f"{', '.join(str(w.process.pid) for w in workers)}"
            )
            report["throughput"] = guarded(failures, "throughput", lambda: throughput(fx, api, tmp, args, failures))
            report["rate_limits"] = guarded(failures, "rate limits", lambda: rate_limits(fx, env, tmp, failures))
            report["idempotency"] = guarded(
                failures, "idempotency", lambda: idempotency(fx, api, backend.url, failures)
            )
            report["deliveries"] = guarded(
                failures, "deliveries", lambda: deliveries(fx, api, workers, env, tmp, backend.url, args, failures)
            )
        finally:
            failures += webhooks.stop_workers(workers)
            for server in api:
                server.stop()
            backend.drop()
    try:
        lines = report_lines(report, failures)
    except (KeyError, TypeError):
        lines = [json.dumps(report, default=str), "result: FAIL", *[f"  - {f}" for f in failures]]
    print("\n" + "\n".join(lines))
    suite.RESULTS_DIR.mkdir(parents=True, exist_ok=True)
    (suite.RESULTS_DIR / "scaleout.json").write_text(
        json.dumps({**report, "failures": failures}, indent=2, default=str)
    )
    (suite.RESULTS_DIR / "scaleout.txt").write_text("\n".join(lines) + "\n")
    print(
        f"results written to {suite.RESULTS_DIR}/scaleout.json and .txt; total time "
        f"{time.perf_counter() - started:.0f} s"
    )
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
