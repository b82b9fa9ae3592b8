"""Conclusions on the merged view: one person's family and the problems that block a proof.

`store.case_graph` already folds merge clusters, so each person here is one person however
many records were merged into them. This module reads that graph once and builds the
indexes every output needs (so a report is linear in the case, never a query or a scan per
person): who each person's parents, spouses and children are, the cited claims behind each
link, and the **structural problems** no sound conclusion can stand on:

* more than two parents (the graph's own links, a parent's child links pointing back, and
  the parents merged records gave beyond two: `CaseGraph.extra_parents`);
* two parents of the same known sex (two mothers: usually one woman under her maiden and
  married names, not yet merged);
* a person among their own relatives (a parent who is also a child or spouse);
* a person who is their own ancestor (a cycle in the parent links).

Each problem is a conflict in the report and fails the GPS checklist's "Resolution of
conflicting evidence" and "Soundly reasoned written conclusion" for the questions it
touches. Orders are by name, then id: never by dict or set order.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections import defaultdict
from dataclasses import dataclass, field
from functools import lru_cache

from sleuth.extract.person_names import display_case
from sleuth.model.evidence import ResearchQuestion
from sleuth.model.graph import CaseGraph
from sleuth.model.records import Assertion, AssertionStatus, Person
from sleuth.verify.normalise import fold as _fold

PARENT_FIELDS = ("parent", "father", "mother")
_XREF = re.compile(r"0 (@[^@\s]+@) INDI\b")
_LINK_FIELDS = frozenset({*PARENT_FIELDS, "child", "spouse"})
_INVERSE = {"parent": ("child",), "child": PARENT_FIELDS, "spouse": ("spouse",)}
NUMBER = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")


@dataclass
class Problem:
    """A structural conflict in the family links of one person."""

    person_id: str
    kind: str  # parents | mothers | fathers | roles | ancestry
    text: str  # in words, with names
    persons: list[str] = field(default_factory=list)  # everyone involved, the person first

    @property
    def questions(self) -> tuple[ResearchQuestion, ...]:
        if self.kind == "roles":
            return (ResearchQuestion.PARENTS, ResearchQuestion.MARRIAGE)
        return (ResearchQuestion.PARENTS,)


@lru_cache(maxsize=65536)
def fold(text: str) -> str:
    """Case, accents and punctuation folded, single spaces (names compare on this)."""
    return " ".join(_fold(text).split())


def _and(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


class Family:
    """Indexes of one (censored or raw) case graph, built once."""

    def __init__(self, graph: CaseGraph) -> None:
        self.g = graph
        self.by_id: dict[str, Person] = {p.id: p for p in graph.persons}
        self._order: dict[str, tuple[str, ...]] = {}
        self._display: dict[str, str] = {}  # `name`, once per person
        self.claims: dict[str, list[Assertion]] = {
            pid: [a for a in lst if a.status is not AssertionStatus.REJECTED]
            for pid, lst in graph.assertions.items()}
        self.links: dict[str, dict[str, list[Assertion]]] = {}  # person -> field -> cited
        for pid, lst in self.claims.items():
            for a in lst:
                if a.field_name in _LINK_FIELDS and a.citations:
                    self.links.setdefault(pid, {}).setdefault(a.field_name, []).append(a)
        parents: dict[str, set[str]] = defaultdict(set)
        for p in graph.persons:
            parents[p.id] |= p.parents
            for child in p.children:
                if child in self.by_id:
                    parents[child].add(p.id)
        for pid, extra in getattr(graph, "extra_parents", {}).items():
            parents[pid] |= {x for x in extra if x in self.by_id}
        self._psets: dict[str, set[str]] = parents
        self._parents = {k: sorted(v - {k}, key=self.order) for k, v in parents.items()}
        self._names: dict[str, set[str]] = {}
        self._problems: list[Problem] | None = None
        self._sorted: list[str] | None = None
        self._sorted_keys: list[tuple[str, ...]] | None = None
        self._mine: dict[str, list[Problem]] = {}  # each person's own problems (not cycles)
        self._cycle_list: list[Problem] | None = None
        self.touched: set[str] = set(self.by_id)  # see `after`

    @classmethod
    def after(cls, old: Family, graph: CaseGraph) -> tuple[Family, set[str]]:
        """`Family(graph)`, for a graph that shares its unchanged persons and claim lists
        (the same objects) with `old.g`, as the Censor's copy kept across a review
        decision does (`privacy.live`): what each unchanged person's indexes hold is
        taken from `old`, so a decision costs what it changed, not the case. Returns the
        family and the persons whose record or claims changed."""
        if graph.snapshots.keys() != old.g.snapshots.keys() or \
                getattr(graph, "extra_parents", None) != getattr(old.g, "extra_parents", None):
            return cls(graph), set(old.by_id) | {p.id for p in graph.persons}
        new = cls.__new__(cls)
        new.g = graph
        new.by_id = {p.id: p for p in graph.persons}
        was, claims = old.g.assertions, graph.assertions
        changed = {pid for pid, p in new.by_id.items() if old.by_id.get(pid) is not p}
        changed |= old.by_id.keys() - new.by_id.keys()
        changed |= {pid for pid, lst in claims.items() if was.get(pid) is not lst}
        changed |= was.keys() - claims.keys()
        new._order, new._display = dict(old._order), dict(old._display)
        new._names, new.links, new.claims = dict(old._names), dict(old.links), dict(old.claims)
        for pid in changed:
            for kept in (new._order, new._display, new._names, new.links, new.claims):
                kept.pop(pid, None)
            lst = claims.get(pid)
            if lst is None:
                continue
            new.claims[pid] = mine = [a for a in lst if a.status is not AssertionStatus.REJECTED]
            for a in mine:
                if a.field_name in _LINK_FIELDS and a.citations:
                    new.links.setdefault(pid, {}).setdefault(a.field_name, []).append(a)
        # parents: only a changed person's own links, or their children's, can differ
        near = set(changed)
        for pid in changed:
            for f in (old, new):
                p = f.by_id.get(pid)
                if p is not None:
                    near |= p.children
        near |= {k for k, v in old._psets.items() if not v.isdisjoint(changed)}
        came_went = set(old.by_id.keys() ^ new.by_id.keys())  # compact: probed 30,000 times
        naming: set[str] = set()
        if came_went:  # whoever names them as a relative (lists filter out who is not here)
            naming = {p.id for p in graph.persons if not (
                p.parents.isdisjoint(came_went) and p.spouses.isdisjoint(came_went)
                and p.children.isdisjoint(came_went))}
            near |= naming
        new.touched = near  # persons whose own links or relatives may read differently
        new._psets, new._parents = dict(old._psets), dict(old._parents)
        for k in near:
            new._psets.pop(k, None)
            new._parents.pop(k, None)
            p = new.by_id.get(k)
            extra = getattr(graph, "extra_parents", {}).get(k)
            if p is None and extra is None:
                continue  # as `Family` reads them: a person's links, then merged records'
            found = set(p.parents) if p is not None else set()
            if p is not None:
                for q in old._psets.get(k, set()) | changed | naming:
                    up = new.by_id.get(q)
                    if up is not None and k in up.children:
                        found.add(q)
            if extra is not None:
                found |= {x for x in extra if x in new.by_id}
            new._psets[k] = found
            new._parents[k] = sorted(found - {k}, key=new.order)
        new._problems, new._sorted = None, None
        if old._sorted is not None:  # the order, mended where the changed persons stand
            ids, keys = list(old._sorted), [old._order[k] for k in old._sorted] \
                if old._sorted_keys is None else list(old._sorted_keys)
            for pid in changed:
                if pid in old.by_id:
                    i = bisect_left(keys, old._order[pid])
                    del ids[i], keys[i]
            for pid in changed:
                if pid in new.by_id:
                    key = new.order(pid)
                    i = bisect_left(keys, key)
                    ids.insert(i, pid)
                    keys.insert(i, key)
            new._sorted, new._sorted_keys = ids, keys
        # a person's own problems read their relatives' names, sexes and order
        redo = set(near)
        for pid in changed:
            for f in (old, new):
                redo.update(f.parents(pid), f.children(pid), f.spouses(pid))
        moved = {k for k in near if new._parents.get(k) != old._parents.get(k)}
        redo |= moved
        new._mine = dict(old._mine)
        for k in redo:
            new._mine.pop(k, None)
        cycles = old._cycle_list
        if cycles is not None and (moved or any(
                x in changed for pr in cycles for x in pr.persons)):
            cycles = None
        if old._cycle_list == [] and not new._on_a_cycle(moved):
            # no cycle before, and only `moved` persons' parent links changed: a new
            # cycle would pass through one of them
            cycles = []
        new._cycle_list = cycles
        return new, changed

    def _on_a_cycle(self, starts: set[str]) -> bool:
        """Whether a cycle of parent links can be reached from `starts` (going up)."""
        state: dict[str, int] = {}  # 1: on the path now, 2: done
        for root in sorted(starts):
            if state.get(root):
                continue
            stack: list[tuple[str, int]] = [(root, 0)]
            state[root] = 1
            while stack:
                node, i = stack.pop()
                ups = self.parents(node)
                if i < len(ups):
                    stack.append((node, i + 1))
                    nxt = ups[i]
                    if state.get(nxt) == 1:
                        return True
                    if not state.get(nxt):
                        state[nxt] = 1
                        stack.append((nxt, 0))
                else:
                    state[node] = 2
        return False

    def ordered(self) -> list[str]:
        """Every person, in `order` (kept: the report's pages follow it)."""
        if self._sorted is None:
            self._sorted = sorted(self.by_id, key=self.order)
        return self._sorted

    # -- people --------------------------------------------------------------------------
    def sex(self, pid: str) -> str:
        """M, F or U: the person's own, else what their cited sex claims say (when they
        agree)."""
        p = self.by_id.get(pid)
        if p is not None and p.sex in ("M", "F"):
            return p.sex
        said = {a.value.strip().upper()[:1] for a in self.claims.get(pid, [])
                if a.field_name in ("sex", "gender") and a.citations}
        return said.pop() if len(said) == 1 and said <= {"M", "F"} else "U"

    def name(self, pid: str) -> str:
        """The person's name as a reader writes it, once per person: a report asks for
        each person's name about twenty times (rows, notes, relatives)."""
        done = self._display.get(pid)
        if done is not None:
            return done
        p = self.by_id.get(pid)
        if p is None:
            return "an unknown person"
        # a register's SURNAME in capitals is its convention, not the person's name
        done = self._display[pid] = display_case(p.canonical_name or " ".join(
            x for x in (p.given_name, p.surname) if x)) or "an unnamed person"
        return done

    def order(self, pid: str) -> tuple[str, ...]:
        """A sort key from content: name, then life dates, then where the person is first
        cited (persons of one name are told apart by their evidence, not by random ids)."""
        key = self._order.get(pid)
        if key is None:
            p = self.by_id.get(pid)
            born = p.birth.iso() if p is not None and p.birth is not None else ""
            died = p.death.iso() if p is not None and p.death is not None else ""
            snaps = self.g.snapshots
            first = min((f"{snaps[c.snapshot_id].sha256 if c.snapshot_id in snaps else ''}:"
                         f"{c.locator.start:09d}"
                         for a in self.claims.get(pid, []) for c in a.citations), default="")
            key = (fold(self.name(pid)), born, died, first, pid)
            self._order[pid] = key
        return key

    def parents(self, pid: str) -> list[str]:
        return self._parents.get(pid, [])

    def spouses(self, pid: str) -> list[str]:
        p = self.by_id.get(pid)
        return sorted((p.spouses if p else set()) & self.by_id.keys(), key=self.order)

    def children(self, pid: str) -> list[str]:
        p = self.by_id.get(pid)
        return sorted((p.children if p else set()) & self.by_id.keys(), key=self.order)

    def names(self, pid: str) -> set[str]:
        """Every folded name the person is known by (canonical, variants, name claims, given
        name with each surname claimed)."""
        if pid in self._names:
            return self._names[pid]
        p = self.by_id.get(pid)
        out: set[str] = {pid}
        if p is not None:
            out |= {fold(n) for n in (p.canonical_name, *p.name_variants) if n}
            givens = {fold(p.given_name)} if p.given_name else set()
            surnames = {fold(p.surname)} if p.surname else set()
            for a in self.claims.get(pid, []):
                if a.field_name == "name":
                    out.add(fold(a.value))
                    for c in a.citations:  # a GEDCOM person is named by its xref too
                        if c.excerpt.startswith("0 @") and (m := _XREF.match(c.excerpt)):
                            out.add(fold(m.group(1)))
                elif a.field_name == "given_name":
                    givens.add(fold(a.value))
                elif a.field_name in ("surname", "birth_surname", "married_surname"):
                    surnames.add(fold(a.value))
            out |= {f"{g} {s}" for g in givens for s in surnames if g and s}
        self._names[pid] = out
        return out

    def named(self, value: str, pid: str) -> bool:
        """Does a claim's value name this person? (any known name; titles ignored)"""
        v = " ".join(w for w in fold(value).split() if w not in ("mr", "mrs", "miss", "dr"))
        return v in self.names(pid) or value.strip().casefold() == pid

    def link_claims(self, pid: str, other: str, kind: str) -> list[Assertion]:
        """Cited claims that `other` is the `kind` (parent, spouse, child) of `pid`, from
        either side."""
        fields = PARENT_FIELDS if kind == "parent" else (kind,)
        mine, theirs = self.links.get(pid, {}), self.links.get(other, {})
        found = [a for f in fields for a in mine.get(f, ()) if self.names_person(a, other)]
        found += [a for f in _INVERSE[kind] for a in theirs.get(f, ())
                  if self.names_person(a, pid)]
        return found

    def names_person(self, a: Assertion, pid: str) -> bool:
        """Does a relationship claim point at this person? By the person it was linked to
        when promoted (merged view), else by name."""
        if a.related_id is not None:
            return a.related_id == pid
        return self.named(a.value, pid)

    def unlinked_parents(self, pid: str) -> list[Assertion]:
        """Parent claims that name nobody linked as this person's parent."""
        linked = self.parents(pid)
        mine = self.links.get(pid, {})
        return [a for f in PARENT_FIELDS for a in mine.get(f, ())
                if not any(self.names_person(a, x) for x in linked)]

    # -- problems ------------------------------------------------------------------------
    def problems(self) -> list[Problem]:
        """Every structural problem of the case, by person name (see the module)."""
        if self._problems is None:
            self._problems = self._find_problems()
        return self._problems

    def _find_problems(self) -> list[Problem]:
        out: list[Problem] = []
        for pid in self.ordered():
            mine = self._mine.get(pid)
            if mine is None:
                mine = self._mine[pid] = self._person_problems(pid)
            out += mine
        if self._cycle_list is None:
            self._cycle_list = self._cycles()
        return out + self._cycle_list

    def _person_problems(self, pid: str) -> list[Problem]:
        out: list[Problem] = []
        me = self.name(pid)
        parents = self.parents(pid)
        if len(parents) > 2:
            names = [self.name(x) for x in parents]
            out.append(Problem(pid, "parents", (
                f"{me} is linked to {NUMBER[min(len(parents), 9)]} parents "
                f"({_and(names)}); a person has two, so some of these links are wrong "
                "or name one person twice."), [pid, *parents]))
        for sex, word in (("F", "mothers"), ("M", "fathers")):
            same = [x for x in parents if self.sex(x) == sex]
            if len(same) > 1:
                out.append(Problem(pid, word, (
                    f"{me} has two {word} in the case ({_and([self.name(x) for x in same])}"
                    "): either they are one person not yet merged, or one link is "
                    "wrong."), [pid, *same]))
        roles = {"parent": set(parents), "child": set(self.children(pid)),
                 "spouse": set(self.spouses(pid))}
        for x in sorted(set().union(*roles.values()), key=self.order):
            held = [r for r in ("parent", "child", "spouse") if x in roles[r]]
            if x == pid or len(held) > 1:
                what = "their own relative" if x == pid else (
                    f"both {' and '.join(held)} of {me}")
                out.append(Problem(pid, "roles", (
                    f"{self.name(x)} is recorded as {what}: one of these links is "
                    "wrong."), [pid, x]))
        return out

    def _cycles(self) -> list[Problem]:
        """Persons who are their own ancestors (one problem per cycle, iteratively)."""
        state: dict[str, int] = {}
        out: list[Problem] = []
        seen_cycles: set[tuple[str, ...]] = set()
        for root in self.ordered():
            if state.get(root):
                continue
            stack: list[tuple[str, int]] = [(root, 0)]
            path: list[str] = []
            while stack:
                node, i = stack.pop()
                if i == 0:
                    state[node] = 1
                    path.append(node)
                ups = self.parents(node)
                if i < len(ups):
                    stack.append((node, i + 1))
                    nxt = ups[i]
                    if state.get(nxt) == 1:
                        cycle = path[path.index(nxt):]
                        start = min(range(len(cycle)), key=lambda k: self.order(cycle[k]))
                        key = tuple(cycle[start:] + cycle[:start])
                        if key not in seen_cycles:
                            seen_cycles.add(key)
                            names = " → ".join(self.name(x) for x in (*key, key[0]))
                            out.append(Problem(key[0], "ancestry", (
                                f"{self.name(key[0])} is recorded as their own ancestor "
                                f"({names}, each the parent of the one before): a parent "
                                "link in this chain is wrong."), list(key)))
                    elif not state.get(nxt):
                        stack.append((nxt, 0))
                else:
                    state[node] = 2
                    path.pop()
        return out

    # -- pedigree ------------------------------------------------------------------------
    def pedigree(self, seed: str, generations: int) -> list[tuple[int, int, str]]:
        """(Ahnentafel number, generation, person id) of the seed and their ancestors up to
        `generations` back (father 2n, mother 2n+1 by sex; a third parent gets no number
        slot of its own and is listed under number 0). Each person once."""
        out: list[tuple[int, int, str]] = []
        seen: set[str] = set()
        level = [(1, seed)]
        for gen in range(generations + 1):
            nxt: list[tuple[int, str]] = []
            for num, pid in level:
                if pid in seen:
                    continue
                seen.add(pid)
                out.append((num, gen, pid))
                if num == 0:
                    continue
                free = [2 * num, 2 * num + 1]
                ups = self.parents(pid)
                for x in sorted(ups, key=lambda x: (self.sex(x) != "M", self.sex(x) != "F",
                                                    self.order(x))):
                    sex = self.sex(x)
                    want = 2 * num if sex == "M" else 2 * num + 1 if sex == "F" else None
                    slot = want if want in free else (free[0] if free else 0)
                    if slot in free:
                        free.remove(slot)
                    nxt.append((slot, x))
            level = nxt
        return out


def relationship(num: int, gen: int, sex: str) -> str:
    """"father", "grandmother", "2× great-grandfather" from an Ahnentafel slot."""
    if gen == 0:
        return "the research subject"
    word = "father" if sex == "M" else "mother" if sex == "F" else "parent"
    if num == 0:
        word = f"{word} (extra parent)"
    if gen == 1:
        return word
    if gen == 2:
        return f"grand{word}"
    if gen == 3:
        return f"great-grand{word}"
    return f"{gen - 2}× great-grand{word}"
