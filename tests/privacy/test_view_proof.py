"""What `sleuth privacy report` proves on the censored view (`sleuth.privacy.proof`): every
string anywhere in the view is scanned, so a slip of the Censor is found even for a person
no output was rendered for, and the outputs are rendered from every living person's
records, their relatives' and one holder of each kind of claim and source."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from types import ModuleType

import pytest

from shared_data import shared_path
from sleuth.export.privacy_report import privacy_report
from sleuth.model import Assertion, CaseGraph, Person
from sleuth.pipeline.ingest import ingest_path
from sleuth.privacy import censor, redaction
from sleuth.privacy.living import explain_living
from sleuth.privacy.proof import exposed_view, view_findings, view_strings
from sleuth.privacy.scan import living_birth_patterns
from sleuth.store import Store, case_graph

TODAY = date(2026, 11, 27)
GRAPH_OUTPUTS = ("report", "jsonld", "gedcom", "gedcom7", "gedcomx", "show")


@pytest.fixture(scope="module")
def kennedy(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    s = Store.create_case(tmp_path_factory.mktemp("k") / "case")
    ingest_path(s, shared_path("gedcom", "samples", "kennedy.ged"))
    yield s
    s.close()


def _living(graph: CaseGraph) -> set[str]:
    return {pid for pid, v in explain_living(graph, today=TODAY).items() if v.living}


def test_a_slip_of_the_censor_is_found_where_no_output_is_rendered(
        kennedy: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """A dead person's claim that the Censor (here, deliberately broken) lets an e-mail
    address and a living person's birth day through: that person is outside the part
    the outputs are rendered from, and the leak is still reported in every graph output."""
    graph = case_graph(kennedy)
    living = _living(graph)
    exposed = exposed_view(censor(graph, today=TODAY), living)
    outside = next(pid for pid, claims in graph.assertions.items()
                   if claims and pid not in exposed.assertions and pid not in living)
    births = living_birth_patterns(graph, living)
    born = next(d for i, d in enumerate(births.days.order) if i not in births.shared)
    secret = f" write to jo@example.com, born {born:%d %B %Y}"
    real = redaction._Censor.other_claim

    def slipping(self: redaction._Censor, pid: str, a: Assertion) -> Assertion:
        out = real(self, pid, a)
        if pid == outside and a.field_name == "name":
            out = out.model_copy(update={"value": out.value + secret})
        return out

    clean = privacy_report(kennedy, today=TODAY, record=False, workers=0)
    monkeypatch.setattr(redaction._Censor, "other_claim", slipping)
    rep = privacy_report(kennedy, today=TODAY, record=False, workers=0)
    checked = rep["redactions"]["checked"]
    assert checked["rendered_whole"] < checked["persons"]
    outputs = rep["redactions"]["by_output"]
    for name in GRAPH_OUTPUTS:
        assert outputs[name]["leak_kinds"] == {"email": 1, "living_birth_date": 1}, name
        # the rendering itself never showed the person: its counts are the clean run's
        assert outputs[name]["chars"] == clean["redactions"]["by_output"][name]["chars"]
    assert outputs["review"]["leaks"] == 0


def test_a_living_persons_exact_date_or_removed_field_in_the_view_is_a_leak(
        family: CaseGraph, fam: ModuleType) -> None:
    """The checks by structure: a day-precise date of a living person (in a claim or on the
    person) and a removed field kept for them are each found, without any text."""
    view = censor(family, today=fam.TODAY)
    living = {p.id for p in view.persons if p.is_living}
    births = living_birth_patterns(family, living)
    assert view_findings(view, living, births, []) == []
    emma = next(p for p in view.persons if p.id == "emma")
    day = family.person("emma").birth  # type: ignore[union-attr]
    phone = family.assertions["emma"][0].model_copy(update={
        "field_name": "phone", "value": "call the office", "date": None})
    broken = view.model_copy(update={
        "persons": [emma.model_copy(update={"birth": day}) if p is emma else p
                    for p in view.persons],
        "assertions": {**view.assertions, "emma": [*view.assertions["emma"], phone]}})
    kinds = sorted(f.kind for f in view_findings(broken, living, births, []))
    # the planted claim is the stored one: its excerpt, shown whole, is a quote of a span
    # cited for her (`quoted_years`)
    assert kinds == ["living_exact_date", "living_quote", "living_removed_field"]


def test_every_string_at_any_depth_is_read(family: CaseGraph, fam: ModuleType) -> None:
    """Nested metadata, a hypothesis' queries, the redaction log: all read, and a value of
    a type the proof does not know stops it rather than being skipped. A date range's
    bounds are not read as days (a decade's first day is nobody's birthday); a time is
    read as its day."""
    shown = view_strings(censor(family, today=fam.TODAY))
    assert "1990s" in shown and "1990-01-01" not in shown and "1999-12-31" not in shown
    assert "2024-03-01" in shown  # when the snapshots were read
    snap = next(iter(family.snapshots.values()))
    meta = {"request": {"headers": [("User-Agent", "bot (mail jo@example.org)")]}}
    graph = family.model_copy(update={
        "snapshots": {snap.id: snap.model_copy(update={"metadata": meta})},
        "redactions": [{"person_id": None, "field": "x", "reason": "deep reason"}]})
    strings = view_strings(graph)
    assert {"bot (mail jo@example.org)", "User-Agent", "deep reason"} <= strings
    assert {h.statement for h in family.hypotheses} <= strings
    odd = family.model_copy(update={"redactions": [{"person_id": None, "x": object()}]})
    with pytest.raises(TypeError):
        view_strings(odd)


def test_the_exposed_part_is_the_living_their_relatives_and_one_of_each_kind() -> None:
    def person(pid: str, **links: set[str]) -> Person:
        return Person(id=pid, canonical_name=pid.title(), **links)  # type: ignore[arg-type]

    def said(pid: str, field: str) -> Assertion:
        return Assertion(entity_id=pid, field_name=field, value=field, confidence=0.9)

    persons = [person("grandpa", children={"dad"}), person("dad", parents={"grandpa"},
               children={"kid"}), person("kid", parents={"dad"}),
               person("stranger"), person("other")]
    claims = {"grandpa": [said("grandpa", "name")], "dad": [said("dad", "name")],
              "kid": [said("kid", "name")], "stranger": [said("stranger", "occupation")],
              "other": [said("other", "name"), said("other", "occupation")]}
    view = CaseGraph(persons=persons, assertions=claims)
    part = exposed_view(view, {"kid"})
    # the living kid, the first holder of each field (grandpa: name; stranger: occupation)
    assert set(part.assertions) == {"kid", "grandpa", "stranger"}
    # relatives of those are linked in, without claims, their links cut to who is kept
    assert [p.id for p in part.persons] == ["grandpa", "dad", "kid", "stranger"]
    dad = next(p for p in part.persons if p.id == "dad")
    assert dad.parents == {"grandpa"} and dad.children == {"kid"}
    assert part.persons[0] is view.persons[0]  # the view's own objects, not copies
