"""Evidence items: one citation of one claim, classified for one research question.

This is what the proof argument, `sleuth cite` and the coverage table consume. It reads a
CaseGraph (already censored by the caller when it is bound for an output) plus the
overrides from the store, so the same code serves a live case and a report of it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from sleuth.gps.classify import Classes, classify, evidence_class, questions_for
from sleuth.gps.kinds import SourceInfo, SourceKind, describe
from sleuth.gps.overrides import CitationKey, Override
from sleuth.gps.weights import gps_weight
from sleuth.model.citation import Citation, Tier
from sleuth.model.evidence import InformationClass, ResearchQuestion, SourceClass
from sleuth.model.graph import CaseGraph
from sleuth.model.records import Assertion, AssertionStatus, Snapshot

_INVERSE = {"parent": "child", "child": "parent", "spouse": "spouse"}
# what classification reads of the uncensored case: the whole graph, or its snapshots alone
RawSnapshots = CaseGraph | Mapping[str, Snapshot] | None


@dataclass
class EvidenceItem:
    person_id: str  # whom the question is about
    question: ResearchQuestion | None
    assertion: Assertion
    citation: Citation
    snapshot: Snapshot | None
    info: SourceInfo
    classes: Classes
    weight: float

    @property
    def key(self) -> CitationKey:
        c = self.citation
        return (self.assertion.id, c.snapshot_id, c.locator.start, c.locator.end)


class SourceBook:
    """Memoised `describe` per snapshot: parsing a record once per case, not per citation.

    `graph` is what the output shows (censored); `raw`, when given, is the same case before
    the Censor, or only its snapshots (all that is read of it: an exporter of a censored
    view need not hold the whole uncensored case). Classes are derived from the raw
    snapshot, so a living person's citation (whose snapshot text the Censor dropped) is
    classified like any other; the note's details come from the censored copy, and when
    the Censor changed a snapshot, the parts that can name a person (the item,
    person-derived identifiers) come only from that copy.
    """

    def __init__(self, graph: CaseGraph, raw: RawSnapshots = None) -> None:
        self.graph = graph
        self.raw_snapshots: Mapping[str, Snapshot] = (
            graph.snapshots if raw is None
            else raw.snapshots if isinstance(raw, CaseGraph) else raw)
        self._shown: dict[str, SourceInfo] = {}
        self._truth: dict[str, SourceInfo] = {}
        self.persons = {p.id: p for p in graph.persons}  # CaseGraph.person() is a scan

    @staticmethod
    def _describe(snap: Snapshot | None, sid: str) -> SourceInfo:
        if snap is None:
            return SourceInfo(kind=SourceKind.LOCAL_DOCUMENT, title=f"snapshot {sid}")
        return describe(snap)

    def raw_snapshot(self, snapshot_id: str) -> Snapshot | None:
        return self.raw_snapshots.get(snapshot_id) or self.graph.snapshots.get(snapshot_id)

    def truth(self, snapshot_id: str) -> SourceInfo:
        """What the source is, read from the uncensored snapshot (for classification)."""
        if snapshot_id not in self._truth:
            self._truth[snapshot_id] = self._describe(self.raw_snapshot(snapshot_id), snapshot_id)
        return self._truth[snapshot_id]

    def info(self, snapshot_id: str) -> SourceInfo:
        """What a note may say about the source (see the class docstring)."""
        if snapshot_id in self._shown:
            return self._shown[snapshot_id]
        shown = self.graph.snapshots.get(snapshot_id)
        truth = self.truth(snapshot_id)
        raw = self.raw_snapshot(snapshot_id)
        if shown is None or raw is None or shown.text == raw.text:
            info = truth if shown is raw or shown is None else self._describe(shown, snapshot_id)
        else:
            seen = self._describe(shown, snapshot_id)
            same = seen.kind is truth.kind
            info = replace(truth, item=seen.item if same else "",
                           identifiers=dict(seen.identifiers) if same else {},
                           reference=list(truth.reference))
        self._shown[snapshot_id] = info
        return info


def _apply(classes: Classes, ov: Override | None, question: ResearchQuestion | None) -> None:
    if ov is None:
        return
    if ov.source is not None:
        classes.source = ov.source
        classes.overridden.append("source")
    if ov.information is not None:
        classes.information = ov.information
        classes.overridden.append("information")
    ev = ov.evidence.get(question) or ov.evidence.get(None)
    if ev is not None:
        classes.evidence = ev
        classes.overridden.append("evidence")
    if classes.overridden:
        classes.why.append("override: " + "; ".join(ov.reasons))


def item(
    book: SourceBook,
    person_id: str,
    a: Assertion,
    c: Citation,
    question: ResearchQuestion | None,
    overrides: Mapping[CitationKey, Override] | None = None,
    field_name: str | None = None,
) -> EvidenceItem:
    """Classify one citation of one claim (`field_name` when read from the other side)."""
    snap = book.graph.snapshots.get(c.snapshot_id)
    raw = book.raw_snapshot(c.snapshot_id)
    fname = field_name or a.field_name
    if raw is None:
        classes = Classes(SourceClass.DERIVATIVE, InformationClass.UNDETERMINED,
                          evidence_class(fname, question) if question else None,
                          ["snapshot not in this case"])
    else:
        classes = classify(raw, book.truth(c.snapshot_id), fname, question, a.date)
    info = book.info(c.snapshot_id)
    key = (a.id, c.snapshot_id, c.locator.start, c.locator.end)
    _apply(classes, (overrides or {}).get(key), question)
    tier = snap.tier if snap is not None else Tier.TIER0
    w = gps_weight(classes.source, classes.information, classes.evidence, tier, a.confidence)
    return EvidenceItem(person_id, question, a, c, snap, info, classes, round(w, 4))


def _names(book: SourceBook, pid: str) -> set[str]:
    p = book.persons.get(pid)
    return {pid.casefold()} | ({p.canonical_name.casefold()} if p and p.canonical_name else set())


def evidence_for(
    graph: CaseGraph,
    person_id: str,
    question: ResearchQuestion,
    overrides: Mapping[CitationKey, Override] | None = None,
    book: SourceBook | None = None,
) -> list[EvidenceItem]:
    """Every cited claim bearing on `question` for one person, best weight first.

    For parents, a parent's own `child` claim naming this person is direct evidence too: the
    parent-child link is cited from either side.
    """
    book = book or SourceBook(graph)
    out: list[EvidenceItem] = []
    for a in graph.assertions.get(person_id, []):
        if a.status is AssertionStatus.REJECTED or evidence_class(a.field_name, question) is None:
            continue
        if question is ResearchQuestion.PARENTS and a.field_name == "child":
            continue  # this person's children say nothing of their parents
        out += [item(book, person_id, a, c, question, overrides) for c in a.citations]
    person = book.persons.get(person_id)
    if question is ResearchQuestion.PARENTS and person is not None:
        mine = _names(book, person_id)
        for parent in sorted(person.parents):
            for a in graph.assertions.get(parent, []):
                if (a.field_name == "child" and a.status is not AssertionStatus.REJECTED
                        and a.value.strip().casefold() in mine):
                    out += [item(book, person_id, a, c, question, overrides, field_name="parent")
                            for c in a.citations]
    out.sort(key=lambda e: (-e.weight, e.assertion.field_name, e.assertion.value))
    return out


def all_items(
    graph: CaseGraph,
    person_id: str,
    overrides: Mapping[CitationKey, Override] | None = None,
    book: SourceBook | None = None,
) -> list[EvidenceItem]:
    """Every citation of a person's claims, classified for the first question it bears on."""
    book = book or SourceBook(graph)
    out = []
    for a in graph.assertions.get(person_id, []):
        if a.status is AssertionStatus.REJECTED:
            continue
        bearing = questions_for(a.field_name)
        q = bearing[0][0] if bearing else None
        out += [item(book, person_id, a, c, q, overrides) for c in a.citations]
    return out
