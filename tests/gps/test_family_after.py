"""`Family.after` (the workbench's report after a decision, issue 23): the family of a graph
that shares its unchanged persons with the last one gives what `Family` of the whole graph
gives - parents, order, structural problems (cycles included) - after a run of random
changes to names, dates and links, persons added and removed."""

from __future__ import annotations

import random

from sleuth.gps.conclusions import Family
from sleuth.model.dates import GenDate
from sleuth.model.graph import CaseGraph
from sleuth.model.records import Person

NAMES = ("Ann Lee", "John Lee", "Mary Hale", "Tom Hale", "Ruth Marsh", "Ann Lee")


def _person(rng: random.Random, pid: str, ids: list[str]) -> Person:
    others = [x for x in ids if x != pid]
    return Person.model_construct(
        id=pid, canonical_name=rng.choice(NAMES), given_name="", surname="",
        sex=rng.choice("MFU"), name_variants=[],
        birth=GenDate.from_parts(rng.randint(1800, 1900), 1, 1) if rng.random() < .7 else None,
        death=None, birth_place=None, death_place=None, is_living=False,
        parents=set(rng.sample(others, rng.randint(0, 2))),
        spouses=set(rng.sample(others, rng.randint(0, 1))),
        children=set(rng.sample(others, rng.randint(0, 2))), confidence=0.5)


def _same(kept: Family, fresh: Family) -> None:
    ids = sorted(fresh.by_id)
    assert {p: kept.parents(p) for p in ids} == {p: fresh.parents(p) for p in ids}
    assert kept.ordered() == sorted(fresh.by_id, key=fresh.order)
    assert [(p.person_id, p.kind, p.text, p.persons) for p in kept.problems()] == \
        [(p.person_id, p.kind, p.text, p.persons) for p in fresh.problems()]
    assert {p: kept.name(p) for p in ids} == {p: fresh.name(p) for p in ids}


def test_the_family_after_random_changes_is_the_family_of_the_whole_graph() -> None:
    rng = random.Random(23)
    ids = [f"p{i:02d}" for i in range(40)]
    persons = {pid: _person(rng, pid, ids) for pid in ids}
    family = Family(CaseGraph.model_construct(persons=list(persons.values()), assertions={},
                                              snapshots={}, conflicts=[], hypotheses=[]))
    assert family.problems()  # cycles and extra parents among random links
    problems_seen = 0
    gone: list[str] = []
    for step in range(60):
        for pid in rng.sample(sorted(persons), rng.randint(1, 3)):
            persons[pid] = _person(rng, pid, sorted(persons))  # a new record for them
        if step % 7 == 3:  # one goes (merged away), another comes
            gone.append(rng.choice(sorted(persons)))
            del persons[gone[-1]]
        if step % 7 == 5 and gone:  # and comes back (a split): others still name them
            pid = gone.pop(0)
            persons[pid] = _person(rng, pid, sorted(persons))
        if step % 5 == 1:
            pid = f"n{step:02d}"
            persons[pid] = _person(rng, pid, sorted(persons))
        graph = CaseGraph.model_construct(persons=list(persons.values()), assertions={},
                                          snapshots={}, conflicts=[], hypotheses=[])
        if step % 2:
            family.ordered()
            family.problems()  # the last family's parts are there to reuse
        family, changed = Family.after(family, graph)
        assert changed
        fresh = Family(graph)
        _same(family, fresh)
        problems_seen += len(fresh.problems())
    assert problems_seen


def _tree_person(rng: random.Random, pid: str, ids: list[str], loop: bool) -> Person:
    """A person whose parents come before them in `ids` (no cycle), unless `loop`: then
    one parent may come after them (a cycle through them, or not)."""
    before = ids[:ids.index(pid)] if pid in ids else ids
    pool = [x for x in ids if x != pid] if loop else before
    return Person.model_construct(
        id=pid, canonical_name=rng.choice(NAMES), given_name="", surname="",
        sex=rng.choice("MFU"), name_variants=[], birth=None, death=None, birth_place=None,
        death_place=None, is_living=False,
        parents=set(rng.sample(pool, min(len(pool), rng.randint(0, 2)))),
        spouses=set(), children=set(), confidence=0.5)


def test_the_family_after_changes_to_a_tree_finds_the_cycles_a_whole_read_finds() -> None:
    """A case without cycles keeps none after a change unless the change makes one: the
    search then goes up from the persons whose parents changed (never a cycle missed)."""
    rng = random.Random(1850)
    ids = [f"p{i:02d}" for i in range(40)]
    persons = {pid: _tree_person(rng, pid, ids, loop=False) for pid in ids}

    def graph() -> CaseGraph:
        return CaseGraph.model_construct(persons=list(persons.values()), assertions={},
                                         snapshots={}, conflicts=[], hypotheses=[])

    family = Family(graph())
    assert not family.problems() or all(p.kind != "ancestry" for p in family.problems())
    kinds: list[bool] = []
    for step in range(80):
        pid = rng.choice(ids)
        persons[pid] = _tree_person(rng, pid, ids, loop=step % 4 == 3)
        family.problems()
        family, _ = Family.after(family, graph())
        fresh = Family(graph())
        _same(family, fresh)
        kinds.append(any(p.kind == "ancestry" for p in fresh.problems()))
        if kinds[-1]:  # back to a tree for the next round
            persons[pid] = _tree_person(rng, pid, ids, loop=False)
            family.problems()
            family, _ = Family.after(family, graph())
            _same(family, Family(graph()))
    assert any(kinds) and not all(kinds)
