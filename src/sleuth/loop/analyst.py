"""The Analyst node (seed 001 AnalystGenerateHypotheses / AnalystResolveConflict).

For each record the Scout brought back: extract → firewall → validate → decide (the staged
promotion of `sleuth.pipeline`, one transaction per record, so a kill leaves whole records or
none), then generate clue hypotheses and add their tasks to the frontier
(`hypothesesToTasks`): identifiers to follow, vital-record searches for newly found names,
and revisits (conflicts needing corroboration, searches that were too narrow, new data on a
person searched before). A search response's hits are scored against the person searched
for and only plausible ones are opened. Every few records the entity resolver proposes
merges; confident ones become reversible merge clusters, uncertain ones go to review.

This module reads the records; its other jobs have their own: `loop.tasking` plans and
rates the tasks, `loop.resolution` runs the resolution pass, `loop.advice` asks a
configured model.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection

from sleuth.extract import refine
from sleuth.loop.advice import llm_conflict_advice, llm_verified
from sleuth.loop.identity import same_person_lead
from sleuth.loop.planning import PLAN_EVERY, replan
from sleuth.loop.priority import information_gain
from sleuth.loop.queues import Revisit, TaskSpec
from sleuth.loop.resolution import RESOLVE_EVERY, pass_done, resolution_pass
from sleuth.loop.runtime import Runtime
from sleuth.loop.state import LoopState
from sleuth.loop.tasking import (
    ANALYST,
    TOO_NARROW,
    corroborate,
    could_be,
    find_target,
    plan_person,
    push_task,
)
from sleuth.loop.yields import era_of
from sleuth.model import (
    Agent,
    Hypothesis,
    LogEntry,
    Snapshot,
)
from sleuth.model.ids import id_unit
from sleuth.pipeline.ingest import extract_for
from sleuth.pipeline.staging import process_snapshot
from sleuth.sources.hits import (
    hit_count,
    search_hits,
    sibling_registers,
)
from sleuth.store import blackboard, research_log
from sleuth.verify.normalise import fold


def analyse(rt: Runtime, state: LoopState) -> dict[str, Any]:
    seed = state.get("seed_person_id")
    with rt.store.engine.connect() as conn:
        pending = rt.frontier.pending_analysis(conn)
        if seed is None:  # a kill after the identifying record committed, before the checkpoint
            seed = recorded_seed(conn)
    for aid in pending:
        with rt.store.transaction() as conn:
            rt.yields.refresh(conn)  # once a record: what it plans reads these (`yield_factor`)
            spec, _prio, _ = rt.frontier.get(conn, aid)
            snap = rt.store.snapshot(spec.snapshot_id or "", conn)
            found: bool | None = None  # a search's yield (`loop.yields`)
            if spec.search:
                outcome, found = _follow_hits(rt, conn, spec, snap)
            else:
                outcome, seed = _read_record(rt, conn, spec, snap, seed)
                if spec.from_task and rt.frontier.get(conn, spec.from_task)[0].action == "search":
                    found = _promoted_from(conn, snap.id)  # records as the answer
            rt.frontier.complete(conn, aid, outcome, agent=ANALYST)
            context: dict[str, Any] = {"task": aid, "snapshot_id": snap.id,
                                       "source": spec.source}
            if found is not None:
                context |= {"found": found, "era": era_of(spec.target)}
            rt.store.log(conn, LogEntry(agent=Agent.ANALYST, action_type="analysis",
                                        rationale=outcome, context=context))
    out: dict[str, Any] = {"seed_person_id": seed, "analyse": []}
    done = state.get("iteration", 0)
    if done and done % RESOLVE_EVERY == 0 and not pass_done(rt, done):
        # Also when a kill came after the records and before this pass: it is redone, and
        # what it already merged is skipped, so a resumed run takes the same path (its ids
        # its own: what a redone pass draws again shifts no id drawn after it).
        with id_unit(f"resolution:{rt.config.thread_id}:{done}"):
            resolution_pass(rt, seed)
            with rt.store.transaction() as conn:
                rt.store.log(conn, LogEntry(
                    agent=Agent.ANALYST, action_type="decision",
                    rationale=f"entity resolution pass after {done} tasks",
                    context={"decision": "resolution_pass", "iteration": done}))
    if done and done % PLAN_EVERY == 0:
        replan(rt, seed, done, state.get("requests", 0))  # once per iteration, also on resume
    return out


def _promoted_from(conn: Connection, snapshot_id: str) -> bool:
    return blackboard.read_before(conn, snapshot_id, promoted=True)


def recorded_seed(conn: Connection) -> str | None:
    """The seed person as the log recorded it: the store, not the checkpoint, is the truth."""
    for context in research_log.contexts(conn, ANALYST, "decision"):
        if context.get("decision") == "seed_person":
            return str(context["person_id"])
    return None


def _read_record(rt: Runtime, conn: Connection, spec: TaskSpec, snap: Snapshot,
                 seed: str | None) -> tuple[str, str | None]:
    summary = "record already analysed"
    if not blackboard.read_before(conn, snap.id):
        cands = extract_for(snap, rt.store.blob(snap.sha256))
        if spec.endpoint == "register":
            cands = _family_rows(cands, _pedigree_surnames(conn, seed, spec.target))
        cands += llm_verified(rt, conn, snap, cands)
        report = process_snapshot(rt.store, conn, snap, cands, refine=refine)
        if report.conflicts:
            llm_conflict_advice(rt, conn, snap)
        summary = (f"{report.candidates} candidates: {report.promoted} promoted, "
                   f"{report.review} to review, {report.firewall_rejected} refused by the "
                   f"firewall, {report.conflicts} conflicts")
    touched = set(blackboard.persons_of_snapshot(conn, snap.id))
    infos = blackboard.persons(conn, touched)
    if seed is None and spec.target.get("generation") == 0:
        seed = find_target(infos, spec.target)
        if seed:
            rt.store.log(conn, LogEntry(
                agent=Agent.ANALYST, action_type="decision",
                rationale=f"seed person identified as {infos[seed].name}",
                context={"decision": "seed_person", "person_id": seed, "snapshot_id": snap.id}))
    line = blackboard.direct_line(conn, seed)
    if (seed is not None and spec.target.get("generation") is not None and not rt.config.naive
            and _same_person_lead(rt, conn, spec, infos, line, snap.id)):
        line = blackboard.direct_line(conn, seed)  # the lead's person and her ancestors join it
    gens = blackboard.generations(conn, seed)
    made = 0
    parents = blackboard.parent_counts(conn, infos)
    for info in sorted(infos.values(), key=blackboard.content_key):
        if seed is not None:
            gen, direct = gens.get(info.id), info.id in line
        else:  # the seed is not found yet: only who could be the seed ranks as the seed
            maybe = spec.target.get("generation") == 0 and could_be(info, spec.target)
            gen, direct = (0 if maybe else None), maybe
        open_branch = (direct and gen is not None and 0 <= gen < rt.budget.target_generations
                       and parents.get(info.id, 0) < 2)
        made += plan_person(rt, conn, info, gen, seed, direct=direct, open_branch=open_branch)
    made += corroborate(rt, conn, gens)
    made += _open_registers(rt, conn, spec, snap, gens.get(seed or "", 0) if seed else 0)
    return f"{summary}; {made} new tasks", seed


def _same_person_lead(rt: Runtime, conn: Connection, spec: TaskSpec,
                      infos: dict[str, blackboard.PersonInfo], line: set[str],
                      snapshot_id: str) -> bool:
    """A record fetched for someone on the pedigree that names them only under another
    surname: the hypothesis that it is them (`sleuth.loop.identity`), followed as a lead.
    Whether one was added."""
    target = spec.target.get("person_id")
    if not target:
        return False
    lead = same_person_lead(conn, str(target), infos, line, snapshot_id)
    if lead is None:
        return False
    rt.clues.add(conn, lead, agent=ANALYST)
    rt.store.log(conn, LogEntry(
        agent=Agent.ANALYST, action_type="decision", rationale=lead.statement,
        context={"decision": "same_person_lead", "hypothesis": lead.id,
                 "person_id": lead.target_person, "related_person": lead.related_person,
                 "snapshot_id": snapshot_id}))
    return True


def _open_registers(rt: Runtime, conn: Connection, spec: TaskSpec, snap: Snapshot,
                    gen: int) -> int:
    """A register search hit names its parish file: read that parish's other registers
    (burials, marriages) once, where the rest of the found persons' lives are written."""
    src = rt.registry.get(spec.source)
    if "register" not in (src.endpoints or {}):
        return 0
    tier = int(src.tier)
    made = 0
    for key in sibling_registers(snap.text):
        s = TaskSpec(action="call", source=src.id, endpoint="register", values={"key": key},
                     query=f"{src.id} register {key}", target=spec.target)
        if rt.config.naive or rt.guard.check(s) is None:
            push_task(rt, conn, s, information_gain(0, spec.target.get("generation") or gen,
                                                rt.budget.target_generations, tier), tier, None)
            made += 1
    return made


def _pedigree_surnames(conn: Connection, seed: str | None, target: dict[str, Any]) -> set[str]:
    """The target's surname and every surname on the seed's direct line found so far (wives'
    birth names included): the families a pedigree search is about."""
    names = [str(target.get("name") or "")]
    if seed is not None:
        line = blackboard.direct_line(conn, seed)
        names += [n for i in blackboard.persons(conn, line).values() for n in (i.name, i.surname)]
    return {w[-1] for w in (fold(n).split() for n in names) if w}


def _family_rows(cands: list[Any], surnames: set[str]) -> list[Any]:
    """A whole parish register is read for the pedigree's families, as a researcher reads it:
    the rows that name one of their surnames (as the clerk heard it: Soundex). The rest of
    the parish stays in the stored snapshot, not in the tree, where namesakes would be
    merged wrongly."""
    import jellyfish

    keys = {jellyfish.soundex(s) for s in surnames if s.isalpha()}
    if not keys:
        return cands

    def names_family(text: str) -> bool:
        return any(w.isalpha() and len(w) > 2 and jellyfish.soundex(w) in keys
                   for w in fold(text).split())

    return [c for c in cands if c.citation is not None and names_family(c.citation.excerpt)]


def _follow_hits(rt: Runtime, conn: Connection, spec: TaskSpec, snap: Snapshot
                 ) -> tuple[str, bool]:
    """Plausible hits of a search response become tasks. Returns the outcome and whether any
    hit plausibly was the person (the source's yield, `loop.yields`)."""
    src = rt.registry.get(spec.source)
    # An HTML snapshot's text is what the page shows; its result selectors need the markup.
    page = (rt.store.blob(snap.sha256).decode("utf-8", "replace") if src.kind == "html"
            else snap.text)
    hits = search_hits(src, page, spec.target)
    total = hit_count(src, page)
    name = spec.target.get("name") or spec.values.get("name") or "the person"
    if not hits:
        narrow = {k: v for k, v in spec.values.items() if k not in ("birth_year", "death_year")}
        if (total == 0 and narrow != spec.values and spec.revisit is None
                and not rt.config.naive):
            hyp = Hypothesis(
                hypothesis_type="broaden_search",
                statement=f"{src.name} may know {name} under other dates: search without years",
                target_person=spec.target.get("person_id"), priority=0.5,
                suggested_queries=[f"{src.id} search: {name}"], suggested_sources=[src.id])
            rt.clues.add(conn, hyp, agent=ANALYST)
            improved = spec.model_copy(update={
                "action": "search", "search": False, "snapshot_id": None, "from_task": None,
                "values": narrow, "target": {**spec.target, "birth_year": None},
                "query": f"{src.id} search: {name} (no years)",
                "queue": "revisit", "revisit": Revisit(
                    original_query=spec.query, improved_query=f"{src.id} search: {name}",
                    reason=TOO_NARROW, triggering_clue=hyp.id, original_source_id=snap.id)})
            if rt.guard.check(improved) is None:
                push_task(rt, conn, improved, 0.4, int(src.tier), hyp.id)
        return f"{total} hits, none plausibly {name}", False
    fresh: list[TaskSpec] = []
    for h in hits:
        if h.url is not None:
            s = TaskSpec(action="fetch", source=src.id, endpoint=h.action,
                         values={"url": h.url}, query=f"{src.id} open {h.label or h.url}",
                         target={**spec.target, "key": h.ident})
        else:
            follow = src.follow.hits
            assert follow is not None, "a hit without a URL is followed by the spec's call"
            endpoint, ph = h.endpoint or follow.endpoint, follow.placeholder
            s = TaskSpec(action="call", source=src.id, endpoint=endpoint,
                         values={ph: h.ident}, query=f"{src.id} {endpoint} {h.ident} ({h.label})",
                         target={**spec.target, "key": h.ident})
        if rt.config.naive or rt.guard.check(s) is None:
            fresh.append(s)
    if not fresh:
        return f"{total} hits; the plausible ones were already opened", True
    hyp = Hypothesis(
        hypothesis_type="search_match",
        statement=f"{src.name} results that may be {name}: "
        + "; ".join(f"{h.label} ({h.year or '?'}) {h.score:.0f}/100" for h in hits),
        target_person=spec.target.get("person_id"),
        suggested_queries=[s.query for s in fresh], suggested_sources=[src.id],
        priority=round(hits[0].score / 100, 4))
    rt.clues.add(conn, hyp, agent=ANALYST)
    G = rt.budget.target_generations
    base = information_gain(0, spec.target.get("generation"), G, int(src.tier))
    for s, h in zip(fresh, hits, strict=False):
        push_task(rt, conn, s, base * h.score / 100, int(src.tier), hyp.id)
    return f"{total} hits, {len(fresh)} plausibly {name}", True
