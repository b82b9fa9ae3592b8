"""agent task lineage and turn

Revision ID: 0013
Revises: 0010
Create Date: 2026-12-03

Several `sleuth work` workers may share a case (issue 26, item 1). What a worker draws and
in which order a serial task type runs must not depend on which worker committed first:

- `lineage`: where a task stands in the tree of tasks that queued it, fixed when it is
  queued ("0000000003" for the third task ingest queued, "0000000003.000002" for the second
  task that one queued). A serial task type (the documents domain's metadata agent, whose
  entity register depends on the order documents are read) runs in lineage order, one at
  a time, whichever worker takes it.
- `turn`: how many times the task went back to wait for the tasks it queued; the ids a
  task's run draws are named by the task and its turn (was: its `seq`, which is the order
  of commits and so differs between a run with one worker and a run with two).

Existing rows get a lineage from their place in the queue and turn 0.

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: str | Sequence[str] | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("agent_tasks", sa.Column("lineage", sa.Text(), nullable=False,
                                           server_default=""))
    op.add_column("agent_tasks", sa.Column("turn", sa.Integer(), nullable=False,
                                           server_default="0"))
    tasks = sa.table("agent_tasks", sa.column("id"), sa.column("seq"),
                     sa.column("parent_id"), sa.column("lineage"))
    conn = op.get_bind()
    query = sa.select(tasks.c.id, tasks.c.seq, tasks.c.parent_id).order_by(tasks.c.seq)
    rows: list[tuple[str, int, str | None]] = [(r[0], r[1], r[2])
                                               for r in conn.execute(query)]
    ids = {tid for tid, _, _ in rows}
    lineage: dict[str, str] = {}
    born: dict[str, int] = {}
    left = list(rows)
    while left:  # parents first: a requeued parent's seq is now after its children's
        later: list[tuple[str, int, str | None]] = []
        for tid, seq, parent in left:
            if parent is None or parent not in ids:
                lineage[tid] = f"{int(seq):010d}"
            elif parent in lineage:
                born[parent] = born.get(parent, 0) + 1
                lineage[tid] = f"{lineage[parent]}.{born[parent]:06d}"
            else:
                later.append((tid, seq, parent))
        if len(later) == len(left):  # a cycle cannot be queued; stop rather than loop
            for tid, seq, _ in later:
                lineage[tid] = f"{int(seq):010d}"
            break
        left = later
    for tid, value in lineage.items():
        conn.execute(sa.update(tasks).where(tasks.c.id == tid).values(lineage=value))
    op.create_index("ix_agent_tasks_lineage", "agent_tasks", ["task_type", "lineage"])


def downgrade() -> None:
    op.drop_index("ix_agent_tasks_lineage", table_name="agent_tasks")
    with op.batch_alter_table("agent_tasks") as batch:
        batch.drop_column("turn")
        batch.drop_column("lineage")
