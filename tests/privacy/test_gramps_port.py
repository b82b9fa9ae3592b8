"""The Gramps port's spouse estimate, as Gramps 6 computes it (`ProbablyAlive.spouse_test`):
a spouse's single date, whatever its modifier, gives its own day +- avg_generation_gap (20)
as the birth range, and death is that range + max_age (110) to the day; a spouse's range
is widened by a generation at both ends. (Found comparing with Gramps on example.ged, see
benchmarks/privacy.py: I1364, I1688, I1690.)"""

from __future__ import annotations

from datetime import date

from sleuth.model import CaseGraph, DateQualifier, GenDate, Person
from sleuth.privacy import PrivacyPolicy, explain_living

GRAMPS = PrivacyPolicy(rule="gramps")


def couple(spouse_birth: GenDate) -> CaseGraph:
    return CaseGraph(persons=[
        Person(id="a", canonical_name="A", spouses={"b"}),
        Person(id="b", canonical_name="B", spouses={"a"}, birth=spouse_birth),
    ])


def alive(graph: CaseGraph, today: date) -> bool:
    return explain_living(graph, today=today, policy=GRAMPS)["a"].living


def test_spouse_exact_day_bounds_the_death_to_the_day() -> None:
    graph = couple(GenDate.from_parts(1896, 3, 1))
    # birth 1876-03-01 .. 1916-03-01, death by 2026-03-01
    assert alive(graph, date(2026, 2, 27)) is True
    assert alive(graph, date(2026, 11, 22)) is False


def test_spouse_after_date_is_not_stretched_before_the_gap() -> None:
    after = GenDate(earliest=date(1880, 1, 1), qualifier=DateQualifier.AFTER)
    graph = couple(after)
    # Gramps: birth 1860..1900, death by 2010 (not 1860..1950 and 2060)
    assert alive(graph, date(2009, 6, 1)) is True
    assert alive(graph, date(2025, 6, 1)) is False


def test_spouse_range_is_widened_at_both_ends() -> None:
    between = GenDate(earliest=date(1900, 1, 1), latest=date(1910, 12, 31),
                      qualifier=DateQualifier.BETWEEN)
    graph = couple(between)
    # birth 1880 .. 1930-12-31, death by 2040-12-31
    assert alive(graph, date(2040, 6, 1)) is True
    assert alive(graph, date(2041, 6, 1)) is False
