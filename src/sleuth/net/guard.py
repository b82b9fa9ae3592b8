"""SSRF guard: refuse private, loopback, link-local, multicast and reserved addresses.

The check runs where the socket is opened (`GuardedBackend.connect_tcp`): the host is
resolved once, every address is checked, and the connection goes to a checked address, so a
DNS answer cannot change between the check and the connect, and every redirect hop gets the
same check. A host named in `local_hosts` (a source configured `local: true`, the model
endpoint the user configured) may resolve to private addresses; nothing else may, so a
redirect from a local host to any other private host is still refused. Each socket's
operations are also bounded by a total deadline where one is set (`sleuth.net.deadline`).
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import httpcore

from sleuth.model.errors import SleuthError
from sleuth.net.deadline import DeadlineStream, bounded

Resolver = Callable[[str, int], list[str]]
IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
ConnectTo = Mapping[str, tuple[str, int]]  # "host:port" -> (address, port), as curl's


class NetError(SleuthError):
    """The network door refused a request or a response (address, size, time)."""


class SsrfRefused(NetError):
    """A request would reach an address it must not reach."""


def system_resolver(host: str, port: int) -> list[str]:
    """All addresses of `host` (A and AAAA), via the OS resolver."""
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return list(dict.fromkeys(str(info[4][0]) for info in infos))


def blocked_reason(ip: IPAddress) -> str | None:
    """Why an address is off limits for a public host, or None when it is public."""
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
        why = blocked_reason(ipaddress.ip_address(a.split("%", 1)[0]))
        if why:
            raise SsrfRefused(f"refused {host} ({a}): {why} address, and {host} is not "
                              "configured as local")
    return addrs


def literal_address(host: str) -> str | None:
    """`host` as an address when it is an IP literal (brackets and zone allowed), else None."""
    bare = host.strip("[]")
    try:
        ipaddress.ip_address(bare.split("%", 1)[0])
    except ValueError:
        return None
    return bare


def connect_target(host: str, port: int, connect_to: ConnectTo | None) -> tuple[str, int]:
    """Where a connection to `host:port` goes: `connect_to`'s mapping, else itself."""
    return (connect_to or {}).get(f"{host.strip('[]').lower()}:{port}", (host, port))


def resolve_checked(host: str, port: int, resolver: Resolver, *, local_ok: bool,
                    connect_to: ConnectTo | None = None) -> list[str]:
    """Resolve `host` (an IP literal resolves to itself) and check every address."""
    host, port = connect_target(host, port, connect_to)
    bare = host.strip("[]")
    literal = literal_address(bare)
    if literal is not None:
        addrs = [literal]
    else:
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
            try:  # every operation bounded by a total deadline, where one is set
                return DeadlineStream(self._inner.connect_tcp(
                    addr, port, bounded(timeout, httpcore.ConnectTimeout), local_address,
                    socket_options))
            except httpcore.ConnectError as exc:
                last = exc
        assert last is not None
        raise last

    def connect_unix_socket(self, path: str, timeout: float | None = None,
                            socket_options: Iterable[Any] | None = None) -> httpcore.NetworkStream:
        raise SsrfRefused("unix sockets are not network hosts")

    def sleep(self, seconds: float) -> None:
        self._inner.sleep(seconds)
