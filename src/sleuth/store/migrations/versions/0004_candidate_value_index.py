"""candidate value index

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-22

Promotion asks whether an identical, dated record line (a register row read once in a search
response and again in the whole register) already named a person; that lookup goes by the
candidate's value. PostgreSQL gets a hash index (a B-tree entry cannot hold a long value).

"""

from collections.abc import Sequence

from alembic import op

revision: str = "0004"
down_revision: str | Sequence[str] | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index("ix_candidates_value", "candidates", ["value"], unique=False,
                    postgresql_using="hash")


def downgrade() -> None:
    op.drop_index("ix_candidates_value", table_name="candidates")
