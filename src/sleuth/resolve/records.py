"""The comparison record: what resolution knows about one person, from a GEDCOM file or a case.

Resolution compares flat records, not graphs, so each person is reduced to names, sex, the
birth and death ranges (in fractional years: a `GenDate` range stays a range), places, the
names of close relatives (relationship consistency) and the ids of every ancestor (the hard
"never merge with your own ancestor" constraint). `RecordTable` is the column view the
comparators and blocking rules read; the benchmark builds one from FEBRL/RLdata tables too.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from sleuth.extract.dates import parse_date
from sleuth.extract.person_names import parse_name
from sleuth.gedcom.reader import Node, xref
from sleuth.gedcom.validate import read_gedcom_file
from sleuth.model import CaseGraph, GenDate
from sleuth.model.dates import DateQualifier
from sleuth.model.records import AssertionStatus
from sleuth.privacy.view import CensoredGraph

APPROX_YEARS = 2.0  # "abt 1850" may be a couple of years off, so its range widens by this
_APPROX = {DateQualifier.ABOUT, DateQualifier.ESTIMATED, DateQualifier.CALCULATED}
NAN = math.nan


def _year_frac(d: date, bce: bool) -> float:
    y = 1 - d.year if bce else d.year
    return y + (d.timetuple().tm_yday - 1) / 366.0


def year_range(gd: GenDate | None) -> tuple[float, float, bool]:
    """(lo, hi, precise_to_day) of a date in fractional years; NaN for an open end."""
    if gd is None:
        return NAN, NAN, False
    lo = _year_frac(gd.earliest, gd.earliest_bce) if gd.earliest else NAN
    hi = _year_frac(gd.latest, gd.latest_bce) + 1 / 366.0 if gd.latest else NAN
    if gd.qualifier in _APPROX:
        lo, hi = lo - APPROX_YEARS, hi + APPROX_YEARS
    elif gd.qualifier.value == "before" and not math.isnan(hi):
        lo = hi - 30.0  # "bef 1850" bounds one side; an open range would match anything
    elif gd.qualifier.value == "after" and not math.isnan(lo):
        hi = lo + 30.0
    return lo, hi, gd.is_point and gd.qualifier == DateQualifier.EXACT


def name_key(given: str, surname: str, numeral: str = "") -> str:
    """Relative-name key: first given name, surname and numeral, lower case letters only."""
    g = "".join(ch for ch in (given.split() or [""])[0].lower() if ch.isalpha())
    s = "".join(ch for ch in surname.lower() if ch.isalpha())
    return f"{g}|{s}|{numeral}" if g or s else ""


# -- names: numerals, suffixes, placeholders, designations -------------------------------------
_ROMAN = re.compile(r"^(?=[IVXL])(X[CL]|L?X{0,3})(I[XV]|V?I{0,3})$")
_ROMAN_VAL = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100}
_ORDINAL = re.compile(r"^(\d{1,2})(st|nd|rd|th)?$", re.IGNORECASE)
_SUFFIX = {"jr": "jr", "jnr": "jr", "junior": "jr", "sr": "sr", "snr": "sr", "senior": "sr",
           "younger": "jr", "elder": "sr"}
# Words a tree writes where the name is not known: they are no name at all, not a name.
PLACEHOLDERS = frozenset({
    "unknown", "unk", "unkn", "nn", "n.n", "nomen", "nescio", "son", "dau", "daughter",
    "child", "children", "infant", "baby", "stillborn", "living", "private", "anonymous",
    "five", "four", "three", "two", "twin", "twins", "boy", "girl", "male", "female", "mr",
    "mrs", "miss", "?", "_", "-",
    # titles: a title is not a name ("Fr Patrick", "Sir John", "Rev. Dr. Smith")
    "fr", "father", "rev", "revd", "reverend", "dr", "sir", "dame", "lord", "lady", "st",
    "saint", "sr.", "sister", "brother", "br", "capt", "captain", "col", "gen", "maj",
    "lt", "sgt", "hon", "prof", "prince", "princess", "king", "queen", "duke", "duchess",
    "count", "countess", "earl", "baron", "baroness", "esq",
})
_BRACKETS = re.compile(r"\([^)]*\)|\[[^\]]*\]|\"[^\"]*\"")


def _roman(tok: str) -> int:
    total, prev = 0, 0
    for ch in reversed(tok):
        v = _ROMAN_VAL[ch]
        total, prev = (total - v, prev) if v < prev else (total + v, v)
    return total


def split_name(given: str, surname: str = "", suffix: str = "") -> tuple[str, str, str, str]:
    """(given, surname, numeral, designation) of a name as a tree writes it.

    Regnal numbers and generational suffixes ("Henry_III", "George, Jr.", "/Garner/ Sr",
    "Dau._2") become the *numeral* — "3", "jr", "2" — which resolution compares on its own:
    Henry III is never Henry IV, nor Jr. his father. Placeholders ("Unknown", "Son",
    "Dau.") are dropped so that two unnamed people do not agree on a name. "of X" is the
    designation of royalty and nobility ("Isabella of_Portugal"); it stands for the surname
    when the tree gives none. Bracketed nicknames and remarks ("(twin)") are left out.
    """
    text = _BRACKETS.sub(" ", f"{given} {suffix}".replace("_", " ").replace(",", " "))
    words: list[str] = []
    nums: list[str] = []
    desig: list[str] = []
    toks = text.split()
    k = 0
    while k < len(toks):
        tok = toks[k]
        bare = tok.strip(".")
        low = bare.lower()
        if low == "of" and k + 1 < len(toks):
            k += 1
            while k < len(toks) and not _ROMAN.match(toks[k].strip(".")):
                desig.append(toks[k].strip("."))
                k += 1
            continue
        if (words or nums) and bare and _ROMAN.match(bare):
            nums.append(str(_roman(bare)))
        elif ordinal := _ORDINAL.match(bare):
            nums.append(str(int(ordinal.group(1))))
        elif low in _SUFFIX:
            nums.append(_SUFFIX[low])
        elif low and low not in PLACEHOLDERS:
            words.append(bare)
        k += 1
    sur = " ".join(surname.replace("_", " ").split())
    if sur.lower().strip(".") in PLACEHOLDERS:
        sur = ""
    designation = " ".join(desig)
    return " ".join(words), sur or designation, " ".join(nums), designation


@dataclass
class PersonRecord:
    """One person as resolution compares them."""

    id: str
    given: str = ""
    surname: str = ""
    alt_surnames: tuple[str, ...] = ()  # married names, other NAME lines, maiden names
    sex: str = "U"
    birth: GenDate | None = None
    death: GenDate | None = None
    birth_place: str = ""
    death_place: str = ""
    numeral: str = ""  # regnal number or generational suffix: "3", "jr" (see split_name)
    relatives: frozenset[str] = frozenset()  # name keys of parents, spouses, children
    parent_keys: frozenset[str] = frozenset()  # name keys, each kind on its own
    spouse_keys: frozenset[str] = frozenset()
    child_keys: frozenset[str] = frozenset()
    parents: tuple[str, ...] = ()  # ids
    spouses: tuple[str, ...] = ()  # ids
    children: tuple[str, ...] = ()  # ids
    ancestors: frozenset[str] = frozenset()  # ids, transitively
    is_living: bool = False
    line: int | None = None

    @property
    def display_name(self) -> str:
        return " ".join(x for x in (self.given, self.surname) if x)


@dataclass
class RecordTable:
    """Column view of records for vectorised comparison and blocking.

    `cols` maps a column name to one value per record (None or "" when missing; float
    columns use NaN). `source` is set when linking two files (pairs only across sources).
    `records` keeps the genealogical records when the table came from persons.
    """

    ids: list[str]
    cols: dict[str, list[Any]]
    source: list[int] | None = None
    records: list[PersonRecord] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.ids)

    def index(self) -> dict[str, int]:
        return {rid: i for i, rid in enumerate(self.ids)}


def table_from_records(records: Sequence[PersonRecord]) -> RecordTable:
    """The genealogical column set used by `features.genealogy_comparators`."""
    cols: dict[str, list[Any]] = {
        k: []
        for k in (
            "given", "given_all", "surname", "alt_surnames", "sex", "birth_lo", "birth_hi",
            "birth_day", "death_lo", "death_hi", "death_day", "birth_place", "death_place",
            "relatives", "numeral", "parent_keys", "spouse_keys", "child_keys",
        )
    }
    for r in records:
        parts = r.given.split()
        cols["given"].append(parts[0] if parts else "")
        cols["given_all"].append(r.given)
        cols["surname"].append(r.surname)
        cols["alt_surnames"].append(frozenset(s.lower() for s in r.alt_surnames if s))
        cols["sex"].append(r.sex if r.sex in ("M", "F") else "")
        for key, gd in (("birth", r.birth), ("death", r.death)):
            lo, hi, day = year_range(gd)
            cols[f"{key}_lo"].append(lo)
            cols[f"{key}_hi"].append(hi)
            cols[f"{key}_day"].append(day)
        cols["birth_place"].append(r.birth_place)
        cols["death_place"].append(r.death_place)
        cols["relatives"].append(r.relatives)
        cols["numeral"].append(r.numeral)
        cols["parent_keys"].append(r.parent_keys)
        cols["spouse_keys"].append(r.spouse_keys)
        cols["child_keys"].append(r.child_keys)
    return RecordTable([r.id for r in records], cols, None, list(records))


# -- GEDCOM -----------------------------------------------------------------------------------
def _event(rec: Node, tags: Iterable[str]) -> tuple[GenDate | None, str]:
    """Date and place of the first of `tags` that has a date (else the first with a place)."""
    found_place = ""
    for tag in tags:
        for node in rec.all(tag):
            d = (node.value_of("DATE") or "").strip()
            place = (node.value_of("PLAC") or "").strip()
            gd = parse_date(d) if d else None
            if gd is not None and (gd.earliest or gd.latest):
                return gd, place or found_place
            found_place = found_place or place
    return None, found_place


def records_from_gedcom(path: Path) -> list[PersonRecord]:
    """Every INDI of a GEDCOM file as a PersonRecord (xrefs without @ as ids)."""
    ged = read_gedcom_file(path)
    indis = {xref(r.xref): r for r in ged.records if r.tag == "INDI" and r.xref}
    fams = {xref(r.xref): r for r in ged.records if r.tag == "FAM" and r.xref}
    parents: dict[str, list[str]] = {}
    spouses: dict[str, list[str]] = {}
    children: dict[str, list[str]] = {}
    for fam in fams.values():
        sp = [xref(n.value) for n in fam.children if n.tag in ("HUSB", "WIFE") and n.pointer]
        kids = [xref(n.value) for n in fam.all("CHIL") if n.pointer]
        for k in kids:
            parents.setdefault(k, []).extend(p for p in sp if p != k)
        for p in sp:
            children.setdefault(p, []).extend(kids)
            spouses.setdefault(p, []).extend(q for q in sp if q != p)
    base: dict[str, PersonRecord] = {}
    for pid, rec in indis.items():
        names = rec.all("NAME")
        given, surname, numeral, alts = "", "", "", []
        for i, n in enumerate(names):
            parts = n.value.split("/")
            g = " ".join(parts[0].split())
            s = parts[1].strip() if len(parts) > 1 else ""
            sfx = " ".join(x for x in (*parts[2:], n.value_of("NSFX") or "") if x.strip())
            if len(parts) == 1 and g:  # "John Smith" without slashes
                pn = parse_name(g)
                g, s = " ".join(pn.given_normalised) or g, pn.surname or ""
                sfx = " ".join(x for x in (sfx, pn.suffix or "") if x)
            g, s, num, desig = split_name(g, s, sfx)
            if i == 0:
                given, surname, numeral = g, s, num
                if desig and desig != s:
                    alts.append(desig)
            elif s and s != surname:
                alts.append(s)
            for sub in ("_MARNM", "_AKA"):
                v = (n.value_of(sub) or "").strip()
                if v and v != surname:
                    alts.append(v.split("/")[1] if "/" in v else v)
        sex = (rec.value_of("SEX") or "").strip().upper()[:1]
        birth, bplace = _event(rec, ("BIRT", "CHR", "BAPM"))
        death, dplace = _event(rec, ("DEAT", "BURI"))
        base[pid] = PersonRecord(
            id=pid, given=given, surname=surname, alt_surnames=tuple(alts),
            numeral=numeral,
            sex=sex if sex in ("M", "F") else "U", birth=birth, death=death,
            birth_place=bplace, death_place=dplace,
            parents=tuple(p for p in parents.get(pid, []) if p in indis),
            spouses=tuple(p for p in spouses.get(pid, []) if p in indis),
            children=tuple(dict.fromkeys(p for p in children.get(pid, []) if p in indis)),
            line=rec.line,
        )
    _finish(base)
    return list(base.values())


def _finish(base: dict[str, PersonRecord]) -> None:
    """Fill relative name keys and transitive ancestors (iteratively: no recursion limit)."""
    keys = {pid: name_key(r.given, r.surname, r.numeral) for pid, r in base.items()}

    def named(ids: Iterable[str]) -> frozenset[str]:
        return frozenset(keys[x] for x in ids if keys.get(x))

    for r in base.values():
        r.parent_keys, r.spouse_keys = named(r.parents), named(r.spouses)
        r.child_keys = named(r.children)
        r.relatives = r.parent_keys | r.spouse_keys | r.child_keys
    anc: dict[str, frozenset[str]] = {}
    for start in base:
        if start in anc:
            continue
        stack = [start]
        visiting: set[str] = set()
        while stack:
            pid = stack[-1]
            pending = [p for p in base[pid].parents if p in base and p not in anc]
            pending = [p for p in pending if p not in visiting]
            if pending and pid not in visiting:
                visiting.add(pid)
                stack.extend(pending)
                continue
            stack.pop()
            acc: set[str] = set()
            for p in base[pid].parents:
                if p in base:
                    acc.add(p)
                    acc |= anc.get(p, frozenset())
            acc.discard(pid)  # a cyclic file must not make anyone their own ancestor
            anc[pid] = frozenset(acc)
    for pid, r in base.items():
        r.ancestors = anc.get(pid, frozenset())


# -- case ------------------------------------------------------------------------------------
def _best(graph: CaseGraph, pid: str, fields: tuple[str, ...], dated: bool) -> Any:
    best, found = None, None
    for a in graph.assertions.get(pid, []):
        if a.status == AssertionStatus.REJECTED or a.field_name not in fields:
            continue
        if dated and a.date is None:
            continue
        key = (-fields.index(a.field_name), a.confidence)
        if best is None or key > best:
            best, found = key, (a.date if dated else a.value)
    return found


def records_from_graph(graph: CensoredGraph) -> list[PersonRecord]:
    """PersonRecords from a (censored) CaseGraph: persons with their best vitals."""
    base: dict[str, PersonRecord] = {}
    for p in graph.persons:
        given, surname = p.given_name, p.surname
        if not given and not surname:
            pn = parse_name(p.canonical_name)
            given, surname = " ".join(pn.given_normalised), pn.surname or ""
            given = " ".join(x for x in (given, pn.suffix or "") if x)
        given, surname, numeral, _ = split_name(given, surname)
        base[p.id] = PersonRecord(
            id=p.id, given=given, surname=surname, numeral=numeral,
            alt_surnames=tuple(
                str(_best(graph, p.id, ("married_name", "maiden_name"), False) or "").split()[-1:]
            ),
            sex=p.sex,
            birth=p.birth or _best(graph, p.id, ("birth_date", "baptism_date",
                                                 "christening_date"), True),
            death=p.death or _best(graph, p.id, ("death_date", "burial_date"), True),
            birth_place=p.birth_place or str(_best(graph, p.id, ("birth_place",), False) or ""),
            death_place=p.death_place or str(_best(graph, p.id, ("death_place",), False) or ""),
            parents=tuple(sorted(p.parents)), spouses=tuple(sorted(p.spouses)),
            children=tuple(sorted(p.children)), is_living=bool(p.is_living),
        )
    for r in base.values():  # a wife is known by her husbands' surnames too ("Emma Edith
        if r.sex == "F":     # Whitfield", wife of Albert Garside, is "Emma Edith Garside")
            married = [base[s].surname for s in r.spouses if s in base and base[s].surname]
            r.alt_surnames = tuple(dict.fromkeys([*r.alt_surnames, *married]))
    _finish(base)
    return list(base.values())
