"""`sleuth privacy report` must catch a real leak: an exporter that writes a living
person's exact birth day or an e-mail address is reported in that output's row, and only
there, whether the outputs are checked here or in forked worker processes."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import date
from pathlib import Path

import pytest

import sleuth.export.gedcom as gedcom_export
import sleuth.export.jsonld as jsonld_export
import sleuth.export.report as report_export
from shared_data import shared_path
from sleuth.export.privacy_report import privacy_report
from sleuth.pipeline.ingest import ingest_path
from sleuth.store import Store

TODAY = date.today()
IU_BORN = "16 MAY 1993"  # IU (Q20145), living: her day is in the store, never in an output


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    s = Store.create_case(tmp_path / "case")
    ingest_path(s, shared_path("recorded", "wikidata", "dahlia_fixtures", "entities",
                               "Q20145.json"))
    yield s
    s.close()


def _planted(real: Callable[..., str], extra: str,
             when: Callable[[tuple[object, ...]], bool]) -> Callable[..., str]:
    def leaky(*args: object, **kwargs: object) -> str:
        text = real(*args, **kwargs)
        return text + extra if when(args) else text
    return leaky


@pytest.mark.parametrize("workers", [0, 2])
def test_a_leak_planted_in_one_format_is_reported_there(
    store: Store, monkeypatch: pytest.MonkeyPatch, workers: int,
) -> None:
    clean = privacy_report(store, today=TODAY, record=False, workers=workers)
    assert all(o["leaks"] == 0 for o in clean["redactions"]["by_output"].values())
    # the exporters as the report renders them: from the censored view it holds
    monkeypatch.setattr(gedcom_export, "gedcom_of_view", _planted(
        gedcom_export.gedcom_of_view, f"0 @N1@ NOTE born {IU_BORN}\n",
        lambda args: args[1] == "7.0"))
    monkeypatch.setattr(report_export, "report_of_view", _planted(
        report_export.report_of_view, "\nWrite to iu@example.com\n", lambda args: True))
    rep = privacy_report(store, today=TODAY, record=False, workers=workers)
    outputs = rep["redactions"]["by_output"]
    assert outputs["gedcom7"]["leak_kinds"] == {"living_birth_date": 1}
    assert outputs["report"]["leak_kinds"] == {"email": 1}
    assert {name for name, o in outputs.items() if o["leaks"]} == {"gedcom7", "report"}


def test_a_leak_an_exporter_writes_in_a_json_string_is_reported(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """The JSON outputs' strings that quote the view are proved with the view, not scanned
    again; a string the exporter writes itself still is, even beside quoted view strings."""
    real = jsonld_export.jsonld_of_view

    def leaky(view: object) -> dict[str, object]:
        doc = real(view)  # type: ignore[arg-type]
        return {**doc, "note": f"born {IU_BORN}; write to iu@example.com"}

    monkeypatch.setattr(jsonld_export, "jsonld_of_view", leaky)
    rep = privacy_report(store, today=TODAY, record=False, workers=0)
    outputs = rep["redactions"]["by_output"]
    assert outputs["jsonld"]["leak_kinds"] == {"email": 1, "living_birth_date": 1}
    assert {name for name, o in outputs.items() if o["leaks"]} == {"jsonld"}


def test_a_living_birth_day_that_is_also_a_dead_persons_date_is_no_leak(
        tmp_path: Path) -> None:
    """kennedy.ged: persons treated as living share birth days with long-dead relatives
    whose dates every output prints. Those days are counted apart, not as leaks, because
    the censored view proves no living person's own claim carries an exact date."""
    s = Store.create_case(tmp_path / "k")
    try:
        ingest_path(s, shared_path("gedcom", "samples", "kennedy.ged"))
        rep = privacy_report(s, today=date(2026, 11, 27), record=False, workers=0)
    finally:
        s.close()
    outputs = rep["redactions"]["by_output"]
    assert {name: o["leaks"] for name, o in outputs.items()} == dict.fromkeys(outputs, 0)
    assert outputs["gedcom"]["shared_days"] >= 1
    assert "day_shared_with_deceased" not in outputs["gedcom"]["leak_kinds"]


def test_an_exact_date_of_the_living_in_the_censored_view_is_a_leak() -> None:
    """The claim-by-claim proof that backs the shared days: a living person's day-precise
    claim in the view the outputs are rendered from is found, a decade is not."""
    from sleuth.model import Assertion, CaseGraph, GenDate, Person
    from sleuth.privacy.scan import exact_dates_of_living

    day = GenDate(earliest=date(1950, 3, 2), latest=date(1950, 3, 2), original="2 MAR 1950")
    decade = GenDate(earliest=date(1950, 1, 1), latest=date(1959, 12, 31), original="1950s")

    def graph(d: GenDate) -> CaseGraph:
        return CaseGraph(persons=[Person(id="p1", canonical_name="Ann Doe")], assertions={
            "p1": [Assertion(entity_id="p1", field_name="birth_date", value=d.original,
                             date=d, confidence=0.9)]})

    assert [f.person_id for f in exact_dates_of_living(graph(day), {"p1"})] == ["p1"]
    assert exact_dates_of_living(graph(decade), {"p1"}) == []
    assert exact_dates_of_living(graph(day), set()) == []
