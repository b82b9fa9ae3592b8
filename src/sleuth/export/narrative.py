"""The report's opening: the research question, the answer, and the proof argument, in prose.

Written from the same `sleuth.gps.proof.Result` objects as the appendix's GPS sections, so
the prose and the tables never disagree. Every sentence that states a fact ends with the
notes of the sources that state it; sentences that only reason (the GPS verdict) cite
nothing new. Dates are given as precisely as the evidence knows them.
"""

from __future__ import annotations

from sleuth.gps.conclusions import Family
from sleuth.gps.independence import derivations
from sleuth.gps.proof import QUESTION_ORDER, ProofInputs, ProofWriter, Result
from sleuth.gps.words import class_words, count_words, source_name
from sleuth.model.evidence import ResearchQuestion, SourceClass

_WHAT = {ResearchQuestion.BIRTH: "birth", ResearchQuestion.PARENTS: "parents",
         ResearchQuestion.MARRIAGE: "marriage", ResearchQuestion.DEATH: "death"}


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def when(words: str) -> str:
    """"21 July 1884" -> "on 21 July 1884"; "1884" -> "in 1884"; "about 1850" as is."""
    if words[:1].isdigit() and any(ch.isalpha() for ch in words) and "–" not in words:
        return f"on {words}" if words.split()[0].isdigit() and len(words.split()) == 3 \
            else f"in {words}"
    if words.startswith(("about", "before", "after", "between", "from")):
        return words
    return f"in {words}"


def _and(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _sources(names: list[str]) -> str:
    """"the WikiTree profiles Garside-24, Stroud-16 and Stroud-45"; at most four named."""
    shown = names[:4] + ([f"{len(names) - 4} more"] if len(names) > 4 else [])
    head = "the WikiTree profile "
    if all(n.startswith(head) for n in names):
        return "the WikiTree profiles " + _and([n.removeprefix(head) for n in shown])
    return _and(shown)


class Narrative:
    """The seed's question, answer and proof argument."""

    def __init__(self, proof: ProofWriter, family: Family, inputs: ProofInputs, seed: str,
                 conflict_no: dict[str, list[int]]) -> None:
        self.proof = proof
        self.f = family
        self.inputs = inputs
        self.seed = seed
        self.conflict_no = conflict_no  # person id -> numbers of conflicts about them
        self.results: dict[ResearchQuestion, Result] = {}
        for q in QUESTION_ORDER:
            r = proof.result(seed, q)
            if r is not None:
                self.results[q] = r
        sex = family.sex(seed)
        self.she, self.her = ("He", "his") if sex == "M" else ("She", "her") if sex == "F" \
            else ("They", "their")
        self.child = "son" if sex == "M" else "daughter" if sex == "F" else "child"

    def mark(self, r: Result, label: str | None = None) -> str:
        items = [e for p in r.parts if label is None or p.label == label for e in p.items]
        return self.proof.mark([e.citation for e in items]) if items else ""

    # -- the question -------------------------------------------------------------------
    def question(self) -> list[str]:
        q = self.inputs.seed_query
        name = str(q.get("name") or self.f.name(self.seed))
        born = []
        if q.get("birth_year"):
            born.append(f"in {q['birth_year']}")
        if q.get("place"):
            born.append(f"in {q['place']}")
        about = f", born {' '.join(born)}," if born else ""
        gens = self.inputs.generations
        return ["## Research question", "",
                f"Who were the parents and earlier ancestors of {_cell(name)}{about} and what "
                f"do the records say of {self.her.lower()} own life? The research aimed at "
                f"{count_words(gens, 'generation')} of ancestors.", ""]

    # -- the answer ---------------------------------------------------------------------
    def _value(self, r: Result | None, label: str) -> str:
        if r is None:
            return ""
        return next((p.value for p in r.parts if p.label == label), "")

    def answer(self, found: int, sought: int) -> list[str]:
        name = _cell(self.f.name(self.seed))
        out: list[str] = []
        b = self.results.get(ResearchQuestion.BIRTH)
        if b is not None and b.parts:
            date, place = self._value(b, "birth"), self._value(b, "birthplace")
            bits = [when(date) if date else "", f"in {place}" if place else ""]
            out.append(f"{name} was born {' '.join(x for x in bits if x)}.{self.mark(b)}")
        else:
            out.append(f"No evidence of when or where {name} was born was found.")
        p = self.results.get(ResearchQuestion.PARENTS)
        if p is not None and p.parts:
            names = [_cell(x.value) for x in p.parts]
            if len(names) > 2:
                nos = ", ".join(str(n) for n in self.conflict_no.get(self.seed, []))
                out.append(f"The case links {self.her} to {count_words(len(names), 'parent')} "
                           f"({_and(names)}), which cannot all be right; see Conflict {nos}."
                           f"{self.mark(p)}")
            else:
                out.append(f"{self.she} was the {self.child} of {_and(names)}.{self.mark(p)}")
        else:
            out.append(f"{self.her.capitalize()} parents are not yet identified.")
        m = self.results.get(ResearchQuestion.MARRIAGE)
        if m is not None and m.parts:
            spouses = [_cell(x.value) for x in m.parts if x.label == "spouse"]
            date, place = self._value(m, "marriage"), self._value(m, "place of marriage")
            bits = [f"married {_and(spouses)}" if spouses else "married",
                    when(date) if date else "", f"in {place}" if place else ""]
            out.append(f"{self.she} {' '.join(x for x in bits if x)}.{self.mark(m)}")
        d = self.results.get(ResearchQuestion.DEATH)
        if d is not None and d.parts:
            date, place = self._value(d, "death"), self._value(d, "place of death")
            bits = [when(date) if date else "", f"in {place}" if place else ""]
            out.append(f"{self.she} died {' '.join(x for x in bits if x)}.{self.mark(d)}")
        gens = self.inputs.generations
        out.append(f"The research identified {found} of the {sought} ancestors sought in "
                   f"{count_words(gens, 'generation')} (see Pedigree).")
        lines = ["## Answer", "", " ".join(out), "",
                 "| Question | Answer | Conclusion | GPS elements not yet met |",
                 "|---|---|---|---|"]
        for q in QUESTION_ORDER:
            r = self.results.get(q)
            if r is None:
                continue
            answer = "; ".join(f"{x.label} {x.value}" for x in r.parts) or "not established"
            missing = [c.element for c in r.checks if not c.passed]
            lines.append(f"| {_WHAT[q].capitalize()} | {_cell(answer)} | {r.label} | "
                         f"{_cell(', '.join(missing)) or 'none'} |")
        return [*lines, ""]

    # -- the proof argument --------------------------------------------------------------
    def argument(self) -> list[str]:
        out = ["## Proof argument", "",
               "For each question: what answers it, how independent and how good that "
               "evidence is (Evidence Explained classes), what disagrees and how it was "
               "resolved, what was searched without result, and how far the conclusion meets "
               "the Genealogical Proof Standard. The full tables are in Appendix B.", ""]
        for q in QUESTION_ORDER:
            r = self.results.get(q)
            if r is None:
                continue
            out += [f"**{_WHAT[q].capitalize()}.** " + " ".join(self.paragraph(r)), ""]
        return out

    def paragraph(self, r: Result) -> list[str]:
        s: list[str] = []
        groups = derivations(r.support)
        if groups:
            parts = []
            for g in groups:
                best = g.best
                names = sorted({source_name(e.info, e.snapshot, e.citation) for e in g.items})
                name = source_name(best.info, best.snapshot, best.citation)
                copies = len(g.snapshots)
                extra = f" ({copies} copies of one source, counted once)" if copies > 1 else ""
                kind = class_words(best.classes.source, best.classes.information, best.info)
                if len(names) > 1:
                    name = _sources(names)
                    if all(e.classes.source is SourceClass.AUTHORED for e in g.items):
                        kind, extra = ("user-contributed trees that copy one another, "
                                       "informant unknown", " (counted as one source)")
                    else:
                        extra = " (copies of one record, counted once)"
                parts.append(f"{name}, {kind}{extra}"
                             f"{self.proof.mark([e.citation for e in g.items])}")
            answer = "; ".join(f"{p.label} {p.value}" for p in r.parts)
            s.append(f"The answer ({_cell(answer)}) rests on "
                     f"{count_words(len(groups), 'independent source')}: {'; '.join(parts)}.")
        else:
            s.append("No cited evidence answers this question yet.")
        missing = [p for p in r.parts if not p.items]
        if missing:
            s.append(f"The link to {_and([p.value for p in missing])} is in the case but no "
                     "record on file states it.")
        for c in r.conflicts:
            s.append(c.rationale)
        for pr in r.problems:
            s.append(pr.text)
        if r.unlinked:
            names = sorted({e.assertion.value for e in r.unlinked})
            s.append(f"Also named as a parent but not linked to anyone in the case: "
                     f"{_and(names)}.{self.proof.mark([e.citation for e in r.unlinked])}")
        for n in r.negatives:
            s.append(f"{n.words(self.f.name(self.seed))}.{self.proof.mark([n.citation])}")
        missing_checks = [c for c in r.checks if not c.passed]
        verdict = f"By the Genealogical Proof Standard the conclusion is {r.label}"
        if missing_checks:
            todo = "; ".join(f"{c.element.lower()}: {'; '.join(c.missing)}"
                             for c in missing_checks)
            verdict += f"; not yet met: {todo}"
        s.append(verdict + ".")
        if r.qc.next_sets and not r.qc.exhaustive:
            s.append(f"To search next: {', '.join(r.qc.next_sets[:4])}.")
        return s
