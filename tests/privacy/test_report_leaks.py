"""`sleuth privacy report` must catch a real leak: an exporter that writes a living
person's exact birth day or an e-mail address is reported in that output's row, and only
there, whether the outputs are checked here or in forked worker processes."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import date
from pathlib import Path

import pytest

import sleuth.export as export
from shared_data import shared_path
from sleuth.agents.ingest import ingest_path
from sleuth.privacy.report import privacy_report
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
             when: Callable[[dict[str, object]], bool]) -> Callable[..., str]:
    def leaky(*args: object, **kwargs: object) -> str:
        text = real(*args, **kwargs)
        return text + extra if when(kwargs) else text
    return leaky


@pytest.mark.parametrize("workers", [0, 2])
def test_a_leak_planted_in_one_format_is_reported_there(
    store: Store, monkeypatch: pytest.MonkeyPatch, workers: int,
) -> None:
    clean = privacy_report(store, today=TODAY, record=False, workers=workers)
    assert all(o["leaks"] == 0 for o in clean["redactions"]["by_output"].values())
    monkeypatch.setattr(export, "to_gedcom", _planted(
        export.to_gedcom, f"0 @N1@ NOTE born {IU_BORN}\n",
        lambda kw: kw.get("version") == "7.0"))
    monkeypatch.setattr(export, "to_report", _planted(
        export.to_report, "\nWrite to iu@example.com\n", lambda kw: True))
    rep = privacy_report(store, today=TODAY, record=False, workers=workers)
    outputs = rep["redactions"]["by_output"]
    assert outputs["gedcom7"]["leak_kinds"] == {"living_birth_date": 1}
    assert outputs["report"]["leak_kinds"] == {"email": 1}
    assert {name for name, o in outputs.items() if o["leaks"]} == {"gedcom7", "report"}
