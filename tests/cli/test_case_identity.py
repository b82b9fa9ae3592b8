"""A case's database knows which case it belongs to (issue 26: a `db_url` could point one
case folder at another case's database). Every command that opens a case refuses a
database that is another case's with one line naming both folders and exit code 2, and
writes nothing, neither into that database nor into the folder; on SQLite and PostgreSQL,
through the command line."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest
from sqlalchemy import select
from typer.testing import CliRunner

from case_tables import case_tables
from sleuth.cli.app import app
from sleuth.store import Store
from sleuth.store import schema as t

runner = CliRunner()
NOTE = "Anna Berg was born on 3 May 1850 in Uppsala, the daughter of Per Berg.\n"
TABLES = ("snapshots", "candidates", "persons", "assertions", "citations", "research_log",
          "audit_log", "case_meta", "agent_tasks")


def _run(*args: str | Path) -> object:
    return runner.invoke(app, [str(a) for a in args])


def _owner_case(root: Path, db_url: str) -> Path:
    """Case A, in its own database (`db_url`), holding one ingested note."""
    a = root / "A"
    made = _run("init", a, "--db", db_url)
    assert made.exit_code == 0, made.output  # type: ignore[attr-defined]
    note = root / "note.txt"
    note.write_text(NOTE, encoding="utf-8")
    result = _run("ingest", a, note)
    assert result.exit_code == 0, result.output  # type: ignore[attr-defined]
    return a


def _pointed_at(root: Path, db_url: str, label: str = "B", domain: str | None = None) -> Path:
    """Case B, made in its own right, whose `case.json` is then pointed at `db_url`."""
    b = root / label
    args = ["init", str(b), *(["--domain", domain] if domain else [])]
    assert runner.invoke(app, args).exit_code == 0
    config = json.loads((b / "case.json").read_text())
    (b / "case.json").write_text(json.dumps({**config, "db_url": db_url}))
    return b


def _one_line(result: object) -> str:
    err = result.stderr.strip()  # type: ignore[attr-defined]
    assert err and "\n" not in err and "Traceback" not in err, err
    return err


def _snapshot(folder: Path, store_of: Path) -> tuple[dict[str, bytes], object]:
    """The folder's files (bytes) and the tables of the case stored at `store_of`."""
    files = {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}
    store = Store.open_case(store_of)
    try:
        return files, case_tables(store, TABLES)
    finally:
        store.close()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _commands(b: Path, root: Path) -> list[list[str | Path]]:
    """A command of each kind that opens a case (`cli.common.open_case`, the research
    loop's writer lock, `Store.open_case`)."""
    other = root / "other.txt"
    other.write_text("Per Berg died in 1890 in Uppsala.\n", encoding="utf-8")
    return [["ingest", b, other], ["export", b, "--out", root / "out"],
            ["show", b, "person", "p1"], ["check", b], ["review", b],
            ["privacy", "report", b], ["research", "--name", "Anna Berg", "--out", b,
                                        "--source", "local_gedcom"],
            ["coverage", b], ["timeline", b, "--person", "p1"], ["tasks", b],
            ["serve", b, "--port", str(_free_port())]]


def test_a_case_pointed_at_another_cases_database_is_refused(
        tmp_path: Path, db_url: str) -> None:
    a = _owner_case(tmp_path, db_url)
    b = _pointed_at(tmp_path, db_url)
    before_a, before_b = _snapshot(a, a), _snapshot(b, a)[0]
    commands = _commands(b, tmp_path)
    for args in [*commands, ["resume", b]]:
        if args[0] == "resume":  # a run file, so that `resume` gets as far as the case
            (b / "research-run.json").write_text(json.dumps(
                {"run_id": "r1", "seed": {"name": "Anna Berg"}}), encoding="utf-8")
            before_b = _snapshot(b, a)[0]
        result = _run(*args)
        assert result.exit_code == 2, (args, result.output)  # type: ignore[attr-defined]
        line = _one_line(result)
        assert str(a.resolve()) in line and str(b.resolve()) in line, (args, line)
        assert "belongs to the case in" in line and "[db_url]" in line, line
    assert _snapshot(a, a) == before_a  # nothing written into A's database or folder
    assert _snapshot(b, a)[0] == before_b  # nor into B's folder (no lock, no run)
    assert not (tmp_path / "out").exists()


def test_a_workers_case_pointed_at_another_database_is_refused(
        tmp_path: Path, db_url: str) -> None:
    """`sleuth work` (no case lock: workers share a case) opens the case the same way."""
    a = _owner_case(tmp_path, db_url)
    b = _pointed_at(tmp_path, db_url, domain="documents")
    before = _snapshot(a, a)
    result = _run("work", b, "--once")
    assert result.exit_code == 2, result.output  # type: ignore[attr-defined]
    assert str(a.resolve()) in _one_line(result)
    assert _snapshot(a, a) == before


def test_init_on_another_cases_database_makes_nothing(tmp_path: Path, db_url: str) -> None:
    a = _owner_case(tmp_path, db_url)
    result = _run("init", tmp_path / "C", "--db", db_url)
    assert result.exit_code == 2, result.output  # type: ignore[attr-defined]
    assert str(a.resolve()) in _one_line(result)
    assert not (tmp_path / "C").exists()


def test_the_normal_path_and_a_copied_case_still_open(tmp_path: Path, db_url: str) -> None:
    a = _owner_case(tmp_path, db_url)
    config = json.loads((a / "case.json").read_text())
    store = Store.open_case(a)
    with store.engine.connect() as conn:
        marker = dict(conn.execute(select(t.case_meta.c.key, t.case_meta.c.value)).all())
    store.close()
    assert marker == {"case_id": config["case_id"], "case_dir": str(a.resolve())}
    for args in (["export", a, "--out", tmp_path / "out"], ["check", a], ["tasks", a]):
        result = _run(*args)
        assert result.exit_code == 0, (args, result.output)  # type: ignore[attr-defined]
    # The same case in a second folder (its case.json copied, same id) is the same case.
    copy = tmp_path / "A-moved"
    copy.mkdir()
    (copy / "case.json").write_text((a / "case.json").read_text())
    assert _run("export", copy, "--out", tmp_path / "out2").exit_code == 0  # type: ignore[attr-defined]


def _unmark(case: Path) -> None:
    """Make `case` look as a case from before case ids: no id in case.json or the database."""
    config = json.loads((case / "case.json").read_text())
    del config["case_id"]
    (case / "case.json").write_text(json.dumps(config))
    store = Store.open_url(config["db_url"])
    with store.engine.begin() as conn:
        conn.execute(t.case_meta.delete())
    store.close()


def test_a_case_from_before_case_ids_adopts_one_on_its_first_open(
        tmp_path: Path, db_url: str) -> None:
    a = _owner_case(tmp_path, db_url)
    _unmark(a)
    result = _run("export", a, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output  # type: ignore[attr-defined]
    case_id = json.loads((a / "case.json").read_text())["case_id"]
    store = Store.open_case(a)
    with store.engine.connect() as conn:
        held = conn.execute(select(t.case_meta.c.value).where(
            t.case_meta.c.key == "case_id")).scalar_one()
    store.close()
    assert held == case_id
    # An older folder pointed at the database that A has claimed is refused ...
    b = _pointed_at(tmp_path, db_url)
    config = json.loads((b / "case.json").read_text())
    del config["case_id"]
    (b / "case.json").write_text(json.dumps(config))
    result = _run("export", b, "--out", tmp_path / "out-b")
    assert result.exit_code == 2, result.output  # type: ignore[attr-defined]
    assert str(a.resolve()) in _one_line(result)
    assert "case_id" not in json.loads((b / "case.json").read_text())


def test_a_new_case_on_an_older_cases_database_is_refused(tmp_path: Path, db_url: str) -> None:
    """A database with a case's rows but no id (a case from before case ids, not opened
    since) is not taken by a folder with an id of its own."""
    a = _owner_case(tmp_path, db_url)
    _unmark(a)
    b = _pointed_at(tmp_path, db_url)
    result = _run("check", b)
    assert result.exit_code == 2, result.output  # type: ignore[attr-defined]
    assert "no case id" in _one_line(result)
    # ... and its own folder still opens it, and takes it.
    assert _run("check", a).exit_code == 0  # type: ignore[attr-defined]
    assert "case_id" in json.loads((a / "case.json").read_text())


@pytest.mark.parametrize("command", ["ingest", "export"])
def test_a_case_keeps_its_one_id_across_commands(tmp_path: Path, command: str) -> None:
    """The normal path: a case in its own folder, opened again and again, keeps one id."""
    case = tmp_path / "case"
    assert _run("init", case).exit_code == 0  # type: ignore[attr-defined]
    first = json.loads((case / "case.json").read_text())["case_id"]
    note = tmp_path / "n.txt"
    note.write_text(NOTE, encoding="utf-8")
    args = ["ingest", case, note] if command == "ingest" else ["export", case, "--out",
                                                                tmp_path / "o"]
    assert _run(*args).exit_code == 0  # type: ignore[attr-defined]
    assert json.loads((case / "case.json").read_text())["case_id"] == first
