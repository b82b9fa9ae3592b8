"""Prose extraction scored on real data: our hand-labelled 1916 OCR set, Google-RE, WikiBio.

The scorers are the benchmark's own (`benchmarks/extraction_sets`), so the test thresholds
and the published table measure the same thing. Thresholds sit a little below what the
extractor reaches today: they catch regressions, they are not the targets.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks"
sys.path.insert(0, str(BENCH))

from extraction_sets import FieldScore, chronam, google_re, wikibio  # noqa: E402

Shared = Callable[..., Path]


@pytest.fixture(scope="module")
def chronam_rows(shared: Shared) -> dict[str, FieldScore]:
    pages = shared("text", "chronam_1916_front_pages", "pages")
    return {r.field: r for r in chronam.evaluate(pages)}


def test_labelled_set_is_well_formed() -> None:
    regions, facts = chronam.load()
    assert len(regions) >= 17 and 800 <= len(facts) <= 1500  # issue 20: 107 notices
    for f in facts:
        assert f["page"] in regions and f["field"] in (*chronam.FIELDS, "child")
        assert f["subject"] and f["value"]


def test_chronam_firewall_and_hypotheses(chronam_rows: dict[str, FieldScore]) -> None:
    total = chronam_rows["all scored fields"]
    assert total.firewall_total > 100
    assert total.firewall_pass == total.firewall_total
    assert total.hypotheses_as_facts == 0


def test_chronam_accuracy(chronam_rows: dict[str, FieldScore]) -> None:
    """No worse than when the set grew to 107 notices (issue 20; its targets, relatives
    P 0.90 / R 0.80 and dates R 0.90, are far ahead: `benchmarks/extraction.py`)."""
    total = chronam_rows["all scored fields"]
    assert total.precision >= 0.65 and total.recall >= 0.30, (total.precision, total.recall)
    assert chronam_rows["relatives with relation"].f1 >= 0.40
    assert chronam_rows["parent"].f1 >= 0.42
    assert chronam_rows["age_at_death"].precision >= 0.85
    assert chronam_rows["death_place"].f1 >= 0.50
    assert chronam_rows["residence"].f1 >= 0.25


def test_name_and_place_matching_rules() -> None:
    assert chronam.name_match("Mrs. W. V. Hart", "W. V. Hart")
    assert chronam.name_match("Goldie", "Goldie Lefller")
    assert not chronam.name_match("John Naugle", "Mary Ann Naugle")
    assert chronam.place_match("Huntingdon, Pa.", "the Blair Memorial Hospital, Huntingdon")\
        is False
    assert chronam.place_match("Huntingdon, Pa.", "Huntingdon")
    assert chronam.place_match("Johnstown, Pa.", "Johnstown, Pa.")
    assert chronam.place_match("Thompson township", "Thompson town ship")  # OCR line break
    assert not chronam.place_match("Thompson township", "Thompson")
    # Exact pairs are matched first, so "Mr. and Mrs." parents both count once.
    golds = [("A", "parent", "W. V. Hart"), ("A", "parent", "Mrs. W. V. Hart")]
    assert chronam.match(golds, list(reversed(golds))) == (2, 0, 0)


def test_google_re_dev(shared: Shared) -> None:
    root = shared("text", "google_re").parents[1]
    rows = {r.field: r for r in google_re.score(root)}
    for r in rows.values():
        assert r.firewall_pass == r.firewall_total and r.hypotheses_as_facts == 0
    assert rows["birth_date"].recall >= 0.94 and rows["birth_date"].precision >= 0.95
    assert rows["birth_date"].f1 >= 0.965
    assert rows["birth_place"].recall >= 0.89 and rows["birth_place"].precision >= 0.95
    assert rows["birth_place"].f1 >= 0.92
    assert rows["death_place"].recall >= 0.86 and rows["death_place"].precision >= 0.95
    assert rows["death_place"].f1 >= 0.91


def test_wikibio_sample(shared: Shared) -> None:
    root = shared("text", "wikibio_sample").parents[1]
    rows = {r.field: r for r in wikibio.score(root)}
    for r in rows.values():
        assert r.firewall_pass == r.firewall_total and r.hypotheses_as_facts == 0
    assert rows["birth_date"].f1 >= 0.96
    assert rows["death_date"].f1 >= 0.95
    assert rows["birth_place"].f1 >= 0.85
    for f in ("birth_date", "birth_place", "death_date", "death_place"):
        assert rows[f].precision >= 0.9, (f, rows[f].precision)


def test_wikibio_gold_date_is_the_templates_first_date() -> None:
    # {{death date and age|1993|6|1|1941|2|27|df=yes}} flattened by WikiBio
    assert wikibio.first_date("1 june 1993 27 february 1941 yes") == "1 june 1993"
    assert wikibio.first_date("december 8 , 1769 1721") == "december 8 , 1769"
    assert wikibio.first_date("30 november 1977") == "30 november 1977"
    assert wikibio.date_correct("1 june 1993 27 february 1941 yes", "1993-06-01")


def test_wikibio_gold_is_counted_at_the_precision_the_sentence_states() -> None:
    life = "john smith -lrb- 1881 -- 1968 -rrb- was a painter ."
    assert wikibio.date_correct("2 march 1968", "1968", life)  # only the year is stated
    full = "john smith -lrb- 1881 -- 2 march 1968 -rrb- was a painter ."
    assert not wikibio.date_correct("2 march 1968", "1968", full)  # the day was there
    assert not wikibio.date_correct("2 march 1968", "1967", life)
