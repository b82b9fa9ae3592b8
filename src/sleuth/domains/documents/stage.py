"""The process stage state machine (seed 004): a pure function from the evidence stored for a
process (the document's kind and its dated events) to a stage and an explanation. No model
is involved; the Head Detective stores what it returns, `sleuth export --format report`
and `sleuth show CASE process ID` show it.

The stages, latest first: law (a law enacted), proposition (a proposition submitted to the
Riksdag, or the document is one), remiss (a remiss started), published (an SOU whose report
was submitted or published), writing (an SOU without that), directive (a directive issued,
or nothing yet known).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

STAGES = ("directive", "writing", "published", "remiss", "proposition", "law")


@dataclass(frozen=True)
class Fact:
    """One stored event as the state machine reads it."""

    event_type: str
    date: str
    page: int
    page_label: str


@dataclass(frozen=True)
class StageResult:
    stage: str
    explanation: str


def _cite(facts: list[Fact]) -> str:
    f = facts[0]
    more = f" and {len(facts) - 1} more" if len(facts) > 1 else ""
    return f"{f.event_type.replace('_', ' ')} {f.date} (p. {f.page_label}){more}"


def process_stage(kind: str, events: Iterable[Fact]) -> StageResult:
    """The stage of a process whose document is of `kind` (`timeline.document_kind`: 'dir',
    'prop', 'sou', 'eu', 'fr' or '') with these stored events."""
    by_type: dict[str, list[Fact]] = {}
    for e in sorted(events, key=lambda e: (e.page, e.date, e.event_type)):  # first stated first
        by_type.setdefault(e.event_type, []).append(e)
    if law := by_type.get("law_enacted"):
        return StageResult("law", f"Law enacted: {_cite(law)}")
    if prop := by_type.get("proposition_submitted"):
        return StageResult("proposition", f"Government proposition submitted: {_cite(prop)}")
    if kind == "prop":
        return StageResult("proposition", "The document is a government proposition; no "
                           "dated submission was found in it")
    if remiss := by_type.get("remiss_started"):
        return StageResult("remiss", f"Referred for consultation (remiss): {_cite(remiss)}")
    published = by_type.get("sou_published", []) + by_type.get("report_submitted", [])
    if kind == "sou" and published:
        return StageResult("published", f"SOU report submitted or published: "
                           f"{_cite(published)}")
    if kind == "sou":
        return StageResult("writing", "An SOU whose submission or publication date was not "
                           "found in it")
    if directive := by_type.get("directive_issued"):
        return StageResult("directive", f"Directive issued, committee work in progress: "
                           f"{_cite(directive)}")
    if kind == "dir":
        return StageResult("directive", "The document is a committee directive; no dated "
                           "decision was found in it")
    return StageResult("directive", "Process initiated, awaiting detailed information: no "
                       "directive, report, remiss, proposition or law found")
