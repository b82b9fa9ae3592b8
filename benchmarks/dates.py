"""sleuth's date parser beside `dateparser.parse(s, languages=['en'])` on real date strings.

What it measures, per category (exact, partial, ABT/CAL/EST, BEF/AFT, BET/FROM-TO, dual,
calendars, invalid, free text, relative): accuracy of both parsers and the time per string.

Strings (all real, none invented):
* GEDCOM: every distinct DATE payload of `gedcom/samples/*.ged` (real trees) and the values of
  `gedcom/gedcom7code/{5,7}/date-all.ged` that the conformance scorer
  (`extraction_sets/gedcom_dates.py`) classes as valid.
* Free text: full dates ("January 24th, 1916", "Oct. 29, 1865", "22 May 1982") found in the
  1916 front pages (`text/chronam_1916_front_pages/pages`) and the Google-RE date-of-birth dev
  snippets; relative phrases ("yesterday", "last Friday", "3d inst.") in the 1916 pages, with
  the paper's date (from the file name) as reference for both parsers (dateparser gets it as
  RELATIVE_BASE).

Expected answers come from written rules, not from sleuth's parser:
* GEDCOM Gregorian forms `[ABT|CAL|EST|BEF|AFT] [[D] MON] YYYY[/YY]`, `BET x AND y`,
  `FROM x [TO y]`, `TO x` (case-insensitive): the written period is [first day, last day];
  ABT/CAL/EST keep it; BEF x ends at x's first day (open start), AFT x starts at x's last day
  (open end); BET/FROM-TO run from x's first to y's last day; a dual year YYYY/YY (naming the
  next year) spans both years. A day past the month's end, a dual year that does not name the
  next year, or a reversed range is expected to be refused; so is any other text ("SUBMITTED",
  "<unknown>", "9 NOV 1890 IF"). Values with a calendar keyword or BCE take their expected
  bounds from a hand-checked table (`CALENDARS`).
* Free text: month name + day + year is that day; month + year is the month. Relative: the
  reference date minus one day (yesterday), the same day (this morning), the most recent such
  weekday before it (last/on Friday), day N of the same/previous/next month (inst/ult/prox).

"Correct" means: the parser returns the expected (earliest, latest, qualifier), or refuses
when refusal is expected. dateparser returns a single datetime, so it can be right only where
the expectation is an exact day with no qualifier (and by returning None where refusal is
expected); `1850` -> today's month and day, `abt 1850` -> None count as wrong, as they are.
Timing, made fair on purpose:
* both parsers get exactly the same strings (and the same reference date for relative ones);
* ours is `parse_date_checked`, which has no result cache; `parse_date`'s lru_cache is cleared
  before every pass anyway, so no pass can reuse a previous pass's answers;
* one untimed warm-up pass per parser first (dateparser loads its language data lazily; ours
  fills the French Republican new-year table, ~6 ms per year, a real one-off cost);
* then the best of N timed passes per category (N = 5 for ours, 3 for dateparser, whose
  passes are ~100x longer), with a garbage collection before each pass: the machine is
  shared, and the minimum is the least disturbed estimate. For a steadier figure pin the
  process to one core: `taskset -c 0 .venv/bin/python benchmarks/dates.py`.
Reported: µs per string for each parser and the ratio of the two.
Run: `.venv/bin/python benchmarks/dates.py [DATA_ROOT]`.
"""

from __future__ import annotations

import calendar
import gc
import re
import sys
import time
from collections.abc import Callable
from datetime import date, datetime, timedelta
from pathlib import Path

_HERE = Path(__file__).resolve().parent
if str(_HERE) not in sys.path:
    sys.path.insert(0, str(_HERE))

from extraction_sets.gedcom_dates import cases  # noqa: E402
from sleuth.extract.dates import DateParse, _cached, parse_date_checked  # noqa: E402
from sleuth.model.dates import DateQualifier, GenDate  # noqa: E402

Q = DateQualifier
Expect = tuple[date | None, date | None, DateQualifier] | None

_MON = {m: i for i, m in enumerate(
    ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"], start=1)}
_EN_MON = {name.lower(): i for i, name in enumerate(calendar.month_name) if name}
_EN_MON.update({name.lower(): i for i, name in enumerate(calendar.month_abbr) if name})
_EN_MON["sept"] = 9
_GREG = r"(?:GREGORIAN )?(?:(\d{1,2}) )?(?:([A-Z]{3,9}) )?(\d{1,4})(?:/(\d{1,4}))?"
_RULES = [
    (re.compile(rf"(ABT|CAL|EST|BEF|AFT) {_GREG}"), "one"),
    (re.compile(rf"BET {_GREG} AND {_GREG}"), "two"),
    (re.compile(rf"FROM {_GREG} TO {_GREG}"), "two"),
    (re.compile(rf"(FROM|TO) {_GREG}"), "one"),
    (re.compile(_GREG), "bare"),
]
_YEARS = re.compile(r"(?:^| )(\d{1,4})(?:/\d{1,4})?(?= AND| TO|$)")
_QUAL = {"ABT": Q.ABOUT, "CAL": Q.CALCULATED, "EST": Q.ESTIMATED, "BEF": Q.BEFORE,
         "AFT": Q.AFTER, "FROM": Q.PERIOD, "TO": Q.PERIOD}

# Hand-checked Gregorian bounds of calendar values taken from the conformance files
# (verified against published conversion tables / convertdate).
CALENDARS: dict[str, Expect] = {
    # Julian runs 9 days behind Gregorian from March 1300 to February 1500.
    "JULIAN 1401": (date(1401, 1, 10), date(1402, 1, 9), Q.EXACT),
    "JULIAN OCT 1401": (date(1401, 10, 10), date(1401, 11, 9), Q.EXACT),
    "JULIAN 12 AUG 1401": (date(1401, 8, 21), date(1401, 8, 21), Q.EXACT),
    "GREGORIAN 12 AUG 1401": (date(1401, 8, 12), date(1401, 8, 12), Q.EXACT),
    "GREGORIAN 1601": (date(1601, 1, 1), date(1601, 12, 31), Q.EXACT),
    "FRENCH_R 27 THER 77": (date(1869, 8, 14), date(1869, 8, 14), Q.EXACT),
    # An XXXIII begins at the autumn equinox of 1824 (23 September in Paris).
    "FRENCH_R VEND 33": (date(1824, 9, 23), date(1824, 10, 22), Q.EXACT),
    "HEBREW CSH 46": None,  # 46 AM is before 1 CE: checked separately (BCE), not here
    "FROM GREGORIAN 730": (date(730, 1, 1), None, Q.PERIOD),
    "FROM GREGORIAN FEB 730": (date(730, 2, 1), None, Q.PERIOD),
    "@#DJULIAN@ 1 JAN 1700": (date(1700, 1, 11), date(1700, 1, 11), Q.EXACT),
    "@#DHEBREW@ 1 TSH 5000": (date(1239, 9, 8), date(1239, 9, 8), Q.EXACT),
    "@#DFRENCH R@ 1 VEND 1": (date(1792, 9, 22), date(1792, 9, 22), Q.EXACT),
}


def _period(d: str | None, mon: str | None, y: str, dual: str | None) -> tuple[date, date]:
    yy = int(y)
    y2 = yy
    if dual is not None:
        if (yy + 1) % 10 ** len(dual) != int(dual):
            raise ValueError("dual year does not name the next year")
        y2 = yy + 1
    if mon is None and d is not None:
        raise ValueError("day without month")
    m = (_MON.get(mon) or _EN_MON[mon.lower()]) if mon else None  # KeyError: unknown word
    lo = date(yy, m or 1, int(d) if d else 1)
    hi_m = m or 12
    hi = date(y2, hi_m, int(d) if d else calendar.monthrange(y2, hi_m)[1])
    if d and dual:
        date(y2, hi_m, int(d))
    return lo, hi


def expect_gedcom(value: str) -> Expect | str:
    """Expected (earliest, latest, qualifier), None for refusal, "skip" if out of the rules."""
    v = " ".join(value.upper().split())
    if v.startswith("INT ") and v.endswith(")") and "(" in v:
        v = v[4 : v.index("(")].strip()  # INT date (phrase): the date, qualifier as written
    if v in CALENDARS:
        return CALENDARS[v] if CALENDARS[v] is not None else "skip"
    if any(w in v for w in ("JULIAN", "HEBREW", "FRENCH", "@#D", "BCE", "B.C", "_", "ROMAN")):
        return "skip"
    for rx, kind in _RULES:
        m = rx.fullmatch(v)
        if not m:
            continue
        g = m.groups()
        years = _YEARS.findall(v)
        if "GREGORIAN" not in v and any(len(y) < 3 for y in years):
            return None  # a 1-2 digit number is a year only with an explicit calendar
        try:
            if kind == "bare":
                lo, hi = _period(*g)
                return lo, hi, Q.EXACT
            if kind == "one":
                lo, hi = _period(*g[1:])
                q = _QUAL[g[0]]
                if q is Q.BEFORE:
                    return None, lo, q
                if q is Q.AFTER:
                    return hi, None, q
                if g[0] == "FROM":
                    return lo, None, q
                if g[0] == "TO":
                    return None, hi, q
                return lo, hi, q
            lo, _ = _period(*g[:4])
            _, hi = _period(*g[4:])
        except (ValueError, KeyError):
            return None
        if lo > hi:
            return None
        return lo, hi, Q.BETWEEN if v.startswith("BET") else Q.PERIOD
    return None


def _category(value: str, exp: Expect) -> str:
    v = value.upper()
    if any(w in v for w in ("JULIAN", "HEBREW", "FRENCH", "@#D")) and "GREGORIAN" not in v:
        return "calendars"
    if exp is None:
        return "invalid"
    if re.search(r"\d/\d", v):
        return "dual"
    head = v.split()[0]
    if head in ("ABT", "CAL", "EST"):
        return "ABT/CAL/EST"
    if head in ("BEF", "AFT"):
        return "BEF/AFT"
    if head in ("BET", "FROM", "TO"):
        return "BET/FROM-TO"
    return "exact" if exp[0] == exp[1] else "partial"


_FULL = re.compile(
    r"\b(?:(?P<m1>jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec|january|february|march"
    r"|april|june|july|august|september|october|november|december)\.? (?P<d1>\d{1,2})"
    r"(?:st|nd|rd|th|d)?, (?P<y1>1[5-9]\d\d|20[0-2]\d)"
    r"|(?P<d2>\d{1,2})(?:st|nd|rd|th)? (?P<m2>january|february|march|april|may|june|july"
    r"|august|september|october|november|december),? (?P<y2>1[5-9]\d\d|20[0-2]\d))\b",
    re.I,
)
_REL = re.compile(
    r"\b(?:yesterday|this morning|(?:last|on) (?:monday|tuesday|wednesday|thursday|friday"
    r"|saturday|sunday)|\d{1,2}(?:st|nd|rd|th|d)? (?:inst|ult)\.)", re.I)
_WD = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]


def _expect_full(m: re.Match[str]) -> Expect:
    mon = _EN_MON[(m.group("m1") or m.group("m2")).lower()]
    try:
        d = date(int(m.group("y1") or m.group("y2")), mon, int(m.group("d1") or m.group("d2")))
    except ValueError:
        return None
    return d, d, Q.EXACT


def _expect_relative(s: str, ref: date) -> Expect:
    t = s.lower()
    if t == "yesterday":
        d = ref - timedelta(days=1)
    elif t == "this morning":
        d = ref
    elif t.split()[0] in ("last", "on"):
        back = (ref.weekday() - _WD.index(t.split()[1])) % 7 or 7
        d = ref - timedelta(days=back)
    else:
        n = int(re.match(r"\d+", t).group())  # type: ignore[union-attr]
        y, mo = ref.year, ref.month
        if "ult" in t:
            y, mo = (y - 1, 12) if mo == 1 else (y, mo - 1)
        try:
            d = date(y, mo, n)
        except ValueError:
            return None
    return d, d, Q.EXACT


Item = tuple[str, str, Expect, date | None]  # category, string, expectation, reference


def collect(root: Path, per_category: int = 300) -> list[Item]:
    items: list[Item] = []
    seen: set[str] = set()

    def add(cat: str, s: str, exp: Expect, ref: date | None = None) -> None:
        if (s, ref) not in seen:
            seen.add((s, ref))  # type: ignore[arg-type]
            items.append((cat, s, exp, ref))

    values = set()
    for f in sorted((root / "gedcom" / "samples").glob("*.ged")):
        for line in f.read_text(encoding="utf-8", errors="replace").splitlines():
            _, _, rest = line.strip().partition(" ")
            if rest.startswith("DATE "):
                values.add(rest[5:].strip())
    values |= {c.value for c in cases(root) if c.expect == "valid"}
    values |= set(CALENDARS)
    for v in sorted(values):
        exp = expect_gedcom(v)
        if exp != "skip":
            add(_category(v, exp), v, exp)  # type: ignore[arg-type]
    for f in sorted((root / "text" / "chronam_1916_front_pages" / "pages").glob("*.txt")):
        text = f.read_text(encoding="utf-8", errors="replace")
        ref = datetime.strptime(f.name[:8], "%Y%m%d").date()
        for m in _FULL.finditer(text):
            add("free text", m.group(), _expect_full(m))
        for m in _REL.finditer(text):
            add("relative", m.group(), _expect_relative(m.group(), ref), ref)
    gre = root / "text" / "google_re" / "google_re_date_of_birth.dev.jsonl"
    for m in _FULL.finditer(gre.read_text(encoding="utf-8")):
        add("free text", m.group(), _expect_full(m))
    # A fixed, spread sample per category keeps dateparser's run short.
    out: list[Item] = []
    for cat in dict.fromkeys(c for c, *_ in items):
        group = [it for it in items if it[0] == cat]
        step = max(1, len(group) // per_category)
        out += group[::step][:per_category]
    return out


def _ours(s: str, ref: date | None) -> GenDate | None:
    r = parse_date_checked(s, reference=GenDate.from_parts(ref.year, ref.month, ref.day)
                           if ref else None)
    return r.date if r.status == "ok" else None


def _right_ours(g: GenDate | None, exp: Expect) -> bool:
    if exp is None:
        return g is None
    return g is not None and (g.earliest, g.latest, g.qualifier) == exp


def _right_dp(d: datetime | None, exp: Expect) -> bool:
    if exp is None:
        return d is None
    lo, hi, q = exp
    return d is not None and q is Q.EXACT and lo == hi and d.date() == lo


def _run_ours(group: list[Item], refs: dict[date, GenDate]) -> tuple[float, list[DateParse]]:
    _cached.cache_clear()
    gc.collect()
    t0 = time.perf_counter()
    out = [parse_date_checked(s, reference=refs.get(ref)) if ref else parse_date_checked(s)
           for _, s, _, ref in group]
    return time.perf_counter() - t0, out


def _run_dp(group: list[Item], parse: Callable[..., datetime | None]
            ) -> tuple[float, list[datetime | None]]:
    gc.collect()
    t0 = time.perf_counter()
    out = [parse(s, languages=["en"], settings={"RELATIVE_BASE": datetime(
        ref.year, ref.month, ref.day)} if ref else None) for _, s, _, ref in group]
    return time.perf_counter() - t0, out


def compare(
    root: Path, per_category: int = 300, repeat: int = 5, repeat_dp: int = 3
) -> list[dict[str, object]]:
    """One row per category: n, accuracy of both parsers, µs per string, speed ratio."""
    import dateparser  # benchmark-only dependency

    items = collect(root, per_category)
    refs = {ref: GenDate.from_parts(ref.year, ref.month, ref.day) for *_, ref in items if ref}
    rows: list[dict[str, object]] = []
    cats = [*dict.fromkeys(c for c, *_ in items), "all"]
    _run_ours(items, refs)  # warm-up, untimed
    _run_dp(items, dateparser.parse)
    for cat in cats:
        group = [it for it in items if cat in ("all", it[0])]
        runs = [_run_ours(group, refs) for _ in range(repeat)]
        t_ours, ours = min(runs, key=lambda r: r[0])
        runs_dp = [_run_dp(group, dateparser.parse) for _ in range(repeat_dp)]
        t_dp, dps = min(runs_dp, key=lambda r: r[0])
        ok_ours = sum(_right_ours(r.date if r.status == "ok" else None, exp)
                      for r, (_, _, exp, _) in zip(ours, group, strict=True))
        ok_dp = sum(_right_dp(d, exp) for d, (_, _, exp, _) in zip(dps, group, strict=True))
        n = len(group)
        rows.append({
            "category": cat, "n": n, "ours_acc": ok_ours / n, "dateparser_acc": ok_dp / n,
            "ours_us": t_ours / n * 1e6, "dateparser_us": t_dp / n * 1e6,
            "speedup": t_dp / t_ours if t_ours else 0.0,
        })
    return rows


def main() -> None:
    root = Path(sys.argv[1]) if len(sys.argv) > 1 else _HERE.parents[1] / "shared" / "data"
    rows = compare(root)
    print(f"{'category':<14}{'n':>6}{'sleuth acc':>12}{'dateparser acc':>16}"
          f"{'sleuth µs':>11}{'dateparser µs':>15}{'speedup':>9}")
    for r in rows:
        print(f"{r['category']:<14}{r['n']:>6}{r['ours_acc']:>12.3f}{r['dateparser_acc']:>16.3f}"
              f"{r['ours_us']:>11.1f}{r['dateparser_us']:>15.1f}{r['speedup']:>8.0f}x")


if __name__ == "__main__":
    main()
