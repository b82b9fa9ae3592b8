"""hypothesis related person

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-23

A same-person hypothesis ("Mary Hatherley, daughter of Thomas Henry Cole, may be Mary Cole")
is about two persons: the one it targets and the one it proposes. The second is what the
Lead follows while the hypothesis is tested, so it is a column, not words in the statement.

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | Sequence[str] | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("hypotheses", sa.Column("related_person", sa.String(length=32),
                                          nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("hypotheses") as batch:
        batch.drop_column("related_person")
