"""SSRF guard: refuse private, loopback, link-local, multicast and reserved addresses.

The check runs where the socket is opened (`GuardedBackend.connect_tcp`): the host is
resolved once, every address is checked, and the connection goes to a checked address, so a
DNS answer cannot change between the check and the connect. Redirects therefore get the same
check on every hop. A source configured `local: true` may reach private addresses, but only
at its own base_url host: a redirect from it to any other private host is still refused.
"""

from __future__ import annotations

import ipaddress
import socket
import ssl
from collections.abc import Callable, Iterable, Mapping
from functools import cache
from typing import Any

import httpcore
import httpx

from sleuth.model import SleuthError

Resolver = Callable[[str, int], list[str]]
IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address


class SsrfRefused(SleuthError):
    """A request would reach an address a network source must not reach."""


def system_resolver(host: str, port: int) -> list[str]:
    """All addresses of `host` (A and AAAA), via the OS resolver."""
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return list(dict.fromkeys(str(info[4][0]) for info in infos))


def blocked_reason(ip: IPAddress) -> str | None:
    """Why an address is off limits for a public source, or None when it is public."""
    if isinstance(ip, ipaddress.IPv6Address):
        mapped = ip.ipv4_mapped or ip.sixtofour
        if mapped is not None:
            return blocked_reason(mapped)
        if ip.teredo is not None:
            return "Teredo tunnel address"
    for attr, why in (
        ("is_loopback", "loopback"),
        ("is_link_local", "link-local"),
        ("is_multicast", "multicast"),
        ("is_unspecified", "unspecified"),
        ("is_reserved", "reserved"),
        ("is_private", "private"),
    ):
        if getattr(ip, attr):
            return why
    if not ip.is_global:
        return "not globally routable"
    return None


def check_addresses(host: str, addresses: Iterable[str], *, local_ok: bool) -> list[str]:
    """The addresses to connect to; SsrfRefused if any is off limits (all must be public)."""
    addrs = list(addresses)
    if not addrs:
        raise SsrfRefused(f"{host}: no address")
    if local_ok:
        return addrs
    for a in addrs:
        ip = ipaddress.ip_address(a.split("%", 1)[0])
        why = blocked_reason(ip)
        if why:
            raise SsrfRefused(f"refused {host} ({a}): {why} address; the source is not local")
    return addrs


ConnectTo = Mapping[str, tuple[str, int]]  # "host:port" -> (address, port), as curl's


def connect_target(host: str, port: int, connect_to: ConnectTo | None) -> tuple[str, int]:
    """Where a connection to `host:port` goes: `connect_to`'s mapping, else itself."""
    return (connect_to or {}).get(f"{host.strip('[]').lower()}:{port}", (host, port))


def resolve_checked(host: str, port: int, resolver: Resolver, *, local_ok: bool,
                    connect_to: ConnectTo | None = None) -> list[str]:
    """Resolve `host` (an IP literal resolves to itself) and check every address."""
    host, port = connect_target(host, port, connect_to)
    bare = host.strip("[]")
    try:
        ipaddress.ip_address(bare.split("%", 1)[0])
        addrs = [bare]
    except ValueError:
        try:
            addrs = resolver(bare, port)
        except OSError as exc:
            raise httpcore.ConnectError(f"cannot resolve {bare}: {exc}") from exc
    return check_addresses(bare, addrs, local_ok=local_ok)


class GuardedBackend(httpcore.NetworkBackend):
    """httpcore's sync backend, connecting only to addresses that passed the guard.

    `connect_to` sends a named host's connections to another address and port, the way
    curl's `--connect-to` does: the simulated world is served under a stable name
    (`world-7.sleuth.test`) on whatever port was free, so its URLs - stored with every
    snapshot and cited in every output - are the same in every run. The mapped address is
    checked like any other."""

    def __init__(self, resolver: Resolver, *, local_hosts: frozenset[str] = frozenset(),
                 connect_to: ConnectTo | None = None) -> None:
        self._inner = httpcore.SyncBackend()
        self._resolver = resolver
        self._local_hosts = local_hosts
        self._connect_to = dict(connect_to or {})

    def connect_tcp(self, host: str, port: int, timeout: float | None = None,
                    local_address: str | None = None,
                    socket_options: Iterable[Any] | None = None) -> httpcore.NetworkStream:
        local_ok = host.strip("[]").lower() in self._local_hosts
        host, port = connect_target(host, port, self._connect_to)
        addrs = resolve_checked(host, port, self._resolver, local_ok=local_ok)
        last: Exception | None = None
        for addr in addrs:
            try:
                return self._inner.connect_tcp(addr, port, timeout, local_address,
                                               socket_options)
            except httpcore.ConnectError as exc:
                last = exc
        assert last is not None
        raise last

    def connect_unix_socket(self, path: str, timeout: float | None = None,
                            socket_options: Iterable[Any] | None = None) -> httpcore.NetworkStream:
        raise SsrfRefused("unix sockets are not sources")

    def sleep(self, seconds: float) -> None:
        self._inner.sleep(seconds)


@cache
def shared_ssl_context() -> ssl.SSLContext:
    """One verifying TLS context per process: building one loads the CA bundle (tens of
    milliseconds), and every source's client needs the same settings (issue 19)."""
    return httpx.create_ssl_context(trust_env=False)


class GuardedTransport(httpx.HTTPTransport):
    """httpx's transport on a guarded backend; proxies from the environment are ignored."""

    def __init__(self, resolver: Resolver = system_resolver, *,
                 local_hosts: frozenset[str] = frozenset(), max_connections: int = 10,
                 connect_to: ConnectTo | None = None) -> None:
        super().__init__(verify=shared_ssl_context(), trust_env=False)
        self._pool = httpcore.ConnectionPool(
            ssl_context=shared_ssl_context(),
            max_connections=max_connections,
            max_keepalive_connections=max_connections,
            keepalive_expiry=5.0,
            network_backend=GuardedBackend(resolver, local_hosts=local_hosts,
                                           connect_to=connect_to),
        )
