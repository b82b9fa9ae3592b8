"""The PII scanner: finds personal data in stored snapshots and in every output path.

Snapshots keep their original bytes (nothing is lost); the scanner only *records* what they
hold - SSNs and national ids, e-mail addresses, phone numbers (North American, "+"
international, UK, SE, FR, DE), street addresses, and the exact birth dates of persons the
Censor treats as living - so a reviewer knows which sources need care. Exports never carry a
snapshot's text unredacted: `censor` empties or masks it first, and the same scan run over
each output (see `sleuth.privacy.report`) must find no living person's data there.

A finding records kind, location and character span, never the matched text, so the
compliance log it is written to (`log_findings`, agent Censor) is itself safe to print.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from dataclasses import asdict, dataclass
from datetime import date
from typing import Any

from sqlalchemy import Connection, select

from sleuth.model.graph import CaseGraph
from sleuth.model.records import Agent, LogEntry, Snapshot
from sleuth.privacy.pii import SCAN_PATTERNS, exact_date_pattern
from sleuth.store import Store
from sleuth.store import schema as t

ACTION = "pii_finding"
MAX_SPANS = 50  # spans kept per logged location; counts are always complete


@dataclass(frozen=True)
class Finding:
    where: str  # "snapshot:<id>" or "output:<path>"
    kind: str  # ssn, national_id, email, phone, address, living_birth_date
    start: int
    end: int
    person_id: str | None = None

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def living_birth_patterns(
    graph: CaseGraph, living: set[str]
) -> list[tuple[str, str, re.Pattern[str]]]:
    """(person id, needle, pattern) for each day-precise birth date of a living person.

    The needle (the year's last two digits, present in every spelling) lets a plain substring
    test skip the regex for almost every text.
    """
    out: list[tuple[str, str, re.Pattern[str]]] = []
    for person in graph.persons:
        if person.id not in living:
            continue
        dates = [person.birth]
        dates += [c.date for c in graph.assertions.get(person.id, [])
                  if c.field_name == "birth_date"]
        seen: set[date] = set()
        for gd in dates:
            if gd is None or gd.earliest is None or gd.earliest != gd.latest:
                continue
            if gd.earliest in seen:
                continue
            seen.add(gd.earliest)
            needle = f"{gd.earliest.year % 100:02d}"
            out.append((person.id, needle, exact_date_pattern(gd.earliest)))
    return out


def scan_text(
    text: str,
    where: str,
    *,
    births: list[tuple[str, str, re.Pattern[str]]] = (),  # type: ignore[assignment]
    kinds: tuple[str, ...] = tuple(SCAN_PATTERNS),
) -> list[Finding]:
    """Every PII match in `text` (overlapping matches of one kind counted once)."""
    found: list[Finding] = []
    for kind in kinds:
        spans: set[tuple[int, int]] = set()
        for pattern in SCAN_PATTERNS[kind]:
            spans.update(m.span() for m in pattern.finditer(text))
        found += [Finding(where, kind, a, b) for a, b in sorted(spans)]
    for pid, needle, pattern in births:
        if needle in text:
            found += [
                Finding(where, "living_birth_date", *m.span(), person_id=pid)
                for m in pattern.finditer(text)
            ]
    return found


def scan_snapshots(graph: CaseGraph, living: set[str]) -> list[Finding]:
    """Findings in every snapshot's stored text (the raw graph, before any censoring)."""
    births = living_birth_patterns(graph, living)
    out: list[Finding] = []
    for sid, snap in sorted(graph.snapshots.items()):
        out += scan_text(snap.text, f"snapshot:{sid}", births=births)
    return out


def scan_stored_snapshots(store: Store, graph: CaseGraph, living: set[str]) -> list[Finding]:
    """Findings in every stored snapshot, cited or not (a case graph holds only the cited
    ones, but an uncited letter can still hold an e-mail address)."""
    births = living_birth_patterns(graph, living)
    out: list[Finding] = []
    with store.engine.connect() as conn:
        rows = conn.execute(select(t.snapshots.c.id, t.snapshots.c.text).order_by(t.snapshots.c.id))
        for sid, text in rows:
            out += scan_text(text or "", f"snapshot:{sid}", births=births)
    return out


def summarise(findings: list[Finding]) -> dict[str, dict[str, int]]:
    """where -> kind -> count."""
    out: dict[str, Counter[str]] = {}
    for f in findings:
        out.setdefault(f.where, Counter())[f.kind] += 1
    return {where: dict(sorted(c.items())) for where, c in sorted(out.items())}


def _fingerprint(where: str, findings: list[Finding]) -> str:
    spans = sorted((f.kind, f.start, f.end) for f in findings)
    return hashlib.sha256(json.dumps([where, spans]).encode()).hexdigest()[:16]


def log_findings(store: Store, findings: list[Finding]) -> int:
    """Record findings as Censor compliance decisions, one research-log entry per location.

    Idempotent: a location whose findings were already logged unchanged is skipped. Returns
    the number of entries written. Matched text is never logged, only kinds and spans.
    """
    with store.transaction() as conn:
        rows = conn.execute(
            select(t.research_log.c.context).where(
                t.research_log.c.agent == str(Agent.CENSOR),
                t.research_log.c.action_type == ACTION,
            )
        ).scalars()
        done = {(r or {}).get("fingerprint") for r in rows}
        return write_findings(store, conn, findings, skip=done)


def write_findings(
    store: Store, conn: Connection, findings: list[Finding], *, skip: set[str] | None = None
) -> int:
    """Log findings inside the caller's transaction (ingest: the snapshot's own), one entry
    per location; locations whose fingerprint is in `skip` are left out."""
    by_where: dict[str, list[Finding]] = {}
    for f in findings:
        by_where.setdefault(f.where, []).append(f)
    written = 0
    for where, group in sorted(by_where.items()):
        fp = _fingerprint(where, group)
        if skip and fp in skip:
            continue
        counts = dict(sorted(Counter(f.kind for f in group).items()))
        said = ", ".join(f"{n} {k}" for k, n in counts.items())
        store.log(
            conn,
            LogEntry(
                agent=Agent.CENSOR,
                action_type=ACTION,
                rationale=(
                    f"PII in {where}: {said}. Stored bytes kept unchanged; every output "
                    "goes through the Censor."
                ),
                context={
                    "where": where,
                    "counts": counts,
                    "spans": [[f.kind, f.start, f.end, f.person_id] for f in group[:MAX_SPANS]],
                    "fingerprint": fp,
                },
            ),
        )
        written += 1
    return written


def log_snapshot_pii(store: Store, conn: Connection, snap: Snapshot) -> int:
    """Scan a snapshot just stored and log its generic PII (SSN, national id, e-mail, phone,
    street address) in the caller's transaction; returns the number of findings. Every
    path that stores a snapshot calls this (ingest, the fetcher): the living persons' birth
    dates need the whole case's verdicts and are scanned by `sleuth privacy report`."""
    findings = scan_text(snap.text, f"snapshot:{snap.id}")
    write_findings(store, conn, findings)
    return len(findings)
