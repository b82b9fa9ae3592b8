"""Same-person hypotheses: a record fetched for someone names them under another surname.

A search for "Mary Cole", mother of Ruth (born 1889), brings back the death record of "Mary
Hatherley, born 1868, daughter of Thomas Henry Cole": a widow remarried, under her last
husband's name, whose maiden name her father's surname gives. Nothing in the record names
Ruth or Ruth's father, so the resolver rightly does not merge the two; a researcher would
not either, but would follow Mary Hatherley's parents to test the lead. That is what this
module proposes: a hypothesis (never a fact) that the record's person may be the one searched
for, which the Lead follows as if she were on the target's line (`blackboard.identity_links`).

Only when exactly one person in the record fits: the same first forename, the target's
surname as her father's (maiden name) or her husband's (married name), a birth year, and
years that can be one life with everything known of the target (her children's births
included).
"""

from __future__ import annotations

from collections import defaultdict

from sqlalchemy import Connection

from sleuth.model import Agent, Hypothesis
from sleuth.model.lifespan import CHILD_BIRTH, MIN_PARENT_AGE, born_year, life_conflicts
from sleuth.store import blackboard, kin, persons
from sleuth.store.hypotheses import same_person_known
from sleuth.store.queries import (
    citations_in,
    merge_groups,
    merged_into,
    pooled_years,
    vital_years,
)
from sleuth.verify.normalise import fold

MAX_MOTHER_AGE = 50  # oldest age at a child's birth that a mother's lead is followed for


def _first(name: str) -> str:
    words = fold(name).split()
    return words[0] if words else ""


def _last(name: str) -> str:
    words = fold(name).split()
    return words[-1] if words else ""


def _relatives(conn: Connection, ids: set[str], merged: dict[str, str]
               ) -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """Per person (merges folded): their parents' and their spouses' surnames."""
    rows = [(str(a), str(b), str(k)) for a, b, k in kin.links_of(conn, ids)]
    canonical = persons.names_of(conn, {x for p1, p2, _ in rows for x in (p1, p2)})
    names = {str(i): fold(n).split()[-1:] for i, n in canonical.items()}
    parents: dict[str, set[str]] = defaultdict(set)
    spouses: dict[str, set[str]] = defaultdict(set)
    for p1, p2, kind in rows:
        p1, p2 = str(p1), str(p2)
        if kind == "parent" and p2 in ids:
            parents[merged.get(p2, p2)].update(names.get(p1, []))
        elif kind != "parent":
            for me, them in ((p1, p2), (p2, p1)):
                if me in ids:
                    spouses[merged.get(me, me)].update(names.get(them, []))
    return parents, spouses


def _fits_years(target: dict[str, list[int]], cand: dict[str, list[int]]) -> bool:
    """A birth year for the candidate, and the target's years as one life with hers: her
    birth near the target's, or her age at the target's first child or marriage that of a
    mother or father."""
    born = born_year(cand)
    if born is None or life_conflicts(target, cand):
        return False
    own = born_year(target)
    if own is not None:
        return abs(own - born) <= 2
    firsts = target.get(CHILD_BIRTH, []) + target.get("marriage_date", [])
    return bool(firsts) and MIN_PARENT_AGE + 3 <= min(firsts) - born <= MAX_MOTHER_AGE


def same_person_lead(conn: Connection, target_id: str, infos: dict[str, blackboard.PersonInfo],
                     line: set[str], snapshot_id: str) -> Hypothesis | None:
    """The hypothesis that the one fitting person of this record is the target, or None.
    `line`: the seed's direct line; someone already on it is no one else's lead (a sister
    placed by another lead may still be the target)."""
    merged = merged_into(conn)
    target = merged.get(target_id, target_id)
    groups = merge_groups(merged)
    tinfo = blackboard.persons(conn, [target]).get(target)
    if tinfo is None or target in {merged.get(i, i) for i in infos}:
        return None  # the record already names the target itself
    given, surname = _first(tinfo.name), _last(tinfo.name)
    men = {i for i, sex in persons.sexes_of(conn, infos).items() if sex == "M"}
    pool = {i: p for i, p in infos.items()  # in these records only a woman changes surname
            if i not in merged and i not in line and i not in men
            and _first(p.name) == given and _last(p.name) != surname}
    if not given or not surname or not pool:
        return None
    parents, spouses = _relatives(conn, set(pool), merged)
    tyears = pooled_years(conn, groups.get(target, {target}))
    years = vital_years(conn, pool)
    fits = [p for i, p in pool.items()
            if (surname in parents.get(i, set()) or surname in spouses.get(i, set()))
            and _fits_years(tyears, years.get(i, {}))]
    if len(fits) != 1 or _known(conn, target, fits[0].id):
        return None
    cand = fits[0]
    how = ("her father's surname" if surname in parents.get(cand.id, set())
           else "a spouse's surname")
    return Hypothesis(
        hypothesis_type=blackboard.SAME_PERSON,
        statement=(f"{cand.name} (born {cand.birth_year}) may be {tinfo.name}: {surname.title()}"
                   f" is {how} in the record found for {tinfo.name}, the forename is the "
                   "same and their years can be one life. Her relatives' records test it."),
        target_person=target, related_person=cand.id,
        suggested_queries=[f"records of {cand.name}", f"parents of {cand.name}"],
        priority=0.5, generated_by=Agent.ANALYST,
        evidence=citations_in(conn, cand.id, "name", snapshot_id))


def _known(conn: Connection, target: str, cand: str) -> bool:
    return same_person_known(conn, blackboard.SAME_PERSON, target, cand)

