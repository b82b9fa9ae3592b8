"""Import -> export -> import on real trees: what a genealogy program would see survives.

"Preserves" means, comparing the case after the first import (G1) with the case after
importing our export of it (G2), for people the Censor does not treat as living (nor their
namesakes, since people are matched by name, nor the family events of their partners):
- the same number of persons;
- the same set of (person name, field, value) for every non-relationship claim (the export
  writes claims that agree as one fact, and a name's honorific in NPFX), where a
  date counts as its (earliest, latest) range: names, sex, occupation, and every event's date
  and place (BIRT ... BURI, EMIG, CENS, custom `_XXX`, MARR, DIV, ...);
- the same multiset of (person name, parent|spouse, relative name) links;
- citations: every DATA/TEXT of a citation of a stored snapshot is a stored excerpt of G1
  (line ends aside) or the Censor's marker, and every excerpt the Censor left readable for a
  name or event claim is exported verbatim (a family's links are cited once on the FAM by
  their widest excerpt, and SEX has no place for a SOUR). The tree's own citations, with
  their own TEXT, are checked in `test_tree_sources.py`.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from roundtrip import round_trip

from shared_data import shared_path


def _check(path: Path, tmp: Path, version: str = "5.5.1", tolerance: int = 0) -> None:
    r = round_trip(path, tmp, version)
    persons = r["persons"]
    assert persons[0] == persons[1], persons
    f1, f2 = r["facts"]
    assert sum(f1.values()) > 0
    diff = (f1 - f2) + (f2 - f1)
    assert sum(diff.values()) <= tolerance, list(diff.items())[:5]
    r1, r2 = r["relations"]
    assert r1 == r2, list(((r1 - r2) + (r2 - r1)).items())[:5]
    assert r["foreign_texts"] == []
    assert r["lost_excerpts"] == set()


@pytest.mark.parametrize("version", ["5.5.1", "7.0"])
def test_kennedy_round_trips(tmp_path: Path, version: str) -> None:
    _check(shared_path("gedcom", "samples", "kennedy.ged"), tmp_path, version)


@pytest.mark.parametrize(
    "parts", [("gedcom70", "maximal70.ged"), ("torture", "TGC551.ged"), ("torture", "TGC55C.ged")]
)
def test_small_hard_files_round_trip(tmp_path: Path, parts: tuple[str, str]) -> None:
    _check(shared_path("gedcom", *parts), tmp_path)


def test_gedcom7code_pairs_round_trip(tmp_path: Path) -> None:
    """Each 5.5.1 file and its 7.0 twin: both survive, and where facts are extracted the two
    versions agree on the persons found."""
    five, seven = shared_path("gedcom", "gedcom7code", "5"), shared_path("gedcom", "gedcom7code",
                                                                         "7")
    for old in sorted(five.glob("*.ged")):
        new = seven / old.name
        for i, path in enumerate(p for p in (old, new) if p.exists()):
            r = round_trip(path, tmp_path / f"{old.stem}-{i}")
            assert r["persons"][0] == r["persons"][1], path
            assert r["relations"][0] == r["relations"][1], path
            assert r["foreign_texts"] == [] and r["lost_excerpts"] == set(), path


@pytest.mark.slow
@pytest.mark.parametrize("name", ["royal92.ged", "pres2020.ged"])
def test_big_trees_round_trip(tmp_path: Path, name: str) -> None:
    """Exact, like the small files: every fact, date range and link comes back."""
    _check(shared_path("gedcom", "samples", name), tmp_path, tolerance=0)
