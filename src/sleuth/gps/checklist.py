"""The GPS checklist: the five elements of the Genealogical Proof Standard, pass or not yet.

One checklist per person and research question, from what the proof argument already
computed. Each element says what is still missing, so "not yet" is a to-do list:

1. **Reasonably exhaustive search**: `coverage`'s rule (direct primary evidence, at least
   `MIN_SOURCES` independent sources) *and* every required record set of the question
   (`REQUIRED_SETS`) searched: either a successful search of a source that holds it (an
   empty result counts: that is negative evidence) or evidence on file from such a record.
2. **Complete and accurate citations**: every item's snapshot is in the case and its excerpt
   is found verbatim at its locator (the firewall's rule, re-checked on the stored copy).
3. **Analysis and correlation**: every item classified (no undetermined information among
   the direct evidence) and the answer correlated across at least two independent originals
   (`sleuth.gps.independence`: copies of one record count once).
4. **Resolution of conflicting evidence**: no conflict on the question's fields left
   tentative, and no structural problem in the family links the question reads
   (`sleuth.gps.conclusions`: more than two parents, two mothers, a person among their own
   relatives or ancestors).
5. **Soundly reasoned conclusion**: a written conclusion labelled *proved* or *probable*
   that stands on no unresolved conflict and no structural problem.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sleuth.gps.coverage import QuestionCoverage
from sleuth.gps.evidence import EvidenceItem, SourceBook
from sleuth.gps.independence import independent_count
from sleuth.model.evidence import EvidenceClass, InformationClass, ResearchQuestion
from sleuth.sources.registry import Registry, current_registry


@dataclass(frozen=True)
class RequiredSet:
    """A kind of record the question needs searched: records of these events. Which sources
    hold it is each source's own declaration (`record.events` in its spec)."""

    name: str
    events: frozenset[str]  # SourceInfo.event values of records from this set


_BIRTHS = RequiredSet("birth or baptism records", frozenset({"birth", "baptism"}))
REQUIRED_SETS: dict[ResearchQuestion, tuple[RequiredSet, ...]] = {
    ResearchQuestion.BIRTH: (_BIRTHS,),
    ResearchQuestion.DEATH: (RequiredSet(
        "death or burial records", frozenset({"death", "burial", "obituary"})),),
    ResearchQuestion.PARENTS: (RequiredSet(
        "birth or baptism record naming the parents", _BIRTHS.events),),
    ResearchQuestion.MARRIAGE: (RequiredSet("marriage records", frozenset({"marriage"})),),
}


def holders(required: RequiredSet, registry: Registry | None = None) -> frozenset[str]:
    """Ids of the sources whose searches read records of the set's events."""
    registry = registry if registry is not None else current_registry()
    return frozenset(spec.id for spec in (registry.declared() if registry else ())
                     if spec.record.events & required.events)


ELEMENTS = (
    "Reasonably exhaustive search",
    "Complete and accurate citations",
    "Analysis and correlation",
    "Resolution of conflicting evidence",
    "Soundly reasoned written conclusion",
)


@dataclass
class Check:
    element: str
    passed: bool
    missing: list[str] = field(default_factory=list)

    @property
    def status(self) -> str:
        return "pass" if self.passed else "not yet"


def unsearched_sets(qc: QuestionCoverage, items: list[EvidenceItem]) -> list[str]:
    """Required record sets of the question that were neither searched nor yielded evidence."""
    out = []
    for rs in REQUIRED_SETS[qc.question]:
        sources = holders(rs)
        searched = any(s.success and s.source in sources for s in qc.searched)
        found = any(e.info.event in rs.events for e in items)
        if not (searched or found):
            out.append(f"required record set not searched: {rs.name}")
    return out


def _citations(items: list[EvidenceItem], book: SourceBook) -> list[str]:
    bad = []
    for e in items:
        snap = book.raw_snapshot(e.citation.snapshot_id)
        loc = e.citation.locator
        what = e.assertion.field_name.replace("_", " ")
        if snap is None:
            bad.append(f"the source cited for the {what} is not stored in the case")
        elif snap.text[loc.start : loc.end] != e.citation.excerpt and (
                e.citation.excerpt not in snap.text):
            bad.append(f"the words quoted for the {what} are not found verbatim in the "
                       f"stored copy of {snap.source_name}")
    return list(dict.fromkeys(bad))


def row_best(group: list[EvidenceItem]) -> EvidenceItem:
    """The item a row of the evidence table shows: the weightiest of the row's items."""
    return max(group, key=lambda e: e.weight)


def checklist(
    qc: QuestionCoverage,
    items: list[EvidenceItem],
    book: SourceBook,
    tentative: list[str],
    label: str,
    problems: list[str] | None = None,
    rows: list[list[EvidenceItem]] | None = None,
) -> list[Check]:
    """The five elements for one question (`tentative`: fields whose conflict is tentative;
    `label`: the conclusion's label, "" when none was written; `problems`: the structural
    problems, in words, of the family links the question reads; `rows`: the items as the
    evidence table groups them, one row per fact, value and source, default one per item).
    Items are counted as rows, so the checklist's count is the table's."""
    search = [*qc.missing, *unsearched_sets(qc, items)]
    cites = _citations(items, book)
    if not items:
        cites.append("no cited evidence on file")
    analysis = []
    shown = [row_best(g) for g in rows] if rows is not None else items
    undetermined = sum(1 for e in shown if e.classes.evidence is EvidenceClass.DIRECT
                       and e.classes.information is InformationClass.UNDETERMINED)
    if undetermined:
        analysis.append(f"{undetermined} direct evidence row(s) with undetermined "
                        "information (informant unknown)")
    originals = independent_count(items)
    if originals < 2:
        analysis.append(f"{originals} independent original(s); correlation needs at least 2")
    problems = problems or []
    conflicts = [f"conflict on {f.replace('_', ' ')} is tentative, needs corroboration"
                 for f in tentative] + problems
    conclusion = [] if label in ("proved", "probable") else [
        f"conclusion is {label or 'not written'}; it needs direct evidence from a record"]
    if tentative or problems:
        conclusion.append("it rests on unresolved conflicting evidence")
    parts = (search, cites, analysis, conflicts, conclusion)
    return [Check(name, not miss, miss) for name, miss in zip(ELEMENTS, parts, strict=True)]
