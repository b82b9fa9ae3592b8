"""The Lead's nodes (seed 001 InitAncestryEngine, LeadSelectTask, LeadUpdateState,
LeadCheckTermination): decompose the seed into first tasks, pick the best task, keep the
counters, and stop for a reason it can name."""

from __future__ import annotations

import time
from typing import Any

from sqlalchemy import Connection

from sleuth.llm import LLMError, Planner, llm_cost, store_sink
from sleuth.loop.planning import fits, grounding, name_words, set_aside_entry
from sleuth.loop.priority import information_gain
from sleuth.loop.queues import TaskSpec
from sleuth.loop.resolution import consolidate
from sleuth.loop.runtime import Runtime
from sleuth.loop.state import LoopState
from sleuth.loop.stop import RECENT, Metrics, fired
from sleuth.model import Agent, LogEntry
from sleuth.store import blackboard
from sleuth.store.blackboard import PersonInfo
from sleuth.store.tasks import task_count

LEAD = str(Agent.LEAD)
GPS_EVERY = 10


def plan(rt: Runtime, state: LoopState) -> dict[str, Any]:
    """Decompose the query: one search per usable source, Tier 0 first. Idempotent."""
    seed = rt.config.seed
    with rt.store.transaction() as conn:
        if task_count(conn):
            return {}
        pid = gedcom_seed(conn, seed.xref) if seed.gedcom else None
        if pid is not None:  # a GEDCOM person: search for them as the tree has them
            info = blackboard.persons(conn, [pid])[pid]
            seed = seed.model_copy(update={
                "name": info.name, "given": info.given, "surname": info.surname,
                "birth_year": seed.birth_year or info.birth_year,
                "death_year": seed.death_year or info.death_year})
        values = seed.values()
        target = {"generation": 0, "name": seed.name, "given": seed.given,
                  "birth_year": seed.birth_year, "role": "seed", "person_id": pid,
                  **({"place": seed.place} if seed.place else {})}
        made = []
        for src in rt.sources():
            if src.search is None:
                continue
            spec = TaskSpec(action="search", source=src.id, values=values, target=target,
                            query=f"{src.id} search: {seed.name}"
                            + (f" b.{seed.birth_year}" if seed.birth_year else ""))
            # The seed is the goal: its searches come first (Lead, not a hypothesis).
            prio = information_gain(0, 0, rt.budget.target_generations, int(src.tier),
                                    search=src.follow.hits is None)
            rt.frontier.push(conn, spec, prio, tier=int(src.tier), agent=LEAD)
            rt.guard.add(spec)
            made.append(spec.query)
        made += _planned(rt, conn, seed, target)
        rt.store.log(conn, LogEntry(
            agent=Agent.LEAD, action_type="plan",
            rationale=f"research {seed.name}: {len(made)} initial searches",
            context={"run_id": rt.config.run_id, "seed": seed.model_dump(exclude_none=True),
                     "tasks": made, "budget": rt.budget.model_dump()}))
    return {"seed_person_id": pid} if pid else {}


def _planned(rt: Runtime, conn: Connection, seed: Any, target: dict[str, Any]) -> list[str]:
    """With a model configured, the planner may add searches: a source it names, for a
    name it proposes (variants, other spellings). A proposal is searched only when its
    targets are in the case or the seed (the planner's firewall) and its name is the seed's
    (`planning.fits`: same Soundex surname; the same given name, initial or nickname);
    then the NoveltyGuard and the source list apply, and it ranks just below the Lead's own
    searches. Every proposal set aside is logged with its reason and costs no request."""
    if rt.llm is None:
        return []

    sources = {s.id: s for s in rt.sources() if s.search is not None}
    pid = target.get("person_id")
    info = blackboard.persons(conn, [pid]).get(pid) if pid else None
    me = info or PersonInfo(id="seed", name=seed.name, given=seed.given, surname=seed.surname)
    try:
        plan = Planner(rt.llm, store_sink(rt.store, conn)).plan(
            {"seed": seed.model_dump(exclude_none=True), "iteration": 0},
            sources=[{"id": s.id, "tier": int(s.tier), "name": s.name}
                     for s in sources.values()], targets=[seed.name],
            grounding=grounding([info] if info else [], seed.name, seed.place))
    except LLMError:
        return []
    if plan is None:
        return []
    asked = [(a.target, a.query) for a in plan.next_actions if a.action == "fetch"]
    asked += [(sid, q) for q in plan.query_expansions for sid in sources]
    made: list[str] = []
    set_aside: list[str] = []
    for sid, query in asked:
        # A proposal is read as a name: one word is a surname variant ("Whitcomb"), two to
        # four capitalised words a full name; anything else is not a search we can make.
        words = name_words(query)
        if sid not in sources or not words or not fits(words, me):
            why = ("not a source this run may search" if sid not in sources else
                   "not read as a name" if not words else "not a name of the seed")
            set_aside.append(f"{sid}: {query} ({why})")
            continue
        given = seed.given if len(words) == 1 else " ".join(words[:-1])
        values = {**seed.values(), "name": f"{given} {words[-1]}".strip(), "given": given,
                  "surname": words[-1]}
        query = values["name"]
        spec = TaskSpec(action="search", source=sid, values=values, target=target,
                        query=f"{sid} search: {query} (planner)")
        if rt.guard.check(spec) is not None:
            set_aside.append(f"{sid}: {query} (already searched)")
            continue
        src = sources[sid]
        prio = 0.9 * information_gain(0, 0, rt.budget.target_generations, int(src.tier),
                                      search=src.follow.hits is None)
        rt.frontier.push(conn, spec, prio, tier=int(src.tier), agent=LEAD)
        rt.guard.add(spec)
        made.append(spec.query)
    if set_aside:
        rt.store.log(conn, set_aside_entry(set_aside))
    return made


def gedcom_seed(conn: Connection, xref: str | None) -> str | None:
    """The person a GEDCOM XREF (`@I1@` or `I1`) was promoted to, if any."""
    if not xref:
        return None
    keys = {xref, xref.strip("@"), f"@{xref.strip('@')}@"}
    return blackboard.person_of_subject(conn, keys)


def select_task(rt: Runtime, state: LoopState) -> dict[str, Any]:
    with rt.store.transaction() as conn:
        again = rt.frontier.active(conn)  # selected and logged by a killed process
        tid = again or rt.frontier.select(conn)
        if tid is not None and again is None:
            spec, prio, _ = rt.frontier.get(conn, tid)
            rt.store.log(conn, LogEntry(
                agent=Agent.LEAD, action_type="select", rationale=spec.query,
                context={"task": tid, "priority": prio, "queue": spec.queue,
                         "source": spec.source}))
    return {"task_id": tid, "iteration": state.get("iteration", 0) + (1 if tid else 0)}


def update(rt: Runtime, state: LoopState) -> dict[str, Any]:
    now = time.monotonic()
    elapsed = state.get("elapsed", 0.0) + (now - rt.mark)
    rt.mark = now
    with rt.store.transaction() as conn:
        facts = blackboard.facts(conn)
        rt.clues.settle(conn)
        sizes = rt.frontier.sizes(conn)
        persons = blackboard.person_count(conn)
    gained = max(0, facts - state.get("facts", 0))
    recent = [*state.get("recent", []), gained][-RECENT:]
    since = 0 if gained else state.get("since_discovery", 0) + 1
    rt.report(iteration=state.get("iteration", 0), facts=facts, persons=persons,
              requests=state.get("requests", 0), **sizes)

    return {"elapsed": elapsed, "facts": facts, "recent": recent, "since_discovery": since,
            "task_id": None, "llm_cost": llm_cost(rt.llm.meter if rt.llm else None),
            "queues": sizes}


def metrics(rt: Runtime, state: LoopState, sizes: dict[str, int] | None = None) -> Metrics:
    """What the stop rules read. `sizes`: the queue sizes when the caller knows them (the
    update just before counted them; nothing has run since)."""
    seed = state.get("seed_person_id")
    with rt.store.engine.connect() as conn:
        sizes = sizes or rt.frontier.sizes(conn)
        clues = rt.clues.pending(conn)
        info = blackboard.persons(conn, [seed]).get(seed or "") if seed else None
        # GPS coverage reads every citation: every GPS_EVERY tasks, and when nothing is left.
        claims, gps = (blackboard.gps_coverage(conn) if state.get("iteration", 0) % GPS_EVERY == 0
                       or not sizes["frontier"] + sizes["revisit"] else (0, False))
        depth = blackboard.pedigree_depth(conn, seed)
    return Metrics(
        requests=state.get("requests", 0), elapsed=state.get("elapsed", 0.0),
        llm_cost=state.get("llm_cost", 0.0), iteration=state.get("iteration", 0),
        frontier=sizes["frontier"], revisits=sizes["revisit"], clues=clues,
        seed_confidence=info.birth_conf if info else 0.0,
        generation_depth=depth,
        since_discovery=state.get("since_discovery", 0), recent=state.get("recent", []),
        claims=claims, gps_ok=gps)


def check_termination(rt: Runtime, state: LoopState) -> dict[str, Any]:
    m = metrics(rt, state, state.get("queues"))
    reasons = fired(m, rt.budget)
    if rt.llm is not None and rt.llm.meter.stop_reason() and "budget_llm_cost" not in reasons:
        reasons.append("budget_llm_cost")  # the model's call or cost limit says "end"
    if not reasons:
        return {}

    consolidate(rt)  # what the last records found is merged too (idempotent on a resume)
    finish(rt, reasons, m)
    return {"terminated": True, "stop_reasons": reasons}


def finish(rt: Runtime, reasons: list[str], m: Metrics, *, resumable: bool = False) -> None:
    """The final log entry names what fired; a real stop empties the frontier (Z)."""
    with rt.store.transaction() as conn:
        parked = 0 if resumable else rt.frontier.park_all(conn, "stopped: " + ", ".join(reasons))
        rt.store.log(conn, LogEntry(
            agent=Agent.LEAD, action_type="termination",
            rationale="stopped: " + ", ".join(reasons),
            context={"reasons": reasons, "resumable": resumable, "parked_tasks": parked,
                     "requests": m.requests, "elapsed_s": round(m.elapsed, 2),
                     "iterations": m.iteration, "claims": m.claims,
                     "generation_depth": m.generation_depth,
                     "seed_confidence": m.seed_confidence}))
