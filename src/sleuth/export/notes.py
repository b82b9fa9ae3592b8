"""The report's notes: one numbered note per *source*, its quotations in an appendix.

A client cites sources, not HTTP responses. Five API responses that each carry the same
WikiTree profile are one source ("the WikiTree profile Whitfield-35"), so they get one note,
and every fact read from that profile points to it; likewise one GEDCOM record, one Find a
Grave memorial, one FamilySearch record (by ARK), one newspaper page, one register line.
The note is the Evidence Explained full reference note (`sleuth.gps.citations`); the exact
words each citation quotes - verbatim, with the stored copy's characters, page and sha256,
so anyone can check them - are listed under the note's number in Appendix A.

Numbers are given in order of first use, and the notes of one mark are numbered in order of
their source names, so the same case always gets the same numbers. Excerpts the Censor
replaced are shown as their marker, unquoted, so a redaction is never passed off as a
quotation.
"""

from __future__ import annotations

import bisect
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from sleuth.export.common import REDACTION_MARKERS, page_of
from sleuth.gps.citations import format_note
from sleuth.gps.evidence import SourceBook
from sleuth.gps.kinds import SourceKind, wikitree_profile_at
from sleuth.gps.words import source_name
from sleuth.model.citation import Citation
from sleuth.model.graph import CaseGraph
from sleuth.model.records import Snapshot

_WS = re.compile(r"\s+")
_GEDCOM_RECORD = re.compile(r"(?m)^0 (@[^@\s]+@)")
MAX_COPIES = 5  # copies listed per note in the appendix; the rest are counted


def record_starts(text: str) -> tuple[list[int], list[str]]:
    """Where each record of a GEDCOM file's text starts, and its xref."""
    found = [(m.start(), m.group(1)) for m in _GEDCOM_RECORD.finditer(text)]
    return [p for p, _ in found], [x for _, x in found]


@dataclass
class Note:
    number: int
    key: tuple[str, ...]
    name: str  # "the WikiTree profile Whitfield-35"
    text: str  # the reference note
    citations: list[Citation] = field(default_factory=list)  # every citation it stands for


class Notes:
    """The numbered notes of one (censored) graph."""

    def __init__(self, graph: CaseGraph, book: SourceBook) -> None:
        self.g = graph
        self.book = book
        self.by_key: dict[tuple[str, ...], Note] = {}
        self.order: list[Note] = []
        self._seen: dict[tuple[str, int, int, str], tuple[str, ...]] = {}
        self._starts: dict[str, tuple[list[int], list[str]]] = {}
        self._unit: dict[tuple[str, int, int], tuple[tuple[str, ...], str]] = {}
        self.searches: set[tuple[str, int, int]] = set()  # citations of search responses

    # -- what source a citation is -------------------------------------------------------
    def _record(self, snap: Snapshot, at: int) -> str | None:
        idx = self._starts.get(snap.id)
        if idx is None:
            idx = self._starts[snap.id] = record_starts(snap.text)
        i = bisect.bisect_right(idx[0], at)
        return idx[1][i - 1] if i else None

    def unit(self, c: Citation) -> tuple[tuple[str, ...], str]:
        """(key, name) of the source a citation belongs to (see the module docstring)."""
        loc = c.locator
        memo = self._unit.get((c.snapshot_id, loc.start, loc.end))
        if memo is not None:
            return memo
        sid = c.snapshot_id
        snap = self.g.snapshots.get(sid)
        info = self.book.info(sid)
        name = source_name(info, snap, c)
        kind = info.kind
        text = " ".join(c.excerpt.split()).casefold()
        key: tuple[str, ...]
        if snap is None:
            key = ("snapshot", sid, text)
        elif c.excerpt in REDACTION_MARKERS:  # about a living person: no per-person detail
            key = ("withheld", sid)
            name = f"a source concerning a living person ({snap.source_name})"
        elif (sid, loc.start, loc.end) in self.searches:  # a search response, not a record
            key = ("search", sid)
            name = f"the {snap.source_name} search results"
        elif kind is SourceKind.WIKITREE_PROFILE:
            wid = wikitree_profile_at(snap, loc.start, loc.end) if snap.text else None
            key = ("wikitree", wid) if wid else ("snapshot", sid)
        elif kind is SourceKind.GEDCOM_FILE:
            xref = self._record(snap, loc.start) if snap.text else None
            key = ("gedcom", snap.sha256, xref or "")
            if xref:
                name = f"{name}, record {xref}"
        elif kind is SourceKind.MEMORIAL and info.identifiers.get("memorial"):
            key = ("memorial", info.identifiers["memorial"])
        elif kind is SourceKind.FAMILYSEARCH_RECORD and info.identifiers.get("ark"):
            key = ("familysearch", info.identifiers["ark"])
        elif kind is SourceKind.NEWSPAPER_PAGE and snap.url:
            key = ("newspaper", snap.url)
        elif kind in (SourceKind.PARISH_REGISTER, SourceKind.CENSUS):
            key = ("line", name, text)
        else:
            key = ("snapshot", sid)
        self._unit[(sid, loc.start, loc.end)] = (key, name)
        return key, name

    # -- numbering ----------------------------------------------------------------------
    def notes_for(self, citations: Iterable[Citation], subject: str = "") -> list[Note]:
        """The notes these citations belong to, numbering new ones (by source name)."""
        fresh: dict[tuple[str, ...], tuple[str, Citation]] = {}
        found: dict[int, Note] = {}
        for c in citations:
            key, name = self.unit(c)
            note = self.by_key.get(key)
            if note is not None:
                found[note.number] = note
                self._attach(note, c)
            elif key not in fresh or self._content(c) < self._content(fresh[key][1]):
                fresh[key] = (name, c)
        pending = [(name, key, c) for key, (name, c) in fresh.items()]
        for name, key, c in sorted(pending, key=lambda x: (x[0].casefold(), x[1])):
            note = Note(len(self.order) + 1, key, name, self._text(c, subject))
            self.by_key[key] = note
            self.order.append(note)
            found[note.number] = note
        for c in citations:  # the citations of new notes, now that they exist
            note = self.by_key[self.unit(c)[0]]
            self._attach(note, c)
        return [found[n] for n in sorted(found)]

    def _content(self, c: Citation) -> tuple[str, str, int, int, str]:
        """A citation's sort key from content (snapshot ids are random)."""
        snap = self.g.snapshots.get(c.snapshot_id)
        where = (snap.url or snap.path or "") if snap is not None else ""
        sha = snap.sha256 if snap is not None else c.snapshot_id
        return (where, sha, c.locator.start, c.locator.end, c.excerpt)

    def mark(self, citations: Iterable[Citation], subject: str = "") -> str:
        """Footnote marks for these citations, one per source, in number order."""
        cites = list(citations)
        return "".join(f"[^{n.number}]" for n in self.notes_for(cites, subject))

    def _attach(self, note: Note, c: Citation) -> None:
        k = (c.snapshot_id, c.locator.start, c.locator.end, c.excerpt)
        if k not in self._seen:
            self._seen[k] = note.key
            note.citations.append(c)

    def _text(self, c: Citation, subject: str) -> str:
        snap = self.g.snapshots.get(c.snapshot_id)
        if snap is None:
            return "A source that is not in this case."
        info = self.book.info(c.snapshot_id)
        loc = c.locator
        when = snap.accessed_at.date()
        if c.excerpt in REDACTION_MARKERS:
            return (f"{snap.source_name} (accessed {when.day} {when.strftime('%B')} "
                    f"{when.year}); what it says is withheld: it concerns a living person.")
        if (c.snapshot_id, loc.start, loc.end) in self.searches:
            return (f"{snap.source_name}, search results ({snap.url or snap.source_name} : "
                    f"accessed {when.day} {when.strftime('%B')} {when.year}).")
        if info.kind is SourceKind.WIKITREE_PROFILE and snap.text:
            wid = wikitree_profile_at(snap, c.locator.start, c.locator.end)
            if wid:
                info = replace(info, identifiers={**info.identifiers, "wikitree_id": wid})
        shown = snap
        if snap.path and not snap.url:  # a local file is named, not located on this machine
            shown = snap.model_copy(update={"path": os.path.basename(snap.path)})
        whole = self.unit(c)[0][0] == "snapshot"  # the note stands for the whole document:
        return format_note(info, shown, None if whole else c, subject).full  # pages: App. A

    # -- output -------------------------------------------------------------------------
    def definitions(self) -> list[str]:
        return [f"[^{n.number}]: {_WS.sub(' ', n.text).strip()}" for n in self.order]

    def copies(self, n: Note) -> tuple[list[str], list[str]]:
        """The snapshots a note's citations come from (in content order), and the first
        `MAX_COPIES` of them in words (the rest counted)."""
        snaps: list[str] = []
        for c in sorted(n.citations, key=self._content):
            if c.snapshot_id not in snaps:
                snaps.append(c.snapshot_id)
        copies = [self.g.snapshots.get(s) for s in snaps]
        held = []
        for i, s in enumerate(copies[:MAX_COPIES], start=1):
            if s is None:
                held.append(f"copy {i}: not in this case")
                continue
            where = s.url or (os.path.basename(s.path) if s.path else s.source_name)
            held.append(f"copy {i}: {s.source_name}, {where}, retrieved "
                        f"{s.accessed_at.date().isoformat()}, sha256 {s.sha256[:12]}")
        if len(copies) > MAX_COPIES:
            held.append(f"and {len(copies) - MAX_COPIES} more copies")
        return snaps, held

    def quotations(self, n: Note, snaps: list[str]) -> list[tuple[Citation, str, str]]:
        """Each citation of a note with the words it quotes ("“…”", or the Censor's marker
        unquoted) and where they stand ("copy 1, chars 10–42, p. 3")."""
        out = []
        for c in sorted(n.citations, key=lambda c: (snaps.index(c.snapshot_id),
                                                    c.locator.start, c.locator.end)):
            excerpt = _WS.sub(" ", c.excerpt).strip()
            quoted = excerpt if c.excerpt in REDACTION_MARKERS else f"“{excerpt}”"
            page = page_of(c, self.g.snapshots.get(c.snapshot_id))
            at = f"copy {snaps.index(c.snapshot_id) + 1}, chars " \
                 f"{c.locator.start}–{c.locator.end}" + (f", p. {page}" if page else "")
            out.append((c, quoted, at))
        return out

    def appendix(self) -> list[str]:
        """Appendix A: per note, the words quoted and where each stored copy holds them."""
        out: list[str] = []
        for n in self.order:
            snaps, held = self.copies(n)
            out.append(f"{n.number}. {n.name[:1].upper()}{n.name[1:]} — " + "; ".join(held))
            quotes: dict[str, list[str]] = {}
            for _, quoted, at in self.quotations(n, snaps):
                quotes.setdefault(quoted, []).append(at)
            for quoted, places in quotes.items():
                more = f" and {len(places) - 3} more" if len(places) > 3 else ""
                out.append(f"   - {quoted} ({'; '.join(places[:3])}{more})")
        return out
