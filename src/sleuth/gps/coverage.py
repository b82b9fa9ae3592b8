"""Search coverage and negative evidence, per person and research question.

What was searched comes from the research log: every Scout `source_access` entry names its
task, and the task's payload names the person searched for (`target.person_id`, else the
name) and the query. A search response's hits are counted and scored again from the stored
snapshot with the loop's own functions (`sleuth.sources.hits`), so the figure does not depend
on how a log line was worded. A direct call or fetch that succeeded read a record: a hit.

A successful search with no plausible hit for the person is **negative evidence** for each
question its source can answer (`SOURCE_QUESTIONS`); `record_negative` stores it in
`negative_evidence`, cited to the search snapshot (its opening characters, verbatim). A
search that failed (blocked, network error) is listed but is never negative evidence: an
unanswered question is not an answer.

Sources with evidence are the cited claims bearing on the question (whatever the route:
ingested file or research loop).

**Reasonably exhaustive** (the documented rule, per question): at least one piece of
*direct* evidence with *primary* information from a non-authored source, and at least
`MIN_SOURCES` independent sources consulted for the question (originals with evidence, an
index, its image and a tree copying them counting once (`sleuth.gps.independence`), plus
searches that came back empty). Until then the row says what is missing and which record
sets to try next (`NEXT_RECORD_SETS`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection

from sleuth.gps.catalogue import relevant
from sleuth.gps.evidence import RawSnapshots, SourceBook, evidence_for
from sleuth.gps.independence import independent_count
from sleuth.gps.overrides import CitationKey, Override
from sleuth.model import NotFound, Snapshot, new_id
from sleuth.model.evidence import (
    EvidenceClass,
    InformationClass,
    ResearchQuestion,
    SourceClass,
)
from sleuth.model.graph import CaseGraph
from sleuth.sources.registry import load_registry
from sleuth.store import Store
from sleuth.store.searches import add_negative, negative_keys, scout_accesses
from sleuth.store.tasks import payloads_by_id

MIN_SOURCES = 2
EXCERPT_CHARS = 160
ALL_QUESTIONS = frozenset(ResearchQuestion)
# source id -> the questions its record sets can answer (a person search reads them all)
SOURCE_QUESTIONS: dict[str, frozenset[ResearchQuestion]] = {
    "wikitree": ALL_QUESTIONS,
    "familysearch": ALL_QUESTIONS,
    "wikidata": ALL_QUESTIONS,
    "wikidata_sparql": ALL_QUESTIONS,
    "wikipedia": ALL_QUESTIONS,
    "find_a_grave": frozenset({ResearchQuestion.BIRTH, ResearchQuestion.DEATH}),
    "chronicling_america": frozenset({ResearchQuestion.DEATH, ResearchQuestion.MARRIAGE}),
}
NEXT_RECORD_SETS: dict[ResearchQuestion, tuple[str, ...]] = {
    ResearchQuestion.BIRTH: ("civil birth registration", "parish baptism register (FreeREG)",
                             "FamilySearch birth and christening collections"),
    ResearchQuestion.DEATH: ("civil death registration or certificate",
                             "parish burial register (FreeREG)", "newspaper obituaries"),
    ResearchQuestion.PARENTS: ("birth or baptism record naming the parents",
                               "census household with relationships"),
    ResearchQuestion.MARRIAGE: ("civil marriage registration", "parish marriage register",
                                "newspaper marriage notices"),
}


@dataclass
class Search:
    seq: int
    source: str
    query: str
    action: str
    person_id: str | None
    snapshot_id: str | None
    success: bool
    failure: str | None
    hits: int | None = None  # results in the response (searches only)
    matched: int | None = None  # of them plausibly this person
    at: str = ""

    @property
    def found(self) -> bool:
        return self.success and (self.matched is None or self.matched > 0)

    @property
    def negative(self) -> bool:
        return self.success and self.matched == 0


@dataclass
class QuestionCoverage:
    question: ResearchQuestion
    with_evidence: list[str] = field(default_factory=list)  # source titles with cited claims
    searched: list[Search] = field(default_factory=list)
    negative: list[Search] = field(default_factory=list)
    primary_direct: int = 0
    exhaustive: bool = False
    missing: list[str] = field(default_factory=list)
    next_sets: list[str] = field(default_factory=list)
    # the catalogue's record sets for this person and question (`sleuth.gps.catalogue`)
    sets_searched: list[str] = field(default_factory=list)
    sets_not_searched: list[str] = field(default_factory=list)  # a built-in source reaches
    sets_unreachable: list[str] = field(default_factory=list)  # no built-in source: the user


@dataclass
class PersonCoverage:
    person_id: str
    name: str
    living: bool
    questions: list[QuestionCoverage]


# -- reading the research log -------------------------------------------------------------
def _target(payload: Mapping[str, Any]) -> tuple[str | None, str]:
    target = payload.get("target") or {}
    values = payload.get("values") or {}
    return target.get("person_id"), str(target.get("name") or values.get("name") or "")


def _score(store: Store, source: str, snap: Snapshot, target: dict[str, Any],
           registry: Any) -> tuple[int | None, int | None]:
    # Imported here for start-up time: hits need rapidfuzz, and `sleuth export` and
    # `coverage` of a case without a search log never score one.
    from sleuth.sources.hits import has_hits, hit_count, search_hits

    if registry is None or source not in registry:
        return None, None
    spec = registry.get(source)
    if not has_hits(spec):
        return None, None
    # An HTML page's snapshot text is what it shows; its result selectors need the markup
    # (else "1 matching memorial" would be recorded as 0 results).
    page = store.blob(snap.sha256).decode("utf-8", "replace") if spec.kind == "html" else (
        snap.text)
    return hit_count(spec, page), len(search_hits(spec, page, target))


def searches(store: Store, graph: CaseGraph, registry: Any = None) -> list[Search]:
    """Every Scout access in the research log, attributed to a person where possible."""
    if registry is None:
        registry = load_registry()
    by_name: dict[str, str] = {}
    for p in graph.persons:
        by_name.setdefault(p.canonical_name.casefold(), p.id)
    out: list[Search] = []
    with store.engine.connect() as conn:
        payloads = payloads_by_id(conn)
        rows = scout_accesses(conn)
        for seq, ts, ctx, rationale in rows:
            ctx = ctx or {}
            payload = payloads.get(str(ctx.get("task"))) or {}
            pid, name = _target(payload)
            pid = pid or by_name.get(name.casefold())
            s = Search(seq=seq, source=str(ctx.get("source") or ""),
                       query=str(ctx.get("query") or payload.get("query") or ""),
                       action=str(ctx.get("action") or payload.get("action") or ""),
                       person_id=pid, snapshot_id=ctx.get("snapshot_id"),
                       success=bool(ctx.get("success")),
                       failure=ctx.get("failure_reason") or (None if ctx.get("success")
                                                             else rationale),
                       at=ts.date().isoformat() if ts else "")
            if s.success and s.action == "search" and s.snapshot_id:
                snap = _snapshot(store, conn, s.snapshot_id)
                if snap is not None:
                    target = {**(payload.get("target") or {}), "name": name}
                    s.hits, s.matched = _score(store, s.source, snap, target, registry)
            out.append(s)
    return out


# -- the table ----------------------------------------------------------------------------
def _question(graph: CaseGraph, pid: str, q: ResearchQuestion, mine: list[Search],
              overrides: Mapping[CitationKey, Override] | None,
              book: SourceBook) -> QuestionCoverage:
    qc = QuestionCoverage(q)
    items = evidence_for(graph, pid, q, overrides, book)
    seen: set[str] = set()
    for e in items:
        title = e.info.title if e.snapshot is None else f"{e.info.title} ({e.info.kind})"
        if title not in seen:
            seen.add(title)
            qc.with_evidence.append(title)
    qc.primary_direct = sum(
        1 for e in items
        if e.classes.evidence is EvidenceClass.DIRECT
        and e.classes.information is InformationClass.PRIMARY
        and e.classes.source is not SourceClass.AUTHORED
    )
    for s in mine:
        if q not in SOURCE_QUESTIONS.get(s.source, ALL_QUESTIONS):
            continue
        qc.searched.append(s)
        if s.negative:
            qc.negative.append(s)
    consulted = independent_count(items) + len({(n.source, n.query) for n in qc.negative})
    if not qc.primary_direct:
        qc.missing.append("no direct evidence with primary information from a record")
    if consulted < MIN_SOURCES:
        qc.missing.append(f"{consulted} source(s) consulted; at least {MIN_SOURCES} needed")
    qc.exhaustive = not qc.missing
    if not qc.exhaustive:
        qc.next_sets = list(NEXT_RECORD_SETS[q])
    return qc


def coverage(
    store: Store | None,
    graph: CaseGraph,
    *,
    person_ids: list[str] | None = None,
    overrides: Mapping[CitationKey, Override] | None = None,
    registry: Any = None,
    log: list[Search] | None = None,
    raw: RawSnapshots = None,
) -> list[PersonCoverage]:
    """Per person and research question: searched, found, not found, exhaustive or not.

    `graph` should be the censored graph when the result is bound for an output; `log` is
    `searches(store, raw_graph)` (the names it matches on are the real ones) and `raw` that
    uncensored graph (or its snapshots), which classification reads (`SourceBook`).
    """
    if log is None:
        if store is None:
            raise ValueError("coverage needs a store or a search log")
        log = searches(store, graph, registry)
    book = SourceBook(graph, raw)
    out = []
    for p in graph.persons:
        if person_ids is not None and p.id not in person_ids:
            continue
        mine = [s for s in log if s.person_id == p.id]
        years, places = _life(graph, p.id)
        qs = [_question(graph, p.id, q, mine, overrides, book) for q in ResearchQuestion]
        for qc in qs:
            _record_sets(qc, mine, years, places)
        out.append(PersonCoverage(p.id, p.canonical_name, bool(p.is_living), qs))
    return out


def _life(graph: CaseGraph, pid: str) -> tuple[list[int], list[str]]:
    """The years and places the person's cited claims put them in (what the catalogue's
    coverage is matched against)."""
    years: list[int] = []
    places: list[str] = []
    for a in graph.assertions.get(pid, []):
        if a.date is not None and a.date.earliest is not None and a.field_name.endswith(
                "_date"):
            years.append(a.date.earliest.year)
        elif a.field_name.endswith(("_place", "residence")):
            places.append(a.value)
    return years, places


def _record_sets(qc: QuestionCoverage, mine: list[Search], years: list[int],
                 places: list[str]) -> None:
    asked = {s.source for s in mine if s.success}
    for rs in relevant(qc.question, years, places):
        if not rs.sources:
            qc.sets_unreachable.append(rs.name)
        elif asked & set(rs.sources):
            qc.sets_searched.append(rs.name)
        else:
            qc.sets_not_searched.append(rs.name)
    if qc.next_sets and (qc.sets_not_searched or qc.sets_unreachable):
        # what to try next, for this person's years and places (the catalogue), not generic
        qc.next_sets = [*qc.sets_not_searched, *qc.sets_unreachable, *qc.next_sets]


# -- negative evidence --------------------------------------------------------------------
def _excerpt(text: str) -> tuple[str, int, int]:
    """The response's opening characters, verbatim (cut at a line end when one is near)."""
    head = text[:EXCERPT_CHARS]
    cut = head.rfind("\n")
    end = cut if cut > 20 else len(head)
    start = len(head) - len(head.lstrip())
    if start >= end:
        start = 0
    return text[start:end], start, end


def record_negative(store: Store, table: list[PersonCoverage], agent: str = "Analyst") -> int:
    """Store each not-yet-recorded negative search, cited to its snapshot; returns how many."""
    made = 0
    with store.transaction() as conn:
        have = negative_keys(conn)
        for pc in table:
            for qc in pc.questions:
                for s in qc.negative:
                    key = (pc.person_id, qc.question.value, s.snapshot_id)
                    if s.snapshot_id is None or key in have:
                        continue
                    snap = _snapshot(store, conn, s.snapshot_id)
                    if snap is None:
                        continue
                    excerpt, start, end = _excerpt(snap.text)
                    statement = (
                        f"{s.source} searched on {s.at} ({s.query}): {s.hits or 0} result(s), "
                        f"none plausibly {pc.name}; no {qc.question.value} record found there."
                    )
                    add_negative(store, conn, dict(
                        id=new_id(), person_id=pc.person_id, question=qc.question.value,
                        source=s.source, query=s.query, snapshot_id=s.snapshot_id,
                        hit_count=s.hits or 0, excerpt=excerpt, char_start=start,
                        char_end=end, log_seq=s.seq, statement=statement), agent=agent)
                    have.add((pc.person_id, qc.question.value, str(s.snapshot_id)))
                    made += 1
    return made


def _snapshot(store: Store, conn: Connection, snapshot_id: str) -> Snapshot | None:
    try:
        return store.snapshot(snapshot_id, conn)
    except NotFound:
        return None


def as_json(table: list[PersonCoverage]) -> list[dict[str, Any]]:
    """A JSON-ready view; queries of living persons are withheld (they quote names, years)."""
    out = []
    for pc in table:
        qs = []
        for qc in pc.questions:
            def s_json(s: Search, living: bool = pc.living) -> dict[str, Any]:
                return {"source": s.source, "query": "[withheld: living person]" if living
                        else s.query, "action": s.action, "success": s.success,
                        "hits": s.hits, "matched": s.matched, "snapshot_id": s.snapshot_id,
                        "log_seq": s.seq, "failure": s.failure}
            qs.append({"question": qc.question.value, "sources_with_evidence": qc.with_evidence,
                       "searched": [s_json(s) for s in qc.searched],
                       "negative": [s_json(s) for s in qc.negative],
                       "primary_direct": qc.primary_direct, "exhaustive": qc.exhaustive,
                       "missing": qc.missing, "next_record_sets": qc.next_sets,
                       "record_sets": {"searched": qc.sets_searched,
                                       "not_searched": qc.sets_not_searched,
                                       "no_built_in_source": qc.sets_unreachable}})
        out.append({"person_id": pc.person_id, "name": pc.name, "living": pc.living,
                    "questions": qs})
    return json.loads(json.dumps(out))
