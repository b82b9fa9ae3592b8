"""Ingest scans what it stores: PII findings become Censor compliance decisions, logged in
the snapshot's own transaction, with kinds, counts and spans but never the matched text."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from sqlalchemy import select

from shared_data import shared_path
from sleuth.export.privacy_report import privacy_report
from sleuth.pipeline.ingest import ingest_path
from sleuth.privacy.scan import ACTION
from sleuth.store import Store
from sleuth.store import schema as t

PII = {
    "email": "maria.lindqvist@example.se",
    "phone": "(217) 555-0142",
    "ssn": "123-45-6789",
    "address": "42 Maple Avenue",
}
LETTER = (
    "Letter from Maria Lindqvist, 3 March 2021.\n"
    f"Write to me at {PII['email']} or call {PII['phone']}.\n"
    f"My grandfather's social security number was {PII['ssn']}; he lived at "
    f"{PII['address']}, Springfield.\n"
)


def censor_log(store: Store) -> list[dict[str, Any]]:
    with store.engine.connect() as conn:
        rows = conn.execute(
            select(t.research_log).where(t.research_log.c.action_type == ACTION)
            .order_by(t.research_log.c.seq)
        ).mappings()
        return [dict(r) for r in rows]


def test_ingest_logs_pii_findings_without_the_pii(store: Store, tmp_path: Path) -> None:
    letter = tmp_path / "letter.txt"
    letter.write_text(LETTER, encoding="utf-8")
    result = ingest_path(store, letter)
    assert result.pii_findings == 4
    (row,) = censor_log(store)
    assert row["agent"] == "Censor"
    ctx = row["context"]
    assert ctx["where"] == f"snapshot:{result.snapshot_id}"
    assert ctx["counts"] == {"address": 1, "email": 1, "phone": 1, "ssn": 1}
    logged = json.dumps({k: str(v) for k, v in row.items()}, ensure_ascii=False)
    for value in PII.values():
        assert value not in logged  # kinds and spans only
    # the spans point at the very values in the stored text (which keeps its bytes)
    with store.engine.connect() as conn:
        text = conn.execute(
            select(t.snapshots.c.text).where(t.snapshots.c.id == result.snapshot_id)
        ).scalar_one()
    assert {kind: text[a:b] for kind, a, b, _ in ctx["spans"]} == PII


def test_reingest_and_report_do_not_log_twice(store: Store, tmp_path: Path) -> None:
    letter = tmp_path / "letter.txt"
    letter.write_text(LETTER, encoding="utf-8")
    ingest_path(store, letter)
    again = ingest_path(store, letter)
    assert again.already_stored and again.pii_findings == 0
    report = privacy_report(store)
    assert report["pii"]["findings"] == 4 and report["pii"]["logged"] == 0
    assert len(censor_log(store)) == 1


def test_text_without_pii_logs_nothing(store: Store, tmp_path: Path) -> None:
    note = tmp_path / "note.txt"
    note.write_text("John Smith was baptised at Yielden on 3 May 1701.\n", encoding="utf-8")
    assert ingest_path(store, note).pii_findings == 0
    assert censor_log(store) == []


def test_real_register_transcription_with_transcriber_email(store: Store) -> None:
    """A FreeREG CSV names its transcriber's e-mail (redacted@example.invalid in the shared
    copy) in its header: one e-mail finding, logged without the address."""
    path = shared_path("text", "freeukgen", "freereg1_csvs__Chd__HRTCALBA.csv")
    emails = path.read_text(encoding="latin-1").count("redacted@example.invalid")
    assert emails >= 1
    result = ingest_path(store, path)
    assert result.report is not None and result.report.promoted > 0  # the records still load
    (row,) = censor_log(store)
    assert row["context"]["counts"].get("email") == emails
    assert "example.invalid" not in json.dumps(row["context"]) + row["rationale"]
