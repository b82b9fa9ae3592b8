"""The written proof argument: per person and research question, on the merged view.

`ProofWriter.result` works out, for one person and question, what the Genealogical Proof
Standard asks for: the search (sources with evidence, searches that found nothing, whether
it is reasonably exhaustive by `sleuth.gps.coverage`'s rule), the evidence with its three
Evidence Explained classes and weight (`sleuth.gps.weights`), correlation (copies of one
original counted once, `sleuth.gps.independence`), the conflicts and how the Analyst
resolved them, the structural problems of the family links (`sleuth.gps.conclusions`),
and a conclusion with a confidence and the five-element checklist. The report's seed
narrative and the appendix sections written here read the same `Result`, so the two never
disagree. Every statement carries a note through the caller's `mark`.

Parents are concluded **per person**: the merged person's linked parents, each with the
cited claims that name them from either side, never a list of the names claims happen to
spell (one woman under her maiden and married names is one parent; a child's own name is
never a parent). More than two parents, two mothers, a person among their own relatives
or ancestors, and a tentative conflict each fail "Resolution of conflicting evidence" and
"Soundly reasoned written conclusion".

Confidence: the supporting items' weights combined as independent witnesses,
`1 - Π(1 - wᵢ)`, one item per original. **proved** when the search is reasonably exhaustive
(required record sets searched too), the conclusion rests on direct primary evidence and
nothing is unresolved; **probable** with direct evidence from a record short of that;
**possible** with only compiled works; **not established** without.

Living persons get no proof argument (it would restate what the Censor withholds).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from sleuth.gps.checklist import Check, checklist, row_best, unsearched_sets
from sleuth.gps.conclusions import Family, Problem
from sleuth.gps.coverage import QuestionCoverage, Search, coverage, searches
from sleuth.gps.evidence import EvidenceItem, RawSnapshots, SourceBook, evidence_for, item
from sleuth.gps.independence import derivations
from sleuth.gps.overrides import CitationKey, Override, load_overrides
from sleuth.gps.ranking import combined, value_key
from sleuth.gps.words import class_words, fact_value, field_label, source_name
from sleuth.model.citation import Citation, Locator
from sleuth.model.evidence import EvidenceClass, InformationClass, ResearchQuestion, SourceClass
from sleuth.model.graph import CaseGraph, Conflict
from sleuth.model.records import Snapshot
from sleuth.store import Store
from sleuth.store.queries import merged_into
from sleuth.store.searches import negative_rows, run_entries, snapshots_by_id

Mark = Callable[[list[Citation]], str]

QUESTION_TEXT: dict[ResearchQuestion, str] = {
    ResearchQuestion.BIRTH: "When and where was {name} born?",
    ResearchQuestion.DEATH: "When and where did {name} die?",
    ResearchQuestion.PARENTS: "Who were the parents of {name}?",
    ResearchQuestion.MARRIAGE: "Whom did {name} marry, and when and where?",
}
CONCLUDE_FIELDS: dict[ResearchQuestion, tuple[str, ...]] = {
    ResearchQuestion.BIRTH: ("birth_date", "birth_place"),
    ResearchQuestion.DEATH: ("death_date", "death_place"),
    ResearchQuestion.PARENTS: ("parent",),
    ResearchQuestion.MARRIAGE: ("spouse", "marriage_date", "marriage_place"),
}
QUESTION_ORDER = (ResearchQuestion.PARENTS, ResearchQuestion.BIRTH, ResearchQuestion.MARRIAGE,
                  ResearchQuestion.DEATH)
MULTI_VALUED = ("marriage_date", "marriage_place")
SOURCE_NAMES = {"wikitree": "WikiTree", "wikidata": "Wikidata", "wikidata_sparql": "Wikidata",
                "wikipedia": "Wikipedia", "familysearch": "FamilySearch",
                "find_a_grave": "Find a Grave", "chronicling_america": "Chronicling America",
                "freereg": "FreeREG", "freecen": "FreeCEN"}  # one per marriage: listed, not ranked


@dataclass
class Negative:
    """A stored negative-evidence row, as a citable statement."""

    person_id: str
    question: ResearchQuestion
    statement: str
    citation: Citation
    source: str
    hits: int = 0
    query: str = ""

    def words(self, name: str = "") -> str:
        """The search in words: "A search of Find a Grave (Sarah Giles, born 1884) found one
        result, none of them plausibly Sarah Giles" (the stored count, as recorded)."""
        where = SOURCE_NAMES.get(self.source, self.source.replace("_", " "))
        query = self.query.split(": ", 1)[-1].replace(" b.", ", born ")
        found = "no result" if not self.hits else (
            "one result" if self.hits == 1 else f"{self.hits} results")
        who = f", none of them plausibly {name}" if self.hits and name else ""
        return f"A search of {where} for “{query}” found {found}{who}"


@dataclass
class ProofInputs:
    """What the store knows beyond the CaseGraph: overrides, searches, negative evidence,
    and the research run's seed person and question (None for an ingested case)."""

    overrides: Mapping[CitationKey, Override] = field(default_factory=dict)
    searches: list[Search] | None = None  # None: the research log was not supplied
    negatives: list[Negative] = field(default_factory=list)
    snapshots: dict[str, Snapshot] = field(default_factory=dict)  # search responses
    seed_id: str | None = None  # the seed person (merged view: the canonical id)
    seed_query: dict[str, object] = field(default_factory=dict)  # name, birth_year, place
    generations: int = 4
    run: dict[str, object] = field(default_factory=dict)  # requests, searches, stop reasons


def load_inputs(store: Store, graph: CaseGraph) -> ProofInputs:
    """Read overrides, the search log, stored negative evidence (raw, uncensored) and the
    research run's seed from the research log."""
    rows = negative_rows(store)
    seed: str | None = None
    query: dict[str, Any] = {}
    run: dict[str, object] = {}
    generations = 4
    with store.engine.connect() as conn:
        snaps = snapshots_by_id(conn, {r["snapshot_id"] for r in rows})
        for agent, action, context in run_entries(conn):
            ctx = context or {}
            if action == "plan" and agent == "Lead" and ctx.get("seed") and not query:
                query = dict(ctx["seed"])
                generations = int((ctx.get("budget") or {}).get("target_generations") or 4)
            elif action == "decision" and ctx.get("decision") == "seed_person" and seed is None:
                seed = str(ctx["person_id"])
            elif action == "termination":
                run = {k: v for k, v in ctx.items() if isinstance(v, (int, float, str, list))}
        if seed is not None:
            seed = merged_into(conn).get(seed, seed)
    negatives = [
        Negative(n["person_id"], ResearchQuestion(n["question"]), n["statement"],
                 Citation(snapshot_id=n["snapshot_id"], excerpt=n["excerpt"],
                          locator=Locator(start=n["char_start"], end=n["char_end"])),
                 n["source"], int(n.get("hit_count") or 0), str(n.get("query") or ""))
        for n in rows
    ]
    return ProofInputs(load_overrides(store), searches(store, graph), negatives, snaps,
                       seed, query, generations, run)


@dataclass
class Part:
    """One stated answer: "father: Alfred Stroud", "birth date: 21 July 1884"."""

    label: str
    value: str
    items: list[EvidenceItem]


@dataclass
class Result:
    """Everything the GPS asks of one person and question (see the module docstring)."""

    pid: str
    question: ResearchQuestion
    qc: QuestionCoverage
    items: list[EvidenceItem]
    negatives: list[Negative]
    parts: list[Part]
    conflicts: list[Conflict]
    problems: list[Problem]
    unlinked: list[EvidenceItem]  # parent claims naming nobody linked as a parent
    label: str = "not established"
    confidence: float = 0.0
    originals: int = 0
    checks: list[Check] = field(default_factory=list)

    @property
    def support(self) -> list[EvidenceItem]:
        return [e for p in self.parts for e in p.items]

    @property
    def unresolved(self) -> bool:
        return bool(self.problems) or any(c.is_tentative for c in self.conflicts)


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def _value(e: EvidenceItem) -> str:
    a = e.assertion
    return fact_value(a.field_name, a.value, a.date)


class ProofWriter:
    """Proof results and sections for one (censored) graph, with the report's note marker."""

    def __init__(self, graph: CaseGraph, inputs: ProofInputs | None, mark: Mark,
                 raw: RawSnapshots = None, family: Family | None = None,
                 book: SourceBook | None = None) -> None:
        self.g = graph
        self.raw = raw
        self.inputs = inputs or ProofInputs()
        self.mark = mark
        self.book = book or SourceBook(graph, raw)
        self.family = family or Family(graph)
        self.conflicts: dict[tuple[str, str], Conflict] = {
            (c.person_id, c.field): c for c in graph.conflicts}
        self.problems: dict[str, list[Problem]] = {}
        for pr in self.family.problems():
            for pid in dict.fromkeys(pr.persons[:1] + (pr.persons if pr.kind == "ancestry"
                                                       else [])):
                self.problems.setdefault(pid, []).append(pr)
        self._coverage: dict[str, list[QuestionCoverage]] = {}
        self._results: dict[tuple[str, ResearchQuestion], Result | None] = {}

    # -- which persons ---------------------------------------------------------------------
    def coverage_of(self, pids: list[str]) -> None:
        want = [p for p in pids if p not in self._coverage]
        if not want:
            return
        log = self.inputs.searches or []
        for pc in coverage(None, self.g, overrides=self.inputs.overrides, log=log,
                           raw=self.raw, person_ids=set(want)):  # type: ignore[arg-type]
            self._coverage[pc.person_id] = pc.questions

    def result(self, pid: str, q: ResearchQuestion) -> Result | None:
        """The GPS result for one person and question; None when nothing bears on it."""
        if (pid, q) not in self._results:
            self._results[(pid, q)] = self._result(pid, q)
        return self._results[(pid, q)]

    def _result(self, pid: str, q: ResearchQuestion) -> Result | None:
        self.coverage_of([pid])
        qc = next((x for x in self._coverage.get(pid, []) if x.question is q), None)
        if qc is None:
            return None
        items = evidence_for(self.g, pid, q, self.inputs.overrides, self.book)
        negs = [n for n in self.inputs.negatives if n.person_id == pid and n.question is q]
        fields = CONCLUDE_FIELDS[q]
        conflicts = [c for f in fields if (c := self.conflicts.get((pid, f))) is not None]
        problems = [pr for pr in self.problems.get(pid, []) if q in pr.questions]
        res = Result(pid, q, qc, items, negs, [], conflicts, problems, [])
        if q is ResearchQuestion.PARENTS:
            self._parents(res)
        else:
            self._fields(res)
        if not items and not negs and not res.parts:
            return None
        self._conclude(res)
        return res

    def _link_items(self, pid: str, other: str, kind: str, q: ResearchQuestion,
                    have: dict[CitationKey, EvidenceItem]) -> list[EvidenceItem]:
        out = []
        for a in self.family.link_claims(pid, other, kind):
            for c in a.citations:
                key = (a.id, c.snapshot_id, c.locator.start, c.locator.end)
                e = have.get(key) or item(self.book, pid, a, c, q, self.inputs.overrides,
                                          field_name=kind)
                have[key] = e
                out.append(e)
        return out

    def _parents(self, res: Result) -> None:
        have = {e.key: e for e in res.items}
        for x in self.family.parents(res.pid):
            sex = self.family.sex(x)
            label = "father" if sex == "M" else "mother" if sex == "F" else "parent"
            res.parts.append(Part(label, self.family.name(x),
                                  self._link_items(res.pid, x, "parent", res.question, have)))
        res.items = sorted(have.values(), key=lambda e: (-e.weight, e.assertion.field_name,
                                                         e.assertion.value))
        unlinked = {a.id for a in self.family.unlinked_parents(res.pid)}
        res.unlinked = [e for e in res.items if e.assertion.id in unlinked]

    def _spouses(self, res: Result) -> None:
        have = {e.key: e for e in res.items}
        for x in self.family.spouses(res.pid):
            res.parts.append(Part("spouse", self.family.name(x),
                                  self._link_items(res.pid, x, "spouse", res.question, have)))
        res.items = sorted(have.values(), key=lambda e: (-e.weight, e.assertion.field_name,
                                                         e.assertion.value))

    def _fields(self, res: Result) -> None:
        if res.question is ResearchQuestion.MARRIAGE:
            self._spouses(res)
        for fname in CONCLUDE_FIELDS[res.question]:
            if fname == "spouse":
                continue
            cands = [e for e in res.items if e.assertion.field_name == fname]
            groups: dict[str, list[EvidenceItem]] = {}
            for e in cands:
                key, _ = value_key(fname, e.assertion.value, e.assertion.date)
                groups.setdefault(key, []).append(e)
            if not groups:
                continue
            c = self.conflicts.get((res.pid, fname))
            chosen: list[list[EvidenceItem]]
            if fname in MULTI_VALUED:
                chosen = [groups[k] for k in sorted(groups)][:3]
            else:
                win = None
                if c is not None:
                    win = next((k for k, g in groups.items() if any(
                        e.assertion.id == c.recommended_assertion_id for e in g)), None)
                if win is None:
                    win = min(groups, key=lambda k: (-max(e.weight for e in groups[k]),
                                                     -len(groups[k]), k))
                chosen = [groups[win]]
            for g in chosen:
                res.parts.append(Part(field_label(fname).lower(), _value(g[0]), g))

    def _conclude(self, res: Result) -> None:
        support = res.support
        originals = derivations(support)
        res.originals = len(originals)
        res.confidence = combined([d.best.weight for d in originals])
        direct = [e for e in support if e.classes.evidence is EvidenceClass.DIRECT
                  and e.classes.source is not SourceClass.AUTHORED]
        direct_primary = any(e.classes.information is InformationClass.PRIMARY for e in direct)
        if not support:
            res.label = "not established"
        elif (res.qc.exhaustive and direct_primary and not res.unresolved
              and not unsearched_sets(res.qc, res.items)):
            res.label = "proved"
        elif direct:
            res.label = "probable"
        else:
            res.label = "possible"
        tentative = [c.field for c in res.conflicts if c.is_tentative]
        res.checks = checklist(res.qc, res.items, self.book, tentative,
                               "" if res.label == "not established" else res.label,
                               [p.text for p in res.problems], list(self.rows(res).values()))

    # -- the appendix sections ---------------------------------------------------------------
    def sections(self, pids: list[str]) -> list[str]:
        """Proof sections for these persons (living persons skipped), question by question."""
        out: list[str] = []
        if self.inputs.searches is None:
            out += ["*The research log was not supplied: searches and negative evidence are "
                    "not shown.*", ""]
        living = {p.id for p in self.g.persons if p.is_living}
        want = [p for p in pids if p not in living]
        self.coverage_of(want)
        written = 0
        for pid in want:
            for q in QUESTION_ORDER:
                res = self.result(pid, q)
                if res is not None:
                    out += self.section(res)
                    written += 1
        if not written:
            out += ["No non-living person has evidence on file for a research question.", ""]
        return out

    def section(self, res: Result) -> list[str]:
        name = _cell(self.family.name(res.pid))
        out = [f"### {QUESTION_TEXT[res.question].format(name=name)}", ""]
        out += self.search(res)
        out += self.evidence(res)
        out += self.correlation(res)
        out += ["**4. Conclusion.**", "", self.conclusion_text(res), "",
                f"Confidence: {res.label} ({res.confidence:.2f}, from {res.originals} "
                f"independent source(s)).", ""]
        out += ["**5. GPS checklist.**", "", "| GPS element | Status | What is missing |",
                "|---|---|---|"]
        out += [f"| {ch.element} | {ch.status} | {_cell('; '.join(ch.missing)) or '-'} |"
                for ch in res.checks]
        return [*out, ""]

    def fact(self, e: EvidenceItem) -> tuple[str, str]:
        """(label, value) of an item; a parent's record naming this person as their child
        states that parent."""
        a = e.assertion
        if a.field_name == "child" and e.question is ResearchQuestion.PARENTS:
            return "parent", self.family.name(a.entity_id)
        if a.field_name == "child" and e.question is ResearchQuestion.MARRIAGE:
            return "child", _value(e)
        return field_label(a.field_name).lower(), _value(e)

    def name_of(self, e: EvidenceItem) -> str:
        return source_name(e.info, e.snapshot, e.citation)

    def search(self, res: Result) -> list[str]:
        out = ["**1. Search.**", ""]
        by_source: dict[str, list[EvidenceItem]] = {}
        for e in sorted(res.items, key=lambda e: (self.name_of(e), e.assertion.id)):
            by_source.setdefault(self.name_of(e), []).append(e)
        for src, group in by_source.items():
            out.append(f"- Consulted, with evidence: {_cell(src)}, "
                       f"{class_words(group[0].classes.source, info=group[0].info)} "
                       f"{self.mark([e.citation for e in group])}")
        for n in res.negatives:
            words = n.words(self.family.name(res.pid))
            out.append(f"- Searched, nothing found (negative evidence): {_cell(words)}. "
                       f"{self.mark([n.citation])}")
        failed = [s for s in res.qc.searched if not s.success]
        if failed:
            out.append(f"- {len(failed)} search(es) did not run (blocked or failed); they are "
                       "not evidence either way.")
        verdict = ("reasonably exhaustive" if res.qc.exhaustive
                   else "not yet reasonably exhaustive: " + "; ".join(res.qc.missing))
        out += ["", f"Search verdict: {verdict}."]
        if res.qc.next_sets:
            out.append(f"Record sets to search next: {', '.join(res.qc.next_sets)}.")
        return [*out, ""]

    def rows(self, res: Result) -> dict[tuple[str, str, str], list[EvidenceItem]]:
        """The evidence table's rows: the items of one fact, value and source (its copies
        and repeated claims), which the checklist counts too."""
        rows: dict[tuple[str, str, str], list[EvidenceItem]] = {}
        for e in res.items:
            label, value = self.fact(e)
            rows.setdefault((label, value, self.name_of(e)), []).append(e)
        return rows

    def evidence(self, res: Result) -> list[str]:
        """One row per fact, value and source: copies of one source are one row."""
        out = ["**2. Evidence.**", "",
               "| Fact | Value | Source | Source class | Information | Evidence | Weight | "
               "Notes |", "|---|---|---|---|---|---|---|---|"]
        for (label, value, src), group in self.rows(res).items():
            best = row_best(group)
            c = best.classes
            flag = " (overridden)" if c.overridden else ""
            out.append(f"| {label} | {_cell(value)} | {_cell(src)} | {c.source} | "
                       f"{c.information} | {c.evidence or '-'}{flag} | {best.weight:.3f} | "
                       f"{self.mark([e.citation for e in group])} |")
        return [*out, ""]

    def correlation(self, res: Result) -> list[str]:
        out = ["**3. Correlation and conflicts.**", ""]
        for c in res.conflicts:
            verdict = "tentative, needs corroboration" if c.is_tentative else "resolved"
            out.append(f"- Conflict over the {field_label(c.field).lower()} ({verdict}): "
                       f"{_cell(c.rationale)} All alternatives are kept.")
        for pr in res.problems:
            out.append(f"- Conflict in the family links: {_cell(pr.text)}")
        if res.unlinked:
            names = sorted({_value(e) for e in res.unlinked})
            out.append(f"- Also named as a parent, but not linked to a person in the case: "
                       f"{_cell(', '.join(names))} "
                       f"{self.mark([e.citation for e in res.unlinked])}")
        if not (res.conflicts or res.problems):
            out.append("- No conflicting claims on file for this question.")
        for d in derivations(res.items):
            if d.derived:
                named = {e.citation.snapshot_id: _cell(self.name_of(e)) for e in d.items}
                out.append(f"- Not independent: {d.describe(named)} "
                           f"{self.mark([e.citation for e in d.items])}")
        return [*out, ""]

    def conclusion_text(self, res: Result) -> str:
        if not res.parts:
            return "Not established: no evidence answers the question directly."
        parts = []
        for p in res.parts:
            marks = self.mark([e.citation for e in p.items]) if p.items else \
                "(linked in the case, no citation on file)"
            parts.append(f"{p.label}: {_cell(p.value)} {marks}")
        return "; ".join(parts) + "."


def write_proofs(graph: CaseGraph, inputs: ProofInputs | None, mark: Mark,
                 raw: CaseGraph | None = None, persons: list[str] | None = None) -> list[str]:
    """Markdown lines of the proof sections of the censored `graph` (`raw`: the same case
    before the Censor, for classification only; `persons`: whom, default everyone)."""
    w = ProofWriter(graph, inputs, mark, raw)
    pids = persons if persons is not None else sorted(
        (p.id for p in graph.persons), key=w.family.order)
    return w.sections(pids)
