"""The one door to the network: `guarded_client` builds every httpx client sleuth sends with.

What every client gets, sources and model endpoints alike:

* the SSRF guard (`sleuth.net.guard`) at the socket, so redirect hops httpx follows are
  checked like the first request; `local_hosts` names the only hosts that may resolve to
  private or loopback addresses (a `local: true` source, the model endpoint a user
  configured) - there is no blanket allowance for loopback;
* connect and read timeouts (`timeout`), and `sleuth.net.body.read_body` for a size cap
  and a total deadline on the body, inflating a compressed body under the cap (so the
  client asks only for the encodings it inflates: gzip and deflate);
* one verifying TLS context per process and trust setting (building one loads the CA
  bundle, tens of milliseconds);
* credentials registered for the log filter (`sleuth.net.redact`).

A test swaps the network by passing an httpx transport (`MockTransport`, say): it is
wrapped in `CheckedTransport`, which applies the same guard to each request's host by name
through the same resolver, so a test can prove a refusal without a socket.

`trust_env`: a source client never reads the environment (no proxy between the guard and
the address it checked, no CA bundle other than the system's). A model client reads it as
httpx does by default, because users reach hosted APIs through corporate proxies:
HTTP(S)_PROXY, ALL_PROXY and NO_PROXY (httpx's own reading of them) and SSL_CERT_FILE /
SSL_CERT_DIR. The proxy host is the user's own configuration and may be private; through a
proxy the proxy resolves names, so only address literals and localhost names are checked.
"""

from __future__ import annotations

import ssl
from collections.abc import Iterable, Mapping
from functools import cache

import httpcore
import httpx
from httpx._utils import get_environment_proxies  # the reading Client(trust_env=True) does

from sleuth.net.body import ACCEPT_ENCODING
from sleuth.net.guard import (
    ConnectTo,
    GuardedBackend,
    NetError,
    Resolver,
    check_addresses,
    connect_target,
    literal_address,
    resolve_checked,
    system_resolver,
)
from sleuth.net.redact import register_secrets

CONNECT_TIMEOUT = 10.0  # seconds: no reachable server needs longer to accept a connection


def timeout(seconds: float) -> httpx.Timeout:
    """`seconds` for each read, write and pool wait; connecting gets at most CONNECT_TIMEOUT."""
    return httpx.Timeout(seconds, connect=min(seconds, CONNECT_TIMEOUT))


def shared_ssl_context(trust_env: bool = False) -> ssl.SSLContext:
    """One verifying TLS context per process and trust setting (issue 19)."""
    return _ssl_context(bool(trust_env))


@cache
def _ssl_context(trust_env: bool) -> ssl.SSLContext:
    return httpx.create_ssl_context(trust_env=trust_env)


def _is_localhost(host: str) -> bool:
    host = host.rstrip(".").lower()
    return host == "localhost" or host.endswith(".localhost")


class GuardedTransport(httpx.HTTPTransport):
    """httpx's transport on a guarded backend, directly or through one proxy."""

    def __init__(self, resolver: Resolver = system_resolver, *,
                 local_hosts: frozenset[str] = frozenset(), max_connections: int = 10,
                 connect_to: ConnectTo | None = None, proxy: httpx.Proxy | None = None,
                 trust_env: bool = False) -> None:
        ctx = shared_ssl_context(trust_env)
        super().__init__(verify=ctx, trust_env=trust_env)
        self._local_hosts = local_hosts
        self._proxied = proxy is not None
        if proxy is None:
            self._pool = httpcore.ConnectionPool(
                ssl_context=ctx, max_connections=max_connections,
                max_keepalive_connections=max_connections, keepalive_expiry=5.0,
                network_backend=GuardedBackend(resolver, local_hosts=local_hosts,
                                               connect_to=connect_to))
            return
        if proxy.url.scheme not in ("http", "https"):
            raise NetError(f"proxy scheme {proxy.url.scheme!r} is not supported; "
                           "use an http:// or https:// proxy")
        self._pool = httpcore.HTTPProxy(
            proxy_url=httpcore.URL(scheme=proxy.url.raw_scheme, host=proxy.url.raw_host,
                                   port=proxy.url.port, target=proxy.url.raw_path),
            proxy_auth=proxy.raw_auth, proxy_headers=proxy.headers.raw, ssl_context=ctx,
            proxy_ssl_context=proxy.ssl_context, max_connections=max_connections,
            max_keepalive_connections=max_connections, keepalive_expiry=5.0,
            network_backend=GuardedBackend(
                resolver, local_hosts=local_hosts | {proxy.url.host.lower()},
                connect_to=connect_to))

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        if self._proxied:  # the proxy resolves names: check what can be checked here
            host = request.url.host.lower()
            if host not in self._local_hosts:
                literal = literal_address(host)
                if literal is not None or _is_localhost(host):
                    check_addresses(host, [literal or "127.0.0.1"], local_ok=False)
        return super().handle_request(request)


class CheckedTransport(httpx.BaseTransport):
    """A swapped-in transport behind the same guard, checked per request by host name."""

    def __init__(self, inner: httpx.BaseTransport, resolver: Resolver = system_resolver, *,
                 local_hosts: frozenset[str] = frozenset(),
                 connect_to: ConnectTo | None = None) -> None:
        self.inner = inner
        self._resolver = resolver
        self._local_hosts = local_hosts
        self._connect_to = dict(connect_to or {})

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        url = request.url
        host = url.host.lower()
        port = url.port or (443 if url.scheme == "https" else 80)
        if host not in self._local_hosts:
            try:
                resolve_checked(*connect_target(host, port, self._connect_to),
                                self._resolver, local_ok=False)
            except httpcore.ConnectError as exc:
                raise httpx.ConnectError(str(exc), request=request) from exc
        return self.inner.handle_request(request)

    def close(self) -> None:
        self.inner.close()


def env_proxy_mounts(resolver: Resolver, *, local_hosts: frozenset[str],
                     connect_to: ConnectTo | None = None
                     ) -> dict[str, httpx.BaseTransport | None]:
    """httpx mounts for the environment's proxies; None (NO_PROXY) means the direct door."""
    mounts: dict[str, httpx.BaseTransport | None] = {}
    for pattern, url in get_environment_proxies().items():
        if url is None:
            mounts[pattern] = None
            continue
        proxy = httpx.Proxy(url)
        register_secrets(proxy.url.password)
        mounts[pattern] = GuardedTransport(resolver, local_hosts=local_hosts,
                                           connect_to=connect_to, proxy=proxy, trust_env=True)
    return mounts


def guarded_client(*, local_hosts: Iterable[str] = (), resolver: Resolver = system_resolver,
                   connect_to: ConnectTo | None = None, timeout_s: float = 30.0,
                   trust_env: bool = False, transport: httpx.BaseTransport | None = None,
                   headers: Mapping[str, str] | None = None, follow_redirects: bool = False,
                   secrets: Iterable[str | None] = (), max_connections: int = 10
                   ) -> httpx.Client:
    """An httpx client that can reach only public addresses and `local_hosts`.

    `trust_env` reads proxies and CA settings from the environment (model endpoints only,
    see the module docstring); `transport` replaces the network (tests); `secrets` are the
    credentials this client will send, scrubbed from the HTTP stack's logs."""
    register_secrets(*secrets)
    allowed = frozenset(h.lower() for h in ([local_hosts] if isinstance(local_hosts, str)
                                            else local_hosts))
    mounts: dict[str, httpx.BaseTransport | None] = {}
    base: httpx.BaseTransport
    if transport is not None:
        base = CheckedTransport(transport, resolver, local_hosts=allowed, connect_to=connect_to)
    else:
        base = GuardedTransport(resolver, local_hosts=allowed, connect_to=connect_to,
                                trust_env=trust_env, max_connections=max_connections)
        if trust_env:
            mounts = env_proxy_mounts(resolver, local_hosts=allowed, connect_to=connect_to)
    # only encodings `read_body` inflates under its cap (httpx would also offer zstd)
    headers = {"Accept-Encoding": ACCEPT_ENCODING, **(headers or {})}
    return httpx.Client(transport=base, mounts=mounts, headers=headers,
                        timeout=timeout(timeout_s), follow_redirects=follow_redirects,
                        trust_env=False)
