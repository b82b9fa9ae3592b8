"""A living private person's name masked in the forms a reader knows it by (privacy.names):
the investigation case's committed views and its rendered files go through this mask."""

from __future__ import annotations

from sleuth.privacy.names import DATE_MASK, MASK, NameMask, name_forms


def test_the_forms_of_a_name() -> None:
    assert name_forms("Mr. John Quincy Smith") == [
        "Mr. John Quincy Smith", "John Quincy Smith", "John Smith", "Smith"]
    # a surname another (unprotected) person bears is not masked alone
    assert name_forms("John Smith", ["Smith"]) == ["John Smith"]
    assert name_forms("Madonna") == ["Madonna"]


def test_every_form_is_masked_on_word_boundaries_across_line_breaks() -> None:
    m = NameMask(name_forms("Mr. John Quincy Smith"))
    assert m.text("Mr. John Quincy\nSmith spoke; later Smith left.") == (
        f"{MASK} spoke; later {MASK} left.")
    assert m.text("search: john + smith") == f"search: john + {MASK}"
    assert m.text("the blacksmith and Smithson") == "the blacksmith and Smithson"
    assert not m.mentions("the blacksmith") and m.mentions("SMITH said")
    # a file named after the person, as a path shows it; a word that holds the name does not
    assert m.text("corpus/john_smith.txt, smith_2.pdf") == f"corpus/{MASK}.txt, {MASK}_2.pdf"
    assert not m.mentions("blacksmith_notes.txt")


def test_a_day_of_birth_and_json_keys_are_masked() -> None:
    m = NameMask(name_forms("John Smith"), dates=["4 March 1990"])
    data = {"John Smith": ["born on 4 March 1990", 3, None], "n": 1990}
    assert m.json(data) == {MASK: [f"born on {DATE_MASK}", 3, None], "n": 1990}
    assert not NameMask([]) and NameMask([]).text("John Smith") == "John Smith"
