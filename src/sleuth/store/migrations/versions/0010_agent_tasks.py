"""agent tasks and the documents domain's facts

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-02

The documents domain (issue 22, seed 004): `agent_tasks`, the blackboard its agents meet
on (status, timestamps, input, `output_data`, a lease so a killed worker's task is taken
again), and what the agents write: `doc_processes` (stage and explanation), `doc_events`
and `doc_entities` with `doc_mentions`. An event or a mention without a page, or with an
excerpt outside 50-200 characters, is refused by the database itself.

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | Sequence[str] | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_TS = sa.DateTime(timezone=True)
_ID = sa.String(length=32)


def upgrade() -> None:
    op.create_table(
        "agent_tasks",
        sa.Column("id", _ID, nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("task_type", sa.String(length=40), nullable=False),
        sa.Column("agent", sa.String(length=40), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("snapshot_id", _ID, nullable=True),
        sa.Column("parent_id", _ID, nullable=True),
        sa.Column("input", sa.JSON(), nullable=False),
        sa.Column("output_data", sa.JSON(), nullable=True),
        sa.Column("error", sa.Text(), nullable=True),
        sa.Column("created_at", _TS, nullable=False),
        sa.Column("started_at", _TS, nullable=True),
        sa.Column("completed_at", _TS, nullable=True),
        sa.Column("claimed_by", sa.String(length=64), nullable=True),
        sa.Column("lease_until", _TS, nullable=True),
        sa.CheckConstraint("status IN ('pending', 'running', 'completed', 'failed')",
                           name=op.f("ck_agent_tasks_status")),
        sa.ForeignKeyConstraint(["snapshot_id"], ["snapshots.id"],
                                name=op.f("fk_agent_tasks_snapshot_id_snapshots")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_agent_tasks")),
        sa.UniqueConstraint("seq", name=op.f("uq_agent_tasks_seq")),
    )
    op.create_index("ix_agent_tasks_status", "agent_tasks", ["status", "seq"])
    op.create_index(op.f("ix_agent_tasks_snapshot_id"), "agent_tasks", ["snapshot_id"])
    op.create_index(op.f("ix_agent_tasks_parent_id"), "agent_tasks", ["parent_id"])
    op.create_table(
        "doc_processes",
        sa.Column("id", _ID, nullable=False),
        sa.Column("snapshot_id", _ID, nullable=False),
        sa.Column("designation", sa.Text(), nullable=False),
        sa.Column("document_kind", sa.String(length=16), nullable=False),
        sa.Column("stage", sa.String(length=16), nullable=True),
        sa.Column("explanation", sa.Text(), nullable=True),
        sa.Column("updated_at", _TS, nullable=False),
        sa.ForeignKeyConstraint(["snapshot_id"], ["snapshots.id"],
                                name=op.f("fk_doc_processes_snapshot_id_snapshots")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_doc_processes")),
        sa.UniqueConstraint("snapshot_id", name=op.f("uq_doc_processes_snapshot_id")),
    )
    op.create_table(
        "doc_events",
        sa.Column("id", _ID, nullable=False),
        sa.Column("snapshot_id", _ID, nullable=False),
        sa.Column("task_id", _ID, nullable=False),
        sa.Column("event_type", sa.String(length=32), nullable=False),
        sa.Column("description", sa.Text(), nullable=False),
        sa.Column("date", sa.String(length=32), nullable=False),
        sa.Column("earliest", sa.String(length=10), nullable=True),
        sa.Column("latest", sa.String(length=10), nullable=True),
        sa.Column("page", sa.Integer(), nullable=False),
        sa.Column("page_label", sa.String(length=32), nullable=False),
        sa.Column("excerpt", sa.Text(), nullable=False),
        sa.Column("char_start", sa.Integer(), nullable=False),
        sa.Column("char_end", sa.Integer(), nullable=False),
        sa.Column("actors", sa.JSON(), nullable=False),
        sa.CheckConstraint("page IS NOT NULL AND page >= 1", name=op.f("ck_doc_events_page")),
        sa.CheckConstraint("length(excerpt) BETWEEN 50 AND 200",
                           name=op.f("ck_doc_events_excerpt")),
        sa.ForeignKeyConstraint(["snapshot_id"], ["snapshots.id"],
                                name=op.f("fk_doc_events_snapshot_id_snapshots")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_doc_events")),
        sa.UniqueConstraint("snapshot_id", "event_type", "date",
                            name=op.f("uq_doc_events_snapshot_id")),
    )
    op.create_index(op.f("ix_doc_events_snapshot_id"), "doc_events", ["snapshot_id"])
    op.create_table(
        "doc_entities",
        sa.Column("id", _ID, nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("name", sa.Text(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("key", sa.Text(), nullable=False),
        sa.Column("variants", sa.JSON(), nullable=False),
        sa.CheckConstraint("kind IN ('person', 'agency', 'ministry', 'committee')",
                           name=op.f("ck_doc_entities_kind")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_doc_entities")),
        sa.UniqueConstraint("seq", name=op.f("uq_doc_entities_seq")),
    )
    op.create_table(
        "doc_mentions",
        sa.Column("id", _ID, nullable=False),
        sa.Column("entity_id", _ID, nullable=False),
        sa.Column("snapshot_id", _ID, nullable=False),
        sa.Column("task_id", _ID, nullable=False),
        sa.Column("name", sa.Text(), nullable=False),
        sa.Column("role", sa.String(length=16), nullable=False),
        sa.Column("role_text", sa.Text(), nullable=False),
        sa.Column("page", sa.Integer(), nullable=False),
        sa.Column("page_label", sa.String(length=32), nullable=False),
        sa.Column("excerpt", sa.Text(), nullable=False),
        sa.Column("char_start", sa.Integer(), nullable=False),
        sa.Column("char_end", sa.Integer(), nullable=False),
        sa.Column("name_start", sa.Integer(), nullable=False),
        sa.Column("name_end", sa.Integer(), nullable=False),
        sa.CheckConstraint("role IN ('chair', 'member', 'expert', 'secretary', 'minister', "
                           "'other')", name=op.f("ck_doc_mentions_role")),
        sa.CheckConstraint("page IS NOT NULL AND page >= 1", name=op.f("ck_doc_mentions_page")),
        sa.CheckConstraint("length(excerpt) BETWEEN 50 AND 200",
                           name=op.f("ck_doc_mentions_excerpt")),
        sa.ForeignKeyConstraint(["entity_id"], ["doc_entities.id"],
                                name=op.f("fk_doc_mentions_entity_id_doc_entities")),
        sa.ForeignKeyConstraint(["snapshot_id"], ["snapshots.id"],
                                name=op.f("fk_doc_mentions_snapshot_id_snapshots")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_doc_mentions")),
        sa.UniqueConstraint("snapshot_id", "name_start", "name_end", "role",
                            name=op.f("uq_doc_mentions_snapshot_id")),
    )
    op.create_index(op.f("ix_doc_mentions_entity_id"), "doc_mentions", ["entity_id"])
    op.create_index(op.f("ix_doc_mentions_snapshot_id"), "doc_mentions", ["snapshot_id"])


def downgrade() -> None:
    for table in ("doc_mentions", "doc_entities", "doc_events", "doc_processes"):
        op.drop_table(table)
    op.drop_index("ix_agent_tasks_status", table_name="agent_tasks")
    op.drop_table("agent_tasks")
