"""The research loop's task rows and the hypotheses they follow: every read and write of
the `tasks` table (issue 21: the store is the one door to the database).

`sleuth.loop.queues` keeps the queues' rules (what a task asks, its priority, the novelty
guard); this module keeps their rows. Every change to a task or a hypothesis is audited in
the caller's transaction. The statements are built once: the Lead and the Analyst ask them
every iteration, and building a statement costs SQLAlchemy more than SQLite's answer.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from typing import Any

from sqlalchemy import Connection, and_, bindparam, case, func, insert, or_, select, update

from sleuth.model import utcnow
from sleuth.store import schema as t
from sleuth.store.store import Store


def insert_task(store: Store, conn: Connection, task_id: str, *, task_type: str,
                priority: float, agent_of_task: str, hypothesis_id: str | None, tier: int,
                payload: dict[str, Any], query_hash: str, agent: str) -> None:
    """Queue one task (in the frontier), audited as `task_queued`."""
    conn.execute(_sql()["push"], dict(
        id=task_id, task_type=task_type, priority=priority, assigned_to=[agent_of_task],
        hypothesis_id=hypothesis_id, source_constraint=[tier], completed=False,
        in_frontier=True, payload=payload, created_at=utcnow(), query_hash=query_hash))
    store.audit(conn, "task_queued", "task", task_id, None,
                {"queue": payload.get("queue"), "query": payload.get("query"),
                 "priority": priority}, agent)


def task_payloads(conn: Connection) -> list[dict[str, Any]]:
    """Every task's payload, queued or done (the novelty guard's memory), each with the
    target it was queued with: a search a namesake's task adopted (`FrontierQueue.adopt`)
    was asked for its first person, as the guard of the run that queued it remembers."""
    a = t.audit_log.c
    first: dict[str, Any] = {}
    for eid, before in conn.execute(select(a.entity_id, a.before_state).where(
            a.action_type == "task_reprioritised", a.entity_type == "task").order_by(a.id)):
        if before and "target" in before:
            first.setdefault(str(eid), before["target"])
    return [p if str(i) not in first else {**p, "target": first[str(i)]}
            for i, p in conn.execute(select(t.tasks.c.id, t.tasks.c.payload))]


def started_searches(conn: Connection) -> list[tuple[str, dict[str, Any]]]:
    """Search tasks out of the frontier and not completed (selected, or parked)."""
    return [(str(i), p or {}) for i, p in conn.execute(_sql()["active"])]


def next_search(conn: Connection, *, fifo: bool) -> tuple[str, dict[str, Any]] | None:
    """The frontier's best search task (highest priority, then oldest), or its oldest."""
    row = conn.execute(_sql()["oldest" if fifo else "best"]).first()
    return None if row is None else (str(row[0]), row[1])


def task_row(conn: Connection, task_id: str) -> tuple[dict[str, Any], float, str | None]:
    """A task's payload, priority and hypothesis."""
    row = conn.execute(_sql()["get"], {"tid": task_id}).one()
    return row[0], float(row[1]), row[2]


def set_task(store: Store, conn: Connection, task_id: str, payload: dict[str, Any], *,
             in_frontier: bool, completed: bool, action: str, agent: str) -> None:
    """Move a task (its payload, frontier and completed flags), audited as `action`."""
    before = conn.execute(_sql()["state"], {"tid": task_id}).one()
    conn.execute(_sql()["set"], {"tid": task_id, "new_payload": payload,
                                 "new_in_frontier": in_frontier, "new_completed": completed})
    store.audit(conn, action, "task", task_id,
                {"in_frontier": before[0], "completed": before[1], "state": before[2]},
                {"in_frontier": in_frontier, "completed": completed,
                 "state": payload.get("state"), "outcome": payload.get("outcome")}, agent)


def frontier_searches(conn: Connection) -> list[tuple[Any, ...]]:
    """(id, payload, priority, source tiers) of every search task in the frontier."""
    c = t.tasks.c
    return [tuple(r) for r in conn.execute(select(
        c.id, c.payload, c.priority, c.source_constraint).where(
        c.in_frontier.is_(True), c.task_type == "SearchTask"))]


def same_query(conn: Connection, query_hash: str, below: float) -> list[tuple[Any, ...]]:
    """(id, payload, priority) of frontier searches asking this query, rated below `below`."""
    return [tuple(r) for r in conn.execute(_sql()["same_query"],
                                           {"hash": query_hash, "below": below})]


def rerate_task(store: Store, conn: Connection, task_id: str, priority: float,
                payload: dict[str, Any], *, before: dict[str, Any], after: dict[str, Any],
                agent: str, reason: str = "") -> None:
    """A queued task's new priority and payload, audited as `task_reprioritised`."""
    conn.execute(_sql()["rerate"], {"tid": task_id, "new_priority": priority,
                                    "new_payload": payload})
    store.audit(conn, "task_reprioritised", "task", task_id, before, after, agent, reason)


def park_frontier(store: Store, conn: Connection, reason: str, agent: str) -> int:
    """Every frontier task leaves it, parked with `reason` (kept, each audited): one
    statement for the tasks and one batch for their audit entries. How many."""
    c = t.tasks.c
    rows = conn.execute(select(c.id, c.payload, c.completed).where(
        c.in_frontier.is_(True)).order_by(c.created_at, c.id)).all()
    if not rows:
        return 0
    parked = [{"tid": str(tid), "payload": {**p, "state": "parked", "outcome": reason}}
              for tid, p, _ in rows]
    conn.execute(update(t.tasks).where(c.id == bindparam("tid")).values(
        payload=bindparam("payload", type_=c.payload.type), in_frontier=False,
        completed=False), parked)
    with store.bulk(conn):
        for tid, payload, completed in rows:
            store.audit(conn, "task_parked", "task", str(tid),
                        {"in_frontier": True, "completed": bool(completed),
                         "state": (payload or {}).get("state")},
                        {"in_frontier": False, "completed": False, "state": "parked",
                         "outcome": reason}, agent)
    return len(rows)


def waiting_tasks(conn: Connection) -> list[tuple[str, dict[str, Any]]]:
    """(id, payload) of tasks out of the frontier and not completed, oldest first."""
    c = t.tasks.c
    return [(str(i), p or {}) for i, p in conn.execute(select(c.id, c.payload).where(
        c.in_frontier.is_(False), c.completed.is_(False)).order_by(c.created_at, c.id))]


def queue_counts(conn: Connection) -> tuple[int, int, int]:
    """Frontier tasks: analyses, searches, and the searches that are revisits (the queue
    read from the payload in SQL: no whole payload is read)."""
    analyze, search, revisit = conn.execute(_sql()["sizes"]).one()
    return int(analyze or 0), int(search or 0), int(revisit or 0)


def pending_analyses(conn: Connection) -> list[str]:
    return [str(x) for x in conn.execute(_sql()["analyses"]).scalars()]


def open_clues(conn: Connection) -> int:
    """Hypotheses with a task still queued or active."""
    return int(conn.execute(_sql()["clues"]).scalar_one())


def open_leads(conn: Connection, hypothesis_type: str) -> list[tuple[Any, ...]]:
    """(id, status, target, related) of open hypotheses of one type naming two persons."""
    h = t.hypotheses.c
    return [tuple(r) for r in conn.execute(select(
        h.id, h.status, h.target_person, h.related_person).where(
        h.hypothesis_type == hypothesis_type, h.status.in_(("Pending", "InProgress")),
        h.target_person.is_not(None), h.related_person.is_not(None)).order_by(h.id))]


def followed_hypotheses(conn: Connection) -> list[tuple[Any, ...]]:
    """(id, status) of open hypotheses whose tasks, all of them, are finished."""
    return [tuple(r) for r in conn.execute(_sql()["settled"])]


def complete_hypotheses(store: Store, conn: Connection,
                        done: Iterable[tuple[Any, ...]], agent: str,
                        reason: str) -> None:
    """Each (id, status) becomes Completed, audited with `reason`."""
    h = t.hypotheses.c
    for hid, status in done:
        conn.execute(update(t.hypotheses).where(h.id == hid).values(status="Completed"))
        store.audit(conn, "hypothesis_status", "hypothesis", str(hid), {"status": status},
                    {"status": "Completed"}, agent, reason)


def task_count(conn: Connection) -> int:
    return int(conn.execute(select(func.count()).select_from(t.tasks)).scalar_one())


def task_completed(conn: Connection, task_id: str) -> bool | None:
    """Whether the task is done (None when there is no such task)."""
    done = conn.execute(select(t.tasks.c.completed).where(t.tasks.c.id == task_id)).scalar()
    return None if done is None else bool(done)


def task_states(conn: Connection) -> list[tuple[str, bool, bool, dict[str, Any], float]]:
    """(id, in_frontier, completed, payload, priority) of every task (the invariants)."""
    k = t.tasks.c
    return [(str(i), bool(f), bool(c), p, float(pr)) for i, f, c, p, pr in conn.execute(
        select(k.id, k.in_frontier, k.completed, k.payload, k.priority))]


def search_payloads(conn: Connection) -> list[dict[str, Any]]:
    """Every search task's payload, oldest first (ties by id)."""
    k = t.tasks.c
    return list(conn.execute(select(k.payload).where(k.task_type == "SearchTask").order_by(
        k.created_at, k.id)).scalars())












def unfollowed_clues(conn: Connection, prefix: str) -> list[tuple[Any, ...]]:
    """(id, target, statement) of pending conflict and data-quality (`prefix`) hypotheses
    about a person that no task follows yet."""
    h, k = t.hypotheses.c, t.tasks.c
    return [tuple(r) for r in conn.execute(select(h.id, h.target_person, h.statement).where(
        or_(h.hypothesis_type == "conflict_resolution",
            h.hypothesis_type.like(prefix + "%")), h.status == "Pending",
        h.target_person.is_not(None),
        h.id.not_in(select(k.hypothesis_id).where(k.hypothesis_id.is_not(None))))).all()]


@cache
def _sql() -> dict[str, Any]:
    c, h = t.tasks.c, t.hypotheses.c
    frontier = (c.in_frontier.is_(True), c.task_type == "SearchTask")
    tid = c.id == bindparam("tid")
    in_frontier = c.in_frontier.is_(True)
    search = in_frontier & (c.task_type != "AnalyzeTask")
    open_tasks = select(c.hypothesis_id).where(
        and_(c.completed.is_(False), c.hypothesis_id.is_not(None)))
    return {
        "push": insert(t.tasks),
        "active": select(c.id, c.payload).where(
            c.in_frontier.is_(False), c.completed.is_(False), c.task_type == "SearchTask"),
        "best": select(c.id, c.payload).where(*frontier)
        .order_by(c.priority.desc(), c.created_at, c.id).limit(1),
        "oldest": select(c.id, c.payload).where(*frontier)
        .order_by(c.created_at, c.id).limit(1),
        "get": select(c.payload, c.priority, c.hypothesis_id).where(tid),
        "same_query": select(c.id, c.payload, c.priority).where(
            c.query_hash == bindparam("hash"), *frontier, c.priority < bindparam("below"))
        .order_by(c.created_at, c.id),
        "rerate": update(t.tasks).where(tid).values(
            priority=bindparam("new_priority"),
            payload=bindparam("new_payload", type_=c.payload.type)),
        "sizes": select(
            func.sum(case((in_frontier & (c.task_type == "AnalyzeTask"), 1), else_=0)),
            func.sum(case((search, 1), else_=0)),
            func.sum(case((search & (c.payload["queue"].as_string() == "revisit"), 1),
                          else_=0))).select_from(t.tasks),
        "analyses": select(c.id).where(in_frontier, c.task_type == "AnalyzeTask")
        .order_by(c.created_at, c.id),
        "state": select(c.in_frontier, c.completed, c.payload["state"].as_string()).where(tid),
        "set": update(t.tasks).where(tid).values(
            payload=bindparam("new_payload", type_=c.payload.type),
            in_frontier=bindparam("new_in_frontier"), completed=bindparam("new_completed")),
        "clues": select(func.count(func.distinct(c.hypothesis_id))).where(
            c.hypothesis_id.is_not(None), c.completed.is_(False),
            c.payload["state"].as_string().in_(("queued", "active"))),
        "settled": select(h.id, h.status).where(
            h.status.in_(("Pending", "InProgress")), h.id.not_in(open_tasks),
            h.id.in_(select(c.hypothesis_id).where(c.hypothesis_id.is_not(None)))),
    }


def payloads_by_id(conn: Connection) -> dict[str, dict[str, Any]]:
    """Every task's payload by its id (the research log names the task of each access)."""
    c = t.tasks.c
    return {str(i): p for i, p in conn.execute(select(c.id, c.payload))}
