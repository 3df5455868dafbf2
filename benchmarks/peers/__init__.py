"""The two peers of the suite: what a team would pick instead of Tessera for its token endpoint and
the calls it protects, on the same tables and database.

``authlib_flask`` (Authlib's client credentials grant and resource protector on Flask, under
gunicorn's gthread worker) and ``fastapi_app`` (FastAPI with SQLAlchemy's asyncio extension, on
uvicorn), sharing the ORM mapping of Tessera's tables in ``models``. Each answers ``POST /oauth2/token``,
``GET /api/open/v1/whoami`` and ``GET /api/open/v1/resources/assets/{pid}`` with Tessera's success
bodies, so the suite can check them against Tessera's before measuring. They read the settings and
derive the keys with the baseline's ``config`` (the ``TESSERA_*`` variables every target gets).
"""
