"""What typed rows cost on the hot path: building the bearer token's row and reading its columns.

    .venv/bin/python benchmarks/rows.py [--rows 100000] [--repeat 5]

Every Open Platform business call reads one row of ``storage.openplatform.tokens``' token context (18 columns)
and ``tessera.openplatform.tokens.bearer`` reads 17 of them by name (some twice). This times, per
row, what the storage engine does with the driver's values and what the bearer code then reads:

* ``before``: the ``Row`` class every statement had until typed rows (``storage/drivers/engine.py`` at
  ``8ba9a3e``, copied here as it was): a ``tuple`` subclass made per statement, whose columns are
  found by ``__getattr__`` in a name-to-index dict, after Python's own attribute lookup failed;
  built after the same value conversions (the statement's type processors) as the engine's.
* ``typed``: the engine's real ``Compiled.rows`` of the real ``_TOKEN_CONTEXT`` statement, whose
  rows are ``storage.openplatform.tokens.TokenContextRow``, a ``NamedTuple`` (its fields are C-level getters).

Both read the same columns of the same values; the figures are the fastest of ``--repeat`` runs
(``benchmarks/results/rows.json`` and ``.txt``). No database is involved: the driver's fetch is the
same for both and is not timed.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from harness import log, results

from storage.openplatform import tokens


class _OldRow(tuple[Any, ...]):
    """``storage.drivers.engine.Row`` before typed rows."""

    __slots__ = ()
    _fields: tuple[str, ...] = ()
    _index: dict[str, int] = {}

    def __getattr__(self, name: str) -> Any:
        try:
            return self[self._index[name]]
        except KeyError:
            raise AttributeError(name) from None


def _old_row_class(names: Sequence[str]) -> type[_OldRow]:
    index: dict[str, int] = {}
    for i, name in enumerate(names):
        index.setdefault(name, i)
    return type("Row", (_OldRow,), {"__slots__": (), "_fields": tuple(names), "_index": index})


def _raw(count: int) -> list[tuple[Any, ...]]:
    """Driver rows of the token context, as psycopg returns them (no type processor applies)."""
    now = datetime(2026, 11, 26, tzinfo=UTC)
    return [(["assets.read"], now, now + timedelta(hours=1), f"tcli_{i}", "active", None, None, i, f"ins_{i}",
             "production", "enabled", ["assets.read"], i, f"app_{i}", "ERP sync", 1, "acme", "active")
            for i in range(count)]


def _reads(row: Any) -> tuple[Any, ...]:
    """The columns ``bearer`` reads by name, in its order (``_context`` and ``alive``)."""
    return (row.client_id, row.installation_id, row.installation_pid, row.application_id, row.application_pid,
            row.application_name, row.tenant_id, row.tenant_code, row.environment, row.scopes, row.expires_at,
            row.expires_at, row.credential_status, row.installation_status, row.tenant_status,
            row.rotated_at, row.scopes, row.granted_scopes)


def _time(label: str, build: Callable[[list[tuple[Any, ...]]], list[Any]], raw: list[tuple[Any, ...]],
          repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        for row in build(raw):
            _reads(row)
        best = min(best, time.perf_counter() - started)
    per_row = best / len(raw) * 1e9
    log(f"  {label:<8} {per_row:8.0f} ns per row (build + 18 column reads), {len(raw):,} rows, best of {repeat}")
    return per_row


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    if args.rows < 1 or args.repeat < 1:
        parser.error("--rows and --repeat must be positive")
    compiled = tokens._TOKEN_CONTEXT.compiled("postgresql")
    names = tokens.TokenContextRow._fields
    old = _old_row_class(names)
    processors = compiled._columns  # the same value conversions as the engine's, for both

    def before(rows: list[tuple[Any, ...]]) -> list[Any]:
        """``Compiled.rows`` as it was: the same conversions, then the old row class."""
        out = []
        for r in rows:
            values = list(r)
            for i, proc in processors:
                values[i] = proc(values[i])
            out.append(old(values))
        return out

    raw = _raw(args.rows)
    typed_rows = compiled.rows(raw[:1])
    if type(typed_rows[0]) is not tokens.TokenContextRow or tuple(typed_rows[0]) != raw[0]:
        log("FAILED: the typed statement does not build TokenContextRow rows of the driver's values")
        return 1
    title = f"=== rows: the bearer token's context row ({len(names)} columns), Python {sys.version.split()[0]} ==="
    log(title)
    figures: dict[str, float] = {}
    for label, build in (("before", before), ("typed", compiled.rows), ("before", before), ("typed", compiled.rows)):
        figures[label] = min(figures.get(label, float("inf")), _time(label, build, raw, args.repeat))
    summary = (f"typed / before: x{figures['typed'] / figures['before']:.2f} of the time per row "
               f"({figures['before'] - figures['typed']:,.0f} ns less per business call)")
    log(summary)
    results.write("rows", args, {"ns_per_row": figures}, [title, *(f"  {k}: {v:,.0f} ns per row"
                                                                  for k, v in figures.items()), summary])
    return 0


if __name__ == "__main__":
    sys.exit(main())
