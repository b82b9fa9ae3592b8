"""Ingest asks the Analyst only about persons whose claims can conflict, and loses nothing:
analysing every person afterwards finds nothing the ingest did not already record."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select

from shared_data import shared_path
from sleuth.gps import adjudicate
from sleuth.pipeline import staging
from sleuth.pipeline.ingest import ingest_path
from sleuth.store import Store
from sleuth.store import schema as t

TREE = """0 HEAD
1 CHAR UTF-8
0 @I1@ INDI
1 NAME Ann /Doubled/
1 SEX F
1 BIRT
2 DATE 3 MAR 1850
1 BIRT
2 DATE 1852
0 @I2@ INDI
1 NAME Tom /Plain/
1 SEX M
1 BIRT
2 DATE 1 JAN 1840
1 DEAT
2 DATE 1900
0 @F1@ FAM
1 HUSB @I2@
1 WIFE @I1@
0 TRLR
"""


def _written(store: Store) -> tuple[int, int, list[Any]]:
    with store.engine.connect() as conn:
        audit = conn.execute(select(func.count()).select_from(t.audit_log)).scalar_one()
        conflicts = conn.execute(select(func.count()).select_from(t.conflicts)).scalar_one()
        statuses = sorted(conn.execute(select(t.assertions.c.id, t.assertions.c.status)).all())
    return audit, conflicts, statuses


def test_only_persons_whose_claims_can_conflict_are_analysed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[str] = []

    def spy(store: Store, conn: Any, ids: set[str]) -> Any:
        asked.extend(ids)
        return adjudicate.analyse_persons(store, conn, ids)

    monkeypatch.setattr(staging, "analyse_persons", spy)
    tree = tmp_path / "doubled.ged"
    tree.write_text(TREE)
    store = Store.create_case(tmp_path / "case")
    ingest_path(store, shared_path("gedcom", "samples", "kennedy.ged"))
    ingest_path(store, tree)
    with store.engine.connect() as conn:
        persons = dict(conn.execute(select(t.persons.c.id, t.persons.c.canonical_name)).all())
        conflicted = set(conn.execute(select(t.conflicts.c.person_id)).scalars())
    assert 0 < len(asked) < len(persons) / 3  # a tree's ordinary persons are not asked
    assert {persons[p] for p in conflicted} >= {"Ann Doubled"}
    assert "Tom Plain" not in {persons[p] for p in asked}
    before = _written(store)
    with store.transaction() as tx:  # every person, as a later pass would ask
        adjudicate.analyse_persons(store, tx, set(persons))
    assert _written(store) == before
    store.close()
