"""`Store.bulk`: rows are queued and written by executemany, and nothing can tell.

Every read - the store's own, which answer from the queue, and any other statement, which
writes the queue first - must see what it would have seen row by row; a savepoint must take
back exactly its own rows; and ingesting real GEDCOM files must leave the same case.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Connection, event, select, text
from sqlalchemy.engine import Engine

from shared_data import shared_path
from sleuth.model import InvariantViolation, Person, Relationship
from sleuth.pipeline.ingest import ingest_path
from sleuth.store import Store
from sleuth.store import schema as t


def add_person(store: Store, name: str) -> str:
    p = Person(canonical_name=name)
    with store.transaction() as tx:
        store.add_person(tx, p)
    return p.id

# Columns written from the clock: the same ingest twice differs only there.
_CLOCK = {"created_at", "asserted_at", "decided_at", "timestamp", "updated_at", "resolved_at",
          "accessed_at"}


def _contents(store: Store) -> dict[str, list[str]]:
    """Every table's rows (clock columns left out), sorted, as JSON text."""
    out: dict[str, list[str]] = {}
    with store.engine.connect() as conn:
        for name, table in t.metadata.tables.items():
            if name == "case_meta":  # each case's own id (`store.identity`)
                continue
            cols = [c for c in table.c if c.name not in _CLOCK]
            rows = []
            for row in conn.execute(select(*cols)):
                d = dict(zip([c.name for c in cols], row, strict=True))
                for k in ("before_state", "after_state"):
                    if isinstance(d.get(k), dict):
                        d[k] = {kk: v for kk, v in d[k].items() if kk not in _CLOCK}
                rows.append(json.dumps(d, sort_keys=True, default=str))
            out[name] = sorted(rows)
    return out


@contextlib.contextmanager
def _statements(engine: Engine) -> Iterator[list[bool]]:
    """Each statement sent to the database while inside (True: an executemany)."""
    seen: list[bool] = []

    def count(conn: Any, cursor: Any, statement: str, params: Any, context: Any,
              executemany: bool) -> None:
        seen.append(executemany)

    event.listen(engine, "before_cursor_execute", count)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", count)


def _ingest(case: Path, files: list[Path], *, bulk: bool) -> tuple[Store, int]:
    store = Store.create_case(case)
    if not bulk:  # row by row: every write and read goes straight to the database
        store.bulk = lambda conn, **_: contextlib.nullcontext()  # type: ignore[method-assign]
    with _statements(store.engine) as seen:
        for f in files:
            ingest_path(store, f)
    return store, len(seen)


def test_bulk_ingest_leaves_the_same_case_with_far_fewer_statements(tmp_path: Path) -> None:
    # Two real trees into one case: the second links to the first's persons by name, so
    # the namesake and same-record-line questions read rows the batch has queued.
    files = [shared_path("gedcom", "samples", "kennedy.ged"),
             shared_path("gedcom", "samples", "bronte.ged"),
             shared_path("gedcom", "samples", "shakespeare.ged")]
    bulk, n_bulk = _ingest(tmp_path / "bulk", files, bulk=True)
    rows, n_rows = _ingest(tmp_path / "rows", files, bulk=False)
    try:
        a, b = _contents(bulk), _contents(rows)
        assert a == b
        assert len(a["persons"]) > 250 and len(a["audit_log"]) > 4000
        candidates = len(a["candidates"])
        assert n_rows > 5 * candidates  # ~7 statements a candidate, row by row
        assert n_bulk < candidates / 3
    finally:
        bulk.close()
        rows.close()


def _link(store: Store, conn: Connection, parent: str, child: str) -> None:
    store.add_relationship(
        conn, Relationship(person1_id=parent, person2_id=child, relationship_type="parent"))


def test_other_statements_see_the_queued_rows(store: Store) -> None:
    with store.transaction() as tx, store.bulk(tx):
        p = Person(canonical_name="Ann Giles")
        store.add_person(tx, p)
        assert store.persons_named(tx, "ann  GILES") == [p.id]  # answered from the queue
        got = tx.execute(select(t.persons.c.id).where(t.persons.c.id == p.id)).scalar()
        assert got == p.id  # a statement the store does not know writes the queue first
        q = Person(canonical_name="Ann Giles")
        store.add_person(tx, q)
        store.set_person(tx, p.id, "test", sex="F")  # a written row: a queued UPDATE
        store.set_person(tx, q.id, "test", sex="M")  # a queued row: changed in the queue
        assert store.person_fields(tx, p.id) == ("Ann Giles", "F")
        assert store.persons_named(tx, "Ann Giles") == [p.id, q.id]
    with store.engine.connect() as c:
        sexes = dict(c.execute(select(t.persons.c.id, t.persons.c.sex)).all())
        updates = c.execute(select(t.audit_log.c.before_state, t.audit_log.c.after_state).where(
            t.audit_log.c.action_type == "person_updated").order_by(t.audit_log.c.id)).all()
    assert sexes == {p.id: "F", q.id: "M"}
    assert [(u.before_state, u.after_state) for u in updates] == [
        ({"sex": "U"}, {"sex": "F"}), ({"sex": "U"}, {"sex": "M"})]


def test_persons_of_a_name_read_once_still_follow_every_change(store: Store) -> None:
    """A batch reads the persons of a name the database held before it once; a rename by
    the store, a statement of other code and a rolled-back savepoint are still seen."""
    old = add_person(store, "Ann Giles")
    other = add_person(store, "Mary Cole")
    with store.transaction() as tx, store.bulk(tx):
        assert store.persons_named(tx, "Ann Giles") == [old]
        mine = Person(canonical_name="Ann Giles")
        store.add_person(tx, mine)
        store.flush(tx)  # written: the database now holds it too, once
        assert store.persons_named(tx, "Ann Giles") == [old, mine.id]
        store.set_person(tx, old, "test", canonical_name="Ann Cole")  # the store's rename
        assert store.persons_named(tx, "Ann Giles") == [mine.id]
        assert store.persons_named(tx, "Ann Cole") == [old]
        store.set_person(tx, mine.id, "test", canonical_name="Ann Cole")  # the batch's own
        assert store.persons_named(tx, "Ann Cole") == [old, mine.id]
        tx.execute(t.persons.update().where(t.persons.c.id == other).values(
            canonical_name="Ann Cole", name_key="ann cole"))  # other code's statement
        assert store.persons_named(tx, "Ann Cole") == [old, other, mine.id]
        with pytest.raises(RuntimeError), store.savepoint(tx):
            tx.execute(t.persons.update().where(t.persons.c.id == other).values(
                name_key="someone else"))
            assert store.persons_named(tx, "Ann Cole") == [old, mine.id]
            raise RuntimeError("taken back")
        assert store.persons_named(tx, "Ann Cole") == [old, other, mine.id]


def test_a_refused_link_takes_back_only_its_own_rows(store: Store) -> None:
    child, p1, p2, p3 = (add_person(store, n) for n in ("C", "P1", "P2", "P3"))
    with store.transaction() as tx, store.bulk(tx):
        kid = Person(canonical_name="Kid")
        store.add_person(tx, kid)  # queued before the savepoint: stays
        _link(store, tx, p1, child)
        _link(store, tx, p2, child)
        with pytest.raises(InvariantViolation, match="third"), store.savepoint(tx):
            store.add_person(tx, Person(canonical_name="Gone"))
            _link(store, tx, p3, child)
        with pytest.raises(InvariantViolation, match="each be the other"), store.savepoint(tx):
            _link(store, tx, child, p1)
        # a statement inside a savepoint opens the real one, and its rollback still works
        with pytest.raises(RuntimeError), store.savepoint(tx):
            store.add_person(tx, Person(canonical_name="Also gone"))
            tx.execute(text("SELECT 1"))
            raise RuntimeError("refused")
        assert not store.add_relationship(  # already there: nothing new
            tx, Relationship(person1_id=p1, person2_id=child, relationship_type="parent"))
    with store.engine.connect() as c:
        names = set(c.execute(select(t.persons.c.canonical_name)).scalars())
        parents = c.execute(select(t.relationships.c.person1_id).where(
            t.relationships.c.person2_id == child)).scalars().all()
    assert names == {"C", "P1", "P2", "P3", "Kid"}
    assert sorted(parents) == sorted([p1, p2])


def _refused_savepoints(store: Store, bulk: bool) -> list[tuple[Any, ...]]:
    """Audit entries and decisions queued inside savepoints that are taken back (one that
    never reached the database, one that did) and around them; the audit log after."""
    with store.transaction() as tx, store.bulk(tx) if bulk else contextlib.nullcontext():
        store.audit(tx, "before", "e", "0", None, {"a": "b"}, "t")
        with pytest.raises(RuntimeError), store.savepoint(tx):
            store.audit(tx, "queued_inside", "e", "1", None, {"a": "b"}, "t")
            raise RuntimeError("refused")
        with pytest.raises(RuntimeError), store.savepoint(tx):
            store.audit(tx, "written_inside", "e", "2", None, {"a": "b"}, "t")
            tx.execute(text("SELECT 1"))  # opens the real savepoint
            store.audit(tx, "queued_after_it", "e", "3", None, {"a": "b"}, "t")
            raise RuntimeError("refused")
        store.audit(tx, "after", "e", "4", {"n": 1}, {"a": "b"}, "t")
    with store.engine.connect() as c:
        return [tuple(r) for r in c.execute(select(
            t.audit_log.c.id, t.audit_log.c.action_type, t.audit_log.c.entity_id,
            t.audit_log.c.before_state, t.audit_log.c.after_state).order_by(t.audit_log.c.id))]


def test_a_refused_savepoint_takes_back_its_audit_entries(tmp_path: Path) -> None:
    """Rows queued as values (`batch.VALUE_COLUMNS`) go with their savepoint too."""
    plain = _refused_savepoints(Store.create_case(tmp_path / "plain"), bulk=False)
    assert [r[1] for r in plain][-2:] == ["before", "after"]
    assert _refused_savepoints(Store.create_case(tmp_path / "bulk"), bulk=True) == plain


def test_a_failed_bulk_batch_leaves_nothing_behind(store: Store) -> None:
    with pytest.raises(RuntimeError), store.transaction() as tx, store.bulk(tx):
        store.add_person(tx, Person(canonical_name="Never"))
        tx.execute(text("SELECT 1"))  # written to the database, inside the transaction
        store.add_person(tx, Person(canonical_name="Neither"))
        raise RuntimeError("crash")
    with store.engine.connect() as c:
        assert c.execute(select(t.persons.c.id)).first() is None


def test_rows_of_one_table_written_together_whatever_columns_each_was_given(
        store: Store) -> None:
    """A column one queued row lacks is NULL in it, as its own INSERT would leave it: rows
    of the same size with different columns, and rows of different sizes."""
    from sleuth.model import utcnow
    from sleuth.store.batch import insert_rows

    base = {"action_type": "x", "entity_type": "e", "entity_id": "1", "agent_name": "a",
            "reason": "", "timestamp": utcnow()}
    rows = [{**base, "before_state": {"n": 1}}, {**base, "after_state": {"n": 2}},
            {**base, "entity_id": "2"}]
    with store.transaction() as tx:
        insert_rows(tx, t.audit_log, rows)
        a = t.audit_log.c
        got = tx.execute(select(a.entity_id, a.before_state, a.after_state).where(
            a.action_type == "x").order_by(a.id)).all()
    assert [tuple(r) for r in got] == [("1", {"n": 1}, None), ("1", None, {"n": 2}),
                                       ("2", None, None)]


def _indexes(store: Store) -> list[tuple[str, str]]:
    with store.engine.connect() as c:
        return [tuple(r) for r in c.execute(text(  # type: ignore[misc]
            "SELECT name, sql FROM sqlite_master WHERE type = 'index' ORDER BY name"))]


def test_a_loaded_file_leaves_every_index_as_the_schema_defines_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`bulk(load=True)` builds the audit and decision indexes at the end of a batch whose
    queue filled (a smaller queue here): after an ingest, after a batch that failed, and
    after a file added to a case already too large to rebuild them for, the case has
    exactly the indexes of a new one, and only the first ingest dropped them."""
    import sleuth.store.batch as batch_module

    monkeypatch.setattr(batch_module, "FLUSH_EVERY", 500)
    monkeypatch.setattr(batch_module, "DEFER_BELOW_ROWS", 3_000)
    fresh = _indexes(Store.create_case(tmp_path / "fresh"))
    assert ("ix_audit_log_entity_id" in {n for n, _ in fresh}
            and "ix_decisions_candidate_id" in {n for n, _ in fresh})
    store = Store.create_case(tmp_path / "case")
    dropped: list[str] = []

    def spy(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        if statement.lstrip().startswith("DROP INDEX"):
            dropped.append(statement)

    event.listen(store.engine, "before_cursor_execute", spy)
    ingest_path(store, shared_path("gedcom", "samples", "kennedy.ged"))
    assert len(dropped) == 2 and _indexes(store) == fresh
    with pytest.raises(RuntimeError), store.transaction() as tx, store.bulk(tx, load=True):
        for i in range(600):  # the queue fills: the indexes go, then the batch fails
            store.audit(tx, "x", "e", str(i), None, None, "a")
        assert len(dropped) == 2  # audit_log holds more rows than DEFER_BELOW_ROWS now
        raise RuntimeError("crash")
    assert _indexes(store) == fresh
    ingest_path(store, shared_path("gedcom", "samples", "bronte.ged"))
    assert len(dropped) == 2 and _indexes(store) == fresh
    with store.engine.connect() as c:  # the planner uses it again
        plan = " ".join(str(r) for r in c.execute(text(
            "EXPLAIN QUERY PLAN SELECT id FROM audit_log WHERE entity_id = 'x'")))
    assert "ix_audit_log_entity_id" in plan


def test_a_failed_load_restores_the_indexes_it_dropped(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import sleuth.store.batch as batch_module

    monkeypatch.setattr(batch_module, "FLUSH_EVERY", 500)
    store = Store.create_case(tmp_path / "case")
    fresh = _indexes(store)
    with pytest.raises(RuntimeError), store.transaction() as tx:
        store.add_person(tx, Person(canonical_name="Never"))  # the transaction has begun
        with store.bulk(tx, load=True):
            for i in range(600):
                store.audit(tx, "x", "e", str(i), None, None, "a")
            with store.engine.connect() as other:  # what the batch dropped, inside its
                assert _names(tx) != {n for n, _ in fresh}  # transaction only
                assert _names(other) == {n for n, _ in fresh}
            raise RuntimeError("crash")
    assert _indexes(store) == fresh
    with store.engine.connect() as c:
        assert c.execute(select(t.audit_log.c.id).where(
            t.audit_log.c.action_type == "x")).first() is None
        assert c.execute(select(t.persons.c.id)).first() is None


def test_no_index_is_dropped_outside_a_begun_transaction(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """pysqlite begins a transaction at the first write: a DROP INDEX before it would be
    committed at once, so a batch that has written nothing yet keeps its indexes."""
    import sleuth.store.batch as batch_module

    monkeypatch.setattr(batch_module, "FLUSH_EVERY", 500)
    store = Store.create_case(tmp_path / "case")
    fresh = _indexes(store)
    with store.transaction() as tx, store.bulk(tx, load=True):
        for i in range(600):
            store.audit(tx, "x", "e", str(i), None, None, "a")
        assert _names(tx) == {n for n, _ in fresh}
    assert _indexes(store) == fresh


def _names(conn: Connection) -> set[str]:
    return set(conn.execute(text(
        "SELECT name FROM sqlite_master WHERE type = 'index'")).scalars())


def test_timestamps_are_written_as_sqlalchemy_writes_them() -> None:
    """The batch's clock columns (`batch._fast_processor`) are SQLAlchemy's own SQLite text:
    aware or naive, microseconds 0 or not, offsets dropped, within a second and across."""
    from datetime import UTC, datetime, timedelta, timezone

    from sqlalchemy import create_engine

    from sleuth.store.batch import _fast_processor

    dialect = create_engine("sqlite://").dialect
    column = t.audit_log.c.timestamp.type
    slow = column.dialect_impl(dialect).bind_processor(dialect)
    fast = _fast_processor(column, dialect)
    now = datetime.now(UTC)
    values = [now, now.replace(microsecond=0), now + timedelta(microseconds=7),
              datetime(2020, 1, 1, tzinfo=UTC), datetime(1, 2, 3, 4, 5, 6, 7),
              datetime(2020, 5, 5, 23, 59, 59, 999999, tzinfo=timezone(timedelta(hours=5))),
              datetime(2020, 5, 5, 23, 59, 59, 1), datetime.now()]
    assert slow is not None and fast is not None
    assert fast(values) == [slow(v) for v in values]


def test_the_lookups_of_a_staged_row_find_their_indexes(store: Store) -> None:
    """Migration 0007's indexes still answer promotion's questions: a name candidate by
    value (the partial index, with the store's own SQL and parameters), and a person's
    links as person1 (the unique pair index)."""
    from sleuth.store.base import _driver_select
    from sleuth.store.core import _NAME_LINES

    if store.engine.dialect.name != "sqlite":
        pytest.skip("SQLite's query plans")
    with store.engine.connect() as conn:
        sql, names, fixed, _ = _driver_select(conn, _NAME_LINES) or ("", [], {}, None)
        params = [{"v": "John Smith"}.get(n, fixed.get(n)) for n in names]
        plan = " ".join(str(r) for r in conn.exec_driver_sql(
            f"EXPLAIN QUERY PLAN {sql}", tuple(params)))
        assert "ix_candidates_value" in plan
        plan = " ".join(str(r) for r in conn.execute(text(
            "EXPLAIN QUERY PLAN SELECT person2_id FROM relationships WHERE person1_id = 'x'"
            " AND relationship_type = 'spouse'")))
        assert "INDEX sqlite_autoindex_relationships" in plan and "person1_id=?" in plan
