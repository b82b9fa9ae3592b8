"""task query hash

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-26

A search task's question, normalised and hashed (`loop.queues.query_hash`), as an indexed
column: the Lead asks "is this very question queued already?" for every person a record
names, and reading every queued task's JSON to answer it cost more than the search itself
in a large case (issue 19). Existing tasks get theirs from their payload.

"""

import hashlib
import json
import re
import unicodedata
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | Sequence[str] | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _fold(s: str) -> str:  # `loop.queues._fold`, frozen here as this revision had it
    s = unicodedata.normalize("NFKD", s)
    s = "".join(ch for ch in s if not unicodedata.combining(ch)).lower()
    return " ".join(re.sub(r"[^\w\s]", " ", s).split())


def _hash(p: dict) -> str:  # `loop.queues.query_hash` of the payload's TaskSpec
    parts = sorted(f"{k}={_fold(str(v))}" for k, v in (p.get("values") or {}).items()
                   if v not in (None, ""))
    key = "|".join([str(p.get("source") or ""), str(p.get("action") or ""),
                    p.get("endpoint") or "", str(p.get("page") or 0), *parts])
    return hashlib.sha256(key.encode()).hexdigest()[:32]


def upgrade() -> None:
    op.add_column("tasks", sa.Column("query_hash", sa.String(length=32), nullable=True))
    op.create_index("ix_tasks_query_hash", "tasks", ["query_hash"])
    conn = op.get_bind()
    tasks = sa.table("tasks", sa.column("id", sa.String), sa.column("payload", sa.JSON),
                     sa.column("query_hash", sa.String))
    for tid, payload in conn.execute(sa.select(tasks.c.id, tasks.c.payload)).all():
        p = json.loads(payload) if isinstance(payload, str) else (payload or {})
        conn.execute(sa.update(tasks).where(tasks.c.id == tid).values(query_hash=_hash(p)))


def downgrade() -> None:
    op.drop_index("ix_tasks_query_hash", table_name="tasks")
    with op.batch_alter_table("tasks") as batch:
        batch.drop_column("query_hash")
