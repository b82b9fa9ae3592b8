"""What a case's workbench can show, by domain: the nav bar's pages (no link to a page that
would answer 404), why a page a case lacks is missing, and an investigation's own files
(summary.md, fact-check.md, people.md …: its case file, `sleuth investigate`'s output)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

GENEALOGY = "genealogy"
DOCUMENTS = "documents"
INVESTIGATIONS = "investigations"
# An investigation's files in the order a reader wants them (the rest by name after them).
_FIRST = ("summary.md", "fact-check.md", "people.md", "timeline.md", "statements.md",
          "sources.md", "organizations.md", "questions.md", "theories.md", "iterations.md",
          "integrity-check.md", "legal-review.md")


@dataclass(frozen=True)
class Link:
    href: str
    label: str
    prefix: str  # the paths this entry is "here" for


def nav(domain: str, case_dir: Path | None) -> list[Link]:
    """The pages this case has: the queue always; persons for a family-history case; the
    documents page for a documents case; the report and research log where the case folder
    was given and its domain writes them; an investigation's files."""
    links = [Link("/review", "Review queue", "/review")]
    if domain == GENEALOGY:
        links.append(Link("/persons", "Persons", "/person"))
    if domain == DOCUMENTS:
        links.append(Link("/documents", "Documents", "/documents"))
    if case_dir is not None and domain == GENEALOGY:
        links += [Link("/log", "Research log", "/log"), Link("/report", "Report", "/report")]
    if case_dir is not None and domain == INVESTIGATIONS:
        links.append(Link("/files", "Case files", "/files"))
    return links


def missing(page: str, domain: str, case_dir: Path | None) -> str:
    """Why this case has no `page` ("report", "research log", "documents page"), in words
    that say where to look instead."""
    if case_dir is None:
        return (f"no {page}: the workbench was started without the case folder "
                "(`sleuth serve CASE` gives it)")
    if domain == INVESTIGATIONS:
        return (f"this investigation case has no {page}: its case file is summary.md, with "
                f"fact-check.md, people.md and its other files, in {case_dir} "
                "(open them under Case files: /files)")
    if domain == DOCUMENTS:
        return (f"this documents case has no {page}: its processes, events and people are "
                "on the documents page (/documents)")
    return f"this {domain} case has no {page}"


def files(case_dir: Path | None) -> list[str]:
    """The investigation's own files: the Markdown files at the top of its folder."""
    if case_dir is None or not case_dir.is_dir():
        return []
    names = {p.name for p in case_dir.glob("*.md") if p.is_file()}
    return [n for n in _FIRST if n in names] + sorted(names - set(_FIRST))


def read(case_dir: Path | None, name: str) -> str | None:
    """The text of one of `files` (by its name only: nothing outside that list is read)."""
    if case_dir is None or name not in files(case_dir):
        return None
    return (case_dir / name).read_text(encoding="utf-8", errors="replace")
