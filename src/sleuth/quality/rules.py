"""Data-quality rules: Gramps' "Verify the Data", plus WikiTree's and FamilySearch's checks.

Rule sets and where they come from:

* **Gramps** 6.0.8 `gramps/plugins/tool/verify.py` (rules 1-43, read in the installed
  6.0.8 package and github.com/gramps-project/gramps), with its default options: oldage 90,
  hwdif 30, cspace 8, cbspan 25, yngmar 17, oldmar 50, oldmom 48, yngmom 17, yngdad 18,
  olddad 65, wedder 3, mxchildmom 12, mxchilddad 15, oldunm 99, dead father 294 days, burial
  14 days after death, baptism 120 days later than the siblings' median. Not implemented:
  "events with role Unknown" (40, 41) and "marriage date but not married" (31): GEDCOM
  5.5.1 and a case have no event roles or family relationship types. Gramps' `lngwdw`
  (long widowhood, 30) is an option with no rule behind it in verify.py, so there is none
  here either. Gramps' "too many children" (12) can never fire in Gramps (it compares the
  method `get_gender` to an int); we implement what it means.
* **WikiTree** data validation, https://www.wikitree.com/wiki/Help:Data_Validation: dates
  must be interpretable and not in the future, names without digits or symbols, death more
  than 120 years after birth, child born before a parent was 6 (covered by FamilySearch's 12),
  child's death before a parent was 7, a parent who died before 12, mother over 67 and
  father over 100 at a child's birth; born more than a day after the mother's death and
  more than nine months after the father's are covered by Gramps' "dead mother/father"
  (0 and 294 days). Our stored copy of that page stops partway through its red-level list,
  so any later items are not implemented.
* **FamilySearch** Family Tree data problems, https://www.familysearch.org/en/help/
  helpcenter/article/what-are-all-the-possible-data-problems-in-family-tree: births before
  a parent was 12, after the mother turned 52, after a spouse's death, a child christened
  or dead before a parent's birth, "No Children" (NCHI 0) with children. The rest of its
  visible list (birth after a parent's death, born after married, child born before a
  parent) is covered by Gramps' stricter day-level rules. Our stored copy of that page is
  cut after "Christening before Father Could Have Children"; ordinance rules are out of
  scope anyway.

Uncertain dates. Every date is a range (`Span`). A rule's condition is tested twice: for
*every* value the ranges allow (then the finding has the rule's own severity, "error" or
"warning"), and for the central estimate, the midpoints of ranges written with both ends
(then "possible"). So "death before birth" is an error only when death.latest <
birth.earliest; "d. 1850, b. ABT 1851" is at most possible, and "BEF 1900" can prove things
through its one bound but never suggests them. The central estimates suggest nothing when
one of them lies inside the other date's written range: a death in "1537" and a burial on
12 Nov 1537 fit whatever the day of death, and the middle of 1537 is no estimate of it.

Record order. Four Gramps rules compare the order of a GEDCOM file's records (events of a
person, families, children, events of a family) with their dates. The order a program or a
person wrote them in says nothing about the facts, so these are notes, shown with
`--min-severity note`, never errors; a case has no record order and skips them.

Approximate dates are widened by five years for the certain test
(`tree.APPROX_MARGIN_DAYS`). Gramps instead ignores every date
without day and month (its default estimate_age=0) and compares single days, so it misses
what year-only dates prove and over-reads "ABT"; `benchmarks/quality.py` compares both.

A missing birth is bounded by the baptism ("born no later than baptised") and a missing
death by the burial, for the rules where that bound is sound.
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import date
from itertools import pairwise

from sleuth.quality.findings import Finding
from sleuth.quality.tree import Span, TFamily, TPerson, Tree

YEAR = 365.2425


@dataclass(frozen=True)
class Rule:
    id: str
    source: str  # gramps | wikitree | familysearch
    severity: str  # error | warning (what a certain breach is)
    title: str
    threshold: dict[str, float]


def _r(id: str, source: str, sev: str, title: str, **thr: float) -> Rule:
    return Rule(id, source, sev, title, dict(thr))


_G, _W, _F = "gramps", "wikitree", "familysearch"
RULES: dict[str, Rule] = {r.id: r for r in (
    _r("baptism_before_birth", _G, "error", "Baptism before birth"),
    _r("death_before_baptism", _G, "error", "Death before baptism"),
    _r("burial_before_birth", _G, "error", "Burial before birth"),
    _r("burial_before_death", _G, "error", "Burial before death"),
    _r("death_before_birth", _G, "error", "Death before birth"),
    _r("burial_before_baptism", _G, "error", "Burial before baptism"),
    _r("old_age_at_death", _G, "warning", "Old age at death", oldage=90),
    _r("unknown_gender", _G, "warning", "Unknown gender"),
    _r("multiple_parents", _G, "warning", "Multiple parents"),
    _r("married_often", _G, "warning", "Married often", wedder=3),
    _r("old_unmarried", _G, "warning", "Old and unmarried", oldunm=99),
    _r("too_many_children", _G, "warning", "Too many children", mxchilddad=15, mxchildmom=12),
    _r("same_sex_family", _G, "warning", "Same sex marriage"),
    _r("female_husband", _G, "warning", "Female husband"),
    _r("male_wife", _G, "warning", "Male wife"),
    _r("same_surname_family", _G, "warning", "Husband and wife with the same surname"),
    _r("large_spouse_age_gap", _G, "warning", "Large age difference between spouses",
       hwdif=30),
    _r("marriage_before_birth", _G, "error", "Marriage before birth"),
    _r("marriage_after_death", _G, "error", "Marriage after death"),
    _r("early_marriage", _G, "warning", "Early marriage", yngmar=17),
    _r("late_marriage", _G, "warning", "Late marriage", oldmar=50),
    _r("old_mother", _G, "warning", "Old mother", oldmom=48),
    _r("old_father", _G, "warning", "Old father", olddad=65),
    _r("young_mother", _G, "warning", "Young mother", yngmom=17),
    _r("young_father", _G, "warning", "Young father", yngdad=18),
    _r("unborn_mother", _G, "error", "Unborn mother"),
    _r("unborn_father", _G, "error", "Unborn father"),
    _r("dead_mother", _G, "error", "Dead mother", days=0),
    _r("dead_father", _G, "error", "Dead father", days=294),
    _r("large_children_span", _G, "warning", "Large year span for all children", cbspan=25),
    _r("large_children_gap", _G, "warning", "Large age differences between children",
       cspace=8),
    _r("disconnected", _G, "warning", "Disconnected individual"),
    _r("invalid_birth_date", _G, "error", "Invalid birth date"),
    _r("invalid_death_date", _G, "error", "Invalid death date"),
    _r("old_age_no_death", _G, "warning", "Old age but no death", oldage=90),
    _r("birth_equals_death", _G, "warning", "Birth date equals death date"),
    _r("birth_equals_marriage", _G, "error", "Birth date equals marriage date"),
    _r("death_equals_marriage", _G, "warning", "Death date equals marriage date"),
    _r("baptism_too_late", _G, "warning", "Baptism too late according to family tradition",
       days=120),
    _r("burial_too_late", _G, "warning", "Burial too late", days=14),
    _r("children_out_of_order", _G, "note", "Children are not in chronological order"),
    _r("families_out_of_order", _G, "note", "Families are not in chronological order"),
    _r("family_events_out_of_order", _G, "note",
       "Family events are not in chronological order"),
    _r("person_events_out_of_order", _G, "note",
       "Person events are not in chronological order"),
    _r("invalid_date", _W, "error", "Date cannot be interpreted"),
    _r("date_in_future", _W, "error", "Date in the future"),
    _r("name_invalid_characters", _W, "warning", "Name has digits or symbols"),
    _r("lifespan_over_120", _W, "error", "Death more than 120 years after birth", years=120),
    _r("child_death_before_parent_age_7", _W, "error",
       "Child's death before the parent was 7", years=7),
    _r("parent_died_before_12", _W, "error", "Parent died before age 12", years=12),
    _r("mother_over_67", _W, "error", "Child born after the mother was 67", years=67),
    _r("father_over_100", _W, "error", "Child born after the father was 100", years=100),
    _r("parent_under_12", _F, "error", "Birth before the parent could have children",
       years=12),
    _r("mother_over_52", _F, "warning", "Birth after the mother's child-bearing years",
       years=52),
    _r("born_after_spouse_death", _F, "error", "Born after the spouse's death"),
    _r("child_christened_before_parent_birth", _F, "error",
       "Child christened before the parent's birth"),
    _r("child_death_before_parent_birth", _F, "error", "Child died before the parent's birth"),
    _r("children_mismatch", _F, "error", "Children recorded, but also 'no children' (NCHI 0)"),
)}

# -- interval tests: "certain", "possible" or None -------------------------------------------


def _estimates(a: Span, b: Span) -> bool:
    """Both central estimates exist and say something: neither lies inside the other
    date's written range ("27 MAR 1819" inside "1819" tells nothing of their order)."""
    if a.mid is None or b.mid is None:
        return False
    return not (_inside(a.mid, b) or _inside(b.mid, a))


def _inside(day: float, s: Span) -> bool:
    lo, hi = s.written
    return lo is not None and hi is not None and lo <= day <= hi


def before(a: Span | None, b: Span | None) -> str | None:
    """a < b: for every value of both ranges, or for their central estimates."""
    if a is None or b is None:
        return None
    if a.hi is not None and b.lo is not None and a.hi < b.lo:
        return "certain"
    if _estimates(a, b) and a.mid < b.mid:  # type: ignore[operator]
        return "possible"
    return None


def gap_over(a: Span | None, b: Span | None, days: float) -> str | None:
    """b - a > days."""
    if a is None or b is None:
        return None
    if a.hi is not None and b.lo is not None and b.lo - a.hi > days:
        return "certain"
    if _estimates(a, b) and b.mid - a.mid > days:  # type: ignore[operator]
        return "possible"
    return None


def gap_under(a: Span | None, b: Span | None, days: float) -> str | None:
    """b - a < days."""
    if a is None or b is None:
        return None
    if a.lo is not None and b.hi is not None and b.hi - a.lo < days:
        return "certain"
    if _estimates(a, b) and b.mid - a.mid < days:  # type: ignore[operator]
        return "possible"
    return None


def _years(a: Span | None, b: Span | None) -> float | None:
    if a is None or b is None or a.mid is None or b.mid is None:
        return None
    return round((b.mid - a.mid) / YEAR, 1)


# -- the run ----------------------------------------------------------------------------------
# WikiTree refuses digits and symbols; "_" is left out: royal92-era files join regnal
# numbers with it ("George_III"), a convention rather than an error.
_FILE_ORDER_RULES = frozenset({"children_out_of_order", "families_out_of_order",
                               "person_events_out_of_order", "family_events_out_of_order"})
_SYMBOLS = re.compile(r"[0-9@#$%^&*+=<>{}\[\]|\\~!?;:\"]")


class _Run:
    def __init__(self, tree: Tree, today: date, mask_names: bool, only: set[str] | None):
        self.t = tree
        self.today = _today_span(today)
        self.mask = mask_names
        self.only = only
        self.out: list[Finding] = []

    # rendering -------------------------------------------------------------------------
    def name(self, pid: str) -> str:
        if self.mask and pid in self.t.living:
            return "[Living]"
        p = self.t.persons.get(pid)
        return p.name if p else pid

    def is_living(self, pid: str) -> bool:
        """A person the privacy rules treat as living, or a family with such a spouse."""
        if pid in self.t.living:
            return True
        fam = self.t.families.get(pid)
        return fam is not None and any(s in self.t.living for s in fam.spouses)

    def value(self, pid: str, span: Span) -> str:
        gd = span.gd
        if self.is_living(pid):
            lo, hi = gd.years()
            if lo is None or hi is None:
                return f"{'before' if lo is None else 'after'} {hi if lo is None else lo}"
            return str(lo) if lo == hi else f"{lo}/{hi}"
        return gd.original or gd.iso()

    def emit(
        self,
        rule_id: str,
        how: str | None,
        people: Iterable[str],
        dates: Iterable[tuple[str, str, Span | None]] = (),
        *,
        family: str | None = None,
        measured: dict[str, float] | None = None,
        note: str = "",
    ) -> bool:
        if how is None:
            return False
        rule = RULES[rule_id]
        if self.t.origin == "case" and rule_id in _FILE_ORDER_RULES:
            return False  # a case has no record order; only a file's order means anything
        if self.only is not None and rule.source not in self.only and rule.id not in self.only:
            return False
        people = tuple(dict.fromkeys(people))
        evidence = [
            {"person": pid, "field": fld, "value": self.value(pid, s)}
            for pid, fld, s in dates
            if s is not None
        ]
        parts = [f"{self.name(e['person'])} {e['field']} {e['value']}" for e in evidence]
        who = ", ".join(self.name(p) for p in people) if not parts else ""
        msg = rule.title + (": " + "; ".join(parts) if parts else f": {who}")
        if note:
            msg += f" ({note})"
        self.out.append(
            Finding(
                rule=rule.id,
                severity=rule.severity if how == "certain" else "possible",
                people=people,
                message=msg,
                source=rule.source,
                family=family,
                names={p: self.name(p) for p in people},
                evidence=evidence,
                threshold=dict(rule.threshold),
                measured=measured or {},
            )
        )
        return True

    def P(self, pid: str | None) -> TPerson | None:
        return self.t.persons.get(pid) if pid else None


def _today_span(today: date) -> Span:
    from sleuth.model.dates import GenDate

    return Span.of(GenDate.from_parts(today.year, today.month, today.day))  # type: ignore[return-value]


def check_tree(
    tree: Tree,
    *,
    today: date | None = None,
    mask_names: bool = False,
    only: Iterable[str] | None = None,
) -> list[Finding]:
    """Run every rule (or those whose id or source is in `only`) over the tree."""
    run = _Run(tree, today or date.today(), mask_names, set(only) if only else None)
    for p in tree.persons.values():
        for check in PERSON_CHECKS:
            check(run, p)
    for f in tree.families.values():
        for fcheck in FAMILY_CHECKS:
            fcheck(run, f)
    order = {"error": 0, "warning": 1, "possible": 2, "note": 3}
    run.out.sort(key=lambda x: (order.get(x.severity, 3), x.rule, x.people))
    return run.out


# -- person rules ---------------------------------------------------------------------------
def _order(run: _Run, p: TPerson) -> None:
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


def _ages(run: _Run, p: TPerson) -> None:
    pid = p.id
    b, d = p.birth_bound, p.death_bound
    dates = [(pid, "birth", b), (pid, "death", d)]
    m = {"age": a} if (a := _years(b, d)) is not None else {}
    run.emit("old_age_at_death", gap_over(b, d, 90 * YEAR), [pid], dates, measured=m)
    run.emit("lifespan_over_120", gap_over(b, d, 120 * YEAR), [pid], dates, measured=m)
    if not p.fams:
        run.emit("old_unmarried", gap_over(b, d, 99 * YEAR), [pid], dates, measured=m)
    if any(run.t.families[f].children for f in p.fams):
        run.emit("parent_died_before_12", gap_under(b, d, 12 * YEAR), [pid], dates, measured=m)
    if not p.has_death and p.burial is None and b is not None:
        now = _years(b, run.today)
        run.emit("old_age_no_death", gap_over(b, run.today, 90 * YEAR), [pid],
                 [(pid, "birth", b)], measured={"age_today": now} if now is not None else {})


def _structure(run: _Run, p: TPerson) -> None:
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


def _dates(run: _Run, p: TPerson) -> None:
    pid = p.id
    for label, text, why in p.invalid:
        rule = {"birth": "invalid_birth_date", "death": "invalid_death_date"}.get(
            label, "invalid_date")
        shown = text if not run.is_living(pid) else "[redacted]"
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


def _marriages(run: _Run, p: TPerson) -> None:
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


def _first_birth(run: _Run, fam: TFamily) -> Span | None:
    spans = [c.birth for c in (run.P(x) for x in fam.children) if c and c.birth]
    bounded = [s for s in spans if s.mid is not None]
    return min(bounded, key=lambda s: s.mid) if bounded else None  # type: ignore[arg-type,return-value]


def _baptism_tradition(run: _Run, p: TPerson) -> None:
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


PERSON_CHECKS: list[Callable[[_Run, TPerson], None]] = [
    _order, _ages, _structure, _dates, _marriages, _baptism_tradition,
]


# -- family rules ---------------------------------------------------------------------------
def _couple(run: _Run, f: TFamily) -> None:
    h, w = run.P(f.husband), run.P(f.wife)
    ids = [x.id for x in (h, w) if x]
    if h and w and h.sex == w.sex and w.sex != "U":
        run.emit("same_sex_family", "certain", ids, family=f.id)
    if h and h.sex == "F":
        run.emit("female_husband", "certain", [h.id], family=f.id)
    if w and w.sex == "M":
        run.emit("male_wife", "certain", [w.id], family=f.id)
    if h and w and h.surname and h.surname == w.surname:
        run.emit("same_surname_family", "certain", ids, family=f.id, note=h.surname)
    if h and w:
        hb, wb = h.birth_bound, w.birth_bound
        how = gap_over(hb, wb, 30 * YEAR) or gap_over(wb, hb, 30 * YEAR)
        gap = _years(hb, wb)
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
        shown = text if not run.is_living(f.id) else "[redacted]"
        run.emit("invalid_date", "certain", ids, family=f.id, note=f"{label} {shown!r}: {why}")
    exact = [(lbl, s) for lbl, s in f.events if s.exact is not None]
    for (_, s1), (_, s2) in pairwise(exact):
        if s2.exact < s1.exact:  # type: ignore[operator]
            run.emit("family_events_out_of_order", "certain", ids, family=f.id)
            break


def _marriage(run: _Run, f: TFamily) -> None:
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
        age = _years(b, m)
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


def _parents(run: _Run, f: TFamily) -> None:
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
                age = _years(par.birth_bound, c.birth_bound)
                run.emit(rule, best[0], [par.id, c.id],
                         [(par.id, "birth", par.birth_bound), (c.id, "birth", c.birth_bound)],
                         family=f.id, measured={"age": age} if age is not None else {})
        _parent_timing(run, role, par, kids, f)


def _parent_timing(run: _Run, role: str, p: TPerson, kids: list[TPerson], f: TFamily) -> None:
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
    run: _Run,
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


def _children(run: _Run, f: TFamily) -> None:
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
                 measured={"years": _years(first[1], last[1]) or 0.0})
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
                     measured={"years": _years(c1.birth, c2.birth) or 0.0})
    prev: TPerson | None = None
    for c in kids:
        if c.birth is None or not _is_birth_child(c, f.id):
            continue
        if prev is not None and before(c.birth, prev.birth) == "certain":
            run.emit("children_out_of_order", "certain", [prev.id, c.id],
                     [(prev.id, "birth", prev.birth), (c.id, "birth", c.birth)], family=f.id)
            break
        prev = c


FAMILY_CHECKS: list[Callable[[_Run, TFamily], None]] = [_couple, _marriage, _parents, _children]
