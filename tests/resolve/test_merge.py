"""Reversible merges on the store (SQLite, and PostgreSQL when configured)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from case_builder import add_fact, add_person, link, snapshot
from sleuth.model import EvidenceType, GenDate, InputError, InvariantViolation
from sleuth.resolve import merge, split
from sleuth.store import Store, case_graph, person_page
from sleuth.store import schema as t

TABLES = (t.persons, t.relationships, t.assertions, t.citations, t.conflicts)


def dump(store: Store) -> dict[str, Any]:
    """The store minus audit and merge bookkeeping, in a stable order."""
    with store.engine.connect() as c:
        out = {tb.name: sorted(json.dumps(dict(r), default=str, sort_keys=True)
                               for r in c.execute(select(tb)).mappings()) for tb in TABLES}
        out["old_hypotheses"] = sorted(
            json.dumps(dict(r), default=str, sort_keys=True)
            for r in c.execute(select(t.hypotheses).where(t.hypotheses.c.status != "Rejected"))
            .mappings())
    return out


def test_merge_adjudicates_and_split_restores(store: Store) -> None:
    census = snapshot(store, "John Smith born 1850 in Leeds.", EvidenceType.PRIMARY)
    obit = snapshot(store, "Jno. Smith, born 1852, died 1920.", EvidenceType.SECONDARY)
    a = add_person(store, "John Smith", "M")
    b = add_person(store, "Jno. Smith", "M")
    add_fact(store, a, "birth_date", "1850", census, GenDate.from_parts(1850))
    add_fact(store, b, "birth_date", "1852", obit, GenDate.from_parts(1852))
    add_fact(store, b, "death_date", "1920", obit, GenDate.from_parts(1920))
    before = dump(store)
    mc = merge(store, [a, b], "same name, overlapping lives")
    graph = case_graph(store)
    assert [p.id for p in graph.persons] == [a]  # the merged view
    person, claims, conflicts = person_page(store, b)
    assert person.id == a and len(claims) == 3
    (conflict,) = conflicts
    assert conflict.field == "birth_date" and conflict.recommended_value == "1850"
    assert len(conflict.competing) == 2  # every alternative kept, ranked
    assert graph.hypotheses and all(h.target_person == a for h in graph.hypotheses)
    split(store, mc.id, reason="test")
    assert dump(store) == before
    assert {p.id for p in case_graph(store).persons} == {a, b}
    with pytest.raises(InvariantViolation):
        split(store, mc.id)


def test_ancestor_merge_refused(store: Store) -> None:
    father, son, grandson = (add_person(store, n, "M") for n in
                             ("John Smith", "John Smith", "John Smith"))
    link(store, father, son)
    link(store, son, grandson)
    before = dump(store)
    for pair in ([father, son], [grandson, father]):
        with pytest.raises(InvariantViolation, match="ancestor"):
            merge(store, pair, "same name")
    assert dump(store) == before


def test_spouses_and_sex_refused(store: Store) -> None:
    a, b = add_person(store, "Pat Lee", "M"), add_person(store, "Pat Lee", "F")
    with pytest.raises(InvariantViolation, match="sex"):
        merge(store, [a, b], "same name")
    c = add_person(store, "Pat Lee", "M")
    link(store, a, c, "spouse")
    with pytest.raises(InvariantViolation, match="spouses"):
        merge(store, [a, c], "same name")


def test_two_profiles_of_one_source_refused(store: Store) -> None:
    """Brothers both named Harold, each with his own WikiTree page, are not merged."""
    snap = snapshot(store, '"Name": "Greenwood-2412" "Name": "Greenwood-2423"')
    a, b = add_person(store, "Harold Greenwood", "M"), add_person(store, "Harold Greenwood", "M")
    add_fact(store, a, "wikitree_id", "Greenwood-2412", snap)
    add_fact(store, b, "wikitree_id", "Greenwood-2423", snap)
    with pytest.raises(InvariantViolation, match="two wikitree profiles"):
        merge(store, [a, b], "same name, born two years apart")
    c = add_person(store, "Harold Greenwood", "M")
    add_fact(store, c, "wikitree_id", "Greenwood-2412", snap)
    merge(store, [a, c], "the same profile read twice")


def test_a_person_s_judgement_outranks_what_the_records_seem_to_say(store: Store) -> None:
    """Two profiles of one source (or two births years apart) keep the engine from merging;
    a reviewer who knows they are one person may merge them, with a reason (the records'
    disagreement is then a conflict to weigh). What no judgement undoes still blocks."""
    snap = snapshot(store, '"Name": "Whitfield-35" "Name": "Whitfield-77"')
    a, b = add_person(store, "Emma Whitfield", "F"), add_person(store, "Emma Whitfield", "F")
    add_fact(store, a, "wikitree_id", "Whitfield-35", snap)
    add_fact(store, b, "wikitree_id", "Whitfield-77", snap)
    with pytest.raises(InvariantViolation, match="two wikitree profiles"):
        merge(store, [a, b], "same name")
    mc = merge(store, [a, b], "one woman entered twice on WikiTree", by="Human", judged=True)
    assert set(mc.member_ids) == {a, b}
    c = add_person(store, "Emma Whitfield", "M")
    with pytest.raises(InvariantViolation, match="different sex"):
        merge(store, [a, c], "I say so", by="Human", judged=True)


# Births one life can hold (`model.lifespan.BIRTH_SLACK`): they disagree, so the merge
# adjudicates and its split must undo that.
_YEARS = st.integers(min_value=1850, max_value=1855)


@settings(max_examples=8, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(births=st.lists(st.lists(_YEARS, max_size=2), min_size=2, max_size=3),
       parent=st.booleans())
def test_merge_then_split_is_identity(store: Store, births: list[list[int]],
                                      parent: bool) -> None:
    """Random small cases: merge then split leaves every table as it was."""
    ids = [add_person(store, "Ann Carter", "F") for _ in births]
    for pid, years in zip(ids, births, strict=True):
        for y in years:
            snap = snapshot(store, f"{pid} Ann Carter born {y}.",
                            EvidenceType.PRIMARY if y % 2 else EvidenceType.SECONDARY)
            add_fact(store, pid, "birth_date", str(y), snap, GenDate.from_parts(y))
    if parent:
        mother = add_person(store, "Mary Carter", "F")
        link(store, mother, ids[0])
    before = dump(store)
    mc = merge(store, ids, "random merge")
    split(store, mc.id)
    assert dump(store) == before


def test_a_cluster_absorbs_another_and_splits_back_exactly(store: Store) -> None:
    """A third reading of a merged person joins the cluster (the loop finds people again
    and again), and a cluster absorbs a cluster; splitting the larger merge gives back
    exactly the clusters there were, and splitting those brings everyone back."""
    from sleuth.resolve.merge import grow_in

    names = ("Ann Carter", "Ann Carter", "Anne Carter", "Ann Carter", "Ann Carter")
    ids = [add_person(store, name, "F") for name in names]
    for pid, y in zip(ids, (1850, 1850, 1851, 1850, 1850), strict=True):
        snap = snapshot(store, f"{pid} Ann Carter born {y}.", EvidenceType.PRIMARY)
        add_fact(store, pid, "birth_date", str(y), snap, GenDate.from_parts(y))
    before = dump(store)
    first = merge(store, ids[:2], "same birth")
    after_first = dump(store)
    with store.transaction() as tx:
        grown = grow_in(store, tx, [ids[2], ids[1]], "third reading")
    assert grown.canonical_id == ids[2]  # the first id given, here not yet merged
    assert grown.member_ids == [ids[2], ids[0]]  # the first cluster, by its canonical person
    assert [p.id for p in case_graph(store).persons] == [ids[2], ids[3], ids[4]]
    after_grown = dump(store)
    other = merge(store, ids[3:], "same birth")
    both = merge(store, [ids[4], ids[0]], "one woman")  # a cluster absorbs a cluster
    assert both.member_ids == [ids[3], ids[2]]
    assert [p.id for p in case_graph(store).persons] == [ids[3]]
    with pytest.raises(InputError, match="already one person"):
        merge(store, [ids[1], ids[4]], "again")
    for inner in (first, grown, other):  # inside a larger merge: split that one first
        with pytest.raises(InvariantViolation, match="split that one first"):
            split(store, inner.id)
    split(store, both.id)
    split(store, other.id)
    assert dump(store) == after_grown
    split(store, grown.id)
    assert dump(store) == after_first
    split(store, first.id)
    assert dump(store) == before
