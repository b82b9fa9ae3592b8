"""`sleuth investigate --sources` (issue 24): the built-in online plugins searched through the
polite fetcher, every hit captured as evidence like a corpus file, search results kept as
leads; an unreachable source is a recorded gap, an unknown one a one-line refusal. The only
stand-in is the HTTP server on 127.0.0.1 serving recorded real responses."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from pytest_httpserver import HTTPServer

from investigation_cases import QUESTION as CORPUS_QUESTION
from investigation_cases import REPORT, assert_deliverable, run, write_corpus
from online_cases import (
    OCR,
    PAGE,
    point_at,
    serve_chronicling_america,
    serve_only_search,
    serve_wikidata,
    serve_wikipedia,
)
from sleuth.domains.investigations import browser
from sleuth.domains.investigations.state import load_state
from sleuth.store import Store

QUESTION = "What did Douglas Adams say about the anecdote?"


def test_a_served_wikipedia_page_is_found_captured_and_verified(
        tmp_path: Path, httpserver: HTTPServer, monkeypatch: pytest.MonkeyPatch) -> None:
    serve_wikipedia(httpserver)
    monkeypatch.setenv("SLEUTH_SOURCES_DIR", str(point_at(httpserver, tmp_path / "specs",
                                                          "wikipedia")))
    case = tmp_path / "case"
    code, out, err = run("investigate", QUESTION, "--out", case, "--sources", "wikipedia")
    assert code == 0, out + err
    state = load_state(case)
    assert state.status == "COMPLETE" and state.termination
    assert state.termination["reason"] == "verified" and not state.gaps
    assert state.online == ["wikipedia"] and state.corpus == ""
    [rec] = state.captured()
    assert rec.path == httpserver.url_for(PAGE) and rec.title == "Douglas Adams (wikipedia)"
    meta = json.loads((case / "evidence" / rec.id / "metadata.json").read_text())
    assert meta["url"] == httpserver.url_for(PAGE) and meta["captured_at"]
    assert meta["media_type"] == "text/html" and meta["citable"] is True
    if browser.CHROMIUM.is_file() or os.environ.get("SLEUTH_BROWSER_TESTS") == "required":
        # drawn headless from the stored copy: a PDF and a PNG beside it, hashed
        assert meta["rendering"]["status"] == browser.RENDERED, meta["rendering"]
        folder = case / "evidence" / rec.id
        assert (folder / browser.PDF_NAME).read_bytes().startswith(b"%PDF")
        assert (folder / browser.PNG_NAME).read_bytes().startswith(browser.PNG_MAGIC)
    store = Store.open_case(case)
    try:  # the evidence is the fetcher's stored snapshot of the served page
        snap = store.snapshot(meta["snapshot_id"])
        assert snap.sha256 == meta["sha256"] == rec.sha256
        assert snap.metadata["source_id"] == "wikipedia"
    finally:
        store.close()
    summary = (case / "summary.md").read_text(encoding="utf-8")
    assert "constant repetition of this anecdote" in summary
    assert_deliverable(case)  # footnoted, quoted verbatim from the capture, VERIFIED
    leads = (case / "research-leads" / "iteration-01.md").read_text(encoding="utf-8")
    assert "wikipedia" in leads and PAGE in leads and "captured: S001" in leads
    paths = [r[0].path for r in httpserver.log]
    assert paths.count("/robots.txt") == 1 and paths.count(PAGE) == 1  # polite: once each


def test_an_unreachable_source_is_a_recorded_gap(tmp_path: Path, httpserver: HTTPServer,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    folder = point_at(httpserver, tmp_path / "specs", "wikipedia")
    spec = folder / "wikipedia.yaml"  # the same source at a port nothing listens on
    spec.write_text(spec.read_text().replace(httpserver.url_for("/").rstrip("/"),
                                             "http://127.0.0.1:9"), encoding="utf-8")
    monkeypatch.setenv("SLEUTH_SOURCES_DIR", str(folder))
    case = tmp_path / "case"
    code, out, err = run("investigate", QUESTION, "--out", case, "--sources", "wikipedia",
                         "--max-iterations", 2)
    assert code == 1, err
    state = load_state(case)
    assert state.status == "PAUSED" and state.termination
    assert state.termination["reason"] == "budget:iterations"
    gaps = [g for g in state.gaps if g.kind == "source_unreachable"]
    assert len(gaps) == 1 and gaps[0].ref == "wikipedia" and gaps[0].since == 2  # retried
    assert "wikipedia could not be searched" in gaps[0].text
    assert "gap [source_unreachable]" in out
    leads = (case / "research-leads" / "iteration-01.md").read_text(encoding="utf-8")
    assert "the search failed: wikipedia:" in leads


def test_a_page_that_cannot_be_fetched_is_a_failed_capture_and_a_gap(
        tmp_path: Path, httpserver: HTTPServer, monkeypatch: pytest.MonkeyPatch) -> None:
    serve_only_search(httpserver)  # the search answers; the page is gone (404)
    monkeypatch.setenv("SLEUTH_SOURCES_DIR", str(point_at(httpserver, tmp_path / "specs",
                                                          "wikipedia")))
    case = tmp_path / "case"
    code, _, _ = run("investigate", QUESTION, "--out", case, "--sources", "wikipedia",
                     "--max-iterations", 1)
    assert code == 1
    state = load_state(case)
    [failed] = [s for s in state.sources if s.status == "failed"]
    assert failed.error and "404" in failed.error and failed.path == httpserver.url_for(PAGE)
    assert any(g.kind == "capture_failed" and g.ref == failed.id for g in state.gaps)
    assert "FAILED" in (case / "sources.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("sources, message", [
    ("wikipedia,nowhere", "unknown source 'nowhere'"),
    ("familysearch", "unknown source 'familysearch'"),
    (" , ", "--sources names no source"),
])
def test_an_unknown_source_name_refuses_the_command(tmp_path: Path, sources: str,
                                                    message: str) -> None:
    code, _, err = run("investigate", QUESTION, "--out", tmp_path / "case", "--sources",
                       sources)
    assert code == 2 and message in err and "\n" not in err.strip()
    assert not (tmp_path / "case").exists()


def test_corpus_named_without_a_folder_is_refused(tmp_path: Path) -> None:
    code, _, err = run("investigate", QUESTION, "--out", tmp_path / "case", "--sources",
                       "wikipedia,corpus")
    assert code == 2 and "--corpus" in err


def test_wikidata_and_chronicling_america_hits_are_captured(
        tmp_path: Path, httpserver: HTTPServer, monkeypatch: pytest.MonkeyPatch) -> None:
    serve_wikidata(httpserver)
    serve_chronicling_america(httpserver)
    monkeypatch.setenv("SLEUTH_SOURCES_DIR", str(point_at(
        httpserver, tmp_path / "specs", "wikidata", "chronicling_america")))
    case = tmp_path / "case"
    run("investigate", "Who was Douglas Adams?", "--out", case, "--sources",
        "wikidata,chronicling_america", "--max-iterations", 1)
    state = load_state(case)
    by = {s.title: s for s in state.captured()}
    entity = by["Douglas Adams (Q42) (wikidata)"]
    assert "wbgetentities" in entity.path and entity.media_type == "application/json"
    page = by["New-York tribune. January 1, 1898 (chronicling_america)"]
    assert page.path == httpserver.url_for(OCR) and page.media_type == "text/plain"
    capture = (case / "evidence" / page.id / "capture.txt").read_text(encoding="utf-8")
    assert "BIG HARBOR TIEUP" in capture
    meta = json.loads((case / "evidence" / entity.id / "metadata.json").read_text())
    assert meta["url"] == entity.path and len(meta["sha256"]) == 64


def test_without_sources_nothing_goes_online(tmp_path: Path, httpserver: HTTPServer,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    serve_wikipedia(httpserver)  # a source is there to be asked, and is not
    monkeypatch.setenv("SLEUTH_SOURCES_DIR", str(point_at(httpserver, tmp_path / "specs",
                                                          "wikipedia")))
    corpus = write_corpus(tmp_path / "corpus", report__txt=REPORT)
    code, out, err = run("investigate", CORPUS_QUESTION, "--out", tmp_path / "case",
                         "--corpus", corpus)
    assert code == 0, out + err
    assert not httpserver.log and load_state(tmp_path / "case").online == []
