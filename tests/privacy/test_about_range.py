"""An "about" birth is a few years either way, not Gramps' date-about-range of 50: under
it a man born "ABT 1882" (kennedy.ged's Alexander G. Crawford) could be alive at 144,
and was shown "born 1880s · living — details redacted". `PrivacyPolicy.about_range` (10)
is the stretch; open "before"/"after" dates keep `fuzzy_range` (50)."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from shared_data import shared_path
from sleuth.model import CaseGraph, DateQualifier, GenDate, Person
from sleuth.pipeline.ingest import ingest_path
from sleuth.privacy import PrivacyPolicy, censor, explain_living
from sleuth.store import Store, case_graph

TODAY = date(2026, 11, 28)


def born(gd: GenDate) -> CaseGraph:
    return CaseGraph(persons=[Person(id="a", canonical_name="A", birth=gd)])


def about(year: int, qualifier: DateQualifier = DateQualifier.ABOUT) -> GenDate:
    return GenDate(earliest=date(year, 1, 1), latest=date(year, 12, 31), qualifier=qualifier,
                   precision="year", original=f"ABT {year}")


@pytest.mark.parametrize("rule", ["gramps", "strictest"])
@pytest.mark.parametrize("qualifier", [DateQualifier.ABOUT, DateQualifier.ESTIMATED,
                                       DateQualifier.CALCULATED])
def test_about_widens_by_the_about_range(rule: str, qualifier: DateQualifier) -> None:
    policy = PrivacyPolicy(rule=rule)  # type: ignore[arg-type]
    # born about 1882: at most 1892, so 134 now: not living
    assert not explain_living(born(about(1882, qualifier)), today=TODAY,
                              policy=policy)["a"].living
    # born about 1910: possibly 1920, 106 now: still protected
    assert explain_living(born(about(1910, qualifier)), today=TODAY,
                          policy=policy)["a"].living


def test_the_about_range_is_the_policys() -> None:
    gramps_default = PrivacyPolicy(rule="gramps", about_range=50)
    assert explain_living(born(about(1882)), today=TODAY, policy=gramps_default)["a"].living
    tight = PrivacyPolicy(rule="gramps", about_range=0)
    assert not explain_living(born(about(1912)), today=TODAY, policy=tight)["a"].living


def test_an_open_after_birth_is_still_possibly_living() -> None:
    after = GenDate(earliest=date(1900, 1, 1), qualifier=DateQualifier.AFTER)
    assert explain_living(born(after), today=TODAY, policy=PrivacyPolicy(rule="gramps"))[
        "a"].living


def test_kennedys_man_born_about_1882_is_not_living(tmp_path: Path) -> None:
    store = Store.create_case(tmp_path / "case")
    try:
        ingest_path(store, shared_path("gedcom", "samples", "kennedy.ged"))
        graph = case_graph(store)
    finally:
        store.close()
    crawford = next(p for p in graph.persons if p.canonical_name == "Alexander G. Crawford")
    assert crawford.birth is not None and crawford.birth.original == "ABT 1882"
    verdict = explain_living(graph, today=TODAY)[crawford.id]
    assert not verdict.living and "1882" in verdict.reason
    shown = censor(graph, today=TODAY).person(crawford.id)
    assert shown is not None and shown.is_living is False
    assert shown.birth is not None and shown.birth.original == "ABT 1882"
