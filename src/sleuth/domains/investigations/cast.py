"""One case's people as persons: the forms of one name grouped, a bare "Mr. X" joined to
the one person it can be.

The extraction keys a name by its surname and first initial, so "Chas E. Hughes" and
"Charles Evans Hughes" meet, but "Mr. Hughes" and "President Wilson" stand apart. Here:

1. full names (a given name or initial and a surname) of one surname join when their given
   names agree (`person_names.given_name_equivalent`: Chas ~ Charles, Wm ~ William, an
   initial ~ its name; second given names must not clash) with every form already joined,
   and with one group only: "J. Wilson" beside "John J." and "James Wilson" joins neither;
2. a surname with a title only joins the one full-named person it fits: an office title
   ("President Wilson") first, then "Mr./Mrs./Miss X". It fits when the sex the title
   implies does not clash with the given name's ("Mrs. Wilson" never joins Woodrow Wilson;
   a Mrs. or Miss only joins a woman's name) and, for an office, when that person has no
   other role stated (John J. Wilson, "chairman of the committee of arrangements", is not
   "President Wilson"). The person must be the only one that fits among those its own
   source names, or, when its source names none, in the whole case; when two fit, it stays
   apart, with a note naming both.

Roles are what the sources state: the apposition after a form and the office before it,
each with the mention that states it. Only `people_md` of a general question reads this;
the Censor still judges every extracted name on its own (`protect`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from sleuth.domains.investigations.naming import OFFICE_HEAD
from sleuth.extract.nicknames import SEX
from sleuth.extract.person_names import TITLES, given_name_equivalent, parse_name


@dataclass(frozen=True)
class Parts:
    """A name read for grouping: its title or office, given names, surname (folded)."""

    title: str
    given: tuple[str, ...]
    surname: str

    @property
    def full(self) -> bool:
        return bool(self.given and self.surname)

    @property
    def sex(self) -> str | None:
        """The sex the name implies: its title's, else its first given name's."""
        by_title = TITLES.get(self.title.rstrip(".").lower())
        if by_title:
            return by_title
        return SEX.get(self.given[0].rstrip(".").lower()) if self.full else None


@lru_cache(maxsize=4096)
def parts(name: str) -> Parts:
    """A name's parts, read once per name (a case's grouping asks for each form many times)."""
    office = OFFICE_HEAD.match(name)
    rest = name[office.end():] if office else name
    if office and len(rest.split()) == 1:  # "President Wilson": an office and a surname
        return Parts(office.group(0).strip(), (), rest.strip().casefold())
    parsed = parse_name(rest)
    title = office.group(0).strip() if office else (parsed.titles[0] if parsed.titles else "")
    return Parts(title, tuple(parsed.given_normalised), (parsed.surname or "").casefold())


def _agree(x: Parts, y: Parts) -> bool:
    """Two full names that may be one person's: first given names agree, second ones do
    not clash (an initial agrees with a name of its letter)."""
    if x.surname != y.surname or not given_name_equivalent(x.given[0], y.given[0]):
        return False
    if len(x.given) > 1 and len(y.given) > 1:
        return given_name_equivalent(x.given[1], y.given[1])
    return True


@dataclass
class Person:
    """One person of a case, in all the forms the sources name them."""

    members: list[dict[str, Any]] = field(default_factory=list)  # extraction people
    mentions: list[dict[str, Any]] = field(default_factory=list)
    note: str = ""

    @property
    def forms(self) -> list[str]:
        return list(dict.fromkeys(m["form"] for m in self.mentions))

    @property
    def name(self) -> str:
        """The fullest form: most letters of given names written out, then the first."""
        forms = self.forms
        full = [f for f in forms if parts(f).full]
        return max(full or forms, key=lambda f: (_spelled(parts(f)), -forms.index(f)))

    @property
    def sources(self) -> list[str]:
        return sorted({m["source"] for m in self.mentions})

    @property
    def full(self) -> list[Parts]:
        return [pp for f in self.forms if (pp := parts(f)).full]

    def roles(self) -> dict[str, list[str]]:
        """Role as stated -> the sources stating it: an apposition or an office."""
        out: dict[str, list[str]] = {}
        for m in self.mentions:
            for role in (m.get("office") or "", m.get("apposition") or ""):
                if role:
                    key = next((k for k in out if k.lower() == role.lower()), role)
                    if m["source"] not in out.setdefault(key, []):
                        out[key].append(m["source"])
        return out


def _spelled(x: Parts) -> int:
    """Letters of given names written out (an initial counts none)."""
    return sum(len(g) for g in x.given if len(g.rstrip(".")) > 1)


def _own(p: dict[str, Any], mentions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{**m, "form": m.get("form") or p["name"]} for m in mentions]


def _fits(p: Person, bare: Parts) -> bool:
    if not p.full or p.full[0].surname != bare.surname:
        return False
    sex = TITLES.get(bare.title.rstrip(".").lower())
    theirs = {pp.sex for pp in p.full} - {None}
    if sex == "F" and theirs != {"F"}:
        return False
    if sex == "M" and "F" in theirs:
        return False
    if OFFICE_HEAD.match(bare.title + " "):  # an office: none other stated for them
        word = bare.title.split()[-1].rstrip(".").lower()
        return all(word in r.lower() for r in p.roles())
    return True


def cast(people: list[dict[str, Any]]) -> list[Person]:
    """The persons of `people` (extraction entries, none protected), by name."""
    persons: list[Person] = []
    order = sorted(people, key=lambda p: (-_spelled(parts(p["name"])), p["key"]))
    bare: list[dict[str, Any]] = []
    for p in order:
        me = parts(p["name"])
        if not me.full:
            if me.title and me.surname:
                bare.append(p)
            else:
                persons.append(Person([p], _own(p, p["mentions"])))
            continue
        fit = [q for q in persons if q.full and all(_agree(me, x) for x in q.full)]
        if len(fit) == 1:
            fit[0].members.append(p)
            fit[0].mentions += _own(p, p["mentions"])
        else:
            persons.append(Person([p], _own(p, p["mentions"])))
    offices_first = sorted(bare, key=lambda p: (not OFFICE_HEAD.match(p["name"]), p["key"]))
    for p in offices_first:
        me = parts(p["name"])
        left = Person([p])
        for m in _own(p, p["mentions"]):
            fit = [q for q in persons if _fits(q, me)]
            here = [q for q in fit if m["source"] in q.sources]
            pick = here if here else fit
            if len(pick) == 1:
                if p not in pick[0].members:
                    pick[0].members.append(p)
                pick[0].mentions.append(m)
                continue
            left.mentions.append(m)
            if len(pick) > 1:
                left.note = (f"not joined to {' or '.join(sorted(q.name for q in pick))}: "
                             f"{m['source'] if here else 'the case'} names "
                             f"{'both' if len(pick) == 2 else 'each'}")
        if left.mentions:
            persons.append(left)
    return sorted(persons, key=lambda q: (q.name, q.sources))
