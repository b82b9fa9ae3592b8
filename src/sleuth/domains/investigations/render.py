"""The case's Markdown files, rewritten whole from the state, the extraction and the checks.

`summary.md` is the deliverable: self-contained, written as one piece (never appended to),
every sentence one VERIFIED statement with a footnote naming its source id and quoting the
captured text verbatim. Nothing is written that the Censor would not show: living private
persons are masked (`protect`), PII scrubbed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Any

from sleuth.domains.investigations.extraction import Extraction
from sleuth.domains.investigations.general import DIFFER, SECTION
from sleuth.domains.investigations.model import VERIFIED, Check, Question, Statement
from sleuth.domains.investigations.protect import mask, mask_strict, quote
from sleuth.domains.investigations.state import CaseState, shown_path
from sleuth.domains.investigations.statements import SECTIONS

FORBIDDEN_PHRASES = ("Additionally", "We also found", "Further investigation revealed")
NO_STATEMENT = "<!-- no statement has been verified yet -->"


@dataclass
class View:
    state: CaseState
    extraction: Extraction
    statements: list[Statement]
    checks: dict[str, Check]
    protected: dict[str, dict[str, Any]]
    asks: list[str]
    withheld: list[str] = field(default_factory=list)  # statement ids the legal review held

    def title(self, sid: str) -> str:
        rec = self.state.source(sid)
        return rec.title if rec and rec.title else sid

    def cite(self, sid: str, page: int | None, label: str, text: str) -> str:
        where = f", p. {label} (page {page} of the file)" if page else ""
        return f"{sid}, {self.title(sid)}{where}: “{quote(text, self.protected)}”"

    def summary_statements(self) -> list[Statement]:
        return [s for s in self.statements if self.checks.get(s.id) is not None
                and self.checks[s.id].verdict == VERIFIED and s.id not in self.withheld]


def dated(sort: str) -> str:
    """"13 November 1916" for a statement sorted by its source's day ("1916-11-13|…"), ""
    for an undated one."""
    try:
        day = date.fromisoformat(sort.split("|", 1)[0])
    except ValueError:
        return ""
    return f"{day.day} {day:%B} {day.year}"


def summary(v: View) -> str:
    shown = v.summary_statements()
    order = [SECTIONS[a] for a in v.asks] + [*SECTIONS.values(), SECTION, DIFFER]
    lines = [f"# {mask(v.state.topic, v.protected)}", ""]
    notes: list[str] = []
    for section in dict.fromkeys(order):
        part = sorted((s for s in shown if s.section == section), key=lambda s: s.sort)
        if not part:
            continue
        lines += [f"## {section}", ""]
        day = ""
        for s in part:
            if section == SECTION and (when := dated(s.sort)) and when != day:
                day = when  # what the papers reported, in order: a heading for each day
                lines += [f"### {day}", ""]
            notes.append(f"[^{len(notes) + 1}]: " + v.cite(s.source_id, s.page, s.page_label,
                                                           s.quote))
            lines += [f"{mask(s.text, v.protected)}[^{len(notes)}]", ""]
    if not notes:
        lines += [NO_STATEMENT, ""]
    return "\n".join(lines + notes) + "\n"


def sources_md(v: View) -> str:
    lines = ["# Sources", "", "Every source the investigation captured or tried to. Research "
             "leads (`research-leads/`) are not sources and are never cited.", "",
             "| ID | Title | File | Captured | Status | Pages | SHA-256 | Evidence |",
             "|---|---|---|---|---|---|---|---|"]
    for s in v.state.sources:
        status = "captured" if s.status == "captured" else f"{s.status.upper()}: {s.error}"
        if s.status == "captured" and s.rendering:  # the PDF/PNG capture, or why none
            status += f"; {s.rendering}"
        if s.id in v.state.private_sources:  # `publish`: its bytes stay out of git
            status += "; withheld from the repository: names a living private person"
        ev = f"evidence/{s.id}/" if s.status == "captured" else "—"
        lines.append(f"| {s.id} | {s.title or '—'} | `{shown_path(s.path, v.state.corpus)}` | "
                     f"{s.captured_at} | "
                     f"{status.replace('|', '/')} | {s.pages or '—'} | "
                     f"{s.sha256[:16] or '—'} | {ev} |")
    return "\n".join(lines) + "\n"


def _mention(v: View, m: dict[str, Any]) -> str:
    role = f"{m['role']} (“{m['role_text']}”) " if m.get("role") else ""
    return f"- {role}— {v.cite(m['source'], m['page'], m['page_label'], m['quote'])}"


def _in_question(p: dict[str, Any], spans: list[tuple[str, int, int]], asked: set[str]
                 ) -> bool:
    """A person a statement's quote (`spans`) names, or whose surname the question asks."""
    quoted = any(m["source"] == sid and m["start"] < end and start < m["end"]
                 for m in p["mentions"] for sid, start, end in spans)
    return quoted or (p["name"].split() or [""])[-1].lower() in asked


def people_md(v: View) -> str:
    """Everyone the extraction found for an inquiry's case; for a general question only the
    people its statements quote or it names, and every protected one, masked (a page of 1916
    news names hundreds who have nothing to do with it: they are counted by source)."""
    lines = ["# People", ""]
    people, others = v.extraction.people, []
    if not v.extraction.committees:  # a protected person is always listed, as protected
        spans = [(s.source_id, s.start, s.end) for s in v.summary_statements()]
        asked = set(v.state.topic.lower().split())
        keep = [p for p in people if p["key"] in v.protected or _in_question(p, spans, asked)]
        others = [p for p in people if p not in keep]
        people = keep
    for p in people:
        if p["key"] in v.protected:
            lines += [f"## {mask(p['name'], v.protected)}", "",
                      f"Protected: {v.protected[p['key']]['reason']}. "
                      f"{len(p['mentions'])} mention(s) in {', '.join(p['sources'])}.", ""]
            continue
        kind = "public office" if p["public"] else "named"
        lines += [f"## {p['name']}", "", f"{kind.capitalize()}; roles: "
                  f"{', '.join(p['roles']) or 'none stated'}; sources: {', '.join(p['sources'])}.",
                  ""]
        apps = [a for a in v.extraction.appointments if a["key"] == p["key"]]
        for a in sorted(apps, key=lambda a: a["date"]):
            lines.append(f"- {a['date'] or 'undated'}: appointed {a['role']} "
                         f"(“{a['role_text']}”, “{a['verb']}”) — "
                         f"{v.cite(a['source'], a['page'], a['page_label'], a['quote'])}")
        if not apps:
            lines += [_mention(v, m) for m in p["mentions"]]
        lines.append("")
    if others:
        by_source: dict[str, int] = {}
        for p in others:
            for sid in p["sources"]:
                by_source[sid] = by_source.get(sid, 0) + 1
        counts = ", ".join(f"{sid}: {n}" for sid, n in sorted(by_source.items()))
        lines += [f"{len(others)} other people are named in the captured sources, in no "
                  f"statement the summary uses and not in the question ({counts}).", ""]
    return "\n".join(lines) + "\n"


def organizations_md(v: View) -> str:
    lines = ["# Organizations", ""]
    for b in v.extraction.entities:
        lines += [f"## {b['name']} ({b['type']})", ""]
        lines += [_mention(v, m) for m in b["mentions"]]
        lines.append("")
    for c in v.extraction.committees:
        abbr = f" ({c['abbreviation']})" if c["abbreviation"] else ""
        lines += [f"- Committee name{abbr}: {c['name']} — "
                  f"{v.cite(c['source'], c['page'], c['page_label'], c['quote'])}"]
    return "\n".join(lines) + "\n"


def _to_precision(iso: str, precision: str | None) -> str:
    """A date as far as the source states it: "1972-06" for "i juni 1972", not 1972-06-01."""
    if not iso:
        return "undated"
    return iso[:4] if precision == "year" else iso[:7] if precision == "month" else iso


def timeline_md(v: View) -> str:
    lines = ["# Timeline", ""]
    events = sorted(v.extraction.events, key=lambda e: (e["date"] or "9999", e["source"],
                                                        e["start"]))
    for e in events:
        named = f" Named: {', '.join(mask(a, v.protected) for a in e['entities_involved'])}." \
            if e["entities_involved"] else ""
        lines.append(f"- **{_to_precision(e['date'], e.get('precision'))}** "
                     f"({e['date_original']}): {e['event']}.{named} "
                     f"{v.cite(e['source'], e['page'], e['page_label'], e['quote'])}")
    return "\n".join(lines) + "\n"


def statements_md(v: View) -> str:
    lines = ["# Statements", "", "What the sources say bodies proposed or people said, each "
             "against its evidence in fact-check.md when the summary uses it.", ""]
    for s in v.extraction.statements:
        who = s["speaker"] or "unattributed"
        lines.append(f"- **{who}** ({s['kind']}, in {s['venue']}): "
                     f"{v.cite(s['source'], s['page'], s['page_label'], s['quote'])}")
    return "\n".join(lines) + "\n"


def fact_check_md(v: View) -> str:
    lines = ["# Fact check", "", "Every statement of the summary and every position of a "
             "contested claim, checked against captured evidence (VERIFIED, NOT_FOUND, "
             "CONTRADICTED, NO_EVIDENCE).", ""]
    for s in sorted(v.statements, key=lambda s: s.sort):
        c = v.checks.get(s.id)
        verdict = c.verdict if c else "NOT CHECKED"
        lines += [f"## {verdict}: {mask(s.text, v.protected)}", "",
                  f"- id `{s.id}`, kind {s.kind}" + (f", position of `{s.contested}`"
                                                     if s.contested else ""),
                  f"- checked as: “{mask(s.claim, v.protected)}”",
                  f"- source: {v.cite(s.source_id, s.page, s.page_label, s.quote)}"]
        if c and s.id in v.withheld:
            lines.append(f"- verifier: {c.verifier_verdict or '—'}; evidence withheld: the "
                         "statement names a living private person")
        elif c:
            lines.append(f"- verifier: {c.verifier_verdict or '—'}; "
                         f"{mask(c.rationale, v.protected)}")
            for e in c.evidence[:8]:
                lines.append(f"  - evidence (sentence {e['sentence_index']}, "
                             f"{e['start']}-{e['end']}): “{quote(e['text'], v.protected)}”")
            if c.unsupported:
                lines.append(f"  - not shown: {', '.join(c.unsupported)}")
            for a in c.against:
                lines.append(f"- other source {a['source']}: {a['verdict']} "
                             f"({a['verifier_verdict']}; {mask(a['rationale'], v.protected)})")
        if s.id in v.withheld:
            lines.append("- withheld from the summary by the legal review")
        lines.append("")
    if v.state.withdrawals:
        lines += ["## Withdrawn: statements their source did not show", "",
                  "Composed from the extraction, checked, NOT_FOUND, and left out of the "
                  "summary from then on.", ""]
        for w in v.state.withdrawals:
            lines.append(f"- iteration {w['iteration']}, {w['source']}: "
                         f"{mask(w['text'], v.protected)} (checked as “"
                         f"{mask(w['claim'], v.protected)}”): {mask(w['rationale'], v.protected)}")
        lines.append("")
    return "\n".join(lines) + "\n"


def theories_md(v: View) -> str:
    lines = ["# Theories and positions", "", "Contested claims with every position, each "
             "checked against its own source (ACH: the evidence for and against each).", ""]
    positions = [s for s in v.statements if s.kind == "position"]
    for c in v.extraction.contradictions:
        lines += [f"## {mask(c['description'], v.protected)}", ""]
        for p in c["positions"]:
            lines.append(f"- {p['source']} ({v.title(p['source'])}): {p['date']}")
        lines.append("")
    for s in sorted(positions, key=lambda s: s.sort):
        c2 = v.checks.get(s.id)
        lines.append(f"- position {s.position}: {c2.verdict if c2 else 'NOT CHECKED'} against "
                     f"its own source ({v.title(s.source_id)}) — {mask(s.text, v.protected)}")
    if not v.extraction.contradictions and not positions:
        lines.append("No source contradicts another on any claim the investigation checked, "
                     "and no alternative account was found in the captured sources.")
    return "\n".join(lines) + "\n"


def questions_md(questions: list[Question], protected: dict[str, dict[str, Any]],
                 topic: str) -> str:
    """The questions asked, every living private person masked, the question's own in
    pieces too ("beside John and Smith": `mask_strict`)."""
    lines = ["# Questions", "", "Asked by the frameworks of /questions; each with the search "
             "it led to and what that found.", ""]
    for q in questions:
        query = f" — search: {' + '.join(q.query)}" if q.query else ""
        origin = f", {q.origin}" if q.origin else ""
        lines.append(f"- [{q.status}] ({q.framework}, {q.stage}, iteration {q.asked_in}"
                     f"{origin}) "
                     f"{q.text}{query}" + (f" → {q.result}" if q.result else ""))
    return mask_strict("\n".join(lines) + "\n", protected, topic)


def iterations_md(state: CaseState) -> str:
    lines = ["# Iterations", ""]
    for entry in state.log:
        lines += [f"## Iteration {entry['iteration']}", ""]
        lines += [f"- {k}: {val}" for k, val in entry.items() if k != "iteration"]
        lines.append("")
    if state.termination:
        lines += ["## Termination", "", f"- reason: {state.termination['reason']}",
                  f"- detail: {state.termination['detail']}", ""]
    return "\n".join(lines) + "\n"


def leads_md(iteration: int, searches: list[dict[str, Any]]) -> str:
    lines = [f"# Research leads, iteration {iteration}", "",
             "Search results over the corpus: leads, not sources. Nothing here is citable; a "
             "lead becomes a source only when it is captured (sources.md).", ""]
    for s in searches:
        lines += [f"## {s['why']}", "", f"Search: {' + '.join(s['terms']) or '(none)'}", ""]
        for h in s["hits"]:
            lines.append(f"- {h['score']:.3f} `{h['path']}` ({', '.join(h['terms'])}): "
                         f"{h['snippet']}")
        if s.get("error"):
            lines.append(f"- the search failed: {s['error']}")
        elif not s["hits"]:
            lines.append("- no file holds these words")
        if s.get("captured"):
            lines.append(f"- captured: {', '.join(s['captured'])}")
        lines.append("")
    return "\n".join(lines) + "\n"
