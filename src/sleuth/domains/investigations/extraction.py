"""EXTRACTION: the captured sources read into `_extraction.json`, deterministically.

The documents domain's extractors read official prose, Swedish and English
(`documents.timeline`: dated process events; `documents.entities`: people, ministries,
committees in roles); on top of them this module finds

- appointments: a person in a role, dated by the appointment event that precedes them in
  the same passage, with the verb the source uses ("tillkallades", "appointed");
- statements: what a body proposes or decides, or someone says, sentence by sentence
  ("OSK lägger fram förslag …", "the committee recommended …");
- people without a role in English prose (`sleuth.extract.names`): private persons, whom
  the legal review keeps out of the deliverable while they may be living;
- contradictions: one person's appointment to one role dated differently by two sources;
- sources to capture: documents the sources cite by designation ("SOU 1972:47").

Every item carries its source id, page, printed page label and the verbatim span.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import asdict, dataclass, field
from typing import Any

from sleuth.domains.documents.entities import Mention, entity_key, extract_mentions
from sleuth.domains.documents.rules import title_of
from sleuth.domains.documents.timeline import Event, actors_at, appointers, extract_events
from sleuth.domains.investigations.appointed import appointment_date
from sleuth.domains.investigations.model import SourceRecord, short_id
from sleuth.domains.investigations.naming import (
    OFFICE_HEAD,
    Form,
    apposition,
    name_forms,
    said_by,
    said_verbs,
)
from sleuth.domains.investigations.proposals import proposer, proposes
from sleuth.domains.investigations.prose import (
    join_split_words,
    one_line,
    page_of,
    sentence_bounds,
    sentence_spans,
)
from sleuth.extract.given import is_personal_name
from sleuth.extract.person_names import parse_name
from sleuth.model import Snapshot

APPOINTED_ROLES = ("chair", "member", "expert", "secretary")  # a minister is not appointed
# to the inquiry: named in office, a public person, listed by mention
_APPOINT_VERB = re.compile(r"tillkallades|förordnades|förordnade|förordnats|tillkallats|utsågs|"
                           r"utnämndes|anställdes|har\s+arbetat|har\s+tjänstgjort|"
                           r"\bappointed\b|\bnamed\b|\bselected\b|\belected\b", re.I)
_TRIGGER = {
    "directive_issued": re.compile(r"beslut\w*|bemyndigade|direktiv|\bdecided\b|\bdecision\b|"
                                   r"directive", re.I),
    "member_appointed": _APPOINT_VERB,
    "committee_formed": re.compile(r"tillsattes|inledde|\bset up\b|\bformed\b", re.I),
    "report_submitted": re.compile(r"överlämna\w*|\bsubmitted\b|\bhanded\b|\bpresented\b",
                                   re.I),
    "other": re.compile(r"träda\s+i\s+kraft|träder\s+i\s+kraft|\benter\w* into force\b|"
                        r"shall apply|beslut|\bdecision\b|föreslås", re.I),
}
_PROPOSAL = re.compile(r"\bförslag\b|\bföreslå\w*|\blägger fram\b|\bpropos\w+|\brecommend\w*",
                       re.I)
_SAID = re.compile(r"\buttalade\b|\banförde\b|\bsaid\b|\bstated\b|\bannounced\b|\bdeclared\b",
                   re.I)
_ABBR = re.compile(r"\(([A-ZÅÄÖ]{2,6})\)")
_DESIGNATION = re.compile(r"\b(SOU|Dir\.|Prop\.)\s?(\d{4}(?:/\d{2})?):\s?(\d+)")
_NOT_SPEAKER = frozenset({"SOU", "TF", "ADB", "EU"})  # a designation or a law, no body
_ASSISTANT = re.compile(r"biträdande|assistant|deputy|vice", re.I)
MAX_STATEMENTS = 6  # per source: the first, in text order (a report states its case first)


@dataclass
class Extraction:
    iteration: int = 0
    people: list[dict[str, Any]] = field(default_factory=list)
    entities: list[dict[str, Any]] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)
    appointments: list[dict[str, Any]] = field(default_factory=list)
    statements: list[dict[str, Any]] = field(default_factory=list)
    claims: list[dict[str, Any]] = field(default_factory=list)
    contradictions: list[dict[str, Any]] = field(default_factory=list)
    sources_to_capture: list[dict[str, Any]] = field(default_factory=list)
    committees: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Extraction:
        known = set(cls.__dataclass_fields__)
        return cls(**{k: v for k, v in data.items() if k in known})

    def facts(self) -> set[str]:
        """Keys of everything found (novelty: how much of an iteration's is new)."""
        return ({f"p:{p['key']}" for p in self.people} | {f"e:{e['key']}" for e in
                                                           self.entities}
                | {f"v:{e['id']}" for e in self.events} | {f"s:{s['id']}" for s in
                                                             self.statements}
                | {f"a:{a['id']}" for a in self.appointments})


def _span(snap: Snapshot, sid: str, start: int, end: int) -> dict[str, Any]:
    page, label = page_of(snap, start)
    return {"source": sid, "start": start, "end": end, "page": page, "page_label": label,
            "quote": one_line(snap.text[start:end])}


def _first(pattern: re.Pattern[str], text: str) -> str:
    m = pattern.search(text)
    return one_line(m.group(0)) if m else ""


def _event(snap: Snapshot, sid: str, ev: Event) -> dict[str, Any]:
    a, b = ev.citation.locator.start, ev.citation.locator.end
    head = re.match(r"[^.!?\n]{0,12}[.!?)]+\s+", snap.text[a:b])
    if head:  # the excerpt begins with the tail of the sentence before
        a += head.end()
    pattern = _TRIGGER.get(ev.event_type, _TRIGGER["other"])
    own = sentence_bounds(snap.text, ev.start, ev.end)
    if pattern.search(join_split_words(snap.text[own[0]:own[1]])) or own[1] - own[0] >= 60:
        a, b = own  # the date's own sentence, not the one before that the excerpt reached
    else:  # a dateline ("Stockholm ijuni 1972."): the sentence before says what happened
        a, b = sentence_bounds(snap.text, min(a, ev.start), max(b, ev.end))
    trigger = _first(pattern, join_split_words(snap.text[a:b]))
    return {"id": short_id(sid, ev.event_type, ev.date.original or "", str(ev.start)),
            "event_type": ev.event_type, "event": ev.description,
            "date": ev.date.earliest.isoformat() if ev.date.earliest else "",
            "precision": ev.date.precision, "date_original": one_line(ev.date.original or ""),
            "date_start": ev.start, "date_end": ev.end, "trigger": trigger,
            "entities_involved": _involved(snap.text, a, b, ev),
            **_span(snap, sid, a, b)}


def _involved(text: str, a: int, b: int, ev: Event) -> list[str]:
    """The names an event governs in text[a:b]; in an appointment, the appointed, never the
    minister who appoints them (as the documents domain's timeline reads it)."""
    names = actors_at(text, a, b, ev.start, ev.end)
    if ev.event_type != "member_appointed":
        return names
    appointer = appointers(text, a, b)
    return [n for n in names if n not in appointer]


def _appointment(snap: Snapshot, sid: str, m: Mention, events: list[dict[str, Any]]
                 ) -> dict[str, Any] | None:
    """The appointment a role mention reports, dated by its own sentence (`appointed`), else
    by the last appointment event before it in the same passage (700 characters)."""
    if m.role not in APPOINTED_ROLES or m.kind != "person":
        return None
    text = snap.text
    own = sentence_bounds(text, m.start, m.end)
    dated = appointment_date(text, own[0], m.start, m.end)
    before = [e for e in events if e["event_type"] == "member_appointed"
              and e["date_start"] < m.start and m.start - e["date_start"] < 700]
    ev = None if dated else (before[-1] if before else None)
    if dated:
        a, b = sentence_bounds(text, min(dated.date_start, m.start), max(m.end, dated.start))
        ev = next((e for e in events if e["event_type"] == "member_appointed"
                   and e["date"] == dated.iso), None)
    else:
        a, b = sentence_bounds(text, ev["date_start"] if ev else m.start, m.end)
    window = join_split_words(text[max(0, m.start - 120):m.start])
    role_text = one_line(m.role_text)
    if m.role == "secretary" and _ASSISTANT.search(window.split("sekreterare")[0][-25:]
                                                   if "sekreterare" in window else ""):
        role_text = f"{_first(_ASSISTANT, window)} {role_text}"
    when = {"date": dated.iso, "date_original": dated.original, "date_phrase": dated.phrase,
            "since": dated.since} if dated else {
        "date": ev["date"] if ev else "", "date_original": ev["date_original"] if ev else "",
        "date_phrase": "", "since": False}
    return {"id": short_id(sid, entity_key(m.name), m.role, str(m.start)),
            "name": one_line(m.name), "key": entity_key(m.name), "role": m.role,
            "role_text": role_text, "assistant": role_text.lower() != one_line(m.role_text
                                                                            ).lower(),
            **when, "event": ev["id"] if ev else "",
            "verb": _first(_APPOINT_VERB, join_split_words(text[own[0]:own[1]])),
            "name_start": m.start, **_span(snap, sid, a, b)}


def _statements(snap: Snapshot, sid: str, title: str, forms: list[Form] | None = None
                ) -> list[dict[str, Any]]:
    """A source's proposals and reported sayings; a saying attributed to the person its
    sentence names at the verb ("Mr. Hughes said", `naming.said_by`) when `forms` (the
    names of an English source) has them."""
    out: list[dict[str, Any]] = []
    seen: set[tuple[int, int]] = set()
    for m in _PROPOSAL.finditer(snap.text):
        a, b = sentence_bounds(snap.text, m.start(), m.end())
        if (a, b) in seen or not 25 <= b - a <= 420:
            continue
        seen.add((a, b))
        sentence = join_split_words(snap.text[a:b])
        abbr = [w for w in _ABBR.findall(sentence) if w not in _NOT_SPEAKER]
        initial = re.match(r"\W*([A-ZÅÄÖ]{2,6})\s+[a-zåäö]", sentence)  # "OSK får …"
        speaker = proposer(sentence) or (initial.group(1) if initial and initial.group(1)
                                         not in _NOT_SPEAKER else "") or (abbr[0] if abbr else "")
        # a sentence that only mentions a proposal ("de ändringar utredningen föreslår") is
        # listed as such, never quoted as the inquiry's proposal
        kind = "proposal" if proposes(sentence) else "proposal mentioned"
        out.append({"id": short_id(sid, "statement", str(a)), "kind": kind,
                    "speaker": speaker, "venue": title, "summary": one_line(sentence),
                    **_span(snap, sid, a, b)})
        if len(out) >= MAX_STATEMENTS:
            break
    for m in _SAID.finditer(snap.text):
        a, b = sentence_bounds(snap.text, m.start(), m.end())
        if (a, b) in seen or not 25 <= b - a <= 420:
            continue
        seen.add((a, b))
        who = next((w for v0, v1 in said_verbs(snap.text, a, b)
                    if (w := said_by(snap.text, a, b, v0, v1, forms or []))), "")
        out.append({"id": short_id(sid, "statement", str(a)), "kind": "reported",
                    "speaker": who, "venue": title,
                    "summary": one_line(join_split_words(snap.text[a:b])),
                    **_span(snap, sid, a, b)})
        if len(out) >= 2 * MAX_STATEMENTS:
            break
    return out


def person_key(name: str) -> str:
    """`entity_key`, but a title with a surname alone keeps its title: "Mrs. Wilson" is not
    "Mr. Wilson" ("wilson|mrs", "wilson|mr"), nor "President Wilson" either."""
    parsed = parse_name(name)
    office = OFFICE_HEAD.match(name)
    if office and len(name[office.end():].split()) == 1:
        return f"{entity_key(name[office.end():])}|{office.group(0).strip().lower()}"
    if parsed.titles and not parsed.given and parsed.surname:
        return f"{entity_key(parsed.surname)}|{parsed.titles[0].rstrip('.').lower()}"
    return entity_key(name)


def _english_people(snap: Snapshot, sid: str, people: dict[str, dict[str, Any]],
                    forms: list[Form]) -> None:
    """People English prose names (`naming.name_forms`), one entry per key and a mention for
    each form it takes in this source, with the office before it and the role an apposition
    after it states (`naming.apposition`)."""
    known = set(people)  # named in an office by the documents' reader: theirs already
    spans = sentence_spans(snap.text)
    starts = [a for a, _ in spans]
    for form in forms:
        name = one_line(form.text)
        key = person_key(name)
        if key in known or not key or not (form.office or is_personal_name(name)):
            continue
        p = people.setdefault(key, {"name": name, "key": key, "public": False,
                                    "mentions": []})
        if any(m["source"] == sid and m.get("form") == name for m in p["mentions"]):
            continue
        at = bisect_right(starts, form.start) - 1  # its sentence as `sentence_spans` cuts
        lo, hi = spans[at] if at >= 0 and form.end <= spans[at][1] else sentence_bounds(
            snap.text, form.start, form.end)  # it: "Chas E. Hughes, ..." whole, past "E."
        p["mentions"].append({"role": "", "role_text": "", "form": name,
                              "office": form.office,
                              "apposition": apposition(snap.text, form.end),
                              **_span(snap, sid, lo, hi)})


def extract_source(rec: SourceRecord, snap: Snapshot) -> Extraction:
    """One captured source's people, bodies, events, appointments and statements."""
    sid = rec.id
    title = rec.title or title_of(snap) or rec.path
    out = Extraction()
    events = sorted((_event(snap, sid, ev) for ev in extract_events(snap)),
                    key=lambda e: e["date_start"])
    out.events = events
    mentions = extract_mentions(snap)
    people: dict[str, dict[str, Any]] = {}
    bodies: dict[str, dict[str, Any]] = {}
    for m in mentions:
        rec_m = {"role": m.role, "role_text": one_line(m.role_text),
                 **_span(snap, sid, m.citation.locator.start, m.citation.locator.end)}
        if m.kind == "person":
            p = people.setdefault(entity_key(m.name), {"name": one_line(m.name),
                                                      "key": entity_key(m.name),
                                                      "public": True, "mentions": []})
            p["mentions"].append(rec_m)
            app = _appointment(snap, sid, m, events)
            if app:
                out.appointments.append(app)
        else:
            b = bodies.setdefault(entity_key(m.name), {"name": one_line(m.name),
                                                      "key": entity_key(m.name),
                                                      "type": m.kind, "mentions": []})
            b["mentions"].append(rec_m)
            if m.kind == "committee":
                a, z = sentence_bounds(snap.text, m.start, m.end)
                sentence = join_split_words(snap.text[a:z])
                abbr = _ABBR.search(snap.text[m.end:m.end + 12])
                out.committees.append({
                    "id": short_id(sid, "committee", entity_key(m.name)),
                    "name": one_line(m.name), "key": entity_key(m.name),
                    "abbreviation": abbr.group(1) if abbr else "",
                    "verb": _first(re.compile(r"antagit namnet|antog namnet|adopted the name|"
                                              r"named itself|took the name", re.I), sentence),
                    **_span(snap, sid, a, max(z, m.end + (abbr.end() if abbr else 0)))})
    forms = name_forms(snap.text) if rec.language == "en" else []
    if forms:  # private persons: named in prose without an office
        _english_people(snap, sid, people, forms)
    out.people = list(people.values())
    out.entities = list(bodies.values())
    out.statements = _statements(snap, sid, title, forms)
    own = {title}
    for d in _DESIGNATION.finditer(snap.text):
        des = f"{d.group(1)} {d.group(2)}:{d.group(3)}"
        if des not in own and all(s["designation"] != des for s in out.sources_to_capture):
            out.sources_to_capture.append({"designation": des, "query": f"{d.group(2)}:"
                                           f"{d.group(3)}", "reason": f"cited by {sid}",
                                           "priority": "MEDIUM"})
    return out


def merge(parts: list[Extraction], iteration: int, titles: set[str] | None = None
          ) -> Extraction:
    """The sources' extractions as one: people and bodies by name key across sources
    (every mention kept), the rest side by side, then the contradictions between them."""
    out = Extraction(iteration=iteration)
    people: dict[str, dict[str, Any]] = {}
    bodies: dict[str, dict[str, Any]] = {}
    for part in parts:
        for p in part.people:
            q = people.setdefault(p["key"], {**p, "mentions": []})
            q["public"] = q["public"] or p["public"]
            q["mentions"] += p["mentions"]
        for b in part.entities:
            c = bodies.setdefault(b["key"], {**b, "mentions": []})
            c["mentions"] += b["mentions"]
        out.events += part.events
        out.appointments += part.appointments
        out.statements += part.statements
        out.committees += part.committees
        for s in part.sources_to_capture:
            if all(t["designation"] != s["designation"] for t in out.sources_to_capture):
                out.sources_to_capture.append(s)
    for p in people.values():
        p["roles"] = sorted({m["role"] for m in p["mentions"] if m["role"]})
        p["sources"] = sorted({m["source"] for m in p["mentions"]})
        p["needs_investigation"] = len(p["sources"]) < 2
    out.people = sorted(people.values(), key=lambda p: p["name"])
    out.entities = sorted(bodies.values(), key=lambda b: b["name"])
    out.contradictions = _contradictions(out.appointments)
    out.claims = [{"id": a["id"], "text": f"{a['name']}: {a['role']} ({a['date'] or 'undated'})",
                   "position": a["source"], "needs_verification": True}
                  for a in out.appointments] + [
        {"id": s["id"], "text": s["summary"], "position": s["speaker"] or s["source"],
         "needs_verification": True} for s in out.statements]
    # a document already captured (its title is its designation) is no source to capture
    out.sources_to_capture = [s for s in out.sources_to_capture
                              if s["designation"] not in (titles or set())]
    return out


def _contradictions(apps: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One person's appointment to one role dated differently by two sources."""
    by: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for a in apps:
        if a["date"]:
            by.setdefault((a["key"], a["role"]), []).append(a)
    out = []
    for (key, role), group in sorted(by.items()):
        dates = sorted({a["date"] for a in group})
        if len(dates) > 1 and len({a["source"] for a in group}) > 1:
            out.append({"id": short_id("contradiction", key, role), "key": key, "role": role,
                        "name": group[0]["name"],
                        "description": f"{group[0]['name']}'s appointment as {role} is dated "
                                       + " and ".join(dates) + " by different sources",
                        "positions": [{"source": a["source"], "date": a["date"],
                                       "appointment": a["id"]} for a in group],
                        "sources": sorted({a["source"] for a in group})})
    return out
