"""The PDF and PNG capture of each source in `evidence/` (issue 24, item 2): made headless by
Debian's Chromium from the stored copy, recorded in `metadata.json`; without Chromium the
status in sources.md says so and the run completes as before. The Chromium test skips where
/usr/bin/chromium is absent, unless SLEUTH_BROWSER_TESTS=required (CI)."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from investigation_cases import QUESTION, REPORT, UNRELATED, write_corpus
from sleuth.cli.app import app
from sleuth.domains.investigations import browser
from sleuth.domains.investigations.state import load_state
from sleuth.model import Snapshot

runner = CliRunner()
HTML = "<!doctype html><html><head><meta charset='utf-8'><title>SOU 1970:12</title></head>" \
    "<body>" + "".join(f"<p>{p}</p>" for p in REPORT.split("\n\n")) + \
    "<img src='http://example.invalid/never-fetched.png'></body></html>"


def _investigate(tmp_path: Path, name: str) -> Path:
    corpus = write_corpus(tmp_path / f"corpus-{name}", report__html=HTML,
                          weather__txt=UNRELATED)
    case = tmp_path / name
    result = runner.invoke(app, ["investigate", QUESTION, "--out", str(case), "--corpus",
                                 str(corpus)])
    assert result.exit_code == 0, result.stdout + result.stderr
    state = load_state(case)
    assert state.status == "COMPLETE" and state.termination
    assert state.termination["reason"] == "verified" and not state.gaps
    return case


def _html_source(case: Path) -> Path:
    state = load_state(case)
    rec = next(s for s in state.sources if s.path.endswith("report.html"))
    return case / "evidence" / rec.id


def test_without_chromium_the_status_says_so_and_the_run_goes_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(browser, "CHROMIUM", tmp_path / "no-chromium")
    case = _investigate(tmp_path, "bare")
    folder = _html_source(case)
    assert not (folder / browser.PDF_NAME).exists()
    meta = json.loads((folder / "metadata.json").read_text(encoding="utf-8"))
    assert meta["rendering"]["files"] == []
    assert "Chromium not installed" in meta["rendering"]["status"]
    assert "no PDF/PNG: Chromium not installed" in (case / "sources.md").read_text()


def test_a_rendering_past_its_bound_is_a_status_not_a_gap(tmp_path: Path) -> None:
    fake = tmp_path / "chromium"  # a browser that hangs: the capture is bounded
    fake.write_text("#!/bin/sh\n[ \"$1\" = --version ] && echo 'Chromium 0' && exit 0\n"
                    "sleep 30\n")
    fake.chmod(0o755)
    r = browser.render(tmp_path, b"<p>x</p>", "x", "text/html", chromium=fake, timeout=0.5)
    assert not r.ok and r.status == "no PDF/PNG: Chromium ran past 0.5 s" and not r.files
    assert not (tmp_path / browser.PDF_NAME).exists()


def test_a_pdf_source_is_its_own_pdf_capture_with_a_png_of_page_1(tmp_path: Path) -> None:
    import pypdfium2

    doc = pypdfium2.PdfDocument.new()
    doc.new_page(200, 100)
    pdf = tmp_path / "in.pdf"
    doc.save(str(pdf))
    doc.close()
    out = tmp_path / "out"
    out.mkdir()
    r = browser.render(out, pdf.read_bytes(), "", "application/pdf")
    assert r.ok and r.tool.startswith("pypdfium2")
    assert (out / browser.PDF_NAME).read_bytes() == pdf.read_bytes()
    png = (out / browser.PNG_NAME).read_bytes()
    assert png.startswith(browser.PNG_MAGIC)
    assert png[16:24] == (300).to_bytes(4, "big") + (150).to_bytes(4, "big")  # scale 1.5


def test_an_html_source_gets_a_pdf_and_a_png(tmp_path: Path) -> None:
    if not browser.CHROMIUM.is_file():
        if os.environ.get("SLEUTH_BROWSER_TESTS") == "required":  # CI installs it
            raise RuntimeError("SLEUTH_BROWSER_TESTS=required but /usr/bin/chromium is "
                               "absent")
        pytest.skip("needs Debian's chromium (/usr/bin/chromium): apt-get install -y "
                    "chromium")
    case = _investigate(tmp_path, "rendered")
    folder = _html_source(case)
    pdf, png = (folder / browser.PDF_NAME).read_bytes(), (folder / browser.PNG_NAME).read_bytes()
    assert pdf.startswith(b"%PDF") and len(pdf) > 1000
    assert png.startswith(browser.PNG_MAGIC) and len(png) > 100
    meta = json.loads((folder / "metadata.json").read_text(encoding="utf-8"))
    rendering = meta["rendering"]
    assert rendering["status"] == browser.RENDERED
    assert rendering["tool"].startswith("Chromium ")
    assert {f["path"]: f["sha256"] for f in rendering["files"]} == {
        "capture.pdf": hashlib.sha256(pdf).hexdigest(),
        "capture.png": hashlib.sha256(png).hexdigest()}
    assert "captured; PDF and PNG" in (case / "sources.md").read_text(encoding="utf-8")

    # the captures change nothing that is compared across runs
    real = browser.CHROMIUM
    try:
        browser.CHROMIUM = tmp_path / "no-chromium"
        bare = _investigate(tmp_path, "bare")
    finally:
        browser.CHROMIUM = real
    for name in ("summary.md", "fact-check.md"):
        assert (case / name).read_text() == (bare / name).read_text(), name


def test_a_first_line_of_prose_is_not_a_title(tmp_path: Path) -> None:
    """A note whose first line is a long sentence is named by its file, not by half of that
    sentence (which a summary's attribution would then quote); a short heading stays."""
    from sleuth.domains.documents.rules import title_of
    from sleuth.sources import load_file

    def _heading(snap: Snapshot) -> str | None:
        return title_of(snap, heading_only=True)

    note = tmp_path / "notis.txt"
    note.write_text("Enligt en notis i Dagens Nyheter den 10 juni 1969 fick sin ordförande i "
                    "kommittén Rune Hermansson förordnande den 9 juni 1969.\n", encoding="utf-8")
    assert _heading(load_file(note).snapshot) is None
    heading = tmp_path / "heading.txt"
    heading.write_text("Offentlighet och sekretess\n\nEn lång text följer här.\n",
                       encoding="utf-8")
    assert _heading(load_file(heading).snapshot) == "Offentlighet och sekretess"
