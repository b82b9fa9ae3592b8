"""Identifiers that a replayed run reproduces.

Every row id comes from `new_id()`. Outside a stream it is a random UUID (a person's own
edit, a review decision). Inside `id_stream(namespace)` - a research run, one file's ingest -
it is the next hash of (namespace, counter): the same inputs processed in the same order give
the same ids, so every tie that falls back to an id, every footnote order and every export
is the same twice (the guide's "same inputs, same outputs"). The namespace must differ
between two streams that write into one case: callers derive it from what the case already
holds (`Store.id_namespace`) or from the content being ingested.

The stream is a context variable holding a mutable counter, so threads that copy the
context (LangGraph's executor does) draw from the same sequence.
"""

from __future__ import annotations

import hashlib
import itertools
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar


class _Stream:
    def __init__(self, namespace: str) -> None:
        self.namespace = namespace
        self._count = itertools.count()
        # sha256 of f"{namespace}\x1f{n}": the hashed prefix is copied, not hashed again
        self._prefix = hashlib.sha256(f"{namespace}\x1f".encode())

    def next(self) -> str:
        h = self._prefix.copy()
        h.update(str(next(self._count)).encode())
        return h.hexdigest()[:32]


_STREAM: ContextVar[_Stream | None] = ContextVar("sleuth_id_stream", default=None)


def new_id() -> str:
    """A 32-hex id: the stream's next one, or a random UUID outside a stream."""
    stream = _STREAM.get()
    return stream.next() if stream is not None else uuid.uuid4().hex


def stable_id(*parts: str) -> str:
    """An id named by its content (the same parts, the same id, in any process)."""
    return hashlib.sha256("\x1f".join(parts).encode()).hexdigest()[:32]


@contextmanager
def id_stream(namespace: str) -> Iterator[None]:
    """Within the block, `new_id()` is deterministic for `namespace`. A stream already
    active is kept (an ingest inside a research run draws from the run's stream)."""
    if _STREAM.get() is not None:
        yield
        return
    token = _STREAM.set(_Stream(namespace))
    try:
        yield
    finally:
        _STREAM.reset(token)
