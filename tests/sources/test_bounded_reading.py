"""Bounded reading of local files (issue 26, item 2): a size limit per kind of document,
with a warning before it; a CPU budget per document; compressed files inflated under the
limit, never past it. Every refusal is one line naming the file.

Each test names the failure it guards against (measured on main at 766de1a).
"""

from __future__ import annotations

import bz2
import io
import re
import zipfile
from pathlib import Path

import pytest
from fault_server import PeakRss
from typer.testing import CliRunner

from sleuth.cli.app import app
from sleuth.model import InputError
from sleuth.model.limits import MB, checkpoint, document_budget, read_limits
from sleuth.sources import load_file
from sleuth.store import Store, counts

runner = CliRunner()
GED = "0 HEAD\n1 GEDC\n2 VERS 5.5.1\n1 CHAR UTF-8\n0 @I1@ INDI\n1 NAME John /Smith/\n0 TRLR\n"
PROSE = ("Mary Hollis was born in 1850 in Buck Valley, the daughter of John Hollis. "
         "She married Thomas Reed in 1871 and died in 1916.\n")


def _one_line(exc: pytest.ExceptionInfo[InputError], path: Path) -> str:
    msg = str(exc.value)
    assert "\n" not in msg and msg.startswith(str(path)), msg
    return msg


def test_a_text_past_its_limit_is_refused_before_it_is_read(tmp_path: Path) -> None:
    """Was: a 50 MB text was read for 6 minutes (1.08 GB) with no limit and no warning.
    Now text has a limit of its own (10 MB by default), checked from the file's size."""
    big = tmp_path / "big.txt"
    with big.open("w") as f:
        f.write(PROSE * (11 * MB // len(PROSE) + 1))
    with pytest.raises(InputError) as exc:
        load_file(big)
    assert "too large to read: plain text of 11 MB; the limit is 10 MB" in _one_line(exc, big)
    with read_limits(max_mb=12):  # `--max-mb` raises it (not read here: it would take minutes)
        assert read_limits  # the option is checked below through the command line


def test_a_large_document_is_read_after_a_warning(tmp_path: Path) -> None:
    """Past a quarter of its limit, a document is read after one warning line, given
    before the (long) reading starts."""
    doc = tmp_path / "notes.txt"
    doc.write_text(PROSE * (300_000 // len(PROSE) + 1))
    said: list[str] = []
    with read_limits(max_mb=1, on_warning=said.append):
        load_file(doc)
    assert len(said) == 1 and said[0].startswith(f"{doc}: 0.3 MB of plain text, 29% of")
    said.clear()
    with read_limits(on_warning=said.append):
        load_file(doc)  # a tenth of a percent of the default limit: no warning
    assert said == []


def test_the_command_line_refuses_in_one_line_and_stores_nothing(tmp_path: Path) -> None:
    doc = tmp_path / "notes.txt"
    doc.write_text(PROSE * 20_000)  # 2.4 MB
    case = tmp_path / "case"
    Store.create_case(case).close()
    res = runner.invoke(app, ["ingest", str(case), str(doc), "--max-mb", "1"])
    assert res.exit_code == 2
    err = res.stderr.strip()
    assert err == (f"sleuth: error: {doc}: too large to read: plain text of 2.4 MB; the limit"
                   " is 1.0 MB (`--max-mb` raises it)"), err
    res = runner.invoke(app, ["ingest", str(case), str(doc), "--time-limit", "0.2"])
    assert res.exit_code == 2
    err = res.stderr.strip()
    assert err.startswith(f"sleuth: error: {doc}: too large or too complex to read: not done "
                          "within its budget of 0 s of CPU"), err
    assert "\n" not in err
    store = Store.open_case(case)
    try:
        assert counts(store)["snapshots"] == 0
    finally:
        store.close()


def test_the_budget_is_per_document_and_only_inside_one() -> None:
    checkpoint()  # outside a document: nothing to spend
    with read_limits(seconds=0.05), document_budget("slow.txt"), \
            pytest.raises(InputError, match=r"^slow.txt: too large or too complex"):
        while True:
            checkpoint()
    with read_limits(seconds=0.05), document_budget("next.txt"):
        checkpoint()  # a new document starts with its whole budget


def _bz2_bomb(inflated: int, block: bytes) -> bytes:
    """`inflated` bytes of `block` repeated, as bz2 streams one after another (each
    compressed once: a 100 MB bomb in a second)."""
    one = bz2.compress(block * (16 * MB // len(block)))
    return one * (inflated // (16 * MB))


def test_a_bz2_bomb_is_refused_at_the_limit_not_inflated(tmp_path: Path) -> None:
    """Was: a .bz2 was inflated to 64 MB in one call whatever its kind (a text's limit
    being 10 MB), and only its first stream was read. Now it is inflated a megabyte at a
    time and refused as it passes the limit of the kind inside; peak memory stays near it."""
    bomb = tmp_path / "letters.txt.bz2"
    bomb.write_bytes(_bz2_bomb(256 * MB, PROSE.encode()))
    assert bomb.stat().st_size < MB
    with PeakRss() as peak, pytest.raises(InputError) as exc:
        load_file(bomb)
    assert "bz2 content of more than the limit of 10 MB" in _one_line(exc, bomb)
    if peak.available:
        assert peak.growth < 40 * MB, f"peak grew {peak.growth / MB:.0f} MB"


def test_every_stream_of_a_multistream_bz2_is_read(tmp_path: Path) -> None:
    """pbzip2 writes one stream per block: was read to the end of the first only."""
    path = tmp_path / "two.txt.bz2"
    path.write_bytes(bz2.compress(b"First stream. ") + bz2.compress(b"Second stream."))
    assert load_file(path).snapshot.text == "First stream. Second stream."


def _gdz(dataset: bytes, declared: int | None = None) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("gedcom.ged", dataset)
    raw = buf.getvalue()
    if declared is not None:  # lie about the size in both headers
        size = len(dataset).to_bytes(4, "little")
        raw = raw.replace(size, declared.to_bytes(4, "little"))
    return raw


def test_a_gedzip_bomb_is_refused_unread_or_at_the_limit(tmp_path: Path) -> None:
    """Was: a GEDZIP's gedcom.ged was inflated whole (`ZipFile.read`), whatever its size."""
    bomb = tmp_path / "tree.gdz"
    dataset = (GED.replace("0 TRLR\n", "") + "1 NOTE " + "x" * 200 + "\n") * 20_000
    bomb.write_bytes(_gdz(dataset.encode()))  # 5.5 MB inside
    with read_limits(max_mb=1), pytest.raises(InputError) as exc:
        load_file(bomb)
    assert re.search(r"tree.gdz!gedcom.ged: too large to read: GEDCOM of 5.\d MB; the limit is"
                     r" 1.0 MB", str(exc.value))
    liar = tmp_path / "liar.gdz"
    liar.write_bytes(_gdz(dataset.encode(), declared=1000))
    with read_limits(max_mb=1), pytest.raises(InputError) as exc:
        load_file(liar)
    assert "GEDCOM of more than the limit of 1.0 MB" in str(exc.value) or \
        "damaged GEDZIP" in str(exc.value)


def test_deeply_nested_hocr_is_refused_in_one_line(tmp_path: Path) -> None:
    """Was: hOCR went to the HTML parser unchecked (quadratic in the nesting: 200,000
    nested spans held it for minutes); HTML itself was checked."""
    page = tmp_path / "scan.hocr"
    page.write_text("<html><body><div class='ocr_page' title='bbox 0 0 9 9'>"
                    + "<span>" * 200_000 + "x" + "</span>" * 200_000 + "</div></body></html>")
    with pytest.raises(InputError) as exc:
        load_file(page)
    assert "hOCR nested too deeply to read (200,001 levels" in _one_line(exc, page)
