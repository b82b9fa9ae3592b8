"""Tables of a case (seed 002 layers: raw → staging → decisions → core; plus log and audit).

Raw layer: `blobs` (content-addressed bytes) and `snapshots` are immutable. Staging holds
every candidate the firewall saw, rejected ones included, so nothing read is ever lost.
Core holds persons, relationships and assertions with their citations. Invariants of the
Z specification are CHECK constraints or triggers (see `sleuth.store.dialect`), so they hold
whatever code writes to the database.
"""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    Boolean,
    CheckConstraint,
    Column,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    text,
)

metadata = MetaData(
    naming_convention={
        "ix": "ix_%(column_0_label)s",
        "uq": "uq_%(table_name)s_%(column_0_name)s",
        "ck": "ck_%(table_name)s_%(constraint_name)s",
        "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
        "pk": "pk_%(table_name)s",
    }
)

ID = String(32)

case_meta = Table(
    "case_meta",
    metadata,
    Column("key", String(64), primary_key=True),
    Column("value", Text, nullable=False),
)

# -- raw layer ---------------------------------------------------------------------------
blobs = Table(
    "blobs",
    metadata,
    Column("sha256", String(64), primary_key=True),
    Column("size", Integer, nullable=False),
    Column("data", LargeBinary, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

snapshots = Table(
    "snapshots",
    metadata,
    Column("id", ID, primary_key=True),
    Column("sha256", String(64), ForeignKey("blobs.sha256"), nullable=False),
    Column("origin", Text, nullable=False),  # url, or the path the user gave
    Column("url", Text),
    Column("path", Text),
    Column("source_name", String(200), nullable=False),
    Column("tier", Integer, nullable=False),
    Column("evidence_type", String(16), nullable=False),
    Column("accessed_at", DateTime(timezone=True), nullable=False),
    Column("media_type", String(100), nullable=False),
    Column("text", Text, nullable=False),
    Column("page_starts", JSON, nullable=False),
    Column("meta", JSON, nullable=False),
    UniqueConstraint("origin", "sha256", name="origin_sha256"),
    CheckConstraint("tier IN (0, 1, 2)", name="tier"),
    CheckConstraint("evidence_type IN ('primary', 'secondary', 'authored')", name="evidence"),
)

# -- staging layer -----------------------------------------------------------------------
candidates = Table(
    "candidates",
    metadata,
    Column("id", ID, primary_key=True),
    Column("snapshot_id", ID, ForeignKey("snapshots.id"), nullable=False, index=True),
    Column("subject", String(64), nullable=False),
    Column("subject_name", Text),
    Column("field", String(64), nullable=False),
    Column("value", Text, nullable=False),
    Column("date", JSON),
    Column("related", String(64)),
    Column("related_name", Text),
    Column("confidence", Float, nullable=False),
    Column("excerpt", Text),
    Column("char_start", Integer),
    Column("char_end", Integer),
    Column("page", Integer),
    Column("line", Integer),
    Column("match_status", String(16)),
    Column("is_fact", Boolean, nullable=False),
    Column("method", String(32), nullable=False),
    Column("evidence_type", String(16)),
    Column("rationale", Text, nullable=False),
    Column("status", String(24), nullable=False),
    Column("attempts", Integer, nullable=False),
    Column("missing_fields", JSON, nullable=False),
    Column("violations", JSON, nullable=False),
    Column("person_id", ID),
    Column("assertion_id", ID),
    Column("created_at", DateTime(timezone=True), nullable=False),
    CheckConstraint(
        "status IN ('pending', 'needs_more_evidence', 'acceptable', 'promoted', 'review',"
        " 'rejected')",
        name="status",
    ),
)
# "Has this very record line named this person before?" (`pipeline.promote`) looks name
# candidates up by value; a hash index on PostgreSQL, where a B-tree entry cannot hold a long
# value. Partial (migration 0007): only name candidates, a tenth of a tree's, pay for it.
_NAMES = text("field = 'name'")
Index("ix_candidates_value", candidates.c.value, postgresql_using="hash",
      sqlite_where=_NAMES, postgresql_where=_NAMES)

decisions = Table(
    "decisions",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("candidate_id", ID, ForeignKey("candidates.id"), nullable=False, index=True),
    Column("stage", String(16), nullable=False),  # firewall | validator | decision | human
    Column("decision", String(32), nullable=False),
    Column("reason", Text, nullable=False),
    Column("request", Text),
    Column("priority", String(8)),
    Column("confidence", Float),
    Column("decided_by", String(64), nullable=False),
    Column("decided_at", DateTime(timezone=True), nullable=False),
)

review_queue = Table(
    "review_queue",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("candidate_id", ID, ForeignKey("candidates.id"), nullable=False, unique=True),
    Column("priority", String(8), nullable=False),
    Column("reason", Text, nullable=False),
    Column("status", String(16), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("resolved_at", DateTime(timezone=True)),
    Column("resolved_by", String(64)),
    Column("resolution_reason", Text),
    CheckConstraint("priority IN ('high', 'normal')", name="priority"),
    CheckConstraint("status IN ('open', 'accepted', 'rejected', 'edited')", name="status"),
)

# -- core layer --------------------------------------------------------------------------
persons = Table(
    "persons",
    metadata,
    Column("id", ID, primary_key=True),
    Column("canonical_name", Text, nullable=False),
    Column("name_key", Text, nullable=False, index=True),
    Column("given_name", Text, nullable=False),
    Column("surname", Text, nullable=False),
    Column("sex", String(1), nullable=False),
    Column("is_living", Boolean),
    Column("created_at", DateTime(timezone=True), nullable=False),
    CheckConstraint("sex IN ('M', 'F', 'U')", name="sex"),
)

relationships = Table(
    "relationships",
    metadata,
    Column("id", ID, primary_key=True),
    # looked up by person1_id through the unique (person1, person2, type) index below
    Column("person1_id", ID, ForeignKey("persons.id"), nullable=False),
    Column("person2_id", ID, ForeignKey("persons.id"), nullable=False, index=True),
    Column("relationship_type", String(16), nullable=False),
    Column("confidence", Float, nullable=False),
    Column("assertion_id", ID),
    Column("created_at", DateTime(timezone=True), nullable=False),
    UniqueConstraint("person1_id", "person2_id", "relationship_type", name="pair"),
    CheckConstraint("person1_id <> person2_id", name="not_self"),
    CheckConstraint("relationship_type IN ('parent', 'spouse')", name="type"),
    CheckConstraint("confidence >= 0 AND confidence <= 1", name="confidence"),
)

assertions = Table(
    "assertions",
    metadata,
    Column("id", ID, primary_key=True),
    Column("entity_id", ID, nullable=False),
    Column("entity_type", String(16), nullable=False),
    Column("field_name", String(64), nullable=False),
    Column("value", Text, nullable=False),
    Column("date", JSON),
    Column("date_earliest", String(10)),
    Column("date_latest", String(10)),
    Column("related_id", ID),
    Column("confidence", Float, nullable=False),
    Column("status", String(16), nullable=False),
    Column("candidate_id", ID),
    Column("asserted_at", DateTime(timezone=True), nullable=False),
    Index("ix_assertions_entity_field", "entity_id", "field_name"),
    CheckConstraint("confidence >= 0 AND confidence <= 1", name="confidence"),
    CheckConstraint(
        "status IN ('candidate', 'verified', 'rejected', 'promoted', 'tentative', 'conflicting')",
        name="status",
    ),
)

citations = Table(
    "citations",
    metadata,
    Column("id", ID, primary_key=True),
    Column("assertion_id", ID, ForeignKey("assertions.id"), nullable=False, index=True),
    Column("snapshot_id", ID, ForeignKey("snapshots.id"), nullable=False),
    Column("excerpt", Text, nullable=False),
    Column("char_start", Integer, nullable=False),
    Column("char_end", Integer, nullable=False),
    Column("page", Integer),
    Column("line", Integer),
    Column("extraction_method", String(32), nullable=False),
    Column("source_reliability", Float, nullable=False),
    Column("rationale", Text, nullable=False),
    Column("match_status", String(16), nullable=False),
    CheckConstraint("char_end >= char_start AND char_start >= 0", name="span"),
    CheckConstraint("length(excerpt) > 0", name="excerpt"),
)

conflicts = Table(
    "conflicts",
    metadata,
    Column("id", ID, primary_key=True),
    Column("person_id", ID, nullable=False),
    Column("field", String(64), nullable=False),
    Column("recommended_assertion_id", ID, nullable=False),
    Column("is_tentative", Boolean, nullable=False),
    Column("analysis", JSON, nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
    UniqueConstraint("person_id", "field", name="person_field"),
)

hypotheses = Table(
    "hypotheses",
    metadata,
    Column("id", ID, primary_key=True),
    Column("hypothesis_type", String(64), nullable=False),
    Column("statement", Text, nullable=False),
    Column("target_person", ID),
    Column("related_person", ID),  # the other person of a same-person hypothesis
    Column("suggested_queries", JSON, nullable=False),
    Column("priority", Float, nullable=False),
    Column("status", String(16), nullable=False),
    Column("generated_by", String(16), nullable=False),
    Column("is_fact", Boolean, nullable=False),
    Column("evidence", JSON, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    CheckConstraint("generated_by = 'Analyst'", name="only_analyst"),
    CheckConstraint("is_fact = false", name="never_fact"),
    CheckConstraint("priority >= 0 AND priority <= 1", name="priority"),
)

merge_clusters = Table(
    "merge_clusters",
    metadata,
    Column("id", ID, primary_key=True),
    Column("canonical_id", ID, nullable=False),
    Column("member_ids", JSON, nullable=False),
    Column("merge_rationale", Text, nullable=False),
    Column("why_not_split", Text, nullable=False),
    Column("is_reversible", Boolean, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("dissolved_at", DateTime(timezone=True)),
    CheckConstraint("is_reversible = true", name="reversible"),
)

tasks = Table(
    "tasks",
    metadata,
    Column("id", ID, primary_key=True),
    Column("task_type", String(16), nullable=False),
    Column("priority", Float, nullable=False),
    Column("assigned_to", JSON, nullable=False),
    Column("hypothesis_id", ID, index=True),  # the clue a task follows (migration 0008)
    Column("source_constraint", JSON, nullable=False),
    Column("completed", Boolean, nullable=False),
    Column("in_frontier", Boolean, nullable=False),
    Column("payload", JSON, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("query_hash", String(32), index=True),  # `loop.queues.query_hash` (migration 0006)
    CheckConstraint("NOT (in_frontier AND completed)", name="frontier_incomplete"),
    CheckConstraint("priority >= 0 AND priority <= 1", name="priority"),
    Index("ix_tasks_frontier", "in_frontier", "task_type", "priority"),  # migration 0008
)

research_log = Table(
    "research_log",
    metadata,
    Column("id", ID, primary_key=True),
    Column("seq", Integer, nullable=False, unique=True),
    Column("timestamp", DateTime(timezone=True), nullable=False),
    Column("agent", String(16), nullable=False),
    Column("action_type", String(32), nullable=False),
    Column("rationale", Text, nullable=False),
    Column("context", JSON, nullable=False),
    Column("revisit_reason", Text),
    CheckConstraint(
        "action_type <> 'revisit' OR revisit_reason IS NOT NULL", name="revisit_reason"
    ),
)

source_permissions = Table(
    "source_permissions",
    metadata,
    Column("tier", Integer, primary_key=True),
    Column("allowed", Boolean, nullable=False),
    CheckConstraint("tier <> 0 OR allowed", name="tier0_always"),
)

audit_log = Table(
    "audit_log",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("action_type", String(32), nullable=False),
    Column("entity_type", String(32), nullable=False),
    Column("entity_id", String(64), nullable=False, index=True),
    Column("before_state", JSON),
    Column("after_state", JSON),
    Column("agent_name", String(64), nullable=False),
    Column("reason", Text, nullable=False),
    Column("timestamp", DateTime(timezone=True), nullable=False),
)

IMMUTABLE_TABLES = ("blobs", "snapshots", "citations", "audit_log")

# -- sources (migration 0002) ------------------------------------------------------------
# Operational state of the fetcher. The bytes themselves are snapshots; these rows only say
# when a URL was last read and how to revalidate it.
http_cache = Table(
    "http_cache",
    metadata,
    Column("key", String(64), primary_key=True),  # sha256 of the (redacted) URL
    Column("url", Text, nullable=False),
    Column("source_id", String(64), nullable=False, index=True),
    Column("etag", Text),
    Column("last_modified", Text),
    Column("snapshot_id", ID, ForeignKey("snapshots.id"), nullable=False),
    Column("status", Integer, nullable=False),
    Column("fetched_at", DateTime(timezone=True), nullable=False),
    Column("expires_at", DateTime(timezone=True), nullable=False),
)

source_state = Table(
    "source_state",
    metadata,
    Column("source_id", String(64), primary_key=True),
    Column("circuit", String(16), nullable=False),
    Column("failures", Integer, nullable=False),
    Column("opened_at", Float),  # epoch seconds
    Column("updated_at", DateTime(timezone=True), nullable=False),
    CheckConstraint("circuit IN ('closed', 'open', 'half_open')", name="circuit"),
)

# Append-only: a permission is granted or revoked by a new row; the latest row wins.
source_consents = Table(
    "source_consents",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("source_id", String(64), nullable=False, index=True),
    Column("action", String(32), nullable=False),
    Column("granted", Boolean, nullable=False),
    Column("granted_by", String(64), nullable=False),
    Column("reason", Text, nullable=False),
    Column("at", DateTime(timezone=True), nullable=False),
    CheckConstraint("length(reason) > 0", name="reason"),
)

# -- Genealogical Proof Standard (migration 0003) ----------------------------------------
# A person's correction of the rule-derived Evidence Explained classes of one citation
# (`sleuth.gps.classify`). Append-only: a change is a new row; the latest row per citation
# wins axis by axis, so every earlier judgement stays on record; NULL keeps the earlier value.
evidence_overrides = Table(
    "evidence_overrides",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("citation_id", ID, ForeignKey("citations.id"), nullable=False, index=True),
    Column("source_class", String(16)),
    Column("information_class", String(16)),
    Column("evidence_class", String(16)),
    Column("question", String(16)),  # the research question evidence_class is relative to
    Column("original_snapshot_id", ID, ForeignKey("snapshots.id")),  # a derivative's original
    Column("set_by", String(64), nullable=False),
    Column("reason", Text, nullable=False),
    Column("at", DateTime(timezone=True), nullable=False),
    CheckConstraint("length(reason) > 0", name="reason"),
    CheckConstraint(
        "source_class IS NULL OR source_class IN ('original', 'derivative', 'authored')",
        name="source_class",
    ),
    CheckConstraint(
        "information_class IS NULL OR information_class IN ('primary', 'secondary',"
        " 'undetermined')",
        name="information_class",
    ),
    CheckConstraint(
        "evidence_class IS NULL OR evidence_class IN ('direct', 'indirect', 'negative')",
        name="evidence_class",
    ),
    CheckConstraint(
        "question IS NULL OR question IN ('birth', 'death', 'parents', 'marriage')",
        name="question",
    ),
)

# A search that found nothing relevant for a person's research question, cited to the
# stored search response (`sleuth.gps.coverage`). Append-only, one row per (person,
# question, snapshot): the absence was observed then, whatever later searches find.
negative_evidence = Table(
    "negative_evidence",
    metadata,
    Column("id", ID, primary_key=True),
    Column("person_id", ID, nullable=False, index=True),
    Column("question", String(16), nullable=False),
    Column("source", String(200), nullable=False),
    Column("query", Text, nullable=False),
    Column("snapshot_id", ID, ForeignKey("snapshots.id"), nullable=False),
    Column("hit_count", Integer, nullable=False),
    Column("excerpt", Text, nullable=False),
    Column("char_start", Integer, nullable=False),
    Column("char_end", Integer, nullable=False),
    Column("log_seq", Integer),
    Column("statement", Text, nullable=False),
    Column("recorded_at", DateTime(timezone=True), nullable=False),
    UniqueConstraint("person_id", "question", "snapshot_id", name="person_question_snapshot"),
    CheckConstraint("question IN ('birth', 'death', 'parents', 'marriage')", name="question"),
    CheckConstraint("hit_count >= 0", name="hit_count"),
    CheckConstraint("char_end >= char_start AND char_start >= 0", name="span"),
)

# A pause a server asked of a source past what its policy lets a fetch wait (a long
# Retry-After): the source's circuit stays open until `open_until`, in this run and in a
# resumed one (`sleuth.store.breakers`; the circuit itself is `source_state`). One row per
# source, removed when the source answers again.
source_holds = Table(
    "source_holds",
    metadata,
    Column("source_id", String(64), primary_key=True),
    Column("open_until", Float, nullable=False),  # epoch seconds
    Column("reason", Text, nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
)

# -- documents domain (migration 0010, issue 22, seed 004) -------------------------------
# The blackboard: agents coordinate only through these rows, never by calling each other
# (`sleuth.store.agent_tasks`). A worker claims a pending task with a lease (`claimed_by`,
# `lease_until`); a claimed task whose lease ran out is taken again, so a killed worker's
# task is redone, and what a task writes commits with its completion. `seq` orders the work.
# Several workers may share a case (issue 26): each claims one task at a time.
agent_tasks = Table(
    "agent_tasks",
    metadata,
    Column("id", ID, primary_key=True),
    Column("seq", Integer, nullable=False, unique=True),
    Column("task_type", String(40), nullable=False),
    Column("agent", String(40), nullable=False),
    Column("status", String(16), nullable=False),
    Column("snapshot_id", ID, ForeignKey("snapshots.id"), index=True),
    Column("parent_id", ID, index=True),  # the task that queued it (Head Detective's)
    Column("input", JSON, nullable=False),
    Column("output_data", JSON),
    Column("error", Text),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("started_at", DateTime(timezone=True)),
    Column("completed_at", DateTime(timezone=True)),
    Column("claimed_by", String(64)),
    Column("lease_until", DateTime(timezone=True)),
    # migration 0013 (issue 26): where the task stands in the tree of tasks that queued it
    # (fixed when queued: the order a serial task type runs in, whichever worker commits
    # first), and how many times it went back to wait (its ids are named by it and its turn)
    Column("lineage", Text, nullable=False, server_default=""),
    Column("turn", Integer, nullable=False, server_default="0"),
    CheckConstraint("status IN ('pending', 'running', 'completed', 'failed')", name="status"),
    Index("ix_agent_tasks_status", "status", "seq"),
    Index("ix_agent_tasks_lineage", "task_type", "lineage"),
)

# A process (seed 004): one inquiry's chain of documents (directive, supplementary
# directives, reports, proposition, law), named by its first directive's number, else its
# committee's, report's or proposition's (`sleuth.domains.documents.links`), with the stage
# the state machine gives from the evidence of all its documents and the explanation
# (migration 0014: a process was one document before).
doc_processes = Table(
    "doc_processes",
    metadata,
    Column("id", ID, primary_key=True),
    Column("designation", Text, nullable=False, unique=True),
    Column("stage", String(16)),
    Column("explanation", Text),
    Column("updated_at", DateTime(timezone=True), nullable=False),
)

# A document the Head Detective has read: its own designation and kind, and the process it
# belongs to (migration 0014).
doc_documents = Table(
    "doc_documents",
    metadata,
    Column("snapshot_id", ID, ForeignKey("snapshots.id"), primary_key=True),
    Column("designation", Text, nullable=False),
    Column("document_kind", String(16), nullable=False),
    Column("process_id", ID, ForeignKey("doc_processes.id"), index=True),
    Column("updated_at", DateTime(timezone=True), nullable=False),
)

# What links a document to its process: a designation it prints for itself or for another
# document of its process, with page and excerpt; or (relation 'metadata') one that
# metadata beside the file gives, cited to that file instead (migration 0014).
doc_links = Table(
    "doc_links",
    metadata,
    Column("id", ID, primary_key=True),
    Column("snapshot_id", ID, ForeignKey("snapshots.id"), nullable=False, index=True),
    Column("key", Text, nullable=False),
    Column("key_kind", String(16), nullable=False),
    Column("relation", String(16), nullable=False),
    Column("page", Integer),
    Column("page_label", String(32)),
    Column("excerpt", Text, nullable=False),
    Column("char_start", Integer),
    Column("char_end", Integer),
    UniqueConstraint("snapshot_id", "key", "relation"),
    CheckConstraint("relation IN ('self', 'cites', 'committee', 'metadata')", name="relation"),
    CheckConstraint("relation = 'metadata' OR (page IS NOT NULL AND page >= 1 AND "
                    "length(excerpt) BETWEEN 50 AND 200)", name="cited"),
)

# A dated event of a document's process. A fact without its page and a 50-200-character
# verbatim excerpt cannot be stored: the constraints say so, whatever code writes here.
doc_events = Table(
    "doc_events",
    metadata,
    Column("id", ID, primary_key=True),
    Column("snapshot_id", ID, ForeignKey("snapshots.id"), nullable=False, index=True),
    Column("task_id", ID, nullable=False),
    Column("event_type", String(32), nullable=False),
    Column("description", Text, nullable=False),
    Column("date", String(32), nullable=False),
    Column("earliest", String(10)),
    Column("latest", String(10)),
    Column("page", Integer, nullable=False),
    Column("page_label", String(32), nullable=False),
    Column("excerpt", Text, nullable=False),
    Column("char_start", Integer, nullable=False),
    Column("char_end", Integer, nullable=False),
    Column("actors", JSON, nullable=False),
    UniqueConstraint("snapshot_id", "event_type", "date"),
    CheckConstraint("page IS NOT NULL AND page >= 1", name="page"),
    CheckConstraint("length(excerpt) BETWEEN 50 AND 200", name="excerpt"),
)

# A person or body across documents (deduplicated: name variants, titles, initials) ...
doc_entities = Table(
    "doc_entities",
    metadata,
    Column("id", ID, primary_key=True),
    Column("seq", Integer, nullable=False, unique=True),
    Column("name", Text, nullable=False),
    Column("kind", String(16), nullable=False),
    Column("key", Text, nullable=False),
    Column("variants", JSON, nullable=False),
    CheckConstraint("kind IN ('person', 'agency', 'ministry', 'committee')", name="kind"),
)

# ... and every place a document names one in a role, each with its page and excerpt.
doc_mentions = Table(
    "doc_mentions",
    metadata,
    Column("id", ID, primary_key=True),
    Column("entity_id", ID, ForeignKey("doc_entities.id"), nullable=False, index=True),
    Column("snapshot_id", ID, ForeignKey("snapshots.id"), nullable=False, index=True),
    Column("task_id", ID, nullable=False),
    Column("name", Text, nullable=False),
    Column("role", String(16), nullable=False),
    Column("role_text", Text, nullable=False),
    Column("page", Integer, nullable=False),
    Column("page_label", String(32), nullable=False),
    Column("excerpt", Text, nullable=False),
    Column("char_start", Integer, nullable=False),
    Column("char_end", Integer, nullable=False),
    Column("name_start", Integer, nullable=False),  # what the extractor read as naming it
    Column("name_end", Integer, nullable=False),
    UniqueConstraint("snapshot_id", "name_start", "name_end", "role"),
    CheckConstraint("role IN ('chair', 'member', 'expert', 'secretary', 'minister', 'other')",
                    name="role"),
    CheckConstraint("page IS NOT NULL AND page >= 1", name="page"),
    CheckConstraint("length(excerpt) BETWEEN 50 AND 200", name="excerpt"),
)

# -- curation domain (migration 0011, issue 25, seed 002) --------------------------------
# Seed 002's tables by its own names. Who may write what is enforced by the database, not
# only by the code: on PostgreSQL each agent acts under its own role with GRANTs
# (`sleuth.store.curation_roles`); on SQLite under triggers that ask the connection which
# agent it acts for (`sleuth_role()`, `sleuth.store.dialect`). An extraction is staged
# `pending` by the Extractor; after that only its status changes (Validator, Decision
# Maker); decisions, core entities, equivalences and conflicts are append-only.
EXTRACTION_STATUSES = ("pending", "needs_more_evidence", "acceptable", "accepted", "review",
                       "rejected", "superseded")
staging_extractions = Table(
    "staging_extractions",
    metadata,
    Column("id", ID, primary_key=True),
    Column("seq", Integer, nullable=False, unique=True),  # the order of staging
    Column("snapshot_id", ID, ForeignKey("snapshots.id"), nullable=False, index=True),
    Column("task_id", ID),  # the agent task that staged it
    Column("refines", ID, ForeignKey("staging_extractions.id")),  # an earlier attempt
    Column("attempt", Integer, nullable=False),
    Column("candidate_type", String(24), nullable=False),
    Column("candidate_key", Text, nullable=False, index=True),
    Column("candidate_payload", JSON, nullable=False),
    Column("confidence_score", Float, nullable=False),
    Column("confidence_reason", Text, nullable=False),
    Column("evidence_text", Text, nullable=False),
    Column("evidence_doc", Text, nullable=False),
    Column("line_start", Integer, nullable=False),
    Column("line_end", Integer, nullable=False),
    Column("char_start", Integer, nullable=False),
    Column("char_end", Integer, nullable=False),
    Column("evidence_type", String(24), nullable=False),
    Column("status", String(24), nullable=False, server_default="pending"),
    Column("created_by", String(64), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    CheckConstraint("status IN ('pending', 'needs_more_evidence', 'acceptable', 'accepted', "
                    "'review', 'rejected', 'superseded')", name="status"),
    CheckConstraint("confidence_score >= 0 AND confidence_score <= 1", name="confidence"),
    CheckConstraint("length(evidence_text) > 0", name="evidence"),
    CheckConstraint("length(confidence_reason) > 0", name="reason"),
    CheckConstraint("line_start >= 1 AND line_end >= line_start", name="lines"),
    CheckConstraint("char_end >= char_start AND char_start >= 0", name="span"),
)

validation_decisions = Table(
    "validation_decisions",
    metadata,
    Column("id", ID, primary_key=True),
    Column("extraction_id", ID, ForeignKey("staging_extractions.id"), nullable=False,
           index=True),
    Column("stage", String(16), nullable=False),
    Column("decided_by", String(64), nullable=False),
    Column("decision", String(24), nullable=False),
    Column("reason", Text, nullable=False),
    Column("request", Text),
    Column("priority", String(8)),
    Column("missing_fields", JSON, nullable=False),
    Column("confidence_at_decision", Float),
    Column("canonical_id", ID),  # the core entity it was promoted to or linked with
    Column("decided_at", DateTime(timezone=True), nullable=False),
    CheckConstraint("stage IN ('validator', 'decision_maker')", name="stage"),
    CheckConstraint("decision IN ('acceptable', 'needs_more_evidence', 'reject', 'accept', "
                    "'defer')", name="decision"),
    CheckConstraint("length(reason) > 0", name="reason"),
)

core_entities = Table(
    "core_entities",
    metadata,
    Column("id", ID, primary_key=True),
    Column("entity_type", String(24), nullable=False),
    Column("candidate_key", Text, nullable=False, unique=True),
    Column("name", Text, nullable=False),
    Column("module", Text),
    Column("component", Text),  # the owning component of a port, command, event, ...
    Column("payload", JSON, nullable=False),
    Column("confidence", Float, nullable=False),
    Column("ecosystem", String(32), nullable=False),
    Column("snapshot_id", ID, ForeignKey("snapshots.id"), nullable=False),
    Column("extraction_id", ID, ForeignKey("staging_extractions.id"), nullable=False),
    Column("evidence_text", Text, nullable=False),
    Column("evidence_doc", Text, nullable=False),
    Column("line_start", Integer, nullable=False),
    Column("line_end", Integer, nullable=False),
    Column("evidence_type", String(24), nullable=False),
    Column("reason", Text, nullable=False),
    Column("promoted_by", String(64), nullable=False),
    Column("promoted_at", DateTime(timezone=True), nullable=False),
    CheckConstraint("confidence >= 0 AND confidence <= 1", name="confidence"),
    CheckConstraint("length(evidence_text) > 0", name="evidence"),
    CheckConstraint("line_start >= 1 AND line_end >= line_start", name="lines"),
)

# One core entity seen again: in another document's prose, or under another name. Both
# sides keep their citation ({snapshot_id, doc, lines, text}).
core_equivalences = Table(
    "core_equivalences",
    metadata,
    Column("id", ID, primary_key=True),
    Column("entity_id", ID, ForeignKey("core_entities.id"), nullable=False, index=True),
    Column("extraction_id", ID, ForeignKey("staging_extractions.id"), nullable=False,
           unique=True),
    Column("definition_key", Text, nullable=False),
    Column("other_key", Text, nullable=False),
    Column("relation", String(16), nullable=False),
    Column("method", String(32), nullable=False),
    Column("reason", Text, nullable=False),
    Column("confidence", Float, nullable=False),
    Column("definition_citation", JSON, nullable=False),
    Column("other_citation", JSON, nullable=False),
    Column("created_by", String(64), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    CheckConstraint("relation IN ('same_name', 'renamed')", name="relation"),
    CheckConstraint("confidence >= 0 AND confidence <= 1", name="confidence"),
    CheckConstraint("length(reason) > 0", name="reason"),
)

# A field on which the prose and the definition disagree: both values, both citations.
core_conflicts = Table(
    "core_conflicts",
    metadata,
    Column("id", ID, primary_key=True),
    Column("entity_id", ID, ForeignKey("core_entities.id"), nullable=False, index=True),
    Column("equivalence_id", ID, ForeignKey("core_equivalences.id"), nullable=False),
    Column("field", String(64), nullable=False),
    Column("definition_value", JSON),
    Column("other_value", JSON),
    Column("definition_citation", JSON, nullable=False),
    Column("other_citation", JSON, nullable=False),
    Column("created_by", String(64), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    UniqueConstraint("equivalence_id", "field"),
)

# Seed 002's HITL queue for curation: what the Decision Maker did not promote, and what a
# loop limit stopped, each with its reason (and the missing fields it names).
curation_review = Table(
    "curation_review",
    metadata,
    Column("id", ID, primary_key=True),
    Column("extraction_id", ID, ForeignKey("staging_extractions.id"), nullable=False,
           unique=True),
    Column("priority", String(8), nullable=False),
    Column("reason", Text, nullable=False),
    Column("missing_fields", JSON, nullable=False),
    Column("origin", String(16), nullable=False),
    Column("status", String(16), nullable=False),
    Column("created_by", String(64), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("resolved_by", String(64)),
    Column("resolved_at", DateTime(timezone=True)),
    Column("resolution_reason", Text),
    CheckConstraint("priority IN ('high', 'normal')", name="priority"),
    CheckConstraint("origin IN ('decision', 'loop_limit', 'call_limit')", name="origin"),
    CheckConstraint("status IN ('open', 'accepted', 'rejected')", name="status"),
    CheckConstraint("length(reason) > 0", name="reason"),
)
CURATION_APPEND_ONLY = ("validation_decisions", "core_entities", "core_equivalences",
                        "core_conflicts")

# -- search (issue 25 item 7: batch functions after promotion) ----------------------------
# What `sleuth search` ranks: a stored snapshot cut into chunks (a Markdown section or table,
# an FPP declaration), each with its citation (snapshot, document, first and last line and
# the verbatim text of those lines), and promoted entities, each cited by its evidence. A
# derived index: rebuilt from the snapshots and entities, never the only copy of anything.
# The lexical index is the database's own: SQLite FTS5 (`search_fts`, rowid = `seq`, kept
# by triggers) or PostgreSQL full text (a generated `tsv` column with a GIN index); both
# are made by migration 0012 for their dialect only and are not declared here.
search_chunks = Table(
    "search_chunks",
    metadata,
    Column("id", ID, primary_key=True),
    Column("seq", Integer, nullable=False, unique=True),
    Column("snapshot_id", ID, ForeignKey("snapshots.id"), nullable=False, index=True),
    Column("doc", Text, nullable=False),
    Column("kind", String(16), nullable=False),
    Column("context", Text, nullable=False),  # heading path, declaration scope, entity label
    Column("start_line", Integer, nullable=False),
    Column("end_line", Integer, nullable=False),
    Column("text", Text, nullable=False),  # the snapshot's own lines [start_line, end_line]
    Column("terms", Text, nullable=False),  # split identifiers and F´ abbreviations spelled out
    Column("entity_key", Text),
    Column("chunker", String(32), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    CheckConstraint("kind IN ('section', 'table', 'declaration', 'text', 'entity')",
                    name="kind"),
    CheckConstraint("start_line >= 1 AND end_line >= start_line", name="lines"),
    CheckConstraint("(kind = 'entity') = (entity_key IS NOT NULL)", name="entity_key"),
)

# One vector per chunk and embedding model (float32 bytes, L2-normalised).
search_vectors = Table(
    "search_vectors",
    metadata,
    Column("chunk_id", ID, ForeignKey("search_chunks.id"), primary_key=True),
    Column("model", String(100), primary_key=True),
    Column("dim", Integer, nullable=False),
    Column("vector", LargeBinary, nullable=False),
    CheckConstraint("dim > 0", name="dim"),
)
