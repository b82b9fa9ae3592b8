"""Exact-name linking across documents only joins records that can be one life: a
grandson named for his grandfather, or a woman born in 1947 and a namesake buried in 1816,
stay two persons; a later record that fits one of them joins that one."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import select

from sleuth.agents import ingest_path
from sleuth.resolve.merge import merge_blockers
from sleuth.store import Store
from sleuth.store import schema as t

DOCS = {
    "grandson.txt": "Josiah Whitcombe was born on March 2, 1898 in Dorchester.\n\n"
                    "Josiah Whitcombe died on May 5, 1966 at Dorchester.",
    "grandfather.txt": "Josiah Whitcombe was born on June 3, 1841 in Dorchester.\n\n"
                       "Josiah Whitcombe died on April 7, 1919 at Dorchester.",
    "obituary.txt": "Josiah Whitcombe was buried on May 9, 1966 at Dorchester.",
}


def _people(store: Store) -> dict[str, list[str]]:
    """Person id -> the files whose facts were promoted to them."""
    a, c, s = t.assertions.c, t.citations.c, t.snapshots.c
    out: dict[str, set[str]] = {}
    with store.engine.connect() as conn:
        for pid, origin in conn.execute(
                select(a.entity_id, s.origin).join(t.citations, c.assertion_id == a.id)
                .join(t.snapshots, s.id == c.snapshot_id)):
            out.setdefault(str(pid), set()).add(Path(str(origin)).name)
    return {k: sorted(v) for k, v in out.items()}


def test_namesakes_stay_apart_and_a_fitting_record_joins_its_own(tmp_path: Path) -> None:
    store = Store.create_case(tmp_path / "case")
    try:
        for name, text in DOCS.items():
            (tmp_path / name).write_text(text, encoding="utf-8")
            ingest_path(store, tmp_path / name)
        people = sorted(_people(store).values())
        with store.engine.connect() as conn:
            ids = list(conn.execute(select(t.persons.c.id)).scalars())
            blockers = merge_blockers(conn, ids)
    finally:
        store.close()
    assert people == [["grandfather.txt"], ["grandson.txt", "obituary.txt"]]
    assert any("not one life" in b for b in blockers)  # nor will the resolver merge them
