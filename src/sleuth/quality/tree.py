"""A light tree for the data-quality rules: persons, families and their dated events.

The rules need names, sex, a handful of dated events and the family links, nothing more, so
a GEDCOM file is read straight into this model (royal92's 3,010 people in well under a
second) instead of being imported into a store. A case is read from its (censored)
`CaseGraph`, where families do not exist as records and are rebuilt from parent and spouse
links.

Dates stay `GenDate` ranges; `Span` turns one into the integers the rules compare:
`lo`/`hi` bound every value the date may take (None = open end) and `mid` is the central
estimate (None unless both ends are written). Approximate dates ("ABT", "EST", "CAL") are
widened by `APPROX_MARGIN_DAYS` on each side for the certain bounds only: "abt 1850" is a
guess at 1850, not a proof that the day lies in 1850.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from sleuth.extract.dates import parse_date
from sleuth.gedcom.reader import Gedcom, Node, xref
from sleuth.gedcom.validate import read_gedcom_file
from sleuth.model.dates import DateQualifier, GenDate
from sleuth.model.graph import CaseGraph
from sleuth.model.records import AssertionStatus, Person
from sleuth.privacy.view import CensoredGraph

APPROX_MARGIN_DAYS = 5 * 365  # our choice: "abt" may be off by a few years, not decades
_APPROX = {DateQualifier.ABOUT, DateQualifier.ESTIMATED, DateQualifier.CALCULATED}
_YEAR_DAYS = 365.2425


def _ordinal(d: date, bce: bool) -> int:
    if not bce:
        return d.toordinal()
    # astronomical year 1 - d.year; day of year kept (approximate, enough for rules)
    return int((1 - d.year - 1) * _YEAR_DAYS) + d.timetuple().tm_yday


@dataclass(frozen=True)
class Span:
    """A date as integers: certain bounds `lo`/`hi` (days, None = open) and centre `mid`."""

    lo: int | None
    hi: int | None
    mid: float | None
    exact: int | None  # the day, when the date is an exact single day (Gramps' "exact")
    gd: GenDate

    @property
    def written(self) -> tuple[int | None, int | None]:
        """The range as written, before the margin of an approximate date."""
        if self.gd.qualifier not in _APPROX:
            return self.lo, self.hi
        return (self.lo + APPROX_MARGIN_DAYS if self.lo is not None else None,
                self.hi - APPROX_MARGIN_DAYS if self.hi is not None else None)

    @classmethod
    def of(cls, gd: GenDate | None) -> Span | None:
        if gd is None or (gd.earliest is None and gd.latest is None):
            return None
        lo = _ordinal(gd.earliest, gd.earliest_bce) if gd.earliest else None
        hi = _ordinal(gd.latest, gd.latest_bce) if gd.latest else None
        mid = (lo + hi) / 2 if lo is not None and hi is not None else None
        exact = lo if lo is not None and lo == hi and gd.qualifier == DateQualifier.EXACT else None
        if gd.qualifier in _APPROX:
            lo = lo - APPROX_MARGIN_DAYS if lo is not None else None
            hi = hi + APPROX_MARGIN_DAYS if hi is not None else None
        return cls(lo, hi, mid, exact, gd)


@dataclass
class TPerson:
    id: str
    name: str = ""
    surname: str = ""
    # surnames known to be birth surnames ("Giles" for Sarah Golden née Giles): a NAME of
    # TYPE birth or maiden, a birth-surname claim, else the surname unless it is a married one
    birth_surnames: frozenset[str] = frozenset()
    sex: str = "U"
    birth: Span | None = None
    baptism: Span | None = None  # BAPM, else CHR (as Gramps does)
    death: Span | None = None
    burial: Span | None = None
    has_death: bool = False  # a death event, dated or not ("1 DEAT Y")
    famc: list[str] = field(default_factory=list)  # parent families, in file order
    fams: list[str] = field(default_factory=list)  # own families, in file order
    pedi: dict[str, str] = field(default_factory=dict)  # famc id -> pedigree (birth, adopted…)
    nchi: int | None = None
    invalid: list[tuple[str, str, str]] = field(default_factory=list)  # (event, text, why)
    events: list[tuple[str, Span]] = field(default_factory=list)  # dated events, file order
    line: int | None = None

    @property
    def birth_bound(self) -> Span | None:
        """Birth, or when missing "no later than the baptism" (a sound, open-ended bound)."""
        if self.birth is not None or self.baptism is None:
            return self.birth
        b = self.baptism
        return Span(None, b.hi, None, None, b.gd)

    @property
    def death_bound(self) -> Span | None:
        """Death, or when missing "no later than the burial"."""
        if self.death is not None or self.burial is None:
            return self.death
        b = self.burial
        return Span(None, b.hi, None, None, b.gd)


@dataclass
class TFamily:
    id: str
    husband: str | None = None
    wife: str | None = None
    children: list[str] = field(default_factory=list)
    marriage: Span | None = None
    divorce: Span | None = None
    nchi: int | None = None
    events: list[tuple[str, Span]] = field(default_factory=list)
    invalid: list[tuple[str, str, str]] = field(default_factory=list)
    line: int | None = None

    @property
    def spouses(self) -> list[str]:
        return [p for p in (self.husband, self.wife) if p]


@dataclass
class Tree:
    persons: dict[str, TPerson]
    families: dict[str, TFamily]
    origin: str  # "gedcom" or "case"
    label: str = ""
    living: set[str] = field(default_factory=set)


# -- GEDCOM -----------------------------------------------------------------------------------
_PERSON_EVENTS = {"BIRT": "birth", "BAPM": "baptism", "CHR": "christening", "DEAT": "death",
                  "BURI": "burial"}
# Dated structures Gramps imports as events (CHAN, a record's change date, is not one).
_OTHER_EVENTS = frozenset(
    {
        "CREM", "ADOP", "BARM", "BASM", "BLES", "CHRA", "CONF", "FCOM", "ORDN", "NATU", "EMIG",
        "IMMI", "CENS", "PROB", "WILL", "GRAD", "RETI", "EVEN", "OCCU", "RESI", "EDUC", "RELI",
        "TITL", "PROP", "NATI", "ANUL", "DIVF", "ENGA", "MARB", "MARC", "MARL", "MARS",
    }
)


def _date_of(node: Node, owner: TPerson | TFamily, label: str) -> Span | None:
    d = node.first("DATE")
    if d is None or not d.value.strip():
        return None
    gd = parse_date(d.value)
    if gd is None:
        owner.invalid.append((label, d.value.strip(), "not a date we can bound"))
        return None
    span = Span.of(gd)
    if span is not None:
        owner.events.append((label, span))
    return span


def tree_from_gedcom(path: Path, ged: Gedcom | None = None) -> Tree:
    """Read a GEDCOM file into a Tree (xrefs without @ as ids), or the tree `ged` already
    read from it. Raises InputError, for a file the strict default refuses too."""
    if ged is None:
        ged = read_gedcom_file(path)
    persons: dict[str, TPerson] = {}
    families: dict[str, TFamily] = {}
    for rec in ged.records:
        if rec.tag == "INDI" and rec.xref:
            persons[xref(rec.xref)] = _person(rec)
        elif rec.tag == "FAM" and rec.xref:
            families[xref(rec.xref)] = _family(rec)
    # FAM records are the authority on membership; INDI FAMC/FAMS give the order.
    for fid, fam in families.items():
        for pid in fam.spouses:
            if pid in persons and fid not in persons[pid].fams:
                persons[pid].fams.append(fid)
        for pid in fam.children:
            if pid in persons and fid not in persons[pid].famc:
                persons[pid].famc.append(fid)
    for p in persons.values():
        p.famc = [f for f in p.famc if f in families]
        p.fams = [f for f in p.fams if f in families]
    return Tree(persons, families, "gedcom", label=path.name)


def _person(rec: Node) -> TPerson:
    p = TPerson(xref(rec.xref or ""), line=rec.line)
    name = rec.first("NAME")
    if name is not None:
        parts = name.value.split("/")
        p.surname = parts[1].strip() if len(parts) > 1 else ""
        p.name = " ".join(" ".join(s.strip() for s in parts if s.strip()).split())
        p.birth_surnames = _birth_surnames(rec.all("NAME"))
    sex = (rec.value_of("SEX") or "").strip().upper()[:1]
    p.sex = sex if sex in ("M", "F") else "U"
    christening: Span | None = None
    for node in rec.children:
        tag = node.tag
        if tag in _PERSON_EVENTS:
            label = _PERSON_EVENTS[tag]
            span = _date_of(node, p, label)
            if tag == "BIRT" and p.birth is None:
                p.birth = span
            elif tag == "BAPM" and p.baptism is None:
                p.baptism = span
            elif tag == "CHR" and christening is None:
                christening = span
            elif tag == "DEAT":
                p.has_death = True
                p.death = p.death or span
            elif tag == "BURI" and p.burial is None:
                p.burial = span
        elif tag == "FAMC" and node.pointer:
            fid = xref(node.value)
            p.famc.append(fid)
            pedi = (node.value_of("PEDI") or "birth").strip().lower()
            p.pedi[fid] = pedi
        elif tag == "FAMS" and node.pointer:
            p.fams.append(xref(node.value))
        elif tag == "NCHI":
            p.nchi = _int(node.value)
        elif tag in _OTHER_EVENTS:
            _date_of(node, p, tag.lower())
    if p.baptism is None:
        p.baptism = christening
    return p


def _birth_surnames(names: list[Node]) -> frozenset[str]:
    """The surnames of NAMEs of TYPE birth or maiden; else the first NAME's, unless it is of
    TYPE married (then none is known)."""
    def surname(n: Node) -> str:
        parts = n.value.split("/")
        return parts[1].strip() if len(parts) > 1 else ""

    def kind(n: Node) -> str:
        return (n.value_of("TYPE") or "").strip().casefold()

    born = {surname(n) for n in names if kind(n) in ("birth", "maiden")} - {""}
    if born or not names or kind(names[0]) == "married":
        return frozenset(born)
    return frozenset({surname(names[0])} - {""})


def _family(rec: Node) -> TFamily:
    f = TFamily(xref(rec.xref or ""), line=rec.line)
    for node in rec.children:
        tag = node.tag
        if tag == "HUSB" and node.pointer and f.husband is None:
            f.husband = xref(node.value)
        elif tag == "WIFE" and node.pointer and f.wife is None:
            f.wife = xref(node.value)
        elif tag == "CHIL" and node.pointer:
            f.children.append(xref(node.value))
        elif tag == "MARR":
            span = _date_of(node, f, "marriage")
            f.marriage = f.marriage or span
        elif tag == "DIV":
            span = _date_of(node, f, "divorce")
            f.divorce = f.divorce or span
        elif tag == "NCHI":
            f.nchi = _int(node.value)
        elif tag in _OTHER_EVENTS:
            _date_of(node, f, tag.lower())
    return f


def _int(value: str) -> int | None:
    v = value.strip()
    return int(v) if v.isdigit() else None


# -- case graph -------------------------------------------------------------------------------
def _claim_date(graph: CaseGraph, pid: str, fields: tuple[str, ...]) -> GenDate | None:
    """The most confident non-rejected dated claim among `fields` (first field wins ties)."""
    best: tuple[int, float] | None = None
    found: GenDate | None = None
    for a in graph.assertions.get(pid, []):
        if (a.status == AssertionStatus.REJECTED or a.field_name not in fields
                or not _bounded(a.date)):
            continue
        key = (-fields.index(a.field_name), a.confidence)
        if best is None or key > best:
            best, found = key, a.date
    return found


def _bounded(gd: GenDate | None) -> bool:
    return gd is not None and (gd.earliest is not None or gd.latest is not None)


def _as_written(graph: CaseGraph, pid: str) -> list[tuple[str, str, str]]:
    """The person's date claims kept as written, with no range (a tree's `31 FEB 1900`,
    `(unknown)`): what `_date_of` finds invalid in the file, found in the case."""
    out: list[tuple[str, str, str]] = []
    for a in graph.assertions.get(pid, []):
        gd = a.date
        if (a.status != AssertionStatus.REJECTED and a.field_name.endswith("_date")
                and gd is not None and not _bounded(gd) and gd.original):
            out.append((a.field_name.removesuffix("_date"), gd.original,
                        "not a date we can bound"))
    return out


def _sex(graph: CaseGraph, p: Person) -> str:
    """The person's sex, or when the person row has none the one their sex claims agree
    on: a merged person shows the sex its other records state (what the report shows)."""
    if p.sex in ("M", "F"):
        return p.sex
    said = {a.value for a in graph.assertions.get(p.id, [])
            if a.field_name == "sex" and a.status != AssertionStatus.REJECTED
            and a.value in ("M", "F")}
    return said.pop() if len(said) == 1 else p.sex


def tree_from_graph(graph: CensoredGraph) -> Tree:
    """A Tree from a (censored) CaseGraph; families rebuilt from parent and spouse links."""
    persons: dict[str, TPerson] = {}
    for p in graph.persons:
        tp = TPerson(p.id, name=p.canonical_name, surname=p.surname, sex=_sex(graph, p),
                     invalid=_as_written(graph, p.id))
        born = {a.value.strip() for a in graph.assertions.get(p.id, [])
                if a.field_name == "birth_surname" and a.status != AssertionStatus.REJECTED}
        tp.birth_surnames = frozenset(born - {""} or {p.surname.strip()} - {""})
        tp.birth = Span.of(p.birth) or Span.of(_claim_date(graph, p.id, ("birth_date",)))
        tp.death = Span.of(p.death) or Span.of(_claim_date(graph, p.id, ("death_date",)))
        tp.baptism = Span.of(_claim_date(graph, p.id, ("baptism_date", "christening_date")))
        tp.burial = Span.of(_claim_date(graph, p.id, ("burial_date",)))
        tp.has_death = tp.death is not None or any(
            a.field_name.startswith("death") and a.status != AssertionStatus.REJECTED
            for a in graph.assertions.get(p.id, [])
        )
        for label, span in (("birth", tp.birth), ("baptism", tp.baptism),
                            ("death", tp.death), ("burial", tp.burial)):
            if span is not None:
                tp.events.append((label, span))
        persons[p.id] = tp
    by_id = {p.id: p for p in graph.persons}
    families: dict[str, TFamily] = {}

    def family_of(a: str | None, b: str | None) -> TFamily:
        pair = sorted(x for x in (a, b) if x)
        fid = "F:" + "+".join(pair) if pair else "F:?"
        fam = families.get(fid)
        if fam is None:
            fam = TFamily(fid)
            for x in pair:
                sex = persons[x].sex if x in persons else "U"
                if sex == "F" and fam.wife is None:
                    fam.wife = x
                elif fam.husband is None:
                    fam.husband = x
                else:
                    fam.wife = x
            families[fid] = fam
            for x in pair:
                if x in persons:
                    persons[x].fams.append(fid)
        return fam

    for p in graph.persons:
        parents = sorted(x for x in p.parents if x in by_id)
        if parents:
            fam = family_of(*[*parents, None][:2])
            fam.children.append(p.id)
            persons[p.id].famc.append(fam.id)
        for s in sorted(p.spouses):
            if s in by_id and p.id < s:
                family_of(p.id, s)
    for fam in families.values():
        for x in fam.spouses:
            if len(by_id[x].spouses) == 1 and fam.marriage is None:
                fam.marriage = Span.of(_claim_date(graph, x, ("marriage_date",)))
                if fam.marriage is not None:
                    fam.events.append(("marriage", fam.marriage))
    living = {p.id for p in graph.persons if p.is_living}
    return Tree(persons, families, "case", label=graph.title, living=living)
