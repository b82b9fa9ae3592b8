"""The Analyst node (seed 001 AnalystGenerateHypotheses / AnalystResolveConflict).

For each record the Scout brought back: extract → firewall → validate → decide (the staged
promotion of `sleuth.agents`, one transaction per record, so a kill leaves whole records or
none), then generate clue hypotheses and add their tasks to the frontier
(`hypothesesToTasks`): identifiers to follow, vital-record searches for newly found names,
and revisits (conflicts needing corroboration, searches that were too narrow, new data on a
person searched before). A search response's hits are scored against the person searched
for and only plausible ones are opened. Every few records the entity resolver proposes
merges; confident ones become reversible merge clusters, uncertain ones go to review.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from typing import Any

from sqlalchemy import Connection, or_, select

from sleuth.agents.ingest import extract_for
from sleuth.agents.staging import process_snapshot
from sleuth.loop import kg
from sleuth.loop.links import (
    HIT_FOLLOW,
    ID_FOLLOW,
    hit_count,
    score_hit,
    search_hits,
    sibling_registers,
)
from sleuth.loop.planning import PLAN_EVERY, replan
from sleuth.loop.priority import information_gain
from sleuth.loop.quality import PREFIX as QUALITY_PREFIX
from sleuth.loop.quality import quality_clues
from sleuth.loop.queues import Revisit, TaskSpec, query_hash
from sleuth.loop.runtime import Runtime
from sleuth.loop.state import LoopState
from sleuth.loop.yields import era_of
from sleuth.model import (
    Agent,
    CaseGraph,
    Hypothesis,
    InputError,
    InvariantViolation,
    LogEntry,
    Snapshot,
)
from sleuth.store import schema as t

ANALYST = str(Agent.ANALYST)
RESOLVE_EVERY = 25  # records between entity-resolution passes
NEW_DATA = "New hypothesis requires additional data"
TOO_NARROW = "Previous search parameters too narrow"
CORROBORATE = "Conflict resolution requires corroboration"


def analyse(rt: Runtime, state: LoopState) -> dict[str, Any]:
    seed = state.get("seed_person_id")
    with rt.store.engine.connect() as conn:
        pending = rt.frontier.pending_analysis(conn)
        if seed is None:  # a kill after the identifying record committed, before the checkpoint
            seed = recorded_seed(conn)
    for aid in pending:
        with rt.store.transaction() as conn:
            rt.yields.refresh(conn)  # once a record: what it plans reads these (`_yield_factor`)
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
    if done and done % RESOLVE_EVERY == 0 and not _pass_done(rt, done):
        # Also when a kill came after the records and before this pass: it is redone, and
        # what it already merged is skipped, so a resumed run takes the same path.
        _resolution_pass(rt, seed)
        with rt.store.transaction() as conn:
            rt.store.log(conn, LogEntry(
                agent=Agent.ANALYST, action_type="decision",
                rationale=f"entity resolution pass after {done} tasks",
                context={"decision": "resolution_pass", "iteration": done}))
    if done and done % PLAN_EVERY == 0:
        replan(rt, seed, done, state.get("requests", 0))  # once per iteration, also on resume
    return out


def _promoted_from(conn: Connection, snapshot_id: str) -> bool:
    c = t.candidates.c
    return conn.execute(select(c.id).where(c.snapshot_id == snapshot_id,
                                           c.status == "promoted").limit(1)).first() is not None


def _pass_done(rt: Runtime, iteration: int) -> bool:
    r = t.research_log.c
    with rt.store.engine.connect() as conn:
        return any((ctx or {}).get("decision") == "resolution_pass"
                   and (ctx or {}).get("iteration") == iteration
                   for ctx in conn.execute(select(r.context).where(
                       r.agent == ANALYST, r.action_type == "decision")).scalars())


def _reprioritise(rt: Runtime, seed: str | None) -> None:
    """Searches queued for someone not yet placed in the pedigree are re-rated once they
    are (a parent named in a memorial, linked to the seed's line by a later record), tasks
    for a direct ancestor whose parents are still unknown are raised to what an open branch
    is worth (`_plan_person`), however much evidence arrived since they were queued, and
    every queued search follows its source's yield so far (`loop.yields`)."""
    if seed is None or rt.config.naive:
        return
    from sleuth.store.queries import merged_into

    with rt.store.transaction() as conn:
        merged = merged_into(conn)
        gens = kg.generations(conn, seed)
        line = kg.direct_line(conn, seed)
        parents = kg.parent_counts(conn, [p for p in line if p not in merged])
        G = rt.budget.target_generations

        yields = rt.yields.refresh(conn)
        exempt = {p for p in line if 0 <= gens.get(p, -1) <= G}  # searched exhaustively

        def placed(spec: TaskSpec, base: float, tier: int) -> tuple[float, TaskSpec] | None:
            pid = spec.target.get("person_id")
            if not pid or spec.revisit:
                return None
            pid = merged.get(str(pid), str(pid))
            gen = gens.get(pid)
            if gen is None:
                return None
            known = spec.target.get("generation") is not None
            opened = pid in line and 0 <= gen < G and parents.get(pid, 2) < 2
            if known and not opened:
                return None
            info = kg.persons(conn, [pid]).get(pid)
            evidence = info.evidence if info else 0
            if opened:
                evidence = min(evidence, OPEN_BRANCH_EVIDENCE)
            new = information_gain(evidence, gen, G, tier,
                                   search=spec.action == "search", direct=pid in line)
            if known and new <= base:
                return None  # an open branch only ever raises a task
            return new, spec.model_copy(update={"target": {**spec.target, "generation": gen}})

        def rate(spec: TaskSpec, prio: float, tier: int) -> tuple[float, TaskSpec] | None:
            base = prio / spec.yield_factor if spec.yield_factor > 0 else prio
            new, spec2 = placed(spec, base, tier) or (base, spec)
            pid = merged.get(str(spec.target.get("person_id")), spec.target.get("person_id"))
            factor = (1.0 if spec.action != "search" or pid in exempt
                      else yields.factor(spec.source, era_of(spec.target)))
            if spec2 is spec and factor == spec.yield_factor:
                return None
            return new * factor, spec2.model_copy(update={"yield_factor": factor})

        n = rt.frontier.reprioritise(conn, rate)
        if n:
            rt.store.log(conn, LogEntry(
                agent=Agent.ANALYST, action_type="decision",
                rationale=f"{n} queued searches re-rated: their persons are now placed in "
                          "the pedigree, or their source's searches have yielded more or "
                          "less than expected (loop.yields)",
                context={"decision": "reprioritise", "tasks": n,
                         "yield_factors": {s: yields.factor(s) for s in yields.sources()}}))


def _resolution_pass(rt: Runtime, seed: str | None) -> None:
    """Data-quality clues, then entity resolution, from one reading of the case and one
    censored view of it (reading and censoring the whole case was a fifth of a research
    run's CPU when each step read its own), then searches re-rated for what was merged."""
    from sleuth.privacy.redaction import one_view
    from sleuth.store import case_graph

    with one_view():
        graph = case_graph(rt.store)  # merges folded: findings are about persons as resolved
        _check_quality(rt, seed, graph)
        _resolve(rt, graph)
    _reprioritise(rt, seed)


def _check_quality(rt: Runtime, seed: str | None, graph: Any = None) -> None:
    """Data-quality findings on the tree so far → clues → corroboration revisits.
    `graph`: the case as read for this pass (read here when not given)."""
    if rt.config.naive:
        return
    if graph is None:
        from sleuth.store import case_graph

        graph = case_graph(rt.store)  # merges folded: findings are about persons as resolved
    with rt.store.transaction() as conn:
        rt.yields.refresh(conn)
        if quality_clues(rt, conn, graph) and seed is not None:
            _corroborate(rt, conn, kg.generations(conn, seed))


def recorded_seed(conn: Connection) -> str | None:
    """The seed person as the log recorded it: the store, not the checkpoint, is the truth."""
    r = t.research_log.c
    for (context,) in conn.execute(select(r.context).where(
            r.agent == ANALYST, r.action_type == "decision").order_by(r.seq)):
        if (context or {}).get("decision") == "seed_person":
            return str(context["person_id"])
    return None


# -- records -------------------------------------------------------------------------------
def _read_record(rt: Runtime, conn: Connection, spec: TaskSpec, snap: Snapshot,
                 seed: str | None) -> tuple[str, str | None]:
    from sleuth.extract import refine

    c = t.candidates.c
    seen = conn.execute(select(c.id).where(c.snapshot_id == snap.id).limit(1)).first()
    summary = "record already analysed"
    if seen is None:
        cands = extract_for(snap, rt.store.blob(snap.sha256))
        if spec.endpoint == "register":
            cands = _family_rows(cands, _pedigree_surnames(conn, seed, spec.target))
        cands += _llm_verified(rt, conn, snap, cands)
        report = process_snapshot(rt.store, conn, snap, cands, refine=refine)
        if report.conflicts:
            _llm_conflict_advice(rt, conn, snap)
        summary = (f"{report.candidates} candidates: {report.promoted} promoted, "
                   f"{report.review} to review, {report.firewall_rejected} refused by the "
                   f"firewall, {report.conflicts} conflicts")
    touched = {str(x) for x in conn.execute(select(c.person_id).where(
        c.snapshot_id == snap.id, c.person_id.is_not(None)).distinct()).scalars()}
    infos = kg.persons(conn, touched)
    if seed is None and spec.target.get("generation") == 0:
        seed = _find_target(infos, spec.target)
        if seed:
            rt.store.log(conn, LogEntry(
                agent=Agent.ANALYST, action_type="decision",
                rationale=f"seed person identified as {infos[seed].name}",
                context={"decision": "seed_person", "person_id": seed, "snapshot_id": snap.id}))
    line = kg.direct_line(conn, seed)
    if (seed is not None and spec.target.get("generation") is not None and not rt.config.naive
            and _same_person_lead(rt, conn, spec, infos, line, snap.id)):
        line = kg.direct_line(conn, seed)  # the lead's person and her ancestors join it
    gens = kg.generations(conn, seed)
    made = 0
    parents = kg.parent_counts(conn, infos)
    for info in sorted(infos.values(), key=kg.content_key):
        if seed is not None:
            gen, direct = gens.get(info.id), info.id in line
        else:  # the seed is not found yet: only who could be the seed ranks as the seed
            maybe = spec.target.get("generation") == 0 and _could_be(info, spec.target)
            gen, direct = (0 if maybe else None), maybe
        open_branch = (direct and gen is not None and 0 <= gen < rt.budget.target_generations
                       and parents.get(info.id, 0) < 2)
        made += _plan_person(rt, conn, info, gen, seed, direct=direct, open_branch=open_branch)
    made += _corroborate(rt, conn, gens)
    made += _open_registers(rt, conn, spec, snap, gens.get(seed or "", 0) if seed else 0)
    return f"{summary}; {made} new tasks", seed


def _same_person_lead(rt: Runtime, conn: Connection, spec: TaskSpec,
                      infos: dict[str, kg.PersonInfo], line: set[str], snapshot_id: str) -> bool:
    """A record fetched for someone on the pedigree that names them only under another
    surname: the hypothesis that it is them (`sleuth.loop.identity`), followed as a lead.
    Whether one was added."""
    from sleuth.loop.identity import same_person_lead

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
            _push(rt, conn, s, information_gain(0, spec.target.get("generation") or gen,
                                                rt.budget.target_generations, tier), tier, None)
            made += 1
    return made


def _pedigree_surnames(conn: Connection, seed: str | None, target: dict[str, Any]) -> set[str]:
    """The target's surname and every surname on the seed's direct line found so far (wives'
    birth names included): the families a pedigree search is about."""
    from sleuth.verify.normalise import fold

    names = [str(target.get("name") or "")]
    if seed is not None:
        line = kg.direct_line(conn, seed)
        names += [n for i in kg.persons(conn, line).values() for n in (i.name, i.surname)]
    return {w[-1] for w in (fold(n).split() for n in names) if w}


def _family_rows(cands: list[Any], surnames: set[str]) -> list[Any]:
    """A whole parish register is read for the pedigree's families, as a researcher reads it:
    the rows that name one of their surnames (as the clerk heard it: Soundex). The rest of
    the parish stays in the stored snapshot, not in the tree, where namesakes would be
    merged wrongly."""
    import jellyfish

    from sleuth.verify.normalise import fold

    keys = {jellyfish.soundex(s) for s in surnames if s.isalpha()}
    if not keys:
        return cands

    def names_family(text: str) -> bool:
        return any(w.isalpha() and len(w) > 2 and jellyfish.soundex(w) in keys
                   for w in fold(text).split())

    return [c for c in cands if c.citation is not None and names_family(c.citation.excerpt)]


def _llm_verified(rt: Runtime, conn: Connection, snap: Snapshot,
                  cands: list[Any]) -> list[Any]:
    """With a model configured, the verifier checks the deterministic reading and may add
    facts and hypotheses; everything it adds has passed the firewall (`sleuth.llm.guard`),
    and a model that fails leaves the deterministic reading as it was."""
    if rt.llm is None:
        return []
    from sleuth.llm import LLMError, Verifier, store_sink

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


def _llm_conflict_advice(rt: Runtime, conn: Connection, snap: Snapshot) -> None:
    """With a model configured, the conflict analyst writes the rationale and next actions of
    the conflicts this record raised (its hypotheses are clues, never facts). The ranking
    stays the deterministic one: the model may only make a result more tentative."""
    if rt.llm is None:
        return
    from sleuth.llm import ConflictAnalyst, LLMError, store_sink
    from sleuth.store.queries import conflicts_of

    c = t.candidates.c
    touched = [str(x) for x in conn.execute(select(c.person_id).where(
        c.snapshot_id == snap.id, c.person_id.is_not(None)).distinct()).scalars()]
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


def _find_target(infos: dict[str, kg.PersonInfo], target: dict[str, Any]) -> str | None:
    key = target.get("key")
    if key:
        for info in infos.values():
            if any(key in vals for vals in info.ids.values()):
                return info.id
    born = target.get("birth_year")
    where = kg.place_words(target.get("place"))
    # Without an identifier, a name alone is not enough when the user gave a birth year, nor
    # when the user gave a place and the record places the person somewhere else entirely.
    fits = [i for i in infos.values() if (not born or (
        i.birth_year is not None and abs(i.birth_year - int(born)) <= 2))
        and _place_fits(i, where)]
    best = max(fits, default=None,
               key=lambda i: (score_hit(i.name, i.birth_year, target), i.evidence, i.id))
    if best is not None and score_hit(best.name, best.birth_year, target) >= 90:
        return best.id
    # A woman's later records carry her husband's surname ("Ruth Wren" for Ruth Greenwood):
    # the given name, the very birth year and the user's locality identify her, if only one.
    local = kg.place_words(str(target.get("place") or "").split(",")[0])
    given = str(target.get("given") or "").lower().split()[:1]
    wed = [i for i in fits if born and i.birth_year == int(born) and local and given
           and i.given.lower().split()[:1] == given
           and any(local & kg.place_words(p) for p in i.places)]
    return wed[0].id if len(wed) == 1 else None


def _could_be(info: kg.PersonInfo, target: dict[str, Any]) -> bool:
    """A name that fits the target (given name alone for a possibly married woman) and a
    birth year that does not rule them out."""
    born = target.get("birth_year")
    if born and info.birth_year is not None and abs(info.birth_year - int(born)) > 2:
        return False
    given = str(target.get("given") or "").lower().split()[:1]
    return score_hit(info.name, info.birth_year, target) >= 80 or (
        bool(given) and info.given.lower().split()[:1] == given)


def _place_fits(info: kg.PersonInfo, where: set[str]) -> bool:
    """No place given, no birthplace known, or a birthplace with a word in common (people
    move: only where one was born or baptised can rule a record out)."""
    return not where or not info.birth_places or any(
        where & kg.place_words(p) for p in info.birth_places)


def _likely_living(info: kg.PersonInfo) -> bool:
    return (info.death_year is None and info.birth_year is not None
            and info.birth_year > date.today().year - 100)


def _values(info: kg.PersonInfo) -> dict[str, Any]:
    v = {"given": info.given, "surname": info.surname, "name": info.name,
         "birth_year": info.birth_year, "death_year": info.death_year}
    return {k: x for k, x in v.items() if x not in (None, "")}


OPEN_BRANCH_EVIDENCE = 1  # what a direct ancestor missing a parent counts as known


def _plan_person(rt: Runtime, conn: Connection, info: kg.PersonInfo, gen: int | None,
                 seed: str | None, *, direct: bool = True, open_branch: bool = False) -> int:
    """hypothesesToTasks for one person: follow their identifiers, search for their records.

    `open_branch`: a direct ancestor inside the target generations with a parent still
    unknown. However many records already name them, their own records are where the next
    generation is found, so the expected gain is counted as if little were known."""
    if _likely_living(info) and info.id != seed:
        return 0  # no one goes looking for the living (privacy); what came is kept
    G = rt.budget.target_generations
    evidence = min(info.evidence, OPEN_BRANCH_EVIDENCE) if open_branch else info.evidence
    target = {"person_id": info.id, "generation": gen, "name": info.name, "given": info.given,
              "birth_year": info.birth_year, "direct": direct,
              **({"place": min(info.birth_places)} if info.birth_places else {})}
    specs: list[tuple[TaskSpec, float, int]] = []
    have = set()
    for fld, vals in sorted(info.ids.items()):
        if fld not in ID_FOLLOW:
            continue
        source, endpoint, ph = ID_FOLLOW[fld]
        if not rt.usable(source):
            continue
        if fld in ("wikitree_id", "wikidata_id", "familysearch_id"):
            have.add(source)
        for v in sorted(vals):
            tier = rt.tier(source)
            specs.append((TaskSpec(action="call", source=source, endpoint=endpoint,
                                   values={ph: v}, query=f"{source} {endpoint} {v}",
                                   target={**target, "key": v}),
                          information_gain(evidence, gen, G, tier, direct=direct), tier))
    if len(info.name.split()) >= 2:
        for src in rt.sources():
            if src.search is None or src.id in have:
                continue
            tier = int(src.tier)
            values = _values(info)
            q = f"{src.id} search: {info.name}" + (f" b.{info.birth_year}"
                                                   if info.birth_year else "")
            specs.append((TaskSpec(action="search", source=src.id, values=values, query=q,
                                   target=target),
                          information_gain(evidence, gen, G, tier, search=True,
                                           direct=direct), tier))
    fresh = [(s, p, tier) for s, p, tier in specs if rt.config.naive or rt.guard.check(s) is None]
    if gen is not None and not rt.config.naive:
        for s, p, tier in specs:  # a namesake's queued search of the same words, raised
            # only the very question asked before can be raised (`FrontierQueue.adopt`)
            if (s, p, tier) not in fresh and query_hash(s) in rt.guard.hashes:
                f = _yield_factor(rt, conn, s, direct)
                rt.frontier.adopt(conn, s.model_copy(update={"yield_factor": f}), p * f)
    if not fresh:
        return 0
    hyp = Hypothesis(
        hypothesis_type="vital_records", statement=f"Find vital records for {info.name}",
        target_person=info.id, suggested_queries=[s.query for s, _, _ in fresh],
        suggested_sources=sorted({s.source for s, _, _ in fresh}),
        priority=max(p for _, p, _ in fresh))
    rt.clues.add(conn, hyp, agent=ANALYST)
    for s, p, tier in fresh:
        prior = rt.guard.searched.get((info.id, s.source)) if s.action == "search" else None
        if prior is not None and not rt.config.naive:
            s = s.model_copy(update={"queue": "revisit", "revisit": Revisit(
                original_query=prior, improved_query=s.query, reason=NEW_DATA,
                triggering_clue=hyp.id, original_source_id=s.source)})
        _push(rt, conn, s, p, tier, hyp.id)
    return len(fresh)


def _push(rt: Runtime, conn: Connection, spec: TaskSpec, priority: float, tier: int,
          hyp_id: str | None) -> None:
    if rt.config.naive:
        priority = 0.5  # the baseline does not prioritise
    elif spec.action == "search":  # scaled by what the source's searches have yielded
        factor = _yield_factor(rt, conn, spec, bool(spec.target.get("direct")))
        spec = spec.model_copy(update={"yield_factor": factor})
        priority *= factor
    rt.frontier.push(conn, spec, priority, tier=tier, hypothesis_id=hyp_id, agent=ANALYST)
    rt.guard.add(spec)
    if spec.queue == "revisit" and spec.revisit is not None:
        rt.store.log(conn, LogEntry(
            agent=Agent.ANALYST, action_type="revisit_planned", rationale=spec.revisit.reason,
            context={"source": spec.source, "original_query": spec.revisit.original_query,
                     "improved_query": spec.revisit.improved_query,
                     "triggering_clue": spec.revisit.triggering_clue}))


def _yield_factor(rt: Runtime, conn: Connection, spec: TaskSpec, direct: bool) -> float:
    """What the source's searches have yielded for people of this era (`loop.yields`); 1 for
    the seed and the direct ancestors inside the target generations, for whom every source
    is searched whatever it has yielded for others (the GPS's reasonably exhaustive
    search)."""
    gen = spec.target.get("generation")
    if spec.action != "search" or (direct and isinstance(gen, int)
                                   and 0 <= gen <= rt.budget.target_generations):
        return 1.0
    return rt.yields.factor(spec.source, era_of(spec.target))  # read as the record began


def _corroborate(rt: Runtime, conn: Connection, gens: dict[str, int]) -> int:
    """Conflict hypotheses the staging Analyst proposed, and data-quality findings on the
    tree (`loop.quality`) → revisits of the sources their person was searched in."""
    if rt.config.naive:
        return 0
    h, k = t.hypotheses.c, t.tasks.c
    rows = conn.execute(select(h.id, h.target_person, h.statement).where(
        or_(h.hypothesis_type == "conflict_resolution",
            h.hypothesis_type.like(QUALITY_PREFIX + "%")), h.status == "Pending",
        h.target_person.is_not(None),
        h.id.not_in(select(k.hypothesis_id).where(k.hypothesis_id.is_not(None))))).all()
    made = 0
    infos = kg.persons(conn, [str(r[1]) for r in rows])
    for hid, pid, _statement in rows:
        info = infos.get(str(pid))
        if info is None:
            continue
        for src in rt.sources():
            prior = rt.guard.searched.get((info.id, src.id))
            if src.search is None or prior is None:
                continue
            values = _values(info)
            q = f"{src.id} search: {info.name} (corroboration)"
            spec = TaskSpec(action="search", source=src.id, values=values, query=q,
                            queue="revisit",
                            target={"person_id": info.id, "generation": gens.get(info.id),
                                    "name": info.name, "given": info.given,
                                    "birth_year": info.birth_year},
                            revisit=Revisit(original_query=prior, improved_query=q,
                                            reason=CORROBORATE, triggering_clue=str(hid),
                                            original_source_id=src.id))
            if rt.guard.check(spec) is not None:
                continue
            tier = int(src.tier)
            _push(rt, conn, spec, information_gain(info.evidence, gens.get(info.id),
                                                   rt.budget.target_generations, tier,
                                                   search=True), tier, str(hid))
            made += 1
    return made


# -- search responses ----------------------------------------------------------------------
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
                _push(rt, conn, improved, 0.4, int(src.tier), hyp.id)
        return f"{total} hits, none plausibly {name}", False
    fresh: list[TaskSpec] = []
    for h in hits:
        if h.url is not None:
            s = TaskSpec(action="fetch", source=src.id, endpoint=h.action,
                         values={"url": h.url}, query=f"{src.id} open {h.label or h.url}",
                         target={**spec.target, "key": h.ident})
        else:
            endpoint, ph, _ = HIT_FOLLOW[src.id]
            endpoint = h.endpoint or endpoint
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
        _push(rt, conn, s, base * h.score / 100, int(src.tier), hyp.id)
    return f"{total} hits, {len(fresh)} plausibly {name}", True


# -- entity resolution ---------------------------------------------------------------------
def _hosted_living(rt: Runtime, role: str, graph: Any = None) -> Any:
    """For a role whose endpoint is not on this machine: person id -> may be living, by the
    Censor's verdict on the whole case (a role alone sees one record and must assume the
    worst). None for a local endpoint, which is sent the record as it is."""
    from sleuth.llm.outbound import endpoint_is_local

    if rt.llm is None or endpoint_is_local(rt.llm.config.role(role)):
        return None
    from sleuth.privacy import assess_living
    from sleuth.store import case_graph

    verdicts = assess_living(graph if graph is not None else case_graph(rt.store))
    return lambda pid: verdicts.get(str(pid), (True, ""))[0]


def _llm_judged(rt: Runtime, graph: Any, review: list[Any]) -> list[Any]:
    """With a model configured, the resolver judges each pair sent to review: "separate"
    keeps it off the queue (logged); otherwise it is queued with the model's why-not-merge.
    The model never merges: a person decides, or the deterministic resolver's evidence."""
    if rt.llm is None or not review:
        return review

    from sleuth.llm import LLMError, Resolver, store_sink

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


def _members(merged: dict[str, str], canonical: str) -> list[str]:
    return [canonical, *(m for m, c in merged.items() if c == canonical)]


PARENTS_FIRST_DEPTH = 2  # generations of duplicate parents merged for one confident merge


def _parents_first(rt: Runtime, conn: Connection, members: list[str], depth: int = 0) -> bool:
    """A confident merge held back only because the merged person would have more than two
    parents: the duplicate parents (one sex, names that agree, `resolve.coparents`) are merged
    first, then the merge goes ahead. A mother under her maiden name in one record and her
    married name in another otherwise keeps her son in two pieces; and her own two fathers
    (a baptism's "John KETTERIDGE" and her memorial's) may hold her back in turn, so this
    goes up to `PARENTS_FIRST_DEPTH` generations. True when no blocker is left; else
    nothing is changed."""
    from itertools import combinations

    from sleuth.resolve import merge_blockers
    from sleuth.resolve.coparents import could_be_one
    from sleuth.store.queries import merged_into

    r, p = t.relationships.c, t.persons.c
    clustered = merged_into(conn)
    parents = sorted({clustered.get(x, x) for x in conn.execute(select(r.person1_id).where(
        r.person2_id.in_(members), r.relationship_type == "parent")).scalars()})
    if len(parents) <= 2:
        return False
    people = {str(i): (n, sx) for i, n, sx in conn.execute(
        select(p.id, p.canonical_name, p.sex).where(p.id.in_(parents)))}
    child = conn.execute(select(p.canonical_name).where(p.id == members[0])).scalar() or ""
    savepoint = conn.begin_nested()
    for x, y in combinations(parents, 2):
        (nx, sx), (ny, sy) = people[x], people[y]
        if sx == sy != "U" and could_be_one(nx, ny, child):
            why = (f"persons {x} and {y} are each a parent of one person (a confident merge "
                   f"of {', '.join(members)}), of one sex, with names that agree")
            if not _merge_pair(rt, conn, x, y, why, "a person has one father and one mother",
                               "parents_first") and depth < PARENTS_FIRST_DEPTH:
                now = merged_into(conn)
                theirs = [m for q in (x, y) for m in _members(now, now.get(q, q))]
                if _parents_first(rt, conn, theirs, depth + 1):
                    _merge_pair(rt, conn, x, y, why, "a person has one father and one mother",
                                "parents_first")
    now = merged_into(conn)
    if merge_blockers(conn, sorted({m for x in members for m in _members(now, now.get(x, x))})):
        savepoint.rollback()
        return False
    savepoint.commit()
    return True


def _merge_pair(rt: Runtime, conn: Connection, x: str, y: str, rationale: str,
                why_not_split: str, rule: str) -> bool:
    """Merge the persons `x` and `y` stand for now (clusters grow), unless they are one
    already or a blocker says they are two; logged with the rule that asked for it."""
    from sleuth.resolve import merge_blockers
    from sleuth.resolve.merge import grow_in
    from sleuth.store.queries import merged_into

    clustered = merged_into(conn)
    a, b = clustered.get(x, x), clustered.get(y, y)
    if a == b or merge_blockers(conn, _members(clustered, a) + _members(clustered, b)):
        return False
    try:
        with conn.begin_nested():
            mc = grow_in(rt.store, conn, [a, b], rationale, why_not_split=why_not_split,
                         by=ANALYST)
    except (InvariantViolation, InputError):
        return False
    rt.store.log(conn, LogEntry(agent=Agent.ANALYST, action_type="merge", rationale=rationale,
                                context={"cluster": mc.id, "persons": [x, y], "rule": rule}))
    return True


def _merge_coparents(rt: Runtime, graph: CaseGraph) -> int:
    """A child's two mothers (or fathers), or a person's two husbands (or wives), whose names
    agree become one person (`resolve.coparents`), unless the blockers say they are two.
    `graph` is the pass's reading of the case (uncensored: read here, never shown); a pair a
    merge of this pass makes is found by the next (each merge re-reads who is who)."""
    from sleuth.resolve.coparents import coparent_pairs, couple_pairs, partner_pairs

    made = 0
    for cp in coparent_pairs(graph) + partner_pairs(graph) + couple_pairs(graph):
        with rt.store.transaction() as conn:
            made += _merge_pair(rt, conn, cp.a, cp.b, cp.rationale, cp.why_not_split, cp.rule)
    return made


def _merge_same_lives(rt: Runtime) -> int:
    """Records with the same birth day, name and father, mother or spouse are one person
    (`resolve.identity`), whatever else their years say: the disagreement is a conflict."""
    from sleuth.resolve.identity import (
        register_pairs,
        same_life_pairs,
        sibling_pairs,
        stub_links,
    )
    from sleuth.store.queries import merged_into

    rules = (
        (same_life_pairs, "same_life", "no record gives this person another birth day or "
         "family; the dates that disagree are weighed as a conflict"),
        (stub_links, "stub_link", "no other person of this name can be the one the record "
         "names"),
        (sibling_pairs, "one_child", "no record gives the parent two living children of this "
         "name"),
        (register_pairs, "register_entry", "no other person of this name died (or was born) "
         "days before in that place"),
    )
    made = 0
    for find, rule, why_not_split in rules:  # each rule reads the case its forerunner left
        with rt.store.engine.connect() as conn:
            pairs = find(conn)
        for x, y, why in pairs:
            with rt.store.transaction() as conn:
                done = _merge_pair(rt, conn, x, y, why, why_not_split, rule)
                if not done and rule == "same_life":
                    # one life with a mother under her maiden name in one record and her
                    # married name in the other: the two mothers are merged first
                    clustered = merged_into(conn)
                    both = [m for p in (x, y)
                            for m in _members(clustered, clustered.get(p, p))]
                    done = _parents_first(rt, conn, both) and _merge_pair(
                        rt, conn, x, y, why, why_not_split, rule)
                made += done
    return made


def consolidate(rt: Runtime) -> None:
    """The last resolution pass, when the run stops: what the last records found is merged
    like everything before it (a pass runs every RESOLVE_EVERY tasks), repeated while it
    still merges (one merge can make the next possible: parents first), at most 3 times."""
    for _ in range(3):
        before = _merge_count(rt)
        _resolve(rt)
        if _merge_count(rt) == before:
            break


def _merge_count(rt: Runtime) -> int:
    from sqlalchemy import func

    with rt.store.engine.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(t.merge_clusters)).scalar_one())


def _same_locality(conn: Connection, a: list[str], b: list[str]) -> bool:
    """Both persons are placed in one town or parish (`agents.namesakes.localities`)."""
    from sleuth.agents.namesakes import localities

    return bool(localities(conn, a) & localities(conn, b))


def _resolve(rt: Runtime, graph: Any = None) -> None:
    """Confident duplicates become reversible merges; uncertain pairs go to review.
    `graph`: the case as read at the start of this pass (read here when not given)."""
    from sleuth.privacy import censor
    from sleuth.resolve import merge_blockers, records_from_graph, resolve
    from sleuth.resolve.merge import grow_in
    from sleuth.resolve.review import enqueue_proposals
    from sleuth.store import case_graph
    from sleuth.store.queries import merged_into

    graph = case_graph(rt.store) if graph is None else graph
    if len(graph.persons) < 2:
        return
    try:
        res = resolve(records_from_graph(censor(graph)))
    except (ValueError, ZeroDivisionError):  # too few records to train the model
        return
    # A research case merges on more than a name: a pair that only a name argues for is
    # reviewed unless both are placed in one town or parish (two Edwin DRABLEs, buried at
    # Haworth and wed at Yielden, are namesakes), as at promotion (`agents.namesakes`).
    proposals = res.proposals()
    review = [p for p in proposals if p.recommended_action != "merge"]
    with rt.store.engine.connect() as conn:
        clustered = merged_into(conn)
        apart = [p for p in proposals if p.recommended_action == "merge" and p.names_only
                 and not _same_locality(conn, _members(clustered, clustered.get(p.a, p.a)),
                                        _members(clustered, clustered.get(p.b, p.b)))]
    review += [replace(p, recommended_action="review") for p in apart]
    held = {(p.a, p.b) for p in apart}
    grown: set[str] = set()  # clusters made or grown in this pass
    for p in proposals:
        if p.recommended_action != "merge" or (p.a, p.b) in held:
            continue
        with rt.store.transaction() as conn:
            clustered = merged_into(conn)
            a, b = clustered.get(p.a, p.a), clustered.get(p.b, p.b)
            if a == b or a in grown or b in grown:
                continue  # the same person already; or a cluster this pass already changed
            if merge_blockers(conn, _members(clustered, a) + _members(clustered, b)) and not (
                    _parents_first(rt, conn, _members(clustered, a) + _members(clustered, b))):
                review.append(p)
                continue
            clustered = merged_into(conn)
            a, b = clustered.get(p.a, p.a), clustered.get(p.b, p.b)
            try:
                with conn.begin_nested():  # a person already merged grows their cluster
                    mc = grow_in(rt.store, conn, [a, b], p.merge_rationale,
                                 why_not_split=p.why_not_merge, by=ANALYST)
                grown.add(mc.canonical_id)
            except (InvariantViolation, InputError):
                review.append(p)
                continue
            rt.store.log(conn, LogEntry(
                agent=Agent.ANALYST, action_type="merge", rationale=p.merge_rationale,
                context={"cluster": mc.id, "persons": [p.a, p.b],
                         "probability": round(p.probability, 4),
                         "why_not_merge": p.why_not_merge}))
    _merge_same_lives(rt)
    review = _llm_judged(rt, graph, review)
    if review:
        enqueue_proposals(rt.store, review)
    _merge_coparents(rt, graph)
    from sleuth.resolve.revise import propose_unmerges

    propose_unmerges(rt.store)  # merges that later evidence contradicts go back to a person
    from sleuth.resolve.review import supersede_merged

    supersede_merged(rt.store)  # proposals about pairs that merges have made one are closed
    with rt.store.transaction() as conn:  # and so are the leads that said they may be one
        rt.clues.settle_merged(conn, merged_into(conn))
