"""The LLM planner during the run (seed 000 §3.1), not only for the first plan.

Every `PLAN_EVERY` tasks, with a model configured, the planner is shown where the run
stands: iteration, requests, queue sizes, the pedigree persons found so far (names, years,
generation, how much evidence each has) and the pending clues. It may propose searches
(`next_actions` aimed at a source id), name variants (`query_expansions`) and revisits
(`revisit_schedule`, with one of seed 001's reasons). Everything is read as data and checked:

* a proposal is used only when its query reads as a name that fits one pedigree person
  (same Soundex surname; the same given name or initial, or a known nickname of it), and its
  source is one this run may search; anything else is logged as set aside;
* a proposed search for a person already searched in that source becomes a revisit with
  the search it improves on as `original_query` (reason: the planner's, when it gave an
  allowed one, else "Previous search parameters too narrow");
* the NoveltyGuard, the source gates and the budget still apply; `should_stop` is advice,
  logged, never a stop condition;
* one consultation per iteration: a pass redone after a kill finds its plan entry in the log
  and does not ask again (nor pay again).

Privacy: persons who may be living are never shown to the model, and the seed's own living
status is not sent either (only names, years and counts of the dead or long-born).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from jellyfish import soundex
from sqlalchemy import Connection

from sleuth.extract.nicknames import GROUPS
from sleuth.llm import LLMError, Planner, store_sink
from sleuth.loop.priority import information_gain
from sleuth.loop.queues import Revisit, TaskSpec
from sleuth.loop.runtime import Runtime
from sleuth.model import REVISIT_REASONS, Agent, LogEntry
from sleuth.privacy.living import MODEL_RULE, living_by_years
from sleuth.store import blackboard, research_log
from sleuth.store.hypotheses import pending_statements
from sleuth.store.queries import merged_into
from sleuth.store.tasks import search_payloads

LEAD = str(Agent.LEAD)
TOO_NARROW = "Previous search parameters too narrow"
MAX_PERSONS = 24  # pedigree persons shown to the model, least-evidenced first
MAX_CLUES = 12
_YEAR = re.compile(r"\b(1[0-9]{3}|20[0-9]{2})\b")
PLAN_EVERY = 10  # tasks between consultations: a model call per task would cost too much


def name_words(query: str) -> list[str]:
    """A proposal read as a name: capitalised alphabetic words (one to four), else none."""
    words = [w for w in query.replace(",", " ").split()
             if w[:1].isupper() and w.replace("-", "").replace("'", "").isalpha()]
    return words if 1 <= len(words) <= 4 else []


def fits(words: list[str], info: blackboard.PersonInfo) -> bool:
    """Is this name a variant of this person's: same Soundex surname and, for a full name,
    the same given name, its initial, or a nickname of it."""
    if not words or not info.surname or soundex(words[-1]) != soundex(info.surname):
        return False
    if len(words) == 1:
        return True
    given = words[0].rstrip(".")
    mine = (info.given or "").split()
    if not mine:
        return False
    return (given.lower() == mine[0].lower() or (len(given) == 1 and mine[0][:1] == given)
            or bool(GROUPS.get(given.lower(), frozenset())
                    & GROUPS.get(mine[0].lower(), frozenset())))


def grounding(infos: Iterable[blackboard.PersonInfo], *seed_texts: str | None) -> list[str]:
    """What a planner's query may aim at (issue 26): the names, places and ids of these
    persons of the case, and the seed's own words."""
    out = [x for x in seed_texts if x]
    for p in infos:
        out += [p.name, *sorted(p.places), *sorted(v for vs in p.ids.values() for v in vs)]
    return out


def set_aside_entry(set_aside: list[str]) -> LogEntry:
    """The research log's note of planner proposals not searched, each with its reason: a
    proposal refused costs no request."""
    return LogEntry(
        agent=Agent.LEAD, action_type="decision",
        rationale=f"{len(set_aside)} planner proposals set aside, no request spent: "
                  + "; ".join(set_aside[:5]) + (" ..." if len(set_aside) > 5 else ""),
        context={"decision": "plan_set_aside", "proposals": set_aside[:50]})


def _prior(rt: Runtime, conn: Connection, merged: dict[str, str], pid: str, source: str,
           seed: str) -> str | None:
    """The first search of this source for this person or anyone merged with them; for the
    seed, the Lead's first search (queued before the seed existed in the store)."""
    canon = merged.get(pid, pid)
    for m in sorted({canon, *(x for x, c in merged.items() if c == canon)}):
        if (q := rt.guard.searched.get((m, source))) is not None:
            return q
    if canon != merged.get(seed, seed):
        return None
    for payload in search_payloads(conn):
        if payload.get("source") == source and (payload.get("target") or {}).get("role") == "seed":
            return str(payload.get("query"))
    return None


def replan(rt: Runtime, seed: str | None, iteration: int, requests: int = 0) -> int:
    """Consult the planner once; queue what survives the checks. Returns tasks queued."""
    if rt.llm is None or seed is None or rt.config.naive:
        return 0
    from datetime import date

    year = date.today().year
    sources = {s.id: s for s in rt.sources() if s.search is not None}
    with rt.store.transaction() as conn:
        if any(c.get("iteration") == iteration
               for c in research_log.contexts(conn, LEAD, "plan")):
            return 0
        gens = blackboard.generations(conn, seed)
        merged = merged_into(conn)
        infos = {i: p for i, p in blackboard.persons(conn, gens).items()
                 if not living_by_years(p.birth_year, p.death_year, MODEL_RULE, year)}
        shown = sorted(infos.values(), key=lambda p: (p.evidence, abs(gens[p.id]),
                                                      blackboard.content_key(p)))[:MAX_PERSONS]
        state = {"iteration": iteration, "requests": requests,
                 "queues": rt.frontier.sizes(conn),
                 "pedigree": [{"name": p.name, "born": p.birth_year, "died": p.death_year,
                               "generation": gens[p.id], "evidence": p.evidence}
                              for p in shown]}
        clues = pending_statements(conn, list(infos), MAX_CLUES)
        try:
            seed_cfg = rt.config.seed
            plan = Planner(rt.llm, store_sink(rt.store, conn)).plan(
                state, sources=[{"id": s.id, "tier": int(s.tier), "name": s.name}
                                for s in sources.values()],
                pending_clues=clues, targets=[p.name for p in shown],
                grounding=grounding(infos.values(), seed_cfg.name, seed_cfg.place))
        except LLMError:
            return 0
        if plan is None:
            return 0
        asked: list[tuple[str, str, str | None]] = [
            (a.target, a.query, None) for a in plan.next_actions
            if a.action in ("fetch", "revisit")]
        asked += [(r.source_id, r.improved_query, r.reason) for r in plan.revisits]
        asked += [(sid, q, None) for q in plan.query_expansions for sid in sources]
        entry = LogEntry(agent=Agent.LEAD, action_type="plan",
                         rationale=f"planner consulted at iteration {iteration}: "
                                   f"{len(asked)} proposals",
                         context={"iteration": iteration, "should_stop": plan.should_stop,
                                  "stop_reason": plan.stop_reason})
        rt.store.log(conn, entry)
        made, set_aside = 0, []
        for sid, query, reason in asked:
            words = name_words(query)
            who = [p for p in shown if fits(words, p)]
            if (y := _YEAR.search(query)) and len(who) > 1:  # "Jim Dunmore b. 1898"
                who = [p for p in who if p.birth_year and abs(p.birth_year - int(y[0])) <= 2]
            if sid not in sources or not words or not who:
                why = ("not a source this run may search" if sid not in sources else
                       "not read as a name" if not words else
                       "no person of the pedigree has this name")
                set_aside.append(f"{sid}: {query} ({why})")
                continue
            if reason is not None:  # a revisit improves on a search: namesakes searched first
                who.sort(key=lambda x: _prior(rt, conn, merged, x.id, sid, seed) is None)
            # one word is a surname variant: for the least-evidenced person who has that
            # surname; a full name fits its own person (a year in the query picks among
            # namesakes, else one searched before for a revisit, else the least-evidenced)
            p = who[0]
            given = p.given if len(words) == 1 else " ".join(words[:-1])
            name = f"{given} {words[-1]}".strip()
            values = {"name": name, "given": given, "surname": words[-1],
                      **({"birth_year": p.birth_year} if p.birth_year else {}),
                      **({"death_year": p.death_year} if p.death_year else {})}
            q = f"{sid} search: {name} (planner)"
            spec = TaskSpec(action="search", source=sid, values=values, query=q,
                            target={"person_id": p.id, "generation": gens[p.id],
                                    "name": p.name, "given": p.given,
                                    "birth_year": p.birth_year})
            prior = _prior(rt, conn, merged, p.id, sid, seed)
            if prior is not None:
                spec = spec.model_copy(update={"queue": "revisit", "revisit": Revisit(
                    original_query=prior, improved_query=q,
                    reason=reason if reason in REVISIT_REASONS else TOO_NARROW,
                    triggering_clue=f"plan:{entry.id}", original_source_id=sid)})
            if rt.guard.check(spec) is not None:
                set_aside.append(f"{sid}: {query} (already searched)")
                continue
            tier = int(sources[sid].tier)
            prio = 0.9 * information_gain(p.evidence, gens[p.id], rt.budget.target_generations,
                                          tier, search=sources[sid].follow.hits is None)
            rt.frontier.push(conn, spec, prio, tier=tier, agent=LEAD)
            rt.guard.add(spec)
            if spec.revisit is not None:
                rt.store.log(conn, LogEntry(
                    agent=Agent.LEAD, action_type="revisit_planned",
                    rationale=spec.revisit.reason,
                    context={"source": sid, "original_query": spec.revisit.original_query,
                             "improved_query": q, "triggering_clue": f"plan:{entry.id}"}))
            made += 1
        if set_aside:
            rt.store.log(conn, set_aside_entry(set_aside))
        return made

