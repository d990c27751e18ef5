"""Who the client is: the socket peer, or what trusted proxies say in X-Forwarded-For."""

from __future__ import annotations

import ipaddress
from collections.abc import Callable, Sequence

from starlette.requests import Request

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def parse_networks(entries: Sequence[str]) -> list[Network]:
    """IPs and CIDRs from settings (a bare IP is a /32 or /128); invalid ones raise ValueError."""
    return [ipaddress.ip_network(entry.strip(), strict=False) for entry in entries if entry.strip()]


def _trusted(address: str, networks: Sequence[Network]) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in net for net in networks)


def resolve_client(peer: str, forwarded_for: str | None, networks: Sequence[Network]) -> str:
    """The client address for a request from `peer` carrying `forwarded_for`."""
    if not forwarded_for or not _trusted(peer, networks):
        # An untrusted peer may write anything into X-Forwarded-For: ignore it entirely.
        return peer
    hops = [hop.strip() for hop in forwarded_for.split(",") if hop.strip()]
    # Walk from the right: each trusted proxy appended the address it received from; the first
    # untrusted address is the client as seen by the last proxy we trust.
    for hop in reversed(hops):
        if not _trusted(hop, networks):
            return hop
    return hops[0] if hops else peer


def client_address_func(trusted_proxies: Sequence[str]) -> Callable[[Request], str]:
    """A slowapi key function resolving the client with the given trusted proxies."""
    networks = parse_networks(trusted_proxies)

    def client_address(request: Request) -> str:
        """The rate-limit key of a request: its resolved client address."""
        peer = request.client.host if request.client else "unknown"
        return resolve_client(peer, request.headers.get("x-forwarded-for"), networks)

    return client_address
