"""The search index (issue 25 item 7): chunks of stored snapshots and promoted entities, each
with its citation, their embedding vectors, and a lexical search over them that is the
database's own - SQLite FTS5 (`search_fts`, kept in step by triggers) or PostgreSQL full
text (the generated `tsv` column and its GIN index), both made by migration 0012.

One API for both dialects: `sync_chunks` writes what a batch function computed (rows whose
id, text and context are unchanged stay, with their vectors; the rest are replaced),
`lexical` ranks rows for a list of words, `vectors` / `put_vectors` hold the embeddings.
The index is derived data, rebuilt from snapshots and entities; each sync that changes it
writes one audit entry in the caller's transaction.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
from sqlalchemy import Connection, delete, func, insert, select, text

from sleuth.model import stable_id, utcnow
from sleuth.store import schema as t
from sleuth.store.base import StoreBase

_C, _V = t.search_chunks.c, t.search_vectors.c
KINDS = ("section", "table", "declaration", "text", "entity")
# Column weights: the context (heading path, declaration scope, entity label) counts most,
# the verbatim text next, the derived terms least. PostgreSQL's ts_rank weighs its A, B and C
# labels 1.0, 0.4 and 0.2 (the generated `tsv` column gives context A, text B, terms C);
# FTS5's bm25 gets the same proportions.
_BM25 = "bm25(search_fts, 2.5, 1.0, 0.5)"
_WORD = re.compile(r"[0-9a-z]+")


@dataclass(frozen=True)
class NewChunk:
    """A row a batch function computed: where it cites (snapshot, document, lines), the
    verbatim text of those lines, the context it is searched with and derived terms."""

    snapshot_id: str
    doc: str
    kind: str
    context: str
    start_line: int
    end_line: int
    text: str
    terms: str = ""
    entity_key: str | None = None

    @property
    def id(self) -> str:
        if self.entity_key is not None:
            return stable_id("search_entity", self.entity_key)
        return stable_id("search_chunk", self.snapshot_id, self.kind, str(self.start_line),
                         str(self.end_line))


@dataclass(frozen=True)
class StoredChunk:
    id: str
    seq: int
    snapshot_id: str
    doc: str
    kind: str
    context: str
    start_line: int
    end_line: int
    text: str
    terms: str
    entity_key: str | None
    chunker: str


_COLS = (_C.id, _C.seq, _C.snapshot_id, _C.doc, _C.kind, _C.context, _C.start_line,
         _C.end_line, _C.text, _C.terms, _C.entity_key, _C.chunker)


def _stored(r: Sequence[object]) -> StoredChunk:
    return StoredChunk(str(r[0]), int(r[1]), str(r[2]), str(r[3]), str(r[4]),  # type: ignore[call-overload]
                       str(r[5]), int(r[6]), int(r[7]), str(r[8]), str(r[9]),  # type: ignore[call-overload]
                       None if r[10] is None else str(r[10]), str(r[11]))


def chunked_snapshots(conn: Connection) -> dict[str, str]:
    """Each chunked snapshot's chunker version (what `sync_chunks` last wrote for it)."""
    rows = conn.execute(select(_C.snapshot_id, func.min(_C.chunker))
                        .where(_C.kind != "entity").group_by(_C.snapshot_id))
    return {str(s): str(v) for s, v in rows}


def sync_chunks(store: StoreBase, conn: Connection, rows: Sequence[NewChunk], chunker: str,
                *, snapshot_id: str | None = None, entities: bool = False,
                by: str = "search_index") -> tuple[int, int]:
    """Make the index's rows of one snapshot (`snapshot_id`) or of the entities
    (`entities=True`) exactly `rows`: unchanged rows (same id, context, text, terms and
    chunker) stay with their vectors, the others are deleted or inserted. Returns (rows
    inserted, rows deleted); a change writes one audit entry."""
    if (snapshot_id is None) == (not entities):
        raise ValueError("sync_chunks: name a snapshot or entities=True, not both")
    for r in rows:
        if r.kind not in KINDS or (r.kind == "entity") != entities:
            raise ValueError(f"sync_chunks: a {r.kind!r} row in the wrong sync")
        if not entities and r.snapshot_id != snapshot_id:
            raise ValueError("sync_chunks: a row of another snapshot")
    where = (_C.kind == "entity") if entities else (
        (_C.snapshot_id == snapshot_id) & (_C.kind != "entity"))
    have = {str(r[0]): (r[1], r[2], r[3], r[4]) for r in conn.execute(
        select(_C.id, _C.context, _C.text, _C.terms, _C.chunker).where(where))}
    want = {r.id: r for r in rows}
    keep = {i for i, r in want.items()
            if have.get(i) == (r.context, r.text, r.terms, chunker)}
    gone = sorted(set(have) - keep)
    for i in range(0, len(gone), 500):
        part = gone[i:i + 500]
        conn.execute(delete(t.search_vectors).where(_V.chunk_id.in_(part)))
        conn.execute(delete(t.search_chunks).where(_C.id.in_(part)))
    new = [r for i, r in want.items() if i not in keep]  # in the order given
    if new:
        seq = int(conn.execute(select(func.coalesce(func.max(_C.seq), 0))).scalar_one())
        now = utcnow()
        conn.execute(insert(t.search_chunks), [
            dict(id=r.id, seq=seq + n, snapshot_id=r.snapshot_id, doc=r.doc, kind=r.kind,
                 context=r.context, start_line=r.start_line, end_line=r.end_line,
                 text=r.text, terms=r.terms, entity_key=r.entity_key, chunker=chunker,
                 created_at=now)
            for n, r in enumerate(new, start=1)])
    if new or gone:
        store.audit(conn, "search_index_synced", "search_index",
                    "entities" if entities else str(snapshot_id), None,
                    {"inserted": len(new), "deleted": len(gone), "kept": len(keep),
                     "chunker": chunker}, by)
    return len(new), len(gone)


def chunks(conn: Connection, ids: Iterable[str] | None = None) -> list[StoredChunk]:
    """Stored rows (all, or these ids), in `seq` order."""
    stmt = select(*_COLS).order_by(_C.seq)
    if ids is None:
        return [_stored(r) for r in conn.execute(stmt)]
    wanted = list(dict.fromkeys(ids))
    got: dict[str, StoredChunk] = {}
    for i in range(0, len(wanted), 500):
        for r in conn.execute(stmt.where(_C.id.in_(wanted[i:i + 500]))):
            got[str(r[0])] = _stored(r)
    return [got[i] for i in wanted if i in got]


def counts(conn: Connection) -> dict[str, int]:
    """Rows by kind, and vectors by model (`vectors:MODEL`)."""
    out = {str(k): int(n) for k, n in conn.execute(
        select(_C.kind, func.count()).group_by(_C.kind))}
    out |= {f"vectors:{m}": int(n) for m, n in conn.execute(
        select(_V.model, func.count()).group_by(_V.model))}
    return out


def query_words(words: Iterable[str]) -> list[str]:
    """The words a lexical query may carry: lower-case letters and digits only (nothing the
    FTS5 or tsquery syntax could read as an operator), each once, in order."""
    out: list[str] = []
    for w in words:
        out.extend(_WORD.findall(w.lower()))
    return list(dict.fromkeys(out))


def lexical(conn: Connection, words: Sequence[str], limit: int) -> list[tuple[StoredChunk, float]]:
    """Rows matching any of `words`, best first, with a score where higher is better (FTS5
    bm25 negated on SQLite, ts_rank on PostgreSQL; scores are comparable within one
    query only). Porter/English stemming on both."""
    ws = query_words(words)
    if not ws or limit <= 0:
        return []
    cols = ", ".join(f"c.{c.name}" for c in _COLS)
    if conn.dialect.name == "postgresql":
        stmt = text(f"SELECT {cols}, ts_rank(c.tsv, q) AS score FROM search_chunks c, "
                    "to_tsquery('english', :q) q WHERE c.tsv @@ q "
                    "ORDER BY score DESC, c.seq LIMIT :n")
        rows = conn.execute(stmt, {"q": " | ".join(ws), "n": limit})
        return [(_stored(r), float(r[-1])) for r in rows]
    stmt = text(f"SELECT {cols}, -{_BM25} AS score FROM search_fts "
                "JOIN search_chunks c ON c.seq = search_fts.rowid "
                "WHERE search_fts MATCH :q ORDER BY score DESC, c.seq LIMIT :n")
    rows = conn.execute(stmt, {"q": " OR ".join(f'"{w}"' for w in ws), "n": limit})
    return [(_stored(r), float(r[-1])) for r in rows]


# -- vectors ------------------------------------------------------------------------------


def unembedded(conn: Connection, model: str) -> list[StoredChunk]:
    """Rows without a vector from `model`, in `seq` order."""
    has = select(_V.chunk_id).where(_V.model == model)
    return [_stored(r) for r in conn.execute(
        select(*_COLS).where(_C.id.not_in(has)).order_by(_C.seq))]


def put_vectors(conn: Connection, model: str, ids: Sequence[str], matrix: np.ndarray) -> int:
    """Store one row of `matrix` (float32) per id for `model`; returns how many."""
    if len(ids) != len(matrix):
        raise ValueError("put_vectors: one vector per id")
    if not ids:
        return 0
    m = np.ascontiguousarray(matrix, dtype=np.float32)
    conn.execute(insert(t.search_vectors), [
        dict(chunk_id=i, model=model, dim=int(m.shape[1]), vector=m[n].tobytes())
        for n, i in enumerate(ids)])
    return len(ids)


def vectors(conn: Connection, model: str) -> tuple[list[str], np.ndarray]:
    """(chunk ids, matrix) of every vector stored for `model`, in `seq` order; an empty
    (0, 0) matrix when there are none."""
    rows = conn.execute(select(_V.chunk_id, _V.dim, _V.vector)
                        .join(t.search_chunks, _C.id == _V.chunk_id)
                        .where(_V.model == model).order_by(_C.seq)).all()
    if not rows:
        return [], np.zeros((0, 0), dtype=np.float32)
    dim = int(rows[0][1])
    m = np.frombuffer(b"".join(bytes(r[2]) for r in rows), dtype=np.float32)
    return [str(r[0]) for r in rows], m.reshape(len(rows), dim)


def vector_models(conn: Connection) -> list[str]:
    """The embedding models that have vectors in this case."""
    return sorted(str(m) for (m,) in conn.execute(select(_V.model).distinct()))


def snapshot_ids(conn: Connection) -> list[str]:
    """Every stored snapshot's id, in id order (what the chunking batch walks)."""
    return [str(i) for (i,) in conn.execute(select(t.snapshots.c.id).order_by(t.snapshots.c.id))]
