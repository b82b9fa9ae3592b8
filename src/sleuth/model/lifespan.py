"""Whether the vital years two records give can belong to one life.

Used wherever two records are about to become one person (exact-name linking at promotion,
merges in entity resolution): a burial before a birth, a death more than `MAX_LIFESPAN`
years after it, two births or two deaths years apart, or ages at death that put the birth
years apart are not one life. Nor are records where one says a marriage or a child's birth at a time
the other's life cannot hold: married or a parent before `MIN_PARENT_AGE`, a child born
more than `MAX_PARENT_AGE` years after the birth, or a marriage or child after the death
(a father may die before his child is born: `DEATH_SLACK`).
Records give years as `{field: [year, ...]}` for birth, baptism, death, burial, age at
death, marriage, `child_birth` (the births or baptisms of the person's children) and
`child_marriage` (their children's weddings), and the years a census or residence finds them
living (`ALIVE_FIELDS`); a
record's own impossible values are an error in that record, not tested here.
"""

from __future__ import annotations

import re

MAX_LIFESPAN = 110  # years from birth to death or burial that one life can span
AGE_SLACK = 2  # years an age at death may be off from the birth it implies ("68" in 2012: 1943-44)
DEATH_SLACK = 2  # years between a death and a burial (or two records of them) in one life
BIRTH_SLACK = 5  # years two records' births of one life may differ (ages misremembered)
MIN_PARENT_AGE = 12  # youngest age at which a record can show a person married or a parent
MAX_PARENT_AGE = 80  # oldest age at which a person becomes a parent
MAX_MARRIAGE_AGE = 100
MAX_MOTHER_AGE = 50  # a name alone does not make a woman a mother later than this
ALIVE_FIELDS = ("residence_date", "census_date")  # a record finds the person living then
VITAL_FIELDS = ("birth_date", "baptism_date", "death_date", "burial_date", "age_at_death",
                "marriage_date", *ALIVE_FIELDS)
CHILD_BIRTH = "child_birth"  # not a field of the person's own: their children's births
CHILD_MARRIAGE = "child_marriage"  # and their children's weddings (a bride's father, 1950)
_YEAR = re.compile(r"(?<!\d)\d{4}(?!\d)")
_AGE = re.compile(r"\d{1,3}")

Years = dict[str, list[int]]


def year_of(field: str, value: str) -> int | None:
    """The year a vital field's value states (the age itself for age at death)."""
    m = (_AGE if field == "age_at_death" else _YEAR).search(str(value))
    return int(m.group()) if m else None


def add_year(years: Years, field: str, value: str) -> None:
    if field in VITAL_FIELDS and (y := year_of(field, value)) is not None:
        years.setdefault(field, []).append(y)


def born_year(y: Years) -> int | None:
    """The earliest birth or baptism year these years give."""
    return min(y.get("birth_date", []) + y.get("baptism_date", []), default=None)


def birth_estimate(y: Years) -> int | None:
    """The birth year these years give, else the one an age at death implies."""
    born = born_year(y)
    return born if born is not None else _implied_birth(y)


def _ended(y: Years) -> int | None:
    return max(y.get("death_date", []) + y.get("burial_date", []), default=None)


def _implied_birth(y: Years) -> int | None:
    ages, ended = y.get("age_at_death", []), _ended(y)
    return ended - ages[0] if len(ages) == 1 and ended is not None else None


def life_conflicts(a: Years, b: Years) -> list[str]:
    """Why records with these years cannot be one person ([] when they can)."""
    out: list[str] = []
    ba, bb = min(a.get("birth_date", []), default=None), min(b.get("birth_date", []),
                                                             default=None)
    if ba is not None and bb is not None and abs(ba - bb) > BIRTH_SLACK:
        out.append(f"born in {ba} and in {bb}: two births")
    ea, eb = _ended(a), _ended(b)
    if ea is not None and eb is not None and abs(ea - eb) > DEATH_SLACK:
        out.append(f"died or buried in {ea} and in {eb}: two deaths")
    ia, ib = _implied_birth(a), _implied_birth(b)
    if ia is not None and ib is not None and abs(ia - ib) > 2 * AGE_SLACK:
        out.append(f"ages at death put the births about {ia} and {ib}")
    for x, y, xn, yn in ((a, b, "one", "the other"), (b, a, "the other", "one")):
        out += _alive_conflicts(x, y, xn, yn)
    for x, y, xn, yn in ((a, b, "one", "the other"), (b, a, "the other", "one")):
        born, ended = born_year(x), _ended(y)
        if born is None or ended is None:
            continue
        if ended < born - 1 or ended - born > MAX_LIFESPAN:
            out.append(f"{yn} record's death or burial ({ended}) and {xn}'s birth ({born}) "
                       "are not one life")
        ages = y.get("age_at_death", [])
        if len(ages) == 1 and abs(ended - ages[0] - born) > AGE_SLACK:
            out.append(f"{yn} record has death aged {ages[0]} in {ended} (born about "
                       f"{ended - ages[0]}), {xn} has birth {born}")
    for x, y, xn, yn in ((a, b, "one", "the other"), (b, a, "the other", "one")):
        if not (_family_conflicts(x, x, xn, xn) or _family_conflicts(y, y, yn, yn)):
            # a record married at eleven by its own dates is wrong in itself (a birth year
            # mistyped in a user tree), and its copies must still find each other
            out += _family_conflicts(x, y, xn, yn)
    out += _children_apart(a, b)
    return out


CHILD_SPAN = MAX_PARENT_AGE - MIN_PARENT_AGE  # most years between one parent's children


def _children_apart(a: Years, b: Years) -> list[str]:
    """Children born further apart than one parent's fertile years: the William GILES
    whose son was baptised in 1768 is not the father of boys born in 1953 and 1955, though
    neither record gives either man's birth. Each record's own children are taken as they
    are (a mistyped year in one tree must not keep its copies apart)."""
    ka, kb = a.get(CHILD_BIRTH, []), b.get(CHILD_BIRTH, [])
    if not ka or not kb or max(ka) - min(ka) > CHILD_SPAN or max(kb) - min(kb) > CHILD_SPAN:
        return []
    lo, hi = min(ka + kb), max(ka + kb)
    if hi - lo <= CHILD_SPAN:
        return []
    return [f"children born in {lo} and in {hi}: further apart than one parent's lifetime"]


def _alive_conflicts(x: Years, y: Years, xn: str, yn: str) -> list[str]:
    """`y` finds the person living in a year (a census, a residence) that `x`'s birth
    comes after or `x`'s death before: the man in the 1940 census is not the namesake
    born in the 1970s."""
    alive = [v for f in ALIVE_FIELDS for v in y.get(f, [])]
    if not alive:
        return []
    out: list[str] = []
    born, ended = born_year(x), _ended(x)
    if born is not None and born > min(alive) + 1:
        out.append(f"{yn} record finds the person living in {min(alive)}, {xn} has birth "
                   f"{born}")
    if ended is not None and ended < max(alive) - 1:
        out.append(f"{yn} record finds the person living in {max(alive)}, {xn} has death "
                   f"{ended}")
    return out


def _family_conflicts(x: Years, y: Years, xn: str, yn: str) -> list[str]:
    """`y`'s marriages and children against `x`'s birth and death. A child's wedding puts
    the parent's birth at least two generations' minimum before it (the father named in a
    bride's 1950 marriage record is not the namesake born in 1970)."""
    out: list[str] = []
    born, ended = birth_estimate(x), _ended(x)
    weddings = y.get(CHILD_MARRIAGE, [])
    if born is not None and weddings and min(weddings) - born < 2 * MIN_PARENT_AGE:
        out.append(f"{yn} record has a child married in {min(weddings)}, {xn} has birth "
                   f"{born}")
    # a child may be born months after the father's death; no one marries after their own
    for event, years, oldest, after in (
            ("marriage", y.get("marriage_date", []), MAX_MARRIAGE_AGE, 0),
            ("child born", y.get(CHILD_BIRTH, []), MAX_PARENT_AGE, DEATH_SLACK - 1)):
        if not years:
            continue
        first, last = min(years), max(years)
        if born is not None and (first - born < MIN_PARENT_AGE or last - born > oldest):
            when = first if first - born < MIN_PARENT_AGE else last
            out.append(f"{yn} record has a {event} in {when}, {xn} has birth {born}")
        if ended is not None and last > ended + after:
            out.append(f"{yn} record has a {event} in {last}, {xn} has death {ended}")
    return out


def late_mother(a: Years, b: Years) -> str | None:
    """Why one record's children cannot be the other's woman's (she would bear them past
    `MAX_MOTHER_AGE`), or None. Not a conflict of lives (`life_conflicts`, which knows no
    sex): linking a woman's name to a record (`pipeline.promote`, `resolve.identity`) asks it,
    so that the Elizabeth Mercer born 1875 is not made the mother of a girl born 1929."""
    for x, y in ((a, b), (b, a)):
        born, kids = birth_estimate(x), y.get(CHILD_BIRTH, [])
        if born is not None and kids and max(kids) - born > MAX_MOTHER_AGE:
            return f"a child born in {max(kids)} to a woman born in {born}"
    return None
