"""Documents domain, issue 'determinism and what an archivist reads': the same files give
the same case twice (snapshot ids named by content, so two copies of one report keep their
order and the footnotes their numbers)."""

from __future__ import annotations

import re
from pathlib import Path

from typer.testing import CliRunner

from sleuth.cli.app import app

runner = CliRunner()
COPY = ("Dataskydd\nBetänkande av Utredningen om dataskydd\nStockholm 2017\nSOU 2017:66",
        "Till statsrådet och chefen för Socialdepartementet\nGenom beslut den 16 juni 2016 "
        "bemyndigade regeringen statsrådet Annika Strandhäll att tillkalla en särskild "
        "utredare (dir. 2016:52). Som särskild utredare förordnades den 17 juni 2016 "
        "ordföranden Sören Öman. Utredningen överlämnar härmed betänkandet (SOU 2017:66).")


def run(*args: object) -> tuple[int, str, str]:
    result = runner.invoke(app, [str(a) for a in args])
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def _build(case: Path, files: list[Path]) -> tuple[list[str], dict[str, str]]:
    """Init, ingest, work; the snapshot ids ingest printed, by file, and every export."""
    assert run("init", case, "--domain", "documents")[0] == 0
    code, out, err = run("ingest", case, *files)
    assert code == 0, err
    ids = sorted(re.findall(r"snapshot ([0-9a-f]{32})", out))
    code, _, err = run("work", case)
    assert code == 0, err
    exports = {}
    for fmt in ("report", "timeline", "entities", "html"):
        code, text, err = run("export", case, "--format", fmt)
        assert code == 0, err
        exports[fmt] = text
    return ids, exports


def test_two_builds_of_the_same_files_are_byte_identical(tmp_path: Path) -> None:
    # two copies of one report (as the shared folder holds SOU 2017:66 twice): a tie on the
    # designation that only the snapshot id breaks
    files = []
    for name, tail in (("a.txt", ""), ("b.txt", "\n(elektronisk utgåva)")):
        files.append(tmp_path / name)
        files[-1].write_text("\f".join(COPY) + tail, encoding="utf-8")
    first_ids, first = _build(tmp_path / "one", files)
    again_ids, again = _build(tmp_path / "two", files[::-1])
    assert len(first_ids) == 2 and first_ids == again_ids  # named by content, not drawn
    assert first["report"].count("- **SOU 2017:66** (") == 2
    assert first == again
