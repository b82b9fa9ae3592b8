"""Names as genealogy formats want them: the title apart, and a married name called one.

Records write "Miss Sarah Stroud" or "Dr. James Lee"; GEDCOM keeps the honorific in NPFX and
the given name in GIVN, and a program that reads "Miss" as a given name files the woman
under it. A woman's name under her husband's surname is her married name, not her birth
name: GEDCOM X says MarriedName, GEDCOM `TYPE married`. Both outputs decide it here.
"""

from __future__ import annotations

from sleuth.extract.person_names import parse_name
from sleuth.model.graph import CaseGraph
from sleuth.model.records import Person

# Honorifics that are never a given name ("Lady Bird", "Major", "Elder" can be).
HONORIFICS = frozenset({
    "mr", "mrs", "miss", "ms", "mme", "mlle", "messrs", "dr", "rev", "revd", "prof", "capt",
    "col", "lt", "lieut", "sgt", "cpl", "pvt", "hon", "gen", "maj", "gov", "sen", "sir",
    "dame", "fr",
})
_MARRIED_TITLES = frozenset({"mrs", "mme", "widow"})


def split_honorific(given: str) -> tuple[str, str]:
    """("Miss", "Sarah") from "Miss Sarah": leading honorifics apart from the given names."""
    words = given.split()
    prefix: list[str] = []
    while words and words[0].rstrip(".").casefold() in HONORIFICS:
        prefix.append(words.pop(0))
    return " ".join(prefix), " ".join(words)


def _surname_of(person: Person | None) -> str:
    if person is None:
        return ""
    if person.surname.strip():
        return person.surname.strip().casefold()
    return (parse_name(person.canonical_name).surname or "").casefold()


def name_type(graph: CaseGraph, people: dict[str, Person], person: Person, value: str) -> str:
    """"married", "birth" or "" (not known) for one of `person`'s names.

    Married: a married title ("Mrs.") or, for a woman, a spouse's surname that is none of
    her parents'. Birth: a parent's surname. Anything else is not decided here.
    """
    parsed = parse_name(value)
    if any(t.rstrip(".").casefold() in _MARRIED_TITLES for t in parsed.titles):
        return "married"
    surname = (parsed.surname or "").casefold()
    if not surname:
        return ""
    parents = {_surname_of(people.get(x)) for x in person.parents} - {""}
    if surname in parents:
        return "birth"
    if person.sex == "F":
        spouses = {_surname_of(people.get(x)) for x in person.spouses} - {""}
        if surname in spouses:
            return "married"
    return ""
