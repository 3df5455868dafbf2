"""TLS only: the scheme and client address a request really came with, plain HTTP refused, HSTS.

``tessera serve`` terminates TLS itself when given a certificate and key (``server_options``), or
runs behind the proxies named in ``TESSERA_TRUSTED_PROXIES``:

- ``ForwardedMiddleware`` runs outermost, before the request context reads anything. When the peer
  is a trusted proxy, the request's scheme and client address come from the headers that proxy
  sets: ``X-Forwarded-Proto`` and ``X-Forwarded-For``, or RFC 7239's ``Forwarded``, one kind only
  (``TESSERA_PROXY_HEADERS``), since a proxy that sets one kind passes the other through from the
  client untouched. The client is the right-most address of the chain that is not a trusted proxy:
  entries further left were written by whoever sent them. From any other peer these headers mean
  nothing. While TLS is required it also adds ``Strict-Transport-Security`` to every response sent
  over HTTPS, errors included.
- ``TlsRequiredMiddleware`` runs first before routing, inside the request context (so the refusal
  has its request id and its surface's envelope): when TLS is required, a request that did not come
  over HTTPS is answered 403 ``TLS_REQUIRED`` (``tls_required`` on the Open Platform) before its
  body or its ``Authorization`` is looked at, so no token or secret is ever accepted over plain
  HTTP. The liveness and readiness checks are exempt: they carry nothing secret, and load balancers
  probe them over plain HTTP.

uvicorn's own proxy-header handling (on by default, trusting 127.0.0.1) is turned off, so these
headers are interpreted here only. With no trusted proxy and TLS not required (development), none
of this is installed: a request costs nothing more.
"""

from __future__ import annotations

import functools
import ipaddress
import re
import ssl
from collections.abc import Callable, Iterable
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from tessera.core.errors import TlsRequired
from tessera.core.settings import Settings, SettingsError
from tessera.web.protocol import BoundedHttpToolsProtocol
from tessera.web.protocol import configure as configure_protocol

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Address = ipaddress.IPv4Address | ipaddress.IPv6Address
MiddlewareFactory = Callable[[ASGIApp], ASGIApp]

# Exempt from the refusal: nothing secret travels on them, and health checks come over plain HTTP.
HEALTH_PATHS = frozenset({"/api/health", "/api/health/ready"})
SCHEMES = frozenset({"http", "https"})
_ESCAPED = re.compile(r"\\(.)")


def _address(host: str) -> Address | None:
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return None
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return ip.ipv4_mapped  # a dual-stack socket's view of an IPv4 peer
    return ip


class TrustedProxies:
    """The networks of ``TESSERA_TRUSTED_PROXIES``; a peer's verdict is cached (few proxies, many requests)."""

    def __init__(self, networks: Iterable[Network]) -> None:
        self.networks = tuple(networks)
        self.contains: Callable[[str], bool] = functools.lru_cache(maxsize=4096)(self._contains)

    def __bool__(self) -> bool:
        return bool(self.networks)

    def _contains(self, host: str) -> bool:
        ip = _address(host)
        return ip is not None and any(ip in network for network in self.networks)


def split_node(node: str) -> tuple[str, int]:
    """Host and port of an address as proxies write it (``192.0.2.1``, ``192.0.2.1:4711``,
    ``2001:db8::1``, ``[2001:db8::1]:4711``, ``unknown``, ``_hidden``); the port is 0 when absent."""
    node = node.strip()
    if node.startswith("["):
        host, _, rest = node[1:].partition("]")
        port = rest[1:] if rest.startswith(":") else ""
    elif node.count(":") == 1:
        host, _, port = node.partition(":")
    else:
        host, port = node, ""
    return host, int(port) if port.isdigit() and int(port) < 65536 else 0


def _split_unquoted(text: str, separator: str) -> list[str]:
    """``text`` split at ``separator`` where it is not inside a quoted string (RFC 9110 quoting)."""
    parts, start, quoted, escaped = [], 0, False, False
    for i, char in enumerate(text):
        if escaped:
            escaped = False
        elif char == "\\" and quoted:
            escaped = True
        elif char == '"':
            quoted = not quoted
        elif char == separator and not quoted:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return parts


def parse_forwarded(value: str) -> list[dict[str, str]]:
    """The elements of an RFC 7239 ``Forwarded`` value, left to right, each as its lower-cased
    parameter names to their (unquoted) values; a parameter repeated in one element counts once."""
    elements = []
    for element in _split_unquoted(value, ","):
        pairs: dict[str, str] = {}
        for pair in _split_unquoted(element, ";"):
            name, sep, raw = pair.partition("=")
            raw = raw.strip()
            if len(raw) >= 2 and raw[0] == raw[-1] == '"':
                raw = _ESCAPED.sub(r"\1", raw[1:-1])
            if sep and name.strip():
                pairs.setdefault(name.strip().lower(), raw)
        if pairs:
            elements.append(pairs)
    return elements


def _values(scope: Scope, name: bytes) -> list[str]:
    """Every comma-separated entry of every ``name`` header line, in order (RFC 9110 section 5.3)."""
    entries: list[str] = []
    for key, value in scope.get("headers", ()):
        if key == name:
            entries += bytes(value).decode("latin-1").split(",")
    return [entry.strip() for entry in entries if entry.strip()]


def _values_raw(scope: Scope, name: bytes) -> list[str]:
    """Every ``name`` header line, in order (``Forwarded`` is split by its own quoting-aware parser)."""
    return [bytes(value).decode("latin-1") for key, value in scope.get("headers", ()) if key == name]


def _client_index(hosts: list[str], proxies: TrustedProxies) -> int:
    """Where the client is in a chain of hops: the right-most host that is not a trusted proxy
    (every hop to its right vouched for it), or the left-most when all of them are proxies."""
    for index in range(len(hosts) - 1, 0, -1):
        if not proxies.contains(hosts[index]):
            return index
    return 0


def from_x_forwarded(scope: Scope, proxies: TrustedProxies) -> tuple[str | None, tuple[str, int] | None]:
    """Scheme and client address as a trusted proxy's ``X-Forwarded-Proto`` / ``-For`` state them.

    Of ``X-Forwarded-Proto`` the right-most value counts: the one the nearest proxy wrote (a proxy
    that appends keeps whatever the client sent to its left).
    """
    protos = _values(scope, b"x-forwarded-proto")
    nodes = [split_node(node) for node in _values(scope, b"x-forwarded-for")]
    client = nodes[_client_index([host for host, _ in nodes], proxies)] if nodes else None
    return (protos[-1].lower() if protos else None), client


def from_forwarded(scope: Scope, proxies: TrustedProxies) -> tuple[str | None, tuple[str, int] | None]:
    """Scheme and client address as a trusted proxy's RFC 7239 ``Forwarded`` states them: the
    element of the client's hop gives both (its ``proto`` is the scheme the client used)."""
    elements = [element for value in _values_raw(scope, b"forwarded") for element in parse_forwarded(value)]
    if not elements:
        return None, None
    hops = [split_node(element.get("for", "")) for element in elements]
    index = _client_index([host for host, _ in hops], proxies)
    proto = elements[index].get("proto")
    return (proto.lower() if proto else None), (hops[index] if hops[index][0] else None)


class ForwardedMiddleware:
    """The scheme and client a trusted proxy forwarded (into ``scope``), and HSTS over HTTPS."""

    def __init__(self, app: ASGIApp, proxies: TrustedProxies, proxy_headers: str, hsts: bytes | None) -> None:
        self.app = app
        self.proxies = proxies
        self.resolve = from_forwarded if proxy_headers == "forwarded" else from_x_forwarded
        self.hsts = hsts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        peer = scope.get("client")
        if self.proxies and peer and self.proxies.contains(peer[0]):
            scheme, client = self.resolve(scope, self.proxies)
            if scheme in SCHEMES:
                scope["scheme"] = scheme
            if client is not None:
                scope["client"] = client
        if self.hsts is not None and scope.get("scheme") == "https":
            send = _with_header(send, (b"strict-transport-security", self.hsts))
        await self.app(scope, receive, send)


def _with_header(send: Send, header: tuple[bytes, bytes]) -> Send:
    async def send_with_header(message: Message) -> None:
        if message["type"] == "http.response.start":
            message["headers"] = [*message.get("headers", ()), header]
        await send(message)

    return send_with_header


class TlsRequiredMiddleware:
    """403 ``TLS_REQUIRED`` for any request not over HTTPS (health checks aside), before routing."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope.get("scheme") != "https" and scope.get("path") not in HEALTH_PATHS:
            raise TlsRequired()
        await self.app(scope, receive, send)


def outermost(settings: Settings, inner: MiddlewareFactory) -> MiddlewareFactory:
    """``inner`` (the request context) behind ``ForwardedMiddleware`` when there is anything for it
    to do: proxies to believe, or HSTS to send."""
    proxies = TrustedProxies(settings.trusted_proxies)
    hsts = f"max-age={settings.hsts_seconds}".encode() if settings.require_tls and settings.hsts_seconds else None
    if not proxies and hsts is None:
        return inner
    return lambda app: ForwardedMiddleware(inner(app), proxies, settings.proxy_headers, hsts)


def before_routing(settings: Settings) -> list[MiddlewareFactory]:
    """The refusal of plain HTTP, when TLS is required."""
    return [TlsRequiredMiddleware] if settings.require_tls else []


def server_options(settings: Settings) -> dict[str, Any]:
    """``uvicorn.run``'s transport arguments for ``tessera serve``: the certificate and key when it
    terminates TLS, and uvicorn's proxy headers off (``ForwardedMiddleware`` reads them).

    Raises ``SettingsError`` when TLS is required but nothing provides it (every request would be
    refused), or when the certificate and key cannot be loaded.
    """
    if settings.require_tls and settings.tls_cert_file is None and not settings.trusted_proxies:
        raise SettingsError(
            "TLS is required (TESSERA_REQUIRE_TLS; on when TESSERA_ENV=production) but nothing provides it: "
            "set TESSERA_TLS_CERT_FILE and TESSERA_TLS_KEY_FILE, or TESSERA_TRUSTED_PROXIES to the addresses "
            "of the proxies that terminate TLS")
    # Requests past the bounds answered in the envelope even where llhttp would stop, and heads
    # that take too long cut off (web/protocol.py).
    configure_protocol(settings.header_timeout_seconds)
    options: dict[str, Any] = {"proxy_headers": False, "http": BoundedHttpToolsProtocol}
    if settings.tls_cert_file is not None and settings.tls_key_file is not None:
        try:
            ssl.create_default_context(ssl.Purpose.CLIENT_AUTH).load_cert_chain(
                settings.tls_cert_file, settings.tls_key_file)
        except (OSError, ssl.SSLError) as exc:
            raise SettingsError(f"TESSERA_TLS_CERT_FILE and TESSERA_TLS_KEY_FILE cannot be loaded "
                                f"as a certificate chain and its private key: {exc}") from None
        options.update(ssl_certfile=str(settings.tls_cert_file), ssl_keyfile=str(settings.tls_key_file))
    return options
