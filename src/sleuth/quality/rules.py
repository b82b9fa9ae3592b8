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

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date

from sleuth.model.dates import GenDate
from sleuth.privacy.redaction import LIVING_NAME
from sleuth.quality.findings import Finding
from sleuth.quality.tree import Span, TPerson, Tree

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


def years_between(a: Span | None, b: Span | None) -> float | None:
    """Years from the middle of `a` to the middle of `b` (None where either is unknown)."""
    if a is None or b is None or a.mid is None or b.mid is None:
        return None
    return round((b.mid - a.mid) / YEAR, 1)


# WikiTree refuses digits and symbols; "_" is left out: royal92-era files join regnal
# numbers with it ("George_III"), a convention rather than an error.
_FILE_ORDER_RULES = frozenset({"children_out_of_order", "families_out_of_order",
                               "person_events_out_of_order", "family_events_out_of_order"})


class CheckRun:
    """One run of the checks over a tree: its persons' spans and findings so far."""

    def __init__(self, tree: Tree, today: date, mask_names: bool, only: set[str] | None):
        self.t = tree
        self.today = _today_span(today)
        self.mask = mask_names
        self.only = only
        self.out: list[Finding] = []
        # whose each date is (by its span, one per event: a parsed GenDate may be shared by
        # all who wrote the same date): a finding about one person may show another's date
        # - a shared marriage, a child's birth - and it is shown as its owner allows
        self._owners: dict[int, list[str]] = {}
        for p in tree.persons.values():
            for sp in (p.birth, p.baptism, p.death, p.burial, *(e for _, e in p.events)):
                if sp is not None:
                    self._owners.setdefault(id(sp), []).append(p.id)
        for f in tree.families.values():
            for sp in (f.marriage, f.divorce, *(e for _, e in f.events)):
                if sp is not None:
                    self._owners.setdefault(id(sp), []).append(f.id)

    # rendering -------------------------------------------------------------------------
    def name(self, pid: str) -> str:
        if self.mask and pid in self.t.living:
            return LIVING_NAME
        p = self.t.persons.get(pid)
        return p.name if p else pid

    def is_living(self, pid: str) -> bool:
        """A person the privacy rules treat as living, or a family with such a spouse."""
        if pid in self.t.living:
            return True
        fam = self.t.families.get(pid)
        return fam is not None and any(s in self.t.living for s in fam.spouses)

    def value(self, pid: str, span: Span) -> str:
        """A date as the finding shows it: as written, or for someone the privacy rules
        treat as living (or a family of theirs) only its decade, as the Censor shows their
        dates everywhere else (issue 26: `check` on a file printed living people's years).
        A date is also shown so when it is a living person's or their family's, whoever
        the finding is about (a dead spouse's families in order, a parent's first child)."""
        gd = span.gd
        if self.is_living(pid) or any(map(self.is_living, self._owners.get(id(span), ()))):
            lo, hi = gd.years()
            if lo is None and hi is not None:
                return f"before {_decade(hi)}"
            if hi is None and lo is not None:
                return f"after {_decade(lo)}"
            if lo is None or hi is None:
                return "undated"
            return _decade(lo) if lo // 10 == hi // 10 else f"{_decade(lo)}/{_decade(hi)}"
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
    return Span.of(GenDate.from_parts(today.year, today.month, today.day))  # type: ignore[return-value]


def _decade(year: int) -> str:
    return f"{year // 10 * 10}s"
