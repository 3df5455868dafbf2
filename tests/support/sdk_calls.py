"""What the SDK end-to-end tests (Python and TypeScript) share: a 200 answer's parsed body, and the
first webhook delivery a receiver got."""

from __future__ import annotations

import time
from http import HTTPStatus
from typing import Any, TypeVar

from tests.support.receivers import Received

T = TypeVar("T")


def ok(response: Any, model: type[T]) -> T:
    """The parsed body of a 200 answer, or a failure that shows what the service said."""
    assert response.status_code == HTTPStatus.OK and isinstance(response.parsed, model), (
        f"expected 200 {model.__name__}, got {int(response.status_code)}: {response.content[:2000]!r}")
    return response.parsed


def first_delivery(requests: list[Received], seconds: float) -> Received:
    deadline = time.monotonic() + seconds
    while not requests:
        if time.monotonic() > deadline:
            raise AssertionError(
                f"no webhook delivery reached the receiver within {seconds:.0f} s (is the in-process worker "
                "running, and does TESSERA_WEBHOOK_ALLOW_LOOPBACK=true reach the server?)")
        time.sleep(0.1)
    return requests[0]
