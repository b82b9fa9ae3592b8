"""Read-side questions the Lead and Analyst ask the blackboard (the case store): who is known,
with what evidence, how the pedigree stands; the loop reads the case only through these."""

from __future__ import annotations

import re
from collections import defaultdict, deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from sqlalchemy import BindParameter, Connection, and_, bindparam, exists, func, select

from sleuth.store import schema as t
from sleuth.store.queries import merge_groups, merged_into

LIVE = ("promoted", "tentative", "verified", "conflicting")
_YEAR = re.compile(r"(\d{4})")


@dataclass
class PersonInfo:
    id: str
    name: str
    given: str
    surname: str
    evidence: int = 0
    birth_year: int | None = None
    death_year: int | None = None
    birth_conf: float = 0.0
    ids: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    places: set[str] = field(default_factory=set)  # event places and residences, as written
    birth_places: set[str] = field(default_factory=set)


def _records(conn: Connection, ids: list[str]) -> dict[str, int]:
    """Per person, the snapshots that are a record's first reading: a citation whose words
    (whitespace aside) another snapshot of the same source gave first is a copy of it."""
    first: dict[tuple[str, str, str], str] = {}
    for pid, snap, source, excerpt in conn.execute(_sql()["records"], {"ids": ids}):
        key = (str(pid), str(source), " ".join((excerpt or "").split()))
        first.setdefault(key, str(snap))
    records: dict[str, set[str]] = defaultdict(set)
    for (pid, _, _), snap in first.items():
        records[pid].add(snap)
    return {pid: len(snaps) for pid, snaps in records.items()}


@cache
def _sql() -> dict[str, Any]:
    """`persons`' reads, built once: planning asks them for every person it weighs."""
    a, c, s, p = t.assertions.c, t.citations.c, t.snapshots.c, t.persons.c
    ids: BindParameter[str] = bindparam("ids", expanding=True)  # a list of person ids
    return {
        "records": select(a.entity_id, c.snapshot_id, s.source_name, c.excerpt)
        .join(t.citations, c.assertion_id == a.id).join(t.snapshots, s.id == c.snapshot_id)
        .where(a.entity_id.in_(ids), a.status.in_(LIVE))
        .order_by(s.accessed_at, c.snapshot_id),
        "persons": select(p.id, p.canonical_name, p.given_name, p.surname).where(p.id.in_(ids)),
        "claims": select(a.entity_id, a.field_name, a.value, a.confidence)
        .where(a.entity_id.in_(ids), a.status.in_(LIVE)),
    }


def content_key(info: PersonInfo) -> tuple:
    """Order persons by what is known of them, not by their random ids, so that tasks are
    queued (and so run, among equal priorities) in the same order on every run."""
    ids = tuple(sorted((f, tuple(sorted(v))) for f, v in info.ids.items()))
    return (ids, info.name, info.birth_year or 0, info.death_year or 0, info.id)


def _year(v: str | None) -> int | None:
    m = _YEAR.search(v or "")
    return int(m.group(1)) if m else None


def persons(conn: Connection, ids: Iterable[str]) -> dict[str, PersonInfo]:
    """Name, years, places, identifiers and evidence count of these persons."""
    ids = list(set(ids))
    if not ids:
        return {}
    sql = _sql()
    out = {str(r.id): PersonInfo(str(r.id), r.canonical_name, r.given_name, r.surname)
           for r in conn.execute(sql["persons"], {"ids": ids})}
    # Evidence = distinct records citing the person (seed 001 countEvidence): one rich
    # profile is one piece of evidence, however many fields it fills, and so is a profile
    # copied into each relative's answer (the same words from the same source).
    for pid, n in _records(conn, ids).items():
        if pid in out:
            out[pid].evidence = n
    rows = conn.execute(sql["claims"], {"ids": ids}).all()
    for pid, fld, value, conf in rows:
        info = out.get(str(pid))
        if info is None:
            continue
        if fld == "birth_date":
            y = _year(value)
            if y and (info.birth_year is None or conf > info.birth_conf):
                info.birth_year, info.birth_conf = y, float(conf)
        elif fld == "death_date" and info.death_year is None:
            info.death_year = _year(value)
        elif fld.endswith("_id") or fld.endswith("_qid"):
            info.ids[fld].add(str(value))
        elif fld.endswith("_place") or fld == "residence":
            info.places.add(str(value))
            if fld in ("birth_place", "baptism_place"):
                info.birth_places.add(str(value))
    return out


SAME_PERSON = "same_person"  # the Analyst's hypothesis that two persons are one


def identity_links(conn: Connection, merged: dict[str, str]) -> dict[str, set[str]]:
    """Persons a live same-person hypothesis joins (merges folded), both ways. Not a merge:
    the facts stay apart; the Lead follows the proposed person as if on the target's line
    while the hypothesis is tested, as a researcher does."""
    h = t.hypotheses.c
    out: dict[str, set[str]] = defaultdict(set)
    for a, b in conn.execute(select(h.target_person, h.related_person).where(
            h.hypothesis_type == SAME_PERSON, h.status != "Rejected",
            h.target_person.is_not(None), h.related_person.is_not(None))):
        a, b = merged.get(str(a), str(a)), merged.get(str(b), str(b))
        if a != b:
            out[a].add(b)
            out[b].add(a)
    return out


def generations(conn: Connection, seed: str | None) -> dict[str, int]:
    """Generation of every person linked to the seed: parents +1, children -1, spouses and
    hypothesised same persons 0."""
    if seed is None:
        return {}
    merged = merged_into(conn)
    r = t.relationships.c
    up: dict[str, set[str]] = defaultdict(set)
    down: dict[str, set[str]] = defaultdict(set)
    side: dict[str, set[str]] = identity_links(conn, merged)
    canon: dict[str, set[str]] = defaultdict(set)  # canonical -> members
    for m, cid in merged.items():
        canon[cid].add(m)
    for p1, p2, kind in conn.execute(select(r.person1_id, r.person2_id, r.relationship_type)):
        a, b = merged.get(p1, p1), merged.get(p2, p2)
        if kind == "parent":
            up[b].add(a)
            down[a].add(b)
        else:
            side[a].add(b)
            side[b].add(a)
    start = merged.get(seed, seed)
    gen = {start: 0}
    todo = deque([start])
    while todo:
        x = todo.popleft()
        # in id order, not a set's: where two paths of one length give a person two
        # generations (a wrong link, a merge), the hash seed must not pick the one kept
        for nxt, step in ([(y, 1) for y in sorted(up[x])] + [(y, -1) for y in sorted(down[x])]
                          + [(y, 0) for y in sorted(side[x])]):
            if nxt not in gen:
                gen[nxt] = gen[x] + step
                todo.append(nxt)
    for cid, members in canon.items():
        if cid in gen:
            for m in members:
                gen[m] = gen[cid]
    return gen


def _folded_parents(conn: Connection, merged: dict[str, str]) -> dict[str, set[str]]:
    """Every person's parents, merges folded on both sides."""
    r = t.relationships.c
    parents: dict[str, set[str]] = defaultdict(set)
    for p1, p2 in conn.execute(select(r.person1_id, r.person2_id).where(
            r.relationship_type == "parent")):
        parents[merged.get(p2, p2)].add(merged.get(p1, p1))
    return parents


def direct_line(conn: Connection, seed: str | None) -> set[str]:
    """The seed and every ancestor of theirs (parent links only, merges folded), and who a
    live same-person hypothesis proposes one of them is, with that person's ancestors."""
    if seed is None:
        return set()
    merged = merged_into(conn)
    parents = _folded_parents(conn, merged)
    same = identity_links(conn, merged)
    out, todo = set(), [merged.get(seed, seed)]
    while todo:
        x = todo.pop()
        if x not in out:
            out.add(x)
            todo.extend(parents[x] | same.get(x, set()))
    for member, canonical in merged.items():
        if canonical in out:
            out.add(member)
    return out


def parent_counts(conn: Connection, ids: Iterable[str]) -> dict[str, int]:
    """How many parents each person has in the case (merges folded): a direct ancestor
    with fewer than two is where the pedigree can still grow."""
    merged = merged_into(conn)
    groups = merge_groups(merged)
    want = {i: groups.get(i, {i}) for i in ids}
    every = set().union(*want.values()) if want else set()
    r = t.relationships.c
    parents: dict[str, set[str]] = defaultdict(set)
    for p1, p2 in conn.execute(select(r.person1_id, r.person2_id).where(
            r.relationship_type == "parent", r.person2_id.in_(list(every)))):
        parents[str(p2)].add(merged.get(str(p1), str(p1)))
    return {i: len(set().union(*(parents[m] for m in grp))) for i, grp in want.items()}


def pedigree_depth(conn: Connection, seed: str | None) -> int:
    """Generations above the seed known in full (both parents of everyone below)."""
    if seed is None:
        return 0
    merged = merged_into(conn)
    parents = _folded_parents(conn, merged)
    level, depth = {merged.get(seed, seed)}, 0
    while level and all(len(parents[x]) >= 2 for x in level) and depth < 64:
        level = {y for x in level for y in parents[x]}
        depth += 1
    return depth


def facts(conn: Connection) -> int:
    a = t.assertions.c
    return int(conn.execute(select(func.count()).where(a.status.in_(LIVE))).scalar_one())


def person_count(conn: Connection) -> int:
    return int(conn.execute(select(func.count()).select_from(t.persons)).scalar_one())


def gps_coverage(conn: Connection) -> tuple[int, bool]:
    """(claims, every claim has primary and distinct secondary evidence) — seed 001
    checkGPSCoverage, per claim: a (person, field) with live assertions."""
    a, c, s, k = t.assertions.c, t.citations.c, t.snapshots.c, t.candidates.c
    rows = conn.execute(
        select(a.entity_id, a.field_name, func.coalesce(k.evidence_type, s.evidence_type),
               c.snapshot_id)
        .join(t.citations, c.assertion_id == a.id)
        .join(t.snapshots, s.id == c.snapshot_id)
        .outerjoin(t.candidates, k.id == a.candidate_id)
        .where(a.status.in_(LIVE))).all()
    claims: dict[tuple[str, str], dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    for pid, fld, ev, snap in rows:
        claims[(pid, fld)][str(ev)].add(str(snap))
    ok = all(ev["primary"] and ev["secondary"] and len(ev["primary"] | ev["secondary"]) >= 2
             for ev in claims.values())
    return len(claims), bool(claims) and ok


def persons_of_snapshot(conn: Connection, snapshot_id: str) -> list[str]:
    """The persons a snapshot's candidates were linked to (each once)."""
    c = t.candidates.c
    return [str(x) for x in conn.execute(select(c.person_id).where(
        c.snapshot_id == snapshot_id, c.person_id.is_not(None)).distinct()).scalars()]


def read_before(conn: Connection, snapshot_id: str, *, promoted: bool = False) -> bool:
    """The snapshot was already read (a candidate staged from it; promoted, if asked)."""
    c = t.candidates.c
    where = [c.snapshot_id == snapshot_id] + ([c.status == "promoted"] if promoted else [])
    return conn.execute(select(c.id).where(*where).limit(1)).first() is not None


def person_of_subject(conn: Connection, subjects: set[str]) -> str | None:
    """A person a candidate with one of these subjects (a GEDCOM xref) was linked to."""
    c = t.candidates.c
    pid = conn.execute(select(c.person_id).where(
        c.subject.in_(subjects), c.person_id.is_not(None)).limit(1)).scalar()
    return None if pid is None else str(pid)


def living_names(conn: Connection) -> list[str]:
    """Names of the persons flagged living (masked in the JSONL research log)."""
    p = t.persons.c
    return [str(n) for n in conn.execute(select(p.canonical_name).where(p.is_living.is_(True)))]


def unflagged_young(conn: Connection, born_after: str) -> list[str]:
    """Persons not yet judged living or dead, with a live birth on or after `born_after`
    (ISO date) and no sign of death (the Censor's Z rule flags them living)."""
    p, a = t.persons.c, t.assertions.c
    born = exists().where(and_(a.entity_id == p.id, a.field_name == "birth_date",
                               a.status != "rejected", a.date_latest >= born_after))
    dead = exists().where(and_(a.entity_id == p.id, a.status != "rejected",
                               a.field_name.in_(("death_date", "burial_date", "death_place",
                                                 "burial_place", "age_at_death"))))
    return [str(x) for x in conn.execute(select(p.id).where(p.is_living.is_(None), born,
                                                            ~dead)).scalars()]


def merge_count(conn: Connection) -> int:
    """Merge clusters ever recorded (active or split)."""
    return int(conn.execute(select(func.count()).select_from(t.merge_clusters)).scalar_one())
