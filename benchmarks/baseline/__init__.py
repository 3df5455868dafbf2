"""The independent baseline of the benchmarks: Tessera's measured endpoints written by hand.

A bare Starlette app on uvicorn (one process), psycopg 3 async with a fixed ``AsyncConnectionPool``
on PostgreSQL and aiosqlite on SQLite, hand-written SQL on Tessera's own tables, and nothing
imported from ``tessera``, ``handlers`` or ``storage`` (``__main__`` refuses to start otherwise; the
key derivation is copied, two lines). Why: a baseline that called Tessera's own service functions
measured only the framework layers and hid Tessera's data path; this one shows what the same
answers cost when written directly, with the fewest round trips to the database.

Modules: ``config`` (settings and keys), ``registry`` (``models.yaml`` and ``capabilities.yaml``),
``rules`` (ids, ETags, fingerprints, token validity), ``refusals`` (refusals and envelopes, no
framework) and ``errors`` (the same as Starlette responses), ``grants`` (the client credentials
grant), ``published`` (a published record, page sizes and cursors), ``sessions`` (the session JWT,
the actor, the success envelope): the framework-free rules the limit shares,
``payloads`` and ``listing`` (the model rules and the list contract), ``checks`` (bodies and keys),
``store`` (what the endpoints ask of the database) with ``pg`` and ``lite`` (its SQL per dialect),
``calls`` (the batched call audit), ``open_api`` and ``session_api`` (the endpoints), ``app``.

Kept out, as framework rather than data path: routing and validation from the OpenAPI documents,
the middleware stack, the rate limiter, translations (messages are English). The Open Platform
command endpoint serves the registry's create commands and the session command endpoint create
commands (what the benchmarks measure); update and delete are not written here.
"""
