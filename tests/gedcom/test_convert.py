"""A tree's structures fitted to the GEDCOM version written, and the 7.0 table behind it."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sleuth.gedcom.convert import (
    age_to_v7,
    date_to_v7,
    date_to_v551,
    record_to_v7,
    to_v7,
    to_v551,
)
from sleuth.gedcom.g7 import child_type, substructures
from sleuth.gedcom.tree import VOID, Item


class Records:
    """Collects the records a conversion adds."""

    def __init__(self) -> None:
        self.added: list[Item] = []

    def __call__(self, item: Item) -> str:
        self.added.append(item)
        return f"@X{len(self.added)}@"


def test_the_table_is_the_gedcom7_specification() -> None:
    const = pytest.importorskip("gedcom7.const")
    prefix = "https://gedcom.io/terms/v7/"
    for kind, kids in const.substructures.items():
        name = kind.replace(prefix, "") or "ROOT"
        if name.startswith("HEAD") or name in ("GEDC", "SCHMA", "record-SUBM"):
            continue
        assert substructures()[name] == {t: k.replace(prefix, "") for t, k in kids.items()}, name


def test_5_5_1_notes_relations_and_enumerations_become_7_0() -> None:
    new = Records()
    [note] = to_v7(Item("NOTE", pointer="@N1@"), "BIRT", new)
    assert note.tag == "SNOTE"
    [asso] = to_v7(Item("ASSO", pointer="@I2@", children=[Item("RELA", "Godfather")]),
                   "record-INDI", new)
    assert [(c.tag, c.value) for c in asso.children] == [("ROLE", "OTHER")]
    assert asso.children[0].children[0].value == "Godfather"  # kept as the PHRASE
    [pedi] = to_v7(Item("PEDI", "adopted"), "INDI-FAMC", new)
    assert pedi.value == "ADOPTED"
    [medi] = to_v7(Item("MEDI", "Photo"), "CALN", new)
    assert medi.value == "PHOTO"


def test_an_inline_source_becomes_a_record_with_its_text_under_data() -> None:
    new = Records()
    [cite] = to_v7(Item("SOUR", "Aunt Jane's letter", children=[
        Item("TEXT", "Born in the spring"), Item("NOTE", "Undated")]), "BIRT", new)
    assert cite.pointer == "@X1@" and new.added[0].first("NOTE").value == "Aunt Jane's letter"  # type: ignore[union-attr]
    assert [c.tag for c in cite.children] == ["DATA", "NOTE"]
    assert cite.children[0].children[0].value == "Born in the spring"


def test_what_7_0_has_no_place_for_is_an_extension_and_keeps_its_data() -> None:
    [plac_sour] = to_v7(Item("SOUR", pointer="@S1@", children=[Item("PAGE", "12")]), "PLAC",
                        Records())
    assert plac_sour.tag == "_SOUR" and plac_sour.children[0].value == "12"
    [rin] = to_v7(Item("RIN", "42"), "record-INDI", Records())
    assert (rin.tag, rin.value) == ("_RIN", "42")
    [custom] = to_v7(Item("_MILT", "Civil War", children=[Item("RELA", "x")]), "record-INDI",
                     Records())
    assert custom.children[0].tag == "RELA"  # inside an extension nothing is changed


def test_a_note_record_and_media_record_for_7_0() -> None:
    note = record_to_v7(Item("NOTE", "Shared", children=[Item("SOUR", pointer="@S1@")]),
                        Records())
    assert note.tag == "SNOTE" and note.children[0].tag == "SOUR"
    media = record_to_v7(Item("OBJE", children=[Item("FILE", "a.gif"), Item("FORM", "gif"),
                                                Item("TITL", "A")]), Records())
    [file] = media.children
    assert [(c.tag, c.value) for c in file.children] == [("FORM", "image/gif"), ("TITL", "A")]


@pytest.mark.parametrize(("old", "new", "phrase"), [
    ("31 Dec 1900", "31 DEC 1900", ""),
    ("@#DJULIAN@ 1 MAR 1700", "JULIAN 1 MAR 1700", ""),
    ("ABT 500 B.C.", "ABT 500 BCE", ""),
    ("INT 1850 (about the time of the fire)", "1850", "about the time of the fire"),
    ("(in the spring)", "", "in the spring"),
    ("1700/01", "", "1700/01"),
    ("███████████", "", "███████████"),
])
def test_dates_in_7_0_grammar(old: str, new: str, phrase: str) -> None:
    assert date_to_v7(old) == (new, phrase)


@pytest.mark.parametrize(("old", "new", "phrase"), [
    ("76", "76y", ""), ("3 months", "3m", ""), ("< 1y", "< 1y", ""), ("CHILD", "< 8y", ""),
    ("76y 3m 2d", "76y 3m 2d", ""), ("about thirty", "", "about thirty"),
])
def test_ages_in_7_0_grammar(old: str, new: str, phrase: str) -> None:
    assert age_to_v7(old) == (new, phrase)


def test_7_0_back_to_5_5_1() -> None:
    [note] = to_v551(Item("SNOTE", pointer="@N1@"), "BIRT")
    assert note.tag == "NOTE"
    [date] = to_v551(Item("DATE", "JULIAN 1700", children=[Item("PHRASE", "the winter")]),
                     "BIRT")
    assert (date.value, date.children) == ("INT @#DJULIAN@ 1700 (the winter)", [])
    [uid] = to_v551(Item("UID", "abc"), "record-INDI")
    assert uid.tag == "_UID"
    [void] = to_v551(Item("SOUR", pointer=VOID, children=[Item("PAGE", "p. 1")]), "BIRT")
    assert void.pointer is None and void.children[0].value == "p. 1"
    assert to_v551(Item("ASSO", pointer=VOID), "record-INDI") == []
    [role] = to_v551(Item("ASSO", pointer="@I1@", children=[
        Item("ROLE", "OTHER", children=[Item("PHRASE", "Godfather")])]), "record-INDI")
    assert (role.children[0].tag, role.children[0].value) == ("RELA", "Godfather")


@given(st.integers(1, 2100), st.integers(1, 12), st.integers(1, 28))
def test_exact_dates_survive_both_ways(year: int, month: int, day: int) -> None:
    months = ("JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV",
              "DEC")
    text = f"{day} {months[month - 1]} {year}"
    assert date_to_v7(text.title()) == (text, "")
    assert date_to_v551(text, "") == text


def test_child_type_knows_where_a_citation_may_go() -> None:
    assert child_type("BIRT", "SOUR") == "SOUR"
    assert child_type("SOUR", "DATA") == "SOUR-DATA"
    assert child_type("CHIL", "SOUR") is None
    assert child_type(None, "SOUR") is None
