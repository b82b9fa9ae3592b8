"""A person's given names and surname are not their titles (issue 20): "Mrs. Geo. R. Cook"
is no woman named Geo.; "Dr. Wm. L. McKibbin" keeps "Dr." in NPFX, not in GIVN."""

from __future__ import annotations

from pathlib import Path

from case_builder import ingested_graph
from sleuth.export import to_gedcom
from sleuth.pipeline.linking import name_parts


def test_titles_and_suffixes_are_no_given_names_or_surnames() -> None:
    assert name_parts("Mrs. Geo. R. Cook") == ("", "Cook")  # her husband's names
    assert name_parts("Dr. Wm. L. McKibbin") == ("Wm. L.", "McKibbin")
    assert name_parts("John Smith Jr.") == ("John", "Smith")
    assert name_parts("Capt. John Van Buren Sr.") == ("John", "Van Buren")
    assert name_parts("Albert Augustus Charles") == ("Albert Augustus", "Charles")


def test_an_obituary_exports_titles_apart(tmp_path: Path) -> None:
    notice = tmp_path / "notice.txt"
    notice.write_text("Dr. Wm. L. McKibbin died at his home in Buck Valley on October 12, "
                      "1916. He married Miss Ella Rebecca Eddowes in 1865. Mrs. Geo. R. Cook "
                      "of Harrisonville is his daughter.\n", encoding="utf-8")
    graph = ingested_graph(tmp_path / "case", notice)
    people = {p.canonical_name: p for p in graph.persons}
    doctor = next(p for name, p in people.items() if name.endswith("McKibbin"))
    assert (doctor.given_name, doctor.surname) == ("Wm. L.", "McKibbin")
    assert all(not p.given_name.startswith(("Mrs", "Dr", "Miss")) for p in graph.persons)
    ged = to_gedcom(graph)
    assert "1 NAME Wm. L. /McKibbin/\n2 NPFX Dr.\n2 GIVN Wm. L.\n2 SURN McKibbin" in ged
    assert "2 GIVN Geo. R." not in ged
