"""WikiTree API responses (getProfile, getPerson, getPeople, getAncestors, getDescendants,
getRelatives, searchPerson, getBio) as grounded candidates.

The snapshot text is the JSON body as fetched. It is read with the span-keeping JSON reader of
the GEDCOM X module (`familysearch.parse_spans`), so each value is cited by its own member
(`"BirthDate": "1835-11-30"`). A full name is cited by the run of name members it is built
from (`"FirstName": "Samuel", "LastNameAtBirth": "Clemens"`), which the API writes next to
each other. A relationship links two profile blocks by their numeric `Father`/`Mother` ids or
by nesting (`Parents`, `Children`, `Siblings`, `Spouses`); the firewall needs the relative's
name in the excerpt, so the link cites the relative's own block from its id key through its
name members, and the rationale names the field that links them. A relative who has no name
in the response is linked by their WikiTree ID (`"Name": "Adams-38"`), never by a guess.

Privacy (Help:Privacy): the API already withholds what a private profile hides, and this
module withholds more rather than less. Open (60) and Public (50) profiles give everything;
private levels give names and birth/death decades only, plus relationships for levels with a
public family tree (35, 40); Unlisted (10) gives nothing. Spouse entries marked
`do_not_display` give no marriage details, and ids the API nulls or makes negative are no link.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from sleuth.extract.dates import parse_date
from sleuth.extract.records.common import RecordDoc
from sleuth.extract.records.familysearch import MAX_CHARS, JSONSpanError, Node, parse_spans
from sleuth.model.citation import EvidenceType
from sleuth.model.dates import GenDate
from sleuth.model.records import Candidate, Snapshot

MAX_EXCERPT = 400
_WIKITREE_ID = re.compile(r"^[^\s/#?]{1,80}-\d{1,9}$")
_ISO = re.compile(r"^(\d{4})-(\d{2})-(\d{2})$")
_DECADE = re.compile(r"^(\d{3})0s$")
_MONTHS = ("JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC")
# DataStatus flag -> GEDCOM qualifier word used to build the date range.
_STATUS_QUAL = {"guess": "EST", "uncertain": "ABT", "before": "BEF", "after": "AFT"}
# Response keys that hold person profiles; one of them must be present.
_RESULT_KEYS = ("profile", "people", "ancestors", "descendants", "items", "matches")
# Keys only WikiTree API result objects carry (with "status"); categories, photos and
# connection paths are recognised so that they are not read as prose, and yield nothing.
_SHAPE_KEYS = (*_RESULT_KEYS, "bio", "page_name", "user_name", "resultByKey", "categories",
               "photos", "path")
_REL_BLOCKS = {"Parents": "parent", "Children": "child", "Siblings": "sibling",
               "Spouses": "spouse"}
_INVERSE = {"parent": "child", "child": "parent", "sibling": "sibling", "spouse": "spouse"}
# Name members in the order a full name is read; (JSON key, candidate field).
_NAME_PARTS = (("Prefix", "name_prefix"), ("FirstName", "given_name"),
               ("MiddleName", "middle_name"), ("LastNameAtBirth", "birth_surname"),
               ("LastNameCurrent", "surname"), ("Suffix", "name_suffix"))
_OTHER_NAMES = (("Nicknames", "nickname"), ("LastNameOther", "name_variant"),
                ("RealName", "name_variant"))

PUBLIC, OPEN_TREE, UNLISTED = 50, 35, 10


@dataclass(frozen=True)
class Visibility:
    """What a privacy level lets a reader who is not on the trusted list see."""

    details: bool  # exact dates, places, gender
    tree: bool  # relationships
    anything: bool = True


def visibility(privacy: int | None) -> Visibility:
    """Help:Privacy levels: 60 open, 50 public, 40/35 public tree, 30 public bio, 20, 10."""
    if privacy is None or privacy >= PUBLIC:
        return Visibility(True, True)
    if privacy <= UNLISTED:
        return Visibility(False, False, anything=False)
    return Visibility(False, privacy in (35, 40))


def wikitree_date(raw: str, status: str = "") -> GenDate | None:
    """A WikiTree API date ("1835-11-30", "1850-00-00", "0000-00-00") with its DataStatus.

    Zeros mean unknown parts; an all-zero date is no date. DataStatus "before"/"after" bound
    the range on one side, "guess" and "uncertain" widen it to an estimate ("about").
    """
    m = _ISO.match(raw.strip())
    if m is None:
        return None
    y, mo, d = (int(g) for g in m.groups())
    if y == 0 or mo > 12 or (mo == 0 and d):
        return None
    parts = [str(y)]
    if mo:
        parts.insert(0, _MONTHS[mo - 1])
        if d:
            parts.insert(0, str(d))
    qual = _STATUS_QUAL.get(status.strip().lower(), "")
    g = parse_date(" ".join([qual, *parts]).strip())
    return None if g is None else g.model_copy(update={"original": raw.strip()})


def _decade(raw: str) -> GenDate | None:
    m = _DECADE.match(raw.strip())
    if m is None:
        return None
    y = int(m.group(1)) * 10
    g = parse_date(f"BET {y} AND {y + 9}")
    return None if g is None else g.model_copy(update={"original": raw.strip()})


def _int(n: Node | None) -> int | None:
    """An id or level the API writes as a number or a numeric string."""
    if n is None or isinstance(n.value, bool):
        return None
    if isinstance(n.value, int):
        return n.value
    if isinstance(n.value, str) and re.fullmatch(r"-?\d{1,12}", n.value.strip()):
        return int(n.value)
    return None


def _str(n: Node | None) -> str:
    return " ".join(n.value.split()) if n is not None and isinstance(n.value, str) else ""


# -- detection --------------------------------------------------------------------------


def detect(snap: Snapshot, raw: bytes | None = None) -> bool:
    """A WikiTree API response: a JSON array of result objects holding WikiTree profiles."""
    text = snap.text
    if len(text) > MAX_CHARS or not text.lstrip("\ufeff \t\r\n").startswith("["):
        return False
    if '"status"' not in text or not any(f'"{k}"' in text for k in _SHAPE_KEYS):
        return False
    try:
        root = parse_spans(text)
    except JSONSpanError:
        return False
    results = [r for r in root.items() if isinstance(r.value, dict)]
    if not results or len(results) != len(root.items()):
        return False
    if any(r.get("status") is None or not any(r.get(k) is not None for k in _SHAPE_KEYS)
           for r in results):
        return False
    if any(_WIKITREE_ID.match(p.str("Name")) for p in _profiles(results)):
        return True
    # An error or a profile-less answer ("Illegal WikiTree ID") still names what was asked.
    return any(r.str(k) for r in results for k in ("page_name", "user_name"))


def _profiles(results: list[Node]) -> list[Node]:
    """Every person profile of a response, top-level ones first (the request's subjects)."""
    out: list[Node] = []
    for r in results:
        if r.get("bio") is not None and _WIKITREE_ID.match(r.str("Name")):
            out.append(r)  # getBio: the result object is the profile's Id, PageId and Name
        prof = r.get("profile")
        if prof is not None and isinstance(prof.value, dict):
            out.append(prof)
        for item in (r.get("items") or Node(0, 0, [])).items():
            person = item.get("person")
            if person is not None and isinstance(person.value, dict):
                out.append(person)
        people = r.get("people")
        if people is not None and isinstance(people.value, dict):
            out.extend(p for p in people.value.values() if isinstance(p.value, dict))
        for key in ("ancestors", "descendants", "matches"):
            out.extend(p for p in (r.get(key) or Node(0, 0, [])).items()
                       if isinstance(p.value, dict))
    nested: list[Node] = []
    for p in out:
        for block in _REL_BLOCKS:
            b = p.get(block)
            if b is not None and isinstance(b.value, dict):
                nested.extend(x for x in b.value.values() if isinstance(x.value, dict))
    return out + nested


# -- extraction -------------------------------------------------------------------------


@dataclass
class _Person:
    key: str
    node: Node
    vis: Visibility
    name: str = ""
    name_span: tuple[int, int] | None = None
    block_start: int = -1
    wikitree_id: str = ""
    id_span: tuple[int, int] | None = None
    extra: list[Node] = field(default_factory=list)  # other copies of the same profile


class _Response:
    def __init__(self, snap: Snapshot, results: list[Node]) -> None:
        self.doc = RecordDoc(snap.text, snap.id, evidence_type=EvidenceType.SECONDARY,
                             source_reliability=0.6)
        self.text = snap.text
        self.results = results
        self.by_id: dict[int, _Person] = {}
        self.persons: list[_Person] = []

    # -- persons -----------------------------------------------------------------------
    def collect(self) -> None:
        for node in _profiles(self.results):
            pid = _int(node.get("Id"))
            if pid is not None and pid in self.by_id:
                self.by_id[pid].extra.append(node)
                continue
            vis = visibility(_int(node.get("Privacy")))
            if not vis.anything:
                continue
            person = _Person(f"p{len(self.persons) + 1}", node, vis, block_start=node.key_start)
            self.names(person)
            wid = node.get("Name")
            if wid is not None and _WIKITREE_ID.match(_str(wid)):
                person.wikitree_id, person.id_span = _str(wid), wid.member_span()
            if not person.name and not person.wikitree_id:
                continue  # an id alone ("Id": 20082962) names nobody
            self.persons.append(person)
            if pid is not None and pid > 0:
                self.by_id[pid] = person

    def names(self, person: _Person) -> None:
        """The full name (given names, current or birth surname, suffix) and its members."""
        p = person.node
        surname = "LastNameCurrent" if _str(p.get("LastNameCurrent")) else "LastNameAtBirth"
        keys = ("FirstName", "MiddleName", surname, "Suffix")
        used = [n for k in keys if _str(n := p.get(k)) and n is not None]
        if not used:
            return
        if surname == "LastNameCurrent" and _str(p.get("LastNameAtBirth")):
            used.append(p.get("LastNameAtBirth"))  # type: ignore[arg-type]
        s, e = min(n.key_start for n in used), max(n.end for n in used)
        if e - s <= MAX_EXCERPT:
            person.name = " ".join(_str(p.get(k)) for k in keys if _str(p.get(k)))
            person.name_span = (s, e)

    def emit_person(self, person: _Person) -> None:
        doc, p, key = self.doc, person.node, person.key
        if person.name_span:
            doc.emit(key, "name", person.name, person.name_span, 0.9,
                     "WikiTree API name fields", subject_name=person.name)
        if person.id_span:
            doc.emit(key, "wikitree_id", person.wikitree_id, person.id_span, 0.95,
                     "WikiTree ID (the profile's Name field)")
        for k, fld in _NAME_PARTS:
            n = p.get(k)
            if n is not None and _str(n):
                doc.emit(key, fld, _str(n), n.member_span(), 0.95, f"WikiTree API {k}")
        for k, fld in _OTHER_NAMES:
            n = p.get(k)
            if n is None:
                continue
            for part in _str(n).split(","):
                if part.strip() and part.strip() != _str(p.get("FirstName")):
                    doc.emit(key, fld, part.strip(), n.member_span(), 0.85, f"WikiTree API {k}")
        status = p.get("DataStatus")
        for event in ("Birth", "Death"):
            self.event(person, event, status)
        gender = p.get("Gender")
        sex = {"male": "M", "female": "F"}.get(_str(gender).lower())
        if sex and person.vis.details and gender is not None:
            doc.emit(key, "sex", sex, gender.member_span(), 0.95, "WikiTree API Gender")

    def event(self, person: _Person, event: str, status: Node | None) -> None:
        p, fld = person.node, event.lower()
        n = p.get(f"{event}Date")
        flag = status.str(f"{event}Date") if status is not None else ""
        g = wikitree_date(_str(n), flag) if person.vis.details else None
        why = f"WikiTree API {event}Date" + (f" (DataStatus '{flag}')" if flag else "")
        if n is None or g is None:
            n = p.get(f"{event}DateDecade")
            g = _decade(_str(n))
            why = f"WikiTree API {event}DateDecade"
        if n is not None and g is not None and g.iso():
            self.doc.emit(person.key, f"{fld}_date", g.iso(), n.member_span(), 0.9, why, date=g)
        loc = p.get(f"{event}Location")
        if person.vis.details and _str(loc) and loc is not None:
            lflag = status.str(f"{event}Location") if status is not None else ""
            conf = 0.7 if lflag in ("guess", "uncertain") else 0.9
            self.doc.emit(person.key, f"{fld}_place", _str(loc), loc.member_span(), conf,
                          f"WikiTree API {event}Location"
                          + (f" (DataStatus '{lflag}')" if lflag else ""))

    # -- relationships -----------------------------------------------------------------
    def cite(self, rel: _Person) -> tuple[str, tuple[int, int], bool] | None:
        """Value and excerpt naming a relative: their block's id key through their name."""
        if rel.name_span:
            s = rel.block_start if 0 <= rel.block_start < rel.name_span[0] else rel.name_span[0]
            if rel.name_span[1] - s > MAX_EXCERPT:
                s = rel.name_span[0]
            return rel.name, (s, rel.name_span[1]), True
        if rel.id_span:
            return rel.wikitree_id, rel.id_span, False
        return None

    def link(self, a: _Person, fld: str, b: _Person, why: str) -> None:
        """a is `fld` of b's subject... i.e. emit `a.fld = b` and the inverse on b."""
        if a is b or not (a.vis.tree and b.vis.tree):
            return
        for subj, f, rel in ((a, fld, b), (b, _INVERSE[fld], a)):
            cited = self.cite(rel)
            if cited is None:
                continue
            value, span, named = cited
            self.doc.emit(subj.key, f, value, span, 0.9,
                          f"{why}; cites the relative's {'name' if named else 'WikiTree ID'}"
                          " in this response", subject_name=subj.name or None,
                          related=rel.key, related_name=rel.name or None, name_related=named)

    def relationships(self) -> None:
        for person in self.persons:
            for node in (person.node, *person.extra):
                for role in ("Father", "Mother"):
                    pid = _int(node.get(role))
                    parent = self.by_id.get(pid) if pid and pid > 0 else None
                    if parent is None:
                        continue
                    self.link(person, "parent", parent, f"'{role}': {pid} in {person.key}'s "
                              "profile")
                    ref = node.get(role)
                    if (ref is not None and parent.vis.details
                            and parent.node.get("Gender") is None):
                        self.doc.emit(parent.key, "sex", "M" if role == "Father" else "F",
                                      ref.member_span(), 0.9, f"the profile's {role} field")
                for block, fld in _REL_BLOCKS.items():
                    b = node.get(block)
                    if b is None or not isinstance(b.value, dict):
                        continue
                    for rel_id, rel_node in b.value.items():
                        rel = self.by_id.get(_int(rel_node.get("Id")) or 0)
                        if rel is None or not rel_id.lstrip("-").isdigit() or int(rel_id) <= 0:
                            continue
                        self.link(person, fld, rel, f"listed in {person.key}'s "
                                  f"{block} block")
                        if fld == "spouse":
                            self.marriage(person, rel, rel_node)

    def marriage(self, a: _Person, b: _Person, entry: Node) -> None:
        flag = entry.get("do_not_display")
        hidden = str(flag.value if flag else "0")
        if hidden not in ("0", "", "None", "False") or not (a.vis.details and b.vis.details):
            return
        d = entry.get("marriage_date")
        g = wikitree_date(_str(d))
        loc = entry.get("marriage_location")
        for subj, rel in ((a, b), (b, a)):
            if d is not None and g is not None:
                self.doc.emit(subj.key, "marriage_date", g.iso(), d.member_span(), 0.9,
                              "marriage_date of the Spouses entry", date=g, related=rel.key,
                              name_related=False)
            if _str(loc) and loc is not None:
                self.doc.emit(subj.key, "marriage_place", _str(loc), loc.member_span(), 0.9,
                              "marriage_location of the Spouses entry", related=rel.key,
                              name_related=False)

    def run(self) -> list[Candidate]:
        self.collect()
        for person in self.persons:
            self.emit_person(person)
        self.relationships()
        return self.doc.out


def extract(snap: Snapshot, raw: bytes | None = None) -> list[Candidate]:
    """Candidates for every profile the response shows, relatives linked where it says so."""
    if not detect(snap, raw):
        return []
    try:
        root = parse_spans(snap.text)
    except JSONSpanError:
        return []
    return _Response(snap, [r for r in root.items() if isinstance(r.value, dict)]).run()
