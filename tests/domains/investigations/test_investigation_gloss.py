"""Glosses of Swedish official terms (`gloss`): matched at a word start with Swedish endings,
the longest term at a place, each once, and nothing guessed for a term the table lacks."""

from __future__ import annotations

from sleuth.domains.investigations.gloss import glossed, glosses


def test_inflected_terms_are_glossed_in_order_once() -> None:
    text = ("OSK föreslår att tillståndstvång för upprättande av personregister med automatisk "
            "databehandling införs, och att personregistret anmäls.")
    assert [(g.printed, g.english) for g in glosses(text)] == [
        ("tillståndstvång", "a licensing requirement"),
        ("personregister", "personal register"),
        ("automatisk databehandling", "automatic data processing")]


def test_a_term_inside_a_longer_word_is_not_that_term() -> None:
    # "förordning" inside "tryckfrihetsförordningen" is the Press Act, not an ordinance
    assert [g.english for g in glosses("ändringar i tryckfrihetsförordningen")] == [
        "the Freedom of the Press Act"]
    assert glosses("Stockholm i juni 1972") == []
    assert glossed("Hej då") == ""


def test_the_gloss_line_reads_as_a_sentence() -> None:
    assert glossed("OSK föreslår, att myndigheten benämnes datainspektionen.") == (
        "Terms: myndigheten, authority; datainspektionen, the Data Inspection Board.")
