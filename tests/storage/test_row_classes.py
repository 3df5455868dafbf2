"""Every statement the storage modules build at import names rows its columns really have.

A ``Statement`` with a row class checks, when it is compiled, that the class lists the statement's
result columns in order (``storage.drivers.engine``); this compiles every module-level statement of
``storage/`` for both dialects, so a mismatch fails here even for a statement no other test runs.
(Statements built per call, ``Query``, are checked on the first call of any test that runs them.)
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import Any

import pytest

import storage
from storage.drivers.engine import Statement


def _statements() -> dict[str, Statement[Any]]:
    found: dict[str, Statement[Any]] = {}
    seen: set[int] = set()
    for info in pkgutil.walk_packages(storage.__path__, "storage."):
        if info.name.startswith("storage.schema.migrations"):
            continue  # Alembic's scripts, loaded by Alembic alone
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            items = list(enumerate(value)) if isinstance(value, tuple | list) else [(None, value)]
            for i, item in items:
                if isinstance(item, Statement) and id(item) not in seen:
                    seen.add(id(item))
                    found[f"{info.name.removeprefix('storage.')}.{name}" + ("" if i is None else f"[{i}]")] = item
    return found


STATEMENTS = _statements()


def test_the_storage_modules_build_their_statements_at_import() -> None:
    assert len(STATEMENTS) >= 40


@pytest.mark.parametrize("dialect", ["sqlite", "postgresql"])
def test_every_statement_compiles_with_its_row_class(dialect: str) -> None:
    for name, statement in STATEMENTS.items():
        try:
            statement.compiled(dialect)
        except TypeError as exc:
            pytest.fail(f"{name}: {exc}")
