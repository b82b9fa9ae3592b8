"""One child, one mother: two parents of the same sex whose names can be one person.

A register row names the mother by her forename ("Edward, son of Daniel and Lydia
PENNINGTON"), a census or a tree by her maiden name ("Lydia Cole"), and the two readings
become two persons who are each the child's mother. The child can have only one: when their
names agree (the same forename; surnames that sound alike, or one of them the child's own
surname, the name a wife took), they are proposed as one person. The merge still goes
through the resolver's blockers (`resolve.merge.merge_blockers`: two lives, too many
parents), and is reversible like any other. So are a person's partners of one sex whose
names agree (`partner_pairs`): the husband a wife's profile names and the father her son's
memorial names.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from itertools import combinations

import jellyfish

from sleuth.model import CaseGraph, Person
from sleuth.verify.normalise import fold

TITLES = frozenset({"mr", "mrs", "miss", "ms", "dr", "rev", "capt", "col", "sir", "lady"})


@dataclass(frozen=True)
class CoParents:
    """Two persons proposed as one, through the person `child` they are both related to."""

    child: str
    a: str
    b: str
    rationale: str
    why_not_split: str
    rule: str  # "coparents" or "partners"


def _words(name: str) -> list[str]:
    return [w for w in fold(name).split() if w not in TITLES and not w.startswith("unnamed")]


def _forenames_agree(x: list[str], y: list[str]) -> bool:
    return x[0] == y[0] or (min(len(x[0]), len(y[0])) == 1 and x[0][0] == y[0][0])


def could_be_one(a: str, b: str, child: str) -> bool:
    """Whether two names of a child's parents of one sex can name the same person."""
    x, y = _words(a), _words(b)
    if not x or not y or not _forenames_agree(x, y):
        return False
    if len(x) == 1 or len(y) == 1:  # a forename alone: nothing else to disagree
        return True
    sx, sy = x[-1], y[-1]
    if sx == sy or jellyfish.soundex(sx) == jellyfish.soundex(sy):
        return True
    own = _words(child)
    return bool(own) and own[-1] in (sx, sy)  # her married name is her child's surname


def partner_pairs(graph: CaseGraph) -> list[CoParents]:
    """Pairs of one person's partners (spouses, and the other parents of their children) of
    one sex whose names can be one person: a mother's husband "David Greenwood" from her
    profile and her son's father "David Greenwood" from his memorial are her one husband.
    A wife's married name is her husband's surname; a husband's surname is his own."""
    people: dict[str, Person] = {p.id: p for p in graph.persons}
    out: list[CoParents] = []
    seen: set[tuple[str, str]] = set()
    for me in sorted(graph.persons, key=lambda p: p.id):
        partners = set(me.spouses)
        for child in me.children:
            kid = people.get(child)
            if kid is not None:
                partners |= (kid.parents | set(graph.extra_parents.get(child, ()))) - {me.id}
        by_sex: dict[str, list[str]] = defaultdict(list)
        other = {"M": "F", "F": "M"}.get(me.sex, "U")
        for pid in sorted(partners):
            par = people.get(pid)
            # a partner no record gives a sex (a newspaper's "survived by her husband's
            # name") is of the other sex: these records know only man-and-wife partners
            sex = (par.sex if par.sex in ("M", "F") else other) if par is not None else "U"
            if sex in ("M", "F"):
                by_sex[sex].append(pid)
        for sex, ids in by_sex.items():
            married = me.canonical_name if sex == "F" else ""
            for a, b in combinations(ids, 2):
                key = (min(a, b), max(a, b))
                if key in seen or not could_be_one(people[a].canonical_name,
                                                   people[b].canonical_name, married):
                    continue
                seen.add(key)
                role = "wife" if sex == "F" else "husband"
                out.append(CoParents(me.id, a, b, (
                    f"both are recorded as the {role} or co-parent of person {me.id}, and "
                    "their names agree"),
                    f"no record tells apart two {role}s of person {me.id} of this name",
                    "partners"))
    return out


def coparent_pairs(graph: CaseGraph) -> list[CoParents]:
    """Pairs of one child's parents, of one sex, that can be one person (graph as read,
    merges folded)."""
    people: dict[str, Person] = {p.id: p for p in graph.persons}
    out: list[CoParents] = []
    seen: set[tuple[str, str]] = set()
    for child in sorted(graph.persons, key=lambda p: p.id):
        by_sex: dict[str, list[str]] = defaultdict(list)
        for pid in sorted(child.parents | set(graph.extra_parents.get(child.id, ()))):
            par = people.get(pid)
            if par is not None and par.sex in ("M", "F"):
                by_sex[par.sex].append(pid)
        for sex, ids in by_sex.items():
            for a, b in combinations(ids, 2):
                key = (min(a, b), max(a, b))
                if key in seen or not could_be_one(people[a].canonical_name,
                                                   people[b].canonical_name,
                                                   child.canonical_name):
                    continue
                seen.add(key)
                role = "mother" if sex == "F" else "father"
                out.append(CoParents(child.id, a, b, (
                    f"both are recorded as the {role} of person {child.id}, and their names "
                    f"agree: a child has one {role}"),
                    f"no record gives the child a second {role}", "coparents"))
    return out


def _partners(graph: CaseGraph, people: dict[str, Person]) -> dict[str, set[str]]:
    """Each person's partners: spouses, and the other parents of their children."""
    out: dict[str, set[str]] = defaultdict(set)
    for p in graph.persons:
        out[p.id] |= p.spouses
        parents = sorted(p.parents | set(graph.extra_parents.get(p.id, ())))
        for x, y in combinations(parents, 2):
            out[x].add(y)
            out[y].add(x)
    return {k: {v for v in vs if v in people and v != k} for k, vs in out.items()}


def _born(p: Person) -> int | None:
    return p.birth.earliest.year if p.birth is not None and p.birth.earliest else None


def _years_fit(a: Person, b: Person) -> bool:
    """Birth years, where both are known, within two years of each other."""
    ya, yb = _born(a), _born(b)
    return ya is None or yb is None or abs(ya - yb) <= 2


def couple_pairs(graph: CaseGraph) -> list[CoParents]:
    """Two couples named alike are one couple: a man of one full name whose partner's name
    can be the partner's of another man of that name (a daughter's record names her parents
    "Albert Rendell" and "Sarah Jane Oakes"; his profile marries Albert Rendell to Sarah
    Jane Rendell, her married name). Both pairs are proposed, only where the match is the
    one match either couple has (a third Albert Rendell wed to a Sarah Jane makes them all
    uncertain: a person decides); the blockers still test every date the records give (a
    grandson's namesake couple is born decades later)."""
    people: dict[str, Person] = {p.id: p for p in graph.persons}
    partners = _partners(graph, people)
    by_name: dict[tuple[str, str, str], list[str]] = defaultdict(list)
    for p in sorted(graph.persons, key=lambda q: q.id):
        words = _words(p.canonical_name)
        if len(words) >= 2 and partners.get(p.id):
            by_name[(words[0], words[-1], p.sex)].append(p.id)
    found: list[tuple[str, str, str, str]] = []  # (x, y, x's partner, y's partner)
    for ids in by_name.values():
        for x, y in combinations(ids, 2):
            if y in partners.get(x, set()) or not _years_fit(people[x], people[y]):
                continue
            # his wives may go by his surname; her husbands keep their own ("Hannah Giles"
            # wed to James Giles and to James Arthur Blanchard is two women)
            married = people[x].canonical_name if people[x].sex == "M" else ""
            found += [(x, y, px, py) for px in sorted(partners[x]) for py in sorted(partners[y])
                      if px != py and _alike(people[px], people[py], married)]
    # a match of two couples whose both partners are named alike is found from either side
    def couples(f: tuple[str, str, str, str]) -> frozenset[frozenset[str]]:
        return frozenset({frozenset(f[:2]), frozenset(f[2:])})

    first = {couples(f): f for f in reversed(found)}
    found = [f for f in found if first[couples(f)] is f]
    matches: dict[str, int] = defaultdict(int)
    for x, y, px, py in found:
        for who in (x, y, px, py):
            matches[who] += 1
    out: list[CoParents] = []
    for x, y, px, py in found:
        if any(matches[who] > 1 for who in (x, y, px, py)):
            continue
        why = (f"persons {x} and {y}, of one name, each have a partner whose names agree "
               f"({people[px].canonical_name}; {people[py].canonical_name}): one couple")
        out += [CoParents(x, x, y, why, "no record tells the two couples apart", "couples"),
                CoParents(x, px, py, why, "no record tells the two couples apart", "couples")]
    return out


def _alike(a: Person, b: Person, married: str) -> bool:
    """Two partners that can be one person: one sex (or unknown), births within two years,
    names that agree (`could_be_one`, her married name being her husband's surname)."""
    if "U" not in (a.sex, b.sex) and a.sex != b.sex:
        return False
    return _years_fit(a, b) and (could_be_one(a.canonical_name, b.canonical_name, married)
                                 or misread(a.canonical_name, b.canonical_name))


# Letters newspaper OCR reads one for the other ("Anu" for "Ann", "Eliza" for "Elizc").
_OCR_ALIKE = frozenset({frozenset("nu"), frozenset("ce"), frozenset("il"), frozenset("ao"),
                        frozenset("hb")})


def misread(a: str, b: str) -> bool:
    """One name with its forename misread by a letter: "Anu Rebecca Garside" is "Ann
    Rebecca Garside" where every other word (a middle name and the surname at least) is
    the same, and the two letters are ones OCR confuses."""
    x, y = _words(a), _words(b)
    if len(x) < 3 or len(x) != len(y) or x[1:] != y[1:] or len(x[0]) != len(y[0]):
        return False
    diff = [frozenset((p, q)) for p, q in zip(x[0], y[0], strict=True) if p != q]
    return len(diff) == 1 and diff[0] in _OCR_ALIKE
