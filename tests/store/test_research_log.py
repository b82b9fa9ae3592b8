"""`research_log.fetched_for`, asked on every cache hit of a resumed run: it gives what a
scan of the whole log gives, and on SQLite it reads along the `seq` index (a scan per hit
made a long replay quadratic)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import event

from sleuth.model import Agent, LogEntry
from sleuth.store import Store, research_log


def _scanned(store: Store, task_id: str, snapshot_id: str) -> int | None:
    """The answer as the whole log says it (the former reading)."""
    with store.engine.connect() as conn:
        selected = [seq for seq, ctx in research_log.action_entries(conn, "Lead", "select")
                    if ctx.get("task") == task_id]
        fetched = research_log.action_entries(conn, "Scout", "fetch")
    if not selected:
        return None
    made = [ctx for seq, ctx in fetched
            if seq > max(selected) and ctx.get("snapshot_id") == snapshot_id]
    return sum(int(ctx.get("requests") or 0) for ctx in made) if made else None


def _replay(store: Store) -> None:
    """A loop's log: each task selected, fetched, its access logged; t2 fetched twice (a
    redirect's second request), t3 selected again after a kill, t4 never fetched, s1 fetched
    for t1 and again for t5 (a cache hit of an earlier task's page)."""
    steps: list[tuple[Agent, str, dict[str, Any]]] = []
    for task, fetches in (("t1", [("s1", 2)]), ("t2", [("s2", 1), ("s2", None)]),
                          ("t3", [("s3", 1)]), ("t3", [("s3", 3)]), ("t4", []),
                          ("t5", [("s1", 1)])):
        steps.append((Agent.LEAD, "select", {"task": task, "priority": 1.0}))
        steps += [(Agent.SCOUT, "fetch", {"snapshot_id": s, "requests": n}) for s, n in fetches]
        steps.append((Agent.SCOUT, "source_access", {"task": task, "requests": 9}))
    with store.transaction() as conn:
        for agent, action, context in steps:
            store.log(conn, LogEntry(agent=agent, action_type=action, context=context))


def test_fetched_for_gives_what_the_whole_log_gives(store: Store) -> None:
    _replay(store)
    with store.engine.connect() as conn:
        for task in ("t1", "t2", "t3", "t4", "t5", "t6"):
            for snap in ("s1", "s2", "s3", "s4"):
                assert research_log.fetched_for(conn, task, snap) == _scanned(store, task, snap)
        assert [research_log.fetched_for(conn, t, s) for t, s in (
            ("t1", "s1"), ("t2", "s2"), ("t3", "s3"), ("t5", "s1"), ("t4", "s2"))] == [
            3, 1, 3, 1, None]


def test_fetched_for_reads_along_the_seq_index() -> None:
    store = Store.open_url("sqlite://")
    statements: list[tuple[str, Any]] = []

    def seen(_conn: Any, _cursor: Any, sql: str, params: Any, *_: Any) -> None:
        statements.append((sql, params))

    try:
        _replay(store)
        with store.engine.connect() as conn:
            event.listen(conn, "before_cursor_execute", seen)
            assert research_log.fetched_for(conn, "t3", "s3") == 3
            event.remove(conn, "before_cursor_execute", seen)
            plans = [" ".join(str(row[-1]) for row in conn.exec_driver_sql(
                f"EXPLAIN QUERY PLAN {sql}", params)) for sql, params in statements]
    finally:
        store.close()
    # the unique constraint's index on seq (SQLite names it), no sort of the log
    assert len(plans) == 2, plans
    assert all("USING INDEX" in p and "TEMP B-TREE" not in p for p in plans), plans
