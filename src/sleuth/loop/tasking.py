"""The Analyst's task planning: the tasks a record's persons and clues add to the frontier
(vital-record searches for persons newly found, revisits to corroborate a conflict), how
each is rated (information gain, the source's yield so far), and the re-rating of queued
searches once their persons are placed in the pedigree."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection

from sleuth.loop.priority import information_gain
from sleuth.loop.quality import PREFIX as QUALITY_PREFIX
from sleuth.loop.queues import Revisit, TaskSpec, query_hash
from sleuth.loop.runtime import Runtime
from sleuth.loop.yields import era_of
from sleuth.model import (
    Agent,
    Hypothesis,
    LogEntry,
)
from sleuth.privacy.living import SEARCH_RULE, living_by_years
from sleuth.sources.hits import (
    id_follows,
    place_words,
    score_hit,
)
from sleuth.store import blackboard
from sleuth.store.queries import merged_into
from sleuth.store.tasks import unfollowed_clues

ANALYST = str(Agent.ANALYST)
NEW_DATA = "New hypothesis requires additional data"
TOO_NARROW = "Previous search parameters too narrow"
CORROBORATE = "Conflict resolution requires corroboration"


def reprioritise(rt: Runtime, seed: str | None) -> None:
    """Searches queued for someone not yet placed in the pedigree are re-rated once they
    are (a parent named in a memorial, linked to the seed's line by a later record), tasks
    for a direct ancestor whose parents are still unknown are raised to what an open branch
    is worth (`plan_person`), however much evidence arrived since they were queued, and
    every queued search follows its source's yield so far (`loop.yields`)."""
    if seed is None or rt.config.naive:
        return

    with rt.store.transaction() as conn:
        merged = merged_into(conn)
        gens = blackboard.generations(conn, seed)
        line = blackboard.direct_line(conn, seed)
        parents = blackboard.parent_counts(conn, [p for p in line if p not in merged])
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
            info = blackboard.persons(conn, [pid]).get(pid)
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


def find_target(infos: dict[str, blackboard.PersonInfo], target: dict[str, Any]) -> str | None:
    key = target.get("key")
    if key:
        for info in infos.values():
            if any(key in vals for vals in info.ids.values()):
                return info.id
    born = target.get("birth_year")
    where = place_words(target.get("place"))
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
    local = place_words(str(target.get("place") or "").split(",")[0])
    given = str(target.get("given") or "").lower().split()[:1]
    wed = [i for i in fits if born and i.birth_year == int(born) and local and given
           and i.given.lower().split()[:1] == given
           and any(local & place_words(p) for p in i.places)]
    return wed[0].id if len(wed) == 1 else None


def could_be(info: blackboard.PersonInfo, target: dict[str, Any]) -> bool:
    """A name that fits the target (given name alone for a possibly married woman) and a
    birth year that does not rule them out."""
    born = target.get("birth_year")
    if born and info.birth_year is not None and abs(info.birth_year - int(born)) > 2:
        return False
    given = str(target.get("given") or "").lower().split()[:1]
    return score_hit(info.name, info.birth_year, target) >= 80 or (
        bool(given) and info.given.lower().split()[:1] == given)


def _place_fits(info: blackboard.PersonInfo, where: set[str]) -> bool:
    """No place given, no birthplace known, or a birthplace with a word in common (people
    move: only where one was born or baptised can rule a record out)."""
    return not where or not info.birth_places or any(
        where & place_words(p) for p in info.birth_places)


def _values(info: blackboard.PersonInfo) -> dict[str, Any]:
    v = {"given": info.given, "surname": info.surname, "name": info.name,
         "birth_year": info.birth_year, "death_year": info.death_year}
    return {k: x for k, x in v.items() if x not in (None, "")}


OPEN_BRANCH_EVIDENCE = 1  # what a direct ancestor missing a parent counts as known


def plan_person(rt: Runtime, conn: Connection, info: blackboard.PersonInfo, gen: int | None,
                 seed: str | None, *, direct: bool = True, open_branch: bool = False) -> int:
    """hypothesesToTasks for one person: follow their identifiers, search for their records.

    `open_branch`: a direct ancestor inside the target generations with a parent still
    unknown. However many records already name them, their own records are where the next
    generation is found, so the expected gain is counted as if little were known."""
    if living_by_years(info.birth_year, info.death_year, SEARCH_RULE) and info.id != seed:
        return 0  # no one goes looking for the living (privacy); what came is kept
    G = rt.budget.target_generations
    evidence = min(info.evidence, OPEN_BRANCH_EVIDENCE) if open_branch else info.evidence
    target = {"person_id": info.id, "generation": gen, "name": info.name, "given": info.given,
              "birth_year": info.birth_year, "direct": direct,
              **({"place": min(info.birth_places)} if info.birth_places else {})}
    specs: list[tuple[TaskSpec, float, int]] = []
    have = set()
    follows = id_follows(rt.registry.declared())
    for fld, vals in sorted(info.ids.items()):
        if fld not in follows:
            continue
        source, endpoint, ph = follows[fld]
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
                f = yield_factor(rt, conn, s, direct)
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
        push_task(rt, conn, s, p, tier, hyp.id)
    return len(fresh)


def push_task(rt: Runtime, conn: Connection, spec: TaskSpec, priority: float, tier: int,
          hyp_id: str | None) -> None:
    if rt.config.naive:
        priority = 0.5  # the baseline does not prioritise
    elif spec.action == "search":  # scaled by what the source's searches have yielded
        factor = yield_factor(rt, conn, spec, bool(spec.target.get("direct")))
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


def yield_factor(rt: Runtime, conn: Connection, spec: TaskSpec, direct: bool) -> float:
    """What the source's searches have yielded for people of this era (`loop.yields`); 1 for
    the seed and the direct ancestors inside the target generations, for whom every source
    is searched whatever it has yielded for others (the GPS's reasonably exhaustive
    search)."""
    gen = spec.target.get("generation")
    if spec.action != "search" or (direct and isinstance(gen, int)
                                   and 0 <= gen <= rt.budget.target_generations):
        return 1.0
    return rt.yields.factor(spec.source, era_of(spec.target))  # read as the record began


def corroborate(rt: Runtime, conn: Connection, gens: dict[str, int]) -> int:
    """Conflict hypotheses the staging Analyst proposed, and data-quality findings on the
    tree (`loop.quality`) → revisits of the sources their person was searched in."""
    if rt.config.naive:
        return 0
    rows = unfollowed_clues(conn, QUALITY_PREFIX)
    made = 0
    infos = blackboard.persons(conn, [str(r[1]) for r in rows])
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
            push_task(rt, conn, spec, information_gain(info.evidence, gens.get(info.id),
                                                   rt.budget.target_generations, tier,
                                                   search=True), tier, str(hid))
            made += 1
    return made
