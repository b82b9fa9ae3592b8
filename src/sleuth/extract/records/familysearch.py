"""FamilySearch GEDCOM X record JSON (persons, facts, relationships) as grounded candidates.

GEDCOM X already says which value is which fact; what the firewall still needs is a verbatim
excerpt. The JSON is therefore parsed with a small span-keeping reader (`parse_spans`): every
value knows its character span, and a member knows where its key starts, so a candidate cites
e.g. `"original" : "12 May 1890"` exactly as stored. Persons become p1, p2, ... with the
record's focus person (its description) first. Relationships cite the related person's name
as stated in this record; the rationale names the GEDCOM X relationship that links them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from json.decoder import scanstring  # type: ignore[attr-defined]  # (typeshed omits it)
from typing import Any

from sleuth.extract.dates import parse_date
from sleuth.extract.records.common import RecordDoc
from sleuth.extract.records.freereg import age_birth_range
from sleuth.model.citation import EvidenceType
from sleuth.model.dates import DateQualifier, GenDate
from sleuth.model.records import DATE_FIELDS, Candidate, Snapshot
from sleuth.verify.normalise import fold

MAX_CHARS = 20_000_000
MAX_DEPTH = 128
MAX_EXCERPT = 400

_WS = re.compile(r"[ \t\n\r]*")
_NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?")
_FORMAL = re.compile(r"^(?P<q>A)?\+(?P<y>\d{4})(?:-(?P<m>\d{2})(?:-(?P<d>\d{2}))?)?$")
_LETTER = re.compile(r"[^\W\d_]")
_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")

# GEDCOM X fact type (last path segment) -> (date field, place field).
EVENTS: dict[str, tuple[str, str]] = {
    "Birth": ("birth_date", "birth_place"),
    "Christening": ("baptism_date", "baptism_place"),
    "Baptism": ("baptism_date", "baptism_place"),
    "Death": ("death_date", "death_place"),
    "Burial": ("burial_date", "burial_place"),
    "Marriage": ("marriage_date", "marriage_place"),
    "Residence": ("residence_date", "residence"),
    "Census": ("residence_date", "residence"),
}
VALUE_FACTS = {"Occupation": "occupation", "MaritalStatus": "marital_status"}
DEATH_EVENTS = ("Death", "Burial")


class JSONSpanError(ValueError):
    """The text is not JSON (or too deep / too large to read safely)."""


@dataclass(slots=True)
class Node:
    """A JSON value with its span in the text; `key_start` is its member key's start."""

    start: int
    end: int
    value: Any  # dict[str, Node] | list[Node] | str | int | float | bool | None
    key_start: int = -1

    def get(self, key: str) -> Node | None:
        return self.value.get(key) if isinstance(self.value, dict) else None

    def items(self) -> list[Node]:
        return self.value if isinstance(self.value, list) else []

    def true(self, key: str) -> bool:
        n = self.get(key)
        return n is not None and n.value is True

    def str(self, key: str) -> str:
        n = self.get(key)
        return n.value if n is not None and isinstance(n.value, str) else ""

    def member_span(self) -> tuple[int, int]:
        """`"key" : value` when this is an object member, else the value itself."""
        return (self.key_start if self.key_start >= 0 else self.start, self.end)


def parse_spans(text: str) -> Node:
    """Parse JSON keeping every value's span; raise JSONSpanError on anything else."""
    if len(text) > MAX_CHARS:
        raise JSONSpanError(f"JSON text is {len(text)} characters; the limit is {MAX_CHARS}")
    node, pos = _value(text, _skip(text, 0), 0)
    if _skip(text, pos) != len(text):
        raise JSONSpanError(f"extra data after the JSON value at offset {pos}")
    return node


def _skip(s: str, i: int) -> int:
    """Index of the first non-whitespace character at or after i."""
    m = _WS.match(s, i)
    return m.end() if m else i


def _value(s: str, i: int, depth: int) -> tuple[Node, int]:
    if depth > MAX_DEPTH:
        raise JSONSpanError("JSON nested too deeply")
    if i >= len(s):
        raise JSONSpanError("unexpected end of JSON")
    ch = s[i]
    if ch == '"':
        try:
            v, end = scanstring(s, i + 1, True)
        except ValueError as exc:
            raise JSONSpanError(str(exc)) from exc
        return Node(i, end, v), end
    if ch == "{":
        return _object(s, i, depth)
    if ch == "[":
        items: list[Node] = []
        j = _skip(s, i + 1)
        if j < len(s) and s[j] == "]":
            return Node(i, j + 1, items), j + 1
        while True:
            item, j = _value(s, j, depth + 1)
            items.append(item)
            j = _skip(s, j)
            if j < len(s) and s[j] == ",":
                j = _skip(s, j + 1)
                continue
            if j < len(s) and s[j] == "]":
                return Node(i, j + 1, items), j + 1
            raise JSONSpanError(f"expected ',' or ']' at offset {j}")
    for word, val in (("true", True), ("false", False), ("null", None)):
        if s.startswith(word, i):
            return Node(i, i + len(word), val), i + len(word)
    m = _NUMBER.match(s, i)
    if m is None:
        raise JSONSpanError(f"unexpected character {ch!r} at offset {i}")
    num = m.group()
    return Node(i, m.end(), float(num) if any(c in num for c in ".eE") else int(num)), m.end()


def _object(s: str, i: int, depth: int) -> tuple[Node, int]:
    members: dict[str, Node] = {}
    j = _skip(s, i + 1)
    if j < len(s) and s[j] == "}":
        return Node(i, j + 1, members), j + 1
    while True:
        if j >= len(s) or s[j] != '"':
            raise JSONSpanError(f"expected a member name at offset {j}")
        try:
            key, k_end = scanstring(s, j + 1, True)
        except ValueError as exc:
            raise JSONSpanError(str(exc)) from exc
        k = _skip(s, k_end)
        if k >= len(s) or s[k] != ":":
            raise JSONSpanError(f"expected ':' at offset {k}")
        key_pos = j
        val, j = _value(s, _skip(s, k + 1), depth + 1)
        val.key_start = key_pos
        members.setdefault(key, val)
        j = _skip(s, j)
        if j < len(s) and s[j] == ",":
            j = _skip(s, j + 1)
            continue
        if j < len(s) and s[j] == "}":
            return Node(i, j + 1, members), j + 1
        raise JSONSpanError(f"expected ',' or '}}' at offset {j}")


def _tail(uri: str) -> str:
    """Last segment of a GEDCOM X type URI ("http://gedcomx.org/Birth" -> "Birth")."""
    return re.split(r"[/#:]", uri.rstrip("/"))[-1].replace("%20", "")


def _grounded(iso: str, excerpt: str) -> bool:
    """Every number of an ISO date is a word of the excerpt (the firewall's text rule)."""
    words = set(fold(excerpt).split())
    return all(part in words for part in iso.split("-"))


def detect(snap: Snapshot, raw: bytes | None = None) -> bool:
    """GEDCOM X JSON: an object with a `persons` array and gedcomx type URIs."""
    head = snap.text.lstrip("\ufeff \t\r\n")
    if not head.startswith("{") or len(snap.text) > MAX_CHARS:
        return False
    return '"persons"' in snap.text and "gedcomx.org/" in snap.text


def formal_date(formal: str) -> GenDate | None:
    """A GEDCOM X formal date ("+1861-01-14", "+1850", "A+1850"), or None."""
    m = _FORMAL.match(formal.strip())
    if m is None:
        return None
    q = DateQualifier.ABOUT if m.group("q") else DateQualifier.EXACT
    try:
        return GenDate.from_parts(int(m.group("y")), int(m.group("m")) if m.group("m") else None,
                                  int(m.group("d")) if m.group("d") else None, qualifier=q,
                                  original=formal)
    except ValueError:
        return None


class _Record:
    """One GEDCOM X document being turned into candidates."""

    def __init__(self, snap: Snapshot, root: Node) -> None:
        self.doc = RecordDoc(snap.text, snap.id, evidence_type=EvidenceType.SECONDARY,
                             source_reliability=0.8)
        self.text = snap.text
        self.root = root
        self.keys: dict[str, str] = {}
        self.name_span: dict[str, tuple[int, int]] = {}
        self.persons: list[tuple[str, Node]] = []

    # -- spans -------------------------------------------------------------------------
    def excerpt_span(self, fact: Node, part: Node) -> tuple[int, int]:
        """The fact from its type to `part` when that is short, else just `part`'s member."""
        s, e = part.member_span()
        t = fact.get("type")
        if t is not None and 0 <= t.key_start < s and e - t.key_start <= MAX_EXCERPT:
            return (t.key_start, e)
        return (s, e)

    # -- persons -----------------------------------------------------------------------
    def order_persons(self) -> None:
        persons = [p for p in (self.root.get("persons") or Node(0, 0, [])).items()
                   if isinstance(p.value, dict)]
        focus = self.root.str("description").lstrip("#").removeprefix("sd_")
        persons.sort(key=lambda p: (p.str("id") != focus, not p.true("principal")))
        for p in persons:
            names = self.person_names(p)
            pid = p.str("id")
            if not names or not pid or pid in self.keys:
                continue
            key = f"p{len(self.keys) + 1}"
            self.keys[pid] = key
            self.name_span[key] = names[0][1]
            self.persons.append((key, p))
            for i, (name, span) in enumerate(names):
                why = "GEDCOM X name form (fullText)" + ("" if i == 0 else ", another name")
                self.doc.emit(key, "name", name, span, 0.95 if i == 0 else 0.85, why,
                              subject_name=name)

    def person_names(self, p: Node) -> list[tuple[str, tuple[int, int]]]:
        """Every distinct full name the record gives the person (ones with letters)."""
        out: list[tuple[str, tuple[int, int]]] = []
        for n in (p.get("names") or Node(0, 0, [])).items():
            for form in (n.get("nameForms") or Node(0, 0, [])).items():
                full = form.get("fullText")
                if full is None or not isinstance(full.value, str):
                    continue
                name = " ".join(full.value.split())
                if _LETTER.search(name) and all(name != o for o, _ in out):
                    out.append((name, full.member_span()))
        return out

    # -- facts -------------------------------------------------------------------------
    def date(self, key: str, fld: str, fact: Node, why: str, conf: float,
             d: Node | None = None) -> GenDate | None:
        """Emit the first readable form of the fact's date (original, normalised, formal)."""
        d = d or fact.get("date")
        if d is None:
            return None
        tries: list[tuple[Node | None, GenDate | None]] = []
        orig = d.get("original")
        if orig is not None and isinstance(orig.value, str):
            tries.append((orig, parse_date(orig.value)))
        for n in (d.get("normalized") or Node(0, 0, [])).items():
            v = n.get("value")
            if v is not None and isinstance(v.value, str):
                tries.append((v, parse_date(v.value)))
        for f in (d.get("fields") or Node(0, 0, [])).items():
            if _tail(f.str("type")) != "Date":
                continue
            for v in (f.get("values") or Node(0, 0, [])).items():
                text = v.get("text")
                if _tail(v.str("type")) == "Interpreted" and text is not None and isinstance(
                        text.value, str):
                    tries.append((text, parse_date(text.value)))
        formal = d.get("formal")
        if formal is not None and isinstance(formal.value, str):
            tries.append((formal, formal_date(formal.value)))
        first: tuple[Node, GenDate] | None = None
        for node, g in tries:
            if node is not None and g is not None and g.iso():
                span = self.excerpt_span(fact, node)
                if fld not in DATE_FIELDS and not _grounded(g.iso(), self.text[span[0]:span[1]]):
                    first = first or (node, g)
                    continue  # a field the firewall reads as text: its ISO form must be written
                self.doc.emit(key, fld, g.iso(), span, conf, why, date=g)
                return g
        if first is not None:  # no written ISO form: keep the date as written, range attached
            node, g = first
            self.doc.emit(key, fld, " ".join(str(node.value).split()),
                          self.excerpt_span(fact, node), conf, why, date=g)
            return g
        return None

    def place(self, key: str, fld: str, fact: Node, why: str, conf: float,
              p: Node | None = None) -> None:
        p = p or fact.get("place")
        orig = p.get("original") if p is not None else None
        if orig is None or not isinstance(orig.value, str) or not orig.value.strip():
            return
        self.doc.emit(key, fld, " ".join(orig.value.split()), self.excerpt_span(fact, orig), conf,
                      why)

    def facts(self, key: str, p: Node) -> GenDate | None:
        """Emit a person's facts; return the date of their record event (for ages)."""
        event: GenDate | None = None
        death_event = False
        for fact in (p.get("facts") or Node(0, 0, [])).items():
            kind = _tail(fact.str("type"))
            primary = fact.true("primary")
            if kind in EVENTS:
                dfield, pfield = EVENTS[kind]
                g = self.date(key, dfield, fact, f"GEDCOM X {kind} fact date", 0.9)
                self.place(key, pfield, fact, f"GEDCOM X {kind} fact place", 0.9)
                if g is not None and kind != "Birth" and (primary or event is None):
                    event = g
                death_event = death_event or kind in DEATH_EVENTS
            elif kind not in VALUE_FACTS:
                self.other_event(key, kind, fact)
            elif kind in VALUE_FACTS:
                v = fact.get("value")
                if v is not None and isinstance(v.value, str) and v.value.strip():
                    self.doc.emit(key, VALUE_FACTS[kind], " ".join(v.value.split()),
                                  self.excerpt_span(fact, v), 0.9, f"GEDCOM X {kind} fact")
        self.sex(key, p)
        self.age(key, p, event, death_event)
        return event

    def other_event(self, key: str, kind: str, fact: Node, why: str = "") -> None:
        """Events outside the core vocabulary keep their GEDCOM X type as the field stem."""
        stem = _CAMEL.sub("_", kind).lower()
        if not stem.isidentifier() or stem in ("unknown", "custom"):
            return
        why = why or f"GEDCOM X {kind} fact"
        self.date(key, f"{stem}_date", fact, f"{why} date", 0.85)
        self.place(key, f"{stem}_place", fact, f"{why} place", 0.85)

    def sex(self, key: str, p: Node) -> None:
        g = p.get("gender")
        t = g.get("type") if g is not None else None
        if t is None or not isinstance(t.value, str):
            return
        value = {"Male": "M", "Female": "F"}.get(_tail(t.value))
        if value:
            self.doc.emit(key, "sex", value, t.member_span(), 0.95, "GEDCOM X gender")

    def age(self, key: str, p: Node, event: GenDate | None, death_event: bool) -> None:
        for f in (p.get("fields") or Node(0, 0, [])).items():
            if _tail(f.str("type")) != "Age":
                continue
            for v in (f.get("values") or Node(0, 0, [])).items():
                text = v.get("text")
                if text is None or not isinstance(text.value, str):
                    continue
                age = text.value.strip()
                span = v.member_span() if v.end - v.start <= MAX_EXCERPT else text.member_span()
                if death_event and age.isdigit():
                    self.doc.emit(key, "age_at_death", age, text.member_span(), 0.85,
                                  "GEDCOM X age field of a death or burial record")
                born = age_birth_range(age, event) if event is not None else None
                if born is not None and born.iso():
                    self.doc.emit(key, "birth_date", born.iso(), span, 0.5,
                                  f"calculated from age '{age}' at the record's event "
                                  f"({event.iso() if event else ''})", date=born, is_fact=False)
                return

    # -- relationships -------------------------------------------------------------------
    def relationships(self) -> None:
        linked: set[frozenset[str]] = set()
        for r in (self.root.get("relationships") or Node(0, 0, [])).items():
            kind = _tail(r.str("type"))
            a, b = (self.ref(r.get("person1")), self.ref(r.get("person2")))
            rid = r.str("id") or "?"
            why = f"GEDCOM X {kind} relationship {rid}"
            if kind == "Couple":
                for fact in (r.get("facts") or Node(0, 0, [])).items():
                    ev = _tail(fact.str("type"))
                    for who in (a, b):  # a partner the record leaves unnamed still married
                        if who is None:
                            continue
                        if ev in EVENTS:
                            dfield, pfield = EVENTS[ev]
                            self.date(who, dfield, fact, f"{why}: {ev} date", 0.9)
                            self.place(who, pfield, fact, f"{why}: {ev} place", 0.9)
                        else:
                            self.other_event(who, ev, fact, f"{why}: {ev}")
            if not a or not b or a == b:
                continue
            linked.add(frozenset((a, b)))
            if kind == "Couple":
                self.rel(a, "spouse", b, why)
                self.rel(b, "spouse", a, why)
            elif kind == "ParentChild":
                self.parent_child(a, b, f"{why}: person1 is the parent of person2")
            elif kind == "Sibling":
                self.rel(a, "sibling", b, why)
                self.rel(b, "sibling", a, why)
        for r in (self.root.get("childAndParentsRelationships") or Node(0, 0, [])).items():
            child = self.ref(r.get("child"))
            for role in ("parent1", "parent2", "father", "mother"):
                parent = self.ref(r.get(role))
                if child and parent and parent != child:
                    linked.add(frozenset((parent, child)))
                    self.parent_child(parent, child, f"GEDCOM X child-and-parents relationship "
                                                     f"({role})")
        self.household(linked)

    def parent_child(self, parent: str, child: str, why: str) -> None:
        self.rel(child, "parent", parent, why)
        self.rel(parent, "child", child, why)

    def household(self, linked: set[frozenset[str]]) -> None:
        """Census relationship-to-head values link members the record left unlinked."""
        roles: dict[str, str] = {}
        for key, p in self.persons:
            for f in (p.get("fields") or Node(0, 0, [])).items():
                if _tail(f.str("type")) == "RelationshipToHead":
                    vals = [v.str("text") for v in (f.get("values") or Node(0, 0, [])).items()]
                    if vals and vals[0]:
                        roles[key] = vals[0].strip().lower()
        heads = [k for k, r in roles.items() if r == "head"]
        if len(heads) != 1:
            return
        head = heads[0]
        for key, role in roles.items():
            if key == head or frozenset((key, head)) in linked:
                continue
            why = f"census relationship to head: '{role}'"
            if role in ("son", "daughter", "child"):
                self.parent_child(head, key, why)
            elif role in ("wife", "husband"):
                self.rel(key, "spouse", head, why)
                self.rel(head, "spouse", key, why)
            elif role in ("father", "mother"):
                self.parent_child(key, head, why)
            elif role in ("brother", "sister"):
                self.rel(key, "sibling", head, why)
                self.rel(head, "sibling", key, why)

    def ref(self, n: Node | None) -> str | None:
        if n is None:
            return None
        rid = n.str("resourceId") or n.str("resource").lstrip("#")
        return self.keys.get(rid)

    def rel(self, key: str, fld: str, other: str, why: str) -> None:
        name = self.doc.names.get(other, "")
        self.doc.emit(key, fld, name, self.name_span[other], 0.9,
                      f"{why}; cites the relative's name in this record", related=other)

    def coverage(self) -> None:
        """The record's own event (its source description's coverage) for its principals.

        Some records state their event only there (a marriage with no marriage fact); it is
        emitted for principal persons that lack a date for that event.
        """
        for sd in (self.root.get("sourceDescriptions") or Node(0, 0, [])).items():
            if _tail(sd.str("resourceType")) != "Record":
                continue
            for cov in (sd.get("coverage") or Node(0, 0, [])).items():
                kind = _tail(cov.str("recordType"))
                if kind not in EVENTS:
                    continue
                dfield, pfield = EVENTS[kind]
                why = f"GEDCOM X record coverage ({kind} record)"
                for key, p in self.persons:
                    if not p.true("principal"):
                        continue
                    if any(c.subject == key and c.field == dfield for c in self.doc.out):
                        continue
                    self.date(key, dfield, cov, f"{why} date", 0.8, d=cov.get("temporal"))
                    self.place(key, pfield, cov, f"{why} place", 0.8, p=cov.get("spatial"))
            return

    def run(self) -> list[Candidate]:
        self.order_persons()
        for key, p in self.persons:
            self.facts(key, p)
        self.relationships()
        self.coverage()
        return self.doc.out


def extract(snap: Snapshot, raw: bytes | None = None) -> list[Candidate]:
    """Candidates for every person in a GEDCOM X record (empty when it isn't one)."""
    if not detect(snap, raw):
        return []
    try:
        root = parse_spans(snap.text)
    except JSONSpanError:
        return []
    if not isinstance(root.value, dict) or root.get("persons") is None:
        return []
    return _Record(snap, root).run()
