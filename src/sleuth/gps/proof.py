"""The written proof argument: one GPS-shaped section per person and research question.

Each section follows the five elements of the Genealogical Proof Standard: the research
question and the search (sources with evidence, searches that found nothing, whether the
search is reasonably exhaustive by `sleuth.gps.coverage`'s rule); the evidence with its
three Evidence Explained classes and weight (`sleuth.gps.weights`); correlation and the
conflicts with how the Analyst resolved them (every alternative kept); and a conclusion
with a confidence. Every statement carries a footnote through the caller's `mark`, so the
report's one numbering holds.

Confidence: the supporting items' weights are combined as independent witnesses,
`1 - Π(1 - wᵢ)`, one item per original (`sleuth.gps.independence`: an index, its image and a
tree that copied it are one witness, weighed as their best copy). The label is **proved**
when the search is reasonably exhaustive (required record sets searched too), the
conclusion rests on direct primary evidence and no conflict is tentative; **probable** with
direct evidence short of that; **possible** with only indirect or authored evidence; **not
established** without.

Living persons get no proof argument (it would restate what the Censor withholds).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from sleuth.gps.checklist import checklist, unsearched_sets
from sleuth.gps.citations import format_note
from sleuth.gps.coverage import QuestionCoverage, Search, coverage, searches
from sleuth.gps.evidence import EvidenceItem, SourceBook, evidence_for
from sleuth.gps.independence import derivations
from sleuth.gps.overrides import CitationKey, Override, load_overrides
from sleuth.model.citation import Citation, Locator
from sleuth.model.evidence import EvidenceClass, InformationClass, ResearchQuestion, SourceClass
from sleuth.model.graph import CaseGraph, Conflict
from sleuth.model.records import Snapshot
from sleuth.store import Store

Mark = Callable[[list[Citation]], str]

QUESTION_TEXT: dict[ResearchQuestion, str] = {
    ResearchQuestion.BIRTH: "When and where was {name} born?",
    ResearchQuestion.DEATH: "When and where did {name} die?",
    ResearchQuestion.PARENTS: "Who were the parents of {name}?",
    ResearchQuestion.MARRIAGE: "Whom did {name} marry, and when and where?",
}
_CONCLUDE_FIELDS: dict[ResearchQuestion, tuple[str, ...]] = {
    ResearchQuestion.BIRTH: ("birth_date", "birth_place"),
    ResearchQuestion.DEATH: ("death_date", "death_place"),
    ResearchQuestion.PARENTS: ("parent",),
    ResearchQuestion.MARRIAGE: ("spouse", "marriage_date", "marriage_place"),
}


@dataclass
class Negative:
    """A stored negative-evidence row, as a citable statement."""

    person_id: str
    question: ResearchQuestion
    statement: str
    citation: Citation
    source: str


@dataclass
class ProofInputs:
    """What the store knows beyond the CaseGraph: overrides, searches, negative evidence."""

    overrides: Mapping[CitationKey, Override] = field(default_factory=dict)
    searches: list[Search] | None = None  # None: the research log was not supplied
    negatives: list[Negative] = field(default_factory=list)
    snapshots: dict[str, Snapshot] = field(default_factory=dict)  # search responses


def load_inputs(store: Store, graph: CaseGraph) -> ProofInputs:
    """Read overrides, the search log and stored negative evidence (raw, uncensored)."""
    from sqlalchemy import select

    from sleuth.gps.coverage import negative_rows
    from sleuth.store import schema as t
    from sleuth.store.queries import row_to_snapshot

    rows = negative_rows(store)
    snaps: dict[str, Snapshot] = {}
    ids = {r["snapshot_id"] for r in rows}
    if ids:
        with store.engine.connect() as conn:
            for r in conn.execute(select(t.snapshots).where(t.snapshots.c.id.in_(ids))):
                snaps[r.id] = row_to_snapshot(r)
    negatives = [
        Negative(r["person_id"], ResearchQuestion(r["question"]), r["statement"],
                 Citation(snapshot_id=r["snapshot_id"], excerpt=r["excerpt"],
                          locator=Locator(start=r["char_start"], end=r["char_end"])),
                 r["source"])
        for r in rows
    ]
    return ProofInputs(load_overrides(store), searches(store, graph), negatives, snaps)


def combined(weights: list[float]) -> float:
    """Independent witnesses: 1 - Π(1 - w)."""
    miss = 1.0
    for w in weights:
        miss *= 1.0 - max(0.0, min(1.0, w))
    return 1.0 - miss


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


class ProofWriter:
    """Writes the sections for one (censored) graph with the report's footnote marker."""

    def __init__(self, graph: CaseGraph, inputs: ProofInputs | None, mark: Mark,
                 raw: CaseGraph | None = None) -> None:
        self.g = graph
        self.raw = raw
        self.inputs = inputs or ProofInputs()
        self.mark = mark
        self.book = SourceBook(graph, raw)
        self.conflicts: dict[tuple[str, str], Conflict] = {
            (c.person_id, c.field): c for c in graph.conflicts
        }
        self.names = {p.id: p.canonical_name or p.id for p in graph.persons}
        self.label = ""  # the last conclusion's label, for the checklist

    def sections(self) -> list[str]:
        out: list[str] = [
            "## Proof arguments (Genealogical Proof Standard)",
            "",
            "Per person and research question: the search (with negative results), the "
            "evidence with its Evidence Explained classes (source: original / derivative / "
            "authored; information: primary / secondary / undetermined; evidence: direct / "
            "indirect / negative) and weight, conflicts and their resolution, and the "
            "conclusion. Living persons get no proof argument.",
            "",
        ]
        if self.inputs.searches is None:
            out += ["*The research log was not supplied: searches and negative evidence are "
                    "not shown.*", ""]
        log = self.inputs.searches or []
        table = coverage(None, self.g, overrides=self.inputs.overrides, log=log, raw=self.raw)
        written = 0
        for pc in table:
            if pc.living:
                continue
            for qc in pc.questions:
                items = evidence_for(self.g, pc.person_id, qc.question, self.inputs.overrides,
                                     self.book)
                negs = [n for n in self.inputs.negatives
                        if n.person_id == pc.person_id and n.question is qc.question]
                if not items and not negs:
                    continue
                out += self.section(pc.person_id, qc, items, negs)
                written += 1
        if not written:
            out += ["No non-living person has evidence on file for a research question.", ""]
        return out

    # -- one section ---------------------------------------------------------------------
    def section(self, pid: str, qc: QuestionCoverage, items: list[EvidenceItem],
                negs: list[Negative]) -> list[str]:
        name = _cell(self.names.get(pid, pid))
        q = qc.question
        out = [f"### {QUESTION_TEXT[q].format(name=name)}", "",
               f"*Person `{pid}` · research question: {q.value}*", ""]
        out += self.search(qc, items, negs)
        out += self.evidence(items)
        out += self.conflicts_for(pid, q, items)
        self.label = ""
        out += self.conclusion(pid, qc, items)
        out += self.checks(pid, qc, items)
        return out

    def checks(self, pid: str, qc: QuestionCoverage, items: list[EvidenceItem]) -> list[str]:
        tentative = [f for (p, f), c in self.conflicts.items()
                     if p == pid and f in _CONCLUDE_FIELDS[qc.question] and c.is_tentative]
        out = ["**5. GPS checklist.**", "", "| GPS element | Status | What is missing |",
               "|---|---|---|"]
        for ch in checklist(qc, items, self.book, tentative, self.label):
            out.append(f"| {ch.element} | {ch.status} | "
                       f"{_cell('; '.join(ch.missing)) or '-'} |")
        return [*out, ""]

    def search(self, qc: QuestionCoverage, items: list[EvidenceItem],
               negs: list[Negative]) -> list[str]:
        out = ["**1. Search.**", ""]
        first: dict[str, EvidenceItem] = {}
        for e in items:
            first.setdefault(e.citation.snapshot_id, e)
        for e in first.values():
            note = format_note(e.info, e.snapshot, e.citation, self.names.get(e.person_id, ""))
            out.append(f"- Consulted, with evidence: {_cell(note.short)} — {e.info.kind}, "
                       f"{e.classes.source} source {self.mark([e.citation])}")
        for n in negs:
            out.append(f"- Searched, nothing found (negative evidence): {_cell(n.statement)} "
                       f"{self.mark([n.citation])}")
        failed = [s for s in qc.searched if not s.success]
        if failed:
            out.append(f"- {len(failed)} search(es) did not run (blocked or failed); they are "
                       "not evidence either way.")
        verdict = ("reasonably exhaustive" if qc.exhaustive
                   else "not yet reasonably exhaustive: " + "; ".join(qc.missing))
        out += ["", f"Search verdict: {verdict}."]
        if qc.next_sets:
            out.append(f"Record sets to search next: {', '.join(qc.next_sets)}.")
        return [*out, ""]

    def evidence(self, items: list[EvidenceItem]) -> list[str]:
        out = ["**2. Evidence.**", "",
               "| Claim | Value | Source class | Information | Evidence | Weight | Source |",
               "|---|---|---|---|---|---|---|"]
        for e in items:
            c = e.classes
            flag = " (overridden)" if c.overridden else ""
            value = e.assertion.value
            if e.assertion.date is not None and e.assertion.date.original.endswith("s"):
                value = e.assertion.date.original  # a censored decade, never the raw value
            out.append(
                f"| {e.assertion.field_name} | {_cell(value)} | {c.source} | {c.information} | "
                f"{c.evidence or '-'}{flag} | {e.weight:.3f} | {self.mark([e.citation])} |")
        return [*out, ""]

    def conflicts_for(self, pid: str, q: ResearchQuestion,
                      items: list[EvidenceItem] | None = None) -> list[str]:
        out = ["**3. Correlation and conflicts.**", ""]
        found = False
        for fname in _CONCLUDE_FIELDS[q]:
            c = self.conflicts.get((pid, fname))
            if c is None:
                continue
            found = True
            verdict = "tentative, needs corroboration" if c.is_tentative else "resolved"
            values = "; ".join(f"{_cell(r.value)} (weight {r.weight:.3f})"
                               for r in sorted(c.competing, key=lambda r: r.rank))
            out.append(f"- {fname}: competing values {values}. Recommended "
                       f"{_cell(c.recommended_value)} ({verdict}): {_cell(c.rationale)} "
                       "All alternatives are kept.")
        if not found:
            out.append("- No conflicting claims on file for this question.")
        out += self.derivation(items or [])
        return [*out, ""]

    def derivation(self, items: list[EvidenceItem]) -> list[str]:
        """Sources that derive from one original: shown, and counted once."""
        out = []
        for d in derivations(items):
            if d.derived:
                names = {e.citation.snapshot_id: _cell(format_note(
                    e.info, e.snapshot, e.citation, self.names.get(e.person_id, "")).short)
                    for e in d.items}
                out.append(f"- Not independent: {d.describe(names)} "
                           f"{self.mark([e.citation for e in d.items])}")
        return out

    def _best(self, items: list[EvidenceItem], fname: str,
              pid: str) -> tuple[str, list[EvidenceItem]]:
        c = self.conflicts.get((pid, fname))
        cands = [e for e in items if e.assertion.field_name == fname
                 or (fname == "parent" and e.classes.evidence is EvidenceClass.DIRECT)]
        if not cands:
            return "", []
        if c is not None:
            chosen = next((e for e in cands if e.assertion.id == c.recommended_assertion_id),
                          None)
            if chosen is not None:
                key = chosen.assertion.value.strip().casefold()
                return chosen.assertion.value, [
                    e for e in cands if e.assertion.value.strip().casefold() == key]
        best = cands[0].assertion.value
        key = best.strip().casefold()
        return best, [e for e in cands if e.assertion.value.strip().casefold() == key]

    def conclusion(self, pid: str, qc: QuestionCoverage, items: list[EvidenceItem]) -> list[str]:
        out = ["**4. Conclusion.**", ""]
        support: list[EvidenceItem] = []
        parts: list[str] = []
        if qc.question is ResearchQuestion.PARENTS:
            seen: dict[str, list[EvidenceItem]] = {}
            for e in items:
                if e.classes.evidence is EvidenceClass.DIRECT:
                    seen.setdefault(e.assertion.value.strip().casefold(), []).append(e)
            for group in seen.values():
                parts.append(f"parent: {_cell(group[0].assertion.value)} "
                             f"{self.mark([e.citation for e in group])}")
                support += group
        else:
            for fname in _CONCLUDE_FIELDS[qc.question]:
                value, group = self._best(items, fname, pid)
                if group:
                    shown = group[0].assertion.date.original if (
                        group[0].assertion.date is not None
                        and group[0].assertion.date.original.endswith("s")) else value
                    parts.append(f"{fname.replace('_', ' ')}: {_cell(shown)} "
                                 f"{self.mark([e.citation for e in group])}")
                    support += group
        if not parts:
            return [*out, "Not established: no evidence answers the question directly.", ""]
        originals = derivations(support)
        conf = combined([d.best.weight for d in originals])
        direct_primary = any(
            e.classes.evidence is EvidenceClass.DIRECT
            and e.classes.information is InformationClass.PRIMARY
            and e.classes.source is not SourceClass.AUTHORED for e in support)
        direct = any(e.classes.evidence is EvidenceClass.DIRECT
                     and e.classes.source is not SourceClass.AUTHORED for e in support)
        tentative = any(c.is_tentative for (p, f), c in self.conflicts.items()
                        if p == pid and f in _CONCLUDE_FIELDS[qc.question])
        if qc.exhaustive and direct_primary and not tentative and not unsearched_sets(qc, items):
            label = "proved"
        elif direct:
            label = "probable"
        else:
            label = "possible"
        self.label = label
        out.append("; ".join(parts) + ".")
        out += ["", f"Confidence: {label} ({conf:.2f}, from {len(originals)} independent "
                    f"source(s)).", ""]
        return out


def write_proofs(graph: CaseGraph, inputs: ProofInputs | None, mark: Mark,
                 raw: CaseGraph | None = None) -> list[str]:
    """Markdown lines of every proof section of the censored `graph` (`raw`: the same case
    before the Censor, for classification only; see the module docstring)."""
    return ProofWriter(graph, inputs, mark, raw).sections()
