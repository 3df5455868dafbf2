"""Where webhooks may go: public https endpoints only (SSRF protection).

An endpoint URL must be ``https`` and every address its host resolves to must be public: no
loopback, private, link-local, multicast, reserved or unspecified address, so a tenant can't make
the service call its own network. The check runs when an endpoint is registered and again before
every delivery (DNS may change in between). ``TESSERA_WEBHOOK_ALLOW_LOOPBACK=true`` (development
and tests) additionally allows ``http`` and ``https`` to loopback addresses, and nothing else.

The check returns the addresses it vetted, and a delivery connects to those only, never resolving
the name again (``tessera.webhooks.pinning``): a name that answers a public address to the check and
an internal one a moment later (DNS rebinding) still reaches only the public one.
"""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

from tessera.core.i18n import N_

MAX_URL_LENGTH = 2000

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
# Every malformed URL, and plain http outside development, is refused with this one message.
_NOT_HTTPS = N_("Must be an https URL of at most 2000 characters.")


class UnsafeWebhookUrl(ValueError):
    """The URL may not receive webhooks; ``message`` is a translatable key."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class Vetted:
    """A URL that passed: its host name as written (lower case) and every address it resolved to,
    each of which passed; a sender connects to these and nothing else."""

    host: str
    addresses: tuple[Address, ...]


def _addresses(host: str, port: int) -> list[Address]:
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError):
        raise UnsafeWebhookUrl(N_("The host name does not resolve.")) from None
    found: list[Address] = []
    for info in infos:
        address = ipaddress.ip_address(str(info[4][0]).split("%", 1)[0])
        if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
            address = address.ipv4_mapped
        if address not in found:
            found.append(address)
    return found


def _public(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    return not (address.is_private or address.is_loopback or address.is_link_local or address.is_multicast
                or address.is_reserved or address.is_unspecified or not address.is_global)


def check_url(url: object, *, allow_loopback: bool) -> Vetted:
    """The host and addresses webhooks to ``url`` may go to now, or ``UnsafeWebhookUrl``."""
    scheme, host, port = _parts(_well_formed(url))
    addresses = _addresses(host, port)
    _may_receive(scheme, addresses, allow_loopback=allow_loopback)
    return Vetted(host, tuple(addresses))


def _well_formed(url: object) -> str:
    """The URL as text an HTTP client will send. Whitespace and control characters are refused
    here: an HTTP client would refuse them later, at every delivery attempt."""
    if not isinstance(url, str) or len(url) > MAX_URL_LENGTH:
        raise UnsafeWebhookUrl(_NOT_HTTPS)
    if not url.isascii() or not url.isprintable() or any(ch.isspace() for ch in url):
        raise UnsafeWebhookUrl(_NOT_HTTPS)
    return url


def _parts(url: str) -> tuple[str, str, int]:
    """The scheme, the host name (lower case) and the port (the scheme's default when none is
    given) of an ``http`` or ``https`` URL without credentials; whether plain ``http`` may be used
    depends on the addresses, so it is decided after the resolution (``_may_receive``)."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        raise UnsafeWebhookUrl(_NOT_HTTPS) from None
    if parts.scheme not in ("https", "http") or not parts.hostname:
        raise UnsafeWebhookUrl(_NOT_HTTPS)
    if parts.username or parts.password:
        raise UnsafeWebhookUrl(N_("Credentials in the URL are not allowed."))
    return parts.scheme, parts.hostname, port or (443 if parts.scheme == "https" else 80)


def _may_receive(scheme: str, addresses: list[Address], *, allow_loopback: bool) -> None:
    """Refuse the URL unless it is ``https`` to public addresses only, or (``allow_loopback``)
    ``http`` or ``https`` to loopback addresses only."""
    if allow_loopback and addresses and all(a.is_loopback for a in addresses):
        return
    if scheme != "https":
        raise UnsafeWebhookUrl(_NOT_HTTPS)
    if not addresses or not all(_public(a) for a in addresses):
        raise UnsafeWebhookUrl(N_("Webhooks can't be sent to loopback, private or link-local addresses."))
