"""Chunking for search (issue 25 item 7): every chunk is a run of the file's own lines,
verbatim; Markdown by section with tables apart, FPP by declaration with its annotations
and continuation lines. On small texts written here, and on every shared F´ file (skips
without ../shared)."""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path

import pytest

from shared_data import shared_path
from sleuth.domains.curation.chunking import (
    MAX_CHARS,
    TABLE_ROWS,
    chunk_file,
    fpp_chunks,
    lines_of,
    markdown_chunks,
)
from sleuth.domains.curation.search import identifier_parts, query_words, terms_of

SDD = """\\page SvcDemoComponent Svc::Demo Component
# Svc::Demo Component

## 1. Introduction

The `Svc::Demo` component counts pings.

## 2. Requirements

The requirements are:

Requirement | Description | Verification Method
----------- | ----------- | -------------------
DM-001 | The component shall count pings | Unit Test
DM-002 | The component shall report the count | Inspection

### 2.1 Notes

```
# not a heading
```
"""

FPP = """module Svc {

  @ A demo component
  active component Demo {

    # ----------------------------------------------------------------------
    # Commands
    # ----------------------------------------------------------------------

    @ Reset the count
    async command RESET(
                         value: U32 @< The new count
                       ) \\
      opcode 0

    @ The count changed
    event CountChanged(count: U32) \\
      severity activity low \\
      format "Count is now {}"

    constant A = 1
    constant B = 2

    enum Mode {
      ON
      OFF
    }

  }

}
"""


def _verbatim(text: str, chunks: list) -> None:
    lines = lines_of(text)
    for c in chunks:
        assert 1 <= c.start <= c.end <= len(lines)
        assert c.text == "\n".join(lines[c.start - 1:c.end])
        assert c.text.strip() and lines[c.start - 1].strip() and lines[c.end - 1].strip()
    spans = sorted((c.start, c.end) for c in chunks)
    assert all(a[1] < b[0] for a, b in pairwise(spans))  # no overlap


def test_markdown_sections_and_tables() -> None:
    chunks = markdown_chunks(SDD)
    _verbatim(SDD, chunks)
    got = [(c.kind, c.start, c.end, c.context) for c in chunks]
    assert got == [
        ("section", 1, 1, ""),
        ("section", 2, 2, "Svc::Demo Component"),
        ("section", 4, 6, "Svc::Demo Component > 1. Introduction"),
        ("section", 8, 10, "Svc::Demo Component > 2. Requirements"),
        ("table", 12, 15, "Svc::Demo Component > 2. Requirements | table: "
                          "Requirement | Description | Verification Method"),
        ("section", 17, 21, "Svc::Demo Component > 2. Requirements > 2.1 Notes"),
    ]


def test_a_long_table_is_cut_into_row_groups_with_its_header_in_the_context() -> None:
    rows = [f"R-{i:03} | row {i}" for i in range(40)]
    text = "## T\n\nId | What\n-- | --\n".replace("--", "---") + "\n".join(rows) + "\n"
    chunks = markdown_chunks(text)
    _verbatim(text, chunks)
    tables = [c for c in chunks if c.kind == "table"]
    assert len(tables) == 4 and all("table: Id | What" in c.context for c in tables)
    assert tables[0].start == 3 and tables[0].end == 3 + 2 + TABLE_ROWS - 1
    assert max(c.end - c.start + 1 for c in tables[1:]) <= TABLE_ROWS
    assert tables[-1].end == 4 + 40


def test_long_prose_is_split_at_blank_lines() -> None:
    para = " ".join(["word"] * 60)
    text = "## Long\n\n" + "\n\n".join([para] * 12) + "\n"
    chunks = markdown_chunks(text)
    _verbatim(text, chunks)
    assert len(chunks) > 1 and all(len(c.text) <= MAX_CHARS for c in chunks)


def test_fpp_declarations_keep_their_annotations_and_continuations() -> None:
    chunks = fpp_chunks(FPP)
    _verbatim(FPP, chunks)
    got = [(c.start, c.end, c.context) for c in chunks]
    comp = "module Svc > active component Demo"
    assert got == [
        (1, 1, "module Svc"),
        (3, 4, comp),
        (10, 14, f"{comp} > Commands"),  # @ annotation, the argument lines, the opcode
        (16, 19, f"{comp} > Commands"),  # severity and format continue the event
        (21, 22, f"{comp} > Commands"),  # one-line constants share a chunk
        (24, 27, f"{comp} > Commands > enum Mode"),
    ]


def test_other_files_by_paragraph() -> None:
    text = "one\ntwo\n\nthree\n"
    assert [(c.kind, c.start, c.end) for c in chunk_file(text, "NOTES.txt")] == [
        ("text", 1, 4)]


def test_identifiers_are_searched_in_their_parts_and_abbreviations_spelled_out() -> None:
    assert identifier_parts("CmdDispatcher") == ["cmd", "dispatcher"]
    assert identifier_parts("PRM_SAVE_FILE") == ["prm", "save", "file"]
    assert identifier_parts("compCmdReg") == ["comp", "cmd", "reg"]
    assert identifier_parts("RecvBuffApp") == ["recv", "buff", "app"]
    terms = terms_of("active component TlmChan")
    assert terms.split() == ["tlm", "chan", "telemetry", "channel"]
    assert query_words("How are opcodes registered by the CmdDispatcher?") == [
        "opcodes", "registered", "cmddispatcher", "cmd", "dispatcher", "command"]


@pytest.fixture(scope="module")
def fprime() -> Path:
    return shared_path("documents", "fprime")


def test_every_fprime_file_is_cut_verbatim_and_whole(fprime: Path) -> None:
    for path in sorted(fprime.iterdir()):
        text = path.read_text(encoding="utf-8")
        chunks = chunk_file(text, path.name)
        _verbatim(text, chunks)
        covered = {n for c in chunks for n in range(c.start, c.end + 1)}
        left = [n for n, line in enumerate(lines_of(text), start=1)
                if line.strip() and n not in covered
                and not line.strip().startswith(("#", "}"))]  # FPP banners and braces
        assert left == [], path.name
        if path.suffix in (".fpp", ".fppi"):
            assert {c.kind for c in chunks} == {"declaration"}
        elif path.suffix == ".md":
            assert {c.kind for c in chunks} <= {"section", "table"}


def test_the_command_dispatcher_sdd_tables_and_fpp_commands(fprime: Path) -> None:
    sdd = (fprime / "Svc__CmdDispatcher__docs__sdd.md").read_text(encoding="utf-8")
    tables = [c for c in chunk_file(sdd, "sdd.md") if c.kind == "table"]
    ports = next(c for c in tables if "3.1.2 Ports" in c.context)
    assert ports.text.startswith("Port Data Type | Name | Direction | Kind | Usage")
    fpp = (fprime / "Svc__CmdDispatcher__CmdDispatcher.fpp").read_text(encoding="utf-8")
    cmd = next(c for c in fpp_chunks(fpp) if "CMD_NO_OP_STRING" in c.text)
    assert cmd.text.splitlines()[0].strip() == "@ No-op string command"
    assert cmd.text.rstrip().endswith("opcode 1")
