"""Whether the vital years two records give can belong to one life.

Used wherever two records are about to become one person (exact-name linking at promotion,
merges in entity resolution): a burial before a birth, a death more than `MAX_LIFESPAN`
years after it, two deaths years apart, or ages at death that put the birth years apart
are not one life.
Records give years as `{field: [year, ...]}` for birth, baptism, death, burial and age at
death; a record's own impossible values are an error in that record, not tested here.
"""

from __future__ import annotations

import re

MAX_LIFESPAN = 110  # years from birth to death or burial that one life can span
AGE_SLACK = 3  # years an age at death may be off from the birth it implies
DEATH_SLACK = 2  # years between a death and a burial (or two records of them) in one life
VITAL_FIELDS = ("birth_date", "baptism_date", "death_date", "burial_date", "age_at_death")
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


def _born(y: Years) -> int | None:
    return min(y.get("birth_date", []) + y.get("baptism_date", []), default=None)


def _ended(y: Years) -> int | None:
    return max(y.get("death_date", []) + y.get("burial_date", []), default=None)


def _implied_birth(y: Years) -> int | None:
    ages, ended = y.get("age_at_death", []), _ended(y)
    return ended - ages[0] if len(ages) == 1 and ended is not None else None


def life_conflicts(a: Years, b: Years) -> list[str]:
    """Why records with these years cannot be one person ([] when they can)."""
    out: list[str] = []
    ea, eb = _ended(a), _ended(b)
    if ea is not None and eb is not None and abs(ea - eb) > DEATH_SLACK:
        out.append(f"died or buried in {ea} and in {eb}: two deaths")
    ia, ib = _implied_birth(a), _implied_birth(b)
    if ia is not None and ib is not None and abs(ia - ib) > 2 * AGE_SLACK:
        out.append(f"ages at death put the births about {ia} and {ib}")
    for x, y, xn, yn in ((a, b, "one", "the other"), (b, a, "the other", "one")):
        born, ended = _born(x), _ended(y)
        if born is None or ended is None:
            continue
        if ended < born - 1 or ended - born > MAX_LIFESPAN:
            out.append(f"{yn} record's death or burial ({ended}) and {xn}'s birth ({born}) "
                       "are not one life")
        ages = y.get("age_at_death", [])
        if len(ages) == 1 and abs(ended - ages[0] - born) > AGE_SLACK:
            out.append(f"{yn} record has death aged {ages[0]} in {ended} (born about "
                       f"{ended - ages[0]}), {xn} has birth {born}")
    return out
