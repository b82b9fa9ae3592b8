"""The primitives every write of a case goes through (`StoreBase`): its transactions, the
batch that queues a large write's rows (`Store.bulk`, `sleuth.store.batch`), single-row
inserts and updates that see that batch, and the audit entry each change writes.

Callers open one transaction per batch (`with store.transaction() as tx:`), so a crash leaves
either the whole batch or none of it. Every change to a mutable row writes an audit entry in
the same transaction. The layers' writes are `intake.IntakeWrites` (raw and staging) and
`core.CoreWrites` (persons, assertions, links); `store.Store` is both.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from functools import cache
from typing import Any

from sqlalchemy import Connection, Engine, Table, bindparam, insert, select, update
from sqlalchemy.exc import IntegrityError

from sleuth.model import ImmutableError, InvariantViolation, NotFound, utcnow
from sleuth.store import schema as t
from sleuth.store.batch import BATCH_OK, QUEUED, VALUE_COLUMNS, Batch
from sleuth.store.dialect import is_guard_error
from sleuth.store.id_marks import save_mark


def date_json(d: Any) -> Any:
    """A date as its JSON column holds it. The last one is remembered: staging stores a
    candidate's date, then promotion the same (frozen) date again with its assertion."""
    if d is None:
        return None
    if d is _LAST_DATE[0]:
        return _LAST_DATE[1]
    dumped = d.model_dump(mode="json")
    _LAST_DATE[:] = (d, dumped)
    return dumped


_LAST_DATE: list[Any] = [None, None]  # (date, its JSON form): `date_json`'s one entry


@cache
def insert_stmt(table: Table) -> Any:
    """One INSERT construct per table, so SQLAlchemy's compiled cache is hit, not rebuilt."""
    return insert(table)


@cache
def _row_stmts(table: Table, keys: tuple[str, ...]) -> tuple[Any, Any]:
    """(SELECT keys by id, UPDATE keys by id) for one table and one set of columns."""
    cols = [table.c[k] for k in keys]
    where = table.c.id == bindparam("row_id")
    return (
        select(*cols).where(where),
        update(table).where(where).values({k: bindparam(f"new_{k}") for k in keys}),
    )


# SQLite's page cache while a batch writes (KiB): its executemany inserts land all over
# the id indexes, and the default 2 MB cache makes a large tree's ingest re-read them from
# the file. Memory only; what is committed and how durably is unchanged. A page missed here
# is read back from the operating system's cache, so more pays little for its memory: a
# 30,000-person tree's inserts took 45 s with 1 GB, 50 s with 64 MB, whose ingest peaks
# 276 MB lower (938 -> 662 MB); a 10,000-person tree's, 13.8 s and 14.0 s. At 100,000
# persons 128 MB against 64 MB saves 7% of the ingest's CPU (302 -> 282 s; system time
# 42 -> 31 s) for 73 MB more at the peak (1,546 -> 1,619 MB; 256 MB: 258 s, 1,857 MB).
BULK_CACHE_KIB = 128 * 1024


def _grow_cache(conn: Connection) -> int | None:
    """Raise the connection's SQLite page cache to `BULK_CACHE_KIB` for a batch; returns
    the setting to restore (None: nothing changed)."""
    if conn.dialect.name != "sqlite":
        return None
    now = int(conn.exec_driver_sql("PRAGMA cache_size").scalar() or 0)
    page = int(conn.exec_driver_sql("PRAGMA page_size").scalar() or 4096)
    held = -now if now < 0 else now * page // 1024  # negative: KiB, positive: pages
    if held >= BULK_CACHE_KIB:
        return None
    conn.exec_driver_sql(f"PRAGMA cache_size=-{BULK_CACHE_KIB}")
    return now


# (SQL, bound parameter names in order, values of the literal ones, result processors
# per column or None when no column has one)
_DriverSelect = tuple[str, list[str], dict[str, Any], list[Any] | None]
_DRIVER_SELECTS: dict[tuple[str, str, Any], _DriverSelect | None] = {}


def _driver_select(conn: Connection, stmt: Any) -> _DriverSelect | None:
    """How to run `stmt` on the DB-API connection itself: its SQL as SQLAlchemy compiles it
    for this dialect, its parameters in order, and the result processors SQLAlchemy would
    apply to each column (a timestamp read back as a datetime). None where that is not
    exact: not SQLite's positional style, or a parameter whose type converts its value."""
    # by dialect name, not id(): a closed PostgreSQL engine's dialect may reuse the id of a
    # SQLite one. The statement itself: the store's are built once.
    key = (conn.dialect.name, conn.dialect.paramstyle, stmt)
    if key in _DRIVER_SELECTS:
        return _DRIVER_SELECTS[key]
    dialect = conn.dialect
    got: _DriverSelect | None = None
    if dialect.name == "sqlite" and dialect.paramstyle == "qmark":
        compiled = stmt.compile(dialect=dialect)
        names = list(compiled.positiontup or ())
        binds = compiled.binds  # by the name each parameter has in the SQL
        if not any(binds[n].type.dialect_impl(dialect).bind_processor(dialect) for n in names):
            results = [c.type.dialect_impl(dialect).result_processor(dialect, None)
                       for c in stmt.selected_columns]
            got = (str(compiled), names, {n: binds[n].value for n in names},
                   results if any(results) else None)
    _DRIVER_SELECTS[key] = got
    return got


class StoreBase:
    """A case's database. SQLite by default; PostgreSQL through the same code."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._batches: dict[int, Batch] = {}  # `bulk` mode, per connection

    @contextmanager
    def transaction(self) -> Iterator[Connection]:
        """One atomic unit: commits on success, rolls back on any exception (or a kill).
        Inside a resumable id stream, where it stands is committed with the rows."""
        try:
            with self.engine.begin() as conn:
                yield conn
                save_mark(conn)
        except IntegrityError as exc:
            if is_guard_error(exc):
                msg = str(exc.orig).splitlines()[0]
                if "immutable:" in msg:
                    raise ImmutableError(msg) from exc
                raise InvariantViolation(msg) from exc
            raise

    @contextmanager
    def bulk(self, conn: Connection, *, load: bool = False) -> Iterator[None]:
        """Batch mode for one connection (`sleuth.store.batch`): the staging tables' rows
        (candidates, persons, assertions, citations, links, decisions, audit entries) are
        queued and written by one executemany per table, inside the caller's transaction;
        this store's reads see them, and any other statement writes the queue first. Every
        row is still written, audited and in order; only the round trips go. Nested use
        joins the outer batch. On an exception the queue is dropped with the transaction.

        `load`: a whole file loaded (`sleuth ingest`): once the batch proves large, the
        indexes no read of a batch needs are built once at its end instead of row by row
        (`Batch.defer`).
        """
        key = id(conn)
        if key in self._batches:
            yield
            return
        cache = _grow_cache(conn)
        batch = self._batches[key] = Batch(conn, defer=load)
        try:
            yield
            batch.flush()
        except BaseException:
            batch.drop()
            with suppress(Exception):  # normally restored by the rollback that follows;
                batch.restore_indexes()  # not left out if a caller commits anyway
            raise
        finally:
            batch.close()
            self._batches.pop(key, None)
            if cache is not None:
                conn.exec_driver_sql(f"PRAGMA cache_size={int(cache)}")
        batch.restore_indexes()

    def flush(self, conn: Connection) -> None:
        """Write whatever `bulk` has queued on this connection."""
        if (batch := self._batches.get(id(conn))) is not None:
            batch.flush()

    def _batch(self, conn: Connection) -> Batch | None:
        """The connection's batch while it queues (not inside another code's savepoint)."""
        batch = self._batches.get(id(conn))
        return batch if batch is not None and batch.active else None

    @contextmanager
    def savepoint(self, conn: Connection) -> Iterator[None]:
        """`conn.begin_nested()`; in a batch, a savepoint that opens for real only when a
        statement inside it must reach the database, and forgets its queued rows when it
        rolls back."""
        if (batch := self._batch(conn)) is not None:
            with batch.savepoint():
                yield
            return
        with conn.begin_nested():
            yield

    def _insert(self, conn: Connection, table: Table, row: dict[str, Any]) -> None:
        batch = self._batches.get(id(conn))
        if batch is not None and not batch.foreign and table in QUEUED:
            batch.add(table, row)
        else:
            conn.execute(insert_stmt(table), row)

    def _insert_values(self, conn: Connection, table: Table, values: tuple[Any, ...]) -> None:
        """`_insert` of a row of a `VALUE_COLUMNS` table, given as its values in those
        columns' order: queued as they are in a batch (no dict a row)."""
        batch = self._batches.get(id(conn))
        if batch is not None and not batch.foreign:
            batch.add_values(table, values)
        else:
            conn.execute(insert_stmt(table), dict(zip(VALUE_COLUMNS[table], values,
                                                      strict=True)))

    def _own(self, conn: Connection, stmt: Any, params: dict[str, Any]) -> Any:
        """Run one of this store's statements that reads no queued row (or adds them to
        what it reads itself), without writing the queue first."""
        if id(conn) in self._batches:
            return conn.execute(stmt, params, execution_options=BATCH_OK)
        return conn.execute(stmt, params)

    def _own_rows(self, conn: Connection, stmt: Any, params: dict[str, Any]) -> list[Any]:
        """`_own(...).all()` for a SELECT. In a batch on SQLite the statement goes straight
        to the driver (`_driver_select`): promotion asks a few such questions per new
        person, thousands per large tree, and SQLAlchemy's execution costs four times
        SQLite's own answer. Same SQL, same values, same row values."""
        if id(conn) in self._batches and (fast := _driver_select(conn, stmt)) is not None:
            sql, names, fixed, results = fast
            got = conn.connection.driver_connection.execute(  # type: ignore[union-attr]
                sql, [params[n] if n in params else fixed[n] for n in names]).fetchall()
            if results:
                got = [tuple(v if f is None else f(v) for f, v in zip(results, row,
                                                                      strict=True))
                       for row in got]
            return got
        return list(self._own(conn, stmt, params))

    def _update_row(
        self, conn: Connection, table: Table, row_id: str, values: dict[str, Any]
    ) -> dict[str, Any] | None:
        """Update one row by id; returns its values before, or None when there is no row.
        In a batch, a row still queued is changed in the queue (its INSERT writes the new
        values): promotion updates every candidate it has just staged."""
        batch = self._batch(conn)
        if batch is not None and table is t.persons and "name_key" in values:
            batch.forget_names()
        if batch is not None:
            queued = (batch.candidates.get(row_id) if table is t.candidates
                      else batch.pending_persons.get(row_id) if table is t.persons else None)
            if queued is not None and not batch.savepoints:
                old_key = queued.get("name_key")
                before = batch.update_pending(queued, values)
                if (table is t.persons and old_key is not None  # a person row has a key
                        and queued["name_key"] != old_key):
                    batch.renamed(row_id, old_key, queued["name_key"])
                return before
            if queued is not None:
                batch.flush()  # inside a savepoint: written first, then updated for real
            elif (table is t.persons and (mine := batch.persons.get(row_id)) is not None
                  and not batch.savepoints):
                before = {k: mine.get(k) for k in values}  # a person this batch wrote
                if "name_key" in values:
                    batch.renamed(row_id, mine["name_key"], values["name_key"])
                mine.update(values)
                batch.update_written(table, row_id, values)
                return before
        get, put = _row_stmts(table, tuple(values))
        before = self._own(conn, get, {"row_id": row_id}).mappings().first()
        if before is None:
            return None
        self._own(conn, put, {"row_id": row_id, **{f"new_{k}": v for k, v in values.items()}})
        if batch is not None and table is t.persons and row_id in batch.persons:
            mine = batch.persons[row_id]  # the batch's copy of a written person
            if "name_key" in values:
                batch.renamed(row_id, mine["name_key"], values["name_key"])
            mine.update(values)
        return dict(before)

    def _update_audited(self, conn: Connection, table: Table, entity: str, row_id: str,
                        values: dict[str, Any], agent: str) -> None:
        """`_update_row`, audited as "<entity>_updated" with the values before and after."""
        before = self._update_row(conn, table, row_id, values)
        if before is None:
            raise NotFound(f"{entity} {row_id} does not exist")
        self.audit(conn, f"{entity}_updated", entity, row_id, before, values, agent)

    def audit(
        self,
        conn: Connection,
        action: str,
        entity_type: str,
        entity_id: str,
        before: dict[str, Any] | None,
        after: dict[str, Any] | None,
        agent: str,
        reason: str = "",
    ) -> None:
        self._insert_values(conn, t.audit_log, (  # VALUE_COLUMNS' order
            action, entity_type, entity_id, _jsonable(before), _jsonable(after), agent,
            reason, utcnow()))

    # -- helpers -----------------------------------------------------------------------------
    @contextmanager
    def _reader(self, conn: Connection | None) -> Iterator[Connection]:
        if conn is not None:
            yield conn
        else:
            with self.engine.connect() as c:
                yield c


_SCALARS = frozenset({str, int, float, bool, type(None)})


_KEYS = frozenset({str})


def _jsonable(d: dict[str, Any] | None) -> dict[str, Any] | None:
    """`d` as JSON would give it back (dates as strings, tuples as lists). Most audit
    states are flat dicts of strings and numbers, which a JSON round trip returns equal:
    those are copied, not encoded and parsed (tens of thousands per large ingest)."""
    if d is None:
        return None
    if _KEYS.issuperset(map(type, d)) and _SCALARS.issuperset(map(type, d.values())):
        return dict(d)
    return json.loads(json.dumps(d, default=str))
