"""`sleuth init` and `sleuth ingest`."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer

from sleuth.cli.common import console, domain_of, err, open_case
from sleuth.model import InputError


class Evidence(StrEnum):
    """`sleuth.model.EvidenceType`'s values for the option, so that `--help` does not load
    pydantic (start-up time, issue 19; tests/cli/test_startup.py checks that they agree)."""

    PRIMARY = "primary"
    SECONDARY = "secondary"
    AUTHORED = "authored"


def init(
    case_dir: Annotated[Path, typer.Argument(metavar="CASE", help="Folder for the new case.")],
    db: Annotated[
        str | None, typer.Option("--db", help="Database URL (default: CASE/case.sqlite).")
    ] = None,
    domain: Annotated[
        str, typer.Option("--domain", help="What the case is about: genealogy (default), "
                          "documents or investigations (curation is not built yet).")
    ] = "genealogy",
) -> None:
    """Create a case folder with its store (SQLite by default, PostgreSQL with --db)."""
    # Imported here, not at the top: start-up time (issue 19, `sleuth --help`).
    from sleuth.domains import get_domain
    from sleuth.store import Store

    get_domain(domain)  # a domain that is not built fails here, before anything is made
    store = Store.create_case(case_dir, db, domain=domain)
    store.close()
    console.print(f"created {domain} case [bold]{case_dir}[/bold]")


def ingest(
    case_dir: Annotated[Path, typer.Argument(metavar="CASE")],
    files: Annotated[list[Path], typer.Argument(
        metavar="FILE...", help="Files to ingest (a curation case: folders too).")],
    source_name: Annotated[
        str, typer.Option(help="Name of the source these files are from.")
    ] = "local file",
    evidence_type: Annotated[
        Evidence, typer.Option(help="primary, secondary or authored.")
    ] = Evidence.SECONDARY,
    refinement_limit: Annotated[int, typer.Option(min=1, help="Validator round trips.")] = 3,
    lenient: Annotated[
        bool, typer.Option("--lenient", help="Store what can be read of a malformed GEDCOM or "
                           "JSON file instead of refusing it; each problem becomes a finding "
                           "of `sleuth check`.")
    ] = False,
    max_mb: Annotated[
        float | None, typer.Option("--max-mb", help="Read documents of up to this many MB of "
                                   "any kind (default: 10 for text and HTML, 32 for JSON, 64 "
                                   "for GEDCOM, PDF and OCR XML).")
    ] = None,
    time_limit: Annotated[
        float | None, typer.Option("--time-limit", help="CPU seconds each file may take "
                                   "(default: 60, or 30 a MB for larger files).")
    ] = None,
) -> None:
    """Store each file as an immutable snapshot and run extraction → firewall → validation →
    decision on it. Each file is one transaction; re-ingesting a stored file is a no-op.

    Input is strict: a GEDCOM or JSON file with a problem that loses or garbles data (bad
    levels, a duplicate or dangling xref, no TRLR, a wrong character set, a NUL, JSON that
    does not parse) is refused with one line naming file, line and field, nothing stored,
    exit code 2 (`--lenient` stores what can be read, each problem a finding of `sleuth
    check`); an extension tag's pointer to nothing is stored with a warning line.

    Reading is bounded (`--max-mb`, `--time-limit`): a file too large, too deeply nested
    or too slow to read is refused with one line, and one past a quarter of its size limit
    is read after a warning line."""
    # Imported here, not at the top: start-up time (issue 19, `sleuth --help`).
    from sleuth.model import EvidenceType
    from sleuth.model.limits import read_limits
    from sleuth.sources.strict import reading
    from sleuth.store import counts
    from sleuth.store.lock import case_lock

    domain = domain_of(case_dir)
    ingest_path = domain.ingest
    store = open_case(case_dir)
    try:
        with case_lock(case_dir, "ingest", store.engine), reading(lenient=lenient) as read, \
                read_limits(max_mb=max_mb, seconds=time_limit, on_warning=warn_line):
            failed = _ingest_files(store, files, ingest_path, source_name,
                                   EvidenceType(evidence_type.value), refinement_limit, read)
        if domain.case_line is not None:
            console.print(domain.case_line(store), markup=False, highlight=False)
        else:
            c = counts(store)
            console.print(
                f"case: {c['snapshots']} snapshots, {c['persons']} persons, "
                f"{c['assertions']} assertions, {c['review_open']} open review items"
            )
    finally:
        store.close()
    if failed:
        raise typer.Exit(2)


def warn_line(message: str) -> None:
    """One warning line on stderr, at once (a size warning comes before a long read)."""
    err.print(f"sleuth: warning: {message}", markup=False, highlight=False)


def _ingest_files(store: Any, files: list[Path], ingest_path: Any, source_name: str,
                  evidence_type: Any, refinement_limit: int, read: Any) -> int:
    """Ingest each file in turn, one line each (and a warning line per input problem it
    was read with); returns how many failed."""
    from sleuth.model.limits import document_budget

    failed = 0
    for path in files:
        try:
            with document_budget(str(path)):
                res = ingest_path(store, path, source_name=source_name,
                                  evidence_type=evidence_type,
                                  refinement_limit=refinement_limit)
        except InputError as exc:
            err.print(f"sleuth: error: {exc}", markup=False, highlight=False)
            failed += 1
            continue
        finally:
            for where, problem in read.problems:
                warn_line(str(problem.error(where)))
            read.problems.clear()
        if getattr(res, "summary", None):  # a domain's own one-line account (documents)
            console.print(f"{path}: {res.summary}", markup=False, highlight=False)
            continue
        if res.already_stored or res.report is None:
            console.print(f"{path}: already stored as snapshot {res.snapshot_id}; skipped")
            continue
        r = res.report
        console.print(
            f"{path}: snapshot {r.snapshot_id} — {r.candidates} candidates, "
            f"{r.promoted} promoted, {r.review} to review, {r.hypotheses} hypotheses, "
            f"{r.firewall_rejected} rejected by the firewall, {r.conflicts} conflicts"
        )
    return failed
