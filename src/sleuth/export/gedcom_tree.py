"""A tree's own sources, notes and custom tags, written back into a GEDCOM export.

An imported GEDCOM is stored whole as an immutable snapshot, and every fact read from it is
cited by the line of the structure that states it. So at export the stored text is parsed
again (once per file) and, under each structure we write, the tree's own substructures that
we do not regenerate come back: its SOUR citations (PAGE, QUAY, DATA/DATE, DATA/TEXT, NOTE,
OBJE), NOTEs, media links, custom `_TAG`s and every standard tag sleuth does not model; at
record level the INDI's and FAM's other structures too. The SOUR and REPO records of every
tree are written whole (a bibliography is kept even where nothing cites an entry), and
NOTE, OBJE and extension records wherever something written points at them. Pointers are
renamed into this export's xrefs (a person's INDI, a family's FAM; submitter records, which
describe a living submitter, are not copied); each structure is fitted to the output version
(`sleuth.gedcom.convert`).

Privacy: the snapshot text is the Censor's copy (living persons' dates masked, a tree cited
only for the living emptied). For a living person, and a family with a living partner, only
the tree's citations come back, as pointer, PAGE and QUAY: no notes, texts or other tags.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable

from sleuth.gedcom.convert import record_to_v7, record_to_v551, to_v7, to_v551
from sleuth.gedcom.reader import Node
from sleuth.gedcom.tree import VOID, Item, Tree
from sleuth.model.errors import InputError
from sleuth.model.graph import CaseGraph
from sleuth.model.records import Assertion, Snapshot

Emit = Callable[[int, Item], None]
_PREFIX = {"SOUR": "S", "REPO": "R", "OBJE": "O", "NOTE": "N", "SNOTE": "N"}
_NOT_COPIED = frozenset({"SUBM", "SUBN", "HEAD", "TRLR"})
_CITATION_ONLY = frozenset({"PAGE", "QUAY"})
Source = tuple[str, Node]  # (snapshot id, structure)


def is_gedcom(snap: Snapshot) -> bool:
    return snap.media_type == "text/x-gedcom" or snap.text.lstrip("\ufeff").startswith("0 HEAD")


class Carrier:
    """Reads the case's GEDCOM snapshots back and writes their structures into an export."""

    def __init__(self, graph: CaseGraph, v7: bool, emit: Emit, first_source: int,
                 indi: dict[str, str]) -> None:
        self.v7 = v7
        self.emit_item = emit
        self.indi = indi  # person id -> this export's INDI xref
        self.trees: dict[str, Tree] = {}
        self.v7_trees: set[str] = set()
        snaps = sorted((s for s in graph.snapshots.values() if s.text and is_gedcom(s)),
                       key=lambda s: (s.sha256, s.origin, s.id))
        for snap in snaps:
            try:  # a fresh parse: the carrier edits its tree as it writes it
                tree = Tree(snap.text)
            except InputError:
                continue
            self.trees[snap.id] = tree
            if (tree.ged.version or "").startswith("7"):
                self.v7_trees.add(snap.id)
        self.person_of: dict[tuple[str, str], str] = {}
        self.records_of: dict[str, list[Source]] = defaultdict(list)
        self.covered: set[tuple[str, int]] = set()  # structures regenerated from claims
        self.cited: dict[str, list[tuple[str, Node, Node]]] = {}  # assertion -> structures
        for pid, items in graph.assertions.items():
            for a in items:
                found = self.cited[a.id] = list(self._cited(a))
                for sid, record, node in found:
                    self.covered.add((sid, node.line))
                    if a.field_name == "age_at_death":  # its AGE is written from the claim
                        self.covered.update((sid, n.line) for n in node.all("AGE"))
                    if record.tag == "INDI" and record.xref \
                            and (sid, record.xref) not in self.person_of:
                        self.person_of[(sid, record.xref)] = pid
                        self.records_of[pid].append((sid, record))
        self.order = {sid: i for i, sid in enumerate(self.trees)}
        for held in self.records_of.values():
            held.sort(key=lambda s: (self.order[s[0]], s[1].line))
        self.fams: dict[tuple[str, str], str] = {}  # tree FAM -> our FAM xref
        self.member_nodes: dict[tuple[str, str, str], list[Source]] = defaultdict(list)
        self.xrefs: dict[tuple[str, str], str] = {}
        self.counters: dict[str, int] = {"S": first_source - 1}
        self.pending: list[tuple[str | None, Item, str]] = []
        for sid, tree in self.trees.items():  # a tree's bibliography, in its own order
            for tag in ("SOUR", "REPO"):
                for r in tree.records:
                    if r.tag == tag and r.xref:
                        self._record_xref(sid, r)

    # -- which tree structures a claim comes from --------------------------------------------
    def _cited(self, a: Assertion) -> Iterable[tuple[str, Node, Node]]:
        if not self.trees:
            return
        for c in a.citations:
            tree = self.trees.get(c.snapshot_id)
            if tree is not None and (found := tree.structure(c.locator.line)) is not None:
                yield c.snapshot_id, found[0], found[1]

    def nodes(self, items: Iterable[Assertion], tags: Iterable[str] | None = None) -> list[Source]:
        """The tree structures (level 1) `items` are cited by, once each, in tree order."""
        wanted = set(tags) if tags is not None else None
        seen: dict[tuple[str, int], Source] = {}
        for a in items:
            for sid, _, node in self.cited.get(a.id, ()):
                if wanted is None or node.tag in wanted:
                    seen.setdefault((sid, node.line), (sid, node))
        return [seen[k] for k in sorted(seen, key=lambda k: (self.order[k[0]], k[1]))]

    def families(self, keys: Iterable[frozenset[str]], fam_ids: dict[frozenset[str], str]
                 ) -> dict[frozenset[str], list[Source]]:
        """Each family of the export with the tree FAM records that state it."""
        wanted = set(keys)
        out: dict[frozenset[str], list[Source]] = defaultdict(list)
        for sid, tree in self.trees.items():
            for r in tree.records:
                if r.tag != "FAM" or not r.xref:
                    continue
                named = [(n, pid) for n in r.children if n.tag in ("HUSB", "WIFE", "CHIL")
                         and (pointer := n.pointer) is not None
                         and (pid := self.person_of.get((sid, pointer))) is not None]
                partners = frozenset(pid for n, pid in named if n.tag != "CHIL")
                if partners in wanted:
                    out[partners].append((sid, r))
                    xref = self.fams[(sid, r.xref)] = fam_ids[partners]
                    for n, pid in named:
                        role = "CHIL" if n.tag == "CHIL" else "PARTNER"
                        self.member_nodes[(xref, role, pid)].append((sid, n))
        return out

    def family_links(self, pid: str, tag: str, fam_xref: str) -> list[Source]:
        """The person's tree FAMC/FAMS structures that point at the family `fam_xref`."""
        return [(sid, n) for sid, record in self.records_of.get(pid, [])
                for n in record.all(tag)
                if n.pointer and self.fams.get((sid, n.pointer)) == fam_xref]

    def members(self, fam_xref: str, child: bool, pid: str) -> list[Source]:
        """The tree's CHIL (or HUSB/WIFE) structures naming `pid` in our FAM `fam_xref`."""
        return self.member_nodes.get((fam_xref, "CHIL" if child else "PARTNER", pid), [])

    # -- writing -------------------------------------------------------------------------------
    def items(self, parent: tuple[str, str | None], sources: list[Source], *,
              skip: Iterable[str] = (), living: bool = False,
              seen: set[tuple[object, ...]] | None = None) -> list[Item]:
        """The substructures of `sources` we do not regenerate, fitted under `parent`
        (its tag and 7.0 type), each distinct one once."""
        skipped = set(skip) | {"CONC", "CONT"}
        seen = set() if seen is None else seen
        out: list[Item] = []
        for sid, node in sources:
            for child in node.children:
                if child.tag in skipped or (sid, child.line) in self.covered:
                    continue
                if living and child.tag != "SOUR":
                    continue
                item = self._lift(sid, child)
                if item is None:
                    continue
                if living:
                    if item.pointer is None:
                        continue  # an inline source's text may describe the living
                    item.children = [c for c in item.children if c.tag in _CITATION_ONLY]
                for fitted in self._fit(sid, item, parent):
                    key = fitted.key()
                    if key not in seen:
                        seen.add(key)
                        out.append(fitted)
        return out

    def write(self, level: int, items: Iterable[Item]) -> None:
        for item in items:
            self.emit_item(level, item)

    def carry(self, level: int, parent: tuple[str, str | None], sources: list[Source],
              **kw: object) -> None:
        self.write(level, self.items(parent, sources, **kw))  # type: ignore[arg-type]

    def records(self) -> list[tuple[str, Item]]:
        """Every record to write at the end: the trees' SOUR and REPO records, then what
        the written structures point at (which may point further)."""
        out: list[tuple[str, Item]] = []
        i = 0
        while i < len(self.pending):
            sid, item, xref = self.pending[i]
            i += 1
            if sid is not None:  # read from a tree: rename its pointers now
                lifted = self._lift(sid, self.trees[sid].by_xref[item.pointer or ""])
                if lifted is None:
                    continue
                item = lifted
                if self.v7:
                    item = record_to_v7(item, self._new_record)
                elif not self.v7 and sid in self.v7_trees:
                    item = record_to_v551(item)
            if not self.v7 and item.tag == "SNOTE":
                item.tag = "NOTE"
            out.append((xref, item))
        return out

    def schema(self) -> list[tuple[str, str]]:
        """The 7.0 trees' extension tag definitions, each tag and URI once."""
        tags: dict[str, str] = {}
        uris: set[str] = set()
        for sid in self.v7_trees:
            for tag, uri in self.trees[sid].schema():
                if tag not in tags and uri not in uris:
                    tags[tag] = uri
                    uris.add(uri)
        return sorted(tags.items())

    # -- pointers and versions -----------------------------------------------------------------
    def _record_xref(self, sid: str, record: Node) -> str:
        key = (sid, record.xref or "")
        if key not in self.xrefs:
            tag = record.tag
            if self.v7 and tag == "NOTE":
                tag = "SNOTE"
            self.xrefs[key] = self._allocate(tag)
            self.pending.append((sid, Item(tag, pointer=record.xref), self.xrefs[key]))
        return self.xrefs[key]

    def _allocate(self, tag: str) -> str:
        prefix = _PREFIX.get(tag, "X")
        self.counters[prefix] = self.counters.get(prefix, 0) + 1
        return f"@{prefix}{self.counters[prefix]}@"

    def _new_record(self, item: Item) -> str:
        xref = self._allocate(item.tag)
        self.pending.append((None, item, xref))
        return xref

    def _resolve(self, sid: str, pointer: str) -> str | None:
        """This export's xref for a tree pointer; None drops the structure."""
        if pointer == VOID:  # a 5.5.1 export turns it into what 5.5.1 can say (convert)
            return VOID
        void = VOID if self.v7 else None
        record = self.trees[sid].by_xref.get(pointer)
        if record is None:
            return void
        if record.tag == "INDI":
            pid = self.person_of.get((sid, pointer))
            return self.indi.get(pid, void) if pid is not None else void
        if record.tag == "FAM":
            return self.fams.get((sid, pointer), void)
        if record.tag in _NOT_COPIED:
            return None
        return self._record_xref(sid, record)

    def _lift(self, sid: str, node: Node) -> Item | None:
        pointer = node.pointer
        if pointer is not None:
            pointer = self._resolve(sid, pointer)
            if pointer is None:
                return None
        item = Item(node.tag, "" if node.pointer else node.value, pointer)
        for c in node.children:
            if c.tag not in ("CONC", "CONT") and (lifted := self._lift(sid, c)) is not None:
                item.children.append(lifted)
        return item

    def _fit(self, sid: str, item: Item, parent: tuple[str, str | None]) -> list[Item]:
        tag, kind = parent
        if self.v7:  # a 7.0 tree's too: the Censor's masks must still read as 7.0
            return to_v7(item, kind, self._new_record)
        if sid in self.v7_trees:
            return to_v551(item, tag)
        return [item]

