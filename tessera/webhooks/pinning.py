"""Webhook connections go to the addresses the SSRF check vetted, and nowhere else.

``check_url`` resolves a URL's host and checks every address; if the HTTP client then resolved the
name again, a host name answering a public address to the check and an internal one to the client
(DNS rebinding, a TTL of 0) would reach the internal one. So the sender's aiohttp connector is given
this resolver instead of a real one: it answers a host name only with the addresses a check of the
current batch vetted, and refuses every other name (an ``OSError``, which aiohttp reports as a
``ClientConnectorDNSError``: the attempt fails, nothing is sent). Nothing is resolved twice: the
connector's own DNS cache is off, so every connection asks this map.

The URL is not rewritten: the ``Host`` header and the TLS server name (SNI, and the certificate
check) stay the URL's host name. A URL whose host is an IP address literal never reaches a
resolver (aiohttp connects to the literal, which is exactly the address the check vetted). A
kept-alive connection from an earlier batch is reused as is: it goes to an address vetted then.
"""

from __future__ import annotations

import socket

from aiohttp.abc import AbstractResolver, ResolveResult

from tessera.webhooks.urls import Vetted


class UnvettedHost(OSError):
    """A connection to a host name no check of this batch passed."""


def _key(host: str) -> str:
    # aiohttp hands over the URL's host as yarl parsed it: lower case, trailing dots reduced to one.
    return host.lower().rstrip(".")


class PinnedResolver(AbstractResolver):
    """Host name -> the addresses that passed the SSRF check, for one batch of deliveries."""

    def __init__(self) -> None:
        self._vetted: dict[str, Vetted] = {}

    def pin(self, vetted: Vetted) -> None:
        """Connections to ``vetted.host`` go to its vetted addresses (the latest check's)."""
        self._vetted[_key(vetted.host)] = vetted

    def clear(self) -> None:
        """Forget every pin (a new batch checks its URLs again)."""
        self._vetted.clear()

    async def resolve(self, host: str, port: int = 0,
                      family: socket.AddressFamily = socket.AF_INET) -> list[ResolveResult]:
        vetted = self._vetted.get(_key(host))
        if vetted is None:
            raise UnvettedHost(f"{host} was not vetted by the SSRF check of this batch")
        found: list[ResolveResult] = []
        for address in vetted.addresses:
            kind = socket.AF_INET if address.version == 4 else socket.AF_INET6
            if family in (socket.AF_UNSPEC, kind):
                found.append({"hostname": host, "host": str(address), "port": port, "family": kind,
                              "proto": socket.IPPROTO_TCP, "flags": socket.AI_NUMERICHOST})
        if not found:
            raise UnvettedHost(f"{host} has no vetted address of family {family!r}")
        return found

    async def close(self) -> None:
        self._vetted.clear()
