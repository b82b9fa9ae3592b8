"""The curation domain's rows (seed 002): staging extractions, validation decisions, core
entities, equivalences, conflicts and the review queue; their reads, and one handle per
agent that exposes only what seed 002 allows it.

    with as_extractor(store, conn) as ex:          # ExtractorHandle
        ex.stage(NewExtraction(...))                # INSERT staging_extractions (pending)
    with as_validator(store, conn) as va:          # ValidatorHandle
        va.set_status(eid, "acceptable"); va.record(eid, "acceptable", "...")
    with as_decision_maker(store, conn) as dm:     # DecisionHandle
        dm.promote(x, ...); dm.link(x, entity, ...); dm.queue_review(eid, ...)

A handle acts under its agent's database role for as long as the block lasts
(`curation_roles.acting_as`), so the database refuses what the agent may not write even to
code that reaches past the handle; a refused write is `ForbiddenWrite`, one line. Every
write is audited in the caller's transaction; ids are named by content, so a task redone
after a kill writes the same rows.

Stable API for the batch functions that read promoted entities (search, graph): the table
names above and `core_entities`, `equivalences`, `conflicts`, `review_items`,
`extractions` with the dataclasses they return.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from typing import Any, Literal

from sqlalchemy import Connection, func, insert, select, update
from sqlalchemy.exc import DBAPIError

from sleuth.model import NotFound, Snapshot, stable_id, utcnow
from sleuth.store import schema as t
from sleuth.store.curation_roles import Agent, ForbiddenWrite, acting_as, is_forbidden
from sleuth.store.store import Store

_X, _V, _E, _Q, _C, _R = (t.staging_extractions.c, t.validation_decisions.c,
                          t.core_entities.c, t.core_equivalences.c, t.core_conflicts.c,
                          t.curation_review.c)
AGENT_NAMES: dict[Agent, str] = {"extractor": "extractor_agent", "validator": "validator_agent",
                                 "decision_maker": "decision_maker_agent"}


# -- rows -------------------------------------------------------------------------------
@dataclass(frozen=True)
class NewExtraction:
    """What the Extractor stages (seed 002's output schema) with where its evidence is."""

    snapshot_id: str
    candidate_type: str
    candidate_key: str
    candidate_payload: dict[str, Any]
    confidence_score: float
    confidence_reason: str
    evidence_text: str
    evidence_doc: str
    lines: tuple[int, int]
    span: tuple[int, int]
    evidence_type: str
    task_id: str | None = None
    refines: str | None = None
    attempt: int = 0


@dataclass(frozen=True)
class Extraction:
    id: str
    seq: int
    snapshot_id: str
    task_id: str | None
    refines: str | None
    attempt: int
    candidate_type: str
    candidate_key: str
    candidate_payload: dict[str, Any]
    confidence_score: float
    confidence_reason: str
    evidence_text: str
    evidence_doc: str
    lines: tuple[int, int]
    span: tuple[int, int]
    evidence_type: str
    status: str
    created_by: str

    def citation(self) -> dict[str, Any]:
        return {"snapshot_id": self.snapshot_id, "doc": self.evidence_doc,
                "lines": list(self.lines), "text": self.evidence_text}

    def as_seed(self) -> dict[str, Any]:
        """The row as seed 002's Extractor output schema."""
        return {"candidate_type": self.candidate_type, "candidate_key": self.candidate_key,
                "candidate_payload": self.candidate_payload,
                "confidence_score": self.confidence_score,
                "confidence_reason": self.confidence_reason,
                "evidence": {"text": self.evidence_text,
                             "source": {"doc": self.evidence_doc, "lines": list(self.lines)}},
                "evidence_type": self.evidence_type, "status": self.status}


@dataclass(frozen=True)
class CoreEntity:
    id: str
    entity_type: str
    candidate_key: str
    name: str
    module: str | None
    component: str | None
    payload: dict[str, Any]
    confidence: float
    ecosystem: str
    snapshot_id: str
    extraction_id: str
    evidence_text: str
    evidence_doc: str
    lines: tuple[int, int]
    evidence_type: str
    reason: str
    promoted_by: str

    def citation(self) -> dict[str, Any]:
        return {"snapshot_id": self.snapshot_id, "doc": self.evidence_doc,
                "lines": list(self.lines), "text": self.evidence_text}


@dataclass(frozen=True)
class Equivalence:
    id: str
    entity_id: str
    extraction_id: str
    definition_key: str
    other_key: str
    relation: str
    method: str
    reason: str
    confidence: float
    definition_citation: dict[str, Any]
    other_citation: dict[str, Any]
    created_by: str


@dataclass(frozen=True)
class Conflict:
    id: str
    entity_id: str
    equivalence_id: str
    field: str
    definition_value: Any
    other_value: Any
    definition_citation: dict[str, Any]
    other_citation: dict[str, Any]


@dataclass(frozen=True)
class ReviewItem:
    id: str
    extraction_id: str
    priority: str
    reason: str
    missing_fields: list[str]
    origin: str
    status: str
    created_by: str


@dataclass(frozen=True)
class DecisionRow:
    id: str
    extraction_id: str
    stage: str
    decided_by: str
    decision: str
    reason: str
    request: str | None
    priority: str | None
    missing_fields: list[str]
    confidence_at_decision: float | None
    canonical_id: str | None


def _extraction(r: Any) -> Extraction:
    return Extraction(
        id=r.id, seq=r.seq, snapshot_id=r.snapshot_id, task_id=r.task_id, refines=r.refines,
        attempt=r.attempt, candidate_type=r.candidate_type, candidate_key=r.candidate_key,
        candidate_payload=dict(r.candidate_payload), confidence_score=r.confidence_score,
        confidence_reason=r.confidence_reason, evidence_text=r.evidence_text,
        evidence_doc=r.evidence_doc, lines=(r.line_start, r.line_end),
        span=(r.char_start, r.char_end), evidence_type=r.evidence_type, status=r.status,
        created_by=r.created_by)


def _entity(r: Any) -> CoreEntity:
    return CoreEntity(
        id=r.id, entity_type=r.entity_type, candidate_key=r.candidate_key, name=r.name,
        module=r.module, component=r.component, payload=dict(r.payload),
        confidence=r.confidence, ecosystem=r.ecosystem, snapshot_id=r.snapshot_id,
        extraction_id=r.extraction_id, evidence_text=r.evidence_text,
        evidence_doc=r.evidence_doc, lines=(r.line_start, r.line_end),
        evidence_type=r.evidence_type, reason=r.reason, promoted_by=r.promoted_by)


def _equivalence(r: Any) -> Equivalence:
    return Equivalence(
        id=r.id, entity_id=r.entity_id, extraction_id=r.extraction_id,
        definition_key=r.definition_key, other_key=r.other_key, relation=r.relation,
        method=r.method, reason=r.reason, confidence=r.confidence,
        definition_citation=dict(r.definition_citation),
        other_citation=dict(r.other_citation), created_by=r.created_by)


# -- reads ------------------------------------------------------------------------------
def extraction(conn: Connection, extraction_id: str) -> Extraction:
    r = conn.execute(select(t.staging_extractions).where(_X.id == extraction_id)).first()
    if r is None:
        raise NotFound(f"staging extraction {extraction_id} does not exist")
    return _extraction(r)


def extractions(conn: Connection, *, snapshot_id: str | None = None,
                statuses: Iterable[str] | None = None) -> list[Extraction]:
    """Staged extractions in the order they were staged."""
    q = select(t.staging_extractions).order_by(_X.seq)
    if snapshot_id is not None:
        q = q.where(_X.snapshot_id == snapshot_id)
    if statuses is not None:
        q = q.where(_X.status.in_(tuple(statuses)))
    return [_extraction(r) for r in conn.execute(q)]


def core_entities(conn: Connection, *, entity_type: str | None = None) -> list[CoreEntity]:
    """Every promoted core entity, by key."""
    q = select(t.core_entities).order_by(_E.candidate_key)
    if entity_type is not None:
        q = q.where(_E.entity_type == entity_type)
    return [_entity(r) for r in conn.execute(q)]


def core_entity_by_key(conn: Connection, key: str) -> CoreEntity | None:
    r = conn.execute(select(t.core_entities).where(_E.candidate_key == key)).first()
    return None if r is None else _entity(r)


def equivalences(conn: Connection) -> list[Equivalence]:
    """Every equivalence, by the core entity's key, then the other side's key."""
    return [_equivalence(r) for r in conn.execute(select(t.core_equivalences).order_by(
        _Q.definition_key, _Q.other_key, _Q.id))]


def conflicts(conn: Connection) -> list[Conflict]:
    return [Conflict(r.id, r.entity_id, r.equivalence_id, r.field, r.definition_value,
                     r.other_value, dict(r.definition_citation), dict(r.other_citation))
            for r in conn.execute(select(t.core_conflicts).join(
                t.core_equivalences, _Q.id == _C.equivalence_id).order_by(
                _Q.definition_key, _Q.other_key, _C.field))]


def review_items(conn: Connection, status: str | None = "open") -> list[ReviewItem]:
    """The curation review queue: high priority first, then in staging order."""
    q = (select(t.curation_review).join(t.staging_extractions, _X.id == _R.extraction_id)
         .order_by(_R.priority, _X.seq))  # 'high' < 'normal'
    if status is not None:
        q = q.where(_R.status == status)
    if status == "open":  # not one a later decision re-checked (its extraction superseded)
        q = q.where(_X.status != "superseded")
    return [ReviewItem(r.id, r.extraction_id, r.priority, r.reason, list(r.missing_fields),
                       r.origin, r.status, r.created_by) for r in conn.execute(q)]


def decisions(conn: Connection, extraction_id: str | None = None) -> list[DecisionRow]:
    q = select(t.validation_decisions).order_by(_V.decided_at, _V.id)
    if extraction_id is not None:
        q = q.where(_V.extraction_id == extraction_id)
    return [DecisionRow(r.id, r.extraction_id, r.stage, r.decided_by, r.decision, r.reason,
                        r.request, r.priority, list(r.missing_fields),
                        r.confidence_at_decision, r.canonical_id) for r in conn.execute(q)]


def curation_counts(conn: Connection) -> dict[str, int]:
    """Rows per curation table, and extractions per status."""
    out = {name: int(conn.execute(select(func.count()).select_from(
        t.metadata.tables[name])).scalar_one())
        for name in ("staging_extractions", "validation_decisions", "core_entities",
                     "core_equivalences", "core_conflicts", "curation_review")}
    for status, n in conn.execute(select(_X.status, func.count()).group_by(_X.status)):
        out[f"status_{status}"] = int(n)
    return out


def case_summary(conn: Connection) -> dict[str, int]:
    """What `sleuth ingest` closes with on a curation case: snapshots, core entities, and
    the open items of the curation review queue (`curation_review`, not genealogy's)."""
    def n(table: Any, *where: Any) -> int:
        return int(conn.execute(select(func.count()).select_from(table).where(*where))
                   .scalar_one())
    return {"snapshots": n(t.snapshots), "core_entities": n(t.core_entities),
            "review_open": len(review_items(conn))}


# -- handles ----------------------------------------------------------------------------
class _Handle:
    """What every agent may do: read."""

    agent: Agent

    def __init__(self, store: Store, conn: Connection) -> None:
        self._store = store
        self._conn = conn
        self.name = AGENT_NAMES[self.agent]

    def snapshot(self, snapshot_id: str) -> Snapshot:
        return self._store.snapshot(snapshot_id, self._conn)

    def extraction(self, extraction_id: str) -> Extraction:
        return extraction(self._conn, extraction_id)

    def extractions(self, *, snapshot_id: str | None = None,
                    statuses: Iterable[str] | None = None) -> list[Extraction]:
        return extractions(self._conn, snapshot_id=snapshot_id, statuses=statuses)

    def core_entities(self) -> list[CoreEntity]:
        return core_entities(self._conn)

    def core_entity_by_key(self, key: str) -> CoreEntity | None:
        return core_entity_by_key(self._conn, key)

    def _write(self, stmt: Any, params: dict[str, Any] | None = None) -> Any:
        try:
            return self._conn.execute(stmt, params or {})
        except DBAPIError as exc:
            if is_forbidden(exc):
                line = str(exc.orig).strip().splitlines()[0]
                raise ForbiddenWrite(f"{self.name}: {line}") from None
            raise

    def _audit(self, action: str, entity: str, row_id: str, before: dict[str, Any] | None,
               after: dict[str, Any], reason: str = "") -> None:
        self._store.audit(self._conn, action, entity, row_id, before, after, self.name, reason)


class _Decides(_Handle):
    """What the Validator and the Decision Maker share: an extraction's status, and the
    decisions they record."""

    def set_status(self, extraction_id: str, status: str, reason: str = "") -> None:
        before = extraction(self._conn, extraction_id).status
        if before == status:
            return
        self._write(update(t.staging_extractions).where(_X.id == extraction_id)
                    .values(status=status))
        self._audit("extraction_status", "staging_extraction", extraction_id,
                    {"status": before}, {"status": status}, reason)

    def record(self, extraction_id: str, decision: str, reason: str, *,
               request: str | None = None, priority: str | None = None,
               missing: Sequence[str] = (), confidence: float | None = None,
               canonical_id: str | None = None) -> str:
        """Append one decision (seed 002 `validation_decisions`); its id."""
        n = int(self._conn.execute(select(func.count()).where(
            _V.extraction_id == extraction_id)).scalar_one())
        did = stable_id("validation_decision", extraction_id, str(n))
        stage = "validator" if self.agent == "validator" else "decision_maker"
        self._write(insert(t.validation_decisions).values(
            id=did, extraction_id=extraction_id, stage=stage, decided_by=self.name,
            decision=decision, reason=reason, request=request, priority=priority,
            missing_fields=list(missing), confidence_at_decision=confidence,
            canonical_id=canonical_id, decided_at=utcnow()))
        self._audit("validation_decision", "staging_extraction", extraction_id, None,
                    {"stage": stage, "decision": decision}, reason)
        return did


class ExtractorHandle(_Handle):
    """Seed 002's Extractor: inserts snapshots and staging extractions (always pending)."""

    agent: Agent = "extractor"

    def put_snapshot(self, raw: bytes, snap: Snapshot) -> tuple[Snapshot, bool]:
        try:
            return self._store.put_snapshot(self._conn, raw, snap)
        except DBAPIError as exc:
            if is_forbidden(exc):
                raise ForbiddenWrite(f"{self.name}: {str(exc.orig).splitlines()[0]}") from None
            raise

    def stage(self, x: NewExtraction) -> Extraction:
        """Stage one candidate (pending); the same candidate staged again is the row there
        (its id is named by its snapshot, key, lines and attempt)."""
        eid = stable_id("staging_extraction", x.snapshot_id, x.candidate_key,
                        f"{x.lines[0]}-{x.lines[1]}", str(x.attempt), x.refines or "")
        found = self._conn.execute(select(t.staging_extractions).where(_X.id == eid)).first()
        if found is not None:
            return _extraction(found)
        seq = int(self._conn.execute(select(func.coalesce(func.max(_X.seq), 0)))
                  .scalar_one()) + 1
        self._write(insert(t.staging_extractions).values(
            id=eid, seq=seq, snapshot_id=x.snapshot_id, task_id=x.task_id, refines=x.refines,
            attempt=x.attempt, candidate_type=x.candidate_type, candidate_key=x.candidate_key,
            candidate_payload=x.candidate_payload, confidence_score=x.confidence_score,
            confidence_reason=x.confidence_reason, evidence_text=x.evidence_text,
            evidence_doc=x.evidence_doc, line_start=x.lines[0], line_end=x.lines[1],
            char_start=x.span[0], char_end=x.span[1], evidence_type=x.evidence_type,
            created_by=self.name, created_at=utcnow()))
        self._audit("extraction_staged", "staging_extraction", eid, None,
                    {"status": "pending", "candidate_key": x.candidate_key,
                     "attempt": x.attempt, "refines": x.refines})
        return extraction(self._conn, eid)


class ValidatorHandle(_Decides):
    """Seed 002's Validator: updates an extraction's status, records its decisions."""

    agent: Agent = "validator"


class DecisionHandle(_Decides):
    """Seed 002's Decision Maker: the only writer of core entities and equivalences (and
    of their conflicts and the human review queue)."""

    agent: Agent = "decision_maker"

    def promote(self, x: Extraction, *, name: str, module: str | None,
                component: str | None, reason: str, ecosystem: str = "fprime") -> CoreEntity:
        """A new core entity from `x`, with its citation (evidence text, doc, lines)."""
        eid = stable_id("core_entity", x.candidate_key)
        self._write(insert(t.core_entities).values(
            id=eid, entity_type=x.candidate_type, candidate_key=x.candidate_key, name=name,
            module=module, component=component, payload=x.candidate_payload,
            confidence=x.confidence_score, ecosystem=ecosystem, snapshot_id=x.snapshot_id,
            extraction_id=x.id, evidence_text=x.evidence_text, evidence_doc=x.evidence_doc,
            line_start=x.lines[0], line_end=x.lines[1], evidence_type=x.evidence_type,
            reason=reason, promoted_by=self.name, promoted_at=utcnow()))
        self._audit("core_entity_promoted", "core_entity", eid, None,
                    {"candidate_key": x.candidate_key, "extraction_id": x.id}, reason)
        found = core_entity_by_key(self._conn, x.candidate_key)
        assert found is not None
        return found

    def link(self, x: Extraction, entity: CoreEntity, *, relation: str, method: str,
             reason: str, confidence: float,
             disagreements: Sequence[tuple[str, Any, Any]] = ()) -> Equivalence:
        """`x` is `entity` seen again: one equivalence citing both, and one conflict per
        field they disagree on (field, the definition's value, the other's value). Only an
        entity of the same type can be (a requirement is not the component it binds)."""
        if x.candidate_type != entity.entity_type:
            raise ValueError(f"{x.candidate_key} ({x.candidate_type}) cannot be equivalent to "
                             f"{entity.candidate_key} ({entity.entity_type}): not one type")
        qid = stable_id("core_equivalence", x.id)
        ours, theirs = entity.citation(), x.citation()
        self._write(insert(t.core_equivalences).values(
            id=qid, entity_id=entity.id, extraction_id=x.id,
            definition_key=entity.candidate_key, other_key=x.candidate_key, relation=relation,
            method=method, reason=reason, confidence=confidence, definition_citation=ours,
            other_citation=theirs, created_by=self.name, created_at=utcnow()))
        self._audit("core_equivalence", "core_entity", entity.id, None,
                    {"extraction_id": x.id, "relation": relation, "method": method}, reason)
        for fld, def_value, other_value in disagreements:
            cid = stable_id("core_conflict", qid, fld)
            self._write(insert(t.core_conflicts).values(
                id=cid, entity_id=entity.id, equivalence_id=qid, field=fld,
                definition_value=def_value, other_value=other_value,
                definition_citation=ours, other_citation=theirs, created_by=self.name,
                created_at=utcnow()))
            self._audit("core_conflict", "core_entity", entity.id, None,
                        {"field": fld, "definition": def_value, "other": other_value})
        row = self._conn.execute(select(t.core_equivalences).where(_Q.id == qid)).one()
        return _equivalence(row)

    def queue_review(self, extraction_id: str, *, priority: str, reason: str,
                     missing: Sequence[str] = (),
                     origin: Literal["decision", "loop_limit", "call_limit"] = "decision"
                     ) -> str:
        """The extraction to the human review queue (once); its review id."""
        rid = stable_id("curation_review", extraction_id)
        if self._conn.execute(select(_R.id).where(_R.id == rid)).first() is not None:
            return rid
        self._write(insert(t.curation_review).values(
            id=rid, extraction_id=extraction_id, priority=priority, reason=reason,
            missing_fields=list(missing), origin=origin, status="open",
            created_by=self.name, created_at=utcnow()))
        self._audit("curation_review_queued", "staging_extraction", extraction_id, None,
                    {"priority": priority, "origin": origin}, reason)
        return rid


@contextmanager
def as_extractor(store: Store, conn: Connection) -> Iterator[ExtractorHandle]:
    """The Extractor's handle on the caller's transaction, under its database role."""
    with acting_as(conn, "extractor"):
        yield ExtractorHandle(store, conn)


@contextmanager
def as_validator(store: Store, conn: Connection) -> Iterator[ValidatorHandle]:
    """The Validator's handle on the caller's transaction, under its database role."""
    with acting_as(conn, "validator"):
        yield ValidatorHandle(store, conn)


@contextmanager
def as_decision_maker(store: Store, conn: Connection) -> Iterator[DecisionHandle]:
    """The Decision Maker's handle on the caller's transaction, under its database role."""
    with acting_as(conn, "decision_maker"):
        yield DecisionHandle(store, conn)


def as_dict(row: Any) -> dict[str, Any]:
    """A row dataclass as a plain dict (exports)."""
    out = asdict(row)
    for k in ("lines", "span"):
        if k in out:
            out[k] = list(out[k])
    return out
