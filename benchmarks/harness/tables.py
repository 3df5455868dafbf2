"""Plain-text tables: every report prints its figures through ``render``, so each table is a list of
columns rather than a block of f-strings with hand-counted widths."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

SEP = "|"  # a column list entry drawn between column groups


def fixed(value: float | None, digits: int = 2, zero_is_missing: bool = False) -> str:
    """Thousands separated; ``-`` for a figure that does not exist."""
    if value is None or (zero_is_missing and value == 0):
        return "-"
    return f"{value:,.{digits}f}"


def pct(value: float | None) -> str:
    return "-" if value is None else f"{value:.0f}%"


def times(value: float | None) -> str:
    """A ratio as ``x1.23``."""
    return "-" if value is None else f"x{value:.2f}"


def show(value: Any) -> str:
    return "-" if value is None else str(value)


@dataclass(frozen=True)
class Column:
    header: str
    get: str | Callable[[Any], Any]  # attribute or key of the row, or a function of it
    fmt: Callable[[Any], str] = show
    align: str = ">"

    def cell(self, row: Any) -> str:
        if callable(self.get):
            value = self.get(row)
        elif isinstance(row, dict):
            value = row.get(self.get)
        else:
            value = getattr(row, self.get)
        return self.fmt(value)


def render(columns: Sequence[Column | str], rows: Sequence[Any]) -> list[str]:
    """The header, a rule and one line per row; each column as wide as its widest cell."""
    cells = [[c if isinstance(c, str) else c.cell(row) for c in columns] for row in rows]
    headers = [c if isinstance(c, str) else c.header for c in columns]
    widths = [max(len(text) for text in [h, *(line[i] for line in cells)]) for i, h in enumerate(headers)]
    aligns = ["<" if isinstance(c, str) else c.align for c in columns]

    def line(texts: list[str]) -> str:
        return " ".join(f"{t:{a}{w}}" for t, a, w in zip(texts, aligns, widths, strict=True)).rstrip()

    header = line(headers)
    return [header, "-" * len(header), *(line(texts) for texts in cells)]
