"""The extractor over real noisy text: 1916 newspaper OCR, WikiBio leads, Google-RE snippets."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

from sleuth.extract import extract_text
from sleuth.model.dates import GenDate
from sleuth.model.records import Candidate

Contract = Callable[[list[Candidate], str, str], None]
Shared = Callable[..., Path]


def test_all_chronam_pages_hold_the_contract(contract: Contract, shared: Shared) -> None:
    pages = sorted(shared("text", "chronam_1916_front_pages", "pages").glob("*.txt"))
    assert len(pages) >= 10
    fields: Counter[str] = Counter()
    for p in pages:
        text = p.read_text(encoding="utf-8", errors="replace")
        ymd = p.name[:8]
        ref = GenDate.from_parts(int(ymd[:4]), int(ymd[4:6]), int(ymd[6:8]))
        cands = extract_text(text, p.stem, document_date=ref)
        contract(cands, text, p.stem)
        for c in cands:
            fields[c.field] += 1
            if c.date is not None and c.date.earliest is not None and c.is_fact:
                # Nothing long after the paper was printed (a funeral may be announced ahead).
                assert c.date.earliest <= ref.latest + timedelta(days=14), c
    for f in ("death_date", "death_place", "birth_date", "birth_place", "parent", "child",
              "spouse", "sibling", "burial_place", "age_at_death"):
        assert fields[f] >= 10, (f, fields)


def test_known_chronam_notice(shared: Shared) -> None:
    pages = shared("text", "chronam_1916_front_pages", "pages")
    hits = []
    for p in sorted(pages.glob("*.txt")):
        text = p.read_text(encoding="utf-8", errors="replace")
        if "Jesse J. H. Lankford" not in text:
            continue
        hits = [(c.subject_name, c.field, c.value) for c in extract_text(text, "s")]
    if not hits:
        return
    assert ("Jesse J. H. Lankford", "death_date", "1916-02-22") in hits
    # "Feb\nruary 23, 1883" is broken across lines: the reading view reads it whole.
    assert ("Jesse J. H. Lankford", "birth_date", "1883-02-23") in hits


def test_chronicling_america_recorded_page(contract: Contract, shared: Shared) -> None:
    text = shared("recorded", "chronicling_america", "ocr.txt").read_text(encoding="utf-8")
    contract(extract_text(text, "ocr"), text, "ocr")


def test_wikibio_summaries(contract: Contract, shared: Shared) -> None:
    lines = shared("text", "wikibio_sample", "test.summary").read_text(
        encoding="utf-8").splitlines()
    fields: Counter[str] = Counter()
    for i, line in enumerate(lines):
        cands = extract_text(line, f"w{i}")
        contract(cands, line, f"w{i}")
        fields.update(c.field for c in cands)
    assert fields["birth_date"] >= len(lines) * 0.5
    assert fields["death_date"] >= 10 and fields["birth_place"] >= 5


def _google_re_recall(
    contract: Contract, shared: Shared, name: str, hit: Callable[[dict, list], bool]
) -> tuple[int, int]:
    """(hits, records) of the extractor over one Google-RE dev file, contract checked."""
    hits = total = 0
    with shared("text", "google_re", name).open(encoding="utf-8") as fh:
        for line in fh:
            rec = json.loads(line)
            snippet = rec["evidences"][0]["snippet"]
            cands = extract_text(snippet, "g")
            contract(cands, snippet, "g")
            total += 1
            hits += hit(rec, cands)
    return hits, total


def test_google_re_date_of_birth_recall(contract: Contract, shared: Shared) -> None:
    hit, total = _google_re_recall(
        contract, shared, "google_re_date_of_birth.dev.jsonl",
        lambda rec, cands: any(
            c.field == "birth_date" and rec["obj"].startswith(c.value) and len(c.value) >= 4
            for c in cands),
    )
    assert hit / total >= 0.75, (hit, total)


def test_google_re_place_of_birth_recall(contract: Contract, shared: Shared) -> None:
    hit, total = _google_re_recall(
        contract, shared, "google_re_place_of_birth.dev.jsonl",
        lambda rec, cands: any(
            c.field == "birth_place" and rec["obj_label"].lower() in c.value.lower()
            for c in cands),
    )
    assert hit / total >= 0.55, (hit, total)
