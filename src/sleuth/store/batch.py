"""Bulk writing for one transaction (`Store.bulk`): rows are queued and written by one
executemany per table, while every read still sees them.

Staging a 3,000-person GEDCOM issued ~134,000 single-row statements, seven per candidate
(issue 19). In a batch the inserts of the staging tables wait in a queue, and the questions
promotion asks about rows it has just written (is this person new? whose are these links?
which persons bear this name?) are answered from the batch's own record of them plus the
database (`Store.persons_named`, `Store.add_relationship`, ...). Any other statement on the
connection - a query this module does not know, an insert into another table - first
writes the whole queue (a `before_execute` hook), so it sees exactly what it would have
seen without the batch. Nothing is lost or reordered within a table: audit entries,
decisions and citations keep their order and their autoincrement ids.

`Batch.savepoint` stands in for `conn.begin_nested()` around a promotion that may be
refused: while nothing inside it reaches the database it costs nothing, and its rollback
drops the rows it queued; a statement inside it that needs the queue written first opens
the real savepoint before writing what the savepoint holds. A savepoint opened by other
code suspends queueing until it ends.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from operator import attrgetter, itemgetter
from typing import Any

from sqlalchemy import (
    JSON,
    Connection,
    DateTime,
    Index,
    NestedTransaction,
    Table,
    bindparam,
    event,
    insert,
    update,
)
from sqlalchemy.schema import CreateIndex, DropIndex

from sleuth.store import schema as t

# Written in this order (foreign keys: persons before links and candidates before
# decisions, assertions before citations); each table keeps its own queue order.
ORDER: tuple[Table, ...] = (t.persons, t.candidates, t.assertions, t.citations,
                            t.relationships, t.decisions, t.audit_log)
QUEUED = frozenset(ORDER)
# Queued rows written at the next safe moment once this many wait: memory stays bounded on
# a 100,000-person tree, and a write of this size costs a fraction of a millisecond a row.
FLUSH_EVERY = 20_000
# Secondary indexes that no read of a batch uses (the audit trail by entity, decisions by
# candidate: read by `sleuth history`, review and merges, never while a snapshot is staged)
# and whose keys are random ids, so each row's entry lands on a page of its own. In a batch
# that loads a file (`Store.bulk(load=True)`) and proves large (its queue fills), those of
# a table holding fewer rows than this are dropped and built once at the batch's end
# (sorted, one pass), inside the same transaction: a kill leaves them as they were, and a
# small file, or a large one added to a large case, never pays for a rebuild.
DEFER_BELOW_ROWS = 2 * FLUSH_EVERY


def _deferred_indexes() -> list[Index]:
    return [ix for table in (t.audit_log, t.decisions)
            for ix in sorted(table.indexes, key=lambda ix: str(ix.name))]


# Execution option for the store's own statements that need no flush: they read only rows
# the batch knows are in the database, or add the batch's queued rows to what they read.
BATCH_OK = {"sleuth_batch_ok": True}

Link = tuple[str, str, str]  # (person1_id, person2_id, relationship_type)


@dataclass
class _Savepoint:
    mark: int  # absolute queue position when it opened
    undo_mark: int
    tx: NestedTransaction | None = None  # the real savepoint, once one was needed


class Batch:
    """The queue and the read overlay of one connection's batch."""

    def __init__(self, conn: Connection, *, defer: bool = False) -> None:
        self.conn = conn
        # indexes `DEFER_BELOW_ROWS` may drop at the first full queue (SQLite), and those
        # dropped, which `restore_indexes` builds again
        self.defer = _deferred_indexes() if defer and conn.dialect.name == "sqlite" else []
        self.dropped: list[Index] = []
        self.queue: list[tuple[Table, Any]] = []  # a row dict to insert, or an `_Update`
        self.base = 0  # absolute position of queue[0]
        self.flushing = False
        self.savepoints: list[_Savepoint] = []
        self.foreign: list[str] = []  # savepoints other code opened: queueing is suspended
        self.undo: list[Callable[[], None]] = []
        # pending = queued, not yet written
        self.candidates: dict[str, dict[str, Any]] = {}  # pending candidate rows by id
        self.name_rows: dict[str, list[dict[str, Any]]] = {}  # pending "name" candidates
        self.persons: dict[str, dict[str, Any]] = {}  # persons created in this batch
        self.pending_persons: dict[str, dict[str, Any]] = {}
        self.keys: dict[str, list[str]] = {}  # name_key -> pending person ids
        self.created: dict[str, list[str]] = {}  # name_key -> person ids created in the batch
        # name_key -> (id, created_at) of the persons the database held before the batch:
        # read once per name (`Store.persons_named`), not once per person placed, which
        # was quadratic in a large tree's namesakes. Forgotten whenever something else may
        # have changed persons (`forget_names`).
        self.named_before: dict[str, list[tuple[str, Any]]] = {}
        self.links: set[Link] = set()  # links created in this batch
        self.parents: dict[str, set[str]] = {}  # child -> parents linked in this batch
        self.pending_links: set[Link] = set()
        self.pending_parents: dict[str, set[str]] = {}
        event.listen(conn, "before_execute", self._before_execute)
        event.listen(conn, "savepoint", self._on_savepoint)
        event.listen(conn, "release_savepoint", self._on_savepoint_end)
        event.listen(conn, "rollback_savepoint", self._on_savepoint_end)

    def close(self) -> None:
        event.remove(self.conn, "before_execute", self._before_execute)
        event.remove(self.conn, "savepoint", self._on_savepoint)
        event.remove(self.conn, "release_savepoint", self._on_savepoint_end)
        event.remove(self.conn, "rollback_savepoint", self._on_savepoint_end)

    @property
    def active(self) -> bool:
        """Queueing (False while a savepoint other code opened is open)."""
        return not self.foreign

    # -- hooks ------------------------------------------------------------------------
    def _before_execute(self, conn: Connection, clause: Any, multiparams: Any, params: Any,
                        options: Any) -> None:
        if not self.flushing and not options.get("sleuth_batch_ok"):
            self.forget_names()  # a statement of other code may change persons
            self.flush()

    def forget_names(self) -> None:
        """Drop `named_before`: the persons table may have changed under it."""
        self.named_before.clear()

    def _on_savepoint(self, conn: Connection, name: str) -> None:
        if not self.flushing:
            self.foreign.append(name)  # the queue was written by `_before_execute`

    def _on_savepoint_end(self, conn: Connection, name: str, context: Any = None) -> None:
        if name in self.foreign:
            self.foreign.remove(name)

    # -- queue ------------------------------------------------------------------------
    def add(self, table: Table, row: dict[str, Any]) -> None:
        """Queue one row (and write the queue once it is long, outside our savepoints)."""
        queue = self.queue
        queue.append((table, row))
        if table is t.candidates:
            self.candidates[row["id"]] = row
            if row["field"] == "name":
                self.name_rows.setdefault(row["value"], []).append(row)
            if self.savepoints:
                self.undo.append(lambda: self._undo_candidate(row))
        elif table is t.persons:
            self._add_person(row)
        elif table is t.relationships:
            self._add_link(row)
        if len(queue) >= FLUSH_EVERY and not self.savepoints:
            if self.defer:
                self._drop_deferred()
            self.flush()

    def _drop_deferred(self) -> None:
        """Drop the deferred indexes of the tables that hold few rows yet (once a batch)."""
        defer, self.defer = self.defer, []
        if not self.conn.connection.driver_connection.in_transaction:  # type: ignore[union-attr]
            return  # pysqlite opens one at the first write only: DDL would commit at once
        self.flushing = True  # statements of ours: nothing to write first
        try:
            for ix in defer:
                name, table = str(ix.name), ix.table
                assert table is not None
                rows = self.conn.exec_driver_sql(
                    f"SELECT max(rowid) FROM {table.name}").scalar() or 0
                present = self.conn.exec_driver_sql(
                    "SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = ?",
                    (name,)).first()
                if rows < DEFER_BELOW_ROWS and present:
                    self.conn.exec_driver_sql(str(DropIndex(ix).compile(
                        dialect=self.conn.dialect)))
                    self.dropped.append(ix)
        finally:
            self.flushing = False

    def restore_indexes(self) -> None:
        """Build again the indexes `_drop_deferred` dropped, as the schema defines them
        (after the last flush). On an error the caller's transaction rolls back, which
        restores them too."""
        dropped, self.dropped = self.dropped, []
        for ix in dropped:
            self.conn.exec_driver_sql(str(CreateIndex(ix).compile(dialect=self.conn.dialect)))

    def _undo_candidate(self, row: dict[str, Any]) -> None:
        self.candidates.pop(row["id"], None)
        rows = self.name_rows.get(row["value"], [])
        if any(r is row for r in rows):
            rows.remove(row)

    def _add_person(self, row: dict[str, Any]) -> None:
        pid, key = row["id"], row["name_key"]
        self.persons[pid] = row
        self.pending_persons[pid] = row
        self.keys.setdefault(key, []).append(pid)
        self.created.setdefault(key, []).append(pid)

        def undo() -> None:
            self.persons.pop(pid, None)
            self.pending_persons.pop(pid, None)
            if pid in self.keys.get(key, []):
                self.keys[key].remove(pid)
            if pid in self.created.get(key, []):
                self.created[key].remove(pid)
        self._remember(undo)

    def _add_link(self, row: dict[str, Any]) -> None:
        link = (row["person1_id"], row["person2_id"], row["relationship_type"])
        self.links.add(link)
        self.pending_links.add(link)
        if link[2] == "parent":
            self.parents.setdefault(link[1], set()).add(link[0])
            self.pending_parents.setdefault(link[1], set()).add(link[0])

        def undo() -> None:
            self.links.discard(link)
            self.pending_links.discard(link)
            if link[2] == "parent":
                self.parents.get(link[1], set()).discard(link[0])
                self.pending_parents.get(link[1], set()).discard(link[0])
        self._remember(undo)

    def renamed(self, pid: str, old_key: str, new_key: str) -> None:
        """A person this batch created now has another name key."""
        for by_key in (self.keys, self.created):
            if pid in by_key.get(old_key, []):
                by_key[old_key].remove(pid)
                by_key.setdefault(new_key, []).append(pid)

    def _remember(self, undo: Callable[[], None]) -> None:
        if self.savepoints:  # only a savepoint of ours can take a queued row back
            self.undo.append(undo)

    def update_pending(self, row: dict[str, Any], values: dict[str, Any]) -> dict[str, Any]:
        """Change a queued row in place (its INSERT then writes the new values); returns
        the values before, as the UPDATE's SELECT would have read them. Not inside a
        savepoint of ours (`Store` writes the queue and updates the row there instead)."""
        assert not self.savepoints
        before = {k: row.get(k) for k in values}
        row.update(values)
        return before

    def update_written(self, table: Table, row_id: str, values: dict[str, Any]) -> None:
        """Queue an UPDATE of a row this batch has already written (a person's sex, read
        after other rows made the queue flush): written after the queue's inserts, in
        order. Not inside a savepoint of ours."""
        assert not self.savepoints
        self.queue.append((table, _Update(row_id, dict(values))))

    def flush(self) -> None:
        """Write every queued row, opening our savepoints for real first: what is written
        next, queued rows or another statement, is then taken back with them."""
        if not self.queue and all(sp.tx is not None for sp in self.savepoints):
            return
        self.flushing = True
        try:
            for sp in self.savepoints:
                if sp.tx is None:
                    self._write(max(0, sp.mark - self.base))
                    sp.tx = self.conn.begin_nested()
            self._write(len(self.queue))
        finally:
            self.flushing = False

    def _write(self, n: int) -> None:
        if n <= 0:
            return
        head, self.queue = self.queue[:n], self.queue[n:]
        self.base += n
        by_table: dict[Table, list[dict[str, Any]]] = {}
        updates: list[tuple[Table, _Update]] = []
        for table, row in head:
            if isinstance(row, _Update):
                updates.append((table, row))
            else:
                by_table.setdefault(table, []).append(row)
        for table in ORDER:
            if rows := by_table.get(table):
                insert_rows(self.conn, table, rows)
        _write_updates(self.conn, updates)
        for row in by_table.get(t.candidates, []):
            self.candidates.pop(row["id"], None)
            rows = self.name_rows.get(row["value"])
            if rows is not None and any(r is row for r in rows):
                rows.remove(row)
                if not rows:
                    del self.name_rows[row["value"]]
        for row in by_table.get(t.persons, []):
            self.pending_persons.pop(row["id"], None)
            ids = self.keys.get(row["name_key"], [])
            if row["id"] in ids:
                ids.remove(row["id"])
        for row in by_table.get(t.relationships, []):
            link = (row["person1_id"], row["person2_id"], row["relationship_type"])
            self.pending_links.discard(link)
            self.pending_parents.get(link[1], set()).discard(link[0])

    def drop(self) -> None:
        """Forget the queue (the transaction is being rolled back)."""
        self.queue.clear()

    # -- savepoints -------------------------------------------------------------------
    @contextmanager
    def savepoint(self) -> Iterator[None]:
        sp = _Savepoint(self.base + len(self.queue), len(self.undo))
        self.savepoints.append(sp)
        try:
            yield
        except BaseException:
            self.savepoints.remove(sp)
            if sp.tx is not None:
                self.forget_names()  # the rollback may restore rows read since it opened
                sp.tx.rollback()
            keep = sp.mark - self.base
            del self.queue[max(0, keep):]
            while len(self.undo) > sp.undo_mark:
                self.undo.pop()()
            raise
        self.savepoints.remove(sp)
        if sp.tx is not None:
            sp.tx.commit()
        if not self.savepoints:
            self.undo.clear()  # nothing can roll these back any more


@dataclass
class _Update:
    row_id: str
    values: dict[str, Any]


def _write_updates(conn: Connection, updates: list[tuple[Table, _Update]]) -> None:
    """Queued UPDATEs, one executemany per run of the same table and columns (runs keep
    the queue's order, so a column set twice ends with its last value)."""
    run: list[_Update] = []
    key: tuple[Table, tuple[str, ...]] | None = None
    for table, up in [*updates, (t.persons, None)]:  # a sentinel ends the last run
        k = (table, tuple(up.values)) if up is not None else None
        if run and k != key:
            assert key is not None
            tbl, cols = key
            stmt = update(tbl).where(tbl.c.id == bindparam("row_id")).values(
                {c: bindparam(f"new_{c}") for c in cols})
            conn.execute(stmt, [{"row_id": u.row_id, **{f"new_{c}": v for c, v in
                                                        u.values.items()}} for u in run])
            run = []
        if up is not None:
            run.append(up)
            key = k


def _same_keys(rows: list[dict[str, Any]]) -> None:
    """One executemany needs the same columns in every row: a column a queued row was
    given later (a candidate's person_id) is NULL in the others, as its INSERT left it
    (the schema has no column defaults)."""
    keys = rows[0].keys()
    if all(map(keys.__eq__, map(dict.keys, rows))):
        return
    every = set().union(*rows)
    for r in rows:
        for k in every - r.keys():
            r[k] = None


def insert_rows(conn: Connection, table: Table, rows: list[dict[str, Any]]) -> None:
    """One executemany of `rows` (same keys each). On SQLite the statement SQLAlchemy
    compiles is run with the values its column types' own bind processors produce (JSON
    text, timestamps as SQLite stores them), so the rows are stored byte for byte as
    `conn.execute(insert(table), rows)` stores them, without its per-row parameter
    bookkeeping (issue 19). The two processors every row needs (JSON, timestamps) are
    replaced by exact equivalents that take a column at a time (`_fast_processor`)."""
    if conn.dialect.name != "sqlite" or conn.dialect.paramstyle != "qmark":
        _same_keys(rows)
        conn.execute(insert(table), rows)
        return
    # Rows of one size read by the first one's keys have the same keys, or one of them
    # lacks one (KeyError, before anything is written): then `_same_keys` fills them in
    size = len(rows[0])
    if not all(map(size.__eq__, map(len, rows))):
        _same_keys(rows)
    try:
        sql, params = _parameters(conn, table, rows)
    except KeyError:
        _same_keys(rows)
        sql, params = _parameters(conn, table, rows)
    conn.exec_driver_sql(sql, params)


def _parameters(conn: Connection, table: Table, rows: list[dict[str, Any]]
                ) -> tuple[str, list[tuple[Any, ...]]]:
    """The INSERT and its parameter tuples for rows with the first row's keys."""
    sql, plain, processed = _compiled(conn, table, tuple(rows[0]))
    params = list(map(plain, rows))
    if processed:
        tails = zip(*[process(list(map(get, rows))) for get, process in processed],
                    strict=True)
        params = list(map(tuple.__add__, params, tails))
    return sql, params


# (SQL, the values of the columns without a bind processor as a tuple, and (value, its
# bind processor over a column's values) for each of the others, whose parameters come
# last in the SQL)
_Compiled = tuple[str, Callable[[dict[str, Any]], tuple[Any, ...]],
                  list[tuple[Callable[[dict[str, Any]], Any],
                             Callable[[list[Any]], list[Any]]]]]
_COMPILED: dict[tuple[int, Table, tuple[str, ...]], _Compiled] = {}


def _compiled(conn: Connection, table: Table, keys: tuple[str, ...]) -> _Compiled:
    """How to write rows with these keys: the INSERT SQLAlchemy would compile, with the
    columns that need a bind processor last, so that the others are read a row at a time
    by one `itemgetter` and the processed ones a column at a time."""
    cache_key = (id(conn.dialect), table, keys)
    got = _COMPILED.get(cache_key)
    if got is None:
        procs = {k: _fast_processor(table.c[k].type, conn.dialect) for k in keys}
        plain = [k for k in keys if procs[k] is None]
        done = [k for k in keys if procs[k] is not None]
        if len(plain) < 2:
            raise AssertionError(f"unexpected columns for {table.name}: {keys}")
        quote = conn.dialect.identifier_preparer
        cols = ", ".join(quote.quote(k) for k in (*plain, *done))
        sql = (f"INSERT INTO {quote.format_table(table)} ({cols}) "
               f"VALUES ({', '.join('?' * len(keys))})")
        got = _COMPILED[cache_key] = (
            sql, itemgetter(*plain), [(itemgetter(k), procs[k]) for k in done])  # type: ignore[misc]
    return got


def _fast_processor(type_: Any, dialect: Any) -> Callable[[list[Any]], list[Any]] | None:
    """The column type's bind processor applied to a column's values, or None when the
    type has none. JSON (with the default serializer) and SQLite timestamps, which every
    row has, get exact equivalents without the processor's layers or a call per value."""
    process = type_.dialect_impl(dialect).bind_processor(dialect)
    if process is None:
        return None
    if isinstance(type_, JSON) and not type_.none_as_null and getattr(
            dialect, "_json_serializer", None) is None:
        def json_texts(values: list[Any], _slow: Callable[[Any], Any] = process) -> list[Any]:
            if _JSON_KINDS.issuperset(map(type, values)):  # None, [] and {} are common
                return [_join(_JSON_RUN(v, 0)) if v else _JSON_EMPTY[v.__class__]
                        for v in values]
            return [_slow(v) for v in values]
        return json_texts
    if isinstance(type_, DateTime):
        def timestamp_texts(values: list[Any], _slow: Callable[[Any], Any] = process
                            ) -> list[Any]:
            if _DATETIME.issuperset(map(type, values)):
                return _sqlite_timestamps(values)
            return [_slow(v) for v in values]
        return timestamp_texts

    def each(values: list[Any], _process: Callable[[Any], Any] = process) -> list[Any]:
        return list(map(_process, values))
    return each


def _sqlite_timestamps(values: list[datetime]) -> list[str]:
    """SQLite's storage format of datetimes, "%04d-%02d-%02d %02d:%02d:%02d.%06d" of the
    fields as they are (an offset is not applied, only dropped). A batch's rows are written
    within a few seconds, so each second's text is made once (the first 19 characters of
    its ISO form) and only the microseconds per row: a row's clock column cost about as
    much as the rest of its parameters (issue 19)."""
    seconds: dict[tuple[int, ...], str] = {}
    out = []
    for key, when, micro in zip(map(_SECOND, values), values, map(_MICROSECOND, values),
                                strict=True):
        head = seconds.get(key)
        if head is None:
            head = seconds[key] = when.isoformat(" ")[:19]
        out.append(f"{head}.{micro:06d}")
    return out


_DATETIME = frozenset({datetime})
_MICROSECOND = attrgetter("microsecond")
_SECOND = attrgetter("second", "minute", "hour", "day", "month", "year")
_JSON_EMPTY = {type(None): "null", list: "[]", dict: "{}"}  # json.dumps of each
_JSON_KINDS = frozenset(_JSON_EMPTY)
_join = "".join


def _json_encoder() -> Callable[[Any, int], Any]:
    """What `json.dumps` with its defaults runs for a dict or list (its chunks, joined by
    the caller): the C encoder it builds on every call, built once (no check for
    reference cycles: rows hold none)."""
    from json import encoder

    make = getattr(encoder, "c_make_encoder", None)  # private, so not in typeshed's stubs
    if make is None:  # pragma: no cover - CPython always has it
        return lambda value, _level: (json.dumps(value),)
    return make(None, json.JSONEncoder().default, encoder.encode_basestring_ascii, None,
                ": ", ", ", False, False, True)


_JSON_RUN = _json_encoder()
