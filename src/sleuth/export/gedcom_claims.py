"""Which claims go together in a GEDCOM export: one event per fact, one FAM per marriage.

A fact stated by several sources is one GEDCOM event with several citations; only claims
that differ are further events. Claims are grouped into statements first (a tree event's
DATE and PLAC both cite the event's line), a statement goes to the preferred event when
its date and place are the preferred ones, or say the same less precisely (1850 for 12 MAY
1850, Ohio for Springfield, Clark County, Ohio), or it says nothing of either; the rest form
one alternative event per distinct (date, place), ordered by date then place.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from sleuth.export.gedcom_lines import gedcom_date
from sleuth.extract.records.gedcom import FAMILY_EVENTS
from sleuth.model.records import Assertion, Person

_FAMILY_TAG = {kind: tag for tag, kind in FAMILY_EVENTS.items()}
_SPACES = re.compile(r"\s+")
Signature = tuple[str | None, str | None]


def is_date(a: Assertion) -> bool:
    return a.field_name.endswith("_date")


def date_key(a: Assertion) -> str:
    return gedcom_date(a.date) or a.value


def place_key(a: Assertion) -> str:
    return _SPACES.sub(" ", a.value).strip().casefold()


def signature(group: list[Assertion]) -> Signature:
    """(date, place) a statement gives, as written in the export."""
    dates = {date_key(a) for a in group if is_date(a)}
    places = {place_key(a) for a in group if not is_date(a)}
    return (min(dates) if dates else None), (min(places) if places else None)


def statements(items: list[Assertion]) -> list[list[Assertion]]:
    """Claims stated together: a tree event's DATE and PLAC share the event's line."""
    at: dict[tuple[str, int], int] = {}
    groups: list[list[Assertion]] = []
    for a in items:
        keys = [(c.snapshot_id, c.locator.line) for c in a.citations
                if c.locator.line is not None]
        i = next((at[k] for k in keys if k in at), None)
        if i is None or any(x.field_name == a.field_name for x in groups[i]):
            i = len(groups)
            groups.append([])
        groups[i].append(a)
        for k in keys:
            at.setdefault(k, i)
    return groups


def split_event(items: list[Assertion], best_date: Assertion | None,
                best_place: Assertion | None
                ) -> tuple[list[Assertion], list[list[Assertion]], Assertion | None, str | None]:
    """(claims of the preferred event, alternative events, the place to write, its key).

    The preferred date's statement fixes the event, so its place goes with it even when
    another place has more weight on its own.
    """
    groups = statements(items)
    anchor = best_date or best_place
    d0, p0 = next((signature(g) for g in groups if anchor in g), (None, None))
    if p0 is None and best_place is not None:
        p0 = place_key(best_place)
    if best_place is not None and place_key(best_place) != p0:
        best_place = next((a for g in groups for a in g
                           if not is_date(a) and place_key(a) == p0), None)
    main: list[Assertion] = []
    others: dict[Signature, list[Assertion]] = {}
    for group in groups:
        d, pl = signature(group)
        if (d in (None, d0) and pl in (None, p0)) or consistent(group, best_date, p0):
            main += group
        else:
            others.setdefault((d, pl), []).extend(group)
    order = sorted(others, key=lambda sig: (_when(others[sig]), sig[1] or ""))
    return main, [others[sig] for sig in order], best_place, p0


def _when(group: list[Assertion]) -> str:
    dated = [a.date for a in group if is_date(a) and a.date is not None]
    return min((str(d.earliest or d.latest or "") for d in dated), default="")


def consistent(group: list[Assertion], best_date: Assertion | None, p0: str | None) -> bool:
    """Whether a statement says the preferred event, if less precisely (1850 for 12 MAY
    1850, Boston for Boston, Suffolk, Massachusetts): then it is a citation of that event,
    not another one."""
    for a in group:
        if best_date is not None and date_key(a) == date_key(best_date) and is_date(a):
            continue
        if is_date(a):
            lo, hi = (a.date.earliest, a.date.latest) if a.date else (None, None)
            b = best_date.date if best_date is not None else None
            if b is None or lo is None or hi is None or b.earliest is None \
                    or b.latest is None or not lo <= b.earliest <= b.latest <= hi:
                return False
        else:
            place = place_key(a)
            if p0 is None or not (place == p0 or p0.startswith(place + ",")
                                  or p0.endswith(", " + place)):
                return False
    return True


def family_events(
    families: dict[frozenset[str], dict[str, list[str]]],
    people: dict[str, Person],
    claims: dict[str, list[Assertion]],
    fams_of: dict[str, list[frozenset[str]]],
) -> tuple[dict[frozenset[str], list[Assertion]], set[str]]:
    """Each couple's MARR, DIV, ... claims, matched to the right marriage, and the ids of
    all claims written under a FAM (so no INDI repeats them).

    A tree states a family event once and the importer gives it to both partners with the
    same excerpt, so a claim that both partners hold belongs to their family; someone with
    one spouse owns all theirs. If either partner is living, only the living partner's
    (censored) claims are used, so the other partner's copy cannot leak what the Censor
    hid. A tree's FAM with one partner only ("1 WIFE @I9@ / 1 MARR 1497") gets a
    one-partner family again (added to `families` and `fams_of`).
    """
    out: dict[frozenset[str], list[Assertion]] = {}
    in_family: set[str] = set()
    for key in list(families):
        if len(key) != 2:
            continue
        a, b = pair = sorted(key)  # the partners in id order: a set's order follows the hash seed
        living = [pid for pid in pair if people[pid].is_living]
        mine = {pid: [x for x in claims[pid]
                      if event_kind(x.field_name, _FAMILY_TAG) is not None]
                for pid in pair}
        if living:
            pid = living[0]
            chosen = mine[pid] if len(people[pid].spouses) == 1 else []
            for other in pair:
                in_family.update(x.id for x in mine[other])
        else:
            keys_b = {_claim_key(x) for x in mine[b]}
            chosen = [x for x in mine[a] if _claim_key(x) in keys_b]
            for pid in pair:  # a custom `_TAG` claim held by one partner is their own
                if len(people[pid].spouses) == 1:
                    have = {_claim_key(y) for y in chosen}
                    chosen += [x for x in mine[pid] if _claim_key(x) not in have
                               and not x.field_name.startswith("_")
                               and not _solo_family_line(x)]
            taken = {_claim_key(x) for x in chosen}
            for pid in pair:
                in_family.update(x.id for x in mine[pid] if _claim_key(x) in taken)
        out[key] = chosen
    for pid, items in claims.items():
        solo = [x for x in items if x.id not in in_family
                and event_kind(x.field_name, _FAMILY_TAG) is not None
                and _solo_family_line(x)]
        if solo and not people[pid].is_living:
            key = frozenset({pid})
            if key not in families:
                families[key] = {"children": []}
                fams_of[pid].append(key)
            out[key] = solo
            in_family.update(x.id for x in solo)
    return out, in_family


def event_kind(field: str, tags: dict[str, str]) -> str | None:
    """`emigration_date` -> `emigration` when that kind has a tag (or is a custom `_x`)."""
    if field == "residence" and "residence" in tags:
        return "residence"
    for suffix in ("_date", "_place"):
        if field.endswith(suffix):
            kind = field[: -len(suffix)]
            if kind in tags or (kind.startswith("_") and len(kind) > 1):
                return kind
    return None


_ONE_PARTNER_FAM = re.compile(r"0 @[^@]+@ FAM\r?\n?\r?1 (?:HUSB|WIFE) @[^@]+@\s+1 (?!HUSB|WIFE)")


def _solo_family_line(a: Assertion) -> bool:
    """Whether a family-event claim cites a GEDCOM FAM record that names one partner only."""
    return bool(_ONE_PARTNER_FAM.match(a.citations[0].excerpt))


def _claim_key(a: Assertion) -> tuple[str, str, str, int, int]:
    c = a.citations[0]
    return a.field_name, a.value, c.snapshot_id, c.locator.start, c.locator.end


def place_ages(ages: list[Assertion], best: Assertion | None, events: list[list[Assertion]],
               key: Callable[[Assertion], str]
               ) -> tuple[list[Assertion], list[list[Assertion]], list[list[Assertion]]]:
    """Which DEAT states which age at death: (the preferred event's ages, each alternative
    event's, the ages that need a DEAT of their own).

    Ages that say the same (`key`: as written) are one AGE with all their citations. The
    preferred age goes under the preferred DEAT; another goes under the first alternative
    DEAT stated by the same source, so a record's death and age stay together, else under
    a DEAT of its own, noted as an alternative like a differing date.
    """
    groups: dict[str, list[Assertion]] = {}
    for a in ages:
        groups.setdefault(key(a), []).append(a)
    first = key(best) if best is not None else None
    paired: list[list[Assertion]] = [[] for _ in events]
    alone: list[list[Assertion]] = []
    for k in sorted(k for k in groups if k != first):
        sources = {c.snapshot_id for a in groups[k] for c in a.citations}
        i = next((i for i, ev in enumerate(events) if not paired[i] and sources
                  & {c.snapshot_id for a in ev for c in a.citations}), None)
        if i is None:
            alone.append(groups[k])
        else:
            paired[i] = groups[k]
    return groups.get(first, []) if first is not None else [], paired, alone
