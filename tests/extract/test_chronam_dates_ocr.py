"""Vital dates the OCR of 1916 obituaries garbled around (issue 20, dates recall, second
round): each rule on sentences as the pages print them. Every extraction passes the firewall
(`prose_facts`)."""

from __future__ import annotations

from prose_facts import prose_facts

from sleuth.model.dates import GenDate

REF = GenDate.from_parts(1916, 5, 15)  # a Monday


def _facts(text: str, ref: GenDate = REF) -> dict[str, set[tuple[str, str]]]:
    return prose_facts(text, ref, related=True)


def test_a_known_surname_right_before_was_born_is_that_person() -> None:
    text = ("James Marcellue Garrett, aged 68 years, died at 12:40 o'clock Sunday afternoon. "
            "James Marcel 1 us Garrett was bom January 26, 1863, at Simpson's Fork.")
    assert ("James Marcellue Garrett", "1863-01-26") in _facts(text)["birth_date"]


def test_an_unknown_lone_word_before_was_born_names_nobody() -> None:
    text = ("James Marcellue Garrett, aged 68 years, died at 12:40 o'clock Sunday afternoon. "
            "Harrison was born January 26, 1863, at Simpson's Fork.")
    assert ("James Marcellue Garrett", "1863-01-26") not in _facts(text).get("birth_date", set())
