"""A report's person sections kept from one render of a case to the next.

The review workbench renders the report again after each decision; most persons' sections
are then what they were. A section is reused only where everything it reads is the same
(compared by identity, else by value): the person and their parents, spouses and children
(the censored records and claim lists, and who they are), the person's conflicts and their
numbers, and the stored and censored copies of every source those claims cite. Its
footnote marks are numbered in order of first use across the whole report, so the
section's calls to `Notes.mark` are replayed in order (numbering the notes as a render
would) and the section is reused only if each gives the marks it gave; otherwise it is
rendered again, which makes the same calls again and so changes nothing more. The report
is therefore the same with or without kept sections.
"""

from __future__ import annotations

from typing import Any

from sleuth.export.sections import PersonTables
from sleuth.model.citation import Citation
from sleuth.model.graph import Conflict

# a kept section: what it read, its lines, the table rows it counted, its `mark` calls
Entry = tuple[tuple[Any, ...], list[str], int, list[tuple[list[Citation], str, str]]]


class SectionMemo:
    """The person sections of the last render (only those: older ones are let go)."""

    def __init__(self) -> None:
        self.kept: dict[str, Entry] = {}
        self.used: dict[str, Entry] = {}
        self.context: object = None  # what every section reads: the search citations
        self.reused = 0  # sections reused by the last render (tests, benchmark)
        self.snapshots: dict[str, tuple[object, object]] = {}
        self.changed: set[str] = set()
        self._snapshots: dict[str, tuple[object, object]] = {}

    def start(self, context: object, snapshots: dict[str, tuple[object, object]]) -> None:
        """A render begins: `context`, what every section reads; `snapshots`, each source's
        censored and stored copy (the sources whose copies are not the objects of the last
        render, nor equal to them, are `changed`)."""
        if context != self.context:
            self.kept, self.context = {}, context
        before = self.snapshots
        self.changed = {s for s, pair in snapshots.items() if before.get(s) != pair}
        self.changed |= before.keys() - snapshots.keys()
        self._snapshots = snapshots
        self.used, self.reused = {}, 0

    def done(self) -> None:
        """The render finished: its sections and sources are the ones kept."""
        self.kept, self.used = self.used, {}
        self.snapshots = self._snapshots


class KeptTables(PersonTables):
    """`PersonTables` whose person sections come from `memo` where nothing they read
    changed (see the module docstring)."""

    memo: SectionMemo

    def keep(self, memo: SectionMemo) -> KeptTables:
        self.memo = memo
        # compared by identity, else by value (the Censor may copy a source unchanged)
        memo.start(frozenset(self.notes.searches), {
            s: (snap, self.book.raw_snapshot(s)) for s, snap in self.g.snapshots.items()})
        self._conflicts: dict[str, list[Conflict]] = {}
        for c in self.g.conflicts:
            self._conflicts.setdefault(c.person_id, []).append(c)
        self._refs: dict[str, list[tuple[str, int]]] = {}
        for (pid, what), n in self.refs.items():
            self._refs.setdefault(pid, []).append((what, n))
        return self

    def _read(self, pid: str, relation: str, fresh: bool = False) -> tuple[Any, ...] | None:
        """Everything `PersonTables.person(pid, relation)` reads of the case (None: it
        reads a source changed since the last render, unless `fresh`: read now)."""
        f, g = self.f, self.g
        links = (tuple(f.parents(pid)), tuple(f.spouses(pid)), tuple(f.children(pid)))
        near = (pid, *links[0], *links[1], *links[2])
        claims = tuple(g.assertions.get(x) for x in near)
        # the sources they cite: the same copies as at the last render, where none changed
        changed = self.memo.changed
        if changed and not fresh and any(c.snapshot_id in changed for lst in claims
                                         for a in lst or () for c in a.citations):
            return None
        return (relation, links, tuple(f.by_id.get(x) for x in near), claims,
                tuple(self._conflicts.get(pid, ())), tuple(sorted(self._refs.get(pid, ()))))

    def person(self, pid: str, relation: str) -> list[str]:
        memo = self.memo
        read = self._read(pid, relation)
        hit = memo.kept.get(pid)
        if read is not None and hit is not None and hit[0] == read and all(
                self.notes.mark(cites, subject) == marks for cites, subject, marks in hit[3]):
            self.rows += hit[2]
            memo.used[pid] = hit
            memo.reused += 1
            return list(hit[1])
        calls: list[tuple[list[Citation], str, str]] = []
        rows = self.rows
        self.notes.record = calls
        try:
            lines = super().person(pid, relation)
        finally:
            self.notes.record = None
        read = read or self._read(pid, relation, fresh=True)  # what it read now, to keep
        assert read is not None
        memo.used[pid] = (read, list(lines), self.rows - rows, calls)
        return lines

