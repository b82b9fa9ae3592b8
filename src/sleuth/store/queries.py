"""The read side: rows back into model objects, person pages and the whole-case graph."""

from __future__ import annotations

import gc
import json
from collections import defaultdict
from collections.abc import Iterable
from functools import cache
from typing import Any

import jellyfish
from sqlalchemy import (
    BindParameter,
    Connection,
    Select,
    Text,
    bindparam,
    func,
    literal_column,
    select,
    type_coerce,
)

from sleuth.model import (
    Assertion,
    AssertionStatus,
    CaseGraph,
    Citation,
    Conflict,
    GenDate,
    Hypothesis,
    Locator,
    MatchStatus,
    NotFound,
    Person,
)
from sleuth.model.lifespan import (
    CHILD_BIRTH,
    CHILD_MARRIAGE,
    VITAL_FIELDS,
    Years,
    add_year,
    year_of,
)
from sleuth.model.trusted import trusted
from sleuth.store import schema as t
from sleuth.store.rows import row_to_snapshot
from sleuth.store.store import Store, name_key
from sleuth.store.store import id_namespace as id_namespace  # where callers read it


def _citation(m: Any) -> Citation:
    return Citation(
        snapshot_id=m["snapshot_id"],
        excerpt=m["excerpt"],
        locator=Locator(start=m["char_start"], end=m["char_end"], page=m["page"], line=m["line"]),
        extraction_method=m["extraction_method"],
        source_reliability=m["source_reliability"],
        rationale=m["rationale"],
        match_status=MatchStatus(m["match_status"]),
    )


def citations_in(conn: Connection, person_id: str, field: str, snapshot_id: str,
                 limit: int = 1) -> list[Citation]:
    """A person's citations for one field from one snapshot (a hypothesis's evidence)."""
    a, c = t.assertions.c, t.citations.c
    rows = conn.execute(select(t.citations).join(t.assertions, a.id == c.assertion_id).where(
        a.entity_id == person_id, a.field_name == field, c.snapshot_id == snapshot_id)
        .limit(limit)).mappings().all()
    return [_citation(m) for m in rows]


def _assertions(conn: Connection, entity_ids: list[str] | None) -> dict[str, list[Assertion]]:
    a, c = t.assertions, t.citations
    q = select(a)
    if entity_ids is not None:
        q = q.where(a.c.entity_id.in_(entity_ids))
    rows = conn.execute(q.order_by(a.c.field_name, a.c.asserted_at)).mappings().all()
    ids = [r["id"] for r in rows]
    cites: dict[str, list[Citation]] = defaultdict(list)
    for chunk_start in range(0, len(ids), 500):
        chunk = ids[chunk_start : chunk_start + 500]
        for m in conn.execute(select(c).where(c.c.assertion_id.in_(chunk))).mappings():
            cites[m["assertion_id"]].append(_citation(m))
    out: dict[str, list[Assertion]] = defaultdict(list)
    for r in rows:
        out[r["entity_id"]].append(
            Assertion(
                id=r["id"],
                entity_id=r["entity_id"],
                entity_type=r["entity_type"],
                field_name=r["field_name"],
                value=r["value"],
                date=GenDate.model_validate(r["date"]) if r["date"] else None,
                confidence=r["confidence"],
                status=AssertionStatus(r["status"]),
                asserted_at=r["asserted_at"],
                citations=cites[r["id"]],
                related_id=r["related_id"],
            )
        )
    return out


def _case_assertions(conn: Connection) -> dict[str, list[Assertion]]:
    """`_assertions(conn, None)`, the whole case's claims, built as a large case needs:
    the store validated each row when it wrote it, so the models are built without
    validating again (`model.trusted`); a date is parsed once per distinct stored text
    (a tree repeats its dates); the citations come in one query in the order the
    per-chunk queries gave them (each claim's in the order they were written). Reading a
    100,000-person case back through pydantic was most of `case_graph`'s time. The write
    order is SQLite's rowid; on another database the chunked read gives the order."""
    if conn.dialect.name != "sqlite":
        return _assertions(conn, None)
    a, c = t.assertions.c, t.citations.c
    cites: dict[str, list[Citation]] = defaultdict(list)
    for row in conn.execute(select(
            c.assertion_id, c.snapshot_id, c.excerpt, c.char_start, c.char_end, c.page, c.line,
            c.extraction_method, c.source_reliability, c.rationale, c.match_status,
    ).order_by(literal_column("citations.rowid"))):
        cites[row[0]].append(trusted(Citation, {
            "snapshot_id": row[1], "excerpt": row[2],
            "locator": trusted(Locator, {"start": row[3], "end": row[4], "page": row[5],
                                         "line": row[6]}),
            "extraction_method": row[7], "source_reliability": row[8], "rationale": row[9],
            "match_status": MatchStatus(row[10]),
        }))
    dates: dict[str, GenDate | None] = {}
    out: dict[str, list[Assertion]] = defaultdict(list)
    rows = conn.execute(select(
        a.id, a.entity_id, a.entity_type, a.field_name, a.value,
        type_coerce(a.date, Text), a.confidence, a.status, a.asserted_at, a.related_id,
    ).order_by(a.field_name, a.asserted_at))
    for row in rows:
        stored = row[5]
        if stored not in dates:
            raw = json.loads(stored) if stored else None
            dates[stored] = GenDate.model_validate(raw) if raw else None
        out[row[1]].append(trusted(Assertion, {
            "id": row[0], "entity_id": row[1], "entity_type": row[2], "field_name": row[3],
            "value": row[4], "date": dates[stored], "confidence": row[6],
            "status": AssertionStatus(row[7]), "asserted_at": row[8],
            "citations": cites.get(row[0], []), "related_id": row[9],
        }))
    return out


def _persons(conn: Connection, ids: list[str] | None) -> list[Person]:
    p, r = t.persons, t.relationships
    q = select(p)
    if ids is not None:
        q = q.where(p.c.id.in_(ids))
    rows = conn.execute(q.order_by(p.c.created_at, p.c.id)).mappings().all()
    rq = select(r)
    if ids is not None:
        rq = rq.where(r.c.person1_id.in_(ids) | r.c.person2_id.in_(ids))
    parents: dict[str, set[str]] = defaultdict(set)
    children: dict[str, set[str]] = defaultdict(set)
    spouses: dict[str, set[str]] = defaultdict(set)
    for rel in conn.execute(rq).mappings():
        if rel["relationship_type"] == "parent":
            parents[rel["person2_id"]].add(rel["person1_id"])
            children[rel["person1_id"]].add(rel["person2_id"])
        else:
            spouses[rel["person1_id"]].add(rel["person2_id"])
            spouses[rel["person2_id"]].add(rel["person1_id"])
    return [
        Person(
            id=m["id"],
            canonical_name=m["canonical_name"],
            given_name=m["given_name"],
            surname=m["surname"],
            sex=m["sex"],
            is_living=m["is_living"],
            parents=parents[m["id"]],
            children=children[m["id"]],
            spouses=spouses[m["id"]],
        )
        for m in rows
    ]


def _fill_vitals(person: Person, claims: list[Assertion], recommended: dict[str, str]) -> Person:
    """Summary vitals for a person: the recommended claim where there is a conflict."""
    best: dict[str, Assertion] = {}
    for a in claims:
        if a.status is AssertionStatus.REJECTED:
            continue
        pick = recommended.get(a.field_name)
        if pick is not None and a.id != pick:
            continue
        cur = best.get(a.field_name)
        if cur is None or a.confidence > cur.confidence:
            best[a.field_name] = a
    upd: dict[str, Any] = {}
    if "birth_date" in best:
        upd["birth"] = _sharpest(best["birth_date"], claims).date
    if "death_date" in best:
        upd["death"] = _sharpest(best["death_date"], claims).date
    if "birth_place" in best:
        upd["birth_place"] = best["birth_place"].value
    if "death_place" in best:
        upd["death_place"] = best["death_place"].value
    return person.model_copy(update=upd)


def _sharpest(chosen: Assertion, claims: list[Assertion]) -> Assertion:
    """The chosen date, or a more precise one it holds: a tree's "about 1846" beside a
    record's "22 January 1846" agree, and the summary gives the day (issue 19: dates as
    precise as the evidence, not as vague as the best-weighted claim)."""
    outer = chosen.date
    if outer is None or outer.earliest is None or outer.latest is None:
        return chosen
    best, width = chosen, outer.latest - outer.earliest
    for a in claims:
        d = a.date
        if (a.field_name != chosen.field_name or a.status is AssertionStatus.REJECTED
                or d is None or d.earliest is None or d.latest is None):
            continue
        if outer.earliest <= d.earliest and d.latest <= outer.latest and (
                d.latest - d.earliest < width):
            best, width = a, d.latest - d.earliest
    return best


def conflicts_of(conn: Connection, person_ids: list[str] | None) -> list[Conflict]:
    """The stored conflict analyses of these persons (None: everyone's)."""
    q = select(t.conflicts.c.analysis)
    if person_ids is not None:
        q = q.where(t.conflicts.c.person_id.in_(person_ids))
    return [Conflict.model_validate(a) for a in conn.execute(q).scalars()]


@cache
def _clusters_sql() -> Select[Any]:
    """Built once: every merge-aware read asks it."""
    mc = t.merge_clusters
    return select(mc.c.canonical_id, mc.c.member_ids).where(mc.c.dissolved_at.is_(None))


def merged_into(conn: Connection) -> dict[str, str]:
    """Member id -> canonical id for every active (not dissolved) merge cluster.

    A merge (`sleuth.resolve.merge`) changes no person, assertion or relationship row; it
    records a cluster, and the reads here present its members as the canonical person.
    Dissolving the cluster (`sleuth split`) brings the separate persons back as they were.
    """
    direct: dict[str, str] = {}
    rows = conn.execute(_clusters_sql()).all()
    for canonical, members in rows:
        for m in members or []:
            if m != canonical:
                direct[str(m)] = str(canonical)
    # A cluster may absorb another (`resolve.merge.merge_in`): its member is the absorbed
    # cluster's canonical person, so a member's person is found by following the chain.
    out: dict[str, str] = {}
    for m in direct:
        root, seen = direct[m], {m}
        while root in direct and root not in seen:
            seen.add(root)
            root = direct[root]
        out[m] = root
    return out


def merge_groups(merged: dict[str, str]) -> dict[str, set[str]]:
    """Each merged person (member or canonical) -> every person of their cluster, from
    `merged_into`; a person in no cluster is not a key."""
    groups: dict[str, set[str]] = {}
    for member, canonical in merged.items():
        group = groups.setdefault(canonical, {canonical})
        group.add(member)
        groups[member] = group
    return groups


def extra_parents(persons: list[Person], relationships: Iterable[tuple[str, str]],
                  merged: dict[str, str]) -> dict[str, list[str]]:
    """Persons (merged view) whose records give more than two parents -> the parents beyond
    the two `Person.parents` holds. A conflict, never hidden: duplicate parents not yet
    merged (`resolve.coparents`), or a wrong link; the proof argument fails on it."""
    shown = {p.id: p.parents for p in persons}
    every: dict[str, set[str]] = defaultdict(set)
    for parent, child in relationships:
        every[merged.get(child, child)].add(merged.get(parent, parent))
    return {c: sorted(ps - shown.get(c, set())) for c, ps in sorted(every.items())
            if len(ps) > 2 and c in shown}


_TITLE = frozenset({"mr", "mrs", "miss", "ms", "dr", "rev", "the", "late"})


def _name_key(name: str) -> str:
    """The store's `name_key` without titles ("Mr. Albert GILES" is "albert giles")."""
    return " ".join(w for w in name_key(name).split() if w not in _TITLE)


def _sounds(surname: str) -> str:
    return jellyfish.soundex(surname) if surname.isalpha() else surname.lower()


def _best_named(group: list[Person], claims: list[Assertion]) -> Person:
    """The member whose spelling of the name the most distinct sources give (name claims,
    any case or title): a merged person is headed by "Albert Giles" of five sources, not
    the "Albert Gyles" of the one tree the cluster began with. Only spellings of the
    canonical's own surname compete (a woman stays under the surname she is known by
    here, not her married one), except that a member named with the surname at birth the
    records give heads the group: women are filed under their maiden names. Ties keep the
    cluster's canonical person."""
    head = group[0]
    if len(group) == 1:
        return head
    support: dict[str, set[str]] = defaultdict(set)
    born_as: set[str] = set()  # surnames at birth the records give
    for a in claims:
        if a.status is AssertionStatus.REJECTED:
            continue
        if a.field_name == "name":
            support[_name_key(a.value)].update(c.snapshot_id for c in a.citations)
        elif a.field_name == "birth_surname":
            born_as.add(_name_key(a.value))
    if born_as and _name_key(head.canonical_name).rpartition(" ")[2] not in born_as:
        # the cluster began with her married name; a genealogist files her under her maiden
        # name where a member bears it ("Emma Edith Whitfield", not "Emma Edith Garside")
        maiden = [q for q in group if " " in _name_key(q.canonical_name)
                  and _name_key(q.canonical_name).rpartition(" ")[2] in born_as]
        if maiden:
            head = max(maiden, key=lambda q: len(support.get(_name_key(q.canonical_name), ())))
    sound = _sounds(_name_key(head.canonical_name).rpartition(" ")[2])
    best, most = head, len(support.get(_name_key(head.canonical_name), ()))
    for q in group[1:]:
        key = _name_key(q.canonical_name)
        n = len(support.get(key, ()))
        if n > most and " " in key and _sounds(key.rpartition(" ")[2]) == sound:
            best, most = q, n
    return best


def _fold_merges(
    persons: list[Person],
    claims: dict[str, list[Assertion]],
    conflicts: list[Conflict],
    merged: dict[str, str],
) -> tuple[list[Person], dict[str, list[Assertion]], list[Conflict]]:
    """The merged view: members' claims and links under their canonical person (at most
    two parents each: the rest are in `extra_parents`)."""
    if not merged:
        return persons, claims, conflicts
    by_id = {p.id: p for p in persons}
    folded: dict[str, list[Assertion]] = defaultdict(list)
    for pid, lst in claims.items():
        head = merged.get(pid, pid)
        # each claim names the person it now stands under, and links to the person its
        # relative now is (a member's "child" claim read as "parent: an unknown person")
        folded[head].extend(
            a.model_copy(update={"entity_id": head, "related_id": merged.get(
                a.related_id, a.related_id) if a.related_id is not None else None})
            if head != pid or a.related_id in merged else a for a in lst)
    members: dict[str, list[Person]] = defaultdict(list)
    for m, c in merged.items():
        if m in by_id:
            members[c].append(by_id[m])
    out: list[Person] = []
    for p in persons:
        if p.id in merged:
            continue
        group = [p, *members.get(p.id, [])]

        def mapped(attr: str, group: list[Person] = group, me: str = p.id) -> list[str]:
            seen: dict[str, None] = {}
            for q in group:
                for x in sorted(getattr(q, attr)):
                    seen.setdefault(merged.get(x, x), None)
            seen.pop(me, None)
            return list(seen)

        named = _best_named(group, folded.get(p.id, []))
        variants = [q.canonical_name for q in group if q.canonical_name != named.canonical_name]
        out.append(
            p.model_copy(
                update={
                    "canonical_name": named.canonical_name,
                    "given_name": named.given_name,
                    "surname": named.surname,
                    "parents": set(mapped("parents")[:2]),  # the canonical's own come first
                    "children": set(mapped("children")),
                    "spouses": set(mapped("spouses")),
                    "name_variants": [*p.name_variants, *variants],
                }
            )
        )
    return out, dict(folded), [c for c in conflicts if c.person_id not in merged]


def person_page(store: Store, person_id: str) -> tuple[Person, list[Assertion], list[Conflict]]:
    """One person with every assertion, its status and citations (merged view)."""
    with store.engine.connect() as conn:
        merged = merged_into(conn)
        canonical = merged.get(person_id, person_id)
        ids = [canonical, *(m for m, c in merged.items() if c == canonical)]
        found = _persons(conn, ids)
        if not any(p.id == canonical for p in found):
            raise NotFound(f"person {person_id} does not exist")
        persons, claims_by, conflicts = _fold_merges(
            found, _assertions(conn, ids), conflicts_of(conn, ids), merged
        )
        claims = claims_by.get(canonical, [])
    rec = {c.field: c.recommended_assertion_id for c in conflicts}
    return _fill_vitals(persons[0], claims, rec), claims, conflicts


def case_graph(store: Store, title: str = "") -> CaseGraph:
    """The whole case as one graph (merged view). The cyclic GC is paused meanwhile: the
    read allocates several objects per assertion and makes no cycle, and each collection
    it would trigger walks the growing heap (a fifth of the time on a large case)."""
    paused = gc.isenabled()
    gc.disable()
    try:
        return _case_graph(store, title)
    finally:
        if paused:
            gc.enable()


def _case_graph(store: Store, title: str) -> CaseGraph:
    with store.engine.connect() as conn:
        persons = _persons(conn, None)
        claims = _case_assertions(conn)
        conflicts = conflicts_of(conn, None)
        cited = {c.snapshot_id for lst in claims.values() for a in lst for c in a.citations}
        snaps = (
            {
                r.id: row_to_snapshot(r)
                for r in conn.execute(select(t.snapshots).where(t.snapshots.c.id.in_(cited)))
            }
            if cited
            else {}
        )
        hyps = _hypotheses(conn)
        open_reviews = conn.execute(
            select(func.count()).where(t.review_queue.c.status == "open")
        ).scalar_one()
        merged = merged_into(conn)
        persons, claims, conflicts = _fold_merges(persons, claims, conflicts, merged)
        r = t.relationships.c
        extra = extra_parents(persons, conn.execute(select(r.person1_id, r.person2_id).where(
            r.relationship_type == "parent")).all(), merged) if merged else {}
    rec: dict[str, dict[str, str]] = defaultdict(dict)
    for c in conflicts:
        rec[c.person_id][c.field] = c.recommended_assertion_id
    persons = [_fill_vitals(p, claims.get(p.id, []), rec[p.id]) for p in persons]
    return CaseGraph(
        title=title,
        persons=persons,
        assertions=dict(claims),
        snapshots=snaps,
        conflicts=conflicts,
        hypotheses=hyps,
        review_open=open_reviews,
        extra_parents=extra,
    )


def _hypotheses(conn: Connection) -> list[Hypothesis]:
    return [
        Hypothesis(
            id=m["id"],
            hypothesis_type=m["hypothesis_type"],
            statement=m["statement"],
            target_person=m["target_person"],
            related_person=m["related_person"],
            suggested_queries=m["suggested_queries"],
            priority=m["priority"],
            status=m["status"],
        )
        for m in conn.execute(select(t.hypotheses)).mappings()
    ]


def case_merges(store: Store) -> dict[str, str]:
    """`merged_into` of the case as it is now (what `patch_case` is given next time)."""
    with store.engine.connect() as conn:
        return merged_into(conn)


def patch_case(store: Store, graph: CaseGraph, merged_before: dict[str, str],
               touched: Iterable[str]) -> tuple[CaseGraph, dict[str, str], set[str]]:
    """`case_graph(store)` from the graph it gave before, when only the persons (or other
    entities with claims) `touched` changed since: their rows, claims, links or conflicts,
    or the merge clusters they are in (`merged_before`: `merged_into` then). Only those are
    read again, with the persons a merge or split relinks (the relatives of a person who
    joined or left a cluster); hypotheses, the open review count and the extra parents are
    read whole. Returns the graph, `merged_into` now, and the ids whose part of the graph
    was read again (persons, gone ones included, and other entities)."""
    touched = set(touched)
    with store.engine.connect() as conn:
        merged = merged_into(conn)
        moved = {m for m in merged.keys() | merged_before.keys()
                 if merged.get(m) != merged_before.get(m)}
        heads = {x for m in moved for x in (merged.get(m), merged_before.get(m)) if x}
        r = t.relationships.c
        relinked: set[str] = set()
        if moved:  # whoever links to a person who joined or left a cluster
            for a, b in conn.execute(select(r.person1_id, r.person2_id).where(
                    r.person1_id.in_(moved) | r.person2_id.in_(moved))):
                relinked.update((str(a), str(b)))
        wanted = {merged.get(x, x) for x in touched | moved | heads | relinked}
        ids = sorted(wanted | {m for m, c in merged.items() if c in wanted})
        found = _persons(conn, ids)
        persons, claims, conflicts = _fold_merges(
            found, _assertions(conn, ids), conflicts_of(conn, ids), merged)
        rec: dict[str, dict[str, str]] = defaultdict(dict)
        for k in conflicts:
            rec[k.person_id][k.field] = k.recommended_assertion_id
        fresh = {p.id: _fill_vitals(p, claims.get(p.id, []), rec[p.id]) for p in persons}
        redone = set(ids) | touched | moved
        old_ids = {p.id for p in graph.persons}
        kept = [fresh.get(p.id, p) for p in graph.persons
                if p.id not in redone or p.id in fresh]
        if fresh.keys() - old_ids:  # new persons (or split ones back): in the case's order
            by_id = {p.id: p for p in kept} | fresh
            order = conn.execute(select(t.persons.c.id).order_by(
                t.persons.c.created_at, t.persons.c.id)).scalars().all()  # one fetch
            kept = [by_id[x] for x in order if x in by_id]
        assertions = dict(graph.assertions)
        for gone in redone:
            assertions.pop(gone, None)
        assertions.update(claims)
        conflicts = [k for k in graph.conflicts if k.person_id not in redone] + conflicts
        cited = {c.snapshot_id for lst in claims.values() for a in lst for c in a.citations}
        snaps = dict(graph.snapshots)
        new = cited - snaps.keys()
        if new:
            for row in conn.execute(select(t.snapshots).where(t.snapshots.c.id.in_(new))):
                snaps[row.id] = row_to_snapshot(row)
        before = {c.snapshot_id for k in redone for a in graph.assertions.get(k, [])
                  for c in a.citations} - cited
        if before:  # cited before by what was read again: cited still, by anyone?
            c = t.citations.c
            still = set(conn.execute(select(c.snapshot_id).distinct().where(
                c.snapshot_id.in_(before))).scalars())
            for sid in before - still:
                snaps.pop(sid, None)
        open_reviews = conn.execute(
            select(func.count()).where(t.review_queue.c.status == "open")).scalar_one()
        extra = _extra_parents(conn, kept, merged, ids) if merged else {}
        hyps = _hypotheses(conn)
    patched = CaseGraph.model_construct(
        title=graph.title, persons=kept, assertions=assertions, snapshots=snaps,
        conflicts=conflicts, hypotheses=hyps, review_open=open_reviews, redactions=[],
        extra_parents=extra)
    return patched, merged, redone | (old_ids - {p.id for p in kept})


def _extra_parents(conn: Connection, persons: list[Person], merged: dict[str, str],
                   read: list[str]) -> dict[str, list[str]]:
    """`extra_parents` of the whole case from the parent links of the only children who
    can have more than two parents: those of a cluster, those read again (`read`), and
    those with more than two parent links of their own (the store counts them)."""
    r = t.relationships.c
    many = select(r.person2_id).where(r.relationship_type == "parent").group_by(
        r.person2_id).having(func.count(r.person1_id.distinct()) > 2)
    children = sorted({*read, *merged, *merged.values()})
    rows = conn.execute(select(r.person1_id, r.person2_id).where(
        (r.relationship_type == "parent")
        & (r.person2_id.in_(children) | r.person2_id.in_(many)))).all()
    return extra_parents(persons, rows, merged)


def review_items(store: Store, status: str | None = "open") -> list[dict[str, Any]]:
    """The review queue's items, joined with their candidates. `reason` is why an open item
    waits and, once decided, the reviewer's reason (what `sleuth review --all` promises);
    the queue's own reason is always `queue_reason`, the decision's `decided_by`/`decided_at`."""
    rq, c = t.review_queue, t.candidates
    q = select(
        rq.c.id,
        rq.c.priority,
        rq.c.reason.label("queue_reason"),
        rq.c.status,
        rq.c.resolution_reason,
        rq.c.resolved_by.label("decided_by"),
        rq.c.resolved_at.label("decided_at"),
        rq.c.candidate_id,
        c.c.subject,
        c.c.subject_name,
        c.c.field,
        c.c.value,
        c.c.confidence,
        c.c.excerpt,
        c.c.snapshot_id,
        c.c.is_fact,
    ).join(c, c.c.id == rq.c.candidate_id)
    if status:
        q = q.where(rq.c.status == status)
    q = q.order_by((rq.c.priority == "high").desc(), rq.c.id)
    with store.engine.connect() as conn:
        rows = [dict(m) for m in conn.execute(q).mappings()]
        merged = merged_into(conn) if any(r["field"] == "same_person" for r in rows) else {}
    for r in rows:
        decided = r.pop("resolution_reason")
        r["reason"] = decided if r["status"] != "open" and decided else r["queue_reason"]
        if r["decided_at"] is not None:
            r["decided_at"] = r["decided_at"].isoformat()
    for r in rows:  # a merge proposal names the persons as they are now (merges followed)
        if r["field"] == "same_person":
            for key in ("subject", "value"):
                now = merged.get(str(r[key]), str(r[key]))
                if now != r[key]:
                    r[f"proposed_{key}"], r[key] = r[key], now
    return rows


def open_review_reasons(conn: Connection) -> list[tuple[str, str]]:
    """(priority, reason) of every open review item (the demo's summary counts them)."""
    q = t.review_queue.c
    return [(str(p), str(r)) for p, r in conn.execute(select(q.priority, q.reason).where(
        q.status == "open"))]


def counts(store: Store) -> dict[str, int]:
    tables = {
        "snapshots": t.snapshots,
        "candidates": t.candidates,
        "persons": t.persons,
        "assertions": t.assertions,
        "citations": t.citations,
        "relationships": t.relationships,
        "review_open": t.review_queue,
        "hypotheses": t.hypotheses,
        "audit": t.audit_log,
    }
    out = {}
    with store.engine.connect() as conn:
        for name, tbl in tables.items():
            q = select(func.count()).select_from(tbl)
            if name == "review_open":
                q = q.where(t.review_queue.c.status == "open")
            out[name] = conn.execute(q).scalar_one()
    return out


def pooled_years(conn: Connection, ids: Iterable[str]) -> Years:
    """The vital years of several rows that are one person (a merge group), pooled."""
    pooled: Years = {}
    for years in vital_years(conn, ids).values():
        for fld, values in years.items():
            pooled.setdefault(fld, []).extend(values)
    return pooled


@cache
def _vital_years_sql() -> tuple[Select[Any], Select[Any]]:
    """`vital_years`' two reads, built once (promotion and planning ask them thousands of
    times a run; building costs more than answering)."""
    a, r = t.assertions.c, t.relationships.c
    ids: BindParameter[list[str]] = bindparam("ids", expanding=True)
    own = select(a.entity_id, a.field_name, a.value).where(
        a.entity_id.in_(ids), a.status != "rejected", a.field_name.in_(VITAL_FIELDS))
    children = (select(r.person1_id, a.field_name, a.value)
                .join(t.assertions, a.entity_id == r.person2_id)
                .where(r.person1_id.in_(ids), r.relationship_type == "parent",
                       a.status != "rejected",
                       a.field_name.in_(("birth_date", "baptism_date", "marriage_date"))))
    return own, children


def vital_years(conn: Connection, ids: Iterable[str]) -> dict[str, Years]:
    """Each person's stated vital years (rejected assertions left out), with the years
    their children were born or baptised or married (`model.lifespan.CHILD_BIRTH`,
    `CHILD_MARRIAGE`)."""
    own, children = _vital_years_sql()
    ids = {"ids": list(ids)}
    years: dict[str, Years] = {}
    for pid, fld, value in conn.execute(own, ids):
        add_year(years.setdefault(str(pid), {}), fld, value)
    for pid, fld, value in conn.execute(children, ids):
        if (y := year_of(fld, value)) is not None:
            kind = CHILD_MARRIAGE if fld == "marriage_date" else CHILD_BIRTH
            years.setdefault(str(pid), {}).setdefault(kind, []).append(y)
    return years
