"""The write side of a case: every mutation goes through here, inside a caller's transaction.

Callers open one transaction per batch (`with store.transaction() as tx:`), so a crash leaves
either the whole batch or none of it. Every change to a mutable row writes an audit entry in
the same transaction.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Connection,
    Engine,
    Table,
    bindparam,
    exists,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError

from sleuth.model import (
    Assertion,
    AssertionStatus,
    Candidate,
    Citation,
    Conflict,
    Hypothesis,
    ImmutableError,
    InvariantViolation,
    LogEntry,
    NotFound,
    Person,
    Relationship,
    Snapshot,
    new_id,
    utcnow,
)
from sleuth.store import schema as t
from sleuth.store.batch import BATCH_OK, QUEUED, Batch
from sleuth.store.db import make_engine, migrate, sqlite_url
from sleuth.store.dialect import is_guard_error

CASE_DB = "case.sqlite"
CASE_CONFIG = "case.json"


def name_key(name: str) -> str:
    """Exact-match key for a person's name: lower case, letters and spaces only."""
    cleaned = "".join(ch if ch.isalpha() else " " for ch in name.lower())
    return " ".join(cleaned.split())


def _date_json(d: Any) -> Any:
    """A date as its JSON column holds it. The last one is remembered: staging stores a
    candidate's date, then promotion the same (frozen) date again with its assertion."""
    if d is None:
        return None
    if d is _LAST_DATE[0]:
        return _LAST_DATE[1]
    dumped = d.model_dump(mode="json")
    _LAST_DATE[:] = (d, dumped)
    return dumped


_LAST_DATE: list[Any] = [None, None]  # (date, its JSON form): `_date_json`'s one entry


@cache
def _insert_stmt(table: Table) -> Any:
    """One INSERT construct per table, so SQLAlchemy's compiled cache is hit, not rebuilt."""
    return insert(table)


# Statements built once: SQLAlchemy then reuses their compiled form on every call.
_SNAPSHOT_BY_ORIGIN = select(t.snapshots.c.id).where(
    t.snapshots.c.origin == bindparam("origin"), t.snapshots.c.sha256 == bindparam("sha")
)
_LOG_SEQ = select(func.coalesce(func.max(t.research_log.c.seq), 0))
# put_snapshot's two questions in one round trip: a snapshot of these bytes from this origin?
# the bytes already stored? (A fetch writes a snapshot per request: round trips add up.)
_PUT_PROBE = select(
    _SNAPSHOT_BY_ORIGIN.scalar_subquery().label("existing"),
    exists().where(t.blobs.c.sha256 == bindparam("sha")).label("blob"),
)
# The log's sequence number is computed by the INSERT itself: one statement, not two, and
# no window between reading MAX(seq) and writing it.
_LOG_INSERT = insert(t.research_log).values(seq=_LOG_SEQ.scalar_subquery() + 1)


@cache
def _row_stmts(table: Table, keys: tuple[str, ...]) -> tuple[Any, Any]:
    """(SELECT keys by id, UPDATE keys by id) for one table and one set of columns."""
    cols = [table.c[k] for k in keys]
    where = table.c.id == bindparam("row_id")
    return (
        select(*cols).where(where),
        update(table).where(where).values({k: bindparam(f"new_{k}") for k in keys}),
    )


_NAME_LINES = select(t.candidates.c.excerpt, t.candidates.c.person_id,
                     t.candidates.c.snapshot_id, t.candidates.c.subject).where(
    t.candidates.c.value == bindparam("v"), t.candidates.c.field == "name")
_PERSONS_BY_KEY = select(t.persons.c.id, t.persons.c.created_at).where(
    t.persons.c.name_key == bindparam("key"))
_PERSON_FIELDS = select(t.persons.c.canonical_name, t.persons.c.sex).where(
    t.persons.c.id == bindparam("p"))
_PARENTS_OF_SEX = select(t.persons.c.id, t.persons.c.canonical_name).join(
    t.relationships, t.relationships.c.person1_id == t.persons.c.id).where(
    t.relationships.c.person2_id == bindparam("c"),
    t.relationships.c.relationship_type == "parent", t.persons.c.sex == bindparam("sex"))


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


def _naive_utc(when: Any) -> Any:
    """A timestamp comparable with SQLite's (naive, UTC) and PostgreSQL's (aware) values."""
    if isinstance(when, datetime) and when.tzinfo is not None:
        return when.astimezone(UTC).replace(tzinfo=None)
    return when


@cache
def _relationship_checks() -> dict[str, Any]:
    """The lookups `add_relationship` runs for every link, built once with bound parameters."""
    r = t.relationships.c
    return {
        "person": select(t.persons.c.id).where(t.persons.c.id == bindparam("p")),
        "pair": select(r.id).where(
            r.person1_id == bindparam("p1"),
            r.person2_id == bindparam("p2"),
            r.relationship_type == bindparam("kind"),
        ),
        "parents": select(func.count()).where(
            r.person2_id == bindparam("p2"), r.relationship_type == "parent"
        ),
    }


class Store:
    """A case's database. SQLite by default; PostgreSQL through the same code."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._batches: dict[int, Batch] = {}  # `bulk` mode, per connection

    # -- opening ---------------------------------------------------------------------------
    @classmethod
    def open_url(cls, url: str) -> Store:
        engine = make_engine(url)
        migrate(engine)
        return cls(engine)

    @classmethod
    def create_case(cls, case_dir: Path, db_url: str | None = None) -> Store:
        case_dir.mkdir(parents=True, exist_ok=True)
        config = case_dir / CASE_CONFIG
        if config.exists():
            raise FileExistsError(f"{case_dir}: already a sleuth case ({CASE_CONFIG} exists)")
        config.write_text(json.dumps({"db_url": db_url, "created_at": utcnow().isoformat()}))
        return cls.open_case(case_dir)

    @classmethod
    def open_case(cls, case_dir: Path) -> Store:
        config = case_dir / CASE_CONFIG
        if not config.exists():
            raise NotFound(f"{case_dir}: not a sleuth case (run `sleuth init {case_dir}`)")
        url = json.loads(config.read_text()).get("db_url") or sqlite_url(case_dir / CASE_DB)
        return cls.open_url(url)

    def close(self) -> None:
        self.engine.dispose()

    @contextmanager
    def transaction(self) -> Iterator[Connection]:
        """One atomic unit: commits on success, rolls back on any exception (or a kill)."""
        try:
            with self.engine.begin() as conn:
                yield conn
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
            conn.execute(_insert_stmt(table), row)

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

    # -- raw layer ---------------------------------------------------------------------------
    def put_snapshot(self, conn: Connection, raw: bytes, snap: Snapshot) -> tuple[Snapshot, bool]:
        """Store bytes content-addressed plus the snapshot; returns (snapshot, newly_created).

        The same bytes from the same origin are one snapshot, so re-ingesting is a no-op.
        """
        sha = hashlib.sha256(raw).hexdigest()
        if sha != snap.sha256:
            raise ValueError(f"snapshot hash {snap.sha256} does not match its bytes ({sha})")
        origin = snap.origin
        existing, blob_stored = conn.execute(_PUT_PROBE, {"origin": origin, "sha": sha}).one()
        if existing:
            return self.snapshot(existing, conn), False
        if not blob_stored:
            conn.execute(
                _insert_stmt(t.blobs),
                dict(sha256=sha, size=len(raw), data=raw, created_at=utcnow()),
            )
        conn.execute(
            _insert_stmt(t.snapshots),
            dict(
                id=snap.id,
                sha256=sha,
                origin=origin,
                url=snap.url,
                path=snap.path,
                source_name=snap.source_name,
                tier=int(snap.tier),
                evidence_type=str(snap.evidence_type),
                accessed_at=snap.accessed_at,
                media_type=snap.media_type,
                text=snap.text,
                page_starts=list(snap.page_starts),
                meta=snap.metadata,
            ),
        )
        self.audit(
            conn,
            "snapshot_stored",
            "snapshot",
            snap.id,
            None,
            {"sha256": sha, "origin": origin, "size": len(raw)},
            "Scout",
        )
        return snap, True

    def find_snapshot(self, conn: Connection, origin: str, sha256: str) -> str | None:
        """Id of the snapshot already holding these bytes from this origin, if any."""
        return conn.execute(_SNAPSHOT_BY_ORIGIN, {"origin": origin, "sha": sha256}).scalar()

    def snapshot(self, snapshot_id: str, conn: Connection | None = None) -> Snapshot:
        from sleuth.store.queries import row_to_snapshot

        with self._reader(conn) as c:
            row = c.execute(select(t.snapshots).where(t.snapshots.c.id == snapshot_id)).first()
        if row is None:
            raise NotFound(f"snapshot {snapshot_id} does not exist")
        return row_to_snapshot(row)

    def blob(self, sha256: str) -> bytes:
        with self.engine.connect() as c:
            data = c.execute(select(t.blobs.c.data).where(t.blobs.c.sha256 == sha256)).scalar()
        if data is None:
            raise NotFound(f"no stored bytes with sha256 {sha256}")
        return bytes(data)

    # -- staging -----------------------------------------------------------------------------
    def stage(
        self,
        conn: Connection,
        cand: Candidate,
        *,
        status: str,
        violations: Sequence[str] = (),
        missing: Sequence[str] = (),
        attempts: int = 0,
    ) -> None:
        cit = cand.citation
        self._insert(
            conn,
            t.candidates,
            {
                "id": cand.id,
                "snapshot_id": cit.snapshot_id if cit else None,
                "subject": cand.subject,
                "subject_name": cand.subject_name,
                "field": cand.field,
                "value": cand.value,
                "date": _date_json(cand.date),
                "related": cand.related,
                "related_name": cand.related_name,
                "confidence": cand.confidence,
                "excerpt": cit.excerpt if cit else None,
                "char_start": cit.locator.start if cit else None,
                "char_end": cit.locator.end if cit else None,
                "page": cit.locator.page if cit else None,
                "line": cit.locator.line if cit else None,
                "match_status": str(cit.match_status) if cit and cit.match_status else None,
                "is_fact": cand.is_fact,
                "method": cand.method,
                "evidence_type": str(cand.evidence_type) if cand.evidence_type else None,
                "rationale": cand.rationale,
                "status": status,
                "attempts": attempts,
                "missing_fields": list(missing),
                "violations": list(violations),
                "person_id": None,  # set by promotion; named here so every row has each column
                "assertion_id": None,
                "created_at": utcnow(),
            },
        )

    def set_candidate(self, conn: Connection, candidate_id: str, agent: str, **values: Any) -> None:
        before = self._update_row(conn, t.candidates, candidate_id, values)
        if before is None:
            raise NotFound(f"candidate {candidate_id} does not exist")
        self.audit(conn, "candidate_updated", "candidate", candidate_id, before, values, agent)

    def decide(
        self,
        conn: Connection,
        candidate_id: str,
        stage: str,
        decision: str,
        reason: str,
        *,
        by: str,
        request: str | None = None,
        priority: str | None = None,
        confidence: float | None = None,
    ) -> None:
        self._insert(
            conn,
            t.decisions,
            {
                "candidate_id": candidate_id,
                "stage": stage,
                "decision": decision,
                "reason": reason,
                "request": request,
                "priority": priority,
                "confidence": confidence,
                "decided_by": by,
                "decided_at": utcnow(),
            },
        )

    def enqueue_review(
        self, conn: Connection, candidate_id: str, priority: str, reason: str
    ) -> None:
        conn.execute(
            insert(t.review_queue).values(
                candidate_id=candidate_id,
                priority=priority,
                reason=reason,
                status="open",
                created_at=utcnow(),
            )
        )
        self.audit(
            conn,
            "review_enqueued",
            "candidate",
            candidate_id,
            None,
            {"priority": priority, "reason": reason},
            "DecisionMaker",
        )

    def resolve_review(
        self, conn: Connection, review_id: int, status: str, *, by: str, reason: str
    ) -> None:
        before = (
            conn.execute(select(t.review_queue).where(t.review_queue.c.id == review_id))
            .mappings()
            .first()
        )
        if before is None:
            raise NotFound(f"review item {review_id} does not exist")
        if before["status"] != "open":
            raise InvariantViolation(f"review item {review_id} is already {before['status']}")
        resolved_at = utcnow()
        after = {
            "status": status,
            "resolved_at": resolved_at,
            "resolved_by": by,
            "resolution_reason": reason,
        }
        conn.execute(update(t.review_queue).where(t.review_queue.c.id == review_id).values(**after))
        self.audit(
            conn,
            f"review_{status}",
            "review",
            str(review_id),
            {"status": "open"},
            {**after, "resolved_at": resolved_at.isoformat()},
            by,
            reason,
        )

    # -- core layer --------------------------------------------------------------------------
    def add_person(self, conn: Connection, person: Person) -> Person:
        row = {
            "id": person.id,
            "canonical_name": person.canonical_name,
            "name_key": name_key(person.canonical_name),
            "given_name": person.given_name,
            "surname": person.surname,
            "sex": person.sex,
            "is_living": person.is_living,
            "created_at": utcnow(),
        }
        self._insert(conn, t.persons, row)
        self.audit(
            conn,
            "person_created",
            "person",
            person.id,
            None,
            {"canonical_name": person.canonical_name},
            "DecisionMaker",
        )
        return person

    def persons_named(self, conn: Connection, name: str) -> list[str]:
        """The persons of this name, oldest first (by creation, then id)."""
        before, created = self.persons_named_apart(conn, name)
        if not created:
            return before
        batch = self._batch(conn)
        assert batch is not None
        at = dict(batch.named_before[name_key(name)])
        at.update((i, batch.persons[i]["created_at"]) for i in created)
        return sorted(at, key=lambda i: (_naive_utc(at[i]), i))

    def persons_named_apart(self, conn: Connection, name: str) -> tuple[list[str], list[str]]:
        """`persons_named` in two lists: those the current batch did not create (oldest
        first), and those it did (in the order it created them; not a copy). Promotion asks
        this of every new subject, and a large tree's common names have a hundred bearers
        it has just created: sorting them all for each new namesake was quadratic (issue
        19), where most of them can be set aside at once (`agents.linking._new_subject`)."""
        key = name_key(name)
        p = t.persons.c
        batch = self._batch(conn)
        if batch is None:
            return list(conn.execute(select(p.id).where(p.name_key == key)
                                     .order_by(p.created_at, p.id)).scalars()), []
        before = batch.named_before.get(key)
        if before is None:  # the persons of this name that the batch did not create
            before = batch.named_before[key] = sorted(
                ((str(i), at) for i, at in self._own_rows(conn, _PERSONS_BY_KEY, {"key": key})
                 if str(i) not in batch.persons), key=lambda r: (_naive_utc(r[1]), r[0]))
        return [i for i, _ in before], batch.created.get(key, [])

    def person_fields(self, conn: Connection, person_id: str) -> tuple[str, str] | None:
        """(canonical name, sex) of a person, or None when there is none: what promotion
        asks of the persons it has just created, answered in a batch without a query."""
        batch = self._batch(conn)
        if batch is not None and (row := batch.persons.get(person_id)) is not None:
            return row["canonical_name"], row["sex"]
        got = self._own_rows(conn, _PERSON_FIELDS, {"p": person_id})
        return (got[0][0], got[0][1]) if got else None

    def parents_named(self, conn: Connection, child_id: str, sex: str) -> list[tuple[str, str]]:
        """(id, canonical name) of the child's parents of that sex, as the relationships
        and persons tables give them (order not significant)."""
        batch = self._batch(conn)
        if batch is None:
            return [(str(i), n) for i, n in conn.execute(_PARENTS_OF_SEX,
                                                         {"c": child_id, "sex": sex})]
        if child_id in batch.persons:  # created in this batch: all its links are known
            ids = sorted(batch.parents.get(child_id, set()))
            out = []
        else:
            ids = sorted(batch.pending_parents.get(child_id, set()))
            out = [(str(i), n) for i, n in self._own_rows(conn, _PARENTS_OF_SEX,
                                                          {"c": child_id, "sex": sex})]
        for pid in ids:
            fields = self.person_fields(conn, pid)
            if fields is not None and fields[1] == sex:
                out.append((pid, fields[0]))
        return out

    def name_lines(self, conn: Connection, name: str) -> list[tuple[str, str, str, str]]:
        """(excerpt, person id, snapshot id, subject) of every "name" candidate with this
        value, queued ones included (promotion's "has this record line named them?")."""
        batch = self._batch(conn)
        if batch is None:
            return [tuple(r) for r in conn.execute(_NAME_LINES, {"v": name})]
        rows = [tuple(r) for r in self._own_rows(conn, _NAME_LINES, {"v": name})]
        rows += [(r["excerpt"], r.get("person_id"), r["snapshot_id"], r["subject"])
                 for r in batch.name_rows.get(name, [])]
        return rows

    def set_person(self, conn: Connection, person_id: str, agent: str, **values: Any) -> None:
        if "canonical_name" in values:
            values["name_key"] = name_key(values["canonical_name"])
        before = self._update_row(conn, t.persons, person_id, values)
        if before is None:
            raise NotFound(f"person {person_id} does not exist")
        self.audit(conn, "person_updated", "person", person_id, before, values, agent)

    def add_assertion(
        self,
        conn: Connection,
        a: Assertion,
        *,
        candidate_id: str | None,
        related_id: str | None = None,
        agent: str = "DecisionMaker",
    ) -> None:
        if not a.citations:
            raise InvariantViolation(f"assertion {a.field_name}={a.value!r} has no citation")
        self._insert(
            conn,
            t.assertions,
            {
                "id": a.id,
                "entity_id": a.entity_id,
                "entity_type": a.entity_type,
                "field_name": a.field_name,
                "value": a.value,
                "date": _date_json(a.date),
                "date_earliest": (a.date.earliest.isoformat() if a.date and a.date.earliest
                                  else None),
                "date_latest": a.date.latest.isoformat() if a.date and a.date.latest else None,
                "related_id": related_id,
                "confidence": a.confidence,
                "status": str(a.status),
                "candidate_id": candidate_id,
                "asserted_at": a.asserted_at,
            },
        )
        self._insert_citations(conn, a.id, a.citations)
        self.audit(
            conn,
            "assertion_added",
            "assertion",
            a.id,
            None,
            {
                "entity_id": a.entity_id,
                "field": a.field_name,
                "value": a.value,
                "status": str(a.status),
            },
            agent,
        )

    def add_citations(
        self, conn: Connection, assertion_id: str, citations: list[Citation], *, agent: str,
        reason: str,
    ) -> None:
        """More places that state an existing assertion (audited; citations are append-only)."""
        self._insert_citations(conn, assertion_id, citations)
        self.audit(conn, "citation_added", "assertion", assertion_id, None,
                   {"snapshots": [c.snapshot_id for c in citations]}, agent, reason)

    def _insert_citations(self, conn: Connection, assertion_id: str,
                          citations: list[Citation]) -> None:
        for c in citations:
            self._insert(
                conn,
                t.citations,
                {
                    "id": new_id(),
                    "assertion_id": assertion_id,
                    "snapshot_id": c.snapshot_id,
                    "excerpt": c.excerpt,
                    "char_start": c.locator.start,
                    "char_end": c.locator.end,
                    "page": c.locator.page,
                    "line": c.locator.line,
                    "extraction_method": c.extraction_method,
                    "source_reliability": c.source_reliability,
                    "rationale": c.rationale,
                    "match_status": str(c.match_status or "exact"),
                },
            )

    def set_assertion_status(
        self,
        conn: Connection,
        assertion_id: str,
        status: AssertionStatus,
        *,
        agent: str,
        reason: str,
    ) -> None:
        before = conn.execute(
            select(t.assertions.c.status).where(t.assertions.c.id == assertion_id)
        ).scalar()
        if before is None:
            raise NotFound(f"assertion {assertion_id} does not exist")
        if before == str(status):
            return
        conn.execute(
            update(t.assertions).where(t.assertions.c.id == assertion_id).values(status=str(status))
        )
        self.audit(
            conn,
            "assertion_status",
            "assertion",
            assertion_id,
            {"status": before},
            {"status": str(status)},
            agent,
            reason,
        )

    def add_relationship(
        self,
        conn: Connection,
        rel: Relationship,
        *,
        assertion_id: str | None = None,
        agent: str = "DecisionMaker",
    ) -> bool:
        """Insert a parent/spouse link; returns False when it already exists.

        The invariants are checked here to give a clear message; the database triggers and
        CHECK constraints enforce them again for any other writer.
        """
        q = _relationship_checks()
        p1, p2, kind = rel.person1_id, rel.person2_id, rel.relationship_type
        batch = self._batch(conn)
        for pid in (p1, p2):
            if batch is not None and pid in batch.persons:
                continue
            if not self._own_rows(conn, q["person"], {"p": pid}):
                raise NotFound(f"person {pid} does not exist")
        if self._linked(conn, batch, p1, p2, kind):
            return False
        if kind == "parent":
            if self._parent_count(conn, batch, p2) >= 2:
                raise InvariantViolation(
                    f"person {p2} already has two parents; refusing a third ({p1})"
                )
            if self._linked(conn, batch, p2, p1, "parent"):
                raise InvariantViolation(f"{p1} and {p2} cannot each be the other's parent")
        self._insert(
            conn,
            t.relationships,
            {
                "id": rel.id,
                "person1_id": rel.person1_id,
                "person2_id": rel.person2_id,
                "relationship_type": rel.relationship_type,
                "confidence": rel.confidence,
                "assertion_id": assertion_id,
                "created_at": utcnow(),
            },
        )
        self.audit(
            conn,
            "relationship_added",
            "relationship",
            rel.id,
            None,
            {"person1": rel.person1_id, "person2": rel.person2_id, "type": rel.relationship_type},
            agent,
        )
        return True

    def _linked(self, conn: Connection, batch: Batch | None, p1: str, p2: str,
                kind: str) -> bool:
        """Is there a link (p1, p2, kind)? A person created in this batch has only the
        batch's links; for others the database holds all but the queued ones."""
        if batch is not None:
            if (p1, p2, kind) in batch.links:
                return True
            if p1 in batch.persons or p2 in batch.persons:
                return False
        q = _relationship_checks()
        return bool(self._own_rows(conn, q["pair"], {"p1": p1, "p2": p2, "kind": kind}))

    def _parent_count(self, conn: Connection, batch: Batch | None, child: str) -> int:
        if batch is not None and child in batch.persons:
            return len(batch.parents.get(child, set()))
        q = _relationship_checks()
        n = int(self._own_rows(conn, q["parents"], {"p2": child})[0][0])
        return n + (len(batch.pending_parents.get(child, set())) if batch is not None else 0)

    def add_hypothesis(self, conn: Connection, h: Hypothesis) -> None:
        conn.execute(
            insert(t.hypotheses).values(
                id=h.id,
                hypothesis_type=h.hypothesis_type,
                statement=h.statement,
                target_person=h.target_person,
                related_person=h.related_person,
                suggested_queries=h.suggested_queries,
                priority=h.priority,
                status=h.status,
                generated_by=str(h.generated_by),
                is_fact=h.is_fact,
                evidence=[c.model_dump(mode="json") for c in h.evidence],
                created_at=utcnow(),
            )
        )
        self.audit(
            conn,
            "hypothesis_added",
            "hypothesis",
            h.id,
            None,
            {"statement": h.statement},
            str(h.generated_by),
        )

    def upsert_conflict(self, conn: Connection, c: Conflict) -> None:
        tbl = t.conflicts
        before = (
            conn.execute(select(tbl).where(tbl.c.person_id == c.person_id, tbl.c.field == c.field))
            .mappings()
            .first()
        )
        analysis = c.model_dump(mode="json")
        values = {
            "recommended_assertion_id": c.recommended_assertion_id,
            "is_tentative": c.is_tentative,
            "analysis": analysis,
            "updated_at": utcnow(),
        }
        if before is None:
            conn.execute(
                insert(tbl).values(id=c.id, person_id=c.person_id, field=c.field, **values)
            )
        else:
            conn.execute(update(tbl).where(tbl.c.id == before["id"]).values(**values))
        self.audit(
            conn,
            "conflict_adjudicated",
            "person",
            c.person_id,
            dict(before["analysis"]) if before else None,
            analysis,
            "Analyst",
        )

    def log(self, conn: Connection, entry: LogEntry) -> None:
        conn.execute(
            _LOG_INSERT,
            dict(
                id=entry.id,
                timestamp=entry.timestamp,
                agent=str(entry.agent),
                action_type=entry.action_type,
                rationale=entry.rationale,
                context=entry.context,
                revisit_reason=entry.revisit_reason,
            ),
        )

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
        self._insert(
            conn,
            t.audit_log,
            {
                "action_type": action,
                "entity_type": entity_type,
                "entity_id": entity_id,
                "before_state": _jsonable(before),
                "after_state": _jsonable(after),
                "agent_name": agent,
                "reason": reason,
                "timestamp": utcnow(),
            },
        )

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
