"""Search over a curation case (issue 25 item 7): the batch functions that build its index
after promotion, and the ranking behind `sleuth search CASE "query"`.

Batch functions (seed 002 "Pipeline Functions (Not Agents)"; deterministic, re-runnable,
each snapshot in its own transaction):

- `chunk_case`: every stored snapshot cut by `chunking` (a snapshot already cut by this
  chunker version is skipped);
- `index_entities`: promoted entities as rows of the same index, each cited by its
  evidence (document, lines, verbatim text);
- `embed_case`: a vector for each row without one from the case's embedding model
  (`embeddings.load_embedder`; none installed: nothing to do, search stays lexical);
- `build_index`: the three, in that order.

`search` ranks rows lexically (SQLite FTS5 / PostgreSQL full text, `store.search_index`),
by embedding (cosine against the stored vectors), or both fused by reciprocal rank
(`hybrid`, the default when the case has vectors from the loaded model). Each hit carries
its citation: snapshot, document, first and last line, and the verbatim text there.

Identifiers are searched in their parts too (`TlmChan` is also "tlm chan", `compCmdReg`
"comp cmd reg") and F´'s abbreviations spelled out (`tlm` telemetry, `cmd` command,
`prm` parameter...): `terms_of` derives these words for each row and for each query.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from sleuth.domains.curation.chunking import CHUNKER, chunk_file
from sleuth.domains.curation.embeddings import Embedder
from sleuth.model import InputError, Snapshot
from sleuth.store import curation as cur
from sleuth.store import search_index as ix
from sleuth.store.curation import CoreEntity
from sleuth.store.search_index import NewChunk, StoredChunk
from sleuth.store.snapshots import snapshots_in
from sleuth.store.store import Store

Mode = Literal["auto", "lexical", "embedding", "hybrid"]
MODES: tuple[str, ...] = ("auto", "lexical", "embedding", "hybrid")
ENTITY_CHUNKER = "curation-entities-1"
RRF_K = 60  # reciprocal rank fusion's constant (Cormack et al. 2009)
POOL = 50  # how deep each ranking is read before fusing
EMBED_BATCH = 256

# F´ abbreviations as its identifiers use them (TlmChan, CmdDisp, PrmDb, RecvBuff...).
GLOSSARY: dict[str, str] = {
    "tlm": "telemetry", "cmd": "command", "cmds": "commands", "prm": "parameter",
    "param": "parameter", "params": "parameters", "disp": "dispatcher", "seq": "sequence",
    "buff": "buffer", "buf": "buffer", "comp": "component", "mgr": "manager",
    "wdog": "watchdog", "evt": "event", "sched": "schedule", "stat": "status",
    "recv": "receive", "reg": "registration", "resp": "response", "chan": "channel",
    "pkt": "packet", "dp": "data product", "fw": "framework", "svc": "service",
    "drv": "driver", "msg": "message", "db": "database", "err": "error",
    "cnt": "count", "num": "number", "tbl": "table", "dl": "downlink", "ul": "uplink",
    "ack": "acknowledge", "hk": "housekeeping", "ac": "autocoder", "sz": "size",
    "max": "maximum", "min": "minimum", "init": "initialize", "cfg": "configuration",
    "rg": "rate group",
}
STOPWORDS = frozenset((
    "a", "an", "and", "are", "as", "at", "be", "by", "can", "do", "does", "for", "from", "how",
    "i", "in", "is", "it", "its", "of", "on", "or", "that", "the", "their", "then", "there",
    "these", "this", "to", "was", "what", "when", "where", "which", "who", "why", "will",
    "with"))
_IDENT = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
_PARTS = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")
_WORDS = re.compile(r"[0-9A-Za-z]+")


def identifier_parts(word: str) -> list[str]:
    """`CmdDispatcher` -> [cmd, dispatcher]; `PRM_SAVE_FILE` -> [prm, save, file];
    `pingIn` -> [ping, in]; a plain word -> [word]."""
    return [p.lower() for piece in word.split("_") for p in _PARTS.findall(piece)]


def terms_of(*texts: str) -> str:
    """The derived words a row (or a query) is also searched by: the parts of identifiers
    that are more than one word (of two letters or more, no bare numbers), and F´
    abbreviations spelled out; each once, in order."""
    out: list[str] = []
    for text in texts:
        for ident in _IDENT.findall(text):
            parts = identifier_parts(ident)
            if len(parts) > 1:  # a single letter or a number (U32, 0x03) says nothing
                out.extend(p for p in parts if len(p) > 1 and not p.isdigit())
            out.extend(GLOSSARY[p] for p in parts if p in GLOSSARY)
    return " ".join(dict.fromkeys(out))


def query_words(query: str) -> list[str]:
    """A query's words for the lexical index: its words less common English ones, then
    the derived terms (`terms_of`)."""
    plain = [w.lower() for w in _WORDS.findall(query)]
    derived = terms_of(query).split()
    return list(dict.fromkeys(w for w in [*plain, *derived] if w not in STOPWORDS))


def doc_name(snap: Snapshot) -> str:
    """The document a citation names: the stored file's name (as the curation candidates
    cite it)."""
    return (snap.path or snap.url or snap.source_name).replace("\\", "/").rsplit("/", 1)[-1]


def embed_text(context: str, text: str, terms: str) -> str:
    """What a row's vector is computed from."""
    return f"{context}\n{text}\n{terms}".strip()


# -- batch functions -----------------------------------------------------------------------


@dataclass
class IndexReport:
    snapshots: int = 0  # snapshots (re)chunked now
    chunks: int = 0  # rows written
    deleted: int = 0
    entities: int = 0
    embedded: int = 0
    model: str | None = None  # the embedding model, None: lexical only
    seconds: float = 0.0
    counts: dict[str, int] = field(default_factory=dict)


def chunk_case(store: Store, report: IndexReport | None = None) -> IndexReport:
    """Chunk every stored snapshot not yet chunked by this chunker version."""
    report = report or IndexReport()
    with store.engine.connect() as conn:
        done = ix.chunked_snapshots(conn)
        todo = [i for i in ix.snapshot_ids(conn) if done.get(i) != CHUNKER]
    for sid in todo:
        with store.engine.connect() as conn:
            snap = next(snapshots_in(conn, [sid]))
        doc = doc_name(snap)
        rows = [NewChunk(sid, doc, c.kind, c.context, c.start, c.end, c.text,
                         terms_of(doc, c.context, c.text))
                for c in chunk_file(snap.text, doc)]
        with store.transaction() as tx:
            added, deleted = ix.sync_chunks(store, tx, rows, CHUNKER, snapshot_id=sid)
        report.snapshots += 1
        report.chunks += added
        report.deleted += deleted
    return report


@dataclass(frozen=True)
class EntityDoc:
    """A promoted entity as the index cites it: its key, type and name, what it says about
    itself (`summary`), and its evidence: snapshot, document, lines, verbatim text."""

    key: str
    entity_type: str
    name: str
    snapshot_id: str
    doc: str
    start_line: int
    end_line: int
    evidence: str
    summary: str = ""


def entity_row(e: EntityDoc) -> NewChunk:
    context = f"{e.entity_type} {e.name} ({e.key})"
    return NewChunk(e.snapshot_id, e.doc, "entity", context, e.start_line, e.end_line,
                    e.evidence, terms_of(e.key, e.name, e.summary, e.evidence)
                    + (f" {e.summary}" if e.summary else ""), entity_key=e.key)


EntitySource = Callable[[Store], Iterable[EntityDoc]]


def no_entities(_: Store) -> list[EntityDoc]:
    return []


_SUMMARY_FIELDS = ("module", "component", "kind", "type", "direction", "severity", "format",
                   "update", "default", "description")


def entity_doc(e: CoreEntity) -> EntityDoc:
    """A promoted core entity as the index cites it: its evidence (document, lines, the
    text the firewall verified there) and, to be found by, what its definition states."""
    p = e.payload
    said = [str(p[k]) for k in _SUMMARY_FIELDS if isinstance(p.get(k), (str, int, float))]
    return EntityDoc(key=e.candidate_key, entity_type=e.entity_type, name=e.name,
                     snapshot_id=e.snapshot_id, doc=e.evidence_doc, start_line=e.lines[0],
                     end_line=e.lines[1], evidence=e.evidence_text, summary=" ".join(said))


def case_entities(store: Store) -> list[EntityDoc]:
    """The case's promoted core entities (`core_entities`, the graph's nodes), by key."""
    with store.engine.connect() as conn:
        return [entity_doc(e) for e in cur.core_entities(conn)]


def index_entities(store: Store, entities: Iterable[EntityDoc],
                   report: IndexReport | None = None) -> IndexReport:
    """Make the index's entity rows exactly these entities (one transaction)."""
    report = report or IndexReport()
    rows = [entity_row(e) for e in entities]
    with store.transaction() as tx:
        added, deleted = ix.sync_chunks(store, tx, rows, ENTITY_CHUNKER, entities=True)
    report.entities = len(rows)
    report.chunks += added
    report.deleted += deleted
    return report


def embed_case(store: Store, embedder: Embedder | None,
               report: IndexReport | None = None) -> IndexReport:
    """A vector from `embedder` for every row without one (none: nothing to do)."""
    report = report or IndexReport()
    report.model = embedder.name if embedder else None
    if embedder is None:
        return report
    with store.engine.connect() as conn:
        todo = ix.unembedded(conn, embedder.name)
    for i in range(0, len(todo), EMBED_BATCH):
        part = todo[i:i + EMBED_BATCH]
        m = embedder.embed([embed_text(c.context, c.text, c.terms) for c in part])
        with store.transaction() as tx:
            report.embedded += ix.put_vectors(tx, embedder.name, [c.id for c in part], m)
    return report


def build_index(store: Store, *, embedder: Embedder | None = None,
                entities: EntitySource | None = None) -> IndexReport:
    """Chunks, entity rows (the case's promoted entities unless `entities` names another
    source), then vectors: the index brought up to date with the case."""
    t0 = time.perf_counter()
    report = chunk_case(store)
    index_entities(store, (entities or case_entities)(store), report)
    embed_case(store, embedder, report)
    with store.engine.connect() as conn:
        report.counts = ix.counts(conn)
    report.seconds = time.perf_counter() - t0
    return report


def index_after_work(store: Store) -> str:
    """`sleuth work`'s closing batch (seed 002: functions after promotion, not agents): the
    index brought up to date with what the tasks promoted, so that `sleuth search` right
    after has nothing to rebuild. The caller holds the case's writer lock."""
    from sleuth.domains.curation.embeddings import load_embedder

    r = build_index(store, embedder=load_embedder(), entities=case_entities)
    rows = sum(n for k, n in r.counts.items() if not k.startswith("vectors:"))
    return (f"search index: {rows} rows ({r.entities} entities), {r.chunks} added, "
            f"{r.deleted} removed, {r.embedded} embedded"
            + (f" by {r.model}" if r.model else ", lexical only"))


# -- search --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Hit:
    rank: int
    score: float
    method: str
    chunk: StoredChunk
    scores: dict[str, float] = field(default_factory=dict)  # by method, when fused
    # promoted entities whose evidence lies in this chunk's lines (shown with it, not again)
    entities: tuple[str, ...] = ()

    def as_json(self) -> dict[str, Any]:
        c = self.chunk
        out: dict[str, Any] = {
            "rank": self.rank, "score": round(self.score, 6), "method": self.method,
            "kind": c.kind, "context": c.context,
            "citation": {"snapshot_id": c.snapshot_id, "doc": c.doc,
                         "lines": [c.start_line, c.end_line], "excerpt": c.text},
        }
        if c.entity_key:
            out["entity_key"] = c.entity_key
        if self.entities:
            out["entities"] = list(self.entities)
        if self.scores:
            out["scores"] = {k: round(v, 6) for k, v in self.scores.items()}
        return out


def lexical_ranking(store: Store, query: str, limit: int) -> list[tuple[StoredChunk, float]]:
    with store.engine.connect() as conn:
        return ix.lexical(conn, query_words(query), limit)


def embedding_ranking(store: Store, query: str, limit: int, embedder: Embedder
                      ) -> list[tuple[StoredChunk, float]]:
    """Rows by cosine similarity to the query's vector (the vectors are normalised)."""
    with store.engine.connect() as conn:
        ids, matrix = ix.vectors(conn, embedder.name)
        if not ids:
            return []
        q = embedder.embed([f"{query}\n{terms_of(query)}".strip()])[0]
        sims = matrix @ q
        order = np.argsort(-sims, kind="stable")[:limit]
        rows = {c.id: c for c in ix.chunks(conn, [ids[i] for i in order])}
    return [(rows[ids[i]], float(sims[i])) for i in order if ids[i] in rows]


def fused(rankings: dict[str, list[tuple[StoredChunk, float]]], limit: int
          ) -> list[tuple[StoredChunk, float, dict[str, float]]]:
    """Reciprocal rank fusion: each row scores the sum of 1 / (RRF_K + rank) over the
    rankings that hold it; ties by the first ranking's order."""
    score: dict[str, float] = {}
    parts: dict[str, dict[str, float]] = {}
    rows: dict[str, StoredChunk] = {}
    for name, ranking in rankings.items():
        for rank, (c, s) in enumerate(ranking, start=1):
            score[c.id] = score.get(c.id, 0.0) + 1.0 / (RRF_K + rank)
            parts.setdefault(c.id, {})[name] = s
            rows.setdefault(c.id, c)
    order = sorted(score, key=lambda i: -score[i])
    return [(rows[i], score[i], parts[i]) for i in order[:limit]]


def resolve_mode(store: Store, mode: str, embedder: Embedder | None) -> str:
    """The method a search uses: `auto` is hybrid when the case has vectors from the
    loaded model, else lexical; embedding or hybrid without them is one line."""
    if mode not in MODES:
        raise InputError(f"unknown search mode {mode!r}; use one of {', '.join(MODES)}",
                         field="--mode")
    has = False
    if embedder is not None:
        with store.engine.connect() as conn:
            has = embedder.name in ix.vector_models(conn)
    if mode == "auto":
        return "hybrid" if has else "lexical"
    if mode in ("embedding", "hybrid") and not has:
        why = ("no embedding model is installed (pip install 'sleuth[embed]')"
               if embedder is None else f"the case has no vectors from {embedder.name}")
        raise InputError(f"cannot search by {mode}: {why}", field="--mode")
    return mode


def _overlap(a: StoredChunk, b: StoredChunk) -> bool:
    return (a.snapshot_id == b.snapshot_id and a.start_line <= b.end_line
            and b.start_line <= a.end_line)


def collapsed(ranked: Sequence[tuple[StoredChunk, float, dict[str, float]]], limit: int
              ) -> list[tuple[StoredChunk, float, dict[str, float], tuple[str, ...]]]:
    """One result per place: an entity whose evidence lies in a chunk ranked above it is
    named with that chunk, and a chunk holding an entity ranked above it is left out (the
    entity already cites those lines)."""
    kept: list[tuple[StoredChunk, float, dict[str, float], list[str]]] = []
    for c, score, parts in ranked:
        near = next((k for k in kept if (k[0].kind == "entity") != (c.kind == "entity")
                     and _overlap(k[0], c)), None)
        if near is not None:
            if c.entity_key and c.entity_key not in near[3]:
                near[3].append(c.entity_key)
            continue
        kept.append((c, score, parts, []))
        if len(kept) == limit:
            break
    return [(c, score, parts, tuple(ents)) for c, score, parts, ents in kept]


def search(store: Store, query: str, *, limit: int = 10, mode: str = "auto",
           embedder: Embedder | None = None) -> list[Hit]:
    """The `limit` best places for `query`, each with its citation (a chunk and a promoted
    entity citing the same lines count once: `collapsed`)."""
    if not query.strip():
        raise InputError("the query is empty", field="QUERY")
    if limit < 1:
        raise InputError("--limit must be at least 1", field="--limit")
    method = resolve_mode(store, mode, embedder)
    depth = max(POOL, 2 * limit)  # deeper than asked: collapsing may use some up
    ranked: list[tuple[StoredChunk, float, dict[str, float]]]
    if method == "lexical":
        ranked = [(c, s, {}) for c, s in lexical_ranking(store, query, depth)]
    else:
        assert embedder is not None
        emb = embedding_ranking(store, query, depth, embedder)
        if method == "embedding":
            ranked = [(c, s, {}) for c, s in emb]
        else:
            ranked = fused({"lexical": lexical_ranking(store, query, depth),
                            "embedding": emb}, depth)
    return [Hit(r, s, method, c, parts, ents) for r, (c, s, parts, ents) in
            enumerate(collapsed(ranked, limit), start=1)]


def rankings_for(store: Store, query: str, depth: int, embedder: Embedder | None
                 ) -> dict[str, Sequence[StoredChunk]]:
    """Each method's ranking of `query` to `depth` (the benchmark's view)."""
    out: dict[str, Sequence[StoredChunk]] = {}
    for mode in ("lexical", "embedding", "hybrid") if embedder else ("lexical",):
        out[mode] = [h.chunk for h in search(store, query, limit=depth, mode=mode,
                                             embedder=embedder)]
    return out
