"""A child's two parents named together pair them as a wedding does: a name alone does not
link a record's father to the case's man of that name whose children have another mother
(issue 19: the 1,000-person world's fathers and mothers of one name, generations apart)."""

from __future__ import annotations

from pathlib import Path

from sleuth.pipeline.ingest import ingest_path
from sleuth.store import Store, case_graph

TREE = """0 HEAD
1 GEDC
2 VERS 5.5.1
1 CHAR UTF-8
0 @I1@ INDI
1 NAME William /Giles/
1 SEX M
1 FAMS @F1@
0 @I2@ INDI
1 NAME Hannah Clara /Simmons/
1 SEX F
1 FAMS @F1@
0 @I3@ INDI
1 NAME Daniel /Giles/
1 SEX M
1 BIRT
2 DATE 13 MAY 1953
1 FAMC @F1@
0 @F1@ FAM
1 HUSB @I1@
1 WIFE @I2@
1 CHIL @I3@
0 TRLR
"""


def _fathers(tmp_path: Path, obituary: str) -> dict[str, list[str]]:
    """Each William Giles of the case -> the names of his children."""
    ged, text = tmp_path / "tree.ged", tmp_path / "obituary.txt"
    ged.write_text(TREE, encoding="utf-8")
    text.write_text(obituary, encoding="utf-8")
    store = Store.create_case(tmp_path / "case")
    try:
        ingest_path(store, ged)
        ingest_path(store, text)
        graph = case_graph(store)
    finally:
        store.close()
    names = {p.id: p.canonical_name for p in graph.persons}
    return {p.id: sorted(names[c] for c in p.children) for p in graph.persons
            if p.canonical_name == "William Giles"}


def test_a_father_with_another_mother_is_a_namesake(tmp_path: Path) -> None:
    fathers = _fathers(tmp_path, "Robert Giles died at his home on March 2, 2019. He was "
                       "born on April 4, 1950, a son of William Giles and Louisa Wyatt.\n")
    assert sorted(fathers.values()) == [["Daniel Giles"], ["Robert Giles"]]


def test_a_father_with_the_same_mother_is_linked(tmp_path: Path) -> None:
    fathers = _fathers(tmp_path, "Robert Giles died at his home on March 2, 2019. He was "
                       "born on April 4, 1950, a son of William Giles and Hannah Clara "
                       "Simmons.\n")
    assert sorted(fathers.values()) == [["Daniel Giles", "Robert Giles"]]
