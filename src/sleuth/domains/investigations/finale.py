"""The finale's integrity check and legal review (seed 003: /integrity, /legal-review).

Integrity (journalistic): MAJOR when the summary uses a forbidden phrase, has a sentence
without a footnote, cites a source that is not captured or a research lead, or shows a
statement that is not VERIFIED; MINOR when every statement rests on one source. Legal
review: HIGH when a summary statement names a living private person; LOW for a quoted
allegation against a named person (it stays, attributed, and is listed). MAJOR and HIGH
are addressed (the summary is rewritten without what caused them) and the finale goes back
to VERIFY.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from sleuth.domains.investigations.model import VERIFIED
from sleuth.domains.investigations.protect import names_protected
from sleuth.domains.investigations.render import FORBIDDEN_PHRASES, NO_STATEMENT, View

_FOOTNOTE_REF = re.compile(r"\[\^(\d+)\]$")
_FOOTNOTE_DEF = re.compile(r"^\[\^(\d+)\]: (S\d{3}),")
_ALLEGATION = re.compile(r"\b(fraud|corrupt\w*|crime|criminal|brott\w*|bedräg\w*|mut\w*|"
                         r"förskingr\w*|embezzl\w*|brib\w*)\b", re.I)


@dataclass(frozen=True)
class Issue:
    severity: str  # MAJOR | MINOR | HIGH | MEDIUM | LOW
    text: str


def body_lines(summary: str) -> list[str]:
    """The summary's statement lines: not headings, footnote definitions or blank."""
    return [ln for ln in summary.splitlines() if ln.strip() and not ln.startswith("#")
            and not ln.startswith("[^") and ln.strip() != NO_STATEMENT]


def integrity(v: View, summary: str) -> list[Issue]:
    issues: list[Issue] = []
    for phrase in FORBIDDEN_PHRASES:
        if phrase.lower() in summary.lower():
            issues.append(Issue("MAJOR", f"the summary uses the forbidden phrase “{phrase}”"))
    for ln in body_lines(summary):
        if not _FOOTNOTE_REF.search(ln):
            issues.append(Issue("MAJOR", f"a summary sentence has no footnote: “{ln[:80]}”"))
    captured = {s.id for s in v.state.captured()}
    for ln in summary.splitlines():
        m = _FOOTNOTE_DEF.match(ln)
        if ln.startswith("[^") and (m is None or m.group(2) not in captured):
            issues.append(Issue("MAJOR", f"a footnote cites no captured source: “{ln[:80]}”"))
        if "research-leads" in ln:
            issues.append(Issue("MAJOR", "the summary cites a research lead"))
    shown = v.summary_statements()
    for s in shown:
        if v.checks[s.id].verdict != VERIFIED:
            issues.append(Issue("MAJOR", f"“{s.text}” is shown but not VERIFIED"))
    if shown and len({s.source_id for s in shown}) == 1:
        issues.append(Issue("MINOR", f"every statement rests on one source "
                            f"({shown[0].source_id}): no second source was found in the corpus"))
    return issues


def legal(v: View) -> list[Issue]:
    issues: list[Issue] = []
    for s in v.summary_statements():
        if names_protected(s.text, v.protected) or names_protected(s.quote, v.protected):
            issues.append(Issue("HIGH", f"statement `{s.id}` names a living private person; "
                                "withheld from the summary"))
        elif _ALLEGATION.search(s.quote):
            issues.append(Issue("LOW", f"statement `{s.id}` quotes an allegation; it is "
                                "attributed to its source and verified as quoted"))
    return issues


def report_md(title: str, issues: list[Issue], passes: int, ok: str) -> str:
    lines = [f"# {title}", "", f"Finale pass {passes}.", ""]
    lines += [f"- **{i.severity}**: {i.text}" for i in issues] or [f"- {ok}"]
    return "\n".join(lines) + "\n"
