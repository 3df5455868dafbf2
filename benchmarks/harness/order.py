"""In what order the runs of a comparison go: ABBA, or all at once.

Why ABBA: the host drifts over a run (caches warm, tables grow with the writes, other load comes and
goes), so targets are measured forwards and then backwards, and a drift favours none of them. With
more than two targets it is the same mirror: A B C C B A. ``at_once`` is for what must overlap in
time: two wrk processes against two API processes, one idempotency key sent to both at the same
instant.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import TypeVar

T = TypeVar("T")


def abba(items: Sequence[T], rounds: int = 1) -> list[T]:
    """``rounds`` mirrors of ``items``: A B B A, A B B A, ..."""
    return [*items, *reversed(items)] * rounds


def alternating(items: Sequence[T], position: int) -> list[T]:
    """For the ``position``-th of several scenarios run once per target: forwards, then backwards, and so on."""
    return list(items) if position % 2 == 0 else list(reversed(items))


def at_once(calls: Sequence[Callable[[], T]]) -> list[T]:
    """Every call in a thread of its own, released together (a barrier); their results in order. An
    exception in one is raised once all have finished."""
    barrier = threading.Barrier(len(calls))
    out: list[T | BaseException] = [RuntimeError("did not run")] * len(calls)

    def one(index: int) -> None:
        barrier.wait()
        try:
            out[index] = calls[index]()
        except BaseException as exc:  # raised below, after the others finished
            out[index] = exc

    threads = [threading.Thread(target=one, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for result in out:
        if isinstance(result, BaseException):
            raise RuntimeError(f"{type(result).__name__}: {result}") from result
    return out  # type: ignore[return-value]
