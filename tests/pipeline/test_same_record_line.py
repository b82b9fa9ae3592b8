"""One register line, one person: a row read in a search response and again in the whole
register does not make a second person, even for a mother named by her forename alone."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import select

from sleuth.pipeline import ingest_path
from sleuth.store import Store, review_items
from sleuth.store import schema as t

HEAD = ("+INFO,tests@example.invalid,password,SEQUENCED,BAPTISMS,utf8\n"
        "#,CCCC,World transcriber,Cornwall,conzenba.csv,01-Jan-25\n")
ROWS = ["CON,Zennor,St Senara PR,7,,14 Dec 1786,Jacob,M,George,Margaret,GARSIDE,,,shoemaker,",
        "CON,Zennor,St Senara PR,9,,21 Sep 1826,Albert,M,Jacob,Eliza,GARSIDE,,,wheelwright,"]


def _names(store: Store) -> list[str]:
    with store.engine.connect() as conn:
        return sorted(conn.execute(select(t.persons.c.canonical_name)).scalars())


def _files(tmp_path: Path) -> tuple[Path, Path]:
    """A search answer holding row 9, and the whole register holding rows 7 and 9."""
    hit = tmp_path / "search.csv"
    hit.write_text(HEAD + ROWS[1] + "\n", encoding="utf-8")
    register = tmp_path / "CONZENBA.csv"
    register.write_text(HEAD + "\n".join(ROWS) + "\n", encoding="utf-8")
    return hit, register


def test_a_row_read_twice_is_one_set_of_people(tmp_path: Path) -> None:
    hit, register = _files(tmp_path)
    store = Store.create_case(tmp_path / "case")
    try:
        ingest_path(store, hit)
        once = _names(store)
        assert once.count("Eliza") == 1
        ingest_path(store, register)
        names = _names(store)
        refused = review_items(store)
    finally:
        store.close()
    # the register adds row 7's people only; row 9's three are the ones already placed.
    # Row 7's Jacob, baptised 1786, is by name and fitting years row 9's father Jacob, and
    # row 9 then names that same father, not a third parent for Albert.
    assert names.count("Eliza") == 1 and names.count("Jacob GARSIDE") == 1
    assert len(names) == len(once) + 2  # George and Margaret
    assert refused == []


def test_a_row_read_twice_is_one_statement_with_two_citations(tmp_path: Path) -> None:
    hit, register = _files(tmp_path)
    store = Store.create_case(tmp_path / "case")
    try:
        ingest_path(store, hit)
        ingest_path(store, register)
        a, c = t.assertions.c, t.citations.c
        with store.engine.connect() as conn:
            rows = conn.execute(select(a.id, a.field_name, a.value).where(
                a.value.in_(("1826-09-21", "Eliza")), a.field_name != "parent")).all()
            cited = {r.id: conn.execute(select(c.snapshot_id).where(
                c.assertion_id == r.id)).scalars().all() for r in rows}
            audits = conn.execute(select(t.audit_log.c.action_type)).scalars().all()
    finally:
        store.close()
    assert sorted((r.field_name, r.value) for r in rows) == [
        ("baptism_date", "1826-09-21"), ("name", "Eliza")]  # one each, not two
    assert all(len(set(s)) == 2 for s in cited.values())  # cited in both copies
    assert "citation_added" in audits
