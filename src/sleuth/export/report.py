"""Markdown research report: self-contained, and every stated fact carries its footnote.

The rule that makes a report signable is "nothing stated without a source": each fact is a
bullet built from one claim, followed by a footnote per citation; claims without a citation
are counted but never stated. Relationship links that no cited claim supports are shown
only as "linked in the case graph (no citation on file)", i.e. as navigation, not as fact.

Footnotes are `[^n]: "excerpt" - source, url/path, chars a-b (p. N), accessed DATE, sha256
first 12`. Identical citations share a number. Whitespace runs inside an excerpt are folded
to one space so a footnote stays on one Markdown line; excerpts the Censor replaced are
shown as their marker, unquoted, so a redaction is never passed off as a quotation.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import replace
from datetime import date
from typing import Any

from sleuth.export.common import (
    REDACTION_MARKERS,
    assertion_index,
    claims,
    conflict_by_assertion,
    display_name,
    human_date,
    label,
    page_of,
    where,
)
from sleuth.gps.proof import ProofInputs, write_proofs
from sleuth.model.citation import Citation
from sleuth.model.graph import CaseGraph, Conflict
from sleuth.model.records import Assertion, Person
from sleuth.privacy.redaction import MENTIONS_LIVING, censor

NO_CITATION = "linked in the case graph (no citation on file)"
_WS = re.compile(r"\s+")


def _cell(text: str) -> str:
    return _WS.sub(" ", text).replace("|", "\\|")


class _Footnotes:
    """Numbered citations, deduplicated by (snapshot, span, excerpt)."""

    def __init__(self, graph: CaseGraph) -> None:
        self.g = graph
        self.numbers: dict[tuple[str, int, int, str], int] = {}
        self.lines: list[str] = []

    def mark(self, citations: list[Citation]) -> str:
        return "".join(f"[^{self.add(c)}]" for c in citations)

    def add(self, c: Citation) -> int:
        key = (c.snapshot_id, c.locator.start, c.locator.end, c.excerpt)
        if key in self.numbers:
            return self.numbers[key]
        n = len(self.lines) + 1
        self.numbers[key] = n
        snap = self.g.snapshots.get(c.snapshot_id)
        excerpt = _WS.sub(" ", c.excerpt).strip()
        quoted = excerpt if c.excerpt in REDACTION_MARKERS else f'"{excerpt}"'
        if snap is None:
            self.lines.append(f"[^{n}]: {quoted} — snapshot {c.snapshot_id} (not in this case)")
            return n
        parts = [snap.source_name]
        if where(snap):
            parts.append(where(snap))
        span = f"chars {c.locator.start}–{c.locator.end}"
        page = page_of(c, snap)
        parts.append(f"{span} (p. {page})" if page is not None else span)
        parts.append(f"accessed {snap.accessed_at.date().isoformat()}")
        parts.append(f"sha256 {snap.sha256[:12]}")
        self.lines.append(f"[^{n}]: {quoted} — " + ", ".join(parts))
        return n


def _with_search_snapshots(graph: CaseGraph, gps: ProofInputs | None) -> CaseGraph:
    """Negative evidence cites search responses no claim cites: censor them with the rest."""
    if gps is None or not gps.snapshots:
        return graph
    extra = {k: v for k, v in gps.snapshots.items() if k not in graph.snapshots}
    return graph.model_copy(update={"snapshots": {**graph.snapshots, **extra}})


def _censored_inputs(g: CaseGraph, gps: ProofInputs | None) -> ProofInputs | None:
    """Negative-evidence excerpts that the Censor masked in their snapshot are withheld."""
    if gps is None:
        return None
    negatives = []
    for n in gps.negatives:
        snap = g.snapshots.get(n.citation.snapshot_id)
        loc = n.citation.locator
        if snap is None or snap.text[loc.start : loc.end] != n.citation.excerpt:
            n = replace(n, citation=n.citation.model_copy(update={"excerpt": MENTIONS_LIVING}))
        negatives.append(n)
    return replace(gps, negatives=negatives)


class _Report:
    def __init__(
        self, graph: CaseGraph, today: date | None, mask_names: bool,
        gps: ProofInputs | None = None, model_usage: Mapping[str, Any] | None = None,
    ) -> None:
        self.model_usage = model_usage
        self.raw = _with_search_snapshots(graph, gps)
        self.g = censor(self.raw, today=today, mask_names=mask_names)
        self.gps = _censored_inputs(self.g, gps)
        self.today = today or date.today()
        self.notes = _Footnotes(self.g)
        self.by_id = {p.id: p for p in self.g.persons}
        self.conflicts = conflict_by_assertion(self.g)
        self.conflict_no = {c.id: i for i, c in enumerate(self.g.conflicts, start=1)}
        self.out: list[str] = []

    def name(self, pid: str) -> str:
        return display_name(self.by_id.get(pid), pid)

    def value(self, a: Assertion) -> str:
        text = _cell(a.value)
        when = human_date(a.date)
        return f"{text} ({when})" if when and when != text else text

    # -- sections -------------------------------------------------------------------
    def header(self) -> None:
        cited = [a for p in self.g.persons for a in claims(self.g, p.id) if a.citations]
        living = sum(1 for p in self.g.persons if p.is_living)
        tentative = sum(1 for c in self.g.conflicts if c.is_tentative)
        self.out += [
            f"# Research report: {self.g.title or 'untitled case'}",
            "",
            "Prepared by sleuth. Every statement of fact below carries a footnote quoting "
            "a stored copy of its source; hypotheses are leads, not facts. Living-person "
            f"rules applied as of {self.today.isoformat()}.",
            "",
            "## Summary",
            "",
            "| Item | Count |",
            "|---|---|",
            f"| Persons | {len(self.g.persons)} ({living} treated as living) |",
            f"| Cited facts | {len(cited)} |",
            f"| Sources (snapshots) | {len(self.g.snapshots)} |",
            f"| Conflicts | {len(self.g.conflicts)} ({tentative} tentative) |",
            f"| Hypotheses (not facts) | {len(self.g.hypotheses)} |",
            f"| Open review items | {self.g.review_open} |",
            "",
        ]

    def relationship_claims(self, p: Person, other: str, kind: str) -> list[Assertion]:
        """Cited relationship claims linking p and other, from either side.

        `kind` is what `other` is to `p`; p's own claim of that field names `other`, and
        other's claim of the inverse field names p.
        """
        inverse = {"parent": "child", "child": "parent", "spouse": "spouse"}[kind]
        found: list[Assertion] = []
        for owner, target, want in ((p.id, other, kind), (other, p.id, inverse)):
            names = {target.casefold(), self.name(target).casefold()}
            for a in claims(self.g, owner):
                if a.field_name != want or not a.citations:
                    continue
                if a.value.strip().casefold() in names:
                    found.append(a)
        return found

    def person(self, p: Person) -> None:
        status = "living — details redacted" if p.is_living else "not living"
        self.out += [f"### {_cell(self.name(p.id))}", "", f"*ID `{p.id}` · {status}*", ""]
        links: list[str] = []
        matched: set[str] = set()
        for kind, ids in (("Parent", p.parents), ("Spouse", p.spouses), ("Child", p.children)):
            for other in sorted(ids):
                found = self.relationship_claims(p, other, kind.lower())
                if found:
                    cites = [c for a in found for c in a.citations]
                    links.append(f"- {kind}: {_cell(self.name(other))} {self.notes.mark(cites)}")
                    matched.update(a.id for a in found)
                else:
                    links.append(f"- {kind}: {_cell(self.name(other))} — {NO_CITATION}")
        if links:
            self.out += ["**Relationships**", "", *links, ""]
        facts: list[str] = []
        uncited = 0
        for a in claims(self.g, p.id):
            if a.id in matched:
                continue
            if not a.citations:
                uncited += 1
                continue
            line = f"- {label(a.field_name)}: {self.value(a)} — {a.status}"
            line += f", confidence {a.confidence:.2f}"
            conflict = self.conflicts.get(a.id)
            if conflict is not None:
                flag = "TENTATIVE, " if conflict.is_tentative else ""
                line += f" ({flag}see Conflict {self.conflict_no[conflict.id]})"
            facts.append(f"{line} {self.notes.mark(a.citations)}")
        if facts:
            self.out += ["**Facts**", "", *facts, ""]
        if uncited:
            self.out += [f"*{uncited} claim(s) without a citation are not stated.*", ""]

    def conflict(self, n: int, c: Conflict, index: dict[str, Assertion]) -> None:
        flag = " — TENTATIVE" if c.is_tentative else ""
        self.out += [
            f"### Conflict {n}: {label(c.field)} of {_cell(self.name(c.person_id))}{flag}",
            "",
            "| Rank | Value | Weight | Evidence | Tier | Confidence | Reason | Sources |",
            "|---|---|---|---|---|---|---|---|",
        ]
        for rc in sorted(c.competing, key=lambda r: r.rank):
            a = index.get(rc.assertion_id)
            cites = self.notes.mark(a.citations) if a is not None else "(claim not in case)"
            self.out.append(
                f"| {rc.rank} | {_cell(rc.value)} | {rc.weight:.3f} | {rc.evidence_type} | "
                f"{rc.tier} | {rc.confidence:.2f} | {_cell(rc.reason)} | {cites} |"
            )
        rec = index.get(c.recommended_assertion_id)
        rec_cites = self.notes.mark(rec.citations) if rec is not None else ""
        verdict = "TENTATIVE — needs corroboration" if c.is_tentative else "settled"
        self.out += [
            "",
            f"**Recommended:** {_cell(c.recommended_value)} {rec_cites} ({verdict}). "
            "All competing values are kept.",
            "",
            f"**Rationale:** {_cell(c.rationale)}",
            "",
        ]
        if c.next_actions:
            self.out += ["**Next actions:**", "", *[f"- {_cell(x)}" for x in c.next_actions], ""]

    def hypotheses(self) -> None:
        self.out += ["## Hypotheses (not facts)", ""]
        if not self.g.hypotheses:
            self.out += ["None recorded.", ""]
            return
        self.out += ["These are research leads generated by the Analyst; none is a fact.", ""]
        for h in self.g.hypotheses:
            about = f" about {_cell(self.name(h.target_person))}" if h.target_person else ""
            marks = self.notes.mark(h.evidence)
            line = (
                f"- *Hypothesis, not a fact* ({h.hypothesis_type}, priority {h.priority:.2f}, "
                f"{h.status}){about}: {_cell(h.statement)} {marks}".rstrip()
            )
            self.out.append(line)
            if h.suggested_queries or h.suggested_sources:
                todo = "; ".join([*h.suggested_queries, *h.suggested_sources])
                self.out.append(f"  - Suggested: {_cell(todo)}")
        self.out.append("")

    def sources(self) -> None:
        self.out += ["## Sources", ""]
        for i, s in enumerate(self.g.snapshots.values(), start=1):
            loc = f", {where(s)}" if where(s) else ""
            held = "" if s.text else " (text withheld: cited only for living persons)"
            self.out.append(
                f"{i}. {_cell(s.source_name)}{loc} — tier {int(s.tier)}, {s.evidence_type}, "
                f"accessed {s.accessed_at.date().isoformat()}, sha256 {s.sha256[:12]}{held}"
            )
        self.out.append("")

    def models(self) -> None:
        """Model calls, tokens and cost per role (issue 9: no silent cost); omitted when no
        model was used."""
        u = self.model_usage
        if not u:
            return
        self.out += [
            "## Model usage", "",
            "Every model claim passed the same firewall as the deterministic extractor; "
            "refusals are in the research log (`llm_rejected`, `llm_skipped`).", "",
            "| Role | Calls | Refused by a limit | Failed | Input tokens | Output tokens | Cost |",
            "|---|---|---|---|---|---|---|",
        ]
        for role, r in sorted(u.get("roles", {}).items()):
            self.out.append(
                f"| {_cell(role)} | {r['calls']} | {r['refused']} | {r['failed']} | "
                f"{r['input_tokens']:,} | {r['output_tokens']:,} | ${r['cost']:.4f} |")
        self.out += [
            f"| **all** | {u['calls']} | | | {u['input_tokens']:,} | {u['output_tokens']:,} "
            f"| ${u['total_cost']:.4f} |", ""]

    def privacy(self) -> None:
        living = [p for p in self.g.persons if p.is_living]
        actions = Counter(r.get("action", "?") for r in self.g.redactions)
        summary = ", ".join(f"{k} × {v}" for k, v in sorted(actions.items())) or "none"
        self.out += [
            "## Privacy note",
            "",
            f"{len(living)} of {len(self.g.persons)} persons are treated as living (when "
            "unsure, living). For them dates are shown as decades, places as region only, "
            "contact and identity data are removed and source excerpts are withheld. "
            f"Redaction actions: {summary}.",
            "",
        ]

    def build(self) -> str:
        self.header()
        self.out += ["## Persons", ""]
        for p in self.g.persons:
            self.person(p)
        self.out += ["## Conflicts", ""]
        index = assertion_index(self.g)
        for n, c in enumerate(self.g.conflicts, start=1):
            self.conflict(n, c, index)
        if not self.g.conflicts:
            self.out += ["None recorded.", ""]
        self.out += write_proofs(self.g, self.gps, self.notes.mark, self.raw)
        self.hypotheses()
        self.out += [
            "## Review queue",
            "",
            f"{self.g.review_open} item(s) await human review.",
            "",
        ]
        self.sources()
        self.models()
        self.privacy()
        if self.notes.lines:
            self.out += ["## Citations", "", *self.notes.lines]
        return "\n".join(self.out).rstrip() + "\n"


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
    the research log's searches and the recorded negative evidence to the proof arguments;
    without it they are written from the graph alone. `model_usage`
    (`sleuth.llm.meter.load_usage(case_dir)`) adds a per-role table of model calls and cost.
    """
    return _Report(graph, today, mask_names, gps, model_usage).build()
