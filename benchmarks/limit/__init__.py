"""The limit of the benchmarks: Tessera's measured endpoints with nothing between uvicorn and the SQL.

A bare ASGI callable (no framework) on uvicorn with uvloop and httptools and no access log, asyncpg
on PostgreSQL (psycopg 3 with ``LIMIT_DRIVER=psycopg``; aiosqlite on SQLite), one statement per
request wherever one can do: a read is the bearer token's digest joined to its credential,
installation, application and tenant with the record or the page beside it; a token issue is the
credential read and one statement writing the token and its audit row; a command or an inbound event
checks its token in the same statement that writes (record, audit entry, outbox rows and completed
key together); the call audit is queued and written every 50 ms in one batch. Why: the issue asks
how close Tessera comes to what Python can do at all on the same data, with the same answers; the
baseline (``benchmarks/baseline``, Starlette and psycopg) is a hand-written service, the limit is
the floor under any such service.

It owes nothing to Tessera (``__main__`` refuses to start if ``tessera``, ``handlers``, ``storage`` or
Starlette was imported) and shares the baseline's framework-free rules: keys and settings
(``baseline.config``), the registries, ids, ETags, fingerprints and token validity
(``baseline.rules``), body checks and model rules (``baseline.checks``, ``baseline.payloads``),
refusals and envelopes (``baseline.refusals``), the client credentials grant (``baseline.grants``),
published records, page sizes and cursors (``baseline.published``), the session JWT and actor
(``baseline.sessions``), the batched call audit (``baseline.calls``) and, on SQLite, the baseline's
connections (``baseline.lite``).

Modules: ``web`` (ASGI requests and replies), ``app`` (routes, lifespan), ``oauth`` (token issue),
``open_api`` (whoami, reads, pages, inbound events), ``commands`` (create commands), ``session_api``
(session create commands), ``store`` (what the endpoints ask of the database) with ``pg`` and
``lite`` (``pg`` on the driver ``pg_asyncpg`` or ``pg_psycopg``). Left out: the session list (not
measured against the limit), update and delete commands.
"""
