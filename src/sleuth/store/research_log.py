"""Reads of the research log (issue 21: the store is the one door to the database).

The log is append-only and the store, not the loop's checkpoint, is the truth after a
crash: the loop asks it what was already planned, decided, fetched or ended, so a resumed
run neither repeats nor skips a step. Writes go through `Store.log`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from sqlalchemy import Connection, select

from sleuth.store import schema as t


def contexts(conn: Connection, agent: str, action_type: str, *,
             newest_first: bool = False) -> Iterator[dict[str, Any]]:
    """The context of each entry one agent logged as one action, in log order (or newest
    first); an entry without context gives an empty dict."""
    r = t.research_log.c
    order = r.seq.desc() if newest_first else r.seq
    for (context,) in conn.execute(select(r.context).where(
            r.agent == agent, r.action_type == action_type).order_by(order)):
        yield context or {}


def last_context(conn: Connection, agent: str, action_type: str) -> dict[str, Any] | None:
    """The newest such entry's context; None when there is no entry or it has no context."""
    r = t.research_log.c
    context: dict[str, Any] | None = conn.execute(select(r.context).where(
        r.agent == agent, r.action_type == action_type).order_by(
        r.seq.desc()).limit(1)).scalar()
    return context


def entries_after(conn: Connection, after: int) -> Iterator[dict[str, Any]]:
    """Whole entries past sequence number `after`, in order (the JSONL mirror's feed)."""
    r = t.research_log.c
    rows = conn.execute(select(t.research_log).where(r.seq > after).order_by(r.seq))
    for m in rows.mappings():
        yield dict(m)


def actions_after(conn: Connection, after: int,
                  actions: tuple[str, ...]) -> Iterator[tuple[int, str, dict[str, Any]]]:
    """(seq, action, context) of entries of these actions past `after`, in order."""
    r = t.research_log.c
    for seq, action, ctx in conn.execute(select(r.seq, r.action_type, r.context).where(
            r.seq > after, r.action_type.in_(actions)).order_by(r.seq)):
        yield int(seq), str(action), ctx or {}


def revisit_reasons(conn: Connection) -> list[tuple[int, str | None]]:
    """(seq, reason) of every revisit entry (the loop's invariants check the reasons)."""
    r = t.research_log.c
    return [(int(s), reason) for s, reason in conn.execute(
        select(r.seq, r.revisit_reason).where(r.action_type == "revisit"))]


def action_entries(conn: Connection, agent: str,
                   action_type: str) -> list[tuple[int, dict[str, Any]]]:
    """(seq, context) of each entry one agent logged as one action, unordered."""
    r = t.research_log.c
    return [(int(s), ctx or {}) for s, ctx in conn.execute(select(r.seq, r.context).where(
        r.action_type == action_type, r.agent == agent))]


def decisions_of(conn: Connection, agent: str, but: str) -> list[dict[str, Any]]:
    """Every entry one agent logged, except those of action `but`, in log order:
    seq, timestamp (as text), action type, rationale and context (the privacy report's
    compliance record)."""
    r = t.research_log
    rows = conn.execute(select(r).where(r.c.agent == agent).where(r.c.action_type != but)
                        .order_by(r.c.seq)).mappings()
    return [{"seq": m["seq"], "timestamp": str(m["timestamp"]),
             "action_type": m["action_type"], "rationale": m["rationale"],
             "context": m["context"] or {}} for m in rows]


def seq_where(conn: Connection, agent: str, action_type: str, key: str,
              value: Any) -> int | None:
    """The sequence number of the first entry of this agent and action whose context has
    `key` = `value`, or None."""
    hits = [seq for seq, ctx in action_entries(conn, agent, action_type) if ctx.get(key) == value]
    return min(hits, default=None)


def permits_since(conn: Connection, source: str, after: int) -> set[str]:
    """The actions the gates permitted for `source` in entries past `after` (logged once a
    session: a resumed session knows what its killed part logged)."""
    return {str(ctx.get("action")) for seq, ctx in action_entries(conn, "Censor", "source_access")
            if seq > after and ctx.get("source") == source and ctx.get("allowed")}


def fetched_for(conn: Connection, task_id: str, snapshot_id: str) -> int | None:
    """The requests of the fetches of `snapshot_id` logged since the Lead selected
    `task_id`, or None when there were none (the task's own fetch, which a killed process
    committed before the task was done: a resumed task finds it in the cache).

    Asked on every cache hit, so both reads walk the unique `seq` index from the end: the
    selection is the newest (or nearly) and the fetches follow it. Reading every selection
    and fetch in Python instead made a long replay quadratic."""
    r = t.research_log.c
    picked = conn.execute(select(r.seq).where(
        r.agent == "Lead", r.action_type == "select", r.context["task"].as_string() == task_id,
    ).order_by(r.seq.desc()).limit(1)).scalar()
    if picked is None:
        return None
    made = [ctx for (ctx,) in conn.execute(select(r.context).where(
        r.seq > picked, r.agent == "Scout", r.action_type == "fetch"))
        if (ctx or {}).get("snapshot_id") == snapshot_id]
    return sum(int(ctx.get("requests") or 0) for ctx in made) if made else None
