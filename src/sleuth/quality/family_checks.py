"""The data-quality checks of one family (`FAMILY_CHECKS`): the couple's ages and their
marriage, each parent's age and life at a child's birth, and the children's spacing and
number. The rules are described, with their sources, in `sleuth.quality.rules`."""


from __future__ import annotations

from collections.abc import Callable
from itertools import pairwise

from sleuth.privacy.redaction import REDACTED
from sleuth.quality.rules import YEAR, CheckRun, before, gap_over, gap_under, years_between
from sleuth.quality.tree import Span, TFamily, TPerson


def _same_birth_surname(h: TPerson, w: TPerson) -> str:
    """The surname both were born with, "" if none: a wife known under her husband's
    surname (Sarah Golden née Giles, a NAME of TYPE married) is no match."""
    hers = {y.casefold() for y in w.birth_surnames}
    return min((x for x in h.birth_surnames if x.casefold() in hers), default="")


def _couple(run: CheckRun, f: TFamily) -> None:
    h, w = run.P(f.husband), run.P(f.wife)
    ids = [x.id for x in (h, w) if x]
    if h and w and h.sex == w.sex and w.sex != "U":
        run.emit("same_sex_family", "certain", ids, family=f.id)
    if h and h.sex == "F":
        run.emit("female_husband", "certain", [h.id], family=f.id)
    if w and w.sex == "M":
        run.emit("male_wife", "certain", [w.id], family=f.id)
    if h and w and (same := _same_birth_surname(h, w)):
        run.emit("same_surname_family", "certain", ids, family=f.id, note=same)
    if h and w:
        hb, wb = h.birth_bound, w.birth_bound
        how = gap_over(hb, wb, 30 * YEAR) or gap_over(wb, hb, 30 * YEAR)
        gap = years_between(hb, wb)
        run.emit("large_spouse_age_gap", how, ids, [(h.id, "birth", hb), (w.id, "birth", wb)],
                 family=f.id, measured={"years": abs(gap)} if gap is not None else {})
        run.emit("born_after_spouse_death", before(h.death_bound, w.birth), ids,
                 [(h.id, "death", h.death_bound), (w.id, "birth", w.birth)], family=f.id)
        run.emit("born_after_spouse_death", before(w.death_bound, h.birth), ids,
                 [(w.id, "death", w.death_bound), (h.id, "birth", h.birth)], family=f.id)
    if f.nchi == 0 and f.children:
        run.emit("children_mismatch", "certain", ids or f.children[:1], family=f.id,
                 note=f"NCHI 0, {len(f.children)} children")
    for label, text, why in f.invalid:
        shown = text if not run.is_living(f.id) else REDACTED
        run.emit("invalid_date", "certain", ids, family=f.id, note=f"{label} {shown!r}: {why}")
    exact = [(lbl, s) for lbl, s in f.events if s.exact is not None]
    for (_, s1), (_, s2) in pairwise(exact):
        if s2.exact < s1.exact:  # type: ignore[operator]
            run.emit("family_events_out_of_order", "certain", ids, family=f.id)
            break


def _marriage(run: CheckRun, f: TFamily) -> None:
    m = f.marriage
    if m is None:
        return
    for sp in (run.P(f.husband), run.P(f.wife)):
        if sp is None:
            continue
        pid = sp.id
        mdates = [(pid, "birth", sp.birth), (f.id, "marriage", m)]
        if run.emit("marriage_before_birth", before(m, sp.birth), [pid], mdates, family=f.id):
            continue
        b = sp.birth_bound
        age = years_between(b, m)
        meas = {"age": age} if age is not None else {}
        if before(m, b) is None:
            run.emit("early_marriage", gap_under(b, m, 17 * YEAR), [pid],
                     [(pid, "birth", b), (f.id, "marriage", m)], family=f.id, measured=meas)
        run.emit("late_marriage", gap_over(b, m, 50 * YEAR), [pid],
                 [(pid, "birth", b), (f.id, "marriage", m)], family=f.id, measured=meas)
        d = sp.death_bound
        run.emit("marriage_after_death", before(d, m), [pid],
                 [(pid, "death", d), (f.id, "marriage", m)], family=f.id)


_PARENT_AGE: list[tuple[str, str, str, float]] = [
    # (rule, role, test, years)
    ("old_mother", "wife", "over", 48), ("old_father", "husband", "over", 65),
    ("young_mother", "wife", "under", 17), ("young_father", "husband", "under", 18),
    ("mother_over_67", "wife", "over", 67), ("father_over_100", "husband", "over", 100),
    ("mother_over_52", "wife", "over", 52),
    ("parent_under_12", "wife", "under", 12), ("parent_under_12", "husband", "under", 12),
]


def _is_birth_child(c: TPerson, fid: str) -> bool:
    return c.pedi.get(fid, "birth") in ("birth", "")


def _parents(run: CheckRun, f: TFamily) -> None:
    kids = [c for c in (run.P(x) for x in f.children) if c is not None]
    if not kids:
        return
    for role in ("husband", "wife"):
        par = run.P(getattr(f, role))
        if par is None:
            continue
        pb = par.birth
        for rule, r_role, test, years in _PARENT_AGE:
            if r_role != role:
                continue
            best: tuple[str, TPerson] | None = None
            for c in kids:
                if test == "over":
                    how = gap_over(par.birth_bound, c.birth, years * YEAR)
                else:
                    how = gap_under(pb, c.birth_bound, years * YEAR)
                if how and (best is None or (how == "certain" and best[0] != "certain")):
                    best = (how, c)
            if best is not None:
                c = best[1]
                age = years_between(par.birth_bound, c.birth_bound)
                run.emit(rule, best[0], [par.id, c.id],
                         [(par.id, "birth", par.birth_bound), (c.id, "birth", c.birth_bound)],
                         family=f.id, measured={"age": age} if age is not None else {})
        _parent_timing(run, role, par, kids, f)


def _parent_timing(run: CheckRun, role: str, p: TPerson, kids: list[TPerson], f: TFamily) -> None:
    """A child born before its parent, after its parent's death, and the like."""
    unborn = "unborn_father" if role == "husband" else "unborn_mother"
    _worst(run, unborn, p, kids, f, lambda c: before(c.birth_bound, p.birth),
           lambda c: [(p.id, "birth", p.birth), (c.id, "birth", c.birth_bound)])
    dead = "dead_father" if role == "husband" else "dead_mother"
    days = 294 if role == "husband" else 0
    _worst(run, dead, p,
           [c for c in kids if _is_birth_child(c, f.id)], f,
           lambda c: gap_over(p.death_bound, c.birth, days),
           lambda c: [(p.id, "death", p.death_bound), (c.id, "birth", c.birth)])
    _worst(run, "child_death_before_parent_age_7", p, kids, f,
           lambda c: gap_under(p.birth, c.death_bound, 7 * YEAR),
           lambda c: [(p.id, "birth", p.birth), (c.id, "death", c.death_bound)])
    _worst(run, "child_christened_before_parent_birth", p, kids, f,
           lambda c: before(c.baptism, p.birth),
           lambda c: [(p.id, "birth", p.birth), (c.id, "baptism", c.baptism)])
    _worst(run, "child_death_before_parent_birth", p, kids, f,
           lambda c: before(c.death_bound, p.birth),
           lambda c: [(p.id, "birth", p.birth), (c.id, "death", c.death_bound)])


def _worst(
    run: CheckRun,
    rule: str,
    par: TPerson,
    kids: list[TPerson],
    f: TFamily,
    test: Callable[[TPerson], str | None],
    dates: Callable[[TPerson], list[tuple[str, str, Span | None]]],
) -> None:
    """One finding per parent and rule: the first certain breach, else the first possible."""
    best: tuple[str, TPerson] | None = None
    for c in kids:
        how = test(c)
        if how == "certain":
            best = (how, c)
            break
        if how and best is None:
            best = (how, c)
    if best is not None:
        run.emit(rule, best[0], [par.id, best[1].id], dates(best[1]), family=f.id)


def _children(run: CheckRun, f: TFamily) -> None:
    kids = [c for c in (run.P(x) for x in f.children) if c is not None]
    births = [(c, c.birth) for c in kids if c.birth is not None and c.birth.mid is not None]
    if len(births) >= 2:
        los = [s.lo for _, s in births if s.lo is not None]
        his = [s.hi for _, s in births if s.hi is not None]
        mids = [s.mid for _, s in births]
        if los and his and max(los) - min(his) > 25 * YEAR:
            how: str | None = "certain"
        elif max(mids) - min(mids) > 25 * YEAR:  # type: ignore[type-var,operator]
            how = "possible"
        else:
            how = None
        first = min(births, key=lambda cb: cb[1].mid)  # type: ignore[arg-type,return-value]
        last = max(births, key=lambda cb: cb[1].mid)  # type: ignore[arg-type,return-value]
        run.emit("large_children_span", how, [first[0].id, last[0].id],
                 [(first[0].id, "birth", first[1]), (last[0].id, "birth", last[1])], family=f.id,
                 measured={"years": years_between(first[1], last[1]) or 0.0})
        ordered = sorted(births, key=lambda cb: cb[1].mid)  # type: ignore[arg-type,return-value]
        found: tuple[str, TPerson, TPerson] | None = None
        for (c1, s1), (c2, s2) in pairwise(ordered):
            h = gap_over(s1, s2, 8 * YEAR)
            if h == "certain" or (h and found is None):
                found = (h, c1, c2)
                if h == "certain":
                    break
        if found:
            h, c1, c2 = found
            run.emit("large_children_gap", h, [c1.id, c2.id],
                     [(c1.id, "birth", c1.birth), (c2.id, "birth", c2.birth)], family=f.id,
                     measured={"years": years_between(c1.birth, c2.birth) or 0.0})
    prev: TPerson | None = None
    for c in kids:
        if c.birth is None or not _is_birth_child(c, f.id):
            continue
        if prev is not None and before(c.birth, prev.birth) == "certain":
            run.emit("children_out_of_order", "certain", [prev.id, c.id],
                     [(prev.id, "birth", prev.birth), (c.id, "birth", c.birth)], family=f.id)
            break
        prev = c


FAMILY_CHECKS: list[Callable[[CheckRun, TFamily], None]] = [_couple, _marriage, _parents, _children]
