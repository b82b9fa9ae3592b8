"""documents: a process across documents

Revision ID: 0014
Revises: 0010
Create Date: 2026-12-03

A documents case's process was one document (`doc_processes.snapshot_id`); now it is one
inquiry's chain of documents (issue 22, seed 004: a directive, its SOU, the proposition and
the law). `doc_documents` holds each read document's designation, kind and process;
`doc_links` the designations that link it (page-cited, or cited to metadata beside the
file); `doc_processes` keeps the process's designation (unique), stage and explanation.

A case worked before this revision keeps one process per designation (documents of the same
designation share it) until its documents are worked again.

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0014"
down_revision: str | Sequence[str] | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_TS = sa.DateTime(timezone=True)
_ID = sa.String(length=32)


def upgrade() -> None:
    op.create_table(
        "doc_links",
        sa.Column("id", _ID, nullable=False),
        sa.Column("snapshot_id", _ID, nullable=False),
        sa.Column("key", sa.Text(), nullable=False),
        sa.Column("key_kind", sa.String(length=16), nullable=False),
        sa.Column("relation", sa.String(length=16), nullable=False),
        sa.Column("page", sa.Integer(), nullable=True),
        sa.Column("page_label", sa.String(length=32), nullable=True),
        sa.Column("excerpt", sa.Text(), nullable=False),
        sa.Column("char_start", sa.Integer(), nullable=True),
        sa.Column("char_end", sa.Integer(), nullable=True),
        sa.CheckConstraint("relation IN ('self', 'cites', 'committee', 'metadata')",
                           name=op.f("ck_doc_links_relation")),
        sa.CheckConstraint("relation = 'metadata' OR (page IS NOT NULL AND page >= 1 AND "
                           "length(excerpt) BETWEEN 50 AND 200)", name=op.f("ck_doc_links_cited")),
        sa.ForeignKeyConstraint(["snapshot_id"], ["snapshots.id"],
                                name=op.f("fk_doc_links_snapshot_id_snapshots")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_doc_links")),
        sa.UniqueConstraint("snapshot_id", "key", "relation",
                            name=op.f("uq_doc_links_snapshot_id")),
    )
    op.create_index(op.f("ix_doc_links_snapshot_id"), "doc_links", ["snapshot_id"])
    op.create_table(
        "doc_documents",
        sa.Column("snapshot_id", _ID, nullable=False),
        sa.Column("designation", sa.Text(), nullable=False),
        sa.Column("document_kind", sa.String(length=16), nullable=False),
        sa.Column("process_id", _ID, nullable=True),
        sa.Column("updated_at", _TS, nullable=False),
        sa.ForeignKeyConstraint(["snapshot_id"], ["snapshots.id"],
                                name=op.f("fk_doc_documents_snapshot_id_snapshots")),
        sa.ForeignKeyConstraint(["process_id"], ["doc_processes.id"],
                                name=op.f("fk_doc_documents_process_id_doc_processes")),
        sa.PrimaryKeyConstraint("snapshot_id", name=op.f("pk_doc_documents")),
    )
    op.create_index(op.f("ix_doc_documents_process_id"), "doc_documents", ["process_id"])
    # each document keeps the process of its designation (the first of those that share one);
    # the link is set once the table no longer needs rebuilding (SQLite's batch mode drops
    # and copies it, which a row pointing at it would refuse)
    op.execute(
        "INSERT INTO doc_documents (snapshot_id, designation, document_kind, process_id, "
        "updated_at) SELECT snapshot_id, designation, document_kind, NULL, updated_at "
        "FROM doc_processes")
    op.execute("DELETE FROM doc_processes WHERE id NOT IN (SELECT min(id) FROM doc_processes "
               "GROUP BY designation)")
    with op.batch_alter_table("doc_processes") as batch:
        batch.drop_constraint("uq_doc_processes_snapshot_id", type_="unique")
        batch.drop_constraint("fk_doc_processes_snapshot_id_snapshots", type_="foreignkey")
        batch.drop_column("snapshot_id")
        batch.drop_column("document_kind")
        batch.create_unique_constraint(op.f("uq_doc_processes_designation"), ["designation"])
    op.execute("UPDATE doc_documents SET process_id = (SELECT p.id FROM doc_processes p "
               "WHERE p.designation = doc_documents.designation)")


def downgrade() -> None:
    # back to one process per document: the stage is left for the Head Detective to set
    op.execute("UPDATE doc_documents SET process_id = NULL")
    op.execute("DELETE FROM doc_processes")
    with op.batch_alter_table("doc_processes") as batch:
        batch.drop_constraint("uq_doc_processes_designation", type_="unique")
        batch.add_column(sa.Column("snapshot_id", _ID, nullable=True))
        batch.add_column(sa.Column("document_kind", sa.String(length=16), nullable=True))
    op.execute(
        "INSERT INTO doc_processes (id, snapshot_id, designation, document_kind, updated_at) "
        "SELECT snapshot_id, snapshot_id, designation, document_kind, updated_at "
        "FROM doc_documents")
    with op.batch_alter_table("doc_processes") as batch:
        batch.alter_column("snapshot_id", existing_type=_ID, nullable=False)
        batch.alter_column("document_kind", existing_type=sa.String(length=16),
                           nullable=False)
        batch.create_unique_constraint(op.f("uq_doc_processes_snapshot_id"), ["snapshot_id"])
        batch.create_foreign_key(op.f("fk_doc_processes_snapshot_id_snapshots"), "snapshots",
                                 ["snapshot_id"], ["id"])
    op.drop_index(op.f("ix_doc_documents_process_id"), table_name="doc_documents")
    op.drop_table("doc_documents")
    op.drop_index(op.f("ix_doc_links_snapshot_id"), table_name="doc_links")
    op.drop_table("doc_links")
