"""FreeREG1 parish-register CSV (baptisms, burials, marriages) as grounded candidates.

The column layout is fixed per record type by the FreeREG1 format (FreeUKGen MyopicVicar,
`lib/freereg_csv_processor.rb`): four shared columns (county Chapman code, place, church,
register entry number) and then the type's own columns. Each data row is one register entry,
so every candidate cites its whole row line: the row holds all the entry's values and the
firewall finds it verbatim. Persons are numbered p1, p2, ... across the file.
"""

from __future__ import annotations

import calendar
import csv
import re
from collections.abc import Iterator
from datetime import date, timedelta

from sleuth.extract.dates import parse_date
from sleuth.extract.records.common import RecordDoc
from sleuth.model.citation import EvidenceType
from sleuth.model.dates import DateQualifier, GenDate, Precision
from sleuth.model.records import Candidate, Snapshot

MAX_ROWS = 200_000
MAX_LINE = 4_000

RECORD_TYPES = {"BAPTISMS": "BA", "BURIALS": "BU", "MARRIAGES": "MA"}

REGISTER_OF = "register of"  # how an event place read off the register itself is explained

# Chapman county codes (England, Wales, Scotland, islands) as FreeREG uses them.
CHAPMAN: dict[str, tuple[str, str]] = {
    "BDF": ("Bedfordshire", "England"), "BKM": ("Buckinghamshire", "England"),
    "BRK": ("Berkshire", "England"), "CAM": ("Cambridgeshire", "England"),
    "CHS": ("Cheshire", "England"), "CON": ("Cornwall", "England"),
    "CUL": ("Cumberland", "England"), "DBY": ("Derbyshire", "England"),
    "DEV": ("Devon", "England"), "DOR": ("Dorset", "England"),
    "DUR": ("Durham", "England"), "ESS": ("Essex", "England"),
    "GLS": ("Gloucestershire", "England"), "HAM": ("Hampshire", "England"),
    "HEF": ("Herefordshire", "England"), "HRT": ("Hertfordshire", "England"),
    "HUN": ("Huntingdonshire", "England"), "IOW": ("Isle of Wight", "England"),
    "KEN": ("Kent", "England"), "LAN": ("Lancashire", "England"),
    "LEI": ("Leicestershire", "England"), "LIN": ("Lincolnshire", "England"),
    "LND": ("London", "England"), "MDX": ("Middlesex", "England"),
    "NBL": ("Northumberland", "England"), "NFK": ("Norfolk", "England"),
    "NTH": ("Northamptonshire", "England"), "NTT": ("Nottinghamshire", "England"),
    "OXF": ("Oxfordshire", "England"), "RUT": ("Rutland", "England"),
    "SAL": ("Shropshire", "England"), "SFK": ("Suffolk", "England"),
    "SOM": ("Somerset", "England"), "SRY": ("Surrey", "England"),
    "SSX": ("Sussex", "England"), "STS": ("Staffordshire", "England"),
    "WAR": ("Warwickshire", "England"), "WES": ("Westmorland", "England"),
    "WIL": ("Wiltshire", "England"), "WOR": ("Worcestershire", "England"),
    "YKS": ("Yorkshire", "England"), "ERY": ("Yorkshire East Riding", "England"),
    "NRY": ("Yorkshire North Riding", "England"), "WRY": ("Yorkshire West Riding", "England"),
    "AGY": ("Anglesey", "Wales"), "BRE": ("Brecknockshire", "Wales"),
    "CAE": ("Caernarfonshire", "Wales"), "CGN": ("Cardiganshire", "Wales"),
    "CMN": ("Carmarthenshire", "Wales"), "DEN": ("Denbighshire", "Wales"),
    "FLN": ("Flintshire", "Wales"), "GLA": ("Glamorgan", "Wales"),
    "MER": ("Merionethshire", "Wales"), "MGY": ("Montgomeryshire", "Wales"),
    "MON": ("Monmouthshire", "Wales"), "PEM": ("Pembrokeshire", "Wales"),
    "RAD": ("Radnorshire", "Wales"),
    "ABD": ("Aberdeenshire", "Scotland"), "ANS": ("Angus", "Scotland"),
    "ARL": ("Argyllshire", "Scotland"), "AYR": ("Ayrshire", "Scotland"),
    "BAN": ("Banffshire", "Scotland"), "BEW": ("Berwickshire", "Scotland"),
    "BUT": ("Bute", "Scotland"), "CAI": ("Caithness", "Scotland"),
    "CLK": ("Clackmannanshire", "Scotland"), "DFS": ("Dumfriesshire", "Scotland"),
    "DNB": ("Dunbartonshire", "Scotland"), "ELN": ("East Lothian", "Scotland"),
    "FIF": ("Fife", "Scotland"), "INV": ("Inverness-shire", "Scotland"),
    "KCD": ("Kincardineshire", "Scotland"), "KRS": ("Kinross-shire", "Scotland"),
    "KKD": ("Kirkcudbrightshire", "Scotland"), "LKS": ("Lanarkshire", "Scotland"),
    "MLN": ("Midlothian", "Scotland"), "MOR": ("Moray", "Scotland"),
    "NAI": ("Nairnshire", "Scotland"), "OKI": ("Orkney", "Scotland"),
    "PEE": ("Peeblesshire", "Scotland"), "PER": ("Perthshire", "Scotland"),
    "RFW": ("Renfrewshire", "Scotland"), "ROC": ("Ross and Cromarty", "Scotland"),
    "ROX": ("Roxburghshire", "Scotland"), "SEL": ("Selkirkshire", "Scotland"),
    "SHI": ("Shetland", "Scotland"), "STI": ("Stirlingshire", "Scotland"),
    "SUT": ("Sutherland", "Scotland"), "WLN": ("West Lothian", "Scotland"),
    "WIG": ("Wigtownshire", "Scotland"),
    "IOM": ("Isle of Man", "Isle of Man"), "JSY": ("Jersey", "Channel Islands"),
    "GSY": ("Guernsey", "Channel Islands"),
}

# Register-type suffixes transcribers append to the church name (parish register, bishop's or
# archdeacon's transcript, ...): part of the register's identity, not of the place.
_REGISTER_SUFFIX = re.compile(r"\s+(?:PR|AT|BT|EX|TR|DW|PH|DT|OR|OT|PT|MI|UR)$")
_DUAL_CENTURY = re.compile(r"^(?P<head>.*?\b(?P<c>\d{2})(?P<y>\d{2}))/(?P<n>\d{2})$")
_AGE = re.compile(
    r"^(?:(?P<y>\d{1,3})\s*y?)?\s*(?:(?P<m>\d{1,2})\s*m)?\s*(?:(?P<w>\d{1,2})\s*w)?"
    r"\s*(?:(?P<d>\d{1,3})\s*d)?$",
    re.IGNORECASE,
)
_REL_PARENT = re.compile(r"^(?:son|dau|daughter|child|infant|s|d)\.?(?:\s+of)?\b", re.I)
_REL_SPOUSE_OF_MAN = re.compile(r"^(?:wife|widow|relict|w)\.?(?:\s+of)?\b", re.I)
_REL_SPOUSE_OF_WOMAN = re.compile(r"^(?:husband|widower|h)\.?(?:\s+of)?\b", re.I)
_SEX = {"m": "M", "male": "M", "f": "F", "female": "F"}


def detect(snap: Snapshot, raw: bytes | None = None) -> bool:
    """A FreeREG1 CSV starts with its `+INFO` header naming the register type."""
    head = snap.text[:300].lstrip("\ufeff \r\n")
    if not head.upper().startswith("+INFO,"):
        return False
    first = head.split("\n", 1)[0].upper()
    return any(t in first for t in RECORD_TYPES)


def record_type(text: str) -> str | None:
    """BA, BU or MA from the `+INFO` line, or None."""
    first = text.lstrip("\ufeff \r\n").split("\n", 1)[0].upper()
    for word, code in RECORD_TYPES.items():
        if word in first:
            return code
    return None


def data_rows(text: str) -> Iterator[tuple[int, int, list[str]]]:
    """(start, end, cells) of every data line: header (`+`, `#`) and blank lines skipped."""
    pos, n = 0, 0
    size = len(text)
    while pos < size and n < MAX_ROWS:
        nl = text.find("\n", pos)
        end = size if nl < 0 else nl
        start, stop = pos, end
        pos = end + 1
        while stop > start and text[stop - 1] in "\r \t":
            stop -= 1
        while start < stop and text[start] in " \t\ufeff":
            start += 1
        line = text[start:stop]
        if not line or line[0] in "+#" or stop - start > MAX_LINE:
            continue
        try:
            cells = next(csv.reader([line]), [])
        except csv.Error:  # a stray carriage return or similar: not a well-formed row
            continue
        if not any(c.strip() for c in cells):
            continue
        n += 1
        yield start, stop, [c.strip() for c in cells]


def church_place(cells: list[str]) -> tuple[str, str]:
    """(place value, county note): church and parish as written; the county from its code.

    The value keeps only what the row says (the firewall grounds every place token in the
    excerpt); the Chapman code's county goes into the rationale for the reader.
    """
    code = cell(cells, 0).upper()
    church = _REGISTER_SUFFIX.sub("", cell(cells, 2))
    place = ", ".join(p for p in (church, cell(cells, 1)) if p)
    county = CHAPMAN.get(code)
    return place, (f"{code} = {', '.join(county)}" if county else code)


def cell(cells: list[str], i: int) -> str:
    v = cells[i] if i < len(cells) else ""
    return "" if v in ("-", "?") else v


def fr_date(text: str) -> GenDate | None:
    """A FreeREG date ("12 Mar 1603", dual-dated "11 Feb 1732/3"), or None."""
    text = text.strip()
    if not text:
        return None
    g = parse_date(text)
    if g is None:
        m = _DUAL_CENTURY.match(text)
        if m and m.group("n") == "00" and m.group("y") == "99":  # 1699/00 means 1699/1700
            g = parse_date(f"{m.group('head')}/{int(m.group('c')) + 1:02d}00")
    return g


def age_birth_range(age: str, event: GenDate) -> GenDate | None:
    """Birth range implied by an age ("72", "5m", "2y 6m", "3d", "infant") at a dated event."""
    if event.earliest is None or event.latest is None:
        return None
    a = age.strip().lower()
    if a in ("infant", "inf"):
        y = m = w = d = 0
        span_unit = "y"
    else:
        mt = _AGE.match(a)
        if mt is None or not any(mt.groupdict().values()):
            return None
        y, m, w, d = (int(mt.group(k) or 0) for k in "ymwd")
        span_unit = "d" if mt.group("d") else "w" if mt.group("w") else (
            "m" if mt.group("m") else "y")
        if y > 120:
            return None
    months = 12 * y + m
    days = 7 * w + d
    try:
        hi = _minus_months(event.latest, months) - timedelta(days=days)
        step = {"y": 12, "m": 1}.get(span_unit, 0)
        lo = _minus_months(event.earliest, months + step) - timedelta(
            days=days + (7 if span_unit == "w" else 1 if span_unit == "d" else 0))
        lo += timedelta(days=1)
    except (ValueError, OverflowError):
        return None
    if lo > hi:
        return None
    precision: Precision | None = "day" if lo == hi else "month" if (
        (lo.year, lo.month) == (hi.year, hi.month)) else (
        "year" if lo.year == hi.year else None)
    return GenDate(earliest=lo, latest=hi, qualifier=DateQualifier.CALCULATED,
                   precision=precision, original=age)


def _minus_months(d: date, months: int) -> date:
    y, mo = divmod(d.year * 12 + d.month - 1 - months, 12)
    mo += 1
    return date(y, mo, min(d.day, calendar.monthrange(y, mo)[1]))


def full_name(forename: str, surname: str) -> str:
    return " ".join(p for p in (forename, surname) if p)


def parent_name(forename: str, surname: str) -> str:
    """A parent is named only by a forename: a surname column alone is the family's surname
    (a baptism with no father's forename names no father), never a person."""
    return full_name(forename, surname) if forename else ""


class _Row:
    """Emits one row's candidates; all spans are the row line."""

    def __init__(self, doc: RecordDoc, span: tuple[int, int], cells: list[str], counter: list[int],
                 label: str) -> None:
        self.doc, self.span, self.cells, self.counter, self.label = doc, span, cells, counter, label
        self.place, self.county = church_place(cells)

    def c(self, i: int) -> str:
        return cell(self.cells, i)

    def person(self, name: str, why: str) -> str | None:
        if not name:
            return None
        self.counter[0] += 1
        key = f"p{self.counter[0]}"
        self.doc.emit(key, "name", name, self.span, 0.95, f"{self.label}: {why}", subject_name=name)
        return key

    def fact(self, key: str | None, field: str, value: str, why: str, conf: float = 0.95,
             related: str | None = None) -> None:
        if key and value:
            self.doc.emit(key, field, value, self.span, conf, f"{self.label}: {why}",
                          related=related)

    def date(self, key: str | None, field: str, text: str, why: str) -> GenDate | None:
        """An entry's own dates were written when the event happened: primary information
        (the transcription is a derivative source; the information in it is not secondhand)."""
        g = fr_date(text)
        if key and g is not None and g.iso():
            self.doc.emit(key, field, g.iso(), self.span, 0.95, f"{self.label}: {why}", date=g,
                          evidence_type=EvidenceType.PRIMARY)
        return g

    def rel(self, key: str | None, field: str, other: str | None, why: str) -> None:
        if key and other:
            self.fact(key, field, self.doc.names[other], why, related=other)

    def sex(self, key: str | None, raw: str, why: str) -> None:
        s = _SEX.get(raw.strip().lower())
        if s:
            self.fact(key, "sex", s, why)

    def age(self, key: str | None, age: str, event: GenDate | None, why: str) -> None:
        if not key or not age or event is None:
            return
        born = age_birth_range(age, event)
        if born is not None and born.iso():
            self.doc.emit(key, "birth_date", born.iso(), self.span, 0.5,
                          f"{self.label}: calculated from {why} '{age}' at {event.iso()}",
                          date=born, is_fact=False)

    def note(self, key: str | None, i: int) -> None:
        self.fact(key, "note", self.c(i), "transcriber's notes column", 0.9)


def _baptism(r: _Row) -> None:
    surname = r.c(10) or r.c(11)
    child = r.person(full_name(r.c(6), surname), "baptised person (forename, father's surname)")
    r.sex(child, r.c(7), "sex column")
    r.date(child, "baptism_date", r.c(5), "baptism date column")
    r.fact(child, "baptism_place", r.place, f"{REGISTER_OF} {r.place} ({r.county})", 0.9)
    r.date(child, "birth_date", r.c(4), "birth date column")
    r.fact(child, "residence", r.c(12), "abode column", 0.9)
    father = r.person(parent_name(r.c(8), r.c(10)), "father's forename and surname")
    r.fact(father, "sex", "M" if father else "", "named as father")
    r.fact(father, "occupation", r.c(13), "father's occupation column", 0.9)
    mother = r.person(parent_name(r.c(9), r.c(11)), "mother's forename and surname")
    r.fact(mother, "sex", "F" if mother else "", "named as mother")
    r.rel(child, "parent", father, "father of the baptised person")
    r.rel(child, "parent", mother, "mother of the baptised person")
    r.note(child, 14)


def _burial(r: _Row) -> None:
    relation = r.c(6)
    surname = r.c(10) or r.c(9)
    dead = r.person(full_name(r.c(5), surname), "buried person (forename, surname)")
    g = r.date(dead, "burial_date", r.c(4), "burial date column")
    r.fact(dead, "burial_place", r.place, f"{REGISTER_OF} {r.place} ({r.county})", 0.9)
    age = r.c(11)
    if age.isdigit():
        r.fact(dead, "age_at_death", age, "age column (age at burial)", 0.85)
    r.age(dead, age, g, "age at burial")
    r.fact(dead, "residence", r.c(12), "abode column", 0.9)
    rel_surname = r.c(9) or r.c(10)
    male = full_name(r.c(7), rel_surname) if r.c(7) else ""
    female = full_name(r.c(8), rel_surname) if r.c(8) else ""
    if _REL_PARENT.match(relation):
        low = relation.lower()
        r.sex(dead, "M" if low.startswith("s") else "F" if low.startswith("d") else "",
              f"'{relation}'")
        father = r.person(male, f"male relative ('{relation}')")
        mother = r.person(female, f"female relative ('{relation}')")
        r.fact(father, "sex", "M" if father else "", "named as father")
        r.fact(mother, "sex", "F" if mother else "", "named as mother")
        r.rel(dead, "parent", father, f"'{relation}' the male relative")
        r.rel(dead, "parent", mother, f"'{relation}' the female relative")
    elif _REL_SPOUSE_OF_MAN.match(relation):
        r.sex(dead, "F", f"'{relation}'")
        husband = r.person(male, f"male relative ('{relation}')")
        r.fact(husband, "sex", "M" if husband else "", f"husband ('{relation}')")
        r.rel(dead, "spouse", husband, f"'{relation}' the male relative")
    elif _REL_SPOUSE_OF_WOMAN.match(relation):
        r.sex(dead, "M", f"'{relation}'")
        wife = r.person(female, f"female relative ('{relation}')")
        r.fact(wife, "sex", "F" if wife else "", f"wife ('{relation}')")
        r.rel(dead, "spouse", wife, f"'{relation}' the female relative")
    elif male or female:  # a relative named without a relationship we can read
        for name in (male, female):
            r.person(name, f"relative named in the entry ('{relation or 'no relationship'}')")
    r.note(dead, 13)


def _marriage(r: _Row) -> None:
    groom = r.person(full_name(r.c(5), r.c(6)), "groom's forename and surname")
    bride = r.person(full_name(r.c(12), r.c(13)), "bride's forename and surname")
    r.fact(groom, "sex", "M" if groom else "", "groom")
    r.fact(bride, "sex", "F" if bride else "", "bride")
    g = None
    for who, base, role in ((groom, 7, "groom"), (bride, 14, "bride")):
        g = r.date(who, "marriage_date", r.c(4), "marriage date column")
        r.fact(who, "marriage_place", r.place, f"{REGISTER_OF} {r.place} ({r.county})", 0.9)
        r.age(who, r.c(base), g, f"{role}'s age")
        r.fact(who, "residence", r.c(base + 1), f"{role}'s parish column", 0.85)
        r.fact(who, "marital_status", r.c(base + 2), f"{role}'s condition column", 0.9)
        r.fact(who, "occupation", r.c(base + 3), f"{role}'s occupation column", 0.9)
        r.fact(who, "residence", r.c(base + 4), f"{role}'s abode column", 0.9)
    r.rel(groom, "spouse", bride, "bride in the same marriage entry")
    r.rel(bride, "spouse", groom, "groom in the same marriage entry")
    for child, base, role in ((groom, 19, "groom"), (bride, 22, "bride")):
        father = r.person(parent_name(r.c(base), r.c(base + 1)), f"{role}'s father")
        r.fact(father, "sex", "M" if father else "", f"{role}'s father")
        r.fact(father, "occupation", r.c(base + 2), f"{role}'s father's occupation column", 0.9)
        r.rel(child, "parent", father, f"{role}'s father")
    couple = ", ".join(r.doc.names[k] for k in (groom, bride) if k)
    for base in (25, 27):
        witness = r.person(full_name(r.c(base), r.c(base + 1)), "witness to the marriage")
        r.fact(witness, "witness", couple, "witnessed the marriage of the groom and bride", 0.9,
               related=groom or bride)
    r.note(groom or bride, 29)


_HANDLERS = {"BA": (_baptism, "baptism"), "BU": (_burial, "burial"), "MA": (_marriage, "marriage")}


def extract(snap: Snapshot, raw: bytes | None = None) -> list[Candidate]:
    """Candidates for every data row of a FreeREG1 CSV (empty for anything else)."""
    kind = record_type(snap.text) if detect(snap, raw) else None
    if kind is None:
        return []
    handler, label = _HANDLERS[kind]
    doc = RecordDoc(snap.text, snap.id, evidence_type=EvidenceType.SECONDARY,
                    source_reliability=0.8)
    counter = [0]
    for start, stop, cells in data_rows(snap.text):
        if len(cells) < 5:
            continue
        handler(_Row(doc, (start, stop), cells, counter, f"FreeREG {label} entry"))
    return doc.out
