"""source holds

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-01

A long Retry-After no longer freezes a fetch (issue 26, bounded waiting): a source whose
server asks for a pause past the source's cap is set aside, its circuit open until the time
the server stated. That time is kept per case in `source_holds`, beside the circuit's own
row in `source_state`, so a resumed run does not ask before it either.

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | Sequence[str] | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "source_holds",
        sa.Column("source_id", sa.String(length=64), nullable=False),
        sa.Column("open_until", sa.Float(), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("source_id", name=op.f("pk_source_holds")),
    )


def downgrade() -> None:
    op.drop_table("source_holds")
