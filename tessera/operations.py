"""Connexion's handler operations, with the decorator stack built once per operation.

Connexion 3.3's ``AsyncOperation.fn`` is a property: every request builds the Starlette decorator
stack around the handler again (parameter and response decorators, ``inspect.signature`` of the
handler). Nothing in that stack is per request (the request and operation reach it through
context variables at call time), so this operation builds it on first use and keeps it.
"""

from __future__ import annotations

import typing as t
from functools import cached_property

from connexion.apps.asynchronous import AsyncApi, AsyncOperation
from connexion.operations import AbstractOperation


class CachedAsyncOperation(AsyncOperation):
    @cached_property
    def fn(self) -> t.Callable[..., t.Any]:  # type: ignore[override]
        return AsyncOperation.fn.fget(self)  # type: ignore[attr-defined]


class CachedAsyncApi(AsyncApi):
    def make_operation(self, operation: AbstractOperation) -> AsyncOperation:
        return CachedAsyncOperation.from_operation(
            operation, pythonic_params=self.pythonic_params, jsonifier=self.jsonifier
        )
