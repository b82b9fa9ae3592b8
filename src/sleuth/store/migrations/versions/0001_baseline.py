"""baseline: raw, staging, core, log and audit tables

Revision ID: 0001
Revises:
Create Date: 2026-11-22

The triggers that make the raw layer append-only and keep the Z invariants are installed
here too (sleuth.store.dialect), so every case database carries its own guards.

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from sleuth.store.dialect import install_guards

# revision identifiers, used by Alembic.
revision: str = "0001"
down_revision: str | Sequence[str] | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Upgrade schema."""
    op.create_table(
        "assertions",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("entity_id", sa.String(length=32), nullable=False),
        sa.Column("entity_type", sa.String(length=16), nullable=False),
        sa.Column("field_name", sa.String(length=64), nullable=False),
        sa.Column("value", sa.Text(), nullable=False),
        sa.Column("date", sa.JSON(), nullable=True),
        sa.Column("date_earliest", sa.String(length=10), nullable=True),
        sa.Column("date_latest", sa.String(length=10), nullable=True),
        sa.Column("related_id", sa.String(length=32), nullable=True),
        sa.Column("confidence", sa.Float(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("candidate_id", sa.String(length=32), nullable=True),
        sa.Column("asserted_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint(
            "status IN ('candidate', 'verified', 'rejected', 'promoted', 'tentative', 'conflicting')",
            name=op.f("ck_assertions_status"),
        ),
        sa.CheckConstraint(
            "confidence >= 0 AND confidence <= 1", name=op.f("ck_assertions_confidence")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_assertions")),
    )
    with op.batch_alter_table("assertions", schema=None) as batch_op:
        batch_op.create_index(
            "ix_assertions_entity_field", ["entity_id", "field_name"], unique=False
        )

    op.create_table(
        "audit_log",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("action_type", sa.String(length=32), nullable=False),
        sa.Column("entity_type", sa.String(length=32), nullable=False),
        sa.Column("entity_id", sa.String(length=64), nullable=False),
        sa.Column("before_state", sa.JSON(), nullable=True),
        sa.Column("after_state", sa.JSON(), nullable=True),
        sa.Column("agent_name", sa.String(length=64), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("timestamp", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_audit_log")),
    )
    with op.batch_alter_table("audit_log", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_audit_log_entity_id"), ["entity_id"], unique=False)

    op.create_table(
        "blobs",
        sa.Column("sha256", sa.String(length=64), nullable=False),
        sa.Column("size", sa.Integer(), nullable=False),
        sa.Column("data", sa.LargeBinary(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("sha256", name=op.f("pk_blobs")),
    )
    op.create_table(
        "case_meta",
        sa.Column("key", sa.String(length=64), nullable=False),
        sa.Column("value", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("key", name=op.f("pk_case_meta")),
    )
    op.create_table(
        "conflicts",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("person_id", sa.String(length=32), nullable=False),
        sa.Column("field", sa.String(length=64), nullable=False),
        sa.Column("recommended_assertion_id", sa.String(length=32), nullable=False),
        sa.Column("is_tentative", sa.Boolean(), nullable=False),
        sa.Column("analysis", sa.JSON(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_conflicts")),
        sa.UniqueConstraint("person_id", "field", name="person_field"),
    )
    op.create_table(
        "hypotheses",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("hypothesis_type", sa.String(length=64), nullable=False),
        sa.Column("statement", sa.Text(), nullable=False),
        sa.Column("target_person", sa.String(length=32), nullable=True),
        sa.Column("suggested_queries", sa.JSON(), nullable=False),
        sa.Column("priority", sa.Float(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("generated_by", sa.String(length=16), nullable=False),
        sa.Column("is_fact", sa.Boolean(), nullable=False),
        sa.Column("evidence", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("generated_by = 'Analyst'", name=op.f("ck_hypotheses_only_analyst")),
        sa.CheckConstraint("is_fact = false", name=op.f("ck_hypotheses_never_fact")),
        sa.CheckConstraint("priority >= 0 AND priority <= 1", name=op.f("ck_hypotheses_priority")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_hypotheses")),
    )
    op.create_table(
        "merge_clusters",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("canonical_id", sa.String(length=32), nullable=False),
        sa.Column("member_ids", sa.JSON(), nullable=False),
        sa.Column("merge_rationale", sa.Text(), nullable=False),
        sa.Column("why_not_split", sa.Text(), nullable=False),
        sa.Column("is_reversible", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("dissolved_at", sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint("is_reversible = true", name=op.f("ck_merge_clusters_reversible")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_merge_clusters")),
    )
    op.create_table(
        "persons",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("canonical_name", sa.Text(), nullable=False),
        sa.Column("name_key", sa.Text(), nullable=False),
        sa.Column("given_name", sa.Text(), nullable=False),
        sa.Column("surname", sa.Text(), nullable=False),
        sa.Column("sex", sa.String(length=1), nullable=False),
        sa.Column("is_living", sa.Boolean(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("sex IN ('M', 'F', 'U')", name=op.f("ck_persons_sex")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_persons")),
    )
    with op.batch_alter_table("persons", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_persons_name_key"), ["name_key"], unique=False)

    op.create_table(
        "research_log",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("timestamp", sa.DateTime(timezone=True), nullable=False),
        sa.Column("agent", sa.String(length=16), nullable=False),
        sa.Column("action_type", sa.String(length=32), nullable=False),
        sa.Column("rationale", sa.Text(), nullable=False),
        sa.Column("context", sa.JSON(), nullable=False),
        sa.Column("revisit_reason", sa.Text(), nullable=True),
        sa.CheckConstraint(
            "action_type <> 'revisit' OR revisit_reason IS NOT NULL",
            name=op.f("ck_research_log_revisit_reason"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_research_log")),
        sa.UniqueConstraint("seq", name=op.f("uq_research_log_seq")),
    )
    op.create_table(
        "source_permissions",
        sa.Column("tier", sa.Integer(), nullable=False),
        sa.Column("allowed", sa.Boolean(), nullable=False),
        sa.CheckConstraint("tier <> 0 OR allowed", name=op.f("ck_source_permissions_tier0_always")),
        sa.PrimaryKeyConstraint("tier", name=op.f("pk_source_permissions")),
    )
    op.create_table(
        "tasks",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("task_type", sa.String(length=16), nullable=False),
        sa.Column("priority", sa.Float(), nullable=False),
        sa.Column("assigned_to", sa.JSON(), nullable=False),
        sa.Column("hypothesis_id", sa.String(length=32), nullable=True),
        sa.Column("source_constraint", sa.JSON(), nullable=False),
        sa.Column("completed", sa.Boolean(), nullable=False),
        sa.Column("in_frontier", sa.Boolean(), nullable=False),
        sa.Column("payload", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint(
            "NOT (in_frontier AND completed)", name=op.f("ck_tasks_frontier_incomplete")
        ),
        sa.CheckConstraint("priority >= 0 AND priority <= 1", name=op.f("ck_tasks_priority")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tasks")),
    )
    op.create_table(
        "relationships",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("person1_id", sa.String(length=32), nullable=False),
        sa.Column("person2_id", sa.String(length=32), nullable=False),
        sa.Column("relationship_type", sa.String(length=16), nullable=False),
        sa.Column("confidence", sa.Float(), nullable=False),
        sa.Column("assertion_id", sa.String(length=32), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint(
            "relationship_type IN ('parent', 'spouse')", name=op.f("ck_relationships_type")
        ),
        sa.CheckConstraint(
            "confidence >= 0 AND confidence <= 1", name=op.f("ck_relationships_confidence")
        ),
        sa.CheckConstraint("person1_id <> person2_id", name=op.f("ck_relationships_not_self")),
        sa.ForeignKeyConstraint(
            ["person1_id"], ["persons.id"], name=op.f("fk_relationships_person1_id_persons")
        ),
        sa.ForeignKeyConstraint(
            ["person2_id"], ["persons.id"], name=op.f("fk_relationships_person2_id_persons")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_relationships")),
        sa.UniqueConstraint("person1_id", "person2_id", "relationship_type", name="pair"),
    )
    with op.batch_alter_table("relationships", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_relationships_person1_id"), ["person1_id"], unique=False
        )
        batch_op.create_index(
            batch_op.f("ix_relationships_person2_id"), ["person2_id"], unique=False
        )

    op.create_table(
        "snapshots",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("sha256", sa.String(length=64), nullable=False),
        sa.Column("origin", sa.Text(), nullable=False),
        sa.Column("url", sa.Text(), nullable=True),
        sa.Column("path", sa.Text(), nullable=True),
        sa.Column("source_name", sa.String(length=200), nullable=False),
        sa.Column("tier", sa.Integer(), nullable=False),
        sa.Column("evidence_type", sa.String(length=16), nullable=False),
        sa.Column("accessed_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("media_type", sa.String(length=100), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("page_starts", sa.JSON(), nullable=False),
        sa.Column("meta", sa.JSON(), nullable=False),
        sa.CheckConstraint(
            "evidence_type IN ('primary', 'secondary', 'authored')",
            name=op.f("ck_snapshots_evidence"),
        ),
        sa.CheckConstraint("tier IN (0, 1, 2)", name=op.f("ck_snapshots_tier")),
        sa.ForeignKeyConstraint(
            ["sha256"], ["blobs.sha256"], name=op.f("fk_snapshots_sha256_blobs")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_snapshots")),
        sa.UniqueConstraint("origin", "sha256", name="origin_sha256"),
    )
    op.create_table(
        "candidates",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("snapshot_id", sa.String(length=32), nullable=False),
        sa.Column("subject", sa.String(length=64), nullable=False),
        sa.Column("subject_name", sa.Text(), nullable=True),
        sa.Column("field", sa.String(length=64), nullable=False),
        sa.Column("value", sa.Text(), nullable=False),
        sa.Column("date", sa.JSON(), nullable=True),
        sa.Column("related", sa.String(length=64), nullable=True),
        sa.Column("related_name", sa.Text(), nullable=True),
        sa.Column("confidence", sa.Float(), nullable=False),
        sa.Column("excerpt", sa.Text(), nullable=True),
        sa.Column("char_start", sa.Integer(), nullable=True),
        sa.Column("char_end", sa.Integer(), nullable=True),
        sa.Column("page", sa.Integer(), nullable=True),
        sa.Column("line", sa.Integer(), nullable=True),
        sa.Column("match_status", sa.String(length=16), nullable=True),
        sa.Column("is_fact", sa.Boolean(), nullable=False),
        sa.Column("method", sa.String(length=32), nullable=False),
        sa.Column("evidence_type", sa.String(length=16), nullable=True),
        sa.Column("rationale", sa.Text(), nullable=False),
        sa.Column("status", sa.String(length=24), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("missing_fields", sa.JSON(), nullable=False),
        sa.Column("violations", sa.JSON(), nullable=False),
        sa.Column("person_id", sa.String(length=32), nullable=True),
        sa.Column("assertion_id", sa.String(length=32), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint(
            "status IN ('pending', 'needs_more_evidence', 'acceptable', 'promoted', 'review', 'rejected')",
            name=op.f("ck_candidates_status"),
        ),
        sa.ForeignKeyConstraint(
            ["snapshot_id"], ["snapshots.id"], name=op.f("fk_candidates_snapshot_id_snapshots")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_candidates")),
    )
    with op.batch_alter_table("candidates", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_candidates_snapshot_id"), ["snapshot_id"], unique=False
        )

    op.create_table(
        "citations",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("assertion_id", sa.String(length=32), nullable=False),
        sa.Column("snapshot_id", sa.String(length=32), nullable=False),
        sa.Column("excerpt", sa.Text(), nullable=False),
        sa.Column("char_start", sa.Integer(), nullable=False),
        sa.Column("char_end", sa.Integer(), nullable=False),
        sa.Column("page", sa.Integer(), nullable=True),
        sa.Column("line", sa.Integer(), nullable=True),
        sa.Column("extraction_method", sa.String(length=32), nullable=False),
        sa.Column("source_reliability", sa.Float(), nullable=False),
        sa.Column("rationale", sa.Text(), nullable=False),
        sa.Column("match_status", sa.String(length=16), nullable=False),
        sa.CheckConstraint(
            "char_end >= char_start AND char_start >= 0", name=op.f("ck_citations_span")
        ),
        sa.CheckConstraint("length(excerpt) > 0", name=op.f("ck_citations_excerpt")),
        sa.ForeignKeyConstraint(
            ["assertion_id"], ["assertions.id"], name=op.f("fk_citations_assertion_id_assertions")
        ),
        sa.ForeignKeyConstraint(
            ["snapshot_id"], ["snapshots.id"], name=op.f("fk_citations_snapshot_id_snapshots")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_citations")),
    )
    with op.batch_alter_table("citations", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_citations_assertion_id"), ["assertion_id"], unique=False
        )

    op.create_table(
        "decisions",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("candidate_id", sa.String(length=32), nullable=False),
        sa.Column("stage", sa.String(length=16), nullable=False),
        sa.Column("decision", sa.String(length=32), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("request", sa.Text(), nullable=True),
        sa.Column("priority", sa.String(length=8), nullable=True),
        sa.Column("confidence", sa.Float(), nullable=True),
        sa.Column("decided_by", sa.String(length=64), nullable=False),
        sa.Column("decided_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["candidate_id"], ["candidates.id"], name=op.f("fk_decisions_candidate_id_candidates")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_decisions")),
    )
    with op.batch_alter_table("decisions", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_decisions_candidate_id"), ["candidate_id"], unique=False
        )

    op.create_table(
        "review_queue",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("candidate_id", sa.String(length=32), nullable=False),
        sa.Column("priority", sa.String(length=8), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("resolved_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("resolved_by", sa.String(length=64), nullable=True),
        sa.Column("resolution_reason", sa.Text(), nullable=True),
        sa.CheckConstraint("priority IN ('high', 'normal')", name=op.f("ck_review_queue_priority")),
        sa.CheckConstraint(
            "status IN ('open', 'accepted', 'rejected', 'edited')",
            name=op.f("ck_review_queue_status"),
        ),
        sa.ForeignKeyConstraint(
            ["candidate_id"],
            ["candidates.id"],
            name=op.f("fk_review_queue_candidate_id_candidates"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_review_queue")),
        sa.UniqueConstraint("candidate_id", name=op.f("uq_review_queue_candidate_id")),
    )
    install_guards(op.get_bind())
    op.bulk_insert(
        sa.table(
            "source_permissions", sa.column("tier", sa.Integer), sa.column("allowed", sa.Boolean)
        ),
        [
            {"tier": 0, "allowed": True},
            {"tier": 1, "allowed": False},
            {"tier": 2, "allowed": False},
        ],
    )


def downgrade() -> None:
    """Downgrade schema."""
    op.drop_table("review_queue")
    with op.batch_alter_table("decisions", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_decisions_candidate_id"))

    op.drop_table("decisions")
    with op.batch_alter_table("citations", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_citations_assertion_id"))

    op.drop_table("citations")
    with op.batch_alter_table("candidates", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_candidates_snapshot_id"))

    op.drop_table("candidates")
    op.drop_table("snapshots")
    with op.batch_alter_table("relationships", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_relationships_person2_id"))
        batch_op.drop_index(batch_op.f("ix_relationships_person1_id"))

    op.drop_table("relationships")
    op.drop_table("tasks")
    op.drop_table("source_permissions")
    op.drop_table("research_log")
    with op.batch_alter_table("persons", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_persons_name_key"))

    op.drop_table("persons")
    op.drop_table("merge_clusters")
    op.drop_table("hypotheses")
    op.drop_table("conflicts")
    op.drop_table("case_meta")
    op.drop_table("blobs")
    with op.batch_alter_table("audit_log", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_audit_log_entity_id"))

    op.drop_table("audit_log")
    with op.batch_alter_table("assertions", schema=None) as batch_op:
        batch_op.drop_index("ix_assertions_entity_field")

    op.drop_table("assertions")
