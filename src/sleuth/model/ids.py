"""Identifiers that a replayed run reproduces.

Every row id comes from `new_id()`. Outside a stream it is a random UUID (a person's own
edit, a review decision). Inside `id_stream(namespace)` - a research run, one file's ingest -
it is the next hash of (namespace, counter): the same inputs processed in the same order give
the same ids, so every tie that falls back to an id, every footnote order and every export
is the same twice (the guide's "same inputs, same outputs"). The namespace must differ
between two streams that write into one case: callers derive it from what the case already
holds (`Store.id_namespace`) or from the content being ingested.

An ordered stream (`id_stream(..., ordered=True)`: one file's ingest) puts its counter
first, from a start the namespace picks, then 22 hex that scramble it (the counter times
a large odd number, plus an offset the namespace picks: one-to-one, so no two of a stream
are alike, and no hash to compute per id): its ids ascend in the order they are drawn,
so a large file's rows land at the end of every index they are keyed in (primary keys,
assertions by person, citations by assertion) instead of on a random page of each, which
made SQLite's inserts cost more a row as the case grew (issue 19: a 100,000-person tree's
ingest spent 85 s of CPU in them, 45 s ordered). Ids drawn together share their first
few characters and differ from the tenth, and in their last; two streams start far
apart. A research run's ids stay hashed: its decisions and outputs are unchanged.

The stream is a context variable holding a mutable counter, so threads that copy the
context (LangGraph's executor does) draw from the same sequence.

A resumable stream (`id_stream(..., key=...)`: a research run) says where it stands
(`stream_mark`), and the store keeps that with every transaction it commits; a run resumed
after a `kill -9` starts its stream again where the last commit left it (`start`), so the
work redone draws the very ids the uninterrupted run drew, and every tie that falls back
to an id falls the same way (a resumed case equals an uninterrupted one).
"""

from __future__ import annotations

import hashlib
import itertools
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

_ORDER_DIGITS = 10  # an ordered stream's counter, in hex: 2**39 draws from any start
_ORDER_MASK = (1 << 4 * _ORDER_DIGITS) - 1
_TAIL_BITS = 88  # the 22 hex after the counter
_TAIL_MASK = (1 << _TAIL_BITS) - 1
_SCRAMBLE = 0x9E3779B97F4A7C15F39CC1  # odd: n -> n * _SCRAMBLE is one-to-one mod 2**88


class _Stream:
    def __init__(self, namespace: str, ordered: bool = False, start: int = 0,
                 key: str | None = None) -> None:
        if ordered and (start or key):
            raise ValueError("an ordered stream is not resumable")
        self.namespace = namespace
        self.key = key
        self._count = itertools.count(start)
        self.drawn = start  # the hashed ids drawn so far (a resumable stream's position)
        self.outer: tuple[str, int] | None = None  # inside an `id_unit`: where the run is
        self.resume_at: dict[str, int] = {}  # units a killed process had begun: drawn
        # sha256 of f"{namespace}\x1f{n}": the hashed prefix is copied, not hashed again
        self._prefix = hashlib.sha256(f"{namespace}\x1f".encode())
        digest = int(self._prefix.hexdigest(), 16)
        self._start = digest >> 217 if ordered else None  # < 2**39: 2**39 draws fit
        self._offset = digest & _TAIL_MASK
        # An ordered stream's next id as one number, counter and tail side by side: each
        # draw adds one to the counter and `_SCRAMBLE` to the tail, each modulo its width,
        # which is (start + n, offset + n * _SCRAMBLE) without a multiplication of large
        # numbers or two formattings per id (a 100,000-person tree draws 3 million)
        self._next = (None if self._start is None
                      else self._start << _TAIL_BITS | self._offset)

    def goto(self, namespace: str, drawn: int) -> None:
        """Draw on from `drawn` ids into the hashed namespace `namespace`."""
        self.namespace, self.drawn = namespace, drawn
        self._count = itertools.count(drawn)
        self._prefix = hashlib.sha256(f"{namespace}\x1f".encode())

    def next(self) -> str:
        value = self._next
        if value is not None:
            tail = (value & _TAIL_MASK) + _SCRAMBLE
            self._next = (((value >> _TAIL_BITS) + 1 & _ORDER_MASK) << _TAIL_BITS
                          | tail & _TAIL_MASK)
            return "%032x" % value  # noqa: UP031 - half the time of a format spec
        h = self._prefix.copy()
        n = next(self._count)
        self.drawn = n + 1
        h.update(str(n).encode())
        return h.hexdigest()[:32]


_STREAM: ContextVar[_Stream | None] = ContextVar("sleuth_id_stream", default=None)


def new_id() -> str:
    """A 32-hex id: the stream's next one, or a random UUID outside a stream."""
    stream = _STREAM.get()
    return stream.next() if stream is not None else uuid.uuid4().hex


def stable_id(*parts: str) -> str:
    """An id named by its content (the same parts, the same id, in any process)."""
    return hashlib.sha256("\x1f".join(parts).encode()).hexdigest()[:32]


def stream_mark() -> tuple[str, dict[str, Any]] | None:
    """(key, where it stands) of the active resumable stream, else None: its namespace and
    ids drawn (the run's, outside any unit) and, inside an `id_unit`, the unit's."""
    stream = _STREAM.get()
    if stream is None or stream.key is None:
        return None
    here = (stream.namespace, stream.drawn)
    run, unit = (stream.outer, here) if stream.outer else (here, None)
    return stream.key, {"namespace": run[0], "drawn": run[1],
                        "unit": None if unit is None else {"namespace": unit[0],
                                                           "drawn": unit[1]}}


@contextmanager
def id_unit(label: str) -> Iterator[None]:
    """A unit of work of the active resumable stream (none: nothing changes) draws its ids
    from a namespace of its own, and the run's stream goes on after it where it was before
    it: ids a unit redone after a kill draws again (a pass re-reading what it already
    recorded) shift no id drawn after it. A unit the killed process had begun carries on
    past the ids it drew."""
    stream = _STREAM.get()
    if stream is None or stream.key is None or stream.outer is not None:
        yield
        return
    outer = (stream.namespace, stream.drawn)
    namespace = f"{outer[0]}/{label}"
    stream.outer = outer
    stream.goto(namespace, stream.resume_at.pop(namespace, 0))
    try:
        yield
    finally:
        stream.outer = None
        stream.goto(*outer)


@contextmanager
def id_stream(namespace: str, *, ordered: bool = False, start: int = 0,
              key: str | None = None, unit: tuple[str, int] | None = None) -> Iterator[None]:
    """Within the block, `new_id()` is deterministic for `namespace` (and ascends with
    `ordered`). A stream already active is kept (an ingest inside a research run draws
    from the run's stream). `key` makes it resumable (`stream_mark`); `start`: the ids
    its earlier part drew, skipped; `unit`: the `id_unit` its earlier part was in."""
    if _STREAM.get() is not None:
        yield
        return
    stream = _Stream(namespace, ordered, start, key)
    if unit is not None:
        stream.resume_at[unit[0]] = unit[1]
    token = _STREAM.set(stream)
    try:
        yield
    finally:
        _STREAM.reset(token)
