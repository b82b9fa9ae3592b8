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
