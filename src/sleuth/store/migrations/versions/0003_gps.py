"""gps: evidence_overrides, negative_evidence

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-22

Both tables are append-only, guarded by the same kind of trigger as the raw layer: an
override is changed by a newer row, and an observed absence stays observed.

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | Sequence[str] | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

ID = sa.String(length=32)
APPEND_ONLY = ("evidence_overrides", "negative_evidence")


def upgrade() -> None:
    op.create_table(
        "evidence_overrides",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("citation_id", ID, nullable=False),
        sa.Column("source_class", sa.String(length=16), nullable=True),
        sa.Column("information_class", sa.String(length=16), nullable=True),
        sa.Column("evidence_class", sa.String(length=16), nullable=True),
        sa.Column("question", sa.String(length=16), nullable=True),
        sa.Column("original_snapshot_id", ID, nullable=True),
        sa.Column("set_by", sa.String(length=64), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("length(reason) > 0", name=op.f("ck_evidence_overrides_reason")),
        sa.CheckConstraint(
            "source_class IS NULL OR source_class IN ('original', 'derivative', 'authored')",
            name=op.f("ck_evidence_overrides_source_class"),
        ),
        sa.CheckConstraint(
            "information_class IS NULL OR information_class IN ('primary', 'secondary',"
            " 'undetermined')",
            name=op.f("ck_evidence_overrides_information_class"),
        ),
        sa.CheckConstraint(
            "evidence_class IS NULL OR evidence_class IN ('direct', 'indirect', 'negative')",
            name=op.f("ck_evidence_overrides_evidence_class"),
        ),
        sa.CheckConstraint(
            "question IS NULL OR question IN ('birth', 'death', 'parents', 'marriage')",
            name=op.f("ck_evidence_overrides_question"),
        ),
        sa.ForeignKeyConstraint(
            ["citation_id"], ["citations.id"],
            name=op.f("fk_evidence_overrides_citation_id_citations"),
        ),
        sa.ForeignKeyConstraint(
            ["original_snapshot_id"], ["snapshots.id"],
            name=op.f("fk_evidence_overrides_original_snapshot_id_snapshots"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_evidence_overrides")),
    )
    op.create_index(
        op.f("ix_evidence_overrides_citation_id"), "evidence_overrides", ["citation_id"]
    )
    op.create_table(
        "negative_evidence",
        sa.Column("id", ID, nullable=False),
        sa.Column("person_id", ID, nullable=False),
        sa.Column("question", sa.String(length=16), nullable=False),
        sa.Column("source", sa.String(length=200), nullable=False),
        sa.Column("query", sa.Text(), nullable=False),
        sa.Column("snapshot_id", ID, nullable=False),
        sa.Column("hit_count", sa.Integer(), nullable=False),
        sa.Column("excerpt", sa.Text(), nullable=False),
        sa.Column("char_start", sa.Integer(), nullable=False),
        sa.Column("char_end", sa.Integer(), nullable=False),
        sa.Column("log_seq", sa.Integer(), nullable=True),
        sa.Column("statement", sa.Text(), nullable=False),
        sa.Column("recorded_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint(
            "question IN ('birth', 'death', 'parents', 'marriage')",
            name=op.f("ck_negative_evidence_question"),
        ),
        sa.CheckConstraint("hit_count >= 0", name=op.f("ck_negative_evidence_hit_count")),
        sa.CheckConstraint(
            "char_end >= char_start AND char_start >= 0", name=op.f("ck_negative_evidence_span")
        ),
        sa.ForeignKeyConstraint(
            ["snapshot_id"], ["snapshots.id"],
            name=op.f("fk_negative_evidence_snapshot_id_snapshots"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_negative_evidence")),
        sa.UniqueConstraint(
            "person_id", "question", "snapshot_id", name="person_question_snapshot"
        ),
    )
    op.create_index(op.f("ix_negative_evidence_person_id"), "negative_evidence", ["person_id"])
    for table in APPEND_ONLY:
        if op.get_bind().dialect.name == "postgresql":
            # sleuth_immutable() is installed by the baseline migration.
            op.execute(
                f"CREATE TRIGGER {table}_immutable BEFORE UPDATE OR DELETE ON {table}"
                " FOR EACH ROW EXECUTE FUNCTION sleuth_immutable()"
            )
            continue
        for event, verb in (("UPDATE", "updated"), ("DELETE", "deleted")):
            op.execute(
                f"CREATE TRIGGER {table}_immutable_{event.lower()} BEFORE {event} ON"
                f" {table} BEGIN SELECT RAISE(ABORT, 'immutable: {table} rows"
                f" cannot be {verb}'); END"
            )


def downgrade() -> None:
    op.drop_index(op.f("ix_negative_evidence_person_id"), table_name="negative_evidence")
    op.drop_table("negative_evidence")
    op.drop_index(op.f("ix_evidence_overrides_citation_id"), table_name="evidence_overrides")
    op.drop_table("evidence_overrides")
