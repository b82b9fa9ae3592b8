"""Namesakes a name alone must not join: more tests for `linking._new_subject`.

A register line is linked to the case's one person of the same full name only when nothing
says they are two people. These tests say so from what a genealogist would look at first:
the parish the record was written in, the family it names, and the surname a "Miss" was
born with.
"""

from __future__ import annotations

import jellyfish
from sqlalchemy import Connection

from sleuth.extract.places import parse_place
from sleuth.pipeline.subjects import MISS, SubjectMap
from sleuth.resolve.coparents import could_be_one
from sleuth.store.assertions import live_values, place_values
from sleuth.store.kin import parent_names, spouse_names
from sleuth.store.persons import canonical_name


def _group(conn: Connection, here: SubjectMap, person_id: str) -> list[str]:
    here.life_of(conn, person_id)  # reads the merge groups once per batch
    return list((here.groups or {}).get(person_id, {person_id}))


def _places(conn: Connection, ids: list[str]) -> set[str]:
    """Every name the case's places of these persons hold, each comma part apart."""
    return {x for v in place_values(conn, ids) for part in v.split(",")
            if (x := part.strip().lower())}


_CHURCH = ("st ", "st. ", "saint ", "holy ", "all saints")


def localities(conn: Connection, ids: list[str]) -> set[str]:
    """The towns and parishes the case places these persons in: each place's parts less its
    county, state and country ("Zennor, Cornwall, England" and "St Senara, Zennor": zennor)
    and less a church's name."""
    out: set[str] = set()
    for v in place_values(conn, ids):
        p = parse_place(v)
        wide = {x.lower() for x in (p.county, p.state, p.country) if x}
        out |= {x for part in v.split(",") if (x := part.strip().lower())
                and x not in wide and not x.startswith(_CHURCH)}
    return out


def _family_agrees(conn: Connection, here: SubjectMap, subject: str, ids: list[str],
                   name: str) -> bool:
    """A parent or spouse this record names can be one the case gives the person."""
    said_parents = [p for p, _ in here.parents_here.get(subject, [])]
    said_spouses = list(here.spouses.get(subject, set()))
    known = parent_names(conn, ids) if said_parents else []
    if any(could_be_one(s, k, name) for s in said_parents for k in known):
        return True
    if said_spouses:
        known = [n for pid in ids for n in spouse_names(conn, pid)]
        if any(could_be_one(s, k, name) for s in said_spouses for k in known):
            return True
    return False


def other_parish(conn: Connection, here: SubjectMap, subject: str, person_id: str,
                 name: str) -> bool:
    """A register entry from a parish the case never places the person in, with no parent or
    spouse to agree, is a namesake's: Nathaniel GREENWOOD buried at Lavenham, Suffolk, is not
    the bachelor Nathaniel GREENWOOD wed at Bibury, Gloucestershire, on his name alone. A
    groom wed in his bride's parish is still found by the father both entries name; the
    resolver, weighing everything, may still merge the rest."""
    parishes = here.parishes.get(subject)
    if not parishes:
        return False
    ids = _group(conn, here, person_id)
    known = _places(conn, ids)
    if not known or parishes & known:
        return False
    return not _family_agrees(conn, here, subject, ids, name)


def _forename(name: str) -> str:
    words = name.split()
    return words[0].lower() if words else ""


def is_own_parent(conn: Connection, here: SubjectMap, subject: str, person_id: str,
                  name: str) -> bool:
    """The case's person is this record's subject's parent, not the subject: the burial of
    Albert AUSTIN, "son of Albert & Susannah", is not the Albert AUSTIN who married Susannah
    MAXEY. Both must fit: the parent of the subject's name, and the other parent as the
    person's wife (or husband)."""
    said = [p for p, _ in here.parents_here.get(subject, [])]
    if len(said) != 2:
        return False
    own = canonical_name(conn, person_id) or name
    partners = [n for pid in _group(conn, here, person_id) for n in spouse_names(conn, pid)]
    return any(_forename(parent) == _forename(own) and could_be_one(parent, own, name)
               and any(could_be_one(other, k, name) for k in partners)
               for parent, other in (said, said[::-1]))


def _surname_key(name: str) -> str:
    words = [w for w in name.replace(".", " ").split() if w.isalpha()]
    return jellyfish.soundex(words[-1]) if words else ""


def _maiden_surnames(conn: Connection, ids: list[str]) -> tuple[set[str], set[str]]:
    """(surnames of the names written "Miss ...", birth surnames and fathers' surnames) of
    the case's person `ids`, as soundex keys."""
    miss: set[str] = set()
    born: set[str] = set()
    for field, value in live_values(conn, ids, ("name", "birth_surname")):
        if field == "birth_surname":
            born.add(_surname_key(value))
        elif MISS.match(value):
            miss.add(_surname_key(value))
    born |= {_surname_key(str(n)) for n in parent_names(conn, ids, sex="M")}
    return miss - {""}, born - {""}


def miss_of_another_surname(conn: Connection, here: SubjectMap, subject: str,
                            person_id: str) -> bool:
    """A woman written "Miss Ruth Giles" bears her birth surname: she is not the case's
    Ruth whose father is a Pennington, or whose birth surname is Osgood (a mother, or a
    mother-in-law, who married into the name). Either way round: this record's Miss and the
    case's birth surname, or the case's Miss and this record's."""
    miss_here = {_surname_key(n) for n in here.miss_names.get(subject, ())} - {""}
    born_here = {_surname_key(n) for n in here.maiden_surnames.get(subject, ())} - {""}
    if not miss_here and not born_here:
        return False
    miss_there, born_there = _maiden_surnames(conn, _group(conn, here, person_id))
    return bool((miss_here and born_there and not miss_here & born_there)
                or (miss_there and born_here and not miss_there & born_here))
