"""The research report in stable pages, for the review workbench (issue 23: a page of a
10,000-person report after a review decision in under 200 ms).

The pages are cut by what they hold, never by the rendered length, so where a page starts
is known without rendering the report: page 1 the front matter (the question and answer,
the summary, the pedigree, the contents), then `PERSONS_PER_PAGE` persons a page in the
report's order (`export.report`: the pedigree, then everyone else by name), then the
conflicts, what to search next with the privacy note, Appendix B (the proofs), and
Appendices C and D. Each page is rendered alone, when asked for, from the censored case:
its notes are numbered from 1 on that page and listed at its foot, each with the words it
quotes (Appendix A's content: the excerpt, its characters in the stored copy, a link that
opens the source viewer at those words). Links to another page (the contents, "see
Conflict n", a conflict's person) carry that page's number, known from the cut.

The counts the summary and Appendix C give for the whole report (facts stated, sources
cited, the source list) are summed from each person's part, kept from the report of the
case's last version for every person a decision could not have changed (`Family.after`
names who changed; their relatives, those whose conflicts changed and those citing a
source whose copy changed are counted again). A page therefore says what the exported
report says, with the same notes and quotations, and is the same whether the case was
kept across decisions or read afresh (tests/web/test_report_paged.py).
"""

from __future__ import annotations

import html
import re
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import date
from typing import Any

from sleuth.export.html import _CSS, _locate, _markdown
from sleuth.export.notes import MAX_COPIES, Note, Notes, record_starts
from sleuth.export.report import _censored_inputs, _Report
from sleuth.export.sections import PersonTables, conflict_lines
from sleuth.gps.citations import format_note
from sleuth.gps.conclusions import Family, relationship
from sleuth.gps.evidence import SourceBook
from sleuth.gps.kinds import SourceKind
from sleuth.gps.proof import ProofInputs, ProofWriter
from sleuth.model.graph import Conflict
from sleuth.model.records import Snapshot
from sleuth.privacy.view import CensoredGraph

PERSONS_PER_PAGE = 25
_WS = re.compile(r"\s+")
_SEE = re.compile(r"see Conflict (\d+)")
_APPENDIX_A = ("the exact words each note relies on, with where to find them in the stored "
               "copy, are in Appendix A")
_RECORDS = ("original record", "derivative record")
Key = tuple[str, ...]
_FIELDS = ("source_name", "url", "path", "sha256", "accessed_at", "media_type", "metadata")


@dataclass(frozen=True)
class Counted:
    """What one person's section adds to the whole report."""

    rows: int  # facts stated
    keys: frozenset[Key]  # the sources (notes) it cites
    entries: frozenset[str]  # their Appendix C entries
    records: bool  # cited from a record (Appendix B argues their proof)


class PagedReport(_Report):
    """The report of one version of a censored case, a page at a time (see the module).
    `prev`: the report of the case's last version, whose per-person parts are reused where
    the case is unchanged; `log`: the Censor's log, made when the privacy note asks."""

    _rows: int
    _keys: Counter[Key]
    _entries: Counter[str]
    _records: set[str]
    _recounted: set[str]
    _proved: dict[str, tuple[frozenset[Key], frozenset[str]]]

    def __init__(self, view: CensoredGraph, raw_snapshots: Mapping[str, Snapshot],
                 gps: ProofInputs | None, *, today: date | None = None,
                 prev: PagedReport | None = None,
                 log: Callable[[], list[dict[str, Any]]] | None = None) -> None:
        self.model_usage = None
        self.g = view
        self.raw_snapshots = raw_snapshots
        self.gps = _censored_inputs(view, gps)
        self.supplied = gps is not None
        self.today = today or date.today()
        self.book = SourceBook(view, raw_snapshots)
        self.searches = {(n.citation.snapshot_id, n.citation.locator.start,
                          n.citation.locator.end) for n in self.gps.negatives}
        if prev is not None and (prev.searches != self.searches or prev.today != self.today):
            prev = None
        # where each GEDCOM record starts, per source text (kept while the text is)
        self._starts: dict[str, tuple[list[int], list[str]]] = {} if prev is None else {
            sid: got for sid, got in prev._starts.items()
            if (s := view.snapshots.get(sid)) is not None
            and (s is (was := prev.g.snapshots.get(sid)) or (was and s.text == was.text))}
        self._units: dict[tuple[str, int, int], tuple[Key, str]] = {}
        changed: set[str] | None = None
        if prev is not None:
            self.family, changed = Family.after(prev.family, view)
        else:
            self.family = Family(view)
        self._log = log
        self.seed = self.gps.seed_id if self.gps.seed_id in self.family.by_id else None
        self.pedigree = (self.family.pedigree(self.seed, self.gps.generations)
                         if self.seed else [])
        self.conflicts = self._number_conflicts()
        self.notes = self._fresh_notes()
        self.tables = PersonTables(view, self.family, self.book, self.notes, self.conflict_refs)
        self._claims_of_conflicts()
        self.proof = ProofWriter(view, self.gps, self.notes.mark, raw_snapshots, self.family,
                                 self.book)
        self._sources_changed: set[str] = set()  # whose censored or stored copy changed
        self.counted = self._count(prev, changed)
        self._totals(prev)
        self.people = self._people()
        per = PERSONS_PER_PAGE
        chunks = [self.people[i:i + per] for i in range(0, len(self.people), per)]
        self.parts: list[tuple[str, list[tuple[str, str]]]] = [
            ("front", []), *(("persons", c) for c in chunks), ("conflicts", []),
            ("next", []), ("proofs", []), ("sources", [])]
        self.where = {pid: n for n, (_, chunk) in enumerate(self.parts, start=1)
                      for pid, _ in chunk}
        self.page_of_part = {kind: n for n, (kind, _) in enumerate(self.parts, start=1)}
        self._pages: dict[int, str] = {}

    def _claims_of_conflicts(self) -> None:
        """The conflicts' claims by id (`PersonTables.index`, which would hold every claim of
        the case), where each is its person's own claim."""
        ids = {x for c in self.g.conflicts for rc in c.competing
               for x in (rc.assertion_ids or [rc.assertion_id])}
        small = {a.id: a for pid in {c.person_id for c in self.g.conflicts}
                 for a in self.g.assertions.get(pid, []) if a.id in ids}
        if ids <= small.keys():
            self.tables.__dict__["index"] = small

    # -- the whole report's counts, a person at a time -----------------------------------
    def _fresh_notes(self) -> Notes:
        """Notes numbered from 1, sharing what they learn of the sources (which record of a
        GEDCOM file a citation falls in, which source it is) with the others of this case
        version."""
        notes = Notes(self.g, self.book)
        notes.searches = self.searches
        notes._starts, notes._unit = self._starts, self._units
        return notes

    def _count(self, prev: PagedReport | None, changed: set[str] | None) -> dict[str, Counted]:
        """Each person's `Counted`, from `prev` where nothing the section reads changed."""
        if prev is None or changed is None:
            return {pid: self._count_one(pid) for pid in self.family.by_id}
        old, new = prev.family, self.family
        redo = changed | new.touched
        for pid in changed:
            for f in (old, new):
                redo.update(f.parents(pid), f.children(pid), f.spouses(pid))
        mine: dict[str, list[Conflict]] = {}
        for c in self.g.conflicts:
            mine.setdefault(c.person_id, []).append(c)
        theirs: dict[str, list[Conflict]] = {}
        for c in prev.g.conflicts:
            theirs.setdefault(c.person_id, []).append(c)
        redo |= {pid for pid in mine.keys() | theirs.keys()
                 if [id(c) for c in mine.get(pid, [])] != [id(c) for c in theirs.get(pid, [])]}
        sources = {sid for sid, snap in self.g.snapshots.items()
                   if (was := prev.g.snapshots.get(sid)) is not snap and was != snap
                   and not self._reads_same(prev, sid)}
        sources |= {sid for sid, snap in self.raw_snapshots.items()
                    if (was := prev.raw_snapshots.get(sid)) is not snap and was != snap}
        self._sources_changed = sources
        if sources:
            redo |= {pid for pid, lst in new.claims.items()
                     if any(c.snapshot_id in sources for a in lst for c in a.citations)}
        out = dict(prev.counted)
        for pid in redo | (out.keys() - new.by_id.keys()):
            out.pop(pid, None)
        for pid in new.by_id.keys() - out.keys():
            out[pid] = self._count_one(pid)
        self._recounted = redo | (prev.counted.keys() ^ out.keys())
        return out

    def _reads_same(self, prev: PagedReport, sid: str) -> bool:
        """Whether a person's counted part reads of source `sid` what it read in `prev`,
        though the Censor's copy changed (a GEDCOM file every person cites, censored anew
        for a new secret): the same description, the same fields but the text, and, of a
        GEDCOM file's text, the same records at the same places (`Notes.unit`: which
        record a citation falls in); of any other source, the same text."""
        new, old = self.g.snapshots.get(sid), prev.g.snapshots.get(sid)
        info = self.book.info(sid)
        if new is None or old is None or info != prev.book.info(sid) or bool(new.text) != \
                bool(old.text) or any(getattr(new, f) != getattr(old, f) for f in _FIELDS):
            return False
        if info.kind is not SourceKind.GEDCOM_FILE:
            return new.text == old.text
        was = prev._starts.get(sid)
        if was is None:
            return False
        self._starts[sid] = now = record_starts(new.text)
        return now == was

    def _count_one(self, pid: str) -> Counted:
        notes = self._fresh_notes()
        self.tables.notes, self.tables.rows = notes, 0
        self.tables.person(pid, "")
        p = self.family.by_id[pid]
        records = not p.is_living and any(
            self.tables.kind(c, a.field_name) in _RECORDS
            for a in self.family.claims.get(pid, []) for c in a.citations)
        return Counted(self.tables.rows, frozenset(n.key for n in notes.order),
                       frozenset(self._entry(n) for n in notes.order if n.citations), records)

    def _entry(self, n: Note) -> str:
        c = n.citations[0]
        return format_note(self.book.info(c.snapshot_id), self.g.snapshots.get(c.snapshot_id),
                           c).source_list

    def _totals(self, prev: PagedReport | None) -> None:
        """The whole report's facts, sources and Appendix C entries, from the persons'
        parts (counted again where they changed) and the parts that are not persons'."""
        if prev is None or not hasattr(self, "_recounted"):
            rows, keys, entries = 0, Counter[Key](), Counter[str]()
            records: set[str] = set()
            for pid, got in self.counted.items():
                rows += got.rows
                keys.update(got.keys)
                entries.update(got.entries)
                if got.records:
                    records.add(pid)
        else:
            rows, keys, entries = prev._rows, prev._keys.copy(), prev._entries.copy()
            records = set(prev._records)
            for pid in self._recounted:
                was = prev.counted.get(pid)
                if was is not None:
                    rows -= was.rows
                    keys.subtract(was.keys)
                    entries.subtract(was.entries)
                records.discard(pid)
                now = self.counted.get(pid)
                if now is not None:
                    rows += now.rows
                    keys.update(now.keys)
                    entries.update(now.entries)
                    if now.records:
                        records.add(pid)
            keys, entries = +keys, +entries
        self._rows, self._keys, self._entries, self._records = rows, keys, entries, records
        self._other: set[Key] = set()
        self._other_entries: set[str] = set()
        # the conflicts, the narrative, the next steps and the proofs cite sources too
        notes = self._begin()
        self._front_md()
        self.conflict_section()
        self.next_steps()
        self._proved = self._proofs(prev)
        self.tables.rows = 0
        self._other = {n.key for n in notes.order}
        self._other_entries = {self._entry(n) for n in notes.order if n.citations}
        for got_keys, got_entries in self._proved.values():
            self._other |= got_keys
            self._other_entries |= got_entries

    def _proofs(self, prev: PagedReport | None) -> dict[str, tuple[frozenset[Key],
                                                               frozenset[str]]]:
        """The sources each proof argument of Appendix B cites, from `prev` for a person
        whose section, conflicts and family problems are unchanged."""
        pids = [pid for _, _, pid in self.pedigree] if self.seed else self._with_records()
        kept = prev._proved if prev is not None and hasattr(self, "_recounted") else {}
        redo: set[str] = getattr(self, "_recounted", set())
        if prev is not None:
            old, new = prev.proof.problems, self.proof.problems
            redo = redo | {pid for pid in old.keys() | new.keys()
                           if [id(x) for x in old.get(pid, [])] != [id(x) for x in
                                                                     new.get(pid, [])]}
        out = {}
        for pid in pids:
            got = kept.get(pid) if pid not in redo else None
            if got is None:
                notes = self._fresh_notes()
                writer = ProofWriter(self.g, self.gps, notes.mark, self.raw_snapshots,
                                     self.family, self.book)
                writer.sections([pid])
                got = (frozenset(n.key for n in notes.order),
                       frozenset(self._entry(n) for n in notes.order if n.citations))
            out[pid] = got
        return out

    def counts(self) -> tuple[int, int]:
        return self._rows, len(self._keys.keys() | self._other)

    def source_entries(self) -> set[str]:
        return set(self._entries) | self._other_entries

    def redaction_log(self) -> list[dict[str, Any]]:
        return self._log() if self._log is not None else self.g.redactions

    # -- the cut ----------------------------------------------------------------------------
    def _people(self) -> list[tuple[str, str]]:
        """Every person in the report's order, with their place in the pedigree."""
        out = [(pid, relationship(num, gen, self.family.sex(pid)))
               for num, gen, pid in self.pedigree]
        shown = {pid for pid, _ in out}
        return out + [(pid, "") for pid in self.family.ordered() if pid not in shown]

    def _begin(self) -> Notes:
        """A page starts: its own notes, numbered from 1."""
        notes = self.notes = self._fresh_notes()
        self.tables.notes = notes
        self.proof = ProofWriter(self.g, self.gps, notes.mark, self.raw_snapshots,
                                 self.family, self.book)
        self.tables.with_records = self._with_records  # type: ignore[method-assign]
        return notes

    def _with_records(self) -> list[str]:
        return sorted(self._records, key=self.family.order)

    @property
    def pages(self) -> int:
        return len(self.parts)

    def page(self, number: int) -> str:
        """Page `number` (1-based, clamped) as a whole HTML document, kept once made."""
        n = min(max(1, number), len(self.parts))
        got = self._pages.get(n)
        if got is None:
            got = self._pages[n] = self._render(n)
        return got

    # -- one page -------------------------------------------------------------------------
    def _render(self, n: int) -> str:
        kind, chunk = self.parts[n - 1]
        notes = self._begin()
        if kind == "front":
            body = _markdown("\n".join(self._front_md()), {}) + self._contents()
        elif kind == "persons":
            body = self._persons(n, chunk)
        elif kind == "conflicts":
            body = self._conflicts()
        elif kind == "next":
            body = _markdown("\n".join(self.next_steps() + self.privacy()), {})
        elif kind == "proofs":
            body = _markdown("\n".join(self.appendix_proofs()), {})
        else:
            body = _markdown("\n".join(self.appendix_sources() + self.appendix_log()), {})
        body = _SEE.sub(lambda m: f'<a href="/report?page={self.page_of_part["conflicts"]}'
                        f'#conflict-{m.group(1)}">{m.group(0)}</a>', body)
        foot = self._footnotes(notes)
        links = [f"Page {n} of {len(self.parts)}", '<a href="/report">contents</a>']
        if n > 1:
            links.append(f'<a href="/report?page={n - 1}" rel="prev">previous</a>')
        if n < len(self.parts):
            links.append(f'<a href="/report?page={n + 1}" rel="next">next</a>')
        pager = f'<nav class="pager"><p>{" · ".join(links)}</p></nav>'
        title = html.escape(self.g.title or "untitled case")
        return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                f"<title>Research report: {title}</title><style>{_CSS}</style></head>"
                '<body><p><a href="/review">← back to the sleuth workbench</a></p>'
                f"{pager}\n{body}\n{foot}\n{pager}</body></html>\n")

    def _front_md(self) -> list[str]:
        intro = self.intro()
        words = "\n".join(intro)
        assert _APPENDIX_A in words, "the report's introduction changed: say where notes are"
        intro = words.replace(_APPENDIX_A, "the exact words each note relies on, with where "
                              "to find them in the stored copy, are listed under the note "
                              "at the foot of its page").split("\n")
        return [*intro, *self.narrative(), *self.summary(),
                *(self.pedigree_table() if self.seed else [])]

    def _contents(self) -> str:
        """Where everything is: the persons' pages by name, then the rest."""
        out = ["<h2>Contents</h2>", "<ul>"]
        name = self.family.name
        for n, (kind, chunk) in enumerate(self.parts, start=1):
            if kind == "persons":
                what = (f"Persons: {html.escape(name(chunk[0][0]))} – "
                        f"{html.escape(name(chunk[-1][0]))}")
            else:
                what = {"front": "Summary", "conflicts": "Conflicts",
                        "next": "What to search next; privacy note",
                        "proofs": "Appendix B: proof arguments",
                        "sources": "Appendix C: sources; Appendix D: research log"}[kind]
            at = f"#person-{html.escape(chunk[0][0])}" if kind == "persons" else ""
            out.append(f'<li><a href="/report?page={n}{at}">Page {n}</a>: {what}</li>')
        out.append("</ul><p>Appendix A (the words each note quotes) is under each note, at "
                   "the foot of its page.</p>")
        return "\n".join(out)

    def _persons(self, n: int, chunk: list[tuple[str, str]]) -> str:
        first = (n - 2) * PERSONS_PER_PAGE  # page 2 holds the first persons
        out: list[str] = []
        for i, (pid, relation) in enumerate(chunk, start=first):
            md: list[str] = []
            if self.seed and i == 0:
                md += ["## Pedigree", "", "The research subject and the ancestors found, by "
                       "generation (their table is on page 1).", ""]
            if self.seed and i == len(self.pedigree):
                md += ["## Other persons in the case", "", "Relatives and others the sources "
                       "named, who are not in the pedigree above.", ""]
            elif not self.seed and i == 0:
                md += ["## Persons", ""]
            if md:
                out.append(_markdown("\n".join(md), {}))
            section = _markdown("\n".join(self.tables.person(pid, relation)), {})
            out.append(f'<section id="person-{html.escape(pid)}">{section}</section>')
        return "\n".join(out)

    def _conflicts(self) -> str:
        head = self.conflict_section()[:4] if self.conflicts else self.conflict_section()
        out = [_markdown("\n".join(head), {})]
        for k, c in enumerate(self.conflicts, start=1):
            part = _markdown("\n".join(conflict_lines(k, c, self.family, self.tables,
                                                      self.notes)), {})
            part = part.replace("<h3>", f'<h3 id="conflict-{k}">', 1)
            pid = c.person_id
            if pid in self.where:
                part += (f'<p><a href="/report?page={self.where[pid]}#person-'
                         f'{html.escape(pid)}">{html.escape(self.family.name(pid))}: their '
                         "facts</a></p>")
            out.append(part)
        return "\n".join(out)

    def _footnotes(self, notes: Notes) -> str:
        """The page's notes, each with the copies it stands for and the words it quotes,
        every quotation opening the source viewer at those words."""
        if not notes.order:
            return ""
        out = ["<h2>Notes</h2>", '<ol class="footnotes">']
        for note in notes.order:
            sids, held = notes.copies(note)
            copies = html.escape("; ".join(held)) + "".join(
                f' · <a href="/snapshot/{html.escape(sid)}">Open in the source viewer</a> '
                f"(copy {i})" for i, sid in enumerate(sids[:MAX_COPIES], start=1)
                if sid in self.g.snapshots)
            quotes = []
            for c, quoted, at in notes.quotations(note, sids):
                snap = self.g.snapshots.get(c.snapshot_id)
                found = _locate(snap, c.locator.start, c.locator.end, c.excerpt) \
                    if snap is not None else None
                link = (f' · <a class="viewer" href="/snapshot/{html.escape(c.snapshot_id)}'
                        f'?start={found[0]}&amp;end={found[1]}">open in the source viewer</a>'
                        if found else "")
                quotes.append(f"<li>{html.escape(quoted)} ({at}){link}</li>")
            text = _WS.sub(" ", note.text).strip()
            out.append(f'<li id="fn-{note.number}" value="{note.number}">'
                       f"{_markdown(text, {}).removeprefix('<p>').removesuffix('</p>')}"
                       f"<br><small>{html.escape(note.name[:1].upper() + note.name[1:])} — "
                       f"{copies}</small>"
                       f'<ul class="quotes">{"".join(quotes)}</ul></li>')
        out.append("</ol>")
        return "\n".join(out)
