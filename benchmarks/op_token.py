"""Benchmark of the Open Platform token endpoint and token validation on PostgreSQL, against the baseline.

    .venv/bin/python benchmarks/op_token.py [--duration 10] [--concurrency 8] [--keep-db]

1. A fresh PostgreSQL database, migrated, with the demo data (``tessera.demo.seed_demo``); as
   ``admin@demo.example``, through the services, an application installed into tenant ``demo``
   (``production``, scopes ``assets.read assets.manage``) and ``CREDENTIALS`` credentials of it.
2. Tessera (``benchmarks/_serve.py``) and the independent baseline (``benchmarks/baseline``: bare
   Starlette, psycopg 3 async and hand-written SQL on the same tables, nothing of Tessera's code; it
   writes the same token, audit and call-audit rows), one uvicorn worker each in its own process on
   127.0.0.1, every rate limit out of reach. The suite measures the same two endpoints with wrk; this
   script's own value is the per-credential checks of every answer and every row, from httpx clients.
3. Both answer alike: a token minted by either works on both for ``whoami`` (same body), a wrong
   secret is 401 ``invalid_client``, an unknown token 401 ``invalid_token``.
4. Two scenarios, both targets in ABBA order, 2 s warm-up then ``--duration`` seconds from
   ``--concurrency`` httpx clients (``harness.clients``): ``token issue`` (``POST /oauth2/token``,
   credentials in the form body, rotating over the credentials) and ``whoami``
   (``GET /api/open/v1/whoami`` with one pre-issued token per credential, minted by each target in
   turn). Every answer is checked (token: 200, ``Bearer``, the scopes; whoami: 200 and the token's
   clientId), and so is the database after each run, warm-up included: one ``access_tokens`` row and
   one ``oauth.token.issue`` audit entry per token issued, for the right credential; one
   ``open_api_calls`` row per business call, with status 200 and the right client; nothing else.
5. The table (CPU ms per request of the server, this client, PostgreSQL and the rest of the host, from
   ``/proc``), the ratios, the two headline figures and any noisy run (the rest of the host at
   ``NOISY_PCT`` or more of all CPUs) go to ``benchmarks/results/op_token.json`` and ``.txt``; the
   database is dropped (unless ``--keep-db``). Exit status 1 when any check failed.
"""

from __future__ import annotations

import argparse
import itertools
import json
import secrets
import sys
import time
from collections import Counter
from dataclasses import asdict
from typing import Any

import httpx
import psycopg
from harness import clients, cpu, log, results, seeding
from harness.clients import Check, Load, Result, json_body
from harness.databases import fresh
from harness.seeding import Credential
from harness.servers import BASELINE, TESSERA, Server, running

from tessera.runtime import Runtime

TARGETS = (TESSERA, BASELINE)
WARMUP_SECONDS = 2.0
CREDENTIALS = 50
TENANT = "demo"
SCOPES = ["assets.read", "assets.manage"]
TOKEN_PATH = "/oauth2/token"
WHOAMI_PATH = "/api/open/v1/whoami"
FORM = {"content-type": "application/x-www-form-urlencoded"}
NOISY_PCT = 20.0  # the rest of the host's share of all CPUs from which a run is flagged
DB_SETTLE_SECONDS = 15.0  # how long the call audit rows, written after the response, may take to appear


async def demo_client(rt: Runtime) -> seeding.Installation:
    """The demo data, and as its administrator an application installed into ``TENANT`` with its credentials."""
    return await seeding.install(rt, await seeding.demo_admin(rt), "Benchmark client", TENANT, SCOPES, CREDENTIALS)


def check_token(response: httpx.Response) -> str | None:
    if response.status_code != 200:
        return f"HTTP {response.status_code}: {response.text[:200]}"
    body = response.json()
    if body.get("token_type") != "Bearer" or not str(body.get("access_token", "")).startswith("tat_"):
        return f"unexpected token response: {response.text[:200]}"
    if body.get("scope") != " ".join(sorted(SCOPES)):
        return f"unexpected scope: {body.get('scope')!r}"
    return None


def check_whoami(client_id: str) -> Check:
    def check(response: httpx.Response) -> str | None:
        if response.status_code != 200:
            return f"HTTP {response.status_code}: {response.text[:200]}"
        found = response.json().get("clientId")
        return None if found == client_id else f"clientId {found!r}, expected {client_id!r}"

    return check


# -- checks before measuring -----------------------------------------------------------------------

def mint(server: Server, cred: Credential) -> str:
    response = httpx.post(server.base_url + TOKEN_PATH, content=cred.form(), headers=FORM, timeout=30)
    problem = check_token(response)
    assert problem is None, f"{server.name}: minting a token for {cred.client_id}: {problem}"
    return str(response.json()["access_token"])


def whoami(server: Server, token: str) -> httpx.Response:
    return httpx.get(server.base_url + WHOAMI_PATH, headers={"Authorization": f"Bearer {token}"}, timeout=30)


def error_code(response: httpx.Response) -> str | None:
    body = json_body(response)
    return body.get("error") or body.get("code")


def verify_alike(servers: dict[str, Server], creds: list[Credential]) -> None:
    """Every target mints tokens that work on every target, and refuses a wrong secret and an unknown token alike."""
    for index, minter in enumerate(servers.values()):
        cred = creds[index]
        token = mint(minter, cred)
        bodies = []
        for checker in servers.values():
            response = whoami(checker, token)
            problem = check_whoami(cred.client_id)(response)
            assert problem is None, f"token minted by {minter.name}, whoami on {checker.name}: {problem}"
            bodies.append(response.json())
        assert all(b == bodies[0] for b in bodies), f"whoami bodies differ for a token minted by {minter.name}"
        log(f"verified: a token minted by {minter.name} works on every target for whoami (same body, clientId "
            f"{cred.client_id}, scopes {bodies[0]['scopes']})")
    for server in servers.values():
        response = httpx.post(server.base_url + TOKEN_PATH, content=creds[-1].form("tsec_wrong"), headers=FORM,
                              timeout=30)
        assert response.status_code == 401 and error_code(response) == "invalid_client", (
            f"{server.name}: wrong secret answered HTTP {response.status_code} {response.text[:300]}")
        response = whoami(server, "tat_" + secrets.token_urlsafe(32))
        assert response.status_code == 401 and error_code(response) == "invalid_token", (
            f"{server.name}: unknown token answered HTTP {response.status_code} {response.text[:300]}")
    log("verified: a wrong secret is 401 invalid_client and an unknown token 401 invalid_token on every target")


# -- the database after a run ----------------------------------------------------------------------

def marks(db: psycopg.Connection[Any]) -> tuple[int, int, int]:
    """The highest ids of access_tokens, audit_log and open_api_calls."""
    row = db.execute("SELECT (SELECT coalesce(max(id), 0) FROM access_tokens), "
                     "(SELECT coalesce(max(id), 0) FROM audit_log), "
                     "(SELECT coalesce(max(id), 0) FROM open_api_calls)").fetchone()
    assert row is not None
    return int(row[0]), int(row[1]), int(row[2])


def new_rows(db: psycopg.Connection[Any], since: tuple[int, int, int]) -> dict[str, Counter[Any]]:
    """Rows added since ``since``, grouped the way the checks need them."""
    tokens = Counter({r[0]: r[1] for r in db.execute(
        "SELECT c.client_id, count(*) FROM access_tokens t JOIN credentials c ON c.id = t.credential_id "
        "WHERE t.id > %s GROUP BY c.client_id", (since[0],))})
    audit = Counter({(r[0], r[1]): r[2] for r in db.execute(
        "SELECT action, actor, count(*) FROM audit_log WHERE id > %s GROUP BY action, actor", (since[1],))})
    calls = Counter({(r[0], r[1], r[2], r[3]): r[4] for r in db.execute(
        "SELECT client_id, method, path, status, count(*) FROM open_api_calls WHERE id > %s "
        "GROUP BY client_id, method, path, status", (since[2],))})
    return {"access_tokens": tokens, "audit_log": audit, "open_api_calls": calls}


def check_database(db: psycopg.Connection[Any], scenario: str, since: tuple[int, int, int], ok: Counter[str],
                   responses: int) -> tuple[list[str], dict[str, Any]]:
    """Compare the rows a run added with what the client saw; (problems, summary)."""
    expected_rows = sum(ok.values()) if scenario == "token issue" else responses
    table = "access_tokens" if scenario == "token issue" else "open_api_calls"
    deadline = time.monotonic() + DB_SETTLE_SECONDS
    while sum(new_rows(db, since)[table].values()) < expected_rows and time.monotonic() < deadline:
        time.sleep(0.1)  # the call audit is written after the response is sent: give it time to land
    time.sleep(0.3)  # and a little more, so an extra row would show too
    rows = new_rows(db, since)
    problems: list[str] = []

    def expect(label: str, got: Counter[Any], want: Counter[Any]) -> None:
        if +got != +want:
            diff = {str(k): {"got": got.get(k, 0), "want": want.get(k, 0)}
                    for k in sorted(set(got) | set(want), key=str) if got.get(k, 0) != want.get(k, 0)}
            problems.append(f"{label}: {sum(got.values())} rows, expected {sum(want.values())}; "
                            f"differences (first 5): {dict(itertools.islice(diff.items(), 5))}")

    if scenario == "token issue":
        expect("access_tokens per credential", rows["access_tokens"], ok)
        expect("audit_log entries", rows["audit_log"], Counter({("oauth.token.issue", c): n for c, n in ok.items()}))
        expect("open_api_calls", rows["open_api_calls"], Counter())
    else:
        expect("open_api_calls per client (GET whoami, 200)", rows["open_api_calls"],
               Counter({(c, "GET", WHOAMI_PATH, 200): n for c, n in ok.items()}))
        if responses != sum(ok.values()):
            problems.append(f"{responses - sum(ok.values())} responses were not 200 (their rows are counted above)")
        expect("access_tokens", rows["access_tokens"], Counter())
        expect("audit_log entries", rows["audit_log"], Counter())
    return problems, {
        "access_tokens": sum(rows["access_tokens"].values()),
        "audit_oauth_token_issue": sum(n for (a, _), n in rows["audit_log"].items() if a == "oauth.token.issue"),
        "audit_other": sum(n for (a, _), n in rows["audit_log"].items() if a != "oauth.token.issue"),
        "open_api_calls": sum(rows["open_api_calls"].values()), "expected": {table: expected_rows},
    }


# -- the run ----------------------------------------------------------------------------------------

def scenario_load(name: str, base_url: str, creds: list[Credential], tokens: list[str], concurrency: int) -> Any:
    """``run(seconds, offset)`` for ``clients.measure``: each request the next credential (or token) in rotation."""
    whoami_checks = [check_whoami(c.client_id) for c in creds]

    async def turn(client: httpx.AsyncClient, load: Load, n: int) -> None:
        i = n % len(creds)
        if name == "token issue":
            await load.send(client, "POST", base_url + TOKEN_PATH, check_token, creds[i].client_id,
                            content=creds[i].form(), headers=FORM)
        else:
            await load.send(client, "GET", base_url + WHOAMI_PATH, whoami_checks[i], creds[i].client_id,
                            headers={"authorization": f"Bearer {tokens[i]}"})

    return lambda seconds, offset: clients.drive(concurrency, seconds, turn, offset)


def headline(found: list[Result]) -> tuple[list[str], dict[str, Any]]:
    return clients.headline(found, [
        (f"tokens issued per second (POST {TOKEN_PATH})", "tokens_issued_per_second", "token issue", "rps", "", 1),
        (f"p95 of token validation on a business call (GET {WHOAMI_PATH})", "token_validation_p95_ms", "whoami",
         "p95_ms", " ms", 2)], [t.name for t in TARGETS])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--duration", type=float, default=10.0, help="seconds of load per scenario and target")
    parser.add_argument("--concurrency", type=int, default=8, help="concurrent clients (default 8)")
    parser.add_argument("--keep-db", action="store_true", help="keep the database afterwards and print its URL")
    args = parser.parse_args()
    if args.duration <= 0 or args.concurrency < 1:
        parser.error("--duration and --concurrency must be positive")

    started = time.perf_counter()
    failures: list[str] = []
    report: dict[str, Any] = {}
    lines: list[str] = []
    try:
        with fresh("postgresql", "op_token", args.keep_db) as ws:
            with seeding.runtime(ws.env) as rt:
                creds = seeding.run(rt, demo_client(rt)).credentials
                with seeding.direct(rt) as engine:
                    info = results.versions(engine)
            postmaster = cpu.postmaster_pid(ws.backend.url)
            with running(TARGETS, ws.env, ws.tmp) as servers, psycopg.connect(ws.backend.url, autocommit=True) as db:
                verify_alike(servers, creds)
                minters = list(servers.values())
                tokens = [mint(minters[i % len(minters)], c) for i, c in enumerate(creds)]
                log(f"pre-issued {len(tokens)} bearer tokens (one per credential, minted by each target in turn)")
                names = ("token issue", "whoami")

                def measure_one(position: int, server: Server) -> Result:
                    since = marks(db)
                    load = scenario_load(names[position], server.base_url, creds, tokens, args.concurrency)
                    result, warm, run = clients.measure(names[position], server, load, args.duration, WARMUP_SECONDS,
                                                        postmaster, db)
                    result.problems, rows = check_database(db, names[position], since, warm.ok_by + run.ok_by,
                                                           warm.responses + run.responses)
                    result.details["database_rows"] = rows
                    log(f"  database checked: {json.dumps(rows)}" if not result.problems else
                        f"  DATABASE CHECK FAILED: {result.problems}")
                    return result

                found = clients.compare([(n, f"{WARMUP_SECONDS:g} s warm-up + {args.duration:g} s, "
                                            f"{args.concurrency} clients") for n in names], servers, measure_one)
                failures += clients.failures(found, servers)
            lines, ratios = clients.summary(
                "Tessera Open Platform token benchmark", info,
                f"{len(creds)} credentials of one installation ({TENANT}, production, {' '.join(SCOPES)}) | "
                f"concurrency {args.concurrency} | {args.duration:g} s per run (+{WARMUP_SECONDS:g} s warm-up) | ABBA "
                "order", found)
            headlines, figures = headline(found)
            noise_lines, noisy = clients.noise(found, NOISY_PCT)
            lines += ["", *headlines, *noise_lines]
            config = {"warmup_s": WARMUP_SECONDS, "credentials": len(creds), "tenant": TENANT, "scopes": SCOPES,
                      "noisy_threshold_pct": NOISY_PCT}
            report = {"versions": info, "config": config,
                "endpoints": {"token issue": f"POST {TOKEN_PATH}", "whoami": f"GET {WHOAMI_PATH}"},
                "results": [asdict(r) for r in found], "ratios": ratios, "headline": figures, "noisy_runs": noisy}
    except AssertionError as exc:
        failures.append(f"check before measuring failed: {exc}")
    lines += [f"FAILED: {f}" for f in failures]
    log("\n" + "\n".join(lines))
    results.write("op_token", args, {**report, "failures": failures}, lines)
    log(f"total time {time.perf_counter() - started:.0f} s")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
