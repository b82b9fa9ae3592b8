"""Wikidata `wbgetentities` responses (entities with claims) as grounded candidates.

The snapshot text is the JSON body as fetched, read with the span-keeping JSON reader, so a
claim is cited by its own `mainsnak` (`"property": "P569"` with its time value, precision and
calendar model) and a name by its label member. Only entities that are people (P31 = Q5, or
carrying a birth, death or sex claim) become subjects.

What is honoured: date precision (11 day, 10 month, 9 year, 8 decade, 7 century, 6 millennium
as ranges), the calendar model (Q1985786 Julian dates are converted to Gregorian bounds and
keep their written form), deprecated ranks (skipped), `novalue`/`somevalue` snaks (no value
is invented for them) and deleted (`missing`) entities (nothing).

Items that a claim points at (a birthplace Q350, a father Q14623675) are named only when their
label is in the same response: then the candidate cites that label and its rationale names
the claim. Otherwise the identifier is kept as an identifier (`birth_place_qid`, `father_qid`:
never a place or a name field), so a later label look-up can resolve it. Strings the API
escaped (`"\\uac15\\ub0a8"`) are not what the stored text shows, so they are not cited.
"""

from __future__ import annotations

import calendar as _calendar
import re
from datetime import date

from convertdate import julian

from sleuth.extract.dates import parse_date
from sleuth.extract.records.common import RecordDoc
from sleuth.extract.records.familysearch import MAX_CHARS, JSONSpanError, Node, parse_spans
from sleuth.model.citation import EvidenceType
from sleuth.model.dates import DateQualifier, GenDate, Precision
from sleuth.model.records import Candidate, Snapshot

MAX_EXCERPT = 800
_ENTITY_ID = re.compile(r"^[QPLM]\d{1,12}$")
_TIME = re.compile(r"^\+(?P<y>\d{1,16})-(?P<m>\d\d)-(?P<d>\d\d)T")
JULIAN = "Q1985786"
GREGORIAN = "Q1985727"
HUMAN = "Q5"
SEX = {"Q6581097": "M", "Q6581072": "F"}
DATE_PROPS = {"P569": "birth_date", "P570": "death_date"}
# Item-valued properties: (label field, identifier field, relationship or None).
ITEM_PROPS: dict[str, tuple[str, str, str | None]] = {
    "P19": ("birth_place", "birth_place_qid", None),
    "P20": ("death_place", "death_place_qid", None),
    "P22": ("parent", "father_qid", "M"),
    "P25": ("parent", "mother_qid", "F"),
    "P26": ("spouse", "spouse_qid", None),
    "P40": ("child", "child_qid", None),
    "P735": ("given_name", "given_name_qid", None),
    "P734": ("surname", "surname_qid", None),
}
_INVERSE = {"parent": "child", "child": "parent", "spouse": "spouse"}
_PERSON_PROPS = ("P569", "P570", "P21")


def detect(snap: Snapshot, raw: bytes | None = None) -> bool:
    """A wbgetentities answer: `{"entities": {id: entity}}` with Wikibase entity ids."""
    text = snap.text
    if len(text) > MAX_CHARS or not text.lstrip(" \t\r\n").startswith("{"):
        return False
    if '"entities"' not in text[:2000]:
        return False
    root = _parse(text)
    ents = root.get("entities") if root is not None else None
    if ents is None or not isinstance(ents.value, dict) or not ents.value:
        return False
    return all(_ENTITY_ID.match(k) and isinstance(e.value, dict)
               and (e.get("missing") is not None or _ENTITY_ID.match(e.str("id"))
                    or e.get("claims") is not None)
               for k, e in ents.value.items())


def _parse(text: str) -> Node | None:
    try:
        root = parse_spans(text)
    except JSONSpanError:
        return None
    return root if isinstance(root.value, dict) else None


def wikidata_time(value: Node) -> GenDate | None:
    """A Wikibase time value as a range at its stated precision and calendar."""
    t, prec = value.str("time"), value.get("precision")
    m = _TIME.match(t)
    if m is None or prec is None or not isinstance(prec.value, int):
        return None  # BCE ("-") and malformed times are not guessed at
    y, mo, d, p = int(m.group("y")), int(m.group("m")), int(m.group("d")), prec.value
    if not 1 <= y <= 9999:
        return None
    jul = value.str("calendarmodel").rsplit("/", 1)[-1] == JULIAN
    if p >= 11 and mo and d:
        lo = hi = (y, mo, d)
    elif p == 10 and mo:
        lo, hi = (y, mo, 1), (y, mo, _calendar.monthrange(y, mo)[1])
    elif p == 9:
        lo, hi = (y, 1, 1), (y, 12, 31)
    elif p in (6, 7, 8):
        span = {8: 10, 7: 100, 6: 1000}[p]
        # Wikibase reads a decade from the year's tens and a century or millennium as the
        # one that ends in or contains the year (1900 -> 1801-1900, 1950 -> 1901-2000).
        first = y // 10 * 10 if p == 8 else (y - 1) // span * span + 1
        lo, hi = (max(first, 1), 1, 1), (first + span - 1, 12, 31)
    else:
        return None
    try:
        if jul:
            lo_d, hi_d = date(*julian.to_gregorian(*lo)), date(*julian.to_gregorian(*hi))
        else:
            lo_d, hi_d = date(*lo), date(*hi)
    except ValueError:
        return None
    precision: Precision = "day" if p >= 11 else "month" if p == 10 else "year"
    if p >= 9 and lo_d.year == hi_d.year and not jul:
        return GenDate(earliest=lo_d, latest=hi_d, precision=precision, original=t)
    if p <= 8:
        g = parse_date(f"BET {lo_d.year} AND {hi_d.year}")
        return None if g is None else g.model_copy(update={"original": t})
    return GenDate(earliest=lo_d, latest=hi_d, qualifier=DateQualifier.EXACT,
                   precision=precision, calendar="julian", original=t)


def _plain(text: str, n: Node | None) -> str:
    """The string value when the stored text shows it as is (no JSON escapes), else ''."""
    if n is None or not isinstance(n.value, str):
        return ""
    return n.value if text[n.start + 1 : n.end - 1] == n.value else ""


class _Entities:
    def __init__(self, snap: Snapshot, ents: Node) -> None:
        self.doc = RecordDoc(snap.text, snap.id, evidence_type=EvidenceType.SECONDARY,
                             source_reliability=0.6)
        self.text = snap.text
        self.ents = {k: e for k, e in ents.value.items()
                     if isinstance(e.value, dict) and e.get("missing") is None}
        self.keys: dict[str, str] = {}

    def label(self, ent: Node) -> tuple[str, tuple[int, int]] | None:
        """The English label, else the first one the text shows unescaped."""
        labels = ent.get("labels")
        if labels is None or not isinstance(labels.value, dict):
            return None
        order = sorted(labels.value.items(), key=lambda kv: kv[0] != "en")
        for _, lab in order:
            v = _plain(self.text, lab.get("value"))
            if v.strip():
                return " ".join(v.split()), lab.member_span()
        return None

    def claims(self, ent: Node, prop: str) -> list[Node]:
        """Value snaks of a property that are not deprecated (novalue/somevalue give none)."""
        out: list[Node] = []
        c = ent.get("claims")
        stmts = c.get(prop) if c is not None else None
        for st in stmts.items() if stmts is not None else []:
            snak = st.get("mainsnak")
            if snak is None or snak.str("snaktype") != "value" or st.str("rank") == "deprecated":
                continue
            dv = snak.get("datavalue")
            if dv is not None and dv.get("value") is not None:
                out.append(snak)
        return out

    def is_person(self, ent: Node) -> bool:
        if any(self.target(s) == HUMAN for s in self.claims(ent, "P31")):
            return True
        return any(self.claims(ent, p) for p in _PERSON_PROPS)

    def target(self, snak: Node) -> str:
        v = snak.get("datavalue").get("value")  # type: ignore[union-attr]
        return v.str("id") if v is not None else ""

    def span(self, snak: Node) -> tuple[int, int]:
        """From the snak's `"property"` member through its value (it names the property),
        else the value alone when that would be too long."""
        prop, dv = snak.get("property"), snak.get("datavalue")
        v = dv.get("value") if dv is not None else None
        if prop is not None and dv is not None and dv.end - prop.key_start <= MAX_EXCERPT:
            return prop.key_start, dv.end
        return (v.start, v.end) if v is not None else (snak.start, snak.end)

    def run(self) -> list[Candidate]:
        people = [(k, e) for k, e in self.ents.items() if self.is_person(e)]
        for k, _ in people:
            self.keys[k] = f"p{len(self.keys) + 1}"
        for k, e in people:
            self.person(self.keys[k], k, e)
        return self.doc.out

    def person(self, key: str, qid: str, ent: Node) -> None:
        doc = self.doc
        lab = self.label(ent)
        name = lab[0] if lab else None
        if lab:
            doc.emit(key, "name", lab[0], lab[1], 0.9, "Wikidata label", subject_name=lab[0])
        idn = ent.get("id")
        if idn is not None:
            doc.emit(key, "wikidata_id", ent.str("id"), idn.member_span(), 0.95,
                     "Wikidata entity id" + (f" (asked for as {qid})" if qid != ent.str("id")
                                             else ""), subject_name=name)
        aliases = ent.get("aliases")
        for lang, forms in (aliases.value.items() if aliases and isinstance(aliases.value, dict)
                            else []):
            for form in forms.items() if lang == "en" else []:
                v = _plain(self.text, form.get("value"))
                if v.strip() and v != name:
                    doc.emit(key, "name_variant", " ".join(v.split()), (form.start, form.end),
                             0.8, "Wikidata alias (en)")
        for prop, fld in DATE_PROPS.items():
            for snak in self.claims(ent, prop):
                datavalue = snak.get("datavalue")  # (`claims` keeps the snaks that have one)
                tv = datavalue.get("value") if datavalue is not None else None
                g = wikidata_time(tv) if tv is not None else None
                if tv is None or g is None or not g.iso():
                    continue
                span = self.span(snak)
                years = [y for y in g.years() if y is not None]
                if not any(str(y) in self.text[span[0]:span[1]] for y in years) and (
                        g.calendar == "gregorian"):
                    continue  # a century whose bounds are not written: not groundable
                prec = precision.value if (precision := tv.get("precision")) else None
                doc.emit(key, fld, g.iso(), span, 0.9,
                         f"Wikidata {prop} (precision {prec}, {g.calendar} calendar)", date=g)
        for snak in self.claims(ent, "P21"):
            sex = SEX.get(self.target(snak))
            if sex:
                doc.emit(key, "sex", sex, self.span(snak), 0.95,
                         f"Wikidata P21 {self.target(snak)}")
        for prop, (fld, id_fld, role_sex) in ITEM_PROPS.items():
            for snak in self.claims(ent, prop):
                target = self.target(snak)
                if not _ENTITY_ID.match(target):
                    continue
                doc.emit(key, id_fld, target, self.span(snak), 0.9,
                         f"Wikidata {prop} points at {target}")
                other = self.ents.get(target)
                tlab = self.label(other) if other is not None else None
                if tlab is None:
                    continue
                why = f"Wikidata {prop} of {ent.str('id')} is {target}, labelled in this response"
                if fld in _INVERSE:
                    rel = self.keys.get(target)
                    if rel is None:
                        continue
                    doc.emit(key, fld, tlab[0], tlab[1], 0.85, why, related=rel,
                             related_name=tlab[0])
                    if name and lab:
                        doc.emit(rel, _INVERSE[fld], name, lab[1], 0.85, why, related=key,
                                 related_name=name)
                    if role_sex:
                        doc.emit(rel, "sex", role_sex, self.span(snak), 0.9,
                                 f"Wikidata {prop} ({'father' if role_sex == 'M' else 'mother'})")
                else:
                    doc.emit(key, fld, tlab[0], tlab[1], 0.85, why)


def extract(snap: Snapshot, raw: bytes | None = None) -> list[Candidate]:
    """Candidates for every person entity of the response."""
    if not detect(snap, raw):
        return []
    root = _parse(snap.text)
    ents = root.get("entities") if root is not None else None
    if ents is None:
        return []
    return _Entities(snap, ents).run()


def labels(snap: Snapshot) -> dict[str, str]:
    """Q-id -> label of a label look-up response (to resolve `*_qid` candidates later)."""
    root = _parse(snap.text) if detect(snap) else None
    ents = root.get("entities") if root is not None else None
    if ents is None:
        return {}
    reader = _Entities(snap, ents)
    return {k: lab[0] for k, e in reader.ents.items() if (lab := reader.label(e))}
