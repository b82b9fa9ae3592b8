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

from sleuth.domains.investigations.cast import Person, cast
from sleuth.domains.investigations.chronicle import daily, event_day
from sleuth.domains.investigations.extraction import Extraction
from sleuth.domains.investigations.general import DIFFER, SECTION, bearing
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
    days: dict[str, date] = field(default_factory=dict)  # a newspaper source's day

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
    role = f"{m['role']} (“{m['role_text']}”) — " if m.get("role") else ""
    return f"- {role}{v.cite(m['source'], m['page'], m['page_label'], m['quote'])}"


def _as_named(v: View, m: dict[str, Any]) -> str:
    """A mention as "- Chas E. Hughes, Republican candidate for president: S002, …"."""
    said = ", ".join(x for x in (m.get("office") if m.get("office") and not m["form"]
                                 .startswith(m["office"]) else "", m.get("apposition")) if x)
    return (f"- {m['form']}{', ' + said if said else ''}: "
            f"{v.cite(m['source'], m['page'], m['page_label'], m['quote'])}")


def _person_in_question(q: Person, spans: list[tuple[str, int, int]], asked: set[str]
                        ) -> bool:
    """A person a statement's quote names, or whose surname the question asks."""
    quoted = any(m["source"] == sid and m["start"] < end and start < m["end"]
                 for m in q.mentions for sid, start, end in spans)
    return quoted or any((f.split() or [""])[-1].lower() in asked for f in q.forms)


def _person_md(v: View, q: Person) -> list[str]:
    kind = "public office" if any(p["public"] for p in q.members) else "named"
    roles = "; ".join(f"{r} ({', '.join(sids)})" for r, sids in q.roles().items())
    also = [f for f in q.forms if f != q.name]
    head = (f"{kind.capitalize()}; roles: {roles or 'none stated'}"
            + (f"; also named: {', '.join(also)}" if also else "")
            + f"; sources: {', '.join(q.sources)}.")
    lines = [f"## {q.name}", "", head, ""]
    if q.note:
        lines += [f"{q.note[0].upper()}{q.note[1:]}.", ""]
    return lines + [_as_named(v, m) for m in q.mentions] + [""]


def _news_people(v: View) -> list[str]:
    """A general question's people (`cast`): the forms of one person as one, with the
    roles the sources state; only those its statements quote or it names, and every
    protected one, masked; the rest counted by source."""
    spans = [(s.source_id, s.start, s.end) for s in v.summary_statements()]
    asked = set(v.state.topic.lower().split())
    lines: list[str] = []
    for p in v.extraction.people:
        if p["key"] in v.protected:
            lines += _protected_md(v, p)
    persons = cast([p for p in v.extraction.people if p["key"] not in v.protected])
    others: list[Person] = []
    for q in persons:
        if _person_in_question(q, spans, asked):
            lines += _person_md(v, q)
        else:
            others.append(q)
    if others:
        by_source: dict[str, int] = {}
        for q in others:
            for sid in q.sources:
                by_source[sid] = by_source.get(sid, 0) + 1
        counts = ", ".join(f"{sid}: {n}" for sid, n in sorted(by_source.items()))
        lines += [f"{len(others)} other people are named in the captured sources, in no "
                  f"statement the summary uses and not in the question ({counts}).", ""]
    return lines


def _protected_md(v: View, p: dict[str, Any]) -> list[str]:
    return [f"## {mask(p['name'], v.protected)}", "",
            f"Protected: {v.protected[p['key']]['reason']}. "
            f"{len(p['mentions'])} mention(s) in {', '.join(p['sources'])}.", ""]


def people_md(v: View) -> str:
    """Everyone the extraction found for an inquiry's case; for a general question only the
    people its statements quote or it names, and every protected one, masked (a page of 1916
    news names hundreds who have nothing to do with it: they are counted by source)."""
    lines = ["# People", ""]
    if not v.extraction.committees:  # a protected person is always listed, as protected
        return "\n".join(lines + _news_people(v)) + "\n"
    for p in v.extraction.people:
        if p["key"] in v.protected:
            lines += _protected_md(v, p)
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
    """The dated events the extraction found, and the newspaper reports the case uses (the
    summary's and the statements on the question): each on the day its sentence fixes
    (`chronicle`), else on its paper's day as "reported on"; in date order, each cited."""
    rows: list[tuple[str, str, int, str]] = []
    for e in v.extraction.events:
        named = f" Named: {', '.join(mask(a, v.protected) for a in e['entities_involved'])}." \
            if e["entities_involved"] else ""
        rows.append((e["date"] or "9999", e["source"], e["start"],
                     f"- **{_to_precision(e['date'], e.get('precision'))}** "
                     f"({e['date_original']}): {e['event']}.{named} "
                     f"{v.cite(e['source'], e['page'], e['page_label'], e['quote'])}"))
    for sid, start, claim, cited in _reports(v):
        paper = v.days[sid]
        when = event_day(claim, paper, daily(v.title(sid)))
        printed = f"{paper.day} {paper:%B} {paper.year}"
        if when.fixed:
            how = f"(“{when.phrase}”, in the paper of {printed})"
        elif when.phrase:
            how = (f"reported on {printed} (the sentence says “{when.phrase}”; the paper "
                   "is not known to be a daily, so that day is not fixed)")
        else:
            how = f"reported on {printed}"
        rows.append((when.day.isoformat(), sid, start,
                     f"- **{when.day.isoformat()}** {how}: {cited}"))
    return "\n".join(["# Timeline", ""] + [r[3] for r in sorted(rows)]) + "\n"


def _reports(v: View) -> list[tuple[str, int, str, str]]:
    """(source, start, sentence, citation) of each newspaper report the case uses: the
    summary's statements and the extraction's statements on the question, once each."""
    out: dict[tuple[str, int], tuple[str, int, str, str]] = {}
    for s in v.summary_statements():
        if s.source_id in v.days:
            out.setdefault((s.source_id, s.start), (s.source_id, s.start, s.claim, v.cite(
                s.source_id, s.page, s.page_label, s.quote)))
    for st in v.extraction.statements:
        if st["source"] in v.days and bearing(v.state.topic, st["summary"]):
            out.setdefault((st["source"], st["start"]), (st["source"], st["start"],
                                                         st["summary"], _cite_st(v, st)))
    return list(out.values())


def _cite_st(v: View, st: dict[str, Any]) -> str:
    return v.cite(st["source"], st["page"], st["page_label"], st["quote"])


def _statement_line(v: View, st: dict[str, Any]) -> str:
    who = mask(st["speaker"], v.protected) if st["speaker"] else "unattributed"
    return f"- **{who}** ({st['kind']}, in {st['venue']}): {_cite_st(v, st)}"


def statements_md(v: View) -> str:
    """What the sources say was proposed or said. For a general question the statements
    that bear on it (`general.bearing`: its names and terms) come first, most facets first;
    the rest are counted by source and listed folded, so the question's are not buried."""
    lines = ["# Statements", "", "What the sources say bodies proposed or people said, each "
             "against its evidence in fact-check.md when the summary uses it.", ""]
    if v.extraction.committees:
        return "\n".join(lines + [_statement_line(v, st) for st in v.extraction.statements]
                         ) + "\n"
    scored = [(bearing(v.state.topic, st["summary"]), st) for st in v.extraction.statements]
    on = sorted(((n, st) for n, st in scored if n), key=lambda x: (-x[0], x[1]["source"],
                                                                     x[1]["start"]))
    rest = [st for n, st in scored if not n]
    lines += ["## On the question", ""]
    lines += [_statement_line(v, st) for _, st in on] or [
        "No statement the sources report names the question's subjects or meets its terms.",
        ""]
    if rest:
        count: dict[str, int] = {}
        for st in rest:
            count[st["source"]] = count.get(st["source"], 0) + 1
        per = "; ".join(f"{sid} ({v.title(sid)}): {n}" for sid, n in sorted(count.items()))
        lines += ["", "## On other matters", "",
                  f"{len(rest)} statements in the sources are about other things: {per}.", "",
                  "<details><summary>The other statements</summary>", ""]
        lines += [_statement_line(v, st) for st in rest] + ["", "</details>"]
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
