"""Errors that never leak (issue 26, item 5): a corrupt case file, an unreachable database and
an unexpected error each give one line and a non-zero exit, never a traceback; a driver's
error is shown without the SQL parameters that would quote a person's data; `--debug`
gives the traceback to whoever asks for it."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from sqlalchemy.exc import IntegrityError
from typer.testing import CliRunner

from sleuth.cli.app import app
from sleuth.store import Store

runner = CliRunner()


def _case(tmp_path: Path, config: str | None = None) -> Path:
    case = tmp_path / "case"
    Store.create_case(case).close()
    if config is not None:
        (case / "case.json").write_text(config, encoding="utf-8")
    return case


def _one_line(result: object) -> str:
    err = result.stderr.strip()  # type: ignore[attr-defined]
    assert "\n" not in err and "Traceback" not in err, err
    return err


@pytest.mark.parametrize("config", ["{bad", "[1, 2]", ""])
def test_a_corrupt_case_file_is_one_line_naming_it(tmp_path: Path, config: str) -> None:
    case = _case(tmp_path, config)
    for args in (["export", str(case)], ["show", str(case), "person", "p1"],
                 ["ingest", str(case), str(case / "case.json")]):
        result = runner.invoke(app, args)
        assert result.exit_code == 2, result.output
        assert str(case / "case.json") in _one_line(result)


def test_an_unreachable_database_is_one_line_without_its_password(tmp_path: Path) -> None:
    url = "postgresql+psycopg://bob:s3cret-pw@127.0.0.1:1/nowhere"
    case = _case(tmp_path, json.dumps({"db_url": url}))
    result = runner.invoke(app, ["export", str(case)])
    assert result.exit_code == 1
    line = _one_line(result)
    assert "cannot open the case database postgresql+psycopg://bob:***@127.0.0.1:1" in line
    assert "s3cret-pw" not in result.output


def _driver_error(*_: object, **__: object) -> None:
    raise IntegrityError("INSERT INTO persons (canonical_name, note) VALUES (?, ?)",
                         ("Jane Roe", "jane.roe@example.com, born 1990-01-01"),
                         sqlite3.IntegrityError("UNIQUE constraint failed: blobs.sha256"))


def test_an_internal_error_is_one_line_without_the_data(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    case = _case(tmp_path)
    monkeypatch.delenv("SLEUTH_DEBUG", raising=False)
    monkeypatch.setattr(Store, "open_case", classmethod(_driver_error))
    result = runner.invoke(app, ["export", str(case)])
    assert result.exit_code == 1
    line = _one_line(result)
    assert line == ("sleuth: internal error: IntegrityError: UNIQUE constraint failed: "
                    "blobs.sha256 (run with --debug for the traceback)")
    assert "jane.roe" not in result.output and "Jane Roe" not in result.output
    debug = runner.invoke(app, ["--debug", "export", str(case)])
    assert isinstance(debug.exception, IntegrityError)  # the whole error, on request


def test_a_reader_that_stops_early_is_no_error(tmp_path: Path) -> None:
    """`sleuth export CASE | head`: the closed pipe ends the command quietly."""
    import subprocess
    import sys

    from shared_data import shared_path

    case = _case(tmp_path)
    tree = shared_path("gedcom", "samples", "kennedy.ged")
    assert runner.invoke(app, ["ingest", str(case), str(tree)]).exit_code == 0
    script = ("import sys; from sleuth.cli.app import main; "
              f"sys.argv = ['sleuth', 'export', {str(case)!r}, '--format', 'gedcom']; main()")
    proc = subprocess.run(f"{sys.executable} -c \"{script}\" | head -1", shell=True,
                          capture_output=True, text=True, timeout=300, check=False)
    assert proc.stdout.startswith("0 HEAD")
    assert proc.stderr == ""
