"""Promotion to core (seed 002 promote_extraction): persons, assertions, relationships.

Only the Decision Maker (or a person through `sleuth review`) calls this. Subjects are keys
local to one snapshot; the first promoted candidate of a subject links it to a person with
exactly the same full name, or creates one. (Fuzzy matching and reversible merges belong to
entity resolution, which revisits these links.)
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from sqlalchemy import Connection, Select, bindparam, select

from sleuth.agents.namesakes import (
    CHURCH_PLACES,
    MISS,
    is_own_parent,
    miss_of_another_surname,
    other_parish,
    parish_of,
    spouse_names,
)
from sleuth.extract.names import parse_name
from sleuth.extract.records.freereg import REGISTER_OF
from sleuth.model import (
    RELATIONSHIP_FIELDS,
    Assertion,
    AssertionStatus,
    Candidate,
    Citation,
    GenDate,
    InvariantViolation,
    Person,
    Relationship,
    new_id,
    utcnow,
)
from sleuth.model.lifespan import (
    CHILD_BIRTH,
    CHILD_MARRIAGE,
    MIN_PARENT_AGE,
    Years,
    add_year,
    birth_estimate,
    born_year,
    late_mother,
    life_conflicts,
)
from sleuth.model.trusted import trusted
from sleuth.resolve.coparents import could_be_one
from sleuth.store import Store
from sleuth.store import schema as t
from sleuth.store.queries import merge_groups, merged_into, pooled_years

_SPAN = 1 << 32  # `SubjectMap.line_of`: a span as one number, start * _SPAN + end


@dataclass
class SubjectMap:
    """Which person each subject of one snapshot stands for, read once for a whole batch.

    `person_for` otherwise asks the database twice per candidate, scanning the snapshot's
    candidates each time: quadratic for a 3,000-person GEDCOM. Loaded from what the snapshot
    already promoted, then kept up to date by `person_for`, it answers the same questions.
    """

    snapshot_id: str
    persons: dict[str, str] = field(default_factory=dict)
    owners: dict[str, set[str]] = field(default_factory=dict)
    years: dict[str, Years] = field(default_factory=dict)  # subject -> its vital years here
    linked: set[str] = field(default_factory=set)  # persons placed before this snapshot
    groups: dict[str, set[str]] | None = None  # person -> its merge cluster, read on demand
    roots: dict[str, str] | None = None  # merged person -> its cluster's canonical person
    lives: dict[str, Years] = field(default_factory=dict)  # `life_of`, for the name at hand
    sexes: dict[str, str] = field(default_factory=dict)  # subject -> sex this record states
    parent_of: dict[str, list[str]] = field(default_factory=dict)  # subject -> its children
    spouses: dict[str, set[str]] = field(default_factory=dict)  # subject -> spouses named here
    first_marriage: set[str] = field(default_factory=set)  # subjects wed as bachelor/spinster
    parents_here: dict[str, list[tuple[str, str]]] = field(default_factory=dict)  # child ->
    # (parent's name, parent's subject) as this record gives them
    lines: dict[str, set[str | int]] = field(default_factory=dict)  # subject -> excerpts
    # citing it, each as `line_of` holds it (`line_texts` reads them back)
    parishes: dict[str, set[str]] = field(default_factory=dict)  # subject -> register parishes
    miss_names: dict[str, set[str]] = field(default_factory=dict)  # subject -> "Miss ..." names
    # subject -> the surnames this record gives them at birth (birth surname, father's name)
    maiden_surnames: dict[str, set[str]] = field(default_factory=dict)
    # (subject, value) -> excerpts of this snapshot's "name" candidates staged so far, in
    # order (`staged`), and name -> (excerpt, person) of other snapshots' promoted "name"
    # candidates, read once per name: `_same_record_line` without reading every bearer's
    # line of a name for each new person (quadratic in a large tree's namesakes)
    own_names: dict[tuple[str, str], list[str]] = field(default_factory=dict)
    other_names: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    text: str | None = None  # the snapshot's text, when the caller has it (`line_of`)
    # whether another snapshot had name candidates when this one's staging began: if not,
    # `other_lines` has nothing to find (a tree loaded into a new case) and asks nothing
    others_named: bool = True

    def line_of(self, cit: Citation) -> str | int:
        """An excerpt as `lines` holds it: the span it has in this snapshot's text, when
        the text there is the excerpt (always, for a tree's lines), else its own text. A
        large tree's excerpts are then held by nobody between the passes (staging keeps
        them the same way), an eighth of the memory of its million candidates."""
        text, loc = self.text, cit.locator
        if (text is not None and cit.snapshot_id == self.snapshot_id
                and loc.end < _SPAN and text[loc.start:loc.end] == cit.excerpt):
            return loc.start * _SPAN + loc.end
        return cit.excerpt

    def line_texts(self, subject: str) -> set[str]:
        """The excerpts citing `subject` (`lines`), as text."""
        return {x if isinstance(x, str) else self.text[x // _SPAN:x % _SPAN]  # type: ignore[index]
                for x in self.lines.get(subject, ())}

    def note_years(self, candidates: Iterable[Candidate]) -> SubjectMap:
        """The batch's vital years per subject, so that a name is not linked to a person
        whose own years cannot be the same life (`model.lifespan`): a parent's years hold
        the births of the children this record gives them."""
        family: list[tuple[str, str]] = []  # (parent subject, child subject)
        brides: list[tuple[str, str]] = []  # (subject wed, "Miss" spouse's subject)
        for c in candidates:
            if c.citation is not None:
                line = self.line_of(c.citation)
                for who in (c.subject, c.related):
                    if who:
                        self.lines.setdefault(who, set()).add(line)
            if not c.is_fact:
                continue
            add_year(self.years.setdefault(c.subject, {}), c.field, c.value)
            if c.field == "name" and MISS.match(c.value):
                self.miss_names.setdefault(c.subject, set()).add(c.value)
            if c.field == "birth_surname":
                self.maiden_surnames.setdefault(c.subject, set()).add(c.value)
            if c.field == "sex" and c.value in ("M", "F"):
                self.sexes[c.subject] = c.value
            if c.field in CHURCH_PLACES and f"{REGISTER_OF} " in c.rationale:
                self.parishes.setdefault(c.subject, set()).add(parish_of(c.value))
            if c.field == "marital_status" and c.value.lower() in FIRST_WED:
                self.first_marriage.add(c.subject)
            if c.field == "spouse":
                self.spouses.setdefault(c.subject, set()).add(c.value)
                if c.related and c.subject_name:
                    self.spouses.setdefault(c.related, set()).add(c.subject_name)
                if c.related and MISS.match(c.related_name or c.value):
                    brides.append((c.subject, c.related))
            if c.related and c.field in ("parent", "child"):
                family.append((c.related, c.subject) if c.field == "parent"
                              else (c.subject, c.related))
            if c.field == "parent" and c.value:
                self.parents_here.setdefault(c.subject, []).append((c.value, c.related or ""))
        for subject, bride in brides:  # "Mr. Donald Emmett and Miss Ruth Giles": her first
            if wed := self.years.get(subject, {}).get("marriage_date"):  # wedding, this one
                self.first_marriage.add(bride)
                self.years.setdefault(bride, {}).setdefault("marriage_date", []).extend(wed)
        for child, named in self.parents_here.items():
            for pname, psubject in named:
                if self.sexes.get(psubject) == "M":
                    self.maiden_surnames.setdefault(child, set()).add(pname)
        for parent, child in family:
            self.parent_of.setdefault(parent, []).append(child)
            if (born := born_year(self.years.get(child, {}))) is not None:
                self.years.setdefault(parent, {}).setdefault(CHILD_BIRTH, []).append(born)
            if wed := self.years.get(child, {}).get("marriage_date"):
                self.years.setdefault(parent, {}).setdefault(CHILD_MARRIAGE, []).extend(wed)
        return self

    def life_of(self, conn: Connection, person_id: str) -> Years:
        """The vital years of the person `person_id` now stands for: with a merge, those of
        every member (a name linked to one member joins them all). Read once per name
        being linked (`_new_subject` asks several tests of each bearer; nothing is written
        in between), afresh for the next name: this record's own facts may have joined."""
        if self.groups is None:
            self.groups = merge_groups(merged_into(conn))
        if person_id not in self.lives:
            self.lives[person_id] = pooled_years(conn, self.groups.get(person_id, {person_id}))
        return self.lives[person_id]

    def root(self, conn: Connection, person_id: str) -> str:
        """The person `person_id` is now (its merge cluster's canonical person)."""
        if self.roots is None:
            self.roots = merged_into(conn)
        return self.roots.get(person_id, person_id)

    @classmethod
    def load(cls, conn: Connection, snapshot_id: str, text: str | None = None) -> SubjectMap:
        c, a = t.candidates.c, t.assertions.c
        out = cls(snapshot_id, text=text)
        related = conn.execute(
            select(c.related, a.related_id)
            .join(t.assertions, t.candidates.c.id == a.candidate_id)
            .where(c.snapshot_id == snapshot_id, c.related.is_not(None),
                   a.related_id.is_not(None))
        ).all()
        known = conn.execute(
            select(c.subject, c.person_id)
            .where(c.snapshot_id == snapshot_id, c.person_id.is_not(None))
        ).all()
        for subject, pid in [*related, *known]:  # a subject's own candidates win
            out.persons[str(subject)] = str(pid)
        for subject, pid in out.persons.items():
            out.owners.setdefault(pid, set()).add(subject)
        for subject, value, excerpt in conn.execute(  # none unless staged before this batch
                select(c.subject, c.value, c.excerpt).where(c.snapshot_id == snapshot_id,
                                                            c.field == "name")):
            out.own_names.setdefault((str(subject), str(value)), []).append(excerpt)
        out.others_named = conn.execute(select(c.id).where(
            c.field == "name", c.snapshot_id != snapshot_id).limit(1)).first() is not None
        return out

    def staged(self, cand: Candidate) -> None:
        """Note a candidate staged for this snapshot (its row now answers `name_lines`)."""
        cit = cand.citation
        if cand.field == "name" and cit is not None and cit.snapshot_id == self.snapshot_id:
            self.own_names.setdefault((cand.subject, cand.value), []).append(cit.excerpt)

    def other_lines(self, store: Store, conn: Connection, name: str) -> list[tuple[str, str]]:
        """(excerpt, person) of the promoted "name" lines of other snapshots with this
        value, in `Store.name_lines` order. Those rows do not change while this snapshot
        is staged: promotion sets the person of this snapshot's candidates only, and
        stages no other snapshot's (so with none when it began, there are none)."""
        if not self.others_named:
            return []
        got = self.other_names.get(name)
        if got is None:
            got = self.other_names[name] = [
                (e, str(pid)) for e, pid, snap, _ in store.name_lines(conn, name)
                if pid is not None and snap != self.snapshot_id]
        return got

    def set(self, subject: str, person_id: str) -> str:
        self.persons[subject] = person_id
        self.owners.setdefault(person_id, set()).add(subject)
        return person_id


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
    c = t.candidates.c
    known = conn.execute(
        select(c.person_id)
        .where(c.snapshot_id == snapshot_id, c.subject == subject, c.person_id.is_not(None))
        .limit(1)
    ).scalar()
    if known:
        return str(known)
    # A relationship candidate may already have created this subject as its relative.
    related = conn.execute(
        select(t.assertions.c.related_id)
        .join(t.candidates, t.candidates.c.id == t.assertions.c.candidate_id)
        .where(
            c.snapshot_id == snapshot_id,
            c.related == subject,
            t.assertions.c.related_id.is_not(None),
        )
        .limit(1)
    ).scalar()
    if related:
        return str(related)
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
            free = [*earlier, *(p for p in created if (o := own(p)) is None or o <= me)]
            fits = [p for p in free if not (here.owners.get(p, set()) - {subject})
                    and not (years and life_conflicts(here.life_of(conn, p), years))
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
    other = t.relationships.alias("other")
    r, r2 = t.relationships.c, other.c
    coparents = list(conn.execute(select(r2.person1_id).join_from(
        t.relationships, other, r2.person2_id == r.person2_id).where(
        r.person1_id == person_id, r.relationship_type == "parent",
        r2.relationship_type == "parent", r2.person1_id != person_id)).scalars())
    known = spouse_names(conn, person_id) + list(conn.execute(select(
        t.persons.c.canonical_name).where(t.persons.c.id.in_(coparents))).scalars())
    return bool(known) and not any(could_be_one(s, k, name) for s in said for k in known)


def _late_mother(conn: Connection, here: SubjectMap, subject: str, person_id: str) -> bool:
    """A woman this record or the case makes a mother past `MAX_MOTHER_AGE` by the other's
    years (`model.lifespan.late_mother`): namesakes, a mother and her daughter-in-law."""
    sex = here.sexes.get(subject) or conn.execute(
        select(t.persons.c.sex).where(t.persons.c.id == person_id)).scalar()
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
    if here.sexes.get(subject) == "F" or (here.sexes.get(subject) is None and conn.execute(
            select(t.persons.c.sex).where(t.persons.c.id == person_id)).scalar() == "F"):
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
    r, p = t.relationships.c, t.persons.c
    known = conn.execute(select(p.canonical_name, p.sex).join(
        t.relationships, r.person1_id == p.id).where(
        r.person2_id.in_(ids), r.relationship_type == "parent")).all()
    for pname, psubject in said:
        sex = here.sexes.get(psubject)  # a father to fathers, a mother to mothers
        same_sex = [k for k, ksex in known if sex is not None and ksex == sex]
        if same_sex and not any(could_be_one(pname, k, name) for k in same_sex):
            return True
    return False


FIRST_WED = frozenset({"bachelor", "spinster"})
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
        a = t.assertions.c
        ids = (here.groups or {}).get(person_id, {person_id})
        first = any(str(v).lower() in FIRST_WED for v in conn.execute(select(a.value).where(
            a.entity_id.in_(list(ids)), a.field_name == "marital_status")).scalars())
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


def _same_statement(conn: Connection, person_id: str, cand: Candidate) -> str | None:
    """An assertion of this person that already says this, cited by the very same words in
    another copy from the same source (a WikiTree profile inside each relative's
    getRelatives answer; a register row in a search answer and in the whole register):
    one statement, so one assertion with one more citation, not a second assertion."""
    assert cand.citation is not None
    found = conn.execute(_same_statement_sql(), {
        "person": person_id, "field": cand.field, "value": cand.value,
        "excerpt": cand.citation.excerpt, "snapshot": cand.citation.snapshot_id}).scalar()
    return str(found) if found else None


@cache
def _same_statement_sql() -> Select[Any]:
    """Built once: promotion asks it for nearly every claim of a known person, and building
    a statement of three joins costs ten times what SQLite takes to answer it."""
    a, c, s = t.assertions.c, t.citations.c, t.snapshots.c
    source = select(s.source_name).where(s.id == bindparam("snapshot")).scalar_subquery()
    return (select(a.id).join(t.citations, c.assertion_id == a.id)
            .join(t.snapshots, s.id == c.snapshot_id)
            .where(a.entity_id == bindparam("person"), a.field_name == bindparam("field"),
                   a.value == bindparam("value"), a.status != "rejected",
                   c.excerpt == bindparam("excerpt"), c.snapshot_id != bindparam("snapshot"),
                   s.source_name == source)
            .limit(1))


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
    c = t.candidates.c
    return conn.execute(
        select(c.id)
        .where(c.snapshot_id == snapshot_id, c.person_id == person_id, c.subject != subject)
        .limit(1)
    ).first() is not None


def promote(
    store: Store,
    conn: Connection,
    cand: Candidate,
    *,
    agent: str,
    reason: str,
    subjects: SubjectMap | None = None,
) -> tuple[str, str]:
    """Turn an accepted candidate into a cited assertion; returns (assertion id, person id).

    Raises InvariantViolation (leaving the transaction usable) when a relationship would break
    the Z invariants; the caller sends such a candidate to review instead. `subjects` is the
    batch's SubjectMap for its snapshot (see `person_for`).
    """
    assert cand.citation is not None, "the firewall never passes a fact without a citation"
    snap_id = cand.citation.snapshot_id
    person_id = person_for(store, conn, snap_id, cand.subject, cand.subject_name, subjects)
    copy = cand.field not in RELATIONSHIP_FIELDS and (
        subjects is None or person_id in subjects.linked)
    if copy and (same := _same_statement(conn, person_id, cand)) is not None:
        store.add_citations(conn, same, [cand.citation], agent=agent,
                            reason="the same statement in another copy of the record")
        store.set_candidate(conn, cand.id, agent, status="promoted", person_id=person_id,
                            assertion_id=same)
        store.decide(conn, cand.id, "decision", "accept", reason, by=agent,
                     confidence=cand.confidence)
        return same, person_id
    related_id = None
    if cand.field in RELATIONSHIP_FIELDS and cand.related:
        related_id = person_for(store, conn, snap_id, cand.related, cand.related_name, subjects)
        if related_id == person_id:
            raise InvariantViolation(f"{cand.subject_name!r} cannot be their own {cand.field}")
    assertion = _assertion(person_id, cand)
    if related_id is None:  # nothing below can refuse it, so no savepoint round trips
        store.add_assertion(conn, assertion, candidate_id=cand.id, agent=agent)
    else:
        with store.savepoint(conn):  # a refused link takes its assertion with it
            store.add_assertion(
                conn, assertion, candidate_id=cand.id, related_id=related_id, agent=agent
            )
            _link(
                store, conn, cand.field, person_id, related_id, cand.confidence, assertion.id, agent
            )
    if cand.field == "sex" and cand.value in {"M", "F"}:
        current = (store.person_fields(conn, person_id) or ("", None))[1]
        if current == "U":
            store.set_person(conn, person_id, agent, sex=cand.value)
    store.set_candidate(
        conn, cand.id, agent, status="promoted", person_id=person_id, assertion_id=assertion.id
    )
    store.decide(conn, cand.id, "decision", "accept", reason, by=agent, confidence=cand.confidence)
    return assertion.id, person_id


def _assertion(person_id: str, cand: Candidate) -> Assertion:
    """The promoted assertion of `cand`. Values of the types the model holds (a candidate
    that passed the firewall: a float confidence within bounds, a string value) are what
    validation would keep as they are, so they are not validated again (`model.trusted`;
    a tenth of a large tree's promotion); anything else goes through the model. Its id is
    drawn first either way, as the model's own default would draw it."""
    conf, date, cit = cand.confidence, cand.date, cand.citation
    if (type(conf) is float and 0.0 <= conf <= 1.0 and type(cand.value) is str
            and type(cand.field) is str and type(person_id) is str
            and (date is None or type(date) is GenDate) and type(cit) is Citation):
        return trusted(Assertion, {
            "id": new_id(), "entity_id": person_id, "entity_type": "person",
            "field_name": cand.field, "value": cand.value, "date": date,
            "confidence": conf, "status": AssertionStatus.PROMOTED, "asserted_at": utcnow(),
            "citations": [cit], "related_id": None})
    # Pydantic checks here what the fast path above did not trust: a missing citation is
    # refused by the model's validation, not by the checker.
    return Assertion(entity_id=person_id, field_name=cand.field, value=cand.value,
                     date=date, confidence=conf, status=AssertionStatus.PROMOTED,
                     citations=[cit])  # type: ignore[list-item]


def _link(
    store: Store,
    conn: Connection,
    field: str,
    subject_id: str,
    related_id: str,
    confidence: float,
    assertion_id: str,
    agent: str,
) -> None:
    if field == "parent":
        rel = Relationship(
            person1_id=related_id,
            person2_id=subject_id,
            relationship_type="parent",
            confidence=confidence,
        )
    elif field == "child":
        rel = Relationship(
            person1_id=subject_id,
            person2_id=related_id,
            relationship_type="parent",
            confidence=confidence,
        )
    elif field == "spouse":
        a, b = sorted((subject_id, related_id))
        rel = Relationship(
            person1_id=a, person2_id=b, relationship_type="spouse", confidence=confidence
        )
    else:  # siblings are implied by shared parents; the cited assertion is kept
        return
    store.add_relationship(conn, rel, assertion_id=assertion_id, agent=agent)
