"""FreeCEN1 `.VLD` census transcriptions (fixed-width, 299 bytes a person) as candidates.

Layout from FreeUKGen MyopicVicar `lib/freecen1_vld_parser.rb` (VLD_POSITION_MAP and its
column comment), checked against the shipped Durham piece: household number at 5 (6 digits),
parish 15 (20), street 57 (30), surname 88 (24), forenames 112 (24), relationship to head 137
(6), condition 143, sex 144, age 145 (3) + unit 148, occupation 150 (30), birth county 181 (3),
birth place 184 (20). The census year comes from the file name (HO/RG piece series).

The snapshot text must be the file decoded as ISO-8859-1 (one character per byte, as the
FreeCEN parser reads it; `sleuth.text.vld_text`), so record i sits at
text[299*i : 299*i+299]. Values the firewall could not find as words (condition codes, the
census year) go into rationales.
"""

from __future__ import annotations

import re
from pathlib import PurePath

from sleuth.extract.records.common import RecordDoc
from sleuth.extract.records.freereg import CHAPMAN, age_birth_range
from sleuth.model.citation import EvidenceType
from sleuth.model.dates import GenDate
from sleuth.model.records import Candidate, Snapshot

RECORD = 299
MAX_RECORDS = 200_000
# Census night of each England & Wales census: ages are as of that day.
CENSUS_NIGHT = {1841: (6, 6), 1851: (3, 30), 1861: (4, 7), 1871: (4, 2), 1881: (4, 3),
                1891: (4, 5), 1901: (3, 31)}
_NAME = re.compile(r"(?P<series>HO|HS|RG|RS)(?P<y>\d{2})", re.I)
_AGE_UNIT = {"y": "y", "m": "m", "w": "w", "d": "d"}
_CHILD = {"son", "dau", "daur", "child"}
_PARENT = {"father", "mother"}
_SIBLING = {"brothr", "brother", "sister"}


def census_year(name: str) -> int | None:
    """1841-1901 from a FreeCEN piece file name (RG09 -> 1861, HO107 -> 1841/1851...)."""
    m = _NAME.search(PurePath(name).name)
    if m is None:
        return None
    series, stub = m.group("series").upper(), m.group("y")
    if series == "RG":
        return {"09": 1861, "10": 1871, "11": 1881, "12": 1891, "13": 1901}.get(stub)
    if series in ("HO", "HS"):
        return {"4": 1841, "1": 1841, "5": 1851}.get(stub[0])
    return {"6": 1861, "7": 1871, "8": 1881, "9": 1891}.get(stub[0])


def detect(snap: Snapshot, raw: bytes | None = None) -> bool:
    """Whole 299-character records whose numeric and code columns hold what the layout says."""
    text = snap.text
    if not text or len(text) % RECORD or len(text) > RECORD * MAX_RECORDS:
        return False
    for i in range(min(5, len(text) // RECORD)):
        r = text[i * RECORD:(i + 1) * RECORD]
        if not (r[5:15].isdigit() and r[143] in "MSUW- " and r[144] in "MF- "):
            return False
    return True


def _field(r: str, start: int, size: int) -> str:
    v = r[start:start + size].strip(" \x00")
    return "" if v in ("-", "") else v


def _span(base: int, r: str, start: int, end: int) -> tuple[int, int]:
    """Span of r[start:end] without its padding, in snapshot coordinates."""
    seg = r[start:end]
    left = len(seg) - len(seg.lstrip(" -\x00"))
    right = len(seg.rstrip(" -\x00"))
    return (base + start + left, base + start + max(right, left))


def extract(snap: Snapshot, raw: bytes | None = None) -> list[Candidate]:
    """Candidates for every named person in a FreeCEN1 VLD piece (empty for anything else)."""
    if not detect(snap, raw):
        return []
    year = census_year(str(snap.metadata.get("filename") or snap.path or snap.source_name))
    night = GenDate.from_parts(year, *CENSUS_NIGHT[year]) if year in CENSUS_NIGHT else None
    doc = RecordDoc(snap.text, snap.id, evidence_type=EvidenceType.PRIMARY,
                    source_reliability=0.8)
    label = f"FreeCEN {year} census" if year else "FreeCEN census"
    households: dict[str, list[tuple[str, str, tuple[int, int]]]] = {}
    text = snap.text
    for i in range(len(text) // RECORD):
        base = i * RECORD
        r = text[base:base + RECORD]
        if r[0] == "D" or r[87] not in "- ":  # deleted, or an uninhabited/building entry
            continue
        name = " ".join(p for p in (_field(r, 112, 24), _field(r, 88, 24)) if p)
        if not name:
            continue
        key = f"p{len(doc.names) + 1}"
        person = _span(base, r, 88, 204)
        name_span = _span(base, r, 88, 136)
        doc.emit(key, "name", name, name_span, 0.95, f"{label}: surname and forenames columns",
                 subject_name=name)
        sex = {"M": "M", "F": "F"}.get(r[144])
        if sex:
            doc.emit(key, "sex", sex, person, 0.95, f"{label}: sex column '{r[144]}'")
        occupation = _field(r, 150, 30)
        if occupation:
            doc.emit(key, "occupation", occupation, _span(base, r, 150, 180), 0.9,
                     f"{label}: occupation column")
        born = _field(r, 184, 20)
        if born:
            county = _field(r, 181, 3)
            where = CHAPMAN.get(county.upper())
            doc.emit(key, "birth_place", born, _span(base, r, 184, 204), 0.85,
                     f"{label}: birth place column (county {county}"
                     f"{' = ' + where[0] if where else ''})")
        street, parish = _field(r, 57, 30), _field(r, 15, 20)
        home = ", ".join(p for p in (street, parish) if p)
        if home:
            doc.emit(key, "residence", home, _span(base, r, 15, 87), 0.85,
                     f"{label}: house/street and parish columns ({year or 'year unknown'})")
        age, unit = _field(r, 145, 3), r[148].lower()
        if night is not None and age.isdigit() and age != "999" and unit in _AGE_UNIT:
            g = age_birth_range(f"{int(age)}{_AGE_UNIT[unit]}", night)
            if g is not None and g.iso():
                doc.emit(key, "birth_date", g.iso(), _span(base, r, 88, 149), 0.5,
                         f"{label}: calculated from age {age}{unit} on census night "
                         f"{night.iso()}", date=g, is_fact=False)
        households.setdefault(r[5:11], []).append((key, _field(r, 137, 6).lower(), name_span))
    for members in households.values():
        _household(doc, members, label)
    return doc.out


def _household(doc: RecordDoc, members: list[tuple[str, str, tuple[int, int]]],
               label: str) -> None:
    """Relationships to the household head, citing the head's name."""
    heads = [m for m in members if m[1] == "head"]
    if len(heads) != 1:
        return
    head = heads[0][0]
    spans = {k: s for k, _, s in members}

    def rel(a: str, field: str, b: str, role: str) -> None:
        doc.emit(a, field, doc.names[b], spans[b], 0.85,
                 f"{label}: relationship to head '{role}'", related=b)

    for key, role, _ in members:
        if key == head:
            continue
        if role in _CHILD:
            rel(key, "parent", head, role)
            rel(head, "child", key, role)
        elif role in ("wife", "husband"):
            rel(key, "spouse", head, role)
            rel(head, "spouse", key, role)
        elif role in _PARENT:
            rel(head, "parent", key, role)
            rel(key, "child", head, role)
        elif role in _SIBLING:
            rel(key, "sibling", head, role)
            rel(head, "sibling", key, role)
