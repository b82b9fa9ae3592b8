"""Which captured sources the case repository withholds: those that name a living private
person as that person (the extraction found them there, or their whole name is in the text),
not a page that shares a surname with one ("West" on a 1916 front page is no living member of
WikiTree's "Adam West"). Real inputs: a WikiTree profile of a living person saved from the
site and a 1916 Chronicling America front page."""

from __future__ import annotations

import shutil
from datetime import date
from pathlib import Path

import pytest

from shared_data import shared_path
from sleuth.domains.investigations.extraction import extract_source, merge
from sleuth.domains.investigations.model import SourceRecord
from sleuth.domains.investigations.prose import language
from sleuth.domains.investigations.protect import name_mask, protected
from sleuth.domains.investigations.publish import private_sources
from sleuth.domains.investigations.state import CaseState
from sleuth.model import Snapshot
from sleuth.model.documents import document_date, is_newspaper
from sleuth.sources.local import load_file

PAGE = "19160510__sn91066782-ed-1_seq-1.txt"


@pytest.fixture(scope="module")
def snaps(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Snapshot]:
    folder = tmp_path_factory.mktemp("corpus")
    shutil.copy(shared_path("recorded", "wikitree", "sourcer", "saved_pages",
                            "marsh-9608_private_2025.html"), folder / "marsh.html")
    shutil.copy(shared_path("text", "chronam_1916_front_pages", "pages", PAGE), folder / PAGE)
    return {"S001": load_file(folder / "marsh.html", source_name="corpus").snapshot,
            "S002": load_file(folder / PAGE, source_name="corpus").snapshot}


def _withheld(snaps: dict[str, Snapshot]) -> tuple[list[str], dict[str, dict]]:
    parts = [extract_source(SourceRecord(sid, str(snap.path), language=language(snap.text)),
                            snap)
             for sid, snap in snaps.items()]
    x = merge(parts, 1)
    dated: dict[str, date] = {sid: d for sid, s in snaps.items()
                              if is_newspaper(s) and (d := document_date(s)) is not None}
    people = protected(x, dated, {sid: s.text for sid, s in snaps.items()})
    return private_sources(CaseState(case_id="c", topic="q"), snaps, x, people), people


def test_a_page_sharing_only_a_surname_with_a_living_person_is_committed(
        snaps: dict[str, Snapshot]) -> None:
    withheld, people = _withheld(snaps)
    mask = name_mask(people)
    assert mask.mentions("Celia Marsh") and mask.mentions("Marsh")  # masked as before
    assert mask.mentions(snaps["S002"].text)  # the 1916 page holds a masked surname...
    assert withheld == ["S001"]  # ...but names no living person: only her profile is kept out


def test_a_source_that_names_the_living_person_whole_is_withheld(
        snaps: dict[str, Snapshot], tmp_path: Path) -> None:
    note = tmp_path / "note.txt"
    note.write_text("A letter from Celia Marsh about the West.\n", encoding="utf-8")
    withheld, _ = _withheld({**snaps, "S003": load_file(note, source_name="corpus").snapshot})
    assert withheld == ["S001", "S003"]
