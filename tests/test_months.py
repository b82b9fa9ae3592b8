"""The shared month table (`sleuth.model.months`): one meaning for a month name everywhere."""

from __future__ import annotations

import pytest

from sleuth.model.months import MONTH_NAMES, month_number


@pytest.mark.parametrize(
    ("name", "number"),
    [("maj", 5), ("Juni", 6), ("août", 8), ("aout", 8), ("Décembre", 12), ("mars", 3),
     ("MAY", 5)],
)
def test_a_month_name_in_any_language_read_has_its_number(name: str, number: int) -> None:
    assert month_number(name) == number


def test_a_word_that_is_no_full_month_name_has_none() -> None:
    assert month_number("mayo") is None
    assert month_number("jan") is None  # abbreviations are each reader's own affair


def test_every_language_lists_twelve_months_in_order() -> None:
    for names in MONTH_NAMES.values():
        assert len(names) == 12
        assert [month_number(n) for n in names] == list(range(1, 13))
