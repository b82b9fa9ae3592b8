"""The SSRF guard moved to `sleuth.net` (the one door to the network, shared with the model
endpoints); these names stay importable from here for older callers."""

from __future__ import annotations

from sleuth.net.guard import (
    ConnectTo,
    GuardedBackend,
    Resolver,
    SsrfRefused,
    blocked_reason,
    check_addresses,
    connect_target,
    resolve_checked,
    system_resolver,
)
from sleuth.net.transport import GuardedTransport, shared_ssl_context

__all__ = ["ConnectTo", "GuardedBackend", "GuardedTransport", "Resolver", "SsrfRefused",
           "blocked_reason", "check_addresses", "connect_target", "resolve_checked",
           "shared_ssl_context", "system_resolver"]
