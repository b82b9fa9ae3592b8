"""The one door to the network: every HTTP request sleuth sends goes through a client built
here (`guarded_client`), whether it fetches a source or asks a model.

It sits just above `sleuth.model`, so `sources` and `llm` both build on it without either
importing the other. The door refuses private, loopback and link-local addresses except on
hosts configured as local (checked at the socket, so on every redirect hop too), bounds
connect, read and body time and body size, scrubs credentials from the HTTP stack's logs,
and takes a swapped-in httpx transport for tests. Names load on first use (PEP 562): the
command line's start-up does not pay for httpx.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sleuth._lazy import loader

if TYPE_CHECKING:
    from sleuth.net.body import BodyRefused, BodyTooLarge, read_body
    from sleuth.net.deadline import total_deadline
    from sleuth.net.guard import (
        ConnectTo,
        NetError,
        Resolver,
        SsrfRefused,
        resolve_checked,
        system_resolver,
    )
    from sleuth.net.redact import redact_headers, redact_url, register_secrets, scrub
    from sleuth.net.transport import (
        CheckedTransport,
        GuardedTransport,
        guarded_client,
        shared_ssl_context,
        timeout,
    )

__all__ = ["BodyRefused", "BodyTooLarge", "CheckedTransport", "ConnectTo", "GuardedTransport",
           "NetError", "Resolver", "SsrfRefused", "guarded_client", "read_body",
           "redact_headers", "redact_url", "register_secrets", "resolve_checked", "scrub",
           "shared_ssl_context", "system_resolver", "timeout", "total_deadline"]

__getattr__ = loader(__name__, {
    "sleuth.net.body": ("BodyRefused", "BodyTooLarge", "read_body"),
    "sleuth.net.deadline": ("total_deadline",),
    "sleuth.net.guard": ("ConnectTo", "NetError", "Resolver", "SsrfRefused",
                         "resolve_checked", "system_resolver"),
    "sleuth.net.redact": ("redact_headers", "redact_url", "register_secrets", "scrub"),
    "sleuth.net.transport": ("CheckedTransport", "GuardedTransport", "guarded_client",
                             "shared_ssl_context", "timeout"),
})
