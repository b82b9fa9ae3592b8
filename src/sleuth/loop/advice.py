"""The Analyst's questions to a configured model: a record's reading verified, a conflict's
rationale and next actions, and the resolver's uncertain pairs judged. Living persons are
censored before anything is sent to a hosted model (`sleuth.llm.outbound`)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from sqlalchemy import Connection

from sleuth.llm import ConflictAnalyst, LLMError, Resolver, Verifier, store_sink
from sleuth.llm.outbound import endpoint_is_local
from sleuth.loop.runtime import Runtime
from sleuth.loop.tasking import ANALYST
from sleuth.model import (
    Agent,
    LogEntry,
    Snapshot,
)
from sleuth.privacy import assess_living
from sleuth.store import blackboard, case_graph
from sleuth.store.queries import conflicts_of


def llm_verified(rt: Runtime, conn: Connection, snap: Snapshot,
                  cands: list[Any]) -> list[Any]:
    """With a model configured, the verifier checks the deterministic reading and may add
    facts and hypotheses; everything it adds has passed the firewall (`sleuth.llm.guard`),
    and a model that fails leaves the deterministic reading as it was."""
    if rt.llm is None:
        return []

    try:
        vr = Verifier(rt.llm, store_sink(rt.store, conn)).verify(snap, cands)
    except LLMError as exc:
        rt.store.log(conn, LogEntry(agent=Agent.ANALYST, action_type="decision",
                                    rationale=f"verifier unavailable, deterministic reading "
                                              f"kept: {exc}",
                                    context={"decision": "llm_fallback", "snapshot_id": snap.id}))
        return []
    if vr is None:
        return []
    for h in vr.hypotheses:
        rt.clues.add(conn, h, agent=ANALYST)
    return list(vr.candidates)


def llm_conflict_advice(rt: Runtime, conn: Connection, snap: Snapshot) -> None:
    """With a model configured, the conflict analyst writes the rationale and next actions of
    the conflicts this record raised (its hypotheses are clues, never facts). The ranking
    stays the deterministic one: the model may only make a result more tentative."""
    if rt.llm is None:
        return
    touched = blackboard.persons_of_snapshot(conn, snap.id)
    analyst = ConflictAnalyst(rt.llm, store_sink(rt.store, conn))
    alive = _hosted_living(rt, ConflictAnalyst.name)
    for conflict in conflicts_of(conn, touched):
        try:
            adv = analyst.analyse(conflict.field, [r.model_dump(mode="json")
                                                   for r in conflict.competing],
                                  person_id=conflict.person_id,
                                  living=alive(conflict.person_id) if alive else None)
        except LLMError:
            return  # the deterministic rationale stands
        if adv is None:
            continue
        rt.store.upsert_conflict(conn, conflict.model_copy(update={
            "rationale": adv.rationale or conflict.rationale,
            "next_actions": adv.next_actions or conflict.next_actions,
            "is_tentative": conflict.is_tentative or adv.is_tentative}))
        for h in adv.hypotheses:
            rt.clues.add(conn, h, agent=ANALYST)


def _hosted_living(rt: Runtime, role: str, graph: Any = None) -> Any:
    """For a role whose endpoint is not on this machine: person id -> may be living, by the
    Censor's verdict on the whole case (a role alone sees one record and must assume the
    worst). None for a local endpoint, which is sent the record as it is."""
    if rt.llm is None or endpoint_is_local(rt.llm.config.role(role)):
        return None
    verdicts = assess_living(graph if graph is not None else case_graph(rt.store))
    return lambda pid: verdicts.get(str(pid), (True, ""))[0]


def llm_judged(rt: Runtime, graph: Any, review: list[Any]) -> list[Any]:
    """With a model configured, the resolver judges each pair sent to review: "separate"
    keeps it off the queue (logged); otherwise it is queued with the model's why-not-merge.
    The model never merges: a person decides, or the deterministic resolver's evidence."""
    if rt.llm is None or not review:
        return review

    names = {p.id: p.canonical_name for p in graph.persons}
    alive = _hosted_living(rt, Resolver.name, graph)
    out = []
    with rt.store.transaction() as conn:
        judge = Resolver(rt.llm, store_sink(rt.store, conn))
        for p in review:
            try:
                v = judge.judge({"id": p.a, "name": names.get(p.a, "")},
                                {"id": p.b, "name": names.get(p.b, "")}, p.features,
                                living=(alive(p.a) or alive(p.b)) if alive else None)
            except LLMError:
                v = None
            if v is None:
                out.append(p)
            elif v.recommendation == "separate":
                rt.store.log(conn, LogEntry(
                    agent=Agent.ANALYST, action_type="decision",
                    rationale=f"not queued for review: the resolver judged them separate "
                              f"({v.why_not_merge})",
                    context={"decision": "llm_separate", "persons": [p.a, p.b]}))
            else:
                out.append(replace(p, why_not_merge=v.why_not_merge or p.why_not_merge))
    return out
