"""`LiveCensor` (the workbench's case kept across decisions, issue 23) gives exactly what
`censor` of the whole graph gives after each change: new and removed secrets (a living
person's marriage date quoted in a dead man's record), a verdict that flips, persons added
and removed, links changed, hypotheses; and it censors the whole case only once."""

from __future__ import annotations

import family_case as fc
from graph_same import assert_same
from sleuth.model import Assertion, CaseGraph, GenDate, Hypothesis, Person
from sleuth.privacy import MENTIONS_LIVING, censor
from sleuth.privacy.live import LiveCensor

NEWS = "Springfield News, 2015. Daniel Reyes married Emma Whitfield on 14 February 2015."


def with_person(g: CaseGraph, p: Person) -> CaseGraph:
    return g.model_copy(update={"persons": [p if q.id == p.id else q for q in g.persons]})


def step(live: LiveCensor, g: CaseGraph, touched: set[str]) -> None:
    live.update(g, touched)
    assert_same(live.graph, censor(g, today=fc.TODAY))


def test_every_change_reads_as_a_fresh_censor() -> None:
    g = fc.build_family()
    live = LiveCensor(g, today=fc.TODAY)
    assert_same(live.graph, censor(g, today=fc.TODAY))

    # a newspaper cited for Robert (dead) that quotes a day no one living is known by yet
    news = fc.snap("s-news", "Springfield News", NEWS)
    robert_claim = fc.claim("a-r-news", "robert", "occupation", "clerk", news,
                            "Daniel Reyes married Emma Whitfield on 14 February 2015.")
    g = g.model_copy(update={
        "snapshots": {**g.snapshots, "s-news": news},
        "assertions": {**g.assertions, "robert": [*g.assertions["robert"], robert_claim]}})
    step(live, g, {"robert"})
    assert live.graph.assertions["robert"][-1].citations[0].excerpt.startswith("Daniel Reyes")

    # Daniel (living) gets that marriage date: a new secret; Robert's excerpt, untouched,
    # now mentions it
    married = fc.claim("a-d-marr", "daniel", "marriage_date", "14 February 2015", news,
                       "on 14 February 2015", when=GenDate.from_parts(2015, 2, 14))
    g = g.model_copy(update={"assertions": {**g.assertions, "daniel": [married]}})
    step(live, g, {"daniel"})
    assert live.graph.assertions["robert"][-1].citations[0].excerpt == MENTIONS_LIVING
    assert "14 February 2015" not in live.graph.snapshots["s-news"].text

    # and loses it: the secret is gone, Robert's words come back
    g = g.model_copy(update={"assertions": {k: v for k, v in g.assertions.items()
                                            if k != "daniel"}})
    step(live, g, {"daniel"})
    assert live.graph.assertions["robert"][-1].citations[0].excerpt.startswith("Daniel Reyes")

    # Robert's death record goes: he may be living now (born 1935), his dates secrets
    robert = next(p for p in g.persons if p.id == "robert")
    g = with_person(g, robert.model_copy(update={"death": None}))
    g = g.model_copy(update={"assertions": {**g.assertions, "robert": [
        a for a in g.assertions["robert"] if not a.field_name.startswith("death")]}})
    step(live, g, {"robert"})
    assert live.graph.person("robert").is_living  # type: ignore[union-attr]

    # a child born to Emma; Daniel leaves the case
    grace = Person(id="grace", canonical_name="Grace Reyes", given_name="Grace",
                   surname="Reyes", sex="F", parents={"emma"})
    emma = next(p for p in g.persons if p.id == "emma")
    g = with_person(g, emma.model_copy(update={"children": {"grace"}, "spouses": set()}))
    g = g.model_copy(update={"persons": [p for p in g.persons if p.id != "daniel"] + [grace]})
    step(live, g, {"emma", "grace", "daniel"})

    # a hypothesis about Grace, citing the obituary
    hyp = Hypothesis(id="h-grace", hypothesis_type="missing_record",
                     statement="Grace may be named in a 2020 newspaper", target_person="grace",
                     priority=0.5,
                     evidence=[fc.cite(g.snapshots["s-obit"], "Robert Whitfield, 75")])
    g = g.model_copy(update={"hypotheses": [*g.hypotheses, hyp]})
    step(live, g, set())
    assert live.full_runs == 1


def test_an_untouched_person_keeps_the_very_objects() -> None:
    g = fc.build_family()
    live = LiveCensor(g, today=fc.TODAY)
    before = live.graph.assertions["thomas"]
    extra = Assertion(id="a-e-occ", entity_id="emma", field_name="occupation", value="teacher",
                      confidence=0.9, citations=[fc.cite(g.snapshots["s-dir"], "Emma Whitfield")])
    g = g.model_copy(update={"assertions": {**g.assertions,
                                            "emma": [*g.assertions["emma"], extra]}})
    step(live, g, {"emma"})
    assert live.graph.assertions["thomas"] is before
