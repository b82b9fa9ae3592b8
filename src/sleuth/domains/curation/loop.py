"""Seed 002's refinement loop on LangGraph: validator ⇄ extractor → decision maker, one graph
run per staged extraction, bounded by the seed's limits (`Limits`).

    validator ──needs more evidence──► extractor ──► validator
        │ acceptable (or the extractor found nothing more)
        ▼
    decision_maker ──► END        (a rejection by the validator also ends the run)

The Extractor staged the candidate already (its task's first run, `agents.extraction`); the
loop is the box seed 002 draws around Validator and Extractor. LangGraph's `recursion_limit`
(5) counts super-steps: validator, extractor, validator, decision maker is four and fits;
a second request for more evidence does not, and LangGraph raises `GraphRecursionError`.
Tool and model calls are counted per agent as seed 002's middleware configures them
(`ToolCallLimitMiddleware`, `modelCallLimitMiddleware`). Hitting any limit sends the item
to human review with the reason (`curation_review`, origin `loop_limit` or `call_limit`),
never drops it; the writes the graph made before stay (they are in the task's transaction).

Each node acts through its agent's handle (`sleuth.store.curation`), so the database
refuses it what seed 002 forbids. The agents are deterministic: they call no model, and
each agent turn counts against the model-call limit where a model call would be.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any, Literal, TypedDict

from langchain_core.runnables import RunnableConfig
from langgraph.errors import GraphRecursionError
from langgraph.graph import END, StateGraph
from sqlalchemy import Connection

from sleuth.domains.curation.limits import SEED_002, Limits
from sleuth.domains.curation.match import TRACES, Definitions, disagreements, module_of
from sleuth.domains.curation.model import span_of
from sleuth.pipeline.decision import Thresholds, make_decision
from sleuth.store.curation import (
    CoreEntity,
    DecisionHandle,
    Extraction,
    NewExtraction,
    as_decision_maker,
    as_extractor,
    as_validator,
    review_items,
)
from sleuth.store.store import Store

FORMAL = frozenset({"interface_contract", "formal_definition", "topology"})
CORROBORATED = "corroborated"  # the payload field a refinement adds


class LimitReached(Exception):
    """A tool or model call limit: the item goes to human review with this reason."""


@dataclass
class Calls:
    """The calls of one run, and of its thread (every run for one candidate key)."""

    limits: Limits
    thread: dict[str, int]
    run: dict[str, int] = field(default_factory=dict)

    def _count(self, key: str, limit: int, where: dict[str, int], what: str) -> None:
        where[key] = where.get(key, 0) + 1
        if where[key] > limit:
            raise LimitReached(f"{what} limit reached ({limit})")

    def tool(self, agent: str, name: str) -> None:
        self._count(agent, self.limits.tool_calls.get(agent, 10**9), self.run,
                    f"{agent} tool-call run")
        if name in self.limits.per_tool:
            self._count(f"tool:{name}", self.limits.per_tool[name], self.run,
                        f"{name} tool-call run")
        self._count("all", self.limits.run_tool_calls, self.run, "tool-call run")
        self._count("tools", self.limits.thread_tool_calls, self.thread, "tool-call thread")

    def model(self, agent: str) -> None:
        self._count("model", self.limits.model_calls_run, self.run, "model-call run")
        self._count("model", self.limits.model_calls_thread, self.thread, "model-call thread")


@dataclass
class LoopContext:
    """What the nodes share within one task: the store and its transaction, the domain's
    declarations, the core's definitions (kept current), snapshot texts read once."""

    store: Store
    conn: Connection
    required: Mapping[str, tuple[str, ...]]
    thresholds: Thresholds
    limits: Limits = SEED_002
    definitions: Definitions = field(default_factory=Definitions)
    task_id: str | None = None
    texts: dict[str, str] = field(default_factory=dict)
    threads: dict[str, dict[str, int]] = field(default_factory=dict)
    # set per run
    current: str = ""
    calls: Calls | None = None
    last_request: str = ""
    refinements: int = 0
    # a test's way to make the extractor misbehave (the loop's limits are what it tests)
    refine: Callable[[LoopContext, Extraction, str], Extraction | None] | None = None


class LoopState(TypedDict, total=False):
    extraction_id: str
    needs_refinement: bool
    rejected: bool
    request: str
    request_kind: str
    exhausted: str  # the request kind the extractor could do nothing more for
    missing: list[str]


Route = Literal["extractor", "decision_maker", "__end__"]


def _ctx(config: RunnableConfig) -> LoopContext:
    ctx: LoopContext = config["configurable"]["curation"]
    return ctx


def _text(ctx: LoopContext, snapshot_id: str, agent: str, tool: str) -> str:
    assert ctx.calls is not None
    ctx.calls.tool(agent, tool)
    if snapshot_id not in ctx.texts:
        ctx.texts[snapshot_id] = ctx.store.snapshot(snapshot_id, ctx.conn).text
    return ctx.texts[snapshot_id]


def evidence_at_lines(text: str, x: Extraction) -> bool:
    """The extraction's evidence is the stored text at its span, and its span its lines."""
    try:
        lo, hi = span_of(text, x.lines)
    except ValueError:
        return False
    return (lo, hi) == x.span and text[lo:hi] == x.evidence_text


def missing_fields(ctx: LoopContext, x: Extraction, entity: CoreEntity | None = None
                   ) -> list[str]:
    """The fields the domain requires of this type (`EntityType.required`) that neither
    the candidate nor the definition it was found to be states."""
    have = dict(entity.payload) if entity is not None else {}
    have.update({k: v for k, v in x.candidate_payload.items() if v not in (None, "", [], {})})
    return [f for f in ctx.required.get(x.candidate_type, ())
            if have.get(f) in (None, "", [], {})]


def _corroborated(ctx: LoopContext, x: Extraction) -> CoreEntity | None:
    got = x.candidate_payload.get(CORROBORATED)
    return ctx.definitions.by_key.get(got["key"]) if isinstance(got, dict) else None


def _compared(ctx: LoopContext, x: Extraction) -> bool:
    """Already compared with a definition: found to be it, or (a requirement) traced to
    its component."""
    return _corroborated(ctx, x) is not None or isinstance(x.candidate_payload.get(TRACES),
                                                           dict)


# -- nodes ------------------------------------------------------------------------------
def validator(state: LoopState, config: RunnableConfig) -> dict[str, Any]:
    """Seed 002's Validator: evidence, confidence against evidence, duplicates, missing
    fields. Only an extraction's status changes, and its decision is recorded."""
    ctx = _ctx(config)
    assert ctx.calls is not None
    ctx.calls.model("validator")
    with as_validator(ctx.store, ctx.conn) as va:
        x = va.extraction(ctx.current)
        if x.refines is not None and va.extraction(x.refines).status != "superseded":
            va.set_status(x.refines, "superseded", f"refined by {x.id}")
        exhausted = state.get("exhausted")
        text = _text(ctx, x.snapshot_id, "validator", "check_evidence")
        ctx.calls.tool("validator", "find_duplicates")
        found = None if x.evidence_type in FORMAL or _compared(ctx, x) else \
            ctx.definitions.counterpart(x.candidate_type, x.candidate_payload, x.evidence_doc)
        missing = missing_fields(ctx, x, _corroborated(ctx, x))
        kind, reason, request = "", "", ""
        if not evidence_at_lines(text, x):
            kind, reason = "evidence", "Evidence is not the stored text at its lines"
            request = "Re-read the cited lines from the stored snapshot"
        elif (x.evidence_type in ("narrative", "requirement") and x.confidence_score > 0.6
              and not _compared(ctx, x)):  # another source agreeing lifts the cap
            kind, reason = "narrative", "Confidence too high for narrative-only evidence"
            request = "Find formal definition or additional sources"
        elif found is not None:
            kind = "counterpart"
            reason = (f"May be core entity {found.entity.candidate_key} "
                      f"({found.method}: {found.reason})")
            request = f"Compare with the formal definition of {found.entity.candidate_key}"
        elif missing:
            kind, reason = "missing", f"Missing required fields: {missing}"
            request = f"Extract {missing} from source document"
        ctx.calls.tool("validator", "record_decision")
        if kind and kind == exhausted and kind == "evidence":
            va.set_status(x.id, "rejected", reason)
            va.record(x.id, "reject", f"{reason}; the extractor could not re-read it",
                      missing=missing, confidence=x.confidence_score)
            return {"rejected": True, "needs_refinement": False, "missing": missing}
        if kind and kind != exhausted:
            va.set_status(x.id, "needs_more_evidence", reason)
            va.record(x.id, "needs_more_evidence", reason, request=request, missing=missing,
                      confidence=x.confidence_score)
            ctx.last_request = request
            return {"needs_refinement": True, "request": request, "request_kind": kind,
                    "missing": missing, "rejected": False}
        why = ("Evidence supports confidence level" if not kind else
               f"{reason}; the extractor found nothing more, so it goes on as it is")
        va.set_status(x.id, "acceptable", why)
        va.record(x.id, "acceptable", why, missing=missing, confidence=x.confidence_score)
        return {"needs_refinement": False, "missing": missing, "rejected": False}


def extractor(state: LoopState, config: RunnableConfig) -> dict[str, Any]:
    """Seed 002's Extractor, asked for more evidence: re-reads the stored snapshot, or
    compares the candidate with the definition it may be. A refinement is a new staged
    extraction (`refines` the one before); when there is nothing more to find it says so."""
    ctx = _ctx(config)
    assert ctx.calls is not None
    ctx.calls.model("extractor")
    kind = state.get("request_kind", "")
    with as_extractor(ctx.store, ctx.conn) as ex:
        x = ex.extraction(ctx.current)
        text = _text(ctx, x.snapshot_id, "extractor", "fetch_document")
        ctx.calls.tool("extractor", "extract_candidates")
        ctx.refinements += 1
        if ctx.refine is not None:
            new = ctx.refine(ctx, x, kind)
        elif kind == "evidence":
            new = _reread(text, x)
        elif kind in ("counterpart", "narrative"):
            new = _compare(ctx, x)
        else:
            new = None  # the cited lines state no more than was read
        if new is None:
            return {"exhausted": kind, "needs_refinement": False}
        ctx.calls.tool("extractor", "stage_extraction")
        staged = ex.stage(NewExtraction(
            snapshot_id=x.snapshot_id, candidate_type=new.candidate_type,
            candidate_key=new.candidate_key, candidate_payload=new.candidate_payload,
            confidence_score=new.confidence_score, confidence_reason=new.confidence_reason,
            evidence_text=new.evidence_text, evidence_doc=new.evidence_doc, lines=new.lines,
            span=new.span, evidence_type=new.evidence_type, task_id=ctx.task_id,
            refines=x.id, attempt=x.attempt + 1))
    ctx.current = staged.id
    return {"extraction_id": staged.id, "exhausted": "", "needs_refinement": False}


def _reread(text: str, x: Extraction) -> Extraction | None:
    try:
        lo, hi = span_of(text, x.lines)
    except ValueError:
        return None
    if text[lo:hi] == x.evidence_text and (lo, hi) == x.span:
        return None
    return _with(x, evidence_text=text[lo:hi], span=(lo, hi))


def _compare(ctx: LoopContext, x: Extraction) -> Extraction | None:
    """The candidate as one more source of a core entity: the identity and how sure,
    and each field the two disagree on (kept as a conflict with both citations)."""
    found = ctx.definitions.counterpart(x.candidate_type, x.candidate_payload, x.evidence_doc)
    if found is None:
        return None
    e = found.entity
    if found.relation == TRACES:  # a requirement: its component is defined, it is not it
        payload = {**x.candidate_payload, TRACES: {
            "key": e.candidate_key, "method": found.method, "reason": found.reason,
            "confidence": found.confidence}}
        return _with(x, candidate_payload=payload, confidence_score=found.confidence,
                     confidence_reason=f"The component it binds is defined formally: "
                                       f"{e.candidate_key} ({found.method}); the requirement "
                                       "traces to it")
    diff = disagreements(x.candidate_type, e.payload, x.candidate_payload, module_of(e))
    said = "; ".join(f"{f}: the definition says {d!r}, the {x.evidence_type} says {o!r}"
                     for f, d, o in diff)
    reason = (f"Multiple sources agree: this {x.evidence_type.replace('_', ' ')} and the formal "
              f"definition of {e.candidate_key} ({found.method})"
              + (f"; they disagree on {said} (kept as conflicts)" if diff else ""))
    payload = dict(x.candidate_payload)
    payload[CORROBORATED] = {"key": e.candidate_key, "relation": found.relation,
                             "method": found.method, "reason": found.reason,
                             "confidence": found.confidence,
                             "disagreements": [list(d) for d in diff]}
    return _with(x, candidate_payload=payload, confidence_score=found.confidence,
                 confidence_reason=reason)


def _with(x: Extraction, **changes: Any) -> Extraction:
    return replace(x, **changes)


def decision_maker(state: LoopState, config: RunnableConfig) -> dict[str, Any]:
    """Seed 002's Decision Maker: promote (with audit) at or above the domain's threshold
    with every required field; otherwise to human review (normal, or high when low), naming
    the missing fields. A candidate that is an entity the core holds is promoted as an
    equivalence of it (and its disagreements as conflicts), never as a second entity."""
    ctx = _ctx(config)
    assert ctx.calls is not None
    ctx.calls.model("decision_maker")
    with as_decision_maker(ctx.store, ctx.conn) as dm:
        x = dm.extraction(ctx.current)
        same = _corroborated(ctx, x) or ctx.definitions.by_key.get(x.candidate_key)
        missing = missing_fields(ctx, x, same)
        made = make_decision(x.confidence_score, tuple(missing), ctx.thresholds)
        ctx.calls.tool("decision_maker", "promote_entity" if made.action == "promote_to_core"
                       else "queue_for_review")
        if made.action == "promote_to_core":
            canonical = _promote(ctx, dm, x, same, made.reason)
            ctx.calls.tool("decision_maker", "record_decision")
            dm.set_status(x.id, "accepted", made.reason)
            dm.record(x.id, "accept", made.reason, confidence=x.confidence_score,
                      canonical_id=canonical)
            return {"missing": missing}
        priority = made.priority or "normal"
        dm.queue_review(x.id, priority=priority, reason=made.reason, missing=missing)
        ctx.calls.tool("decision_maker", "record_decision")
        dm.set_status(x.id, "review", made.reason)
        dm.record(x.id, "defer", made.reason, priority=priority, missing=missing,
                  confidence=x.confidence_score)
    return {"missing": missing}


def _promote(ctx: LoopContext, dm: DecisionHandle, x: Extraction, same: CoreEntity | None,
             reason: str) -> str:
    if same is None:
        p = x.candidate_payload
        owner = p.get("component") if x.candidate_type not in ("instance",) else None
        module = p.get("module") or p.get("topology") or (
            str(owner).rsplit(".", 1)[0] if owner else None)
        entity = dm.promote(x, name=str(p.get("name") or x.candidate_key.rsplit(":", 1)[-1]),
                            module=module, component=owner, reason=reason)
        ctx.definitions.add(entity)
        return entity.id
    got = x.candidate_payload.get(CORROBORATED)
    if isinstance(got, dict):
        relation, method = str(got["relation"]), str(got["method"])
        why, conf = str(got["reason"]), float(got["confidence"])
        diff = [tuple(d) for d in got.get("disagreements", [])]
    else:  # a second definition under the same key (the same file stored twice, say)
        relation, method, conf = "same_name", "same_key", x.confidence_score
        why = f"a second definition of {x.candidate_key}"
        diff = disagreements(x.candidate_type, same.payload, x.candidate_payload,
                             module_of(same))
    dm.link(x, same, relation=relation, method=method, reason=why, confidence=conf,
            disagreements=diff)
    return same.id


def _after_validator(state: LoopState) -> Route:
    if state.get("rejected"):
        return "__end__"
    return "extractor" if state.get("needs_refinement") else "decision_maker"


@cache
def graph() -> Any:
    """The compiled graph (seed 002 "Complete Graph Definition", entered at the validator:
    the Extractor's first pass is the extraction task)."""
    g = StateGraph(LoopState)
    g.add_node("validator", validator)
    g.add_node("extractor", extractor)
    g.add_node("decision_maker", decision_maker)
    g.set_entry_point("validator")
    g.add_conditional_edges("validator", _after_validator,
                            {"extractor": "extractor", "decision_maker": "decision_maker",
                             "__end__": END})
    g.add_edge("extractor", "validator")
    g.add_edge("decision_maker", END)
    return g.compile()


def curate(ctx: LoopContext, extraction_id: str) -> str:
    """Run the loop for one staged extraction; what became of it (its final status, or
    `review` when a limit sent it there)."""
    with as_validator(ctx.store, ctx.conn) as va:
        key = va.extraction(extraction_id).candidate_key
    ctx.current, ctx.last_request, ctx.refinements = extraction_id, "", 0
    ctx.calls = Calls(ctx.limits, ctx.threads.setdefault(key, {}))
    try:
        graph().invoke({"extraction_id": extraction_id},
                       config={"recursion_limit": ctx.limits.recursion_limit,
                               "configurable": {"curation": ctx}})
    except GraphRecursionError:
        _escalate(ctx, "loop_limit",
                  f"Exceeded refinement limit (LangGraph recursion_limit "
                  f"{ctx.limits.recursion_limit}) after {ctx.refinements} refinement(s); "
                  f"last request: {ctx.last_request or 'none'}")
    except LimitReached as exc:
        _escalate(ctx, "call_limit", f"Stopped by seed 002's {exc} after "
                  f"{ctx.refinements} refinement(s); last request: "
                  f"{ctx.last_request or 'none'}")
    with as_validator(ctx.store, ctx.conn) as va:
        return va.extraction(ctx.current).status


def recheck_waiting_prose(ctx: LoopContext) -> list[str]:
    """Prose candidates that went to human review with no definition to compare with (their
    FPP file not yet ingested), re-decided now that the core holds a counterpart: each is
    staged again (the Extractor, `refines` the reviewed one, which the Validator marks
    superseded, audited) and run through the loop; the review item stays as history and
    leaves the open queue (`store.curation.review_items`). What a human resolved is left
    alone. Returns the re-checked extractions' final statuses, in staging order."""
    with as_decision_maker(ctx.store, ctx.conn) as dm:
        waiting = [x for x in dm.extractions(statuses=("review",))
                   if x.evidence_type not in FORMAL
                   and not {CORROBORATED, TRACES} & set(x.candidate_payload)
                   and ctx.definitions.counterpart(x.candidate_type, x.candidate_payload,
                                                   x.evidence_doc) is not None]
    open_ids = {r.extraction_id for r in review_items(ctx.conn) if r.origin == "decision"}
    done: list[str] = []
    for x in waiting:
        if x.id not in open_ids:
            continue
        with as_extractor(ctx.store, ctx.conn) as ex:
            again = ex.stage(NewExtraction(
                snapshot_id=x.snapshot_id, candidate_type=x.candidate_type,
                candidate_key=x.candidate_key, candidate_payload=x.candidate_payload,
                confidence_score=x.confidence_score, confidence_reason=x.confidence_reason,
                evidence_text=x.evidence_text, evidence_doc=x.evidence_doc, lines=x.lines,
                span=x.span, evidence_type=x.evidence_type, task_id=ctx.task_id,
                refines=x.id, attempt=x.attempt + 1))
        done.append(curate(ctx, again.id))
    return done


def _escalate(ctx: LoopContext, origin: Literal["loop_limit", "call_limit"], reason: str
              ) -> None:
    """Seed 002: on a limit, store the current extraction for human review."""
    with as_decision_maker(ctx.store, ctx.conn) as dm:
        x = dm.extraction(ctx.current)
        if x.status in ("accepted", "review", "rejected"):
            return  # decided before the limit struck (the limit came after)
        missing = missing_fields(ctx, x, _corroborated(ctx, x))
        dm.queue_review(x.id, priority="high", reason=reason, missing=missing, origin=origin)
        dm.set_status(x.id, "review", reason)
        dm.record(x.id, "defer", reason, priority="high", missing=missing,
                  confidence=x.confidence_score)


__all__ = ["SEED_002", "Calls", "LimitReached", "Limits", "LoopContext", "curate",
           "evidence_at_lines", "graph", "missing_fields", "recheck_waiting_prose"]
