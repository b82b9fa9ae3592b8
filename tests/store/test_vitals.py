"""A person's summary dates (`sleuth show`, the report's pedigree): the recommended claim,
made as precise as the agreeing evidence allows."""

from __future__ import annotations

from sleuth.model import Assertion, AssertionStatus, GenDate, Person
from sleuth.store.queries import _fill_vitals


def _birth(value: str, when: GenDate, conf: float, **kw: object) -> Assertion:
    return Assertion(entity_id="p", field_name="birth_date", value=value, date=when,  # type: ignore[arg-type]
                     confidence=conf, **kw)


def test_a_day_inside_the_best_weighted_year_is_the_summary() -> None:
    year = _birth("about 1846", GenDate.from_parts(1846), 0.95)
    day = _birth("22 Jan 1846", GenDate.from_parts(1846, 1, 22), 0.6)
    got = _fill_vitals(Person(id="p"), [year, day], {})
    assert got.birth == day.date


def test_a_disagreeing_or_rejected_day_does_not_replace_the_choice() -> None:
    year = _birth("1846", GenDate.from_parts(1846), 0.95)
    other = _birth("3 Mar 1847", GenDate.from_parts(1847, 3, 3), 0.6)
    rejected = _birth("5 May 1846", GenDate.from_parts(1846, 5, 5), 0.9,
                      status=AssertionStatus.REJECTED)
    got = _fill_vitals(Person(id="p"), [year, other, rejected], {})
    assert got.birth == year.date
    # a conflict's recommended claim stays the one shown, however vague
    pick = _fill_vitals(Person(id="p"), [year, other], {"birth_date": other.id})
    assert pick.birth == other.date


def _name(value: str, *snaps: str) -> Assertion:
    from sleuth.model import Citation, Locator

    return Assertion(entity_id="p", field_name="name", value=value, confidence=0.9,
                     citations=[Citation(snapshot_id=s, excerpt=value,
                                         locator=Locator(start=0, end=len(value)))
                                for s in snaps])


def test_a_merged_person_is_headed_by_the_best_supported_spelling_of_their_surname() -> None:
    from sleuth.store.queries import _best_named

    tree = Person(id="a", canonical_name="Albert Gyles", given_name="Albert", surname="Gyles")
    records = Person(id="b", canonical_name="Albert Giles", given_name="Albert",
                     surname="Giles")
    claims = [_name("Albert Gyles", "t1"), _name("Mr. Albert GILES", "r1", "r2"),
              _name("Albert Giles", "r3")]
    assert _best_named([tree, records], claims) is records
    # one source each: the cluster's own canonical person stays
    assert _best_named([tree, records], [*claims[:1], _name("Albert Giles", "r1")]) is tree
    # a married name is another surname, not a spelling: she keeps the one she has here
    maiden = Person(id="c", canonical_name="Sarah Stroud")
    married = Person(id="d", canonical_name="Sarah Giles")
    many = [_name("Sarah Giles", "x", "y", "z"), _name("Sarah Stroud", "w")]
    assert _best_named([maiden, married], many) is maiden


def test_a_woman_is_filed_under_the_surname_her_records_give_at_birth() -> None:
    """The cluster began with her married name (a memorial's "Emma Edith Garside"); a tree
    gives her surname at birth, Whitfield, and a member bears it: she heads the group."""
    from sleuth.store.queries import _best_named

    married = Person(id="a", canonical_name="Emma Edith Garside")
    maiden = Person(id="b", canonical_name="Emma Edith Whitfield")
    names = [_name("Emma Edith Garside", "m1", "m2"), _name("Emma Edith Whitfield", "t1")]
    born = Assertion(entity_id="b", field_name="birth_surname", value="Whitfield",
                     confidence=0.9)
    assert _best_named([married, maiden], [*names, born]) is maiden
    assert _best_named([married, maiden], names) is married  # no surname at birth on file
    other = born.model_copy(update={"value": "Ketteridge"})  # nobody here bears it
    assert _best_named([married, maiden], [*names, other]) is married
