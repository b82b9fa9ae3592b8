"""Same-person leads: a record found for the seed's mother names her under a later surname."""

from __future__ import annotations

import pytest

from case_builder import add_fact, add_person, link, snapshot
from sleuth.loop.identity import same_person_lead
from sleuth.model import GenDate
from sleuth.store import Store, blackboard

FAMILY = "Ruth Greenwood, born 3 May 1889, daughter of Thomas Greenwood and Mary Cole."


def _record(store: Store, born: str, father: str = "Thomas Henry Cole",
            name: str = "Mary Hatherley") -> tuple[str, str, str]:
    text = (f"Death: {name}, born 19 May {born} in Ohio, died 19 June 1958, daughter of "
            f"{father} and Ellen Hartley.")
    snap = snapshot(store, text)
    her = add_person(store, name, "F")
    add_fact(store, her, "name", name, snap)
    add_fact(store, her, "birth_date", born, snap, GenDate.from_parts(int(born)))
    add_fact(store, her, "death_date", "1958", snap, GenDate.from_parts(1958))
    dad, mum = add_person(store, father, "M"), add_person(store, "Ellen Hartley", "F")
    link(store, dad, her)
    link(store, mum, her)
    return snap.id, her, mum


@pytest.fixture()
def family(tmp_path) -> tuple[Store, str, str]:
    store = Store.create_case(tmp_path / "case")
    snap = snapshot(store, FAMILY)
    ruth, mary = add_person(store, "Ruth Greenwood", "F"), add_person(store, "Mary Cole", "F")
    add_fact(store, ruth, "birth_date", "1889", snap, GenDate.from_parts(1889))
    link(store, mary, ruth)
    link(store, add_person(store, "Thomas Greenwood", "M"), ruth)
    return store, ruth, mary


def _lead(store: Store, seed: str, target: str, snap: str, ids: list[str]):
    with store.engine.connect() as conn:
        return same_person_lead(conn, target, blackboard.persons(conn, ids),
                                blackboard.direct_line(conn, seed), snap)


def test_a_maiden_name_from_her_father_is_followed_as_a_hypothesis(family) -> None:
    store, ruth, mary = family
    snap, her, mum = _record(store, "1868")
    lead = _lead(store, ruth, mary, snap, [her, mum])
    assert lead is not None and not lead.is_fact
    assert (lead.target_person, lead.related_person) == (mary, her)
    assert "Cole is her father's surname" in lead.statement
    assert lead.evidence and lead.evidence[0].excerpt == "Mary Hatherley"
    with store.transaction() as tx:
        store.add_hypothesis(tx, lead)
        gens, line = blackboard.generations(tx, ruth), blackboard.direct_line(tx, ruth)
        # her mother is followed as the seed's grandmother while the lead is tested
        assert (gens[her], gens[mum]) == (1, 2) and {her, mum} <= line
    assert _lead(store, ruth, mary, snap, [her, mum]) is None  # proposed once


def test_a_lead_needs_years_of_one_life_and_one_fitting_person(family) -> None:
    store, ruth, mary = family
    snap, her, mum = _record(store, "1880")  # nine at Ruth's birth: not her mother
    assert _lead(store, ruth, mary, snap, [her, mum]) is None
    snap, her, mum = _record(store, "1866", father="Thomas Henry Bell")  # no Cole named
    assert _lead(store, ruth, mary, snap, [her, mum]) is None


def test_two_fitting_persons_are_no_lead(family) -> None:
    store, ruth, mary = family
    snap1, one, _ = _record(store, "1866")
    _, two, _ = _record(store, "1867", name="Mary Wyatt")
    assert _lead(store, ruth, mary, snap1, [one]) is not None
    assert _lead(store, ruth, mary, snap1, [one, two]) is None
