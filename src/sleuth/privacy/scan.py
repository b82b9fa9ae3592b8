"""The PII scanner: finds personal data in stored snapshots and in every output path.

Snapshots keep their original bytes (nothing is lost); the scanner only *records* what they
hold - SSNs and national ids, e-mail addresses, phone numbers (North American, "+"
international, UK, SE, FR, DE), street addresses, and the exact birth dates of persons the
Censor treats as living - so a reviewer knows which sources need care. Exports never carry a
snapshot's text unredacted: `censor` empties or masks it first, and the same scan run over
each output (see `sleuth.export.privacy_report`) must find no living person's data there.

A finding records kind, location and character span, never the matched text, so the
compliance log it is written to (`log_findings`, agent Censor) is itself safe to print.
"""

from __future__ import annotations

import hashlib
import json
import re
from bisect import bisect_right
from collections import Counter
from collections.abc import Iterable, Iterator
from collections.abc import Set as AbstractSet
from dataclasses import asdict, dataclass
from datetime import date, timedelta
from itertools import accumulate, compress
from typing import Any

from sqlalchemy import Connection

from sleuth.model.dates import GenDate
from sleuth.model.graph import CaseGraph
from sleuth.model.records import Agent, AssertionStatus, LogEntry, Snapshot
from sleuth.privacy.pii import (
    NATIONAL_PHONE_RE,
    PERSONNUMMER_RE,
    PHONE_RE,
    SCAN_PATTERNS,
    SSN_RE,
    DigitRuns,
    Literals,
    finditer_pii,
)
from sleuth.privacy.written_dates import DayIndex
from sleuth.store import Store
from sleuth.store.research_log import contexts
from sleuth.store.snapshots import snapshot_texts

ACTION = "pii_finding"
MAX_SPANS = 50  # spans kept per logged location; counts are always complete


@dataclass(frozen=True)
class Finding:
    where: str  # "snapshot:<id>" or "output:<path>"
    kind: str  # ssn, national_id, email, phone, address, living_birth_date
    start: int
    end: int
    person_id: str | None = None

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class BirthDays:
    """The living persons' day-precise birth dates, found in a text in one pass whatever
    their number (`written_dates.DayIndex`): one regex per person over every output was
    quadratic."""

    owners: list[str]  # person id per entry of `days`, in graph order
    days: DayIndex
    # entries whose day is also an exact date of a person not living (shown as history):
    # found in an output, such a day is no evidence of a leak (`SHARED_DAY`)
    shared: frozenset[int] = frozenset()

    def __bool__(self) -> bool:
        return bool(self.owners)

    def kind(self, entry: int) -> str:
        return SHARED_DAY if entry in self.shared else "living_birth_date"

    def findings(self, text: str, where: str) -> list[Finding]:
        """Each person's matches, person by person in graph order, spans in text order."""
        out: list[Finding] = []
        for i, (pid, spans) in enumerate(zip(self.owners, self.days.spans(text), strict=True)):
            out += [Finding(where, self.kind(i), a, b, person_id=pid) for a, b in spans]
        return out


# A living person's birth day that is also the exact date of a deceased person's fact (Rosemary
# Kennedy, no death in kennedy.ged, was born on a day her long-dead sister's record also
# gives): the day is printed as the dead person's history, and whether the living person's
# own claim leaks is proved on the censored view instead (`exact_dates_of_living`).
SHARED_DAY = "day_shared_with_deceased"


def living_birth_patterns(graph: CaseGraph, living: set[str]) -> BirthDays:
    """Each day-precise birth date of a living person, as one index for `scan_text`."""
    owners: list[str] = []
    days: list[date] = []
    history = {gd.earliest for pid, claims in graph.assertions.items() if pid not in living
               for c in claims if c.status is not AssertionStatus.REJECTED
               and (gd := c.date) is not None and gd.earliest is not None
               and gd.earliest == gd.latest}
    for person in graph.persons:
        if person.id not in living:
            continue
        dates = [person.birth]
        dates += [c.date for c in graph.assertions.get(person.id, [])
                  if c.field_name == "birth_date"]
        seen: set[date] = set()
        for gd in dates:
            if gd is None or gd.earliest is None or gd.earliest != gd.latest:
                continue
            if gd.earliest in seen:
                continue
            seen.add(gd.earliest)
            owners.append(person.id)
            days.append(gd.earliest)
    shared = frozenset(i for i, d in enumerate(days) if d in history)
    return BirthDays(owners, DayIndex(days), shared)


def exact_dates_of_living(shown: CaseGraph, living: set[str]) -> list[Finding]:
    """Living persons' own dates (birth, death) and claims that still carry a day-precise
    date in the censored view every output is rendered from: none may (the Censor coarsens
    them to the decade). With the text scan this proves an output clean even where a
    living person's birth day is also a dead person's, which the scan alone cannot tell
    apart."""
    own = [Finding("view", "living_exact_date", 0, 0, person_id=p.id)
           for p in shown.persons if p.id in living
           for gd in (p.birth, p.death) if _is_day(gd)]
    return own + [Finding("view", "living_exact_date", 0, 0, person_id=pid)
                  for pid in sorted(living) for c in shown.assertions.get(pid, [])
                  if _is_day(c.date)]


def _is_day(gd: GenDate | None) -> bool:
    return gd is not None and gd.earliest is not None and gd.earliest == gd.latest


def first_places(low: str, values: set[str]) -> dict[str, int]:
    """value -> where it first occurs in `low` (both lower case), for many values in one
    pass: the trie pattern gives the longest value starting at each position, and every
    value starting there is a prefix of it."""
    out: dict[str, int] = {}
    if not values:
        return out
    shortest = min(map(len, values))
    for start, end in Literals(values).starts(low):
        hit = low[start:end]
        for k in range(shortest, len(hit) + 1):
            if hit[:k] in values:
                out.setdefault(hit[:k], start)
    return out


def may_match(text: str) -> bool:
    """Whether any pattern `scan_text` looks for can match in `text` (see `_INERT`)."""
    return _MAY_MATCH.search(text) is not None and _INERT.fullmatch(text) is None


def scan_text(
    text: str,
    where: str,
    *,
    births: BirthDays | None = None,
    kinds: tuple[str, ...] = tuple(SCAN_PATTERNS),
    known: AbstractSet[str] = frozenset(),
) -> list[Finding]:
    """Every PII match in `text` (overlapping matches of one kind counted once), but in
    the stretches between quotes that are `known` (strings scanned already).

    Each distinct stretch between double quotes is searched once (`_Distinct`): outputs
    such as JSON-LD repeat the same strings thousands of times, and a match never holds a
    quote, so the spans are exactly those of searching the whole text."""
    dist = _Distinct(text, known)
    return _scan(dist.joined, where, births, kinds, dist, text)


def scan_strings(strings: Iterable[str], where: str, *, births: BirthDays | None = None,
                 kinds: tuple[str, ...] = tuple(SCAN_PATTERNS)) -> list[Finding]:
    """`scan_text` of distinct strings, each as a stretch of its own: what scanning a text
    that quotes each of them finds in them, at offsets into the strings sorted and joined
    by quotes."""
    joined = '"'.join(sorted(s for s in set(strings) if may_match(s)))
    return _scan(joined, where, births, kinds, None, joined)


def _scan(joined: str, where: str, births: BirthDays | None, kinds: tuple[str, ...],
          dist: _Distinct | None, text: str) -> list[Finding]:
    """The matches in `joined` (a text's distinct stretches), placed in `text` by `dist`."""
    runs = DigitRuns(joined)
    per_kind: list[tuple[str, set[tuple[int, int]]]] = []
    for kind in kinds:
        spans: set[tuple[int, int]] = set()
        for pattern in SCAN_PATTERNS[kind]:
            if pattern in _ONE_SEARCH:
                spans.update(runs.spans(pattern))
            else:
                spans.update(m.span() for m in finditer_pii(pattern, joined, runs))
        per_kind.append((kind, spans))
    days = births.days.spans(joined) if births else []
    place = dist.spans if dist is not None else list
    if dist is not None:
        dist.locate([span for _, spans in per_kind for span in spans]
                    + [span for hits in days for span in hits])
    found: list[Finding] = []
    for kind, spans in per_kind:
        found += [Finding(where, kind, a, b) for a, b in sorted(place(spans))]
    if births:
        for i, (pid, hits) in enumerate(zip(births.owners, days, strict=True)):
            found += [Finding(where, births.kind(i), a, b, person_id=pid)
                      for a, b in sorted(place(hits))
                      if not _decade_bound(text, a, b) and not _period_bound(text, a, b)]
    return found


def _decade_bound(text: str, a: int, b: int) -> bool:
    """Whether `text[a:b]` is a bound of the decade the Censor coarsened a birth to, as a
    date's JSON writes it (`"earliest":"1930-01-01"`, `"latest":"1939-12-31"`): the same
    characters for every living person of that decade, so no one's day. A person born on
    such a day has it found everywhere else it is written."""
    iso = text[a:b]
    if len(iso) != 10 or iso[4] != "-" or not iso[:4].isdigit():
        return False
    before = text[max(0, a - 12):a]
    return ((iso[3] == "0" and iso[4:] == "-01-01" and before.endswith('"earliest":"'))
            or (iso[3] == "9" and iso[4:] == "-12-31" and before.endswith('"latest":"')))


_EARLIEST, _LATEST = '"earliest":"', '","latest":"'


def _period_bound(text: str, a: int, b: int) -> bool:
    """Whether `text[a:b]` is a bound of whole calendar months as a date's JSON writes it,
    both bounds together (`"earliest":"1898-06-01","latest":"1898-06-30"`: a date of month
    or year precision, or between two years): the same characters for every date of those
    months, so no one's day (a 100,000-person `sleuth show` view has thousands of deceased
    persons' "JUN 1898" and "BET 1739 AND 1741" for living persons born 1 June 1898 or
    1 January 1739). Only the dead have such dates in the view (every date of the living
    is a decade, and `exact_dates_of_living` proves no day); a living person's day written
    in any other way, or bounding a shorter range, is still found."""
    if text.startswith(_LATEST, b) and text.endswith(_EARLIEST, max(0, a - 12), a):
        lo, hi = text[a:b], text[b + 12:b + 22]
    elif text.endswith(_LATEST, max(0, a - 12), a) and \
            text.endswith(_EARLIEST, max(0, a - 34), a - 22):
        lo, hi = text[a - 22:a - 12], text[a:b]
    else:
        return False
    try:
        first, last = date.fromisoformat(lo), date.fromisoformat(hi)
    except ValueError:
        return False
    return first.day == 1 and first < last and (last + timedelta(days=1)).day == 1


# the patterns `DigitRuns.spans` searches in one pass (every gated pattern but the NINO's)
_ONE_SEARCH = frozenset({SSN_RE, PERSONNUMMER_RE, PHONE_RE, NATIONAL_PHONE_RE})
_MAY_MATCH = re.compile(r"[\d@]")  # every scanned pattern needs a digit or an "@"
# Stretches no pattern can match in: every match holds an "@", an upper-case letter (a
# NINO's) or a separator (space, comma, one of "().+/-"), and these hold none. Ids such
# as "urn:sleuth:person:<hex>" are a third of a JSON output (issue 19).
_INERT = re.compile(r"[a-z0-9:_#=]*")


class _Distinct:
    """The distinct quote-separated stretches of a text that can hold a match (a digit or
    an "@", and not `_INERT`), joined by quotes into one shorter text, and where each of
    them occurs. The patterns' edges read a quote as they read a text's start or end, so a
    match found in the joined text is a match at every occurrence of its stretch, and no
    other exists.

    Where a stretch occurs is looked up only for the stretches a match was found in
    (`locate`), in one pass at C speed: a JSON output has a million stretches, and a loop
    over them in Python was most of a scan's time. A text longer than `_WHOLE` is split a
    block at a time, in each pass (`_blocks`): split whole, a 100,000-person output's 86
    million stretches took more memory than the case; a shorter one is split once."""

    def __init__(self, text: str, known: AbstractSet[str] = frozenset()) -> None:
        self._text = text
        if '"' not in text:
            text = "" if text in known else text
            self.joined, self._segs, self._starts = text, [text], [0]
            self._places: dict[str, list[int]] = {text: [0]}
            return
        # a set, not `dict.fromkeys`: half the time over a million stretches; sorted, as
        # the order matters to no match (none holds a quote) but the joined text is the same
        self._whole = text.split('"') if len(text) <= _WHOLE else None
        distinct: set[str] = set()
        for _, parts in self._split():
            distinct.update(parts)
        distinct -= known
        self._segs = sorted(seg for seg in distinct if seg and may_match(seg))
        self._starts = list(accumulate(map(_plus_one, map(len, self._segs[:-1])), initial=0))
        self.joined = '"'.join(self._segs)
        self._places = {}

    def _split(self) -> Iterable[tuple[int, list[str]]]:
        """The text's stretches as `_blocks` gives them (one block when split whole)."""
        return [(0, self._whole)] if self._whole is not None else _blocks(self._text)

    def _seg(self, a: int) -> tuple[str, int]:
        """The stretch holding joined-text offset `a`, and the offset within it."""
        i = bisect_right(self._starts, a) - 1
        return self._segs[i], a - self._starts[i]

    def locate(self, found: Iterable[tuple[int, int]]) -> None:
        """Find where the stretches holding these spans occur (one pass for all)."""
        need = {self._seg(a)[0] for a, _ in found} - self._places.keys()
        if not need:
            return
        if len(need) <= _FIND_AT_MOST:
            for seg in need:
                self._places[seg] = self._find(seg)
            return
        for seg in need:
            self._places[seg] = []
        for base, parts in self._split():
            starts = accumulate(map(_plus_one, map(len, parts)), initial=base)
            wanted = map(need.__contains__, parts)
            for seg, at in compress(zip(parts, starts, strict=False), wanted):
                self._places[seg].append(at)

    def _find(self, seg: str) -> list[int]:
        """Where `seg` occurs as a whole stretch, in order, by substring search: for a few
        stretches that is faster than a pass over a million (`locate`)."""
        text = self._text
        out = [0] if text.startswith(seg + '"') else []
        quoted = f'"{seg}"'
        at = text.find(quoted)
        while at >= 0:
            out.append(at + 1)
            at = text.find(quoted, at + len(seg) + 1)  # its closing quote may open the next
        if text.endswith('"' + seg):
            out.append(len(text) - len(seg))
        return out

    def spans(self, found: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
        """Spans in the joined text -> the same matches at every occurrence in the text."""
        found = list(found)
        self.locate(found)
        out: list[tuple[int, int]] = []
        for a, b in found:
            seg, rel = self._seg(a)
            out += [(at + rel, at + rel + b - a) for at in self._places[seg]]
        return out


_plus_one = (1).__add__
_BLOCK = 1 << 22  # characters `_blocks` splits at a time (and up to the next quote)
_WHOLE = 1 << 27  # texts up to this long are split whole, once (10,000 persons' are)


def _blocks(text: str) -> Iterator[tuple[int, list[str]]]:
    """`text.split('"')` a block at a time: (where the block's first stretch starts, the
    block's stretches). Each block ends at a quote, so the blocks' stretches, one after
    another, are exactly the whole text's."""
    at, n = 0, len(text)
    while True:
        end = n if n - at <= _BLOCK else text.find('"', at + _BLOCK)
        if end < 0:
            end = n
        yield at, text[at:end].split('"')
        if end >= n:
            return
        at = end + 1
_FIND_AT_MOST = 16  # stretches `_Distinct.locate` finds by substring search, not a pass


def scan_snapshots(graph: CaseGraph, living: set[str]) -> list[Finding]:
    """Findings in every snapshot's stored text (the raw graph, before any censoring)."""
    births = living_birth_patterns(graph, living)
    out: list[Finding] = []
    for sid, snap in sorted(graph.snapshots.items()):
        out += scan_text(snap.text, f"snapshot:{sid}", births=births)
    return out


def scan_stored_snapshots(store: Store, graph: CaseGraph, living: set[str]) -> list[Finding]:
    """Findings in every stored snapshot, cited or not (a case graph holds only the cited
    ones, but an uncited letter can still hold an e-mail address)."""
    return scan_stored_texts(store, living_birth_patterns(graph, living))


def scan_stored_texts(store: Store, births: BirthDays | None) -> list[Finding]:
    """`scan_stored_snapshots` with the living persons' birth days given (the privacy
    report has them, and no longer the case graph they were read from)."""
    out: list[Finding] = []
    with store.engine.connect() as conn:
        for sid, text in snapshot_texts(conn):
            out += scan_text(text or "", f"snapshot:{sid}", births=births)
    return out


def summarise(findings: list[Finding]) -> dict[str, dict[str, int]]:
    """where -> kind -> count."""
    out: dict[str, Counter[str]] = {}
    for f in findings:
        out.setdefault(f.where, Counter())[f.kind] += 1
    return {where: dict(sorted(c.items())) for where, c in sorted(out.items())}


def _fingerprint(where: str, findings: list[Finding]) -> str:
    spans = sorted((f.kind, f.start, f.end) for f in findings)
    return hashlib.sha256(json.dumps([where, spans]).encode()).hexdigest()[:16]


def log_findings(store: Store, findings: list[Finding]) -> int:
    """Record findings as Censor compliance decisions, one research-log entry per location.

    Idempotent: a location whose findings were already logged unchanged is skipped. Returns
    the number of entries written. Matched text is never logged, only kinds and spans.
    """
    with store.transaction() as conn:
        done = {str(f) for r in contexts(conn, str(Agent.CENSOR), ACTION)
                if (f := r.get("fingerprint")) is not None}
        return write_findings(store, conn, findings, skip=done)


def write_findings(
    store: Store, conn: Connection, findings: list[Finding], *, skip: set[str] | None = None
) -> int:
    """Log findings inside the caller's transaction (ingest: the snapshot's own), one entry
    per location; locations whose fingerprint is in `skip` are left out."""
    by_where: dict[str, list[Finding]] = {}
    for f in findings:
        by_where.setdefault(f.where, []).append(f)
    written = 0
    for where, group in sorted(by_where.items()):
        fp = _fingerprint(where, group)
        if skip and fp in skip:
            continue
        counts = dict(sorted(Counter(f.kind for f in group).items()))
        said = ", ".join(f"{n} {k}" for k, n in counts.items())
        store.log(
            conn,
            LogEntry(
                agent=Agent.CENSOR,
                action_type=ACTION,
                rationale=(
                    f"PII in {where}: {said}. Stored bytes kept unchanged; every output "
                    "goes through the Censor."
                ),
                context={
                    "where": where,
                    "counts": counts,
                    "spans": [[f.kind, f.start, f.end, f.person_id] for f in group[:MAX_SPANS]],
                    "fingerprint": fp,
                },
            ),
        )
        written += 1
    return written


def log_snapshot_pii(store: Store, conn: Connection, snap: Snapshot) -> int:
    """Scan a snapshot just stored and log its generic PII (SSN, national id, e-mail, phone,
    street address) in the caller's transaction; returns the number of findings. Every
    path that stores a snapshot calls this (ingest, the fetcher): the living persons' birth
    dates need the whole case's verdicts and are scanned by `sleuth privacy report`."""
    findings = scan_text(snap.text, f"snapshot:{snap.id}")
    write_findings(store, conn, findings)
    return len(findings)
