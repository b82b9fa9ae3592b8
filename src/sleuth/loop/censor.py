"""The Censor node (seed 001 CensorValidateOutput): nothing leaves the loop unchecked.

After each task: anyone the Z rule says is living (born under 100 years ago, no death) is
flagged `is_living` (audited; the flag only ever protects more, every output path honours
it), and the research log's new entries are written to JSONL with PII and the names of the
living masked. Source access was already gated by the fetcher (CensorCheckSourceAccess).
"""

from __future__ import annotations

from datetime import date
from typing import Any

from sqlalchemy import Connection

from sleuth.export import log_jsonl
from sleuth.loop.runtime import Runtime
from sleuth.loop.state import LoopState
from sleuth.model import Agent, LogEntry
from sleuth.store.blackboard import living_names, unflagged_young

CENSOR = str(Agent.CENSOR)


def flag_living(rt: Runtime, conn: Connection, today: date | None = None) -> list[str]:
    today = today or date.today()
    cutoff = f"{today.year - 100:04d}-{today.month:02d}-{today.day:02d}"
    ids = unflagged_young(conn, cutoff)
    for pid in ids:
        rt.store.set_person(conn, pid, CENSOR, is_living=True)
    if ids:
        rt.store.log(conn, LogEntry(agent=Agent.CENSOR, action_type="censor",
                                    rationale="Living person PII redacted",
                                    context={"flagged_living": len(ids)}))
    return ids


def censor(rt: Runtime, state: LoopState) -> dict[str, Any]:
    with rt.store.transaction() as conn:
        flag_living(rt, conn)
        names = living_names(conn)
    log_jsonl.append(rt.store, rt.case_dir, names)
    return {}
