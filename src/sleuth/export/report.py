"""Markdown research report a client can read, and sign: every fact carries its note.

Order (what a client asks first comes first): the research question, the answer and the
proof argument for the research subject in prose (`export.narrative`); a summary; the
pedigree (the subject and the ancestors found); the other persons of the case; every
conflict (the Analyst's value conflicts and the structural problems of the family links,
`gps.conclusions`, counted once in the summary); what to search next; the privacy note;
then the appendices: A the words each note quotes, B the GPS proof arguments, C the source
list, D the research log in figures. A case built by ingesting files (no research run)
starts at the summary.

Each person's evidence is one compact table: one row per fact and value with every source
that states it (copies of one source are one note, `export.notes`), the kind of evidence in
words and, where the fact is disputed, whether this value is the preferred one. Claims
without a citation are counted, never stated; a family link no cited claim supports is
shown as "no citation on file". No internal ids, status words or code names appear before
the appendices; dates are as precise as the evidence (`gps.words.date_words`). Everything
is read from the Censor's copy of the case (`sleuth.privacy`): living persons are shown
with decades, regions and withheld excerpts.

The whole report is built from indexes made once per case (`gps.conclusions.Family`, the
notes, the source book), so its cost is linear in the case.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import replace
from datetime import date
from typing import Any

from sleuth.export.common import display_name
from sleuth.export.narrative import Narrative
from sleuth.export.notes import Notes
from sleuth.export.sections import PersonTables, conflict_lines, leads
from sleuth.extract.person_names import display_case
from sleuth.gps.citations import format_note
from sleuth.gps.conclusions import Family, Problem, relationship
from sleuth.gps.evidence import SourceBook
from sleuth.gps.proof import SOURCE_NAMES, ProofInputs, ProofWriter
from sleuth.gps.words import date_words
from sleuth.model.dates import GenDate
from sleuth.model.graph import CaseGraph, Conflict
from sleuth.model.records import Snapshot
from sleuth.privacy.redaction import MENTIONS_LIVING, censor
from sleuth.privacy.view import CensoredGraph

_WS = re.compile(r"\s+")
_ACTIONS = {  # the Censor's log, in words
    "classified_living": "persons treated as living",
    "coarsened_to_decade": "dates shown as a decade",
    "truncated_place": "places cut to their region",
    "name_masked": "names masked",
    "removed": "contact or identity details removed",
    "pii_scrubbed": "personal data masked in text",
    "excerpt_redacted": "quotations withheld",
    "conflict_dropped": "conflicts over withheld details left out",
    "snapshot_text_dropped": "source texts withheld",
}


# The loop's stop conditions (`loop.stop`), as the research log's last line says them.
STOP_WORDS = {
    "budget_requests": "the request budget was spent",
    "budget_wall_time": "the time allowed ran out",
    "budget_llm_cost": "the model-cost budget was spent",
    "confidence_achieved": "the subject's birth reached the target confidence and the "
                           "pedigree the target depth",
    "diminishing_returns": "the last searches had stopped finding new facts (diminishing "
                           "returns)",
    "frontier_exhausted": "every planned search had been made",
    "max_iterations": "the step limit was reached",
    "gps_satisfied": "every claim met the evidence standard asked for",
    "user_interrupt": "the user interrupted it",
}


def _cell(text: str) -> str:
    return _WS.sub(" ", text).strip().replace("|", "\\|")


def _day(d: date) -> GenDate:
    return GenDate.from_parts(d.year, d.month, d.day)


def _with_search_snapshots(graph: CaseGraph, gps: ProofInputs | None) -> CaseGraph:
    """Negative evidence cites search responses no claim cites: censor them with the rest."""
    if gps is None or not gps.snapshots:
        return graph
    extra = {k: v for k, v in gps.snapshots.items() if k not in graph.snapshots}
    if not extra:
        return graph
    return graph.model_copy(update={"snapshots": {**graph.snapshots, **extra}})


def _censored_inputs(g: CaseGraph, gps: ProofInputs | None) -> ProofInputs:
    """Negative-evidence excerpts that the Censor masked in their snapshot are withheld."""
    if gps is None:
        return ProofInputs()
    negatives = []
    for n in gps.negatives:
        snap = g.snapshots.get(n.citation.snapshot_id)
        loc = n.citation.locator
        if snap is None or snap.text[loc.start : loc.end] != n.citation.excerpt:
            n = replace(n, citation=n.citation.model_copy(update={"excerpt": MENTIONS_LIVING}))
        negatives.append(n)
    return replace(gps, negatives=negatives)


class _Report:
    """The report of one censored view of a case. Every word it prints is read from `view`;
    `raw_snapshots` (the stored snapshots before the Censor) are read only to classify
    the sources (`SourceBook`), so no uncensored person or claim need be held."""

    # the uncensored case, where the report was made from one (`of_case`)
    raw: CaseGraph | None = None

    def __init__(
        self, view: CensoredGraph, raw_snapshots: Mapping[str, Snapshot], today: date | None,
        gps: ProofInputs | None = None, model_usage: Mapping[str, Any] | None = None,
    ) -> None:
        self.model_usage = model_usage
        self.g = view
        self.gps = _censored_inputs(self.g, gps)
        self.supplied = gps is not None
        self.today = today or date.today()
        self.book = SourceBook(self.g, raw_snapshots)
        self.family = Family(self.g)
        self.notes = Notes(self.g, self.book)
        self.notes.searches = {(n.citation.snapshot_id, n.citation.locator.start,
                                n.citation.locator.end) for n in self.gps.negatives}
        self.proof = ProofWriter(self.g, self.gps, self.notes.mark, raw_snapshots,
                                 self.family, self.book)
        self.seed = self.gps.seed_id if self.gps.seed_id in self.family.by_id else None
        self.pedigree = (self.family.pedigree(self.seed, self.gps.generations)
                         if self.seed else [])
        self.conflicts = self._number_conflicts()
        self.tables = PersonTables(self.g, self.family, self.book, self.notes,
                                   self.conflict_refs)
        self.out: list[str] = []

    @classmethod
    def of_case(cls, graph: CaseGraph, today: date | None, mask_names: bool,
                gps: ProofInputs | None = None,
                model_usage: Mapping[str, Any] | None = None) -> _Report:
        """The report of an uncensored case: censored here, with the search responses
        negative evidence cites (`raw` keeps the case, for `to_html`'s source texts)."""
        raw = _with_search_snapshots(graph, gps)
        report = cls(censor(raw, today=today, mask_names=mask_names), raw.snapshots, today,
                     gps, model_usage)
        report.raw = raw
        return report

    # -- conflicts, numbered once ------------------------------------------------------
    def _number_conflicts(self) -> list[Conflict | Problem]:
        """Value conflicts and structural problems, by person name then field, numbered."""
        order = self.family.order
        items: list[tuple[tuple[str, ...], int, str, Conflict | Problem]] = []
        for c in self.g.conflicts:
            items.append((order(c.person_id), 1, c.field, c))
        for pr in self.family.problems():
            items.append((order(pr.person_id), 0, pr.kind + pr.text, pr))
        items.sort(key=lambda x: (x[0], x[1], x[2]))
        self.conflict_refs: dict[tuple[str, str], int] = {}  # (person, field or kind) -> n
        self.about: dict[str, list[int]] = {}
        out: list[Conflict | Problem] = []
        for n, (_, _, _, x) in enumerate(items, start=1):
            out.append(x)
            if isinstance(x, Conflict):
                self.conflict_refs[(x.person_id, x.field)] = n
                self.about.setdefault(x.person_id, []).append(n)
            else:
                for pid in x.persons:
                    self.conflict_refs.setdefault((pid, "family"), n)
                    self.about.setdefault(pid, []).append(n)
        return out

    def name(self, pid: str) -> str:
        # as the proof names them (`Family.name`): a register's capitals read as a name
        return display_case(display_name(self.family.by_id.get(pid), "an unknown person"))

    # -- sections ------------------------------------------------------------------------
    def intro(self) -> list[str]:
        return [
            f"# Research report: {_cell(self.g.title or 'untitled case')}",
            "",
            f"Prepared by sleuth on {date_words(_day(self.today))}. Every statement of fact below "
            "carries a numbered note citing its source; the exact words each note relies on, "
            "with where to find them in the stored copy, are in Appendix A. Leads and "
            "hypotheses are labelled as such and are not facts. Persons who may be living "
            f"are shown without exact dates or places (rules applied as of "
            f"{date_words(_day(self.today))}).",
            "",
        ]

    def counts(self) -> tuple[int, int]:
        """The facts stated and the sources cited in the whole report (rendered first)."""
        return self.tables.rows, len(self.notes.order)

    def summary(self) -> list[str]:
        living = sum(1 for p in self.g.persons if p.is_living)
        values = sum(1 for c in self.conflicts if isinstance(c, Conflict))
        tentative = sum(1 for c in self.conflicts if isinstance(c, Conflict) and c.is_tentative)
        family = len(self.conflicts) - values
        pending = sum(1 for h in self.g.hypotheses if h.status in ("Pending", "InProgress"))
        rows, cited = self.counts()
        return [
            "## Summary", "",
            "| Item | Count |", "|---|---|",
            f"| Persons | {len(self.g.persons)} ({living} treated as living) |",
            f"| Facts stated (one per fact and value) | {rows} |",
            f"| Sources cited | {cited} (from "
            f"{len(self.g.snapshots)} stored copies) |",
            f"| Conflicts | {len(self.conflicts)} ({values} between sources' values, "
            f"{tentative} of them tentative; {family} in the family links) |",
            f"| Open leads (hypotheses, not facts) | {pending} |",
            f"| Open review items | {self.g.review_open} |",
            "",
        ]

    def pedigree_table(self) -> list[str]:
        out = ["## Pedigree", "",
               "The research subject and the ancestors found, by generation (numbers: "
               "father 2n, mother 2n+1).", "",
               "| No. | Relationship | Name | Life |", "|---|---|---|---|"]
        for num, gen, pid in self.pedigree:
            p = self.family.by_id[pid]
            rel = relationship(num, gen, self.family.sex(pid))
            out.append(f"| {num or '-'} | {rel} | {_cell(self.name(pid))} | "
                       f"{self.tables.life(p) or '-'} |")
        return [*out, ""]

    def persons(self) -> list[str]:
        out: list[str] = []
        shown: set[str] = set()
        if self.seed:
            out += self.pedigree_table()
            for num, gen, pid in self.pedigree:
                rel = relationship(num, gen, self.family.sex(pid))
                out += self.tables.person(pid, rel)
                shown.add(pid)
            out += ["## Other persons in the case", "",
                    "Relatives and others the sources named, who are not in the pedigree "
                    "above.", ""]
        else:
            out += ["## Persons", ""]
        rest = sorted((p.id for p in self.g.persons if p.id not in shown),
                      key=self.family.order)
        for pid in rest:
            out += self.tables.person(pid, "")
        if not rest:
            out += ["None.", ""]
        return out

    def conflict_section(self) -> list[str]:
        out = ["## Conflicts", ""]
        if not self.conflicts:
            return [*out, "None recorded.", ""]
        out += [f"{len(self.conflicts)} conflict(s). Every competing value is kept; a "
                "preferred value is a reasoned choice, and a tentative one needs another "
                "record.", ""]
        for n, c in enumerate(self.conflicts, start=1):
            out += conflict_lines(n, c, self.family, self.tables, self.notes)
        return out

    def next_steps(self) -> list[str]:
        out = ["## What to search next", ""]
        if self.seed:
            todo = []
            for _, _, pid in self.pedigree:
                if self.family.by_id[pid].is_living:
                    continue
                open_q = [(q, r) for q, r in self.tables.results(self.proof, pid)
                          if r.label != "proved" and r.qc.next_sets]
                if not open_q:
                    continue
                sets = list(dict.fromkeys(s for _, r in open_q for s in r.qc.next_sets))
                asked = ", ".join(q.value for q, _ in open_q)
                todo.append(f"- {_cell(self.name(pid))} ({asked}): {_cell('; '.join(sets[:4]))}")
            if todo:
                out += ["Record sets that could settle the pedigree's open questions, person "
                        "by person (the questions not yet proved in brackets):", "", *todo, ""]
        tentative = [(n, c) for n, c in enumerate(self.conflicts, start=1)
                     if isinstance(c, Conflict) and c.is_tentative]
        if tentative:
            out += ["To settle the tentative conflicts:", ""]
            out += [f"- Conflict {n}: {_cell('; '.join(c.next_actions))}" for n, c in tentative]
            out.append("")
        out += leads(self.g, self.family)
        out += [f"{self.g.review_open} item(s) await human review (uncertain readings and "
                "possible duplicates the engine would not decide alone).", ""]
        return out

    def redaction_log(self) -> list[dict[str, Any]]:
        return self.g.redactions

    def privacy(self) -> list[str]:
        living = [p for p in self.g.persons if p.is_living]
        actions = Counter(r.get("action", "?") for r in self.redaction_log())
        summary = "; ".join(f"{_ACTIONS.get(k, k.replace('_', ' '))}: {v}"
                            for k, v in sorted(actions.items())) or "none"
        return [
            "## Privacy note", "",
            f"{len(living)} of {len(self.g.persons)} persons are treated as living (when "
            "unsure, living). For them dates are shown as decades, places as region only, "
            "contact and identity data are removed and source excerpts are withheld. "
            f"Redaction actions: {summary}.", ""]

    # -- appendices ----------------------------------------------------------------------
    def appendix_proofs(self) -> list[str]:
        out = ["## Appendix B: Proof arguments (Genealogical Proof Standard)", "",
               "Per person and research question: the search (with negative results), the "
               "evidence with its Evidence Explained classes (source: original / derivative / "
               "authored; information: primary / secondary / undetermined; evidence: direct / "
               "indirect / negative) and weight, correlation and conflicts, the conclusion "
               "and the five-element GPS checklist. Living persons get no proof argument.", ""]
        if self.seed:
            pids = [pid for _, _, pid in self.pedigree]
        else:
            pids = self.tables.with_records()
            skipped = sum(1 for p in self.g.persons if not p.is_living) - len(pids)
            if skipped:
                out += [f"{skipped} person(s) known only from compiled works (user trees, "
                        "GEDCOM files) get no proof argument: a compiled work is a lead to "
                        "the records, not proof. Their facts are in the tables above.", ""]
        return out + self.proof.sections(pids)

    def source_entries(self) -> set[str]:
        """Appendix C's entries: one per source the report cites."""
        entries: set[str] = set()
        for n in self.notes.order:
            c = n.citations[0] if n.citations else None
            if c is None:
                continue
            snap = self.g.snapshots.get(c.snapshot_id)
            entries.add(format_note(self.book.info(c.snapshot_id), snap, c).source_list)
        return entries

    def appendix_sources(self) -> list[str]:
        entries = self.source_entries()
        out = ["## Appendix C: Sources", ""]
        out += [f"- {_cell(e)}" for e in sorted(entries, key=str.casefold)] or ["None."]
        return [*out, ""]

    def appendix_log(self) -> list[str]:
        out = ["## Appendix D: Research log", ""]
        log = self.gps.searches
        if log is None or not self.supplied:
            out += ["The research log was not supplied with this report.", ""]
        elif not log:
            out += ["No searches were made: the case was built from files.", ""]
        else:
            by: dict[str, list[int]] = {}
            for s in log:
                row = by.setdefault(s.source or "?", [0, 0, 0, 0])
                row[0] += 1
                row[1] += int(s.success)
                row[2] += int(s.negative)
                row[3] += s.hits or 0
            out += ["| Source | Requests | Answered | Searches with no match | Results read |",
                    "|---|---|---|---|---|"]
            out += [f"| {_cell(SOURCE_NAMES.get(k, k))} | {a} | {b} | {c} | {d} |"
                    for k, (a, b, c, d) in sorted(by.items())]
            out.append("")
        run = self.gps.run
        if isinstance(reasons := run.get("reasons"), list) and reasons:
            why = "; ".join(STOP_WORDS.get(str(r), str(r)) for r in reasons)
            out += [f"The research stopped because {_cell(why)}.", ""]
        out += self.models()
        return out

    def models(self) -> list[str]:
        """Model calls, tokens and cost per role (issue 9: no silent cost); omitted when no
        model was used."""
        u = self.model_usage
        if not u:
            return []
        out = [
            "### Model usage", "",
            "Every model claim passed the same checks as the deterministic extractor; "
            "refusals are in the research log.", "",
            "| Role | Calls | Refused by a limit | Failed | Input tokens | Output tokens | Cost |",
            "|---|---|---|---|---|---|---|",
        ]
        for role, r in sorted(u.get("roles", {}).items()):
            out.append(
                f"| {_cell(role)} | {r['calls']} | {r['refused']} | {r['failed']} | "
                f"{r['input_tokens']:,} | {r['output_tokens']:,} | ${r['cost']:.4f} |")
        out += [f"| **all** | {u['calls']} | | | {u['input_tokens']:,} | "
                f"{u['output_tokens']:,} | ${u['total_cost']:.4f} |", ""]
        return out

    def narrative(self) -> list[str]:
        """The research question, the answer and the proof argument (a research run's
        report; none for a case built from files)."""
        if not self.seed:
            return []
        found = sum(1 for _, gen, _ in self.pedigree if gen > 0)
        sought = 2 ** (self.gps.generations + 1) - 2
        story = Narrative(self.proof, self.family, self.gps, self.seed, self.about)
        return story.question() + story.answer(found, sought) + story.argument()

    def build(self) -> str:
        head = self.intro()
        body = self.narrative()
        people = self.persons()
        after = self.conflict_section() + self.next_steps() + self.privacy()
        appendix = self.appendix_proofs()
        quotes = ["## Appendix A: Quoted evidence", "",
                  "For each note: the source's stored copies (retrieved when, with their "
                  "sha256 digest), and the exact words quoted from them with their character "
                  "positions, so each can be checked against the copy.", "",
                  *self.notes.appendix(), ""]
        tail = self.appendix_sources() + self.appendix_log()
        notes = ["## Notes", "", *self.notes.definitions()] if self.notes.order else []
        out = [*head, *body, *self.summary(), *people, *after, *quotes, *appendix, *tail,
               *notes]
        return "\n".join(out).rstrip() + "\n"


def to_report(
    graph: CaseGraph,
    *,
    today: date | None = None,
    mask_names: bool = False,
    gps: ProofInputs | None = None,
    model_usage: Mapping[str, Any] | None = None,
) -> str:
    """The case as a Markdown research report, censored first. See the module docstring.

    `gps` (`sleuth.gps.proof.load_inputs(store, graph)`) adds the store's class overrides,
    the research log's searches, the recorded negative evidence and the research run's
    subject; without it the report covers the persons of the case without a research
    question. `model_usage` (`sleuth.llm.meter.load_usage(case_dir)`) adds a per-role table
    of model calls and cost.
    """
    return _Report.of_case(graph, today, mask_names, gps, model_usage).build()


def report_of_view(view: CensoredGraph, raw_snapshots: Mapping[str, Snapshot],
                   today: date | None = None) -> str:
    """`to_report` of a case the caller has censored already (`view`, `censor`'s copy) and
    the case's stored snapshots: `sleuth privacy report` holds the view and can let the
    uncensored case go. Without research inputs, as `privacy report` renders it."""
    return _Report(view, raw_snapshots, today).build()
