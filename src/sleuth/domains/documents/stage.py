"""The process stage state machine (seed 004): a pure function from the evidence in the store
for a process (the kinds of its documents and the dated events stored from all of them) to a
stage and an explanation. No model is involved; the Head Detective stores what it returns,
`sleuth export --format report` and `sleuth show CASE process ID` show it.

The stages, latest first: law (a law enacted or adopted, or a statute-book regulation,
EU act or US rule in force), proposition (a proposition submitted to the Riksdag, or one of
the documents is one), remiss (a remiss started), published (an SOU whose report was
submitted or published), writing (an SOU without that), directive (a directive issued, or
nothing yet known). The explanation names the evidence that decides it and the document and
page it is read on.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

STAGES = ("directive", "writing", "published", "remiss", "proposition", "law")
# Kinds of document that are themselves in force once adopted (`timeline.document_kind`).
_ENACTED_KINDS = frozenset({"fs", "eu", "fr"})


@dataclass(frozen=True)
class Fact:
    """One stored event as the state machine reads it (`document`: its designation)."""

    event_type: str
    date: str
    page: int
    page_label: str
    document: str = ""
    description: str = ""
    document_kind: str = ""
    excerpt: str = ""


@dataclass(frozen=True)
class StageResult:
    """The stage, its explanation and what decides it: an event (`fact`) or a document
    being of its kind (`document`, its designation); neither for the default."""

    stage: str
    explanation: str
    fact: Fact | None = None
    document: str | None = None


def _cite(facts: list[Fact]) -> str:
    f = facts[0]
    where = f"{f.document}, p. {f.page_label}" if f.document else f"p. {f.page_label}"
    more = f" and {len(facts) - 1} more" if len(facts) > 1 else ""
    return f"{f.event_type.replace('_', ' ')} {f.date} ({where}){more}"


def _docs(kinds: list[tuple[str, str]], kind: str) -> str:
    names = sorted({name for k, name in kinds if k == kind and name})
    return f" ({', '.join(names)})" if names else ""


def _first(kinds: list[tuple[str, str]], kind: str) -> str | None:
    return min((name for k, name in kinds if k == kind and name), default=None)


def process_stage(kinds: str | Iterable[str | tuple[str, str]],
                  events: Iterable[Fact]) -> StageResult:
    """The stage of a process whose documents are of `kinds` (`timeline.document_kind`:
    'dir', 'prop', 'sou', 'fs', 'eu', 'fr' or ''; each a kind, or (kind, designation)) with
    these stored events."""
    given = [kinds] if isinstance(kinds, str) else list(kinds)
    named = [(k, "") if isinstance(k, str) else (k[0], k[1]) for k in given]
    present = {k for k, _ in named}
    by_type: dict[str, list[Fact]] = {}
    for e in sorted(events, key=lambda e: (e.date, e.document, e.page, e.event_type)):
        by_type.setdefault(e.event_type, []).append(e)  # the earliest first
    if law := by_type.get("law_enacted"):
        return StageResult("law", f"Law enacted: {_cite(law)}", law[0])
    in_force = [e for e in by_type.get("other", [])
                if e.description.startswith("entry into force")
                and e.document_kind in _ENACTED_KINDS]
    if in_force:
        return StageResult("law", f"An adopted act in force: {_cite(in_force)}", in_force[0])
    if prop := by_type.get("proposition_submitted"):
        return StageResult("proposition", f"Government proposition submitted: {_cite(prop)}",
                           prop[0])
    if "prop" in present:
        return StageResult("proposition", f"A government proposition{_docs(named, 'prop')} "
                           "is among the documents; no dated submission was found in it",
                           document=_first(named, "prop"))
    if remiss := by_type.get("remiss_started"):
        return StageResult("remiss", f"Referred for consultation (remiss): {_cite(remiss)}",
                           remiss[0])
    published = by_type.get("sou_published", []) + by_type.get("report_submitted", [])
    published.sort(key=lambda e: (e.date, e.document, e.page))
    if "sou" in present and published:
        return StageResult("published", f"SOU report{_docs(named, 'sou')} submitted or "
                           f"published: {_cite(published)}", published[0])
    if "sou" in present:
        return StageResult("writing", f"An SOU{_docs(named, 'sou')} whose submission or "
                           "publication date was not found in it", document=_first(named, "sou"))
    if directive := by_type.get("directive_issued"):
        return StageResult("directive", f"Directive issued, committee work in progress: "
                           f"{_cite(directive)}", directive[0])
    if "dir" in present:
        return StageResult("directive", f"A committee directive{_docs(named, 'dir')} is "
                           "among the documents; no dated decision was found in it",
                           document=_first(named, "dir"))
    return StageResult("directive", "Process initiated, awaiting detailed information: no "
                       "directive, report, remiss, proposition or law found")
