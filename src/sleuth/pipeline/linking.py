"""Which person a document-local subject stands for (`person_for`): the person an identical
record line already named, a known parent, the one bearer of the name whose life and family
fit, or a new person; the namesake tests a name alone must pass (`pipeline.namesakes` has
more)."""


from __future__ import annotations

import re
from collections.abc import Iterable

from sqlalchemy import Connection

from sleuth.extract.person_names import parse_name
from sleuth.model import (
    Person,
)
from sleuth.model.lifespan import (
    CHILD_BIRTH,
    MIN_PARENT_AGE,
    Years,
    birth_estimate,
    late_mother,
    life_conflicts,
)
from sleuth.pipeline.namesakes import is_own_parent, miss_of_another_surname, other_parish
from sleuth.pipeline.subjects import FIRST_WED, SubjectMap
from sleuth.resolve.coparents import could_be_one
from sleuth.store import Store
from sleuth.store.assertions import values_of
from sleuth.store.kin import coparent_ids, parents_named, spouse_names
from sleuth.store.persons import names_of, sex_of
from sleuth.store.queries import merge_groups, merged_into
from sleuth.store.staged import given_to_another_subject, related_person, subject_person


def person_for(
    store: Store,
    conn: Connection,
    snapshot_id: str,
    subject: str,
    name: str | None,
    subjects: SubjectMap | None = None,
) -> str:
    """The person a document-local subject stands for, creating it when first promoted."""
    if subjects is not None and subjects.snapshot_id == snapshot_id:
        if subject in subjects.persons:
            return subjects.persons[subject]
        return subjects.set(subject, _new_subject(store, conn, subject, name, subjects))
    known = subject_person(conn, snapshot_id, subject)
    if known:
        return known
    # A relationship candidate may already have created this subject as its relative.
    related = related_person(conn, snapshot_id, subject)
    if related:
        return related
    return _new_subject(store, conn, subject, name, snapshot_id)


def _new_subject(
    store: Store, conn: Connection, subject: str, name: str | None, here: str | SubjectMap
) -> str:
    """A subject this snapshot has not placed yet: the person an identical record line already
    named, else the one person of that exact full name (unless this snapshot gave them to
    another subject), else a new person."""
    name = personal_name(name or "")
    if isinstance(here, SubjectMap):
        here.lives.clear()  # the bearers' years as they are now, read once for this name
    if name and (same_line := _same_record_line(store, conn, here, subject, name)):
        taken = (bool(here.owners.get(same_line, set()) - {subject})
                 if isinstance(here, SubjectMap)
                 else _other_subject_here(conn, here, subject, same_line))
        if not taken:
            return _linked(here, same_line)
    if isinstance(here, SubjectMap) and name and (
            parent := _known_parent(store, conn, here, subject, name)):
        return _linked(here, parent)
    if len(name.split()) >= 2:
        if isinstance(here, SubjectMap):
            years = here.years.get(subject)
            # Namesakes (a grandson named for his grandfather): the one whose life fits
            # this record's years, when the record gives some; else only a single bearer.
            # A bearer another subject of this record stands for is not this one: those
            # the batch has just created are set aside first (a large tree's common name).
            earlier, created = store.persons_named_apart(conn, name)
            own, me = here.owners.get, {subject}
            free = [p for p in (*earlier, *created) if (o := own(p)) is None or o <= me]
            fits = [p for p in free
                    if not (years and life_conflicts(here.life_of(conn, p), years))
                    and not _other_partner(conn, here, subject, p, name)
                    and not _maiden_after_marriage(conn, here, subject, p, name)
                    and not _unusual_first_marriage(conn, here, subject, p)
                    and not _other_parents(conn, here, subject, p, name)
                    and not is_own_parent(conn, here, subject, p, name)
                    and not miss_of_another_surname(conn, here, subject, p)
                    and not _late_mother(conn, here, subject, p)
                    and not other_parish(conn, here, subject, p, name)]
            # Merged records are one person: the name fits them once, as their cluster.
            fits = list(dict.fromkeys(here.root(conn, p) for p in fits))
            if len(fits) == 1 and (years or len(
                    {here.root(conn, p) for p in (*earlier, *created)}) == 1):
                return _linked(here, fits[0])
        elif len(same := store.persons_named(conn, name)) == 1 and not _other_subject_here(
                conn, here, subject, same[0]):
            return same[0]
    given, surname = name_parts(name)
    person = Person(canonical_name=name or f"Unnamed ({subject})", given_name=given,
                    surname=surname)
    store.add_person(conn, person)
    return person.id


# Titles a record puts before a name that are not part of it; "Mrs." stays ("Mrs. John
# Smith" is his wife, not him), as does a title before a lone surname ("Mr. Smith").
_BARE_TITLES = frozenset({"mr", "miss", "ms", "master", "dr", "rev", "revd", "prof", "capt",
                          "col", "gen", "maj", "lieut", "lt", "sgt", "hon", "sir", "judge",
                          "elder", "deacon"})


def name_parts(name: str) -> tuple[str, str]:
    """(given names, surname) of a name as written, titles and suffixes apart (issue 20):
    "Mrs. Geo. R. Cook" has no given name of her own here (Geo. R. is her husband's), "Dr.
    Wm. L. McKibbin" the given names "Wm. L.", "John Smith Jr." the surname Smith. The title
    stays in the name as written (the cited assertion and the canonical name)."""
    parsed = parse_name(name)
    if parsed.surname_verbatim or parsed.given:
        return " ".join(parsed.given), parsed.surname_verbatim or ""
    parts = name.split()
    return (" ".join(parts[:-1]), parts[-1]) if len(parts) > 1 else (name, "")


def personal_name(name: str) -> str:
    """The name a person is linked and listed by: "Mr. Alfred Stroud" is Alfred Stroud (the
    title stays in the cited name assertion, as the record wrote it)."""
    words = name.split()
    while len(words) > 2 and words[0].rstrip(".").casefold() in _BARE_TITLES:
        words.pop(0)
    return " ".join(words)


def _other_partner(conn: Connection, here: SubjectMap, subject: str, person_id: str,
                   name: str) -> bool:
    """This record marries its subject, or makes them a parent with, someone the case's
    person of that name has no tie to: the case knows them with a wife or a child's other
    parent, none of whose names can be the partner here (Thomas Greenwood who married Phoebe
    Strugnell in 1888 is not the Thomas Greenwood whose daughter's mother is Mary Cole).
    Names alone then link nothing; the resolver, weighing everything, can still merge them
    later."""
    said = here.spouses.get(subject, set()) | _coparents_here(here, subject)
    if not said:
        return False
    coparents = coparent_ids(conn, person_id)
    known = spouse_names(conn, person_id) + list(names_of(conn, coparents).values())
    return bool(known) and not any(could_be_one(s, k, name) for s in said for k in known)


def _late_mother(conn: Connection, here: SubjectMap, subject: str, person_id: str) -> bool:
    """A woman this record or the case makes a mother past `MAX_MOTHER_AGE` by the other's
    years (`model.lifespan.late_mother`): namesakes, a mother and her daughter-in-law."""
    sex = here.sexes.get(subject) or sex_of(conn, person_id)
    return sex == "F" and late_mother(here.years.get(subject, {}),
                                      here.life_of(conn, person_id)) is not None


def _coparents_here(here: SubjectMap, subject: str) -> set[str]:
    """The names this record gives as the other parent of `subject`'s children: "a son of
    William Giles and Hannah Clara Simmons" pairs them as surely as a wedding does."""
    return {name for child in here.parent_of.get(subject, [])
            for name, other in here.parents_here.get(child, []) if other != subject and name}


def _surname(name: str) -> str:
    words = name.lower().split()
    return words[-1] if words else ""


def _wed_as_bride(years: Years, spouses: Iterable[str], name: str) -> list[int]:
    """Years this woman married a man of another surname (after which she bore his)."""
    own = _surname(name)
    if not own or not any(_surname(s) not in ("", own) for s in spouses):
        return []
    return years.get("marriage_date", [])


def _maiden_after_marriage(conn: Connection, here: SubjectMap, subject: str, person_id: str,
                           name: str) -> bool:
    """A bride is not the woman of her maiden name buried after her wedding: once "Mildred
    GREENWOOD" married Ryan Strugnell in 1952, a burial of "Mildred GREENWOOD" in 1981 is
    another Mildred (she would be buried a Strugnell). Either way round: this record is the
    wedding and the case's woman died later, or the case's woman wed and this record buries
    her namesake later."""
    if here.sexes.get(subject) == "F" or (here.sexes.get(subject) is None
                                          and sex_of(conn, person_id) == "F"):
        mine, theirs = here.years.get(subject, {}), here.life_of(conn, person_id)
        ended = theirs.get("death_date", []) + theirs.get("burial_date", [])
        wed_here = _wed_as_bride(mine, here.spouses.get(subject, set()), name)
        if wed_here and ended and max(ended) > max(wed_here) + 1:
            return True
        wed_there = _wed_as_bride(theirs, spouse_names(conn, person_id), name)
        ends_here = mine.get("death_date", []) + mine.get("burial_date", [])
        if wed_there and ends_here and max(ends_here) > max(wed_there) + 1:
            return True
    return False


def _other_parents(conn: Connection, here: SubjectMap, subject: str, person_id: str,
                   name: str) -> bool:
    """This record's parents of its subject cannot be the case person's known parents of
    that sex: the burial of "Rebecca STROUD, dau of Larry and Ethel" is not the Rebecca
    Stroud whose father is Samuel Richard Stroud. A child has one father and one mother."""
    said = here.parents_here.get(subject)
    if not said:
        return False
    if here.groups is None:
        here.groups = merge_groups(merged_into(conn))
    ids = list(here.groups.get(person_id, {person_id}))
    known = parents_named(conn, ids)
    for pname, psubject in said:
        sex = here.sexes.get(psubject)  # a father to fathers, a mother to mothers
        same_sex = [k for k, ksex in known if sex is not None and ksex == sex]
        if same_sex and not any(could_be_one(pname, k, name) for k in same_sex):
            return True
    return False


FIRST_MARRIAGE_AGES = (16, 50)  # a first marriage's ages a name alone may link across


def _unusual_first_marriage(conn: Connection, here: SubjectMap, subject: str,
                            person_id: str) -> bool:
    """A bachelor or spinster whose name alone would make them wed at 14 or at 67 (Louisa
    GREENWOOD baptised 1861, and the spinster Louisa GREENWOOD married in 1928) is a
    namesake: a name links across records only at an ordinary age for a first marriage,
    and never to someone the case finds married before (the "Miss Margaret Pennington" wed
    in 1931 is not the Margaret who married a Pennington in 1905). Not a conflict of lives
    (`model.lifespan`): the resolver, weighing more, may still merge them."""
    mine, theirs = here.years.get(subject, {}), here.life_of(conn, person_id)
    if subject in here.first_marriage:
        wed, other = mine.get("marriage_date", []), theirs
    else:
        ids = (here.groups or {}).get(person_id, {person_id})
        first = any(v.lower() in FIRST_WED for v in values_of(conn, list(ids),
                                                               "marital_status"))
        if not first:
            return False
        wed, other = theirs.get("marriage_date", []), mine
    if not wed:
        return False
    if subject in here.first_marriage and any(  # the case's woman wed before: not a spinster
            y < min(wed) - 1 for y in theirs.get("marriage_date", [])):
        return True
    lo, hi = FIRST_MARRIAGE_AGES
    born = birth_estimate(other)
    if born is None:  # a parent's latest birth: the spinster wed in 1967 is not the mother
        kids = other.get(CHILD_BIRTH, [])  # of a daughter born in 1880
        return bool(kids) and min(wed) - (min(kids) - MIN_PARENT_AGE) > hi
    return not lo <= min(wed) - born <= hi


def _known_parent(store: Store, conn: Connection, here: SubjectMap, subject: str,
                  name: str) -> str | None:
    """The parent the case already gives this record's child, when this record's parent of
    the same sex can be them (`resolve.coparents.could_be_one`: "Lydia" in a baptism row
    is the child's mother Lydia Cole, not a third parent)."""
    sex = here.sexes.get(subject)
    if sex is None:
        return None
    years = here.years.get(subject)
    for child_subject in here.parent_of.get(subject, []):
        child = here.persons.get(child_subject)
        if child is None:
            continue
        # the store answers from its batch the persons and links it has just written
        child_name = (store.person_fields(conn, child) or ("", ""))[0] or ""
        rows = store.parents_named(conn, child, sex)
        fits = [str(pid) for pid, pname in rows
                if could_be_one(name, pname, child_name)
                and not _held_here(here, str(pid), subject)
                and not (years and life_conflicts(here.life_of(conn, str(pid)), years))]
        if len(fits) == 1:
            return fits[0]
    return None


def _held_here(here: SubjectMap, person_id: str, subject: str) -> bool:
    """Another subject of this record line already stands for this person: one household
    does not hold a person twice. A register's other lines may name them again (Edwin
    EMMETT baptised in 1755 and father at a baptism in 1797; Alfred COLE, carpenter, father
    at Stephen's wedding in 1784 and at John's in 1788)."""
    mine = here.line_texts(subject)
    return any(not mine or not here.lines.get(o) or mine & here.line_texts(o)
               for o in here.owners.get(person_id, set()) - {subject})


def _linked(here: str | SubjectMap, person_id: str) -> str:
    if isinstance(here, SubjectMap):
        here.linked.add(person_id)
    return person_id


_DATED = re.compile(r"\d{3,4}")


MIN_LINE = 30  # shorter lines ("1 NAME John /Smith/") name many people alike


def _same_record_line(store: Store, conn: Connection, here: str | SubjectMap, subject: str,
                      name: str) -> str | None:
    """The person an earlier snapshot placed under the same name from the identical, dated
    record line (a register row read in a search response, then again in the whole
    register): one line, one person, so the second reading makes no second person."""
    if isinstance(here, SubjectMap):  # the same answer from what the batch has noted
        own = [e for e in here.own_names.get((subject, name), ())
               if e and len(e) >= MIN_LINE and _DATED.search(e)]
        if not own:
            return None
        return next((pid for e, pid in here.other_lines(store, conn, name) if e == own[0]),
                    None)
    snapshot_id = here
    rows = store.name_lines(conn, name)  # the value index (and the batch): a handful of rows
    mine = [e for e, _, snap, subj in rows if snap == snapshot_id and subj == subject
            and e and len(e) >= MIN_LINE and _DATED.search(e)]
    if not mine:
        return None
    for excerpt, pid, snap, _ in rows:
        if pid is not None and snap != snapshot_id and excerpt == mine[0]:
            return str(pid)
    return None


def _other_subject_here(conn: Connection, snapshot_id: str, subject: str, person_id: str) -> bool:
    """True when this snapshot already gave `person_id` to a different subject.

    One document's distinct subjects are distinct people (two John Kennedys in one tree), so
    exact-name linking only ever joins people across documents.
    """
    return given_to_another_subject(conn, snapshot_id, subject, person_id)
