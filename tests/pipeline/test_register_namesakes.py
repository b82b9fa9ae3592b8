"""Register entries linked by a name alone: not across parishes the case never places the
person in (unless a parent or spouse agrees), and never a child to its namesake parent.

The CSVs are FreeREG1 files laid out as the simulated world writes them (and as
`extract.records.freereg` reads them); the cases are ones the 10,000-person world produced.
"""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import select

from sleuth.pipeline import ingest_path
from sleuth.store import Store
from sleuth.store import schema as t

HEAD = ("+INFO,test@example.invalid,password,SEQUENCED,{kind},utf8\n"
        "#,CCCC,tester,{county},x.csv,01-Jan-25\n")
LAVENHAM = "SFK,Lavenham,St Peter and St Paul PR"
BIBURY = "GLS,Bibury,St Mary PR"
CALDECOTE = "HRT,Caldecote,St Mary Magdalene PR"


def _register(tmp: Path, name: str, kind: str, county: str, rows: list[str]) -> Path:
    path = tmp / name
    path.write_text(HEAD.format(kind=kind, county=county) + "\n".join(rows) + "\n",
                    encoding="utf-8")
    return path


def _marriage(place: str, n: int, day: str, groom: str, bride: str, father: str = "") -> str:
    g, gs = groom.split()
    b, bs = bride.split()
    f, fs = father.split() if father else ("", "")
    return (f"{place},{n},{day},{g},{gs},,,bachelor,miller,,{b},{bs},,,spinster,,,"
            f"{f},{fs},,,,,,,,,,")


def _bearers(store: Store, name: str) -> dict[str, set[str]]:
    """Person id -> the fields promoted to them, for every person of that exact name."""
    a, p = t.assertions.c, t.persons.c
    with store.engine.connect() as conn:
        rows = conn.execute(select(p.id, a.field_name).join(
            t.assertions, a.entity_id == p.id).where(p.canonical_name == name)).all()
    out: dict[str, set[str]] = {}
    for pid, field in rows:
        out.setdefault(str(pid), set()).add(str(field))
    return out


def _people(tmp_path: Path, name: str, *paths: Path) -> list[set[str]]:
    """The fields of each person of that name once these registers are read in turn."""
    store = _case(tmp_path, *paths)
    try:
        return list(_bearers(store, name).values())
    finally:
        store.close()


def _case(tmp_path: Path, *paths: Path) -> Store:
    store = Store.create_case(tmp_path / "case")
    for path in paths:
        ingest_path(store, path)
    return store


def test_a_burial_and_a_wedding_in_parishes_apart_are_two_namesakes(tmp_path: Path) -> None:
    burial = _register(tmp_path, "SFKLAVBU.csv", "BURIALS", "Suffolk", [
        f"{LAVENHAM},45,15 Jun 1964,Nathaniel,,,,,GREENWOOD,51,,"])
    wedding = _register(tmp_path, "GLSBIBMA.csv", "MARRIAGES", "Gloucestershire", [
        _marriage(BIBURY, 30, "18 Jun 1948", "Nathaniel GREENWOOD", "Hannah PRITCHARD")])
    people = _people(tmp_path, "Nathaniel GREENWOOD", burial, wedding)
    assert len(people) == 2
    assert {"burial_date", "marriage_date"} not in [p & {"burial_date", "marriage_date"}
                                                   for p in people]


def test_the_same_parish_links_by_name(tmp_path: Path) -> None:
    burial = _register(tmp_path, "SFKLAVBU.csv", "BURIALS", "Suffolk", [
        f"{LAVENHAM},45,15 Jun 1964,Nathaniel,,,,,GREENWOOD,51,,"])
    wedding = _register(tmp_path, "SFKLAVMA.csv", "MARRIAGES", "Suffolk", [
        _marriage(LAVENHAM, 30, "18 Jun 1948", "Nathaniel GREENWOOD", "Hannah PRITCHARD")])
    [person] = _people(tmp_path, "Nathaniel GREENWOOD", burial, wedding)
    assert {"burial_date", "marriage_date"} <= person


def test_a_groom_wed_in_his_brides_parish_is_found_by_his_father(tmp_path: Path) -> None:
    baptism = _register(tmp_path, "SFKLAVBA.csv", "BAPTISMS", "Suffolk", [
        f"{LAVENHAM},12,,26 Dec 1912,Nathaniel,M,Robert,Mary,GREENWOOD,,,miller,"])
    wedding = _register(tmp_path, "GLSBIBMA.csv", "MARRIAGES", "Gloucestershire", [
        _marriage(BIBURY, 30, "18 Jun 1938", "Nathaniel GREENWOOD", "Hannah PRITCHARD",
                  "Robert GREENWOOD")])
    [person] = _people(tmp_path, "Nathaniel GREENWOOD", baptism, wedding)
    assert {"baptism_date", "marriage_date"} <= person


def test_a_childs_burial_is_not_its_namesake_fathers_wedding(tmp_path: Path) -> None:
    wedding = _register(tmp_path, "HRTCALMA.csv", "MARRIAGES", "Hertfordshire", [
        _marriage(CALDECOTE, 41, "10 May 1945", "Albert AUSTIN", "Susannah MAXEY")])
    burial = _register(tmp_path, "HRTCALBU.csv", "BURIALS", "Hertfordshire", [
        f"{CALDECOTE},52,18 Apr 1949,Albert,son of,Albert,Susannah,AUSTIN,AUSTIN,,,"])
    people = _people(tmp_path, "Albert AUSTIN", wedding, burial)
    [groom] = [p for p in people if "marriage_date" in p]
    assert "burial_date" not in groom
    assert any("burial_date" in p for p in people)


GEDCOM = """0 HEAD
1 GEDC
2 VERS 5.5.1
1 CHAR UTF-8
0 @I1@ INDI
1 NAME Robert /Greenwood/
1 BIRT
2 DATE 26 NOV 1912
2 PLAC Lavenham, Suffolk, England
0 TRLR
"""


def test_localities_are_towns_and_parishes_not_counties_or_churches(tmp_path: Path) -> None:
    from sleuth.pipeline.namesakes import localities

    burial = _register(tmp_path, "GLSBIBBU.csv", "BURIALS", "Gloucestershire", [
        f"{BIBURY},45,15 Jun 1964,Nathaniel,,,,,GREENWOOD,51,,"])
    tree = tmp_path / "tree.ged"
    tree.write_text(GEDCOM, encoding="utf-8")
    store = _case(tmp_path, burial, tree)
    try:
        with store.engine.connect() as conn:
            ids = {n: [str(i)] for i, n in conn.execute(
                select(t.persons.c.id, t.persons.c.canonical_name))}
            buried = localities(conn, ids["Nathaniel GREENWOOD"])
            born = localities(conn, ids["Robert Greenwood"])
    finally:
        store.close()
    assert buried == {"bibury"}  # not "st mary"
    assert born == {"lavenham"}  # not Suffolk, not England
