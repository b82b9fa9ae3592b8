"""task queue indexes

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-27

The Lead asks the task table the same questions every iteration: how many tasks wait in
each queue, which waiting search comes next, which clues still have open tasks. Without
an index each question read every task ever queued (thousands in a 1,000-person case),
several times an iteration (issue 19: research CPU per request). Two indexes answer them:
the frontier by (in_frontier, task_type, priority), and tasks by the clue they follow.

"""

from collections.abc import Sequence

from alembic import op

revision: str = "0008"
down_revision: str | Sequence[str] | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index("ix_tasks_frontier", "tasks", ["in_frontier", "task_type", "priority"])
    op.create_index("ix_tasks_hypothesis_id", "tasks", ["hypothesis_id"])


def downgrade() -> None:
    op.drop_index("ix_tasks_hypothesis_id", table_name="tasks")
    op.drop_index("ix_tasks_frontier", table_name="tasks")
