"""GEDCOM X JSON export (FamilySearch's format), every conclusion tied to the excerpt behind it.

Shape (GEDCOM X JSON 1.0, media type `application/x-gedcomx-v1+json`), as FamilySearch's own
record responses use it:

* `persons`: `names` (the preferred one first, `preferred: true`, with `nameForms[].parts`
  Given/Surname; a woman's name under a spouse's surname that is none of her parents' is a
  MarriedName, one under a parent's a BirthName, other spellings AlsoKnownAs; the preferred
  name is a BirthName unless known otherwise), `gender` (`http://gedcomx.org/Male`
  or `Female`), `facts` (Birth, Christening, Death, Burial, Marriage, Occupation, Residence;
  other fields as `data:,<Label>` facts, as FamilySearch writes unlisted types) with
  `date.original` / `date.formal` and `place.original`. Living people (the Censor's verdict)
  carry `private: true` and FamilySearch's `living: true`; what the Censor redacted stays
  redacted, since the graph is censored first like every output path.
* Conflicting claims all stay: the preferred date and place form one fact marked
  `primary: true`; every other claim of that event is a further fact of the same type, with
  a note saying so (claims that agree with each other form one such fact). Facts in a
  recorded conflict point (`analysis`) at a `documents` entry
  of type `http://gedcomx.org/Analysis` holding the weighing and its rationale.
* `relationships`: `http://gedcomx.org/ParentChild` (person1 parent, person2 child) and
  `http://gedcomx.org/Couple` (with the couple's Marriage facts), `{"resource": "#id"}`.
* `sourceDescriptions`: one per stored snapshot, with title (a user's own file by its name,
  never its path on their machine), `about` (its URL), an
  Evidence-style citation string and its sleuth id; `sources` on every fact, name, gender and
  relationship reference it by `#Sn`, with the excerpt's character span as the
  `http://gedcomx.org/CharacterRegion` qualifier ("start,end") and the verbatim excerpt as
  `attribution.changeMessage` (FamilySearch's "reason to attach this source").
* Only claims with a citation are stated; rejected claims never are; hypotheses are person
  notes (and untargeted ones Analysis documents) titled "Hypothesis (not a fact)".

Formal dates follow the GEDCOM X Date spec: `+1850-05-12`, `+1850-05`, `+1850`; ABT / EST /
CAL get the approximate marker `A+1850`; a single event known only within a range is an
approximate range `A+1840/+1845` ("sometime between", spec 2.1.10) and BEF / AFT are
`A/+1850` / `A+1850/`; a FROM ... TO period is a plain range `+1840/+1845`.
"""

from __future__ import annotations

import calendar
import re
from collections import defaultdict
from datetime import date
from typing import Any
from urllib.parse import quote

from sleuth.export.common import (
    EVENT_FIELDS,
    claims,
    conflict_by_assertion,
    display_name,
    label,
    preferred,
    recommended_index,
)
from sleuth.export.names import name_type
from sleuth.model.citation import Citation
from sleuth.model.dates import DateQualifier, GenDate
from sleuth.model.graph import CaseGraph, Conflict
from sleuth.model.records import Assertion, Person, Snapshot
from sleuth.privacy.redaction import censor
from sleuth.privacy.view import CensoredGraph

GX = "http://gedcomx.org/"
MEDIA_TYPE = "application/x-gedcomx-v1+json"
CHARACTER_REGION = GX + "CharacterRegion"
Obj = dict[str, Any]

# event kind -> GEDCOM X fact type (fact types spec); GEDCOM's CHR is a Christening. Fields
# are `<kind>_date` / `<kind>_place` (plus common.EVENT_FIELDS' aliases); couple events go on
# the Couple relationship when the spouse they concern can be told.
_EVENT_TYPE = {k: GX + v for k, v in {
    "birth": "Birth", "baptism": "Christening", "christening": "Christening",
    "confirmation": "Confirmation", "death": "Death", "burial": "Burial",
    "cremation": "Cremation", "probate": "Probate", "will": "Will", "census": "Census",
    "immigration": "Immigration", "emigration": "Emigration",
    "naturalization": "Naturalization", "adoption": "Adoption", "graduation": "Graduation",
    "retirement": "Retirement", "military": "MilitaryService", "residence": "Residence",
    "marriage": "Marriage", "engagement": "Engagement", "divorce": "Divorce",
    "annulment": "Annulment", "marriage_banns": "MarriageBanns",
    "marriage_license": "MarriageLicense",
}.items()}
COUPLE_KINDS = ("engagement", "marriage_banns", "marriage_license", "marriage", "divorce",
                "annulment")
_ORDER = ("birth", "baptism", "christening", "confirmation", "engagement", "marriage_banns",
          "marriage_license", "marriage", "divorce", "annulment")


def _event_of(field: str) -> tuple[str, str] | None:
    """(event kind, "date" | "place") of an event field, None for any other field."""
    if field in EVENT_FIELDS:
        return EVENT_FIELDS[field]
    if field == "residence":
        return ("residence", "place")
    kind, _, role = field.rpartition("_")
    return (kind, role) if kind in _EVENT_TYPE and role in ("date", "place") else None


def _couple_event(field: str) -> bool:
    ev = _event_of(field)
    return ev is not None and ev[0] in COUPLE_KINDS


_VALUE_TYPE = {"occupation": GX + "Occupation"}
_NAME_TYPE = {"married": GX + "MarriedName", "birth": GX + "BirthName"}
_RELATIONAL = frozenset({"name", "sex", "parent", "child", "spouse", "sibling"})
_APPROX = {DateQualifier.ABOUT, DateQualifier.ESTIMATED, DateQualifier.CALCULATED}
_SAFE_ID = re.compile(r"^[A-Za-z0-9._~-]+$")
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
           "September", "October", "November", "December")


# -- dates ---------------------------------------------------------------------------------
def _year(d: date, bce: bool) -> str:
    y = 1 - d.year if bce else d.year  # astronomical: 1 BCE is +0000
    return f"{'-' if y < 0 else '+'}{abs(y):04d}"


def _simple(d: date, bce: bool, unit: str) -> str:
    if unit == "year":
        return _year(d, bce)
    if unit == "month":
        return f"{_year(d, bce)}-{d.month:02d}"
    return f"{_year(d, bce)}-{d.month:02d}-{d.day:02d}"


def _unit(lo: date, hi: date) -> str | None:
    """The unit [lo, hi] spans exactly (day, month or year), if any."""
    if lo == hi:
        return "day"
    if lo.year == hi.year and (lo.month, lo.day, hi.month, hi.day) == (1, 1, 12, 31):
        return "year"
    last = calendar.monthrange(hi.year, hi.month)[1]
    if (lo.year, lo.month, lo.day) == (hi.year, hi.month, 1) and hi.day == last:
        return "month"
    return None


def _bound(d: date, bce: bool, precision: str | None, end: bool) -> str:
    """One end of a range, only as coarse as its precision allows and the day supports.

    A range end on a year's or month's first (or, for `end`, last) day is that year or month,
    as GEDCOM's BEF 1850 (latest 1 Jan 1850) is `/+1850`; a day-precise end stays a day.
    """
    if precision in (None, "year") and (d.month, d.day) == ((12, 31) if end else (1, 1)):
        return _year(d, bce)
    month_edge = calendar.monthrange(d.year, d.month)[1] if end else 1
    if precision in (None, "year", "month") and d.day == month_edge:
        return _simple(d, bce, "month")
    return _simple(d, bce, "day")


def formal_date(gd: GenDate | None) -> str | None:
    """A GenDate as a GEDCOM X formal date, never more precise than its range."""
    if gd is None or (gd.earliest is None and gd.latest is None):
        return None
    lo, hi, q, prec = gd.earliest, gd.latest, gd.qualifier, gd.precision
    approx = "A" if q in _APPROX else ""
    single_event = "" if q == DateQualifier.PERIOD else "A"  # not a period: sometime in it
    if q == DateQualifier.BEFORE and hi is not None:
        return f"A/{_bound(hi, gd.latest_bce, prec, False)}"
    if q == DateQualifier.AFTER and lo is not None:
        return f"A{_bound(lo, gd.earliest_bce, prec, True)}/"
    if lo is None:
        assert hi is not None
        return f"{single_event}/{_bound(hi, gd.latest_bce, prec, True)}"
    if hi is None:
        return f"{single_event}{_bound(lo, gd.earliest_bce, prec, False)}/"
    unit = _unit(lo, hi) if gd.earliest_bce == gd.latest_bce else None
    if unit is not None:
        return approx + _simple(lo, gd.earliest_bce, unit)
    return (f"{approx or single_event}{_bound(lo, gd.earliest_bce, prec, False)}/"
            f"{_bound(hi, gd.latest_bce, prec, True)}")


def _same(a: Assertion, b: Assertion) -> bool:
    """Two claims of one field that say the same thing (same formal date, or same text)."""
    if a.field_name != b.field_name:
        return False
    fa, fb = formal_date(a.date), formal_date(b.date)
    if fa is not None and fb is not None:
        return fa == fb
    return a.value.strip().casefold() == b.value.strip().casefold()


def _gx_date(a: Assertion) -> Obj:
    original = (a.date.original if a.date is not None else "") or a.value
    out: Obj = {"original": original}
    if (formal := formal_date(a.date)) is not None:
        out["formal"] = formal
    return out


# -- citations -----------------------------------------------------------------------------
def evidence_citation(snap: Snapshot) -> str:
    """An Evidence Explained-style citation of a stored snapshot."""
    acc = snap.accessed_at
    accessed = f"accessed {acc.day} {_MONTHS[acc.month - 1]} {acc.year}"
    where = snap.url or (f"local file {file_name(snap)}" if snap.path else "stored copy")
    return (f"\u201c{snap.source_name},\u201d digital copy ({where} : {accessed}); "
            f"sleuth snapshot {snap.id}, sha256 {snap.sha256[:16]}.")


def file_name(snap: Snapshot) -> str:
    """A user's own file by its name: where it sits on their machine is nobody's business."""
    return str(snap.metadata.get("filename") or "") or \
        re.split(r"[\\/]", snap.path or "")[-1] or snap.source_name


def _cited(obj: Obj, sources: list[Obj]) -> Obj:
    """`obj` with its `sources`, left out when there are none (an empty list says nothing)."""
    if sources:
        obj["sources"] = sources
    return obj


def _confidence(items: list[Assertion]) -> str:
    best = max(a.confidence for a in items)
    return GX + ("High" if best >= 0.8 else "Medium" if best >= 0.5 else "Low")


class _Exporter:
    def __init__(self, graph: CaseGraph) -> None:
        self.g = graph
        self.people = {p.id: p for p in graph.persons}
        self.claims = {p.id: [a for a in claims(graph, p.id) if a.citations]
                       for p in graph.persons}
        self.conflicts = conflict_by_assertion(graph)
        self.recommended = recommended_index(graph)
        self.sd = {sid: f"S{i}" for i, sid in enumerate(graph.snapshots, 1)}
        self.pid = {p.id: _fragment(p.id, i) for i, p in enumerate(graph.persons, 1)}
        self.docs: dict[str, Obj] = {}
        self.counter = 0

    def next_id(self, prefix: str) -> str:
        self.counter += 1
        return f"{prefix}{self.counter}"

    # -- references ------------------------------------------------------------------------
    def source_ref(self, c: Citation) -> Obj:
        sid = self.sd.get(c.snapshot_id)
        ref: Obj = {"description": f"#{sid}" if sid else f"urn:sleuth:snapshot:{c.snapshot_id}"}
        if sid:
            ref["descriptionId"] = sid
        ref["qualifiers"] = [{"name": CHARACTER_REGION,
                              "value": f"{c.locator.start},{c.locator.end}"}]
        ref["attribution"] = {"changeMessage": c.excerpt}
        return ref

    def sources(self, items: list[Assertion]) -> list[Obj]:
        out: dict[tuple[str, int, int], Obj] = {}
        for a in items:
            for c in a.citations:
                out.setdefault((c.snapshot_id, c.locator.start, c.locator.end),
                               self.source_ref(c))
        return list(out.values())

    def person_ref(self, pid: str) -> Obj:
        return {"resource": f"#{self.pid[pid]}", "resourceId": self.pid[pid]}

    def analysis(self, conflict: Conflict) -> Obj:
        did = f"C{len(self.docs) + 1}"
        for key, doc in self.docs.items():
            if doc["_conflict"] == conflict.id:
                did = key
                break
        else:
            ranked = "; ".join(
                f"{rc.rank}. {rc.value} (weight {rc.weight:.2f}, {rc.evidence_type}: {rc.reason})"
                for rc in sorted(conflict.competing, key=lambda r: r.rank))
            state = "tentative" if conflict.is_tentative else "resolved"
            self.docs[did] = {
                "_conflict": conflict.id,
                "id": did,
                "type": GX + "Analysis",
                "textType": "plain",
                "titles": [{"value": f"Conflict over {label(conflict.field).lower()}"}],
                "text": (f"Conflict over {label(conflict.field).lower()} ({state}); "
                         f"recommended: {conflict.recommended_value}. Competing claims: "
                         f"{ranked}. {conflict.rationale}").strip(),
            }
        return {"resource": f"#{did}"}

    # -- facts -----------------------------------------------------------------------------
    def fact(self, ftype: str, items: list[Assertion], *, primary: bool, alternative: bool,
             value: str | None = None) -> Obj:
        fact: Obj = {"id": self.next_id("F"), "type": ftype}
        if primary:
            fact["primary"] = True
        for a in items:
            role = (_event_of(a.field_name) or ("", ""))[1]
            if role == "date" and "date" not in fact:
                fact["date"] = _gx_date(a)
            elif role == "place" and "place" not in fact:
                fact["place"] = {"original": a.value}
        if value is not None:
            fact["value"] = value
        fact["confidence"] = _confidence(items)
        fact["sources"] = self.sources(items)
        conflict = next((self.conflicts[a.id] for a in items if a.id in self.conflicts), None)
        if conflict is not None:
            fact["analysis"] = self.analysis(conflict)
        if alternative:
            fact["notes"] = [{"subject": "Alternative claim",
                              "text": "The evidence conflicts; the fact marked primary is "
                                      "the preferred one."}]
        return fact

    def event_facts(self, pid: str, kind: str, items: list[Assertion]) -> list[Obj]:
        """The preferred date and place (and claims agreeing with them) as one primary fact;
        each claim that disagrees as a further fact of the same type."""
        ftype = _EVENT_TYPE.get(kind, GX + kind.capitalize())
        if kind == "residence":  # several residences are several facts, none preferred
            return [self.fact(ftype, [a], primary=False, alternative=False) for a in items]
        best: list[Assertion] = []
        for role in ("date", "place"):
            of_role = [a for a in items if (_event_of(a.field_name) or ("", ""))[1] == role]
            if of_role:
                pref = preferred(self.g, pid, f"{kind}_{role}", self.recommended)
                best.append(pref if pref in of_role else max(of_role, key=lambda a: a.confidence))
        agree = [a for a in items if a not in best and any(_same(a, b) for b in best)]
        out = [self.fact(ftype, best + agree, primary=True, alternative=False)]
        groups: list[list[Assertion]] = []  # claims that say the same: one fact
        for a in items:
            if a not in best and a not in agree:
                group = next((g for g in groups if _same(a, g[0])), None)
                if group is None:
                    groups.append([a])
                else:
                    group.append(a)
        out.extend(self.fact(ftype, g, primary=False, alternative=True) for g in groups)
        return out

    # -- persons ---------------------------------------------------------------------------
    def names(self, p: Person, items: list[Assertion]) -> list[Obj]:
        full = display_name(p)
        main = [a for a in items if a.value.casefold() == full.casefold()]
        others: dict[str, list[Assertion]] = defaultdict(list)
        for a in items:
            if a not in main:
                if p.is_living:  # a living person's other names stay out; cite them as main
                    main.append(a)
                else:
                    others[a.value].append(a)
        parts = [{"type": GX + t, "value": v}
                 for t, v in (("Given", p.given_name), ("Surname", p.surname)) if v]
        form: Obj = {"fullText": full}
        if parts:
            form["parts"] = parts
        kind = _NAME_TYPE.get(name_type(self.g, self.people, p, full), GX + "BirthName")
        names = [_cited({"id": self.next_id("N"), "type": kind, "preferred": True,
                         "nameForms": [form]}, self.sources(main))]
        for value, alts in others.items():
            alt_form: Obj = {"fullText": value}
            if p.surname and value.endswith(" " + p.surname):
                alt_form["parts"] = [
                    {"type": GX + "Given", "value": value[: -len(p.surname) - 1]},
                    {"type": GX + "Surname", "value": p.surname},
                ]
            kind = _NAME_TYPE.get(name_type(self.g, self.people, p, value), GX + "AlsoKnownAs")
            names.append(_cited({"id": self.next_id("N"), "type": kind,
                                 "preferred": False, "nameForms": [alt_form]},
                                self.sources(alts)))
        return names

    def person(self, p: Person, couple_left: list[Assertion]) -> Obj:
        mine = self.claims[p.id]
        out: Obj = {"id": self.pid[p.id],
                    "identifiers": {GX + "Primary": [f"urn:sleuth:person:{p.id}"]}}
        if p.is_living:
            out["private"] = True
            out["living"] = True
        out["names"] = self.names(p, [a for a in mine if a.field_name == "name"])
        if p.sex in ("M", "F"):
            out["gender"] = _cited({"type": GX + ("Male" if p.sex == "M" else "Female")},
                                   self.sources([a for a in mine if a.field_name == "sex"]))
        facts: list[Obj] = []
        grouped: dict[str, list[Assertion]] = defaultdict(list)
        for a in mine:
            if (ev := _event_of(a.field_name)) is not None and not _couple_event(a.field_name):
                grouped[ev[0]].append(a)
        for a in couple_left:  # couple events whose spouse cannot be told
            grouped[(_event_of(a.field_name) or ("", ""))[0]].append(a)
        for kind in sorted(grouped, key=lambda k: (_ORDER + tuple(_EVENT_TYPE)).index(k)):
            facts.extend(self.event_facts(p.id, kind, grouped[kind]))
        for a in mine:
            if _event_of(a.field_name) is not None or a.field_name in _RELATIONAL:
                continue
            ftype = _VALUE_TYPE.get(a.field_name, "data:," + quote(label(a.field_name)))
            facts.append(self.fact(ftype, [a], primary=False, alternative=False, value=a.value))
        if facts:
            out["facts"] = facts
        notes = [{"subject": "Hypothesis (not a fact)", "text": h.statement}
                 for h in self.g.hypotheses if h.target_person == p.id]
        if notes:
            out["notes"] = notes
        snaps = dict.fromkeys(c.snapshot_id for a in mine for c in a.citations)
        return _cited(out, [{"description": f"#{self.sd[s]}", "descriptionId": self.sd[s]}
                            for s in snaps if s in self.sd])

    # -- relationships ---------------------------------------------------------------------
    def about(self, a: Assertion, candidates: set[str]) -> set[str]:
        """Which of the candidate relatives a relationship claim names (by id or name)."""
        if a.related_id in candidates:
            return {a.related_id}
        value = a.value.strip()
        named = {r for r in candidates if display_name(self.people[r]).casefold()
                 == value.casefold()}
        if not named and len(candidates) == 1:
            named = set(candidates)
        return named

    def linked(self, pid: str, field: str, other: str, candidates: set[str]) -> list[Assertion]:
        return [a for a in self.claims[pid] if a.field_name == field
                and other in self.about(a, candidates)]

    def couple_claims(self, a_id: str, b_id: str) -> list[Assertion]:
        """A couple's event claims (marriage, divorce...): all of a spouse's when that is
        their only spouse, else those the other spouse's claims repeat (the same lines)."""
        def keys(pid: str) -> dict[tuple[Any, ...], Assertion]:
            return {(a.field_name, a.value, *((c.snapshot_id, c.locator.start, c.locator.end)
                                              for c in a.citations)): a
                    for a in self.claims[pid] if _couple_event(a.field_name)}

        ka, kb = keys(a_id), keys(b_id)
        out: dict[tuple[Any, ...], Assertion] = {}
        for mine, theirs, pid in ((ka, kb, a_id), (kb, ka, b_id)):
            single = len(self.spouses(pid)) == 1
            for key, claim in mine.items():
                if single or key in theirs:
                    out.setdefault(key, claim)
        return list(out.values())

    def spouses(self, pid: str) -> set[str]:
        return {s for s in self.people[pid].spouses if s in self.people}

    def relationships(self) -> tuple[list[Obj], dict[str, set[str]]]:
        rels: list[Obj] = []
        placed: dict[str, set[str]] = defaultdict(set)  # person -> couple-event claims used
        for child in self.g.persons:
            parents = {x for x in child.parents if x in self.people}
            for par in sorted(parents):
                kids = {x for x in self.people[par].children if x in self.people} | {child.id}
                items = (self.linked(child.id, "parent", par, parents)
                         + self.linked(par, "child", child.id, kids))
                rels.append(_cited({"id": self.next_id("R"), "type": GX + "ParentChild",
                                    "person1": self.person_ref(par),
                                    "person2": self.person_ref(child.id)},
                                   self.sources(items)))
        done: set[frozenset[str]] = set()
        for p in self.g.persons:
            for s in sorted(self.spouses(p.id)):
                pair = frozenset({p.id, s})
                if pair in done:
                    continue
                done.add(pair)
                items = (self.linked(p.id, "spouse", s, self.spouses(p.id))
                         + self.linked(s, "spouse", p.id, self.spouses(s)))
                rel: Obj = {"id": self.next_id("R"), "type": GX + "Couple",
                            "person1": self.person_ref(p.id), "person2": self.person_ref(s)}
                events = self.couple_claims(p.id, s)
                by_kind: dict[str, list[Assertion]] = defaultdict(list)
                for a in events:
                    by_kind[(_event_of(a.field_name) or ("", ""))[0]].append(a)
                facts = [f for kind in COUPLE_KINDS if by_kind.get(kind)
                         for f in self.event_facts(p.id, kind, by_kind[kind])]
                if facts:
                    rel["facts"] = facts
                keys = {(a.field_name, a.value) for a in events}
                for pid in pair:  # the same lines cited from the other spouse's side too
                    placed[pid].update(a.id for a in self.claims[pid]
                                       if (a.field_name, a.value) in keys)
                rels.append(_cited(rel, self.sources(items)))
        return rels, placed

    def source_description(self, snap: Snapshot) -> Obj:
        sd: Obj = {"id": self.sd[snap.id], "resourceType": GX + "DigitalArtifact"}
        if snap.url:
            sd["about"] = snap.url
        sd["mediaType"] = snap.media_type
        sd["titles"] = [{"value": snap.source_name if snap.url else file_name(snap)}]
        sd["citations"] = [{"value": evidence_citation(snap)}]
        sd["descriptions"] = [{"value": f"{snap.evidence_type} evidence, tier {int(snap.tier)}; "
                                        f"stored copy sha256 {snap.sha256}"}]
        sd["identifiers"] = {GX + "Primary": [f"urn:sleuth:snapshot:{snap.id}"]}
        return sd

    def build(self) -> Obj:
        rels, placed = self.relationships()
        persons = []
        for p in self.g.persons:
            left = [a for a in self.claims[p.id]
                    if _couple_event(a.field_name) and a.id not in placed[p.id]]
            persons.append(self.person(p, left))
        docs = [{k: v for k, v in d.items() if k != "_conflict"} for d in self.docs.values()]
        docs.extend({"id": f"H{i}", "type": GX + "Analysis", "textType": "plain",
                     "titles": [{"value": "Hypothesis (not a fact)"}], "text": h.statement}
                    for i, h in enumerate(self.g.hypotheses, 1) if not h.target_person)
        out: Obj = {
            "description": "#SD0",
            "attribution": {
                "contributor": {"resource": "#sleuth"},
                "changeMessage": "Exported by sleuth. Every conclusion cites a stored snapshot "
                                 "(CharacterRegion = character span, changeMessage = verbatim "
                                 "excerpt). Living people are redacted by sleuth's Censor.",
            },
            "persons": persons,
            "relationships": rels,
            "sourceDescriptions": [
                {"id": "SD0", "resourceType": GX + "Collection",
                 "titles": [{"value": self.g.title or "sleuth case"}],
                 "descriptions": [{"value": f"{sum(1 for p in self.g.persons if p.is_living)} "
                                            "living people redacted"}]},
                *(self.source_description(s) for s in self.g.snapshots.values()),
            ],
            "agents": [{"id": "sleuth", "names": [{"value": "sleuth"}]}],
        }
        if docs:
            out["documents"] = docs
        return out


def _fragment(raw: str, index: int) -> str:
    """A person's JSON fragment id: "P-" and the sleuth id when URI-safe, else "P<n>".

    Other generated ids (F1, N2, R3, S4, C5, H6, SD0) have no hyphen, so none collide.
    """
    return f"P-{raw}" if _SAFE_ID.match(raw) else f"P{index}"


def to_gedcomx(
    graph: CaseGraph, *, today: date | None = None, mask_names: bool = False
) -> dict[str, Any]:
    """The case as a GEDCOM X JSON document (a json.dumps-able dict), censored first."""
    return gedcomx_of_view(censor(graph, today=today, mask_names=mask_names))


def gedcomx_of_view(view: CensoredGraph) -> dict[str, Any]:
    """`to_gedcomx` of a case the caller has censored already (`censor`'s copy)."""
    return _Exporter(view).build()
