"""A stretch of a source cited for a living person is withheld wherever it is quoted.

The demo's obituary (world 7): "She married Steven Joseph Golden in 1932." is the dead
wife's marriage and spouse claims and the living husband's name claim. The Censor withheld
his excerpt and her marriage's, but her spouse claim quoted the same span whole, so the
year the marker withheld was printed right beside it, and the source's page showed it too
(issue: a living person's marriage year leaks through quoted citations).
"""

from __future__ import annotations

from datetime import date

import family_case as fc
from graph_same import assert_same
from sleuth.model import CaseGraph, GenDate, Hypothesis, Person
from sleuth.model.citation import Citation
from sleuth.privacy import REDACTED_EXCERPT, censor
from sleuth.privacy.live import LiveCensor
from sleuth.privacy.proof import quoted_years
from sleuth.privacy.withheld import Withheld, merged

TODAY = date(2026, 11, 28)
OBITUARY = (
    "SPRINGFIELD DAILY REPUBLIC\nNOVEMBER 7, 1953\n\nDEATH OF SARAH GOLDEN.\n\nSarah\n"
    "Golden, an old resident of this county, died at her home in\nSpringfield, Clark "
    "County, Ohio, on November 4, 1953, aged\n42 yeara. She was born in Clark county, "
    "Ohio, on July\n28, 1910, a daughter of Albert Giles and Sarah Stroud. She married "
    "Steven\nJoseph Golden in 1932. She is survived by 5 children. The funeral\nwas held "
    "Saturday and burial was in Oak Hill Cemetery.\n"
)
MARRIED = "She married Steven\nJoseph Golden in 1932."
BORN = "She was born in Clark county, Ohio, on July\n28, 1910"


def golden() -> CaseGraph:
    obit = fc.snap("s-obit", "Chronicling America", OBITUARY)
    sarah = Person(id="sarah", canonical_name="Sarah Golden", sex="F",
                   birth=GenDate.from_parts(1910, 7, 28), death=GenDate.from_parts(1953, 11, 4),
                   spouses={"steven"})
    steven = Person(id="steven", canonical_name="Steven Joseph Golden", is_living=True,
                    spouses={"sarah"})
    claims = {
        "sarah": [
            fc.claim("a-born", "sarah", "birth_date", "28 July 1910", obit, BORN,
                     when=GenDate.from_parts(1910, 7, 28)),
            fc.claim("a-wed", "sarah", "marriage_date", "1932", obit, MARRIED,
                     when=GenDate.from_parts(1932)),
            fc.claim("a-spouse", "sarah", "spouse", "Steven Joseph Golden", obit, MARRIED),
        ],
        "steven": [fc.claim("a-name", "steven", "name", "Steven Joseph Golden", obit, MARRIED)],
    }
    return CaseGraph(title="Golden", persons=[sarah, steven], assertions=claims,
                     snapshots={"s-obit": obit})


def _excerpts(view: CaseGraph, pid: str) -> dict[str, str]:
    return {a.field_name: a.citations[0].excerpt for a in view.assertions[pid]}


def test_a_quote_of_a_span_withheld_for_the_living_is_a_leak() -> None:
    """The check `sleuth privacy report` runs on the view: the span cited for Steven quoted
    whole in Sarah's spouse claim, and the source's text showing its year, are each found;
    the Censor's view has neither."""
    g = golden()
    view = censor(g, today=TODAY)
    assert quoted_years(view, {"steven"}) == []
    spouse = next(a for a in view.assertions["sarah"] if a.field_name == "spouse")
    raw = g.assertions["sarah"][2].citations[0]
    slipped = view.model_copy(update={
        "assertions": {**view.assertions, "sarah": [
            a.model_copy(update={"citations": [raw]}) if a is spouse else a
            for a in view.assertions["sarah"]]},
        "snapshots": g.snapshots})
    found = quoted_years(slipped, {"steven"})
    assert sorted((f.kind, f.person_id or "") for f in found) == [
        ("living_quote", ""), ("living_quote", "sarah")]
    year = OBITUARY.index("1932")
    assert {(f.start, f.end) for f in found} == {(year, year + 4), (raw.locator.start,
                                                                    raw.locator.end)}


def test_every_quote_of_the_span_is_withheld_and_the_source_masks_its_year() -> None:
    view = censor(golden(), today=TODAY)
    sarah = _excerpts(view, "sarah")
    assert sarah["spouse"] == sarah["marriage_date"] == REDACTED_EXCERPT
    assert _excerpts(view, "steven")["name"] == REDACTED_EXCERPT
    assert sarah["birth_date"] == BORN  # her own birth, outside the span: her history
    text = view.snapshots["s-obit"].text
    assert len(text) == len(OBITUARY)  # every locator still valid
    assert "Joseph Golden in ████." in text and "1932" not in text
    assert "NOVEMBER 7, 1953" in text and "28, 1910" in text
    assert any(r["action"] == "excerpt_redacted" and r["person_id"] == "sarah"
               and r["field"] == "spouse" for r in view.redactions)


def test_the_very_span_cited_for_the_living_is_withheld_without_a_year() -> None:
    """No year in it, but the marker already stands for that span: quoting it beside
    the marker would show what the marker withholds."""
    g = golden()
    obit = g.snapshots["s-obit"]
    words = "Sarah\nGolden, an old resident of this county"
    g.assertions["sarah"].append(fc.claim("a-n", "sarah", "name", "Sarah Golden", obit, words))
    g.assertions["steven"].append(fc.claim("a-sp", "steven", "spouse", "Sarah Golden", obit,
                                           words))
    view = censor(g, today=TODAY)
    assert _excerpts(view, "sarah")["name"] == REDACTED_EXCERPT
    assert words in view.snapshots["s-obit"].text  # no year in it to mask


def test_once_no_one_citing_it_is_living_the_span_is_quoted_again() -> None:
    g = golden()
    steven = g.persons[1].model_copy(update={"is_living": False})
    view = censor(g.model_copy(update={"persons": [g.persons[0], steven]}), today=TODAY)
    assert _excerpts(view, "sarah")["spouse"] == MARRIED
    assert _excerpts(view, "steven")["name"] == MARRIED
    assert view.snapshots["s-obit"].text == OBITUARY


def test_the_live_censor_withholds_as_a_fresh_censor_does() -> None:
    g = golden()
    live = LiveCensor(g, today=TODAY)
    assert_same(live.graph, censor(g, today=TODAY))
    # Steven is found dead: the span is no one living's, Sarah's quote comes back
    dead = g.persons[1].model_copy(update={"is_living": False})
    g2 = g.model_copy(update={"persons": [g.persons[0], dead]})
    live.update(g2, {"steven"})
    assert_same(live.graph, censor(g2, today=TODAY))
    assert _excerpts(live.graph, "sarah")["spouse"] == MARRIED
    # and alive again, with a hypothesis about him citing her birth: that span goes too
    hyp = Hypothesis(id="h-steven", hypothesis_type="missing_record",
                     statement="Steven may be in the 1940 census", target_person="steven",
                     priority=0.5, evidence=[fc.cite(g.snapshots["s-obit"], BORN)])
    g3 = g.model_copy(update={"hypotheses": [hyp]})
    live.update(g3, {"steven"})
    assert_same(live.graph, censor(g3, today=TODAY))
    assert _excerpts(live.graph, "sarah")["birth_date"] == REDACTED_EXCERPT
    assert "28, ████" in live.graph.snapshots["s-obit"].text


def test_overlaps_are_read_where_the_spans_meet() -> None:
    w = Withheld({"s": frozenset([(10, 20), (15, 30), (50, 60)])})
    assert w.by_snapshot["s"] == merged([(50, 60), (15, 30), (10, 20)]) == ((10, 30), (50, 60))
    assert list(w.overlaps("s", 0, 12)) == [(10, 12)]
    assert list(w.overlaps("s", 25, 55)) == [(25, 30), (50, 55)]
    assert list(w.overlaps("s", 30, 50)) == [] and list(w.overlaps("t", 0, 99)) == []
    text = "x" * 10 + "in 1932 or" + "the 1930s." + "y" * 20 + "in 1950 .."
    assert w.mask("s", text) == text.replace("1932", "████").replace("1950", "████")
    # a quote overlapping a withheld span but showing no year there is no leak

    def quote(a: int, b: int) -> Citation:
        return Citation.model_validate({"snapshot_id": "s", "excerpt": text[a:b],
                                        "locator": {"start": a, "end": b}})

    assert not w.withholds(quote(30, 52))
    # but a quote of a withheld span itself is, year or not, as its marker is
    assert w.withholds(quote(50, 60))
    assert not w.withholds(quote(20, 30))  # "the 1930s." inside (15, 30), not that span
