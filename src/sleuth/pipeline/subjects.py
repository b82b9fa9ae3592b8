"""What staging knows of one snapshot's subjects while it promotes them (`SubjectMap`): the
person each document-local subject stands for, the vital years, sexes, spouses, parents and
parishes its own records give, and the lines that cite each subject, so that linking a name
asks the database as little as possible (issue 19)."""


from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from sqlalchemy import Connection

from sleuth.extract.records.freereg import REGISTER_OF
from sleuth.model import (
    Candidate,
    Citation,
)
from sleuth.model.lifespan import (
    CHILD_BIRTH,
    CHILD_MARRIAGE,
    Years,
    add_year,
    born_year,
)
from sleuth.store import Store
from sleuth.store.queries import merge_groups, merged_into, pooled_years
from sleuth.store.staged import name_lines, names_elsewhere, subjects_placed

CHURCH_PLACES = frozenset({"baptism_place", "burial_place", "marriage_place"})
# a woman written "Miss" is unmarried there: the surname is her birth surname, and at her
# wedding she marries for the first time (a widow is "Mrs.")
MISS = re.compile(r"Miss\b")


def parish_of(place: str) -> str:
    """The parish of a register's event place ("St Mary, Bibury" -> "bibury")."""
    return place.rsplit(",", 1)[-1].strip().lower()


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
        being linked (`linking._new_subject` asks several tests of each bearer; nothing is written
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
        out = cls(snapshot_id, text=text)
        for subject, pid in subjects_placed(conn, snapshot_id):  # its own candidates win
            out.persons[str(subject)] = str(pid)
        for subject, pid in out.persons.items():
            out.owners.setdefault(pid, set()).add(subject)
        for subject, value, excerpt in name_lines(conn, snapshot_id):  # staged before now
            out.own_names.setdefault((str(subject), str(value)), []).append(excerpt)
        out.others_named = names_elsewhere(conn, snapshot_id)
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


FIRST_WED = frozenset({"bachelor", "spinster"})
