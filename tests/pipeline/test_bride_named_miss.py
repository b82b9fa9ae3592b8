"""A bride announced as "Miss" marries for the first time: a name alone does not link her
to a woman the case finds married before, or born too long before the wedding for a first
marriage (issue 19: the 1,000-person world's mothers and daughters-in-law of one name)."""

from __future__ import annotations

from pathlib import Path

from sleuth.pipeline.ingest import ingest_path
from sleuth.store import Store, case_graph

HEAD = "0 HEAD\n1 GEDC\n2 VERS 5.5.1\n1 CHAR UTF-8\n"


def _woman(xref: str, name: str, born: str, married: str = "") -> str:
    out = f"0 @{xref}@ INDI\n1 NAME {name}\n1 SEX F\n1 BIRT\n2 DATE {born}\n"
    if married:
        out += f"1 FAMS @F{xref}@\n0 @F{xref}@ FAM\n1 WIFE @{xref}@\n1 MARR\n2 DATE {married}\n"
    return out


def _wedding(tmp_path: Path, day: str, groom: str, bride: str) -> Path:
    path = tmp_path / f"wedding-{bride.split()[-1]}-{day[-4:]}.txt"
    path.write_text(f"Married, at the residence of the bride's parents, on {day}, Mr. {groom} "
                    f"and Miss {bride}, both of Springfield.\n", encoding="utf-8")
    return path


def _lives(tmp_path: Path, tree: str, *weddings: Path) -> dict[str, list[tuple[str, ...]]]:
    """Name -> for each person of that name, the sorted birth and marriage dates, and
    "wedding" when the wedding notice names them."""
    ged = tmp_path / "tree.ged"
    ged.write_text(HEAD + tree + "0 TRLR\n", encoding="utf-8")
    store = Store.create_case(tmp_path / "case")
    try:
        for path in (ged, *weddings):
            ingest_path(store, path)
        graph = case_graph(store)
    finally:
        store.close()
    out: dict[str, list[tuple[str, ...]]] = {}
    for p in graph.persons:
        claims = graph.assertions.get(p.id, [])
        facts = sorted({f"{a.field_name} {a.value}" for a in claims
                        if a.field_name in ("birth_date", "marriage_date")}
                       | {"wedding" for a in claims for c in a.citations
                          if c.excerpt.startswith("Married")})
        out.setdefault(p.canonical_name, []).append(tuple(facts))
    return out


def test_miss_at_seventy_four_is_a_namesake(tmp_path: Path) -> None:
    lives = _lives(tmp_path, _woman("I1", "Ruth /Giles/", "28 OCT 1876"),
                   _wedding(tmp_path, "January 16, 1951", "Donald Emmett", "Ruth Giles"))
    assert sorted(lives["Ruth Giles"]) == [("birth_date 1876-10-28",), ("wedding",)]


def test_miss_is_not_a_woman_married_before(tmp_path: Path) -> None:
    tree = _woman("I2", "Margaret /Pennington/", "22 JUL 1882", married="1905")
    lives = _lives(tmp_path, tree, _wedding(tmp_path, "January 2, 1931",
                                            "Richard Hugh Pennington", "Margaret Pennington"))
    assert sorted(lives["Margaret Pennington"]) == [
        ("birth_date 1882-07-22", "marriage_date 1905"), ("wedding",)]


def test_miss_links_to_the_namesake_of_an_age_to_wed(tmp_path: Path) -> None:
    """Of two women of her name, the wedding's years fit the younger only: it is hers."""
    tree = _woman("I1", "Ruth /Giles/", "28 OCT 1876") + _woman("I3", "Ruth /Giles/",
                                                                  "15 AUG 1926")
    lives = _lives(tmp_path, tree,
                   _wedding(tmp_path, "January 16, 1951", "Donald Emmett", "Ruth Giles"))
    assert sorted(lives["Ruth Giles"]) == [
        ("birth_date 1876-10-28",), ("birth_date 1926-08-15", "wedding")]


def test_miss_bears_her_fathers_surname(tmp_path: Path) -> None:
    """The tree's Ruth Giles is a Pennington's daughter (Giles is her married name): the
    "Miss Ruth Giles" of a wedding is another woman, born a Giles."""
    tree = (_woman("I1", "Ruth /Giles/", "28 OCT 1905") + "1 FAMC @F9@\n"
            "0 @I9@ INDI\n1 NAME Richard /Pennington/\n1 SEX M\n1 FAMS @F9@\n"
            "0 @F9@ FAM\n1 HUSB @I9@\n1 CHIL @I1@\n")
    lives = _lives(tmp_path, tree,
                   _wedding(tmp_path, "January 16, 1931", "Donald Emmett", "Ruth Giles"))
    assert sorted(lives["Ruth Giles"]) == [("birth_date 1905-10-28",), ("wedding",)]


def test_a_mother_past_fifty_is_a_namesake(tmp_path: Path) -> None:
    """"A daughter of James Rendell and Elizabeth Mercer", born 1929, is not the tree's
    Elizabeth Mercer born 1875 (her mother-in-law's generation): a woman of 54 bears no
    child, so the name alone links nothing."""
    obit = tmp_path / "obituary.txt"
    obit.write_text("Elizabeth Eliza Pavey died at her home on August 24, 2018. She was born "
                    "on April 9, 1929, a daughter of James Rendell and Elizabeth Mercer.\n",
                    encoding="utf-8")
    lives = _lives(tmp_path, _woman("I1", "Elizabeth /Mercer/", "27 JUN 1875"), obit)
    assert sorted(lives["Elizabeth Mercer"]) == [(), ("birth_date 1875-06-27",)]
