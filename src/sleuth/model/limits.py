"""Bounded reading (issue 26, item 2): how much of a document sleuth reads, and for how long.

Two bounds, both one-line `InputError`s naming the file:

* **Size**, per kind of document (`MAX_BYTES`), counted on what is read after any
  decompression (a `.bz2` or GEDZIP member is inflated under the cap, never past it). A
  document past a quarter of its limit is read with a warning first (`warn`): reading plain
  text costs some 5-10 s of CPU a megabyte, and a user should not wait minutes unwarned.
* **Time**, per document (`document_budget`): the CPU seconds a document may take from the
  moment it is opened until it is stored (reading, extraction, staging), by default
  `MIN_SECONDS` or `SECONDS_PER_MB` for each megabyte it holds, whichever is more: several
  times what any well-formed document needs, so only input that makes a reader go
  super-linear meets it. Readers and extractors call `checkpoint()` in their loops; outside
  a `document_budget` it does nothing.

`read_limits(max_mb=..., seconds=...)` changes both for a block (`sleuth ingest --max-mb
--time-limit`). Everything is kept in context variables: a thread or task sees its own.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field, replace

from sleuth.model.errors import InputError

MB = 1024 * 1024
# The most of each kind of document read (bytes, after decompression). Text and HTML are
# read sentence by sentence by the prose extractor, the slowest reader (10 MB: about 1-2 min);
# a GEDCOM file of 64 MB holds some 230,000 persons.
MAX_BYTES: Mapping[str, int] = {
    "text": 10 * MB,
    "html": 10 * MB,
    "json": 32 * MB,
    "gedcom": 64 * MB,
    "pdf": 64 * MB,
    "xml": 64 * MB,  # hOCR, ALTO, pdftohtml XML
    "census": 16 * MB,  # FreeCEN .VLD
}
KIND_NAMES: Mapping[str, str] = {
    "text": "plain text", "html": "HTML", "json": "JSON", "gedcom": "GEDCOM", "pdf": "PDF",
    "xml": "OCR XML", "census": "FreeCEN census",
}
WARN_FRACTION = 0.25  # a document past this share of its limit is read with a warning
MIN_SECONDS = 60.0  # CPU seconds any document may take
SECONDS_PER_MB = 30.0  # and this many more for each megabyte it holds
_LOOK = 0.05  # wall seconds between two looks at the CPU clock (each costs ~0.5 µs)

log = logging.getLogger("sleuth.limits")


@dataclass(frozen=True)
class ReadLimits:
    """The bounds in force. `max_bytes` per kind; `seconds`: a fixed CPU budget for every
    document (None: scaled to its size, see the module); `on_warning`: where a warning goes
    (the command line prints it at once; default: the `sleuth.limits` logger)."""

    max_bytes: Mapping[str, int] = field(default_factory=lambda: dict(MAX_BYTES))
    seconds: float | None = None
    on_warning: Callable[[str], None] | None = None

    def limit(self, kind: str) -> int:
        return self.max_bytes.get(kind, max(self.max_bytes.values()))

    @property
    def largest(self) -> int:
        return max(self.max_bytes.values())


_DEFAULT = ReadLimits()
_LIMITS: ContextVar[ReadLimits | None] = ContextVar("sleuth_read_limits", default=None)


def current() -> ReadLimits:
    return _LIMITS.get() or _DEFAULT


@contextmanager
def read_limits(*, max_mb: float | None = None, seconds: float | None = None,
                max_bytes: Mapping[str, int] | None = None,
                on_warning: Callable[[str], None] | None = None) -> Iterator[ReadLimits]:
    """Read under other bounds inside the block: `max_mb` for every kind of document (or
    `max_bytes` per kind), `seconds` of CPU for each document, warnings to `on_warning`."""
    lim = current()
    if max_bytes is not None:
        lim = replace(lim, max_bytes={**lim.max_bytes, **max_bytes})
    if max_mb is not None:
        if max_mb <= 0:
            raise InputError("must be more than 0", field="--max-mb")
        lim = replace(lim, max_bytes={k: int(max_mb * MB) for k in lim.max_bytes})
    if seconds is not None:
        if seconds <= 0:
            raise InputError("must be more than 0", field="--time-limit")
        lim = replace(lim, seconds=seconds)
    if on_warning is not None:
        lim = replace(lim, on_warning=on_warning)
    token = _LIMITS.set(lim)
    try:
        yield lim
    finally:
        _LIMITS.reset(token)


def _mb(n: int) -> str:
    return f"{n / MB:.1f} MB" if n < 10 * MB else f"{n / MB:.0f} MB"


def too_large(kind: str, size: int, where: str | None, *, limit: int | None = None,
              what: str | None = None, at_least: bool = False) -> InputError:
    """The one-line refusal of a document of `kind` (or `what`) holding `size` bytes
    (`at_least`: it was still growing when reading stopped, a decompression say)."""
    limit = current().limit(kind) if limit is None else limit
    what = what or KIND_NAMES.get(kind, kind)
    if at_least:
        return InputError(f"too large to read: {what} of more than the limit of {_mb(limit)}"
                          " (`--max-mb` raises it)", file=where)
    return InputError(f"too large to read: {what} of {_mb(size)}; the limit is {_mb(limit)} "
                      "(`--max-mb` raises it)", file=where)


def check_size(kind: str, size: int, where: str | None) -> None:
    """Refuse a document of `kind` holding `size` bytes past its limit; warn past a quarter
    of it (before it is read); and give the document's time budget its size."""
    lim = current()
    limit = lim.limit(kind)
    if size > limit:
        raise too_large(kind, size, where, limit=limit)
    if size > limit * WARN_FRACTION:
        warn(f"{where or 'document'}: {_mb(size)} of {KIND_NAMES.get(kind, kind)}, "
             f"{size / limit:.0%} of the limit of {_mb(limit)}: reading it may take minutes")
    budget = _BUDGET.get()
    if budget is not None:
        budget.size(size)


def warn(message: str) -> None:
    sink = current().on_warning
    if sink is not None:
        sink(message)
    else:
        log.warning("%s", message)


class _Budget:
    """One document's CPU budget (see the module)."""

    __slots__ = ("deadline", "fixed", "next_look", "seconds", "started", "where")

    def __init__(self, where: str | None, fixed: float | None) -> None:
        self.where = where
        self.fixed = fixed
        self.started = time.process_time()
        self.seconds = fixed if fixed is not None else MIN_SECONDS
        self.deadline = self.started + self.seconds
        self.next_look = 0.0

    def size(self, size: int) -> None:
        if self.fixed is None:
            self.seconds = max(MIN_SECONDS, SECONDS_PER_MB * size / MB)
            self.deadline = self.started + self.seconds

    def spent(self) -> InputError:
        how = ("`--time-limit` gives it more" if self.fixed is not None
               else "`--time-limit` sets another")
        return InputError(f"too large or too complex to read: not done within its budget of "
                          f"{self.seconds:.0f} s of CPU ({how})", file=self.where)


_BUDGET: ContextVar[_Budget | None] = ContextVar("sleuth_document_budget", default=None)


@contextmanager
def document_budget(where: str | None) -> Iterator[None]:
    """Everything done inside the block for one document shares its CPU budget: a
    `checkpoint()` past it raises the one-line InputError naming `where`."""
    token = _BUDGET.set(_Budget(where, current().seconds))
    try:
        yield
    finally:
        _BUDGET.reset(token)


def checkpoint() -> None:
    """Raise InputError when the current document's CPU budget is spent (cheap: the CPU
    clock is read at most every `_LOOK` seconds; nothing at all outside a
    `document_budget`)."""
    b = _BUDGET.get()
    if b is None:
        return
    now = time.monotonic()
    if now < b.next_look:
        return
    b.next_look = now + _LOOK
    if time.process_time() > b.deadline:
        raise b.spent()
