"""What the privacy report shows of the compliance record: the Censor's research-log
entries (its PII findings, its consent and terms-of-service decisions) and the tier
permissions. Entries are written through `Store.log` (append-only)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, select

from sleuth.store import schema as t


def logged_contexts(conn: Connection, agent: str, action_type: str) -> list[Any]:
    """The context of each entry one agent logged as one action (None where it has
    none), in no particular order."""
    r = t.research_log.c
    return list(conn.execute(select(r.context).where(
        r.agent == agent, r.action_type == action_type)).scalars())


def decisions_of(conn: Connection, agent: str, but: str) -> list[dict[str, Any]]:
    """Every entry one agent logged, except those of action `but`, in log order:
    seq, timestamp (as text), action type, rationale and context."""
    r = t.research_log
    rows = conn.execute(select(r).where(r.c.agent == agent).where(r.c.action_type != but)
                        .order_by(r.c.seq)).mappings()
    return [{"seq": m["seq"], "timestamp": str(m["timestamp"]),
             "action_type": m["action_type"], "rationale": m["rationale"],
             "context": m["context"] or {}} for m in rows]


def tier_permissions(conn: Connection) -> list[dict[str, Any]]:
    """Each tier's recorded permission, by tier: {"tier", "allowed"}."""
    p = t.source_permissions
    return [{"tier": r.tier, "allowed": bool(r.allowed)}
            for r in conn.execute(select(p).order_by(p.c.tier))]
