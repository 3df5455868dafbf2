"""Every private psycopg API the storage layer uses, in one place, for psycopg 3.3.9 only.

- ``AsyncConnection._prepared``, psycopg's ``PrepareManager``, and its ``clear()``: forget every
  statement psycopg believes it prepared on a connection. psycopg has no public way to do it, and
  ``storage.drivers.postgres`` needs it after a server error in a pipelined transaction (``forget_prepared``
  says why).

psycopg is pinned exactly in ``pyproject.toml`` for that reason. ``tests/storage/test_psycopg_internals.py``
checks that the installed version is ``PSYCOPG_VERSION`` and that a live connection still has the
manager and its ``clear``; ``tests/storage/test_pipeline_prepared.py`` holds the behaviour that needs
it. A new release is adopted by changing the pin and this constant together once those tests pass
on it. Nothing outside this module reads a private name of psycopg (``tests/architecture``).
"""

from __future__ import annotations

from typing import Any

import psycopg

PSYCOPG_VERSION = "3.3.9"


def forget_prepared(conn: psycopg.AsyncConnection[Any]) -> None:
    """Have psycopg forget the statements it prepared on ``conn``: its next statement deallocates
    them all on the server, and the hot ones are prepared again after five executions.

    psycopg 3.3 prepares a statement at its sixth execution on a connection, sending the PREPARE
    with it, and records the name as it sends it. When a server error aborts the pipeline before
    that PREPARE, the server never runs it, but psycopg keeps the name; the ROLLBACK that follows
    clears psycopg's cache only the first time a connection runs one. Every later execution of that
    statement on the connection then failed with "prepared statement _pg3_N does not exist" (seen in
    CI: an idempotency conflict, then 500s).
    """
    conn._prepared.clear()
