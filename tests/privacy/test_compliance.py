"""Per-case policy, the PII scanner and its compliance log, log redaction, and
`sleuth privacy report` on a real case (SQLite, and PostgreSQL when configured)."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from types import ModuleType

import pytest
from typer.testing import CliRunner

from sleuth.cli.app import app
from sleuth.model import CaseGraph, InputError
from sleuth.privacy import (
    PrivacyPolicy,
    RedactingFilter,
    censor,
    install_log_redaction,
    load_policy,
    redact_text,
    use_policy,
)
from sleuth.privacy.scan import living_birth_patterns, scan_snapshots, scan_text

NATIONAL = {
    "UK": "020 7946 0958",
    "UK mobile": "07700 900123",
    "SE": "08-123 456 78",
    "FR": "01 23 45 67 89",
    "DE": "030 12345678",
    "DE slash": "0171/1234567",
    "intl": "+46 8 123 456 78",
}


@pytest.mark.parametrize("number", NATIONAL.values(), ids=NATIONAL.keys())
def test_national_phone_formats_are_redacted(number: str) -> None:
    assert number not in redact_text(f"call {number} today")


def test_dates_ids_and_formal_dates_are_not_phones() -> None:
    keep = ("born 12.05.1990, 1990-05-12, +1837-03-03, A+1990/+1999, film 004012345, "
            "RG09 1234, chars 120-145, roll 1234")
    assert redact_text(keep) == keep
    assert "850312-1234" not in redact_text("personnummer 850312-1234")
    assert "AB 12 34 56 C" not in redact_text("NI AB 12 34 56 C")


def test_scanner_finds_each_kind_without_keeping_the_text() -> None:
    text = ("Jo, 42 Maple Avenue; 12 rue de la Paix; Storgatan 12; jo@example.org; "
            "SSN 123-45-6789; tel 020 7946 0958")
    kinds = {f.kind for f in scan_text(text, "snapshot:x")}
    assert kinds == {"address", "email", "ssn", "phone"}
    assert all(set(f.to_json()) == {"where", "kind", "start", "end", "person_id"}
               for f in scan_text(text, "snapshot:x"))


def test_living_birth_dates_found_in_snapshots(family: CaseGraph, fam: ModuleType) -> None:
    living = {p.id for p in censor(family, today=fam.TODAY).persons if p.is_living}
    assert living_birth_patterns(family, living)
    found = scan_snapshots(family, living)
    births = {f.where for f in found if f.kind == "living_birth_date"}
    assert {"snapshot:s-obit", "snapshot:s-bcert"} <= births


def test_policy_from_case_json(tmp_path: Path) -> None:
    assert load_policy(tmp_path) == PrivacyPolicy()
    (tmp_path / "case.json").write_text(json.dumps({"privacy": {"rule": "seed", "max_age": 105}}))
    assert load_policy(tmp_path) == PrivacyPolicy(rule="seed", max_age=105)
    (tmp_path / "case.json").write_text(json.dumps({"privacy": {"rule": "lenient"}}))
    with pytest.raises(InputError) as err:
        load_policy(tmp_path)
    assert "privacy.rule" in str(err.value) and "case.json" in str(err.value)


def test_policy_context_reaches_every_censor_call(family: CaseGraph, fam: ModuleType) -> None:
    masked = PrivacyPolicy(mask_names=True)
    with use_policy(masked):
        out = censor(family, today=fam.TODAY)
    assert out.person("emma").canonical_name == "[Living]"  # type: ignore[union-attr]
    assert censor(family, today=fam.TODAY).person("emma").canonical_name == "Emma Whitfield"  # type: ignore[union-attr]


def test_log_records_are_redacted(caplog: pytest.LogCaptureFixture) -> None:
    install_log_redaction()
    install_log_redaction()  # idempotent
    log = logging.getLogger("sleuth.test.privacy")
    with caplog.at_level(logging.INFO):
        log.info("contact %s or %s", "jo@example.org", "(217) 555-0134")
        try:
            raise ValueError("SSN 123-45-6789")
        except ValueError:
            log.exception("failed for 030 12345678")
    text = caplog.text
    for secret in ("jo@example.org", "555-0134", "123-45-6789", "12345678"):
        assert secret not in text
    record = logging.LogRecord("x", logging.INFO, __file__, 1, "mail %s", ("a@b.org",), None)
    RedactingFilter().filter(record)
    assert record.getMessage() == "mail [redacted: email]"


def test_privacy_report_cli(tmp_path: Path) -> None:
    runner = CliRunner()
    case = tmp_path / "case"
    sample = Path(__file__).parents[2] / "src" / "sleuth" / "data" / "sample"
    assert runner.invoke(app, ["init", str(case)]).exit_code == 0
    files = [str(p) for p in sorted(sample.glob("*.txt"))]
    assert runner.invoke(app, ["ingest", str(case), *files]).exit_code == 0
    res = runner.invoke(app, ["privacy", "report", str(case), "--format", "json"])
    assert res.exit_code == 0, res.output
    rep = json.loads(res.output)
    assert rep["living"]["count"] >= 1
    assert all(p["reason"] and p["rule"] for p in rep["persons"])
    outputs = rep["redactions"]["by_output"]
    assert set(outputs) == {"report", "jsonld", "gedcom", "gedcom7", "gedcomx", "show", "review"}
    assert all(o["leaks"] == 0 for o in outputs.values()), outputs
    assert rep["pii"]["findings"] >= 1 and rep["pii"]["logged"] >= 1
    again = json.loads(runner.invoke(app, ["privacy", "report", str(case), "--format",
                                           "json"]).output)
    assert again["pii"]["logged"] == 0  # findings are logged once
    text = runner.invoke(app, ["privacy", "report", str(case)])
    assert text.exit_code == 0 and "treated as living" in text.output
    # the text lists those treated as living, one line each; --all lists everyone
    living = {p["id"] for p in rep["persons"] if p["living"]}
    others = {p["id"] for p in rep["persons"]} - living
    assert others, "the sample holds the dead too"
    listed = {line.split()[0] for line in text.output.splitlines() if line.startswith("  ")}
    assert living <= listed and not others & listed
    every = runner.invoke(app, ["privacy", "report", str(case), "--all"]).output
    assert all(f"  {pid}  " in every for pid in living | others)
