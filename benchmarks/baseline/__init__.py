"""The independent baseline of the benchmarks: Tessera's measured endpoints written by hand.

A bare ASGI callable (no framework) on uvicorn with uvloop and httptools and no access log,
hand-written SQL on Tessera's own tables, and nothing imported from ``tessera``, ``handlers``,
``storage`` or Starlette (``__main__`` refuses to start otherwise; the key derivation is copied, two
lines). Why: a baseline that called Tessera's own service functions would measure only the framework
layers and hide Tessera's data path; this one shows what the same answers, with the same rules,
rows and bodies, cost when written directly, with the fewest statements: a read is the bearer
token's digest joined to its credential, installation, application and tenant with the record or
the page beside it; a token issue is the credential read and one statement writing the token and
its audit row; a command or an inbound event checks its token in the statement that writes (record,
audit entry, outbox rows and completed key together); the call audit is queued and written every
50 ms in one batch.

One server, two measures. On psycopg 3 (``BASELINE_DRIVER`` unset, Tessera's driver; aiosqlite on
SQLite) it is the suite's ``baseline``; on asyncpg (``BASELINE_DRIVER=asyncpg``, PostgreSQL only),
whose round trip costs about half psycopg's CPU, it is the ``limit``: the floor under any Python
service on these tables.

Modules: ``config`` (settings and keys), ``registry`` (``models.yaml`` and ``capabilities.yaml``),
``rules`` (ids, ETags, fingerprints, token validity), ``refusals`` (refusals and envelopes),
``grants`` (the client credentials grant), ``published`` (a published record, page sizes and
cursors), ``sessions`` (the session JWT, the actor, the success envelope), ``payloads`` and
``listing`` (the model rules and the list contract), ``checks`` (bodies and keys), ``calls`` (the
batched call audit); ``web`` (ASGI requests and replies), ``app`` (routes, lifespan), ``oauth``
(token issue), ``open_api`` (whoami, reads, pages, inbound events), ``commands`` (create commands),
``session_api`` (the session list and create commands); ``store`` (what the endpoints ask of the
database) with ``pg`` (on the driver ``pg_psycopg`` or ``pg_asyncpg``) and ``lite``.

Kept out, as framework rather than data path: routing and validation from the OpenAPI documents,
the middleware stack, the rate limiter, translations (messages are English). Update and delete
commands are not written here: the benchmarks measure creates.
"""
