"""The curation domain's agents on the blackboard (`agent_tasks`, run by `sleuth work`).

- `curation_extraction` (the Extractor, one per stored file): reads the file (FPP or SDD
  Markdown), stages every candidate in `staging_extractions` (status `pending`, its evidence
  the file's own text at its lines) and queues the file's `curation_refinement` task.
- `curation_refinement` (Validator ⇄ Extractor → Decision Maker, `loop.curate`): each
  pending extraction of the file through seed 002's refinement loop. A design document's
  task waits (goes back to the end of the queue) while formal work is open, so that every
  FPP definition is in the core before prose is compared with it.

An agent writes in the caller's transaction through its handle (`store.curation`); the
worker completes the task in that same transaction, so a `kill -9` leaves a task either not
done or done with all it wrote. Ids are named by content: a task redone writes the same rows.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection

from sleuth.domains.base import Outcome
from sleuth.domains.curation.candidates import file_candidates
from sleuth.domains.curation.fpp import FppSyntaxError
from sleuth.domains.curation.limits import SEED_002, Limits
from sleuth.domains.curation.match import Definitions
from sleuth.domains.curation.model import CurationCandidate, span_of
from sleuth.domains.curation.prose import sdd_candidates
from sleuth.domains.curation.rules import ENTITY_TYPES, THRESHOLDS
from sleuth.model import Snapshot
from sleuth.store import agent_tasks as bb
from sleuth.store.agent_tasks import AgentTask
from sleuth.store.curation import NewExtraction, as_decision_maker, as_extractor
from sleuth.store.store import Store

AGENT_VERSION = "1.0.0"
MODEL = "deterministic"
EXTRACTOR, VALIDATOR = "extractor", "validator"
TASK_EXTRACT, TASK_REFINE = "curation_extraction", "curation_refinement"
PROSE_SUFFIXES = (".md",)
FORMAL_SUFFIXES = (".fpp", ".fppi")


def doc_name(snap: Snapshot) -> str:
    """The file's name as its citations give it (`Svc__TlmChan__TlmChan.fpp`)."""
    where = str(snap.metadata.get("filename") or snap.path or snap.url or snap.source_name)
    return where.replace("\\", "/").rsplit("/", 1)[-1]


def read_candidates(text: str, doc: str) -> list[CurationCandidate]:
    """The seed 002 candidates of one file, by its kind (FPP or SDD Markdown)."""
    if doc.endswith(FORMAL_SUFFIXES):
        return file_candidates(text, doc)
    if doc.endswith(PROSE_SUFFIXES) and doc != "INDEX.md":
        return sdd_candidates(text, doc)
    return []


def _base(**more: Any) -> dict[str, Any]:
    return {"agent_version": AGENT_VERSION, "model_used": MODEL, "items_created": [],
            "skipped_sections": [], "uncertainties": [], **more}


def extraction_agent(store: Store, conn: Connection, task: AgentTask) -> Outcome:
    """Seed 002's Extractor, first pass: parse the stored file, stage its candidates."""
    sid = str(task.snapshot_id)
    with as_extractor(store, conn) as ex:
        snap = ex.snapshot(sid)
        doc = doc_name(snap)
        try:
            cands = read_candidates(snap.text, doc)
        except FppSyntaxError as exc:
            return Outcome("failed", f"{doc}: {exc}", _base(), error=str(exc))
        staged = []
        for c in cands:
            lo, hi = span_of(snap.text, c.evidence.source.lines)
            staged.append(ex.stage(NewExtraction(
                snapshot_id=sid, candidate_type=c.candidate_type,
                candidate_key=c.candidate_key, candidate_payload=dict(c.candidate_payload),
                confidence_score=c.confidence_score, confidence_reason=c.confidence_reason,
                evidence_text=c.evidence.text, evidence_doc=doc, lines=c.evidence.source.lines,
                span=(lo, hi), evidence_type=c.evidence_type, task_id=task.id)).id)
    prose = doc.endswith(PROSE_SUFFIXES)
    follow = bb.create_task(store, conn, task_type=TASK_REFINE, agent=VALIDATOR,
                            snapshot_id=sid, parent_id=task.id,
                            payload={"document": doc, "prose": prose}, by=EXTRACTOR)
    line = f"{doc}: {len(staged)} candidates staged"
    return Outcome("completed", line,
                   _base(extractions_staged=len(staged), items_created=staged,
                         refinement_task=follow, document=doc, analysis_summary=line))


def _formal_work_open(conn: Connection, me: str) -> int:
    """Open tasks a design document's refinement waits for: every extraction, and every
    refinement of a formal file."""
    return sum(1 for t in bb.list_tasks(conn)
               if t.id != me and t.status in ("pending", "running")
               and (t.task_type == TASK_EXTRACT
                    or (t.task_type == TASK_REFINE and not t.input.get("prose"))))


def refinement_agent(store: Store, conn: Connection, task: AgentTask,
                     limits: Limits = SEED_002) -> Outcome:
    """Each pending extraction of the file through the refinement loop."""
    # LangGraph loads only when the loop runs
    from sleuth.domains.curation.loop import LoopContext, curate, recheck_waiting_prose

    doc = str(task.input.get("document", task.snapshot_id))
    if task.input.get("prose") and (waiting := _formal_work_open(conn, task.id)):
        return Outcome("requeued", f"{doc}: waits for {waiting} formal tasks",
                       _base(phase="waiting for the formal definitions", waiting_for=waiting))
    with as_decision_maker(store, conn) as dm:
        known = Definitions(dm.core_entities())
        pending = [x.id for x in dm.extractions(snapshot_id=task.snapshot_id,
                                                statuses=("pending",))]
    ctx = LoopContext(store, conn, required=REQUIRED_FIELDS, thresholds=THRESHOLDS,
                      limits=limits, definitions=known, task_id=task.id)
    outcomes: dict[str, int] = {}
    for xid in pending:
        status = curate(ctx, xid)
        outcomes[status] = outcomes.get(status, 0) + 1
    if not task.input.get("prose") and outcomes.get("accepted"):
        # new definitions: prose that went to review without one is decided again
        for status in recheck_waiting_prose(ctx):
            outcomes[f"rechecked {status}"] = outcomes.get(f"rechecked {status}", 0) + 1
    said = ", ".join(f"{n} {s}" for s, n in sorted(outcomes.items())) or "nothing pending"
    return Outcome("completed", f"{doc}: {said}",
                   _base(extractions=len(pending), outcomes=outcomes, document=doc,
                         analysis_summary=f"{doc}: {said}",
                         uncertainties=[f"{n} to human review" for s, n in outcomes.items()
                                        if s == "review"]))


# The domain's declaration of what each type requires (`EntityType.required`).
REQUIRED_FIELDS: dict[str, tuple[str, ...]] = {e.name: e.required for e in ENTITY_TYPES}

AGENTS = {TASK_EXTRACT: extraction_agent, TASK_REFINE: refinement_agent}
