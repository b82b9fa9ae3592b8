"""Structured name parsing and given-name equivalence, on written forms and real records."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sleuth.extract import nicknames
from sleuth.extract.person_names import (
    PersonName,
    display_case,
    given_name_equivalent,
    normalise_given,
    parse_name,
    person_key,
    strip_title,
    surname,
)


def test_display_case_reads_register_capitals_as_a_name() -> None:
    assert display_case("Susannah WHITTICK") == "Susannah Whittick"
    assert display_case("JOHN McDONALD") == "John McDonald"
    assert display_case("MARY O'BRIEN SMITH-JONES") == "Mary O'Brien Smith-Jones"
    assert display_case("Henry VIII") == "Henry VIII"  # a regnal number stays
    assert display_case("Ann Rebecca Garside") == "Ann Rebecca Garside"
    assert display_case("J. R. TOLKIEN") == "J. R. Tolkien"


def test_titles_suffixes_and_initials() -> None:
    p = parse_name("Rev. Dr. William H. Smith Jr.")
    assert p.titles == ("Rev.", "Dr.") and p.given == ("William", "H.")
    assert p.surname == "Smith" and p.suffix == "Jr." and p.initials == "WH"
    assert p.display == "William H. Smith Jr." and p.sex == "M"
    assert parse_name("Chas. E. Brown, Esq.").suffix == "Esq."
    assert parse_name("Henry Ford III").suffix == "III"
    j = parse_name("J. W. Smith")
    assert j.given == ("J.", "W.") and j.surname == "Smith" and j.sex is None


def test_abbreviations_expand_but_verbatim_is_kept() -> None:
    p = parse_name("Wm. H.")
    assert p.given == ("Wm.", "H.") and p.given_normalised == ("William", "H.")
    assert p.surname is None  # "Wm. H." has no surname; nothing is invented
    for short, full in [("Geo.", "George"), ("Jas.", "James"), ("Chas.", "Charles"),
                        ("Thos.", "Thomas"), ("Jno.", "John"), ("Saml.", "Samuel"),
                        ("Benj.", "Benjamin"), ("Robt.", "Robert"), ("Eliz.", "Elizabeth"),
                        ("Margt.", "Margaret"), ("Wm", "William")]:
        assert normalise_given(short) == full
    assert normalise_given("Fred") == "Fred"  # a name in its own right stays as written
    assert normalise_given("Fred.") == "Frederick"


def test_married_reference_and_maiden_names() -> None:
    m = parse_name("Mrs. John Smith")
    assert m.is_married_reference and m.husband_name == "John Smith"
    assert m.given == () and m.sex == "F" and m.surname == "Smith"
    assert not parse_name("Mrs. Mary Smith").is_married_reference
    assert not parse_name("Mrs. J. W. Smith").is_married_reference  # initials: undecided
    couple = parse_name("Mr. and Mrs. John Smith")
    assert couple.is_couple and not couple.is_married_reference and couple.sex is None
    for text in ["Mary Smith née Jones", "Mrs. Mary (Jones) Smith",
                 "Mary Smith, formerly Miss Jones", "Mary Smith nee Jones"]:
        p = parse_name(text)
        assert (p.given, p.surname, p.maiden) == (("Mary",), "Smith", "Jones"), text
    ambiguous = parse_name("Mary Jones Smith")
    assert ambiguous.maiden is None and ambiguous.given == ("Mary", "Jones")


def test_nicknames_and_name_forms() -> None:
    assert parse_name('William "Bill" Lee').nicknames == ("Bill",)
    p = parse_name("Margaret (Peggy) Lee")
    assert p.nicknames == ("Peggy",) and p.maiden is None and p.surname == "Lee"
    g = parse_name("John /Smith/ Jr.")
    assert (g.given, g.surname, g.suffix) == (("John",), "Smith", "Jr.")
    f = parse_name("SMITH, John")
    assert (f.given, f.surname, f.surname_verbatim) == (("John",), "Smith", "SMITH")
    assert parse_name("Smith, John W., Jr.").display == "John W. Smith Jr."
    assert parse_name("John SMITH").surname == "Smith"
    assert parse_name("Martin Van Buren").surname == "Van Buren"
    assert parse_name("Ludwig van Beethoven").surname_core == "Beethoven"
    assert parse_name("Thos. McDONALD").display == "Thomas McDonald"
    assert parse_name("Aunt Mary").given == ("Mary",)


def test_equivalence_table() -> None:
    yes = [("William", "Bill"), ("Wm.", "Billy"), ("Will", "Bill"), ("Elizabeth", "Betsy"),
           ("Eliza", "Lizzie"), ("Margaret", "Peggy"), ("Maggie", "Meg"), ("Robert", "Bob"),
           ("John", "Jack"), ("Jno.", "Johnny"), ("Mary", "Polly"), ("Molly", "Mamie"),
           ("Henry", "Hank"), ("Richard", "Dick"), ("Edward", "Ned"), ("Ted", "Eddie"),
           ("James", "Jim"), ("Jas.", "Jamie"), ("Charles", "Chas"), ("Catherine", "Kate"),
           ("Katherine", "Kitty"), ("Sarah", "Sally"), ("Anne", "Nancy"), ("Ann", "Annie"),
           ("J.", "John"), ("JOHN", "john")]
    no = [("John", "James"), ("Henry", "Harold"), ("Mary", "Margaret"), ("William", "Wilma"),
          ("", "John"), ("Thomas", "Timothy")]
    for a, b in yes:
        assert given_name_equivalent(a, b) and given_name_equivalent(b, a), (a, b)
    for a, b in no:
        assert not given_name_equivalent(a, b), (a, b)
    pairs = sum(len(v) for v in nicknames.GROUPS.values())
    assert pairs >= 1000 and len(nicknames.GROUPS) >= 500


def test_existing_helpers_unchanged() -> None:
    assert strip_title("Mrs. John Smith") == "John Smith"
    assert surname("John Smith, Jr.") == "Smith"
    assert person_key("Mr. John Smith") == "john smith"


def _fs_names(root: Path) -> list[tuple[str, str | None, str]]:
    out: list[tuple[str, str | None, str]] = []

    def walk(o: object) -> None:
        if isinstance(o, dict):
            n = o.get("name")
            if isinstance(n, dict) and n.get("name") and n.get("lastName"):
                out.append((n["name"], n.get("forenames"), n["lastName"]))
            for v in o.values():
                walk(v)
        elif isinstance(o, list):
            for v in o:
                walk(v)

    for f in sorted(root.glob("*.json")):
        walk(json.loads(f.read_text()))
    return sorted(set(out))


def test_familysearch_name_split_agrees(shared) -> None:
    """FamilySearch's reference split of 200+ record names into forenames and last name."""
    names = _fs_names(shared("recorded", "familysearch", "expected", "generalized_data"))
    assert len(names) >= 150
    surname_ok = sum((parse_name(n).surname or "").lower() == last.lower()
                     for n, _, last in names)
    given_ok = sum(fore is None or " ".join(parse_name(n).given).lower() == fore.lower()
                   for n, fore, _ in names)
    assert surname_ok / len(names) >= 0.95
    assert given_ok / len(names) >= 0.95


_LINE = re.compile(r"\s*(\d+)\s+(\S+)\s?(.*)")


def _gedcom_names(paths: list[Path]) -> list[dict[str, str]]:
    out: list[dict[str, str]] = []
    for path in paths:
        cur: dict[str, str] | None = None
        for line in path.read_text(encoding="utf-8-sig", errors="replace").splitlines():
            m = _LINE.match(line)
            if not m:
                continue
            level, tag, val = int(m.group(1)), m.group(2), m.group(3).strip()
            if tag == "NAME" and level >= 1:
                cur = {"NAME": val}
                out.append(cur)
            elif cur is not None and level >= 2 and tag in ("GIVN", "SURN"):
                cur[tag] = val
            elif level <= 1:
                cur = None
    return [d for d in out if d.get("SURN")]


def test_gedcom_name_pieces_agree(shared) -> None:
    """NAME lines against their own GIVN / SURN sub-records, with and without the slashes."""
    paths = [*sorted(shared("gedcom", "samples").glob("*.ged")),
             shared("gedcom", "gramps", "example.ged")]
    names = _gedcom_names(paths)
    assert len(names) >= 3000

    def core(p: PersonName) -> str:
        return (p.surname_core or "").lower()

    def surn(d: dict[str, str]) -> str:
        return parse_name(f"/{d['SURN']}/").surname_core or ""

    slashed = sum(core(parse_name(d["NAME"])) == surn(d).lower() for d in names)
    free = sum(core(parse_name(d["NAME"].replace("/", " "))) == surn(d).lower() for d in names)
    with_given = [d for d in names if d.get("GIVN")]
    given_ok = sum(" ".join(parse_name(d["NAME"]).given).replace(",", "").lower()
                   == d["GIVN"].replace(",", "").lower() for d in with_given)
    assert slashed / len(names) >= 0.98
    assert free / len(names) >= 0.95  # surname found without GEDCOM's slashes
    assert given_ok / len(with_given) >= 0.93


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=80))
def test_parse_name_total(text: str) -> None:
    p = parse_name(text)
    assert p.text == text
    assert len(p.given) == len(p.given_normalised)
    if p.surname_verbatim:
        folded = " ".join(text.split()).lower()
        assert all(w.lower() in folded for w in p.surname_verbatim.split())


@pytest.mark.parametrize("junk", ["", "   ", "\x00\xff" * 10, "(" * 5000, '"' * 5000,
                                  "Mrs. " * 10000, "/" * 999, "a, b, c, d, e"])
def test_parse_name_junk(junk: str) -> None:
    p = parse_name(junk)
    assert isinstance(p, PersonName)
