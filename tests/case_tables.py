"""Table contents of a case, for comparing two cases row for row (issue 26: a case worked
by two processes at once must equal one worked by one).

Clock readings (every DateTime column) and the columns a test names are left out; JSON is
compared as canonical text; rows are compared as sorted lists, so the order rows were
written in does not matter, only what they say."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from sqlalchemy import DateTime, select

from sleuth.store import Store
from sleuth.store import schema as t

Row = tuple[Any, ...]


def _plain(v: Any) -> Any:
    if isinstance(v, dict | list):
        return json.dumps(v, sort_keys=True, ensure_ascii=False)
    if isinstance(v, float):
        return round(v, 9)
    return v


def table_rows(store: Store, name: str, drop: Iterable[str] = (),
               fix: Callable[[dict[str, Any]], dict[str, Any]] | None = None) -> list[Row]:
    """The rows of table `name`, without clock readings or the columns in `drop`;
    `fix` may rewrite a row (as a dict) first, e.g. to take out a measured time."""
    table = t.metadata.tables[name]
    skip = set(drop)
    cols = [c for c in table.columns
            if c.name not in skip and not isinstance(c.type, DateTime)]
    with store.engine.connect() as conn:
        rows = [dict(zip([c.name for c in cols], r, strict=True))
                for r in conn.execute(select(*cols))]
    if fix is not None:
        rows = [fix(r) for r in rows]
    return sorted((tuple(_plain(r[k]) for k in sorted(r)) for r in rows), key=repr)


def case_tables(store: Store, names: Iterable[str],
                drop: Mapping[str, Iterable[str]] | None = None,
                fix: Mapping[str, Callable[[dict[str, Any]], dict[str, Any]]] | None = None
                ) -> dict[str, list[Row]]:
    """`table_rows` for each table named."""
    drop, fix = drop or {}, fix or {}
    return {n: table_rows(store, n, drop.get(n, ()), fix.get(n)) for n in names}


def first_difference(a: dict[str, list[Row]], b: dict[str, list[Row]],
                     width: int = 600) -> str:
    """A short note on where two cases' tables differ ('' when they do not)."""
    for name in sorted(set(a) | set(b)):
        ra, rb = a.get(name, []), b.get(name, [])
        if ra != rb:
            only_a = [r for r in ra if r not in rb][:2]
            only_b = [r for r in rb if r not in ra][:2]
            return (f"{name}: {len(ra)} rows vs {len(rb)}; only in the first {only_a!r:.{width}}; "
                    f"only in the second {only_b!r:.{width}}")
    return ""


def stored_snapshots(case: Path) -> int:
    """How many snapshots the case folder `case` holds (refused input must store none)."""
    from sleuth.store import counts

    store = Store.open_case(case)
    try:
        return counts(store)["snapshots"]
    finally:
        store.close()
