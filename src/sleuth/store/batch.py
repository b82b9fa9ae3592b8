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

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    Connection,
    Index,
    NestedTransaction,
    Table,
    bindparam,
    event,
    update,
)
from sqlalchemy.schema import CreateIndex, DropIndex

from sleuth.store import schema as t
from sleuth.store.inserts import _fast_processor as _fast_processor
from sleuth.store.inserts import execute_many, insert_values
from sleuth.store.inserts import insert_rows as insert_rows

# Written in this order (foreign keys: persons before links and candidates before
# decisions, assertions before citations); each table keeps its own queue order. The
# `VALUE_COLUMNS` tables' rows are written after the others queued with them.
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


# Tables whose rows are queued as value tuples in these columns' order (`Batch.add_values`),
# not as dicts: rows nothing reads or changes before they are written (an assertion, its
# citation, a decision, an audit entry: six of a candidate's eight rows)
VALUE_COLUMNS: dict[Table, tuple[str, ...]] = {  # written in this order, as in `ORDER`
    t.assertions: ("id", "entity_id", "entity_type", "field_name", "value", "date",
                   "date_earliest", "date_latest", "related_id", "confidence", "status",
                   "candidate_id", "asserted_at"),
    t.citations: ("id", "assertion_id", "snapshot_id", "excerpt", "char_start", "char_end",
                  "page", "line", "extraction_method", "source_reliability", "rationale",
                  "match_status"),
    t.decisions: ("candidate_id", "stage", "decision", "reason", "request", "priority",
                  "confidence", "decided_by", "decided_at"),
    t.audit_log: ("action_type", "entity_type", "entity_id", "before_state", "after_state",
                  "agent_name", "reason", "timestamp"),
}


@dataclass
class _Savepoint:
    mark: int  # absolute queue position when it opened
    undo_mark: int
    value_marks: dict[Table, int]  # absolute position in each value queue when it opened
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
        # rows of the `VALUE_COLUMNS` tables, each table's in order, and how many of each
        # were written before them: written after the dict rows queued with them (`ORDER`)
        self.values: dict[Table, list[tuple[Any, ...]]] = {table: [] for table in VALUE_COLUMNS}
        self.values_base: dict[Table, int] = dict.fromkeys(VALUE_COLUMNS, 0)
        self.queued_values = 0
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
        if len(queue) + self.queued_values >= FLUSH_EVERY and not self.savepoints:
            self._flush_full()

    def add_values(self, table: Table, values: tuple[Any, ...]) -> None:
        """Queue one row of a `VALUE_COLUMNS` table, its values in those columns' order."""
        self.values[table].append(values)
        self.queued_values += 1
        if len(self.queue) + self.queued_values >= FLUSH_EVERY and not self.savepoints:
            self._flush_full()

    def _flush_full(self) -> None:
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
        if (not self.queue and not self.queued_values
                and all(sp.tx is not None for sp in self.savepoints)):
            return
        self.flushing = True
        try:
            for sp in self.savepoints:
                if sp.tx is None:
                    self._write(max(0, sp.mark - self.base), sp.value_marks)
                    sp.tx = self.conn.begin_nested()
            self._write(len(self.queue), None)
        finally:
            self.flushing = False

    def _write(self, n: int, value_marks: dict[Table, int] | None) -> None:
        """Write the queue's first `n` rows, then each value queue up to its mark (all of
        it for None)."""
        self._write_rows(n)
        for table, rows in self.values.items():
            upto = len(rows) if value_marks is None else max(
                0, value_marks[table] - self.values_base[table])
            if upto > 0:
                head, self.values[table] = rows[:upto], rows[upto:]
                self.values_base[table] += upto
                self.queued_values -= upto
                insert_values(self.conn, table, VALUE_COLUMNS[table], head)

    def _write_rows(self, n: int) -> None:
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
        for rows in self.values.values():
            rows.clear()
        self.queued_values = 0

    # -- savepoints -------------------------------------------------------------------
    @contextmanager
    def savepoint(self) -> Iterator[None]:
        sp = _Savepoint(self.base + len(self.queue), len(self.undo),
                        {table: self.values_base[table] + len(rows)
                         for table, rows in self.values.items()})
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
            for table, rows in self.values.items():
                drop = len(rows) - max(0, sp.value_marks[table] - self.values_base[table])
                del rows[len(rows) - drop:]
                self.queued_values -= drop
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
            execute_many(conn, stmt, [{"row_id": u.row_id, **{f"new_{c}": v for c, v in
                                                              u.values.items()}} for u in run])
            run = []
        if up is not None:
            run.append(up)
            key = k
