"""One life, whatever else its records say: the same birth or death day, name and family.

Two records that give a person names that agree (a wife's maiden and married name among
them), the same birth or death date to the day and the same father, mother or spouse (the
same person in the case, merges followed) are one person, even when one of them puts the
death ten years later: that is one record wrong, a conflict the Analyst weighs with every
claim kept (`gps.adjudicate.adjudicate`), not a second life. So these pairs are merged
(`same_life_pairs`), and the life tests that otherwise keep two records apart
(`model.lifespan`: two births, two deaths, ages that disagree) give way for them
(`resolve.merge.merge_blockers`). A year alone, or a name and a year, never do: a day and a
relative together are what no two namesakes share.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date
from itertools import combinations

from sqlalchemy import Connection

from sleuth.extract.places import PLACE_NOISE
from sleuth.model.lifespan import (
    ALIVE_FIELDS,
    VITAL_FIELDS,
    Years,
    born_year,
    late_mother,
    life_conflicts,
)
from sleuth.resolve.coparents import could_be_one
from sleuth.resolve.features import _middle_level
from sleuth.store.assertions import dated_entities, field_values
from sleuth.store.kin import all_links, links_of, parent_links
from sleuth.store.persons import name_keys, names_of, sexes_of
from sleuth.store.queries import merged_into, vital_years

_DAY = re.compile(r"^\d{4}-\d\d-\d\d$")


EVENTS = {"birth_date": "birth", "death_date": "death"}


@dataclass
class _Life:
    """What a group of merged records says of one person's identity."""

    names: set[str] = field(default_factory=set)
    days: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))  # to the day
    kin: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))


def _lives(conn: Connection, groups: dict[str, list[str]]) -> dict[str, _Life]:
    """root -> its records' names, birth and death days and relatives (as roots)."""
    merged = merged_into(conn)
    of = {m: root for root, ms in groups.items() for m in ms}
    ids = list(of)
    out: dict[str, _Life] = {root: _Life() for root in groups}
    for pid, name in names_of(conn, ids).items():
        out[of[pid]].names.add(str(name))
    for pid, fld, value in field_values(conn, EVENTS, ids):
        if _DAY.match(str(value)):
            out[of[pid]].days[EVENTS[fld]].add(str(value))
    for p1, p2, kind in links_of(conn, ids):
        for me, other, role in ((p2, p1, "parent" if kind == "parent" else "spouse"),
                                (p1, p2, "child" if kind == "parent" else "spouse")):
            if me in of:
                out[of[me]].kin[role].add(merged.get(other, other))
    return out


def _same_day(x: _Life, y: _Life) -> str | None:
    """A birth or death both groups date to the same day ("the same birth day (1891-12-27)").
    One event's year one digit apart may be a copyist's slip, or a son named for a brother
    who died: not certain enough. Both the birth and the death on the same day of the year,
    each year at most one digit apart ("1835" and "1845"), are one life with a slip: a
    child named for a dead sibling shares neither day (`_slipped`)."""
    for event in ("birth", "death"):
        if same := sorted(x.days[event] & y.days[event]):
            return f"the same {event} day ({same[0]})"
    return _slipped(x, y)


def _one_digit(a: str, b: str) -> bool:
    return len(a) == len(b) and sum(p != q for p, q in zip(a, b, strict=True)) <= 1


def _slipped(x: _Life, y: _Life) -> str | None:
    """Birth and death each on the same day and month in both groups, the years at most one
    digit apart: "birth 14 August (1835, 1845) and death 28 July (1871, 1873)"."""
    said = []
    for event in ("birth", "death"):
        pair = next(((d, e) for d in sorted(x.days[event]) for e in sorted(y.days[event])
                     if d[4:] == e[4:] and _one_digit(d[:4], e[:4])), None)
        if pair is None:
            return None
        said.append(f"{event} {pair[0]} and {pair[1]}")
    return ("the same birth and death days of the year, each year at most a digit apart ("
            + "; ".join(said) + ")")


def _day_of_year_keys(life: _Life) -> set[str]:
    """"08-14 07-28" for each birth and death day pair: `_slipped`'s candidates."""
    return {f"{b[5:]} {d[5:]}" for b in life.days["birth"] for d in life.days["death"]}


def _names(conn: Connection, ids: Iterable[str]) -> list[str]:
    return sorted(str(n) for n in names_of(conn, sorted(ids)).values())


def _agree(x: _Life, y: _Life, conn: Connection) -> str | None:
    """Why two groups' records are one life, or None."""
    day = _same_day(x, y)
    if day is None:
        return None
    for role in ("parent", "spouse"):
        shared = sorted(x.kin[role] & y.kin[role])
        if not shared:
            continue
        # a wife under her husband's surname in one record, her maiden name in the other
        married = ["", *_names(conn, x.kin["spouse"] | y.kin["spouse"])]
        if any(could_be_one(n, m, h) for n in sorted(x.names) for m in sorted(y.names)
               for h in married):
            return f"{day}, names that agree and the same {role} (person {shared[0]}): one life"
    return None


def one_life(conn: Connection, a: Sequence[str], b: Sequence[str]) -> str | None:
    """Why the records of persons `a` (one group) and `b` (another) are one life despite
    what their years say, or None (see the module)."""
    lives = _lives(conn, {"a": list(a), "b": list(b)})
    return _agree(lives["a"], lives["b"], conn)


def same_life_pairs(conn: Connection) -> list[tuple[str, str, str]]:
    """Pairs of persons (as their clusters' canonical persons, in content order) that are
    one life by `one_life`, with the reason: candidates for a merge, which still goes
    through the blockers that no record can explain away (sex, ancestry, two profiles)."""
    merged = merged_into(conn)
    by_day: dict[str, set[str]] = defaultdict(set)  # "birth 1891-12-27" -> persons
    dated: dict[str, _Life] = defaultdict(_Life)  # root -> its days, for `_slipped`
    for pid, fld, value in field_values(conn, EVENTS, persons_only=True):
        if _DAY.match(str(value)):
            root = merged.get(str(pid), str(pid))
            by_day[f"{EVENTS[fld]} {value}"].add(root)
            dated[root].days[EVENTS[fld]].add(str(value))
    for root, life in dated.items():
        for key in _day_of_year_keys(life):  # "slip 08-14 07-28": the days of the year
            by_day[f"slip {key}"].add(root)
    roots = sorted({r for rs in by_day.values() if len(rs) > 1 for r in rs})
    if not roots:
        return []
    groups: dict[str, list[str]] = {r: [r] for r in roots}
    for m, root in merged.items():
        if root in groups:
            groups[root].append(m)
    lives = _lives(conn, groups)
    out: list[tuple[str, str, str]] = []
    seen: set[tuple[str, str]] = set()
    for day in sorted(by_day):
        for x, y in combinations(sorted(by_day[day]), 2):
            if (x, y) in seen:
                continue
            seen.add((x, y))
            if (why := _agree(lives[x], lives[y], conn)) is not None:
                out.append((x, y, why))
    return out


def _pooled(conn: Connection, groups: dict[str, list[str]]) -> dict[str, Years]:
    """root -> the vital years of all its records, read in one query."""
    each = vital_years(conn, [m for ms in groups.values() for m in ms])
    years: dict[str, Years] = {}
    for r, ms in groups.items():
        pooled = years.setdefault(r, {})
        for m in ms:
            for fld, ys in each.get(m, {}).items():
                pooled.setdefault(fld, []).extend(ys)
    return years


_OWN = ("birth_date", "baptism_date", "marriage_date", "death_date", "burial_date",
        *ALIVE_FIELDS)  # years a record finds the person themselves alive (or just dead)


def _within(a: Years, b: Years) -> int | None:
    """A year `b` finds the person alive that falls inside `a`'s known life (birth and
    death both known), or None."""
    born, ended = born_year(a), max(a.get("death_date", []) + a.get("burial_date", []),
                                    default=None)
    if born is None or ended is None:
        return None
    return next((y for f in _OWN for y in sorted(b.get(f, [])) if born <= y <= ended), None)


def sibling_pairs(conn: Connection) -> list[tuple[str, str, str]]:
    """Two children of one parent with one forename, both alive at one time, are one person:
    a mother does not have two living daughters named Mary (a child named for a sibling who
    had died is born after that death, which the dates show). "Mary Hatherley", daughter of
    Esther in the 1900 census, is Esther's daughter Mary Garside, born 1891, died 1967,
    under her maiden name. Both must have dated records, one of them the whole life; names
    must agree (her married name her husband's surname). Pairs (a, b, why)."""
    merged = merged_into(conn)
    children: dict[str, set[str]] = defaultdict(set)
    for parent, child in parent_links(conn):
        children[merged.get(str(parent), str(parent))].add(merged.get(str(child), str(child)))
    families = {p: sorted(cs) for p, cs in children.items() if len(cs) > 1}
    roots = sorted({c for cs in families.values() for c in cs})
    if not roots:
        return []
    groups: dict[str, list[str]] = {x: [x] for x in roots}
    for m, root in merged.items():
        if root in groups:
            groups[root].append(m)
    lives, years = _lives(conn, groups), _pooled(conn, groups)
    sex = sexes_of(conn, roots)
    out: list[tuple[str, str, str]] = []
    seen: set[tuple[str, str]] = set()
    for parent in sorted(families):
        for x, y in combinations(families[parent], 2):
            if (x, y) in seen or {sex.get(x), sex.get(y)} == {"M", "F"}:
                continue
            seen.add((x, y))
            first = sorted({_first(n) for n in lives[x].names}
                           & {_first(n) for n in lives[y].names})
            if not first or life_conflicts(years[x], years[y]):
                continue
            when = _within(years[x], years[y]) or _within(years[y], years[x])
            married = ["", *_names(conn, lives[x].kin["spouse"] | lives[y].kin["spouse"])]
            if when is not None and any(could_be_one(n, m, h) and not _middles_clash(n, m)
                                        for n in sorted(lives[x].names)
                                        for m in sorted(lives[y].names) for h in married):
                out.append((x, y, (f"both children of person {parent}, both called "
                                   f"{first[0]}, both alive in {when}: one person")))
    return out


def _middles_clash(a: str, b: str) -> bool:
    """Both names give a middle name and they differ ("Daniel James Giles", "Daniel
    Nathaniel Giles"): brothers told apart by it, not one son. As the resolver's middle-name
    feature reads them: an initial agrees with any name it begins, "Wm." with "William".
    Imported here: the resolver's features load numpy, which `sleuth ingest` never needs."""
    return _middle_level(" ".join(a.split()[:-1]), " ".join(b.split()[:-1])) == 0


def _first(name: str) -> str:
    words = name.split()
    return words[0].casefold() if words else ""


def groups_of(merged: dict[str, str], ids: Iterable[str]) -> dict[str, list[str]]:
    """The given persons by the cluster they are in now (root -> its given members)."""
    out: dict[str, list[str]] = defaultdict(list)
    for x in ids:
        out[merged.get(x, x)].append(x)
    return dict(out)


def stub_links(conn: Connection) -> list[tuple[str, str, str]]:
    """A person a record names only as a relative (no dates of their own: "Albert Rendell",
    father of a bride of 1950), created apart because the name had several bearers then,
    and whom exactly one bearer of the name can be now - merges since have made one person
    of some, and the dates the record gives their relatives (a child's birth or wedding)
    rule out the rest (`model.lifespan`). The same test promotion makes when it links a
    name (`pipeline.promote`), made again with what the case knows now. Pairs (bearer, stub,
    why), in content order."""
    merged = merged_into(conn)
    by_key: dict[str, set[str]] = defaultdict(set)
    for pid, key in name_keys(conn):
        if key and len(str(key).split()) >= 2:
            by_key[str(key)].add(merged.get(str(pid), str(pid)))
    shared = {k: rs for k, rs in by_key.items() if len(rs) > 1}
    if not shared:
        return []
    roots = sorted({r for rs in shared.values() for r in rs})
    groups: dict[str, list[str]] = {r: [r] for r in roots}
    for m, root in merged.items():
        if root in groups:
            groups[root].append(m)
    dated = {merged.get(str(x), str(x)) for x in dated_entities(
        conn, [m for ms in groups.values() for m in ms], VITAL_FIELDS)}
    years = _pooled(conn, groups)
    partners = _partners(conn, merged, groups)
    sexes = sexes_of(conn, roots)
    out: list[tuple[str, str, str]] = []
    for key in sorted(shared):
        bearers = sorted(shared[key])
        for stub in bearers:
            if stub in dated or not years[stub]:
                continue  # a person with dates of their own, or nothing to tell them by
            fits = [b for b in bearers if b != stub and b in dated
                    and not life_conflicts(years[b], years[stub])
                    and not _other_partners(conn, partners, b, stub, key)
                    and not (sexes.get(stub) == "F" and late_mother(years[b], years[stub]))]
            if len(fits) == 1:
                out.append((fits[0], stub, (
                    f"the record names {key!r} only as a relative, and of the case's "
                    f"{len(bearers) - 1} others of that name only person {fits[0]} can "
                    "be them by the dates given their relatives")))
    return out


def _partners(conn: Connection, merged: dict[str, str],
              groups: dict[str, list[str]]) -> dict[str, set[str]]:
    """root -> its spouses and the other parents of its children (as roots)."""
    of = {m: root for root, ms in groups.items() for m in ms}
    out: dict[str, set[str]] = {root: set() for root in groups}
    kids: dict[str, set[str]] = defaultdict(set)  # child root -> parent roots
    for p1, p2, kind in all_links(conn):
        a, b = merged.get(str(p1), str(p1)), merged.get(str(p2), str(p2))
        if kind == "parent":
            kids[b].add(a)
        else:
            for me, other in ((str(p1), b), (str(p2), a)):
                if me in of:
                    out[of[me]].add(other)
    for parents in kids.values():
        for me in parents & out.keys():
            out[me] |= parents - {me}
    return out


def _other_partners(conn: Connection, partners: dict[str, set[str]], bearer: str, stub: str,
                    name: str) -> bool:
    """The stub's record pairs them with a spouse or co-parent none of the bearer's can be
    ("a daughter of Daniel Giles and Ruth Pennington" is not the Ruth Pennington whose only
    husband is Richard): the test promotion makes (`pipeline.linking._other_partner`)."""
    mine, theirs = partners.get(stub, set()), partners.get(bearer, set())
    if not mine or not theirs or mine & theirs:
        return False
    return not any(could_be_one(a, b, name) for a in _names(conn, mine)
                   for b in _names(conn, theirs))


# A register entry for an event that follows another by days (a burial after the death, a
# baptism after the birth): the event it follows, the most days between, and the place
# fields that say where each was.
FOLLOWS = {"burial_date": ("death_date", 14, ("burial_place", "death_place")),
           "baptism_date": ("birth_date", 42, ("baptism_place", "birth_place")),
           "christening_date": ("birth_date", 42, ("christening_place", "birth_place"))}


@dataclass
class _Entry:
    """What one group of records says for the register test."""

    names: set[tuple[str, str]] = field(default_factory=set)  # (first forename, surname)
    days: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    places: set[str] = field(default_factory=set)  # significant words of any place
    ages: set[int] = field(default_factory=set)  # age at death the entry gives
    born: set[int] = field(default_factory=set)


def _place_words(value: str) -> set[str]:
    return {w for w in re.findall(r"[a-z]{4,}", value.lower()) if w not in PLACE_NOISE}


def _entries(conn: Connection, merged: dict[str, str],
             groups: dict[str, list[str]] | None = None) -> dict[str, _Entry]:
    """root -> its records' names, register days, place words, ages and birth years (every
    person, or the members of `groups`)."""
    fields = {"name", "age_at_death", "birth_date",
              *FOLLOWS, *(f for f, _, _ in FOLLOWS.values()),
              *(pl for _, _, pls in FOLLOWS.values() for pl in pls)}
    of = ({m: root for root, ms in groups.items() for m in ms} if groups is not None
          else None)
    out: dict[str, _Entry] = defaultdict(_Entry)

    def root_of(pid: object) -> str | None:
        if of is None:
            return merged.get(str(pid), str(pid))
        return of.get(str(pid))

    def named(root: str, name: str) -> None:
        words = re.findall(r"[a-z]+", name.lower())
        if len(words) >= 2:
            out[root].names.add((words[0], words[-1]))

    ids = None if of is None else list(of)
    for pid, name in names_of(conn, ids).items():
        if (root := root_of(pid)) is not None:
            named(root, str(name or ""))
    for pid, fld, value in field_values(conn, fields, ids, persons_only=True):
        root, value = root_of(pid), str(value)
        if root is None:
            continue
        e = out[root]
        if fld == "name":
            named(root, value)
        elif fld == "age_at_death" and value.isdigit():
            e.ages.add(int(value))
        elif fld.endswith("_place"):
            e.places |= _place_words(value)
        elif _DAY.match(value):
            e.days[fld].add(value)
            if fld == "birth_date":
                e.born.add(int(value[:4]))
    return out


def _register_why(entry_id: str, e: _Entry, pid: str, o: _Entry) -> str | None:
    """Why `e`, a bare register entry, is the burial (baptism) of `o`, or None."""
    if e.born or not e.places or not (o.names & e.names) or not (o.places & e.places):
        return None
    for event, (before, most, _) in FOLLOWS.items():
        if not e.days[event] or e.days[before]:
            continue
        gaps = [(date.fromisoformat(d2) - date.fromisoformat(d1)).days
                for d1 in o.days[before] for d2 in e.days[event]]
        if not any(0 <= g <= most for g in gaps):
            continue
        year = int(sorted(e.days[event])[0][:4])
        if e.ages and not any(abs(year - b - age) <= 1 for b in o.born for age in e.ages):
            continue
        return (f"the register's {event.split('_')[0]} entry of person {entry_id} follows "
                f"the {before.split('_')[0]} of person {pid} by at most {most} days, under "
                "the same name, in the same place"
                + (", at the age it gives" if e.ages else "") + ": one life")
    return None


def register_fit(conn: Connection, a: Sequence[str], b: Sequence[str]) -> str | None:
    """Why one group's records are the other's register entry (`register_pairs`), or None:
    for the life tests, which give way to it as to `one_life`."""
    lives = _entries(conn, merged_into(conn), {"a": list(a), "b": list(b)})
    x, y = lives["a"], lives["b"]
    return _register_why("a", x, "b", y) or _register_why("b", y, "a", x)


def register_pairs(conn: Connection) -> list[tuple[str, str, str]]:
    """A parish register's burial (or baptism) entry of a person the case knows nothing
    else dated of, and the one person of the case of that forename and surname (a married
    name counts) who died at most 14 days before (was born at most 42 days before), in a
    place the two records share a word of ("St Senara, Zennor" and "Zennor, Cornwall"), at
    the age the entry gives: one life, the entry her burial. A namesake of one parish
    buried within a fortnight of her death at her age is what no two lives share.
    Pairs (person, entry, why), in content order."""
    merged = merged_into(conn)
    lives = _entries(conn, merged)
    by_name: dict[tuple[str, str], set[str]] = defaultdict(set)
    for pid, life in lives.items():
        for n in life.names:
            by_name[n].add(pid)
    out: list[tuple[str, str, str]] = []
    for entry_id in sorted(lives):
        e = lives[entry_id]
        if e.born or not e.places or not any(e.days[ev] for ev in FOLLOWS):
            continue
        fits = [(pid, why) for pid in sorted(set().union(*(by_name[n] for n in e.names))
                                             - {entry_id})
                if (why := _register_why(entry_id, e, pid, lives[pid])) is not None]
        if len(fits) == 1:
            out.append((fits[0][0], entry_id, fits[0][1]))
    return out
