"""search index: chunks with citations, their vectors, and the lexical index

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-09

Issue 25 item 7 (seed 002 "Pipeline Functions (Not Agents)"): `search_chunks` holds each
stored snapshot cut into chunks (a Markdown section or table, an FPP declaration) and each
promoted entity, every row with its citation (snapshot, document, first and last line, the
verbatim text); `search_vectors` an embedding per chunk and model. The lexical index is
the dialect's own and lives here only: SQLite FTS5 (`search_fts`, its rowid the chunk's
`seq`, kept in step by triggers) or PostgreSQL full text (a generated, weighted `tsv`
column and a GIN index).

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | Sequence[str] | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_ID = sa.String(length=32)

_SQLITE_UP = (
    "CREATE VIRTUAL TABLE search_fts USING fts5(context, text, terms, "
    "tokenize = 'porter unicode61')",
    "CREATE TRIGGER search_chunks_fts_insert AFTER INSERT ON search_chunks BEGIN "
    "INSERT INTO search_fts(rowid, context, text, terms) "
    "VALUES (NEW.seq, NEW.context, NEW.text, NEW.terms); END",
    "CREATE TRIGGER search_chunks_fts_delete AFTER DELETE ON search_chunks BEGIN "
    "DELETE FROM search_fts WHERE rowid = OLD.seq; END",
    "CREATE TRIGGER search_chunks_fts_update AFTER UPDATE ON search_chunks BEGIN "
    "DELETE FROM search_fts WHERE rowid = OLD.seq; "
    "INSERT INTO search_fts(rowid, context, text, terms) "
    "VALUES (NEW.seq, NEW.context, NEW.text, NEW.terms); END",
)
_SQLITE_DOWN = (
    "DROP TRIGGER IF EXISTS search_chunks_fts_update",
    "DROP TRIGGER IF EXISTS search_chunks_fts_delete",
    "DROP TRIGGER IF EXISTS search_chunks_fts_insert",
    "DROP TABLE IF EXISTS search_fts",
)
_POSTGRES_UP = (
    "ALTER TABLE search_chunks ADD COLUMN tsv tsvector GENERATED ALWAYS AS ("
    "setweight(to_tsvector('english'::regconfig, context), 'A') || "
    "setweight(to_tsvector('english'::regconfig, text), 'B') || "
    "setweight(to_tsvector('english'::regconfig, terms), 'C')) STORED",
    "CREATE INDEX ix_search_chunks_tsv ON search_chunks USING gin (tsv)",
)


def upgrade() -> None:
    op.create_table(
        "search_chunks",
        sa.Column("id", _ID, nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("snapshot_id", _ID, nullable=False),
        sa.Column("doc", sa.Text(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("context", sa.Text(), nullable=False),
        sa.Column("start_line", sa.Integer(), nullable=False),
        sa.Column("end_line", sa.Integer(), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("terms", sa.Text(), nullable=False),
        sa.Column("entity_key", sa.Text(), nullable=True),
        sa.Column("chunker", sa.String(length=32), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("kind IN ('section', 'table', 'declaration', 'text', 'entity')",
                           name=op.f("ck_search_chunks_kind")),
        sa.CheckConstraint("start_line >= 1 AND end_line >= start_line",
                           name=op.f("ck_search_chunks_lines")),
        sa.CheckConstraint("(kind = 'entity') = (entity_key IS NOT NULL)",
                           name=op.f("ck_search_chunks_entity_key")),
        sa.ForeignKeyConstraint(["snapshot_id"], ["snapshots.id"],
                                name=op.f("fk_search_chunks_snapshot_id_snapshots")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_search_chunks")),
        sa.UniqueConstraint("seq", name=op.f("uq_search_chunks_seq")),
    )
    op.create_index(op.f("ix_search_chunks_snapshot_id"), "search_chunks", ["snapshot_id"])
    op.create_table(
        "search_vectors",
        sa.Column("chunk_id", _ID, nullable=False),
        sa.Column("model", sa.String(length=100), nullable=False),
        sa.Column("dim", sa.Integer(), nullable=False),
        sa.Column("vector", sa.LargeBinary(), nullable=False),
        sa.CheckConstraint("dim > 0", name=op.f("ck_search_vectors_dim")),
        sa.ForeignKeyConstraint(["chunk_id"], ["search_chunks.id"],
                                name=op.f("fk_search_vectors_chunk_id_search_chunks")),
        sa.PrimaryKeyConstraint("chunk_id", "model", name=op.f("pk_search_vectors")),
    )
    name = op.get_bind().dialect.name
    for stmt in _SQLITE_UP if name == "sqlite" else _POSTGRES_UP if name == "postgresql" else ():
        op.execute(stmt)


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        for stmt in _SQLITE_DOWN:
            op.execute(stmt)
    op.drop_table("search_vectors")
    op.drop_index(op.f("ix_search_chunks_snapshot_id"), table_name="search_chunks")
    op.drop_table("search_chunks")
