"""Strict input with locations (issue 26, item 4), on a hostile corpus made here.

Each file below was accepted silently with exit 0 before: bad levels dropped an 1851 birth,
a duplicate `@I1@` lost the first person, a file declared ANSEL but written in UTF-8 was
stored as mojibake, `CHAR KLINGON-42` and a NUL in a NAME were stored, a truncated
FamilySearch record became text/plain with 0 candidates. Now the default refuses each with
one line naming file, line and field, exit code 2 and nothing stored; `--lenient` stores what
can be read and `sleuth check` shows the problem. A dangling pointer and a missing TRLR, which
real files have and Gramps reads, are stored with one warning line and shown by `check`.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from case_tables import stored_snapshots
from shared_data import shared_path
from sleuth.cli.app import app
from sleuth.gedcom import check_gedcom, decode_gedcom
from sleuth.sources import load_file
from sleuth.store import Store

runner = CliRunner()
HEAD = "0 HEAD\n1 GEDC\n2 VERS 5.5.1\n1 CHAR UTF-8\n"
JOHN = "0 @I1@ INDI\n1 NAME John /Smith/\n"
FS_RECORD = ("recorded", "familysearch", "saved_fetch_objects",
             "arthur_cowling_marriage_reg_1937.json")

# name -> (bytes, line, field, rule) of the refused files
REFUSED: dict[str, tuple[bytes, int, str | None, str]] = {
    # `3 BIRT` under `1 NAME` was read as the name's substructure: the birth was lost
    "bad_levels.ged": ((HEAD + JOHN + "3 BIRT\n4 DATE 1851\n0 TRLR\n").encode(), 7, "BIRT",
                       "input_level"),
    "not_a_line.ged": ((HEAD + JOHN + "l BIRT\n2 DATE 1851\n0 TRLR\n").encode(), 7, "BIRT",
                       "input_line"),
    "duplicate.ged": ((HEAD + JOHN + "1 BIRT\n2 DATE 1851\n0 @I1@ INDI\n1 NAME Mary /Jones/\n"
                       "0 TRLR\n").encode(), 9, "INDI", "input_duplicate_xref"),
    "no_head.ged": ((JOHN + "0 TRLR\n").encode(), 1, "INDI", "input_head"),
    "ansel_but_utf8.ged": ("0 HEAD\n1 CHAR ANSEL\n0 @I1@ INDI\n1 NAME Zoë /Müller/\n0 TRLR\n"
                           .encode(), 4, "CHAR", "input_charset"),
    "klingon.ged": ((HEAD.replace("UTF-8", "KLINGON-42") + JOHN + "0 TRLR\n").encode(), 4,
                    "CHAR", "input_charset"),
    "nul.ged": ((HEAD + "0 @I1@ INDI\n1 NAME Nul\x00l /Byte/\n0 TRLR\n").encode(), 6, "NAME",
                "input_control_character"),
    "no_shape.json": (b'{"records": [{"who": "John Smith", "born": 1851}]}', 1, None,
                      "input_json_shape"),
    # valid JSON whose string holds an escaped NUL: on PostgreSQL an internal error before
    "nul_escape.json": ((b'{"persons": [{"id": "P1", "names": [{"nameForms": [\n'
                         b'{"fullText": "Jo\\u0000hn Smith"}]}], "facts": [{"type": '
                         b'"http://gedcomx.org/Birth", "date": {"original": "1851"}}]}]}')
, 2, "fullText", "input_control_character"),
    # the family link is lost; a file without its trailer is how a truncated one looks
    "dangling.ged": ((HEAD + JOHN + "1 FAMC @F9@\n0 TRLR\n").encode(), 7, "FAMC",
                     "input_dangling_pointer"),
    "no_trailer.ged": ((HEAD + JOHN + "1 BIRT\n2 DATE 1851\n").encode(), 8, None,
                       "input_trailer"),
}
# accepted with a warning line: an extension tag's pointer means what its extension says
WARNED: dict[str, tuple[bytes, int, str | None, str]] = {
    "extension_pointer.ged": ((HEAD + JOHN + "1 _IN @B1@\n0 TRLR\n").encode(), 7, "_IN",
                              "input_dangling_pointer"),
    # HUSB and WIFE are {0:1} in 5.5.1 and 7.0: our own export once wrote a man as a 2nd WIFE
    "two_wives.ged": ((HEAD + JOHN + "1 FAMS @F1@\n0 @I2@ INDI\n1 NAME Mary /Smith/\n"
                       "1 SEX F\n1 FAMS @F1@\n0 @F1@ FAM\n1 WIFE @I2@\n1 WIFE @I1@\n"
                       "0 TRLR\n").encode(), 14, "WIFE", "input_partner_repeated"),
}


def _truncated_record(tmp_path: Path) -> tuple[Path, int, str]:
    """A real FamilySearch record cut in the middle of its text: the line it ends on and
    the member being read there."""
    whole = shared_path(*FS_RECORD).read_text(encoding="utf-8")
    cut = whole[: len(whole) // 2]
    path = tmp_path / "truncated_record.json"
    path.write_text(cut, encoding="utf-8")
    last_key = re.findall(r'"([^"\\]+)"\s*:', cut)[-1]
    return path, cut.count("\n") + 1, last_key


def _case(tmp_path: Path) -> Path:
    case = tmp_path / "case"
    Store.create_case(case).close()
    return case


def _check(target: Path) -> list[dict[str, object]]:
    res = runner.invoke(app, ["check", str(target), "--format", "json"])
    assert res.exit_code == 0, res.output
    return [json.loads(line) for line in res.stdout.splitlines()]


def _write(tmp_path: Path, name: str, raw: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(raw)
    return path


def _refused_and_lenient(tmp_path: Path, path: Path, line: int, field: str | None,
                         rule: str) -> None:
    case = _case(tmp_path)
    res = runner.invoke(app, ["ingest", str(case), str(path)])
    err = res.stderr.strip()
    assert res.exit_code == 2, res.output
    assert "\n" not in err and "Traceback" not in err, err
    where = f"{path}:{line}" + (f" [{field}]" if field else "") + ":"
    assert err.startswith(f"sleuth: error: {where}"), (where, err)
    assert stored_snapshots(case) == 0  # nothing stored
    res = runner.invoke(app, ["ingest", str(case), "--lenient", str(path)])
    assert res.exit_code == 0, res.output
    assert f"sleuth: warning: {where}" in res.stderr
    assert stored_snapshots(case) == 1
    found = [f for f in _check(case) if f["rule"] == rule]
    assert found and where in str(found[0]["message"]), found
    assert found[0]["severity"] == "error"


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_a_hostile_file_is_refused_with_its_line_and_read_leniently(tmp_path: Path,
                                                                   name: str) -> None:
    raw, line, field, rule = REFUSED[name]
    path = _write(tmp_path, name, raw)
    _refused_and_lenient(tmp_path, path, line, field, rule)
    if path.suffix == ".ged":  # `sleuth check FILE.ged` lists the problem too
        found = [f for f in _check(path) if f["rule"] == rule]
        assert found and f"{path}:{line}" in str(found[0]["message"])


def test_a_truncated_familysearch_record_is_refused_where_it_ends(tmp_path: Path) -> None:
    whole = shared_path(*FS_RECORD)
    case = _case(tmp_path / "whole")
    res = runner.invoke(app, ["ingest", str(case), str(whole)])
    assert res.exit_code == 0 and " — 12 candidates" in res.stdout, res.output
    path, line, key = _truncated_record(tmp_path)
    _refused_and_lenient(tmp_path, path, line, key, "input_json")


@pytest.mark.parametrize("name", sorted(WARNED))
def test_an_extension_tags_dangling_pointer_is_stored_with_a_warning(tmp_path: Path,
                                                                      name: str) -> None:
    raw, line, field, rule = WARNED[name]
    path = _write(tmp_path, name, raw)
    case = _case(tmp_path)
    res = runner.invoke(app, ["ingest", str(case), str(path)])
    assert res.exit_code == 0, res.output
    where = f"{path}:{line}" + (f" [{field}]" if field else "") + ":"
    assert res.stderr.strip().startswith(f"sleuth: warning: {where}"), res.stderr
    assert len(res.stderr.strip().splitlines()) == 1
    assert stored_snapshots(case) == 1
    for target in (case, path):
        found = [f for f in _check(target) if f["rule"] == rule]
        assert found and found[0]["severity"] == "warning", found


def test_lenient_reads_utf8_as_utf8_and_drops_the_nul(tmp_path: Path) -> None:
    case = _case(tmp_path)
    files = [_write(tmp_path, n, REFUSED[n][0]) for n in ("ansel_but_utf8.ged", "nul.ged")]
    assert runner.invoke(app, ["ingest", str(case), "--lenient", *map(str, files)]).exit_code == 0
    out = tmp_path / "out.ged"
    res = runner.invoke(app, ["export", str(case), "--format", "gedcom", "--out", str(out)])
    assert res.exit_code == 0, res.output
    text = out.read_text(encoding="utf-8")
    assert "Zoë" in text and "Müller" in text and "\x00" not in text and "Null" in text


def test_the_bad_levels_birth_is_kept_when_read_leniently(tmp_path: Path) -> None:
    case = _case(tmp_path)
    path = _write(tmp_path, "jump.ged", (HEAD + JOHN + "1 BIRT\n3 DATE 1851\n0 TRLR\n").encode())
    assert runner.invoke(app, ["ingest", str(case), str(path)]).exit_code == 2
    assert runner.invoke(app, ["ingest", str(case), "--lenient", str(path)]).exit_code == 0
    out = tmp_path / "out.ged"
    runner.invoke(app, ["export", str(case), "--format", "gedcom", "--out", str(out)])
    assert "2 DATE 1851" in out.read_text(encoding="utf-8")


def test_every_shared_gedcom_file_is_accepted_by_the_strict_reader() -> None:
    """The survey behind the table in README.md: no shared file is refused, and only one
    carries a warning (GEDCOM 7's own extension example points `_IN` at nothing; before
    GEDCOM 7 `SUBM @test@` finds `@TEST@`)."""
    warned: dict[str, list[str]] = {}
    files = sorted(shared_path("gedcom").rglob("*.ged"))
    assert len(files) > 90
    for path in files:
        _, _, problems = check_gedcom(decode_gedcom(path.read_bytes()), file=str(path))
        assert not [p for p in problems if p.refuse], (path, problems)
        if problems:
            warned[path.name] = [p.kind for p in problems]
    assert warned == {"extensions.ged": ["dangling_pointer"]}


def test_a_bad_bom_file_and_a_million_nuls_are_one_line_each(tmp_path: Path) -> None:
    """A BOM that the bytes contradict was an uncaught UnicodeDecodeError; a file of many
    NULs lists a hundred problems and counts the rest, in linear time."""
    bad = _write(tmp_path, "bom.ged", b"\xef\xbb\xbf" + (HEAD + "0 @I1@ INDI\n").encode()
                 + b"1 NAME Bad \xff /Byte/\n0 TRLR\n")
    case = _case(tmp_path)
    res = runner.invoke(app, ["ingest", str(case), str(bad)])
    assert res.exit_code == 2 and f"{bad}:6 [CHAR]:" in res.stderr, res.output
    nuls = _write(tmp_path, "nuls.ged", (HEAD + JOHN + "1 NOTE a\x00b\n" * 20_000
                                         + "0 TRLR\n").encode())
    problems = load_file(nuls, lenient=True).snapshot.metadata["input_problems"]
    assert len(problems) == 101 and "19900 more" in problems[-1]["message"]


@pytest.mark.parametrize("name", ["nul.ged", "nul_escape.json"])
def test_a_nul_is_one_line_on_every_database(tmp_path: Path, db_url: str, name: str) -> None:
    """On PostgreSQL a NUL in a GEDCOM line gave an 80-line traceback whose SQL parameters
    quoted the file (a living person's birth date and e-mail); an escaped NUL in JSON an
    internal error. Now, on SQLite and PostgreSQL alike: refused in one line, exit 2;
    `--lenient` stores the file without the NUL; nothing prints the SQL or its data."""
    raw, line, field, _ = REFUSED[name]
    secret = b"1 EMAIL jane.roe@example.com\n" if name.endswith(".ged") else b""
    path = _write(tmp_path, name, raw.replace(b"0 TRLR", secret + b"0 TRLR"))
    case = tmp_path / "case"
    Store.create_case(case, db_url).close()
    res = runner.invoke(app, ["ingest", str(case), str(path)])
    assert res.exit_code == 2, res.output
    assert res.stderr.strip().startswith(f"sleuth: error: {path}:{line} [{field}]: NUL")
    assert len(res.stderr.strip().splitlines()) == 1 and stored_snapshots(case) == 0
    res = runner.invoke(app, ["ingest", str(case), "--lenient", str(path)])
    assert res.exit_code == 0, res.output
    assert stored_snapshots(case) == 1
    for said in (res.output, res.stderr):
        assert "Traceback" not in said and "[SQL" not in said and "parameters" not in said
        assert "jane.roe" not in said
    out = tmp_path / "out.ged"
    res = runner.invoke(app, ["export", str(case), "--format", "gedcom", "--out", str(out)])
    assert res.exit_code == 0, res.output
    text = out.read_text(encoding="utf-8")
    assert "\x00" not in text and ("Null" in text or "John" in text), text
