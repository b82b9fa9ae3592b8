"""A stalled investigation: gaps that the sources given cannot close.

The loop runs until verification passes with no gaps, or a budget stops it. A gap that no
captured or capturable source can close would otherwise repeat the same iteration until the
iteration budget: same searches, same statements, same gaps, one commit each. An iteration
made progress when it captured a source, stated a statement it had not stated before, or
closed a gap; the first iteration always does (it has nothing before it). When one made
none, /questions runs with the seed's "stuck" frameworks; if neither they nor any question
still open would search for a file not yet captured, the run stops as `stalled`, and the
final state says what would unblock it (each gap's path, and the corpus to add to).

`sleuth resume` on a stalled case goes on only when something it reads has changed (a file
added to, changed in or removed from the corpus folder, by its bytes, or an online source
to retry); else it explains. A file whose capture failed and that was repaired or removed
since is read again or closed by the research phase (`capture.recheck_failed`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sleuth.domains.investigations.capture import file_sha256
from sleuth.domains.investigations.model import Gap, Statement
from sleuth.domains.investigations.state import CaseState

MARKS = "progress_marks"  # state.signals: the last iteration's statements and gaps
CORPUS_AT_STALL = "corpus_at_stall"  # state.signals: the corpus listing when it stalled


def marks(statements: list[Statement], gaps: list[Gap]) -> dict[str, list[str]]:
    return {"statements": sorted({s.id for s in statements}),
            "gaps": sorted({g.id for g in gaps})}


def progressed(state: CaseState, now: dict[str, list[str]]) -> bool:
    """Whether this iteration captured a source, stated something new or closed a gap
    (against the marks the iteration before it left; the first has none)."""
    before = state.signals.get(MARKS)
    if before is None or state.signals.get("new_sources", 0) > 0:
        return True
    return bool(set(now["statements"]) - set(before["statements"])
                or set(before["gaps"]) - set(now["gaps"]))


def retry_pending(state: CaseState, before: dict[str, list[str]] | None) -> bool:
    """An online source that failed for the first time this iteration: the next iteration
    retries it once before the run may call itself stalled."""
    old = set((before or {}).get("gaps", []))
    return any(g.kind == "source_unreachable" and g.id not in old for g in state.gaps)


def corpus_listing(root: str) -> list[list[Any]]:
    """The corpus folder's files (relative path, size, SHA-256 of the bytes): what a resume
    compares to see whether anything was added, changed or removed since the run stalled.
    The bytes, not the time stamps: a file touched is no change, a file repaired within
    the same second is one."""
    folder = Path(root) if root else None
    if folder is None or not folder.is_dir():
        return []
    return [[p.relative_to(folder).as_posix(), p.stat().st_size, file_sha256(str(p))]
            for p in sorted(folder.rglob("*")) if p.is_file()
            and not any(part.startswith(".") for part in p.relative_to(folder).parts)]


def detail(state: CaseState) -> str:
    where = "the corpus" if state.corpus else ""
    if state.online:
        where = " and ".join(x for x in (where, ", ".join(state.online)) if x)
    return (f"{len(state.gaps)} gaps cannot close from {where or 'the sources'} given: the "
            "last iteration captured no source, stated nothing new and closed no gap, and "
            "/questions (stuck) found no new search")


def unblock(state: CaseState) -> list[str]:
    """What would let a stalled case go on: each gap's path, then where to add sources."""
    out = [f"{g.text} — {g.path}" for g in state.gaps]
    if state.corpus:
        out.append(f"add a source that answers it to the corpus folder {state.corpus}, "
                   "then `sleuth resume` the case")
    return out


def changed_since_stall(state: CaseState) -> bool:
    """Whether a resume has anything new to read: the corpus listing differs from the one
    at the stall, or an online source that failed may answer now."""
    if any(g.kind == "source_unreachable" for g in state.gaps):
        return True
    return corpus_listing(state.corpus) != state.signals.get(CORPUS_AT_STALL)
