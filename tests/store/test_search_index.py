"""The search index's store API (issue 25 item 7) on SQLite (FTS5) and PostgreSQL (full text),
with migration 0012 up and down and its tables as the schema module declares them."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest
from alembic import command
from sqlalchemy import inspect, select, text
from sqlalchemy.exc import IntegrityError

from sleuth.model import Snapshot
from sleuth.store import Store
from sleuth.store import schema as t
from sleuth.store import search_index as ix
from sleuth.store.db import MIGRATIONS, _config, make_engine, migrate, schema_is_current
from sleuth.store.search_index import NewChunk

TABLES = {"search_chunks", "search_vectors"}
# the revision 0012 follows (read from the migration, so a re-chained history still tests)
DOWN = next(line.split("=")[-1].strip().strip('"') for line in (
    MIGRATIONS / "versions" / "0012_search_index.py").read_text().splitlines()
    if line.startswith("down_revision"))


def _snapshot(store: Store, body: str, name: str = "doc.md") -> str:
    raw = body.encode()
    snap = Snapshot(sha256=hashlib.sha256(raw).hexdigest(), path=name, source_name="test",
                    text=body)
    with store.transaction() as tx:
        return store.put_snapshot(tx, raw, snap)[0].id


def _rows(sid: str, *texts: str) -> list[NewChunk]:
    return [NewChunk(sid, "doc.md", "section", f"Heading {n}", n, n, body, f"term{n}")
            for n, body in enumerate(texts, start=1)]


def _upgrade_to(engine: object, rev: str, down: bool = False) -> None:
    cfg = _config()
    with engine.begin() as conn:  # type: ignore[attr-defined]
        cfg.attributes["connection"] = conn
        (command.downgrade if down else command.upgrade)(cfg, rev)


def test_migration_0012_up_down_up(db_url: str) -> None:
    engine = make_engine(db_url)
    try:
        _upgrade_to(engine, DOWN)
        assert not TABLES & set(inspect(engine).get_table_names())
        migrate(engine)
        assert schema_is_current(engine)
        names = set(inspect(engine).get_table_names())
        assert names >= TABLES
        if engine.dialect.name == "sqlite":
            assert "search_fts" in names
        else:
            cols = {c["name"] for c in inspect(engine).get_columns("search_chunks")}
            assert "tsv" in cols
        _upgrade_to(engine, DOWN, down=True)
        assert not (TABLES | {"search_fts"}) & set(inspect(engine).get_table_names())
        migrate(engine)
        assert set(inspect(engine).get_table_names()) >= TABLES
    finally:
        engine.dispose()


def test_migration_0012_matches_the_schema_module(db_url: str) -> None:
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    engine = make_engine(db_url)
    try:
        migrate(engine)
        with engine.connect() as conn:
            diff = compare_metadata(MigrationContext.configure(conn), t.metadata)
        mine = [d for d in diff if "search_" in repr(d)]
        # the dialect's own lexical index is made by the migration alone, never declared
        expected = ({("remove_table", n) for n in ("search_fts", "search_fts_data",
                                                    "search_fts_idx", "search_fts_content",
                                                    "search_fts_docsize", "search_fts_config")}
                    if engine.dialect.name == "sqlite"
                    else {("remove_index", "ix_search_chunks_tsv"), ("remove_column", "tsv")})
        got = set()
        for d in mine:
            if d[0] == "remove_table" or d[0] == "remove_index":
                got.add((d[0], d[1].name))
            else:
                got.add((d[0], d[3].name))
        assert got == expected
    finally:
        engine.dispose()


def test_sync_inserts_keeps_and_replaces_with_the_lexical_index_in_step(store: Store) -> None:
    sid = _snapshot(store, "x")
    with store.transaction() as tx:
        assert ix.sync_chunks(store, tx, _rows(sid, "the watchdog is stroked",
                                               "commands are dispatched"),
                              "v1", snapshot_id=sid) == (2, 0)
    with store.engine.connect() as conn:
        assert ix.chunked_snapshots(conn) == {sid: "v1"}
        assert [c.text for c, _ in ix.lexical(conn, ["watchdog"], 5)] == [
            "the watchdog is stroked"]
        assert [c.text for c, _ in ix.lexical(conn, ["dispatch"], 5)] == [
            "commands are dispatched"]  # stemmed: dispatch ~ dispatched
    with store.transaction() as tx:  # same rows: nothing written
        assert ix.sync_chunks(store, tx, _rows(sid, "the watchdog is stroked",
                                               "commands are dispatched"),
                              "v1", snapshot_id=sid) == (0, 0)
    with store.transaction() as tx:  # the second row's text changed
        assert ix.sync_chunks(store, tx, _rows(sid, "the watchdog is stroked",
                                               "telemetry is packetized"),
                              "v1", snapshot_id=sid) == (1, 1)
    with store.engine.connect() as conn:
        assert ix.lexical(conn, ["dispatch"], 5) == []  # the deleted row left the index
        assert [c.text for c, _ in ix.lexical(conn, ["telemetry"], 5)] == [
            "telemetry is packetized"]
        audits = conn.execute(select(t.audit_log.c.action_type).where(
            t.audit_log.c.entity_type == "search_index")).scalars().all()
    assert audits == ["search_index_synced", "search_index_synced"]


def test_lexical_ranks_by_column_weight_and_reads_no_query_syntax(store: Store) -> None:
    sid = _snapshot(store, "y")
    rows = [NewChunk(sid, "doc.md", "section", "Ports", 1, 1, "other words here", ""),
            NewChunk(sid, "doc.md", "section", "Other", 2, 2, "the ports are listed", "")]
    with store.transaction() as tx:
        ix.sync_chunks(store, tx, rows, "v1", snapshot_id=sid)
    with store.engine.connect() as conn:
        got = ix.lexical(conn, ["ports"], 5)
        assert [c.start_line for c, _ in got] == [1, 2]  # the context outweighs the text
        assert got[0][1] >= got[1][1]
        # words that are operators in FTS5 or tsquery syntax are only words
        for q in (['"', "OR", "NEAR(", "-ports", "ports*", "a:b", "!|&"], ["AND", "NOT"]):
            ix.lexical(conn, q, 5)
        assert ix.lexical(conn, ["-ports"], 5)[0][0].start_line == 1
        assert ix.lexical(conn, [], 5) == [] and ix.lexical(conn, ["!!"], 5) == []


def test_vectors_round_trip_and_leave_with_their_chunk(store: Store) -> None:
    sid = _snapshot(store, "z")
    with store.transaction() as tx:
        ix.sync_chunks(store, tx, _rows(sid, "alpha", "beta"), "v1", snapshot_id=sid)
    with store.engine.connect() as conn:
        todo = ix.unembedded(conn, "m")
    assert [c.text for c in todo] == ["alpha", "beta"]
    m = np.array([[1, 0, 0], [0, 0.6, 0.8]], dtype=np.float32)
    with store.transaction() as tx:
        ix.put_vectors(tx, "m", [c.id for c in todo], m)
    with store.engine.connect() as conn:
        ids, got = ix.vectors(conn, "m")
        assert ids == [c.id for c in todo] and np.array_equal(got, m)
        assert ix.unembedded(conn, "m") == [] and ix.vector_models(conn) == ["m"]
        assert ix.counts(conn) == {"section": 2, "vectors:m": 2}
    with store.transaction() as tx:
        ix.sync_chunks(store, tx, _rows(sid, "alpha"), "v1", snapshot_id=sid)
    with store.engine.connect() as conn:
        assert ix.vectors(conn, "m")[0] == [todo[0].id]


def test_entity_rows_sync_apart_and_need_their_key(store: Store) -> None:
    sid = _snapshot(store, "w")
    ent = NewChunk(sid, "C.fpp", "entity", "component C", 3, 5, "active component C {",
                   "", entity_key="fprime:Svc:C")
    with store.transaction() as tx:
        ix.sync_chunks(store, tx, _rows(sid, "alpha"), "v1", snapshot_id=sid)
        assert ix.sync_chunks(store, tx, [ent], "e1", entities=True) == (1, 0)
    with store.engine.connect() as conn:
        assert ix.chunked_snapshots(conn) == {sid: "v1"}  # entities are not a snapshot's
        assert [c.entity_key for c in ix.chunks(conn)] == [None, "fprime:Svc:C"]
    with pytest.raises(ValueError), store.transaction() as tx:
        ix.sync_chunks(store, tx, [ent], "v1", snapshot_id=sid)
    # the table itself refuses an entity without a key
    with pytest.raises(IntegrityError), store.transaction() as tx:
        tx.execute(t.search_chunks.insert().values(
            id="x" * 32, seq=99, snapshot_id=sid, doc="d", kind="entity", context="",
            start_line=1, end_line=1, text="t", terms="", chunker="v",
            created_at=text("CURRENT_TIMESTAMP")))
