"""Identifiers that a replayed run reproduces.

Every row id comes from `new_id()`. Outside a stream it is a random UUID (a person's own
edit, a review decision). Inside `id_stream(namespace)` - a research run, one file's ingest -
it is the namespace's hash (16 hex) then a counter (16 hex, from a start the hash also
picks): the same inputs processed in the same order give the same ids, so every tie that
falls back to an id, every footnote order and every export is the same twice (the guide's
"same inputs, same outputs"). The namespace must differ between two streams that write into
one case: callers derive it from what the case already holds (`Store.id_namespace`) or from
the content being ingested.

A stream's ids ascend in the order they are drawn, so the rows one ingest or one research
run writes land at the end of each index they are keyed in (primary keys, citations by
assertion, assertions by person): a hashed counter put each row on a random page of each,
and SQLite's inserts cost more a row as the case grew (issue 19). Within a stream the ids
share their head and differ in their tail, which is what names one in a few characters.

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
        digest = hashlib.sha256(f"{namespace}\x1f".encode()).hexdigest()
        self._head = digest[:16]
        # the counter starts at a point the namespace picks (< 2**60, so 16 hex digits
        # never overflow): ids of two streams differ in their tails too, which are what a
        # user types to name one (`sleuth show`), as the heads are shared
        self._count = itertools.count(int(digest[16:31], 16))

    def next(self) -> str:
        return f"{self._head}{next(self._count):016x}"


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
