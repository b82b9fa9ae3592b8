"""sources: http_cache, source_state, source_consents

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-23

`source_consents` is append-only (a revocation is a new row), guarded by the same kind of
trigger as the raw layer.

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | Sequence[str] | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

ID = sa.String(length=32)


def upgrade() -> None:
    op.create_table(
        "http_cache",
        sa.Column("key", sa.String(length=64), nullable=False),
        sa.Column("url", sa.Text(), nullable=False),
        sa.Column("source_id", sa.String(length=64), nullable=False),
        sa.Column("etag", sa.Text(), nullable=True),
        sa.Column("last_modified", sa.Text(), nullable=True),
        sa.Column("snapshot_id", ID, nullable=False),
        sa.Column("status", sa.Integer(), nullable=False),
        sa.Column("fetched_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["snapshot_id"], ["snapshots.id"], name=op.f("fk_http_cache_snapshot_id_snapshots")
        ),
        sa.PrimaryKeyConstraint("key", name=op.f("pk_http_cache")),
    )
    op.create_index(op.f("ix_http_cache_source_id"), "http_cache", ["source_id"])
    op.create_table(
        "source_state",
        sa.Column("source_id", sa.String(length=64), nullable=False),
        sa.Column("circuit", sa.String(length=16), nullable=False),
        sa.Column("failures", sa.Integer(), nullable=False),
        sa.Column("opened_at", sa.Float(), nullable=True),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint(
            "circuit IN ('closed', 'open', 'half_open')", name=op.f("ck_source_state_circuit")
        ),
        sa.PrimaryKeyConstraint("source_id", name=op.f("pk_source_state")),
    )
    op.create_table(
        "source_consents",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("source_id", sa.String(length=64), nullable=False),
        sa.Column("action", sa.String(length=32), nullable=False),
        sa.Column("granted", sa.Boolean(), nullable=False),
        sa.Column("granted_by", sa.String(length=64), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("length(reason) > 0", name=op.f("ck_source_consents_reason")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_source_consents")),
    )
    op.create_index(op.f("ix_source_consents_source_id"), "source_consents", ["source_id"])
    if op.get_bind().dialect.name == "postgresql":
        # sleuth_immutable() is installed by the baseline migration.
        op.execute(
            "CREATE TRIGGER source_consents_immutable BEFORE UPDATE OR DELETE ON source_consents"
            " FOR EACH ROW EXECUTE FUNCTION sleuth_immutable()"
        )
    else:
        for event, verb in (("UPDATE", "updated"), ("DELETE", "deleted")):
            op.execute(
                f"CREATE TRIGGER source_consents_immutable_{event.lower()} BEFORE {event} ON"
                f" source_consents BEGIN SELECT RAISE(ABORT, 'immutable: source_consents rows"
                f" cannot be {verb}'); END"
            )


def downgrade() -> None:
    op.drop_table("source_consents")
    op.drop_table("source_state")
    op.drop_index(op.f("ix_http_cache_source_id"), table_name="http_cache")
    op.drop_table("http_cache")
