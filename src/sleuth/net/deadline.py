"""A total deadline for everything a block of code does on the network.

httpx's timeouts are per operation: a server that answers one byte every few seconds never
trips a read timeout, in the status line and headers as in the body. Inside
`total_deadline(seconds)` every connect, read and write on a socket opened by the door
(`sleuth.net.guard.GuardedBackend`) gets at most the time left, and fails with a timeout
once none is left, so the whole exchange ends within `seconds` however the server drips.
The deadline is a context variable: it holds for the calling thread only, and outside such
a block nothing changes.
"""

from __future__ import annotations

import ssl
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

import httpcore

_DEADLINE: ContextVar[float | None] = ContextVar("sleuth_net_deadline", default=None)


@contextmanager
def total_deadline(seconds: float) -> Iterator[float]:
    """Network operations inside the block end within `seconds` in all (a nested block
    can only shorten the deadline); yields the deadline on `time.monotonic`'s clock."""
    outer = _DEADLINE.get()
    deadline = time.monotonic() + seconds
    if outer is not None:
        deadline = min(deadline, outer)
    token = _DEADLINE.set(deadline)
    try:
        yield deadline
    finally:
        _DEADLINE.reset(token)


def bounded(timeout: float | None, exc: type[Exception] = httpcore.ReadTimeout) -> float | None:
    """`timeout` shortened to the time left before the deadline; `exc` when none is left."""
    deadline = _DEADLINE.get()
    if deadline is None:
        return timeout
    left = deadline - time.monotonic()
    if left <= 0:
        raise exc("total deadline passed")
    return left if timeout is None else min(timeout, left)


class DeadlineStream(httpcore.NetworkStream):
    """A socket stream whose every operation is bounded by the current total deadline."""

    def __init__(self, inner: httpcore.NetworkStream) -> None:
        self._inner = inner

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return self._inner.read(max_bytes, bounded(timeout))

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self._inner.write(buffer, bounded(timeout, httpcore.WriteTimeout))

    def close(self) -> None:
        self._inner.close()

    def start_tls(self, ssl_context: ssl.SSLContext, server_hostname: str | None = None,
                  timeout: float | None = None) -> httpcore.NetworkStream:
        return DeadlineStream(self._inner.start_tls(
            ssl_context, server_hostname, bounded(timeout, httpcore.ConnectTimeout)))

    def get_extra_info(self, info: str) -> Any:
        return self._inner.get_extra_info(info)
