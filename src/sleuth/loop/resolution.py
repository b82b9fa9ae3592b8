"""The Analyst's resolution pass, every `RESOLVE_EVERY` records: data-quality clues, then
entity resolution on one reading and one censored view of the case; confident merges
become reversible merge clusters (parents first, then the couples and lives that match),
uncertain ones go to review."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from sqlalchemy import Connection

from sleuth.loop.advice import llm_judged
from sleuth.loop.quality import quality_clues
from sleuth.loop.runtime import Runtime
from sleuth.loop.tasking import ANALYST, corroborate, reprioritise
from sleuth.model import (
    Agent,
    CaseGraph,
    InputError,
    InvariantViolation,
    LogEntry,
)
from sleuth.pipeline.namesakes import localities
from sleuth.privacy import censor
from sleuth.privacy.redaction import one_view
from sleuth.resolve import merge_blockers, records_from_graph, resolve
from sleuth.resolve.coparents import coparent_pairs, could_be_one, couple_pairs, partner_pairs
from sleuth.resolve.identity import (
    register_pairs,
    same_life_pairs,
    sibling_pairs,
    stub_links,
)
from sleuth.resolve.merge import grow_in
from sleuth.resolve.review import enqueue_proposals
from sleuth.resolve.revise import propose_unmerges
from sleuth.store import blackboard, case_graph, research_log
from sleuth.store.kin import parents_of
from sleuth.store.persons import canonical_name, person_rows
from sleuth.store.queries import merged_into

RESOLVE_EVERY = 25  # records between entity-resolution passes


def pass_done(rt: Runtime, iteration: int) -> bool:
    with rt.store.engine.connect() as conn:
        return any(ctx.get("decision") == "resolution_pass" and ctx.get("iteration") == iteration
                   for ctx in research_log.contexts(conn, ANALYST, "decision"))


def resolution_pass(rt: Runtime, seed: str | None) -> None:
    """Data-quality clues, then entity resolution, from one reading of the case and one
    censored view of it (reading and censoring the whole case was a fifth of a research
    run's CPU when each step read its own), then searches re-rated for what was merged."""
    with one_view():
        graph = case_graph(rt.store)  # merges folded: findings are about persons as resolved
        check_quality(rt, seed, graph)
        _resolve(rt, graph)
    reprioritise(rt, seed)


def check_quality(rt: Runtime, seed: str | None, graph: Any = None) -> None:
    """Data-quality findings on the tree so far → clues → corroboration revisits.
    `graph`: the case as read for this pass (read here when not given)."""
    if rt.config.naive:
        return
    if graph is None:
        graph = case_graph(rt.store)  # merges folded: findings are about persons as resolved
    with rt.store.transaction() as conn:
        rt.yields.refresh(conn)
        if quality_clues(rt, conn, graph) and seed is not None:
            corroborate(rt, conn, blackboard.generations(conn, seed))


def _members(merged: dict[str, str], canonical: str) -> list[str]:
    return [canonical, *(m for m, c in merged.items() if c == canonical)]


PARENTS_FIRST_DEPTH = 2  # generations of duplicate parents merged for one confident merge


def parents_first(rt: Runtime, conn: Connection, members: list[str], depth: int = 0) -> bool:
    """A confident merge held back only because the merged person would have more than two
    parents: the duplicate parents (one sex, names that agree, `resolve.coparents`) are merged
    first, then the merge goes ahead. A mother under her maiden name in one record and her
    married name in another otherwise keeps her son in two pieces; and her own two fathers
    (a baptism's "John KETTERIDGE" and her memorial's) may hold her back in turn, so this
    goes up to `PARENTS_FIRST_DEPTH` generations. True when no blocker is left; else
    nothing is changed."""
    from itertools import combinations

    clustered = merged_into(conn)
    parents = sorted({clustered.get(x, x) for x in parents_of(conn, members)})
    if len(parents) <= 2:
        return False
    people = {i: (m["canonical_name"], m["sex"])
              for i, m in person_rows(conn, parents).items()}
    child = canonical_name(conn, members[0]) or ""
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
                if parents_first(rt, conn, theirs, depth + 1):
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
    made = 0
    for cp in coparent_pairs(graph) + partner_pairs(graph) + couple_pairs(graph):
        with rt.store.transaction() as conn:
            made += _merge_pair(rt, conn, cp.a, cp.b, cp.rationale, cp.why_not_split, cp.rule)
    return made


def _merge_same_lives(rt: Runtime) -> int:
    """Records with the same birth day, name and father, mother or spouse are one person
    (`resolve.identity`), whatever else their years say: the disagreement is a conflict."""
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
                    done = parents_first(rt, conn, both) and _merge_pair(
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
    with rt.store.engine.connect() as conn:
        return blackboard.merge_count(conn)


def _same_locality(conn: Connection, a: list[str], b: list[str]) -> bool:
    """Both persons are placed in one town or parish (`pipeline.namesakes.localities`)."""
    return bool(localities(conn, a) & localities(conn, b))


def _resolve(rt: Runtime, graph: Any = None) -> None:
    """Confident duplicates become reversible merges; uncertain pairs go to review.
    `graph`: the case as read at the start of this pass (read here when not given)."""
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
                    parents_first(rt, conn, _members(clustered, a) + _members(clustered, b))):
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
    review = llm_judged(rt, graph, review)
    if review:
        enqueue_proposals(rt.store, review)
    _merge_coparents(rt, graph)

    propose_unmerges(rt.store)  # merges that later evidence contradicts go back to a person
    from sleuth.resolve.review import supersede_merged

    supersede_merged(rt.store)  # proposals about pairs that merges have made one are closed
    with rt.store.transaction() as conn:  # and so are the leads that said they may be one
        rt.clues.settle_merged(conn, merged_into(conn))
