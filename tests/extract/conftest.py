"""Shared helpers for the extractor tests: real-data paths and the candidate contract."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from shared_data import shared_path
from sleuth.extract.reading import DEBRIS
from sleuth.model.records import DATE_FIELDS, PLACE_FIELDS, RELATIONSHIP_FIELDS, Candidate
from sleuth.verify import normalise
from sleuth.verify.normalise import ocr_years

fold = normalise  # the firewall's own normalisation, applied to excerpts and values alike
_BROKEN = re.compile(r"(?<=[^\W\d_])[ \t]*\n[ \t]*(?=[^\W\d_])")


def check_candidate(c: Candidate, text: str, snapshot_id: str) -> None:
    """Assert every property the firewall relies on, naming the breach when one fails."""
    cit = c.citation
    assert cit is not None, c
    loc = cit.locator
    assert cit.excerpt == text[loc.start : loc.end], c
    assert cit.excerpt and cit.excerpt.strip() == cit.excerpt, c
    assert cit.snapshot_id == snapshot_id
    assert 0.0 <= c.confidence <= 1.0
    assert re.fullmatch(r"p\d+", c.subject), c.subject
    # the excerpt as printed, then with every word the line end broke read whole (the
    # firewall's reading of a value's words, `verify.normalise.line_joins`)
    # (and with the debris at a line's start blanked, as the reading view reads it)
    clean = DEBRIS.sub(lambda m: " " * len(m.group()), cit.excerpt)
    ex = " | ".join(fold(t) for t in (cit.excerpt, _BROKEN.sub("", cit.excerpt), clean))
    if not c.is_fact:
        assert c.method == "inference" and c.confidence <= 0.6, c
        assert cit.extraction_method == "inference"
        return
    assert c.method == "deterministic" and cit.extraction_method == "deterministic"
    if c.field == "name":
        assert all(w in ex for w in fold(c.value).replace(",", " ").split()), (c.value, ex)
    elif c.field in RELATIONSHIP_FIELDS:
        assert c.related and c.related != c.subject and c.related_name == c.value, c
        assert all(w in ex for w in fold(c.value).replace(",", " ").split()), (c.value, ex)
    elif c.field in PLACE_FIELDS:
        assert fold(c.value) in ex, (c.value, ex)
    elif c.field in DATE_FIELDS:
        assert c.date is not None and c.value == c.date.iso(), c
        assert (c.value[:4] in cit.excerpt or fold(c.date.original).lower() in ex.lower()
                or c.value[:4] in {y for _, y in ocr_years(cit.excerpt)}), c
    elif c.field == "sex":
        assert c.value in ("M", "F")
    elif c.field == "age_at_death":
        assert c.value.isdigit()


def check_all(cands: list[Candidate], text: str, snapshot_id: str) -> None:
    keys = {c.subject for c in cands} | {c.related for c in cands if c.related}
    named = {c.subject for c in cands if c.field == "name"}
    assert keys <= named, keys - named  # every person has a name candidate
    for c in cands:
        check_candidate(c, text, snapshot_id)


@pytest.fixture(scope="session")
def shared() -> Callable[..., Path]:
    return shared_path


@pytest.fixture(scope="session")
def contract() -> Callable[[list[Candidate], str, str], None]:
    return check_all
