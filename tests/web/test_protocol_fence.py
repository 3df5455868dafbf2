"""uvicorn's HttpToolsProtocol, which ``tessera/web/protocol.py`` subclasses, still has the shape it relies on:
the pinned version, each overridden method with the parameters the override takes, and the attributes
the subclass reads. The behaviour itself is ``tests/web/test_transport.py``'s (a real server)."""

from __future__ import annotations

import asyncio
import inspect
from importlib.metadata import version
from typing import Any
from unittest.mock import Mock

import pytest
from uvicorn.config import Config
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.server import ServerState

from tessera.web.protocol import OVERRIDDEN, READ_ATTRIBUTES, UVICORN_VERSION, BoundedHttpToolsProtocol


def test_the_installed_uvicorn_is_the_fenced_version() -> None:
    assert version("uvicorn") == UVICORN_VERSION


def test_the_protocol_overrides_exactly_the_methods_it_names() -> None:
    own = {name for name, value in vars(BoundedHttpToolsProtocol).items()
           if inspect.isfunction(value) and not name.startswith("_")}
    assert own == set(OVERRIDDEN)


@pytest.mark.parametrize("name", OVERRIDDEN)
def test_each_overridden_method_is_uvicorns_with_the_same_parameters(name: str) -> None:
    theirs = getattr(HttpToolsProtocol, name)
    assert inspect.isfunction(theirs), name
    ours = getattr(BoundedHttpToolsProtocol, name)
    assert list(inspect.signature(theirs).parameters) == list(inspect.signature(ours).parameters), name


def _transport() -> asyncio.Transport:
    """A transport that accepts what the protocol writes and says where it is connected."""
    transport = Mock(spec=asyncio.Transport)
    transport.get_extra_info.side_effect = lambda name, default=None: (
        ("127.0.0.1", 8080) if name in ("sockname", "peername") else default)
    transport.is_closing.return_value = False
    return transport


def test_uvicorn_sets_every_attribute_the_protocol_reads() -> None:
    async def app(*_asgi: Any) -> None:
        return None

    async def check() -> dict[str, bool]:
        config = Config(app, http="httptools", log_config=None)
        config.load()
        protocol = BoundedHttpToolsProtocol(config=config, server_state=ServerState(), app_state={},
                                            _loop=asyncio.get_running_loop())
        protocol.connection_made(_transport())
        protocol.data_received(b"GET /api/health HTTP/1.1\r\nHost: x\r\n")  # a head begun: url set
        found = {name: hasattr(protocol, name) for name in READ_ATTRIBUTES}
        protocol.connection_lost(None)
        return found

    assert asyncio.run(check()) == dict.fromkeys(READ_ATTRIBUTES, True)
