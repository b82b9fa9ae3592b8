"""The data-quality checks of one person (`PERSON_CHECKS`): the order of their own events,
ages at events, structure (names, sex, duplicates), dates that cannot be read or lie in the
future, marriages and first births, baptism traditions. The rules are described, with their
sources, in `sleuth.quality.rules`."""


from __future__ import annotations

import re
import statistics
from collections.abc import Callable
from itertools import pairwise

from sleuth.privacy.redaction import REDACTED
from sleuth.quality.rules import YEAR, CheckRun, before, gap_over, gap_under, years_between
from sleuth.quality.tree import Span, TFamily, TPerson

_SYMBOLS = re.compile(r"[0-9@#$%^&*+=<>{}\[\]|\\~!?;:\"]")


def _order(run: CheckRun, p: TPerson) -> None:
    pid = p.id
    b, bp, d, bu = p.birth, p.baptism, p.death, p.burial
    pairs = [
        ("baptism_before_birth", "baptism", bp, "birth", b),
        ("death_before_baptism", "death", d, "baptism", bp),
        ("burial_before_birth", "burial", bu, "birth", b),
        ("burial_before_death", "burial", bu, "death", d),
        ("death_before_birth", "death", d, "birth", b),
        ("burial_before_baptism", "burial", bu, "baptism", bp),
    ]
    for rule, f1, s1, f2, s2 in pairs:
        run.emit(rule, before(s1, s2), [pid], [(pid, f1, s1), (pid, f2, s2)])
    if d and b and d.exact is not None and d.exact == b.exact:
        run.emit("birth_equals_death", "certain", [pid], [(pid, "birth", b), (pid, "death", d)])
    run.emit("burial_too_late", gap_over(d, bu, 14), [pid],
             [(pid, "death", d), (pid, "burial", bu)])


def _ages(run: CheckRun, p: TPerson) -> None:
    pid = p.id
    b, d = p.birth_bound, p.death_bound
    dates = [(pid, "birth", b), (pid, "death", d)]
    m = {"age": a} if (a := years_between(b, d)) is not None else {}
    run.emit("old_age_at_death", gap_over(b, d, 90 * YEAR), [pid], dates, measured=m)
    run.emit("lifespan_over_120", gap_over(b, d, 120 * YEAR), [pid], dates, measured=m)
    if not p.fams:
        run.emit("old_unmarried", gap_over(b, d, 99 * YEAR), [pid], dates, measured=m)
    if any(run.t.families[f].children for f in p.fams):
        run.emit("parent_died_before_12", gap_under(b, d, 12 * YEAR), [pid], dates, measured=m)
    if not p.has_death and p.burial is None and b is not None:
        now = years_between(b, run.today)
        run.emit("old_age_no_death", gap_over(b, run.today, 90 * YEAR), [pid],
                 [(pid, "birth", b)], measured={"age_today": now} if now is not None else {})


def _structure(run: CheckRun, p: TPerson) -> None:
    pid = p.id
    if p.sex == "U":
        run.emit("unknown_gender", "certain", [pid])
    if len(p.famc) > 1:
        run.emit("multiple_parents", "certain", [pid], note=f"{len(p.famc)} parent families")
    if len(p.fams) > 3:
        run.emit("married_often", "certain", [pid], note=f"{len(p.fams)} families")
    n = sum(len(run.t.families[f].children) for f in p.fams)
    limit = {"M": 15, "F": 12}.get(p.sex)
    if limit is not None and n > limit:
        run.emit("too_many_children", "certain", [pid], note=f"{n} children",
                 measured={"children": n})
    if not p.famc and not p.fams:
        run.emit("disconnected", "certain", [pid])
    if p.nchi == 0 and n:
        run.emit("children_mismatch", "certain", [pid], note=f"NCHI 0, {n} children")
    if p.name and _SYMBOLS.search(p.name):
        run.emit("name_invalid_characters", "certain", [pid], note=repr(p.name)
                 if pid not in run.t.living else "")


def _dates(run: CheckRun, p: TPerson) -> None:
    pid = p.id
    for label, text, why in p.invalid:
        rule = {"birth": "invalid_birth_date", "death": "invalid_death_date"}.get(
            label, "invalid_date")
        shown = text if not run.is_living(pid) else REDACTED
        run.emit(rule, "certain", [pid], note=f"{label} {shown!r}: {why}")
    for label, span in p.events:
        if span.lo is not None and span.lo > (run.today.hi or 0):
            run.emit("date_in_future", "certain", [pid], [(pid, label, span)])
    exact = [(lbl, s) for lbl, s in p.events if s.exact is not None]
    for (l1, s1), (l2, s2) in pairwise(exact):
        if s2.exact < s1.exact:  # type: ignore[operator]
            run.emit("person_events_out_of_order", "certain", [pid],
                     [(pid, l1, s1), (pid, l2, s2)])
            break


def _marriages(run: CheckRun, p: TPerson) -> None:
    pid = p.id
    fams = [run.t.families[f] for f in p.fams]
    for fam in fams:
        m = fam.marriage
        if m is None or m.exact is None:
            continue
        if p.birth and p.birth.exact == m.exact:
            run.emit("birth_equals_marriage", "certain", [pid],
                     [(pid, "birth", p.birth), (pid, "marriage", m)], family=fam.id)
        if p.death and p.death.exact == m.exact:
            run.emit("death_equals_marriage", "certain", [pid],
                     [(pid, "death", p.death), (pid, "marriage", m)], family=fam.id)
    prev: tuple[TFamily, Span] | None = None
    for fam in fams:
        key = fam.marriage or fam.divorce or _first_birth(run, fam)
        if key is None:
            continue
        if prev is not None and before(key, prev[1]) == "certain":
            run.emit("families_out_of_order", "certain", [pid],
                     [(pid, f"family {prev[0].id}", prev[1]), (pid, f"family {fam.id}", key)])
            break
        prev = (fam, key)


def _first_birth(run: CheckRun, fam: TFamily) -> Span | None:
    spans = [c.birth for c in (run.P(x) for x in fam.children) if c and c.birth]
    bounded = [s for s in spans if s.mid is not None]
    return min(bounded, key=lambda s: s.mid) if bounded else None  # type: ignore[arg-type,return-value]


def _baptism_tradition(run: CheckRun, p: TPerson) -> None:
    if len(p.famc) != 1 or p.birth is None or p.baptism is None:
        return
    fam = run.t.families[p.famc[0]]
    if len(fam.children) <= 1 or p.birth.exact is None or p.baptism.exact is None:
        return
    own = p.baptism.exact - p.birth.exact
    if own < 0:
        return
    others = []
    for cid in fam.children:
        c = run.P(cid)
        if cid == p.id or c is None or c.birth is None or c.baptism is None:
            continue
        cb, cp = c.birth.exact, c.baptism.exact
        if cb is not None and cp is not None and cp >= cb:
            others.append(cp - cb)
    if others and own > statistics.median(others) + 120:
        run.emit("baptism_too_late", "certain", [p.id],
                 [(p.id, "birth", p.birth), (p.id, "baptism", p.baptism)],
                 measured={"days": own, "siblings_median_days": statistics.median(others)})


PERSON_CHECKS: list[Callable[[CheckRun, TPerson], None]] = [
    _order, _ages, _structure, _dates, _marriages, _baptism_tradition,
]
