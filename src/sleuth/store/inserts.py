"""Writing queued rows (`sleuth.store.batch`): one executemany a table, the parameters
built as SQLAlchemy's own bind processors would build them, a column at a time."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from datetime import datetime
from operator import attrgetter, itemgetter
from typing import Any

from sqlalchemy import JSON, Connection, DateTime, Table, insert


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


def insert_values(conn: Connection, table: Table, columns: tuple[str, ...],
                  rows: list[tuple[Any, ...]]) -> None:
    """`insert_rows` of rows given as values in `columns`' order: on SQLite each column
    that needs a bind processor is processed a column at a time (`_fast_processor`), as
    `insert_rows` does, and the row tuples are put back together in C."""
    if conn.dialect.name != "sqlite" or conn.dialect.paramstyle != "qmark":
        conn.execute(insert(table), [dict(zip(columns, r, strict=True)) for r in rows])
        return
    sql, procs = _compiled_values(conn, table, columns)
    cols: list[Sequence[Any]] = list(zip(*rows, strict=True))
    for i, process in procs:
        cols[i] = process(list(cols[i]))
    conn.exec_driver_sql(sql, list(zip(*cols, strict=True)))


def execute_many(conn: Connection, stmt: Any, params: list[dict[str, Any]]) -> None:
    """`conn.execute(stmt, params)` for a statement of bound parameters only, each typed
    (a queued UPDATE of given columns: a large tree's every person's sex). On SQLite its
    SQL as SQLAlchemy compiles it is run by the driver, each parameter processed by its
    type's own bind processor a column at a time (`_fast_processor`), without SQLAlchemy's
    per-row parameter bookkeeping; otherwise, or for an untyped parameter, as given."""
    compiled = stmt.compile(dialect=conn.dialect)
    names = list(compiled.positiontup or ())
    binds = compiled.binds
    if (conn.dialect.name != "sqlite" or conn.dialect.paramstyle != "qmark" or not names
            or any(binds[n].type._isnull for n in names)
            or any(n not in p for p in params for n in names)):
        conn.execute(stmt, params)
        return
    cols: list[Sequence[Any]] = [list(map(itemgetter(n), params)) for n in names]
    for i, n in enumerate(names):
        if (process := _fast_processor(binds[n].type, conn.dialect)) is not None:
            cols[i] = process(list(cols[i]))
    conn.exec_driver_sql(str(compiled), list(zip(*cols, strict=True)))


_COMPILED_VALUES: dict[tuple[int, Table, tuple[str, ...]],
                       tuple[str, list[tuple[int, Callable[[list[Any]], list[Any]]]]]] = {}


def _compiled_values(conn: Connection, table: Table, columns: tuple[str, ...]
                     ) -> tuple[str, list[tuple[int, Callable[[list[Any]], list[Any]]]]]:
    """The INSERT of `columns` in their order, and the bind processor of each column that
    has one, by its position."""
    key = (id(conn.dialect), table, columns)
    got = _COMPILED_VALUES.get(key)
    if got is None:
        quote = conn.dialect.identifier_preparer
        sql = (f"INSERT INTO {quote.format_table(table)} "
               f"({', '.join(quote.quote(c) for c in columns)}) "
               f"VALUES ({', '.join('?' * len(columns))})")
        procs = [(i, p) for i, c in enumerate(columns)
                 if (p := _fast_processor(table.c[c].type, conn.dialect)) is not None]
        got = _COMPILED_VALUES[key] = (sql, procs)
    return got


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
