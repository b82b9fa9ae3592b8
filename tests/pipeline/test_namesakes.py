"""Exact-name linking across documents only joins records that can be one life: a
grandson named for his grandfather, or a woman born in 1947 and a namesake buried in 1816,
stay two persons; a later record that fits one of them joins that one."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import select

from sleuth.pipeline import ingest_path
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


def test_a_merged_person_is_one_bearer_of_the_name_and_a_title_is_not_a_name(
        tmp_path: Path) -> None:
    """Two records merged into one person are one bearer of their name: a third record of
    that name joins them (it used to find two persons named so and make a third); "Mr."
    before the name is the record's manner, not the name."""
    from case_builder import add_fact, add_person, snapshot
    from sleuth.model import GenDate
    from sleuth.resolve import merge

    store = Store.create_case(tmp_path / "case")
    try:
        ids = [add_person(store, "Josiah Whitcombe", "M") for _ in range(2)]
        for pid, text in zip(ids, ("born 1841", "died 1919"), strict=True):
            add_fact(store, pid, "birth_date" if "born" in text else "death_date",
                     text[-4:], snapshot(store, f"{pid} {text}"),
                     GenDate.from_parts(int(text[-4:])))
        merge(store, ids, "the same man")
        (tmp_path / "c.txt").write_text(
            "Mr. Josiah Whitcombe was buried on April 10, 1919 at Dorchester.", encoding="utf-8")
        ingest_path(store, tmp_path / "c.txt")
        people = _people(store)
        with store.engine.connect() as conn:
            names = set(conn.execute(select(t.persons.c.canonical_name)).scalars())
    finally:
        store.close()
    assert "c.txt" in people[ids[0]] and len(people) == 2  # no third person
    assert names == {"Josiah Whitcombe"}
