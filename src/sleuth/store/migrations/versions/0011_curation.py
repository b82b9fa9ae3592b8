"""curation: staging extractions, validation decisions, core entities and equivalences

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-09

The curation domain (issue 25, seed 002) by the seed's own table names:
`staging_extractions` (what the Extractor stages, always `pending`), `validation_decisions`
(the Validator's and the Decision Maker's audit log), `core_entities` (what the Decision
Maker promoted, with its citation), `core_equivalences` (the same entity seen again, in
prose or under another name, citing both), `core_conflicts` (a field the two disagree on,
with both values and citations) and `curation_review` (the human gate).

Who may write what is enforced here, below the code. On SQLite each connection sleuth opens
answers `sleuth_role()` with the agent it acts for (`sleuth.store.dialect`), and triggers
refuse every other writer: only the Extractor stages, only the Validator and the Decision
Maker change an extraction's status (and nothing else of it; the Validator never to
`accepted` or `review`), only the Decision Maker writes the core tables and the review queue.
A connection without the function (not sleuth's) cannot write these tables at all. On
PostgreSQL each agent acts under its own role with GRANTs (`sleuth.store.curation_roles`);
a trigger keeps what GRANTs cannot say (pending on insert, only the status changes, the
Validator never accepts).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | Sequence[str] | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_TS = sa.DateTime(timezone=True)
_ID = sa.String(length=32)
APPEND_ONLY = ("validation_decisions", "core_entities", "core_equivalences", "core_conflicts")
_CONTENT = ("id", "seq", "snapshot_id", "task_id", "refines", "attempt", "candidate_type",
            "candidate_key", "candidate_payload", "confidence_score", "confidence_reason",
            "evidence_text", "evidence_doc", "line_start", "line_end", "char_start", "char_end",
            "evidence_type", "created_by", "created_at")
_ROLE = "coalesce(sleuth_role(), '')"


def _forbid(name: str, event: str, table: str, when: str, message: str) -> str:
    return (f"CREATE TRIGGER {name} BEFORE {event} ON {table} WHEN {when} "
            f"BEGIN SELECT RAISE(ABORT, 'forbidden: {message}'); END")


_SQLITE = [
    _forbid("staging_extractions_extractor_inserts", "INSERT", "staging_extractions",
            f"{_ROLE} <> 'extractor'", "only the Extractor stages extractions"),
    "CREATE TRIGGER staging_extractions_pending BEFORE INSERT ON staging_extractions "
    "WHEN NEW.status <> 'pending' BEGIN SELECT RAISE(ABORT, "
    "'invariant: an extraction is staged with status pending'); END",
    _forbid("staging_extractions_status_writers", "UPDATE", "staging_extractions",
            f"{_ROLE} NOT IN ('validator', 'decision_maker')",
            "only the Validator and the Decision Maker change an extraction''s status"),
    f"CREATE TRIGGER staging_extractions_content_frozen BEFORE UPDATE OF {', '.join(_CONTENT)} "
    "ON staging_extractions BEGIN SELECT RAISE(ABORT, "
    "'forbidden: only an extraction''s status may change, never its content'); END",
    _forbid("staging_extractions_validator_never_accepts", "UPDATE", "staging_extractions",
            f"{_ROLE} = 'validator' AND NEW.status IN ('accepted', 'review')",
            "the Validator does not accept or queue; the Decision Maker does"),
    "CREATE TRIGGER staging_extractions_no_delete BEFORE DELETE ON staging_extractions "
    "BEGIN SELECT RAISE(ABORT, 'immutable: staging_extractions rows cannot be deleted'); END",
    _forbid("validation_decisions_writers", "INSERT", "validation_decisions",
            f"{_ROLE} NOT IN ('validator', 'decision_maker')",
            "only the Validator and the Decision Maker record decisions"),
    *(_forbid(f"{t}_decision_maker_only", "INSERT", t, f"{_ROLE} <> 'decision_maker'",
              f"only the Decision Maker writes {t}")
      for t in ("core_entities", "core_equivalences", "core_conflicts", "curation_review")),
    _forbid("curation_review_reviewer_resolves", "UPDATE", "curation_review",
            f"{_ROLE} <> 'reviewer'", "only a reviewer resolves a review item"),
    "CREATE TRIGGER curation_review_no_delete BEFORE DELETE ON curation_review "
    "BEGIN SELECT RAISE(ABORT, 'immutable: curation_review rows cannot be deleted'); END",
    *(f"CREATE TRIGGER {t}_immutable_{ev.lower()} BEFORE {ev} ON {t} BEGIN SELECT "
      f"RAISE(ABORT, 'immutable: {t} rows cannot be {verb}'); END"
      for t in APPEND_ONLY for ev, verb in (("UPDATE", "updated"), ("DELETE", "deleted"))),
]

_POSTGRES = [
    """CREATE OR REPLACE FUNCTION sleuth_extraction_guard() RETURNS trigger AS $$
    BEGIN
      IF TG_OP = 'DELETE' THEN
        RAISE EXCEPTION 'immutable: staging_extractions rows cannot be deleted'
          USING ERRCODE = 'integrity_constraint_violation';
      END IF;
      IF TG_OP = 'INSERT' THEN
        IF NEW.status <> 'pending' THEN
          RAISE EXCEPTION 'invariant: an extraction is staged with status pending'
            USING ERRCODE = 'integrity_constraint_violation';
        END IF;
        RETURN NEW;
      END IF;
      IF (to_jsonb(NEW) - 'status') IS DISTINCT FROM (to_jsonb(OLD) - 'status') THEN
        RAISE EXCEPTION 'forbidden: only an extraction''s status may change, never its content'
          USING ERRCODE = 'insufficient_privilege';
      END IF;
      IF current_user::text LIKE 'sleuth\\_%\\_validator'
         AND NEW.status IN ('accepted', 'review') THEN
        RAISE EXCEPTION 'forbidden: the Validator does not accept or queue; the Decision Maker does'
          USING ERRCODE = 'insufficient_privilege';
      END IF;
      RETURN NEW;
    END $$ LANGUAGE plpgsql""",
    "CREATE TRIGGER staging_extractions_guard BEFORE INSERT OR UPDATE OR DELETE ON "
    "staging_extractions FOR EACH ROW EXECUTE FUNCTION sleuth_extraction_guard()",
    # sleuth_immutable() is installed by the baseline migration.
    *(f"CREATE TRIGGER {t}_immutable BEFORE UPDATE OR DELETE ON {t} FOR EACH ROW "
      "EXECUTE FUNCTION sleuth_immutable()" for t in APPEND_ONLY),
    "CREATE TRIGGER curation_review_no_delete BEFORE DELETE ON curation_review FOR EACH ROW "
    "EXECUTE FUNCTION sleuth_immutable()",
]


def _citation_checks(table: str) -> list[sa.CheckConstraint]:
    return [
        sa.CheckConstraint("length(evidence_text) > 0", name=op.f(f"ck_{table}_evidence")),
        sa.CheckConstraint("line_start >= 1 AND line_end >= line_start",
                           name=op.f(f"ck_{table}_lines")),
    ]


def upgrade() -> None:
    op.create_table(
        "staging_extractions",
        sa.Column("id", _ID, nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("snapshot_id", _ID, nullable=False),
        sa.Column("task_id", _ID, nullable=True),
        sa.Column("refines", _ID, nullable=True),
        sa.Column("attempt", sa.Integer(), nullable=False),
        sa.Column("candidate_type", sa.String(length=24), nullable=False),
        sa.Column("candidate_key", sa.Text(), nullable=False),
        sa.Column("candidate_payload", sa.JSON(), nullable=False),
        sa.Column("confidence_score", sa.Float(), nullable=False),
        sa.Column("confidence_reason", sa.Text(), nullable=False),
        sa.Column("evidence_text", sa.Text(), nullable=False),
        sa.Column("evidence_doc", sa.Text(), nullable=False),
        sa.Column("line_start", sa.Integer(), nullable=False),
        sa.Column("line_end", sa.Integer(), nullable=False),
        sa.Column("char_start", sa.Integer(), nullable=False),
        sa.Column("char_end", sa.Integer(), nullable=False),
        sa.Column("evidence_type", sa.String(length=24), nullable=False),
        sa.Column("status", sa.String(length=24), server_default="pending", nullable=False),
        sa.Column("created_by", sa.String(length=64), nullable=False),
        sa.Column("created_at", _TS, nullable=False),
        sa.CheckConstraint("status IN ('pending', 'needs_more_evidence', 'acceptable', "
                           "'accepted', 'review', 'rejected', 'superseded')",
                           name=op.f("ck_staging_extractions_status")),
        sa.CheckConstraint("confidence_score >= 0 AND confidence_score <= 1",
                           name=op.f("ck_staging_extractions_confidence")),
        sa.CheckConstraint("length(confidence_reason) > 0",
                           name=op.f("ck_staging_extractions_reason")),
        sa.CheckConstraint("char_end >= char_start AND char_start >= 0",
                           name=op.f("ck_staging_extractions_span")),
        *_citation_checks("staging_extractions"),
        sa.ForeignKeyConstraint(["refines"], ["staging_extractions.id"],
                                name=op.f("fk_staging_extractions_refines_staging_extractions")),
        sa.ForeignKeyConstraint(["snapshot_id"], ["snapshots.id"],
                                name=op.f("fk_staging_extractions_snapshot_id_snapshots")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_staging_extractions")),
        sa.UniqueConstraint("seq", name=op.f("uq_staging_extractions_seq")),
    )
    op.create_index(op.f("ix_staging_extractions_snapshot_id"), "staging_extractions",
                    ["snapshot_id"])
    op.create_index(op.f("ix_staging_extractions_candidate_key"), "staging_extractions",
                    ["candidate_key"])
    op.create_table(
        "validation_decisions",
        sa.Column("id", _ID, nullable=False),
        sa.Column("extraction_id", _ID, nullable=False),
        sa.Column("stage", sa.String(length=16), nullable=False),
        sa.Column("decided_by", sa.String(length=64), nullable=False),
        sa.Column("decision", sa.String(length=24), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("request", sa.Text(), nullable=True),
        sa.Column("priority", sa.String(length=8), nullable=True),
        sa.Column("missing_fields", sa.JSON(), nullable=False),
        sa.Column("confidence_at_decision", sa.Float(), nullable=True),
        sa.Column("canonical_id", _ID, nullable=True),
        sa.Column("decided_at", _TS, nullable=False),
        sa.CheckConstraint("stage IN ('validator', 'decision_maker')",
                           name=op.f("ck_validation_decisions_stage")),
        sa.CheckConstraint("decision IN ('acceptable', 'needs_more_evidence', 'reject', "
                           "'accept', 'defer')", name=op.f("ck_validation_decisions_decision")),
        sa.CheckConstraint("length(reason) > 0", name=op.f("ck_validation_decisions_reason")),
        sa.ForeignKeyConstraint(
            ["extraction_id"], ["staging_extractions.id"],
            name=op.f("fk_validation_decisions_extraction_id_staging_extractions")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_validation_decisions")),
    )
    op.create_index(op.f("ix_validation_decisions_extraction_id"), "validation_decisions",
                    ["extraction_id"])
    op.create_table(
        "core_entities",
        sa.Column("id", _ID, nullable=False),
        sa.Column("entity_type", sa.String(length=24), nullable=False),
        sa.Column("candidate_key", sa.Text(), nullable=False),
        sa.Column("name", sa.Text(), nullable=False),
        sa.Column("module", sa.Text(), nullable=True),
        sa.Column("component", sa.Text(), nullable=True),
        sa.Column("payload", sa.JSON(), nullable=False),
        sa.Column("confidence", sa.Float(), nullable=False),
        sa.Column("ecosystem", sa.String(length=32), nullable=False),
        sa.Column("snapshot_id", _ID, nullable=False),
        sa.Column("extraction_id", _ID, nullable=False),
        sa.Column("evidence_text", sa.Text(), nullable=False),
        sa.Column("evidence_doc", sa.Text(), nullable=False),
        sa.Column("line_start", sa.Integer(), nullable=False),
        sa.Column("line_end", sa.Integer(), nullable=False),
        sa.Column("evidence_type", sa.String(length=24), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("promoted_by", sa.String(length=64), nullable=False),
        sa.Column("promoted_at", _TS, nullable=False),
        sa.CheckConstraint("confidence >= 0 AND confidence <= 1",
                           name=op.f("ck_core_entities_confidence")),
        *_citation_checks("core_entities"),
        sa.ForeignKeyConstraint(["extraction_id"], ["staging_extractions.id"],
                                name=op.f("fk_core_entities_extraction_id_staging_extractions")),
        sa.ForeignKeyConstraint(["snapshot_id"], ["snapshots.id"],
                                name=op.f("fk_core_entities_snapshot_id_snapshots")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_core_entities")),
        sa.UniqueConstraint("candidate_key", name=op.f("uq_core_entities_candidate_key")),
    )
    op.create_table(
        "core_equivalences",
        sa.Column("id", _ID, nullable=False),
        sa.Column("entity_id", _ID, nullable=False),
        sa.Column("extraction_id", _ID, nullable=False),
        sa.Column("definition_key", sa.Text(), nullable=False),
        sa.Column("other_key", sa.Text(), nullable=False),
        sa.Column("relation", sa.String(length=16), nullable=False),
        sa.Column("method", sa.String(length=32), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("confidence", sa.Float(), nullable=False),
        sa.Column("definition_citation", sa.JSON(), nullable=False),
        sa.Column("other_citation", sa.JSON(), nullable=False),
        sa.Column("created_by", sa.String(length=64), nullable=False),
        sa.Column("created_at", _TS, nullable=False),
        sa.CheckConstraint("relation IN ('same_name', 'renamed')",
                           name=op.f("ck_core_equivalences_relation")),
        sa.CheckConstraint("confidence >= 0 AND confidence <= 1",
                           name=op.f("ck_core_equivalences_confidence")),
        sa.CheckConstraint("length(reason) > 0", name=op.f("ck_core_equivalences_reason")),
        sa.ForeignKeyConstraint(["entity_id"], ["core_entities.id"],
                                name=op.f("fk_core_equivalences_entity_id_core_entities")),
        sa.ForeignKeyConstraint(
            ["extraction_id"], ["staging_extractions.id"],
            name=op.f("fk_core_equivalences_extraction_id_staging_extractions")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_core_equivalences")),
        sa.UniqueConstraint("extraction_id", name=op.f("uq_core_equivalences_extraction_id")),
    )
    op.create_index(op.f("ix_core_equivalences_entity_id"), "core_equivalences", ["entity_id"])
    op.create_table(
        "core_conflicts",
        sa.Column("id", _ID, nullable=False),
        sa.Column("entity_id", _ID, nullable=False),
        sa.Column("equivalence_id", _ID, nullable=False),
        sa.Column("field", sa.String(length=64), nullable=False),
        sa.Column("definition_value", sa.JSON(), nullable=True),
        sa.Column("other_value", sa.JSON(), nullable=True),
        sa.Column("definition_citation", sa.JSON(), nullable=False),
        sa.Column("other_citation", sa.JSON(), nullable=False),
        sa.Column("created_by", sa.String(length=64), nullable=False),
        sa.Column("created_at", _TS, nullable=False),
        sa.ForeignKeyConstraint(["entity_id"], ["core_entities.id"],
                                name=op.f("fk_core_conflicts_entity_id_core_entities")),
        sa.ForeignKeyConstraint(["equivalence_id"], ["core_equivalences.id"],
                                name=op.f("fk_core_conflicts_equivalence_id_core_equivalences")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_core_conflicts")),
        sa.UniqueConstraint("equivalence_id", "field",
                            name=op.f("uq_core_conflicts_equivalence_id")),
    )
    op.create_index(op.f("ix_core_conflicts_entity_id"), "core_conflicts", ["entity_id"])
    op.create_table(
        "curation_review",
        sa.Column("id", _ID, nullable=False),
        sa.Column("extraction_id", _ID, nullable=False),
        sa.Column("priority", sa.String(length=8), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("missing_fields", sa.JSON(), nullable=False),
        sa.Column("origin", sa.String(length=16), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("created_by", sa.String(length=64), nullable=False),
        sa.Column("created_at", _TS, nullable=False),
        sa.Column("resolved_by", sa.String(length=64), nullable=True),
        sa.Column("resolved_at", _TS, nullable=True),
        sa.Column("resolution_reason", sa.Text(), nullable=True),
        sa.CheckConstraint("priority IN ('high', 'normal')",
                           name=op.f("ck_curation_review_priority")),
        sa.CheckConstraint("origin IN ('decision', 'loop_limit', 'call_limit')",
                           name=op.f("ck_curation_review_origin")),
        sa.CheckConstraint("status IN ('open', 'accepted', 'rejected')",
                           name=op.f("ck_curation_review_status")),
        sa.CheckConstraint("length(reason) > 0", name=op.f("ck_curation_review_reason")),
        sa.ForeignKeyConstraint(
            ["extraction_id"], ["staging_extractions.id"],
            name=op.f("fk_curation_review_extraction_id_staging_extractions")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_curation_review")),
        sa.UniqueConstraint("extraction_id", name=op.f("uq_curation_review_extraction_id")),
    )
    bind = op.get_bind()
    for stmt in _POSTGRES if bind.dialect.name == "postgresql" else _SQLITE:
        op.execute(stmt)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP TRIGGER IF EXISTS staging_extractions_guard ON staging_extractions")
    op.drop_index(op.f("ix_core_conflicts_entity_id"), table_name="core_conflicts")
    op.drop_table("curation_review")
    op.drop_table("core_conflicts")
    op.drop_index(op.f("ix_core_equivalences_entity_id"), table_name="core_equivalences")
    op.drop_table("core_equivalences")
    op.drop_table("core_entities")
    op.drop_index(op.f("ix_validation_decisions_extraction_id"),
                  table_name="validation_decisions")
    op.drop_table("validation_decisions")
    op.drop_index(op.f("ix_staging_extractions_candidate_key"),
                  table_name="staging_extractions")
    op.drop_index(op.f("ix_staging_extractions_snapshot_id"), table_name="staging_extractions")
    op.drop_table("staging_extractions")
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP FUNCTION IF EXISTS sleuth_extraction_guard()")
