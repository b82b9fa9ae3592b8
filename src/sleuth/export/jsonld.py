"""schema.org JSON-LD export, built as plain dicts (no RDF library needed).

Shape (all nodes in one "@graph"; "@context" is `CONTEXT`: "https://schema.org" plus the
"sleuth" prefix). `sleuth.export.linked_data` expands, compacts and loads it into rdflib
offline, with the packaged schema.org context:

* `Person` - name, givenName, familyName, gender, birthDate/deathDate (ISO at the known
  precision; ranges as ISO intervals "1990/1999"), birthPlace/deathPlace as `Place`, and
  parent/children/spouse as "@id" references. `subjectOf` lists the person's life `Event`s
  by reference and, for facts that are not events (name, sex, occupation...), the citing
  `CreativeWork`s - schema.org's way to say "a work about this thing".
* `Event` per person and event type (birth, baptism, marriage, death, burial): startDate and
  location come from the recommended/most confident claim (a date no range is drawn from,
  kept as written, is "sleuth:dateAsWritten", never a startDate); `citation` lists every excerpt
  behind *any* claim of the event, so competing alternatives keep their evidence.
* Claims themselves are `PropertyValue` nodes under "sleuth:claims" (on the Event or the
  Person): propertyID is the field, value the claim, plus "sleuth:status",
  "sleuth:confidence", "sleuth:preferred", "sleuth:tentative" and a "sleuth:conflict" link.
  "sleuth" is declared in the context as the prefix of `urn:sleuth:vocab:`, so after
  expansion "sleuth:claims" is the IRI <urn:sleuth:vocab:claims> (undeclared, JSON-LD would
  keep it as an IRI of an unregistered "sleuth:" scheme).
* Only claims with at least one citation are exported (as in the report, nothing is stated
  without a source); rejected claims never are.
* A citation is a `CreativeWork` "@id" "urn:sleuth:snapshot:<sid>#char=<start>,<end>"
  (RFC 5147 fragment, so two excerpts of one snapshot never merge into one node), isPartOf
  the snapshot's own `CreativeWork` "urn:sleuth:snapshot:<sid>" (name, url or "sleuth:path",
  sha256, accessed), with text (the verbatim excerpt, or the Censor's marker), position
  ("chars a-b, p. N") and `about` pointing at the claims it supports.
* Person birthDate/deathDate/birthPlace/deathPlace come from the person's summary vitals
  (falling back to the preferred claim); their evidence is on the matching Event.
* Conflicts are `Thing` nodes (additionalType "urn:sleuth:Conflict") listing every competing
  claim with weight and rank; hypotheses are `CreativeWork` nodes (additionalType
  "urn:sleuth:Hypothesis", name "Hypothesis (not a fact)", "sleuth:isFact": false).
"""

from __future__ import annotations

from datetime import date
from typing import Any

from sleuth.export.common import (
    EVENT_FIELDS,
    EVENT_ORDER,
    claims,
    conflict_by_assertion,
    date_text,
    display_name,
    label,
    position,
    preferred,
    recommended_index,
)
from sleuth.model.graph import CaseGraph, Conflict
from sleuth.model.records import Assertion, Hypothesis, Person, Snapshot
from sleuth.privacy.redaction import censor
from sleuth.privacy.view import CensoredGraph

Node = dict[str, Any]
SLEUTH_VOCAB = "urn:sleuth:vocab:"  # sleuth's own terms, "sleuth:claims" and the like
CONTEXT: list[Any] = ["https://schema.org", {"sleuth": SLEUTH_VOCAB}]
_GENDER = {"M": "https://schema.org/Male", "F": "https://schema.org/Female"}


def person_id(pid: str) -> str:
    return f"urn:sleuth:person:{pid}"


def _ref(iri: str) -> Node:
    return {"@id": iri}


def _place(name: str | None) -> Node | None:
    return {"@type": "Place", "name": name} if name else None


def _snapshot_node(snap: Snapshot) -> Node:
    node: Node = {
        "@type": "CreativeWork",
        "@id": f"urn:sleuth:snapshot:{snap.id}",
        "name": snap.source_name,
        "encodingFormat": snap.media_type,
        "identifier": {"@type": "PropertyValue", "propertyID": "sha256", "value": snap.sha256},
        "sleuth:tier": int(snap.tier),
        "sleuth:evidenceType": str(snap.evidence_type),
        "sleuth:accessedAt": snap.accessed_at.isoformat(),
    }
    node.update(_location(snap))
    return node


def _location(snap: Snapshot | None) -> Node:
    """ "url" for web sources; a local file path is not a URL, so it gets "sleuth:path"."""
    if snap is None:
        return {}
    if snap.url:
        return {"url": snap.url}
    return {"sleuth:path": snap.path} if snap.path else {}


class _Builder:
    def __init__(self, graph: CaseGraph) -> None:
        self.g = graph
        self.conflicts = conflict_by_assertion(graph)
        self.recommended = recommended_index(graph)
        self._preferred: dict[tuple[str, str], Assertion | None] = {}

    def preferred(self, pid: str, field: str) -> Assertion | None:
        """`common.preferred`, once per person and field: a person's every claim and event
        asks for its field's, and each answer reads all the person's claims."""
        key = (pid, field)
        if key not in self._preferred:
            self._preferred[key] = preferred(self.g, pid, field, self.recommended)
        return self._preferred[key]

    def cited(self, pid: str) -> list[Assertion]:
        """Claims with at least one citation: an unsourced claim is not exported as a fact."""
        return [a for a in claims(self.g, pid) if a.citations]

    def citations(self, items: list[Assertion]) -> list[Node]:
        """One CreativeWork per distinct excerpt, `about` every claim it supports."""
        out: dict[str, Node] = {}
        for a in items:
            for c in a.citations:
                snap = self.g.snapshots.get(c.snapshot_id)
                loc = c.locator
                cid = f"urn:sleuth:snapshot:{c.snapshot_id}#char={loc.start},{loc.end}"
                node = out.get(cid)
                if node is None:
                    node = out[cid] = {
                        "@type": "CreativeWork",
                        "@id": cid,
                        "isPartOf": _ref(f"urn:sleuth:snapshot:{c.snapshot_id}"),
                        "name": snap.source_name if snap else c.snapshot_id,
                        "text": c.excerpt,
                        "position": position(c, snap),
                        "about": [],
                    }
                    node.update(_location(snap))
                node["about"].append(_ref(f"urn:sleuth:assertion:{a.id}"))
        return list(out.values())

    def claim(self, a: Assertion, pref: Assertion | None) -> Node:
        conflict: Conflict | None = self.conflicts.get(a.id)
        notes = [str(a.status), f"confidence {a.confidence:.2f}"]
        node: Node = {
            "@type": "PropertyValue",
            "@id": f"urn:sleuth:assertion:{a.id}",
            "propertyID": a.field_name,
            "name": label(a.field_name),
            "value": a.value,
            "sleuth:status": str(a.status),
            "sleuth:confidence": a.confidence,
            "sleuth:preferred": pref is not None and pref.id == a.id,
            "citation": [
                _ref(f"urn:sleuth:snapshot:{c.snapshot_id}#char={c.locator.start},{c.locator.end}")
                for c in a.citations
            ],
        }
        if a.date is not None and date_text(a.date):
            node["sleuth:date"] = date_text(a.date)
        if conflict is not None:
            node["sleuth:conflict"] = _ref(f"urn:sleuth:conflict:{conflict.id}")
            node["sleuth:tentative"] = conflict.is_tentative
            notes.append("TENTATIVE conflict" if conflict.is_tentative else "in conflict")
        if node["sleuth:preferred"]:
            notes.append("preferred")
        node["description"] = "; ".join(notes)
        return node

    def events(self, p: Person) -> list[Node]:
        grouped: dict[str, list[Assertion]] = {}
        for a in self.cited(p.id):
            if a.field_name in EVENT_FIELDS:
                grouped.setdefault(EVENT_FIELDS[a.field_name][0], []).append(a)
        nodes: list[Node] = []
        for kind in [k for k in EVENT_ORDER if k in grouped]:
            items = grouped[kind]
            node: Node = {
                "@type": "Event",
                "@id": f"urn:sleuth:event:{p.id}:{kind}",
                "name": f"{kind.capitalize()} of {display_name(p)}",
                "about": _ref(person_id(p.id)),
            }
            prefs = {f: self.preferred(p.id, f) for f in {a.field_name for a in items}}
            for field, pref in sorted(prefs.items()):
                if pref is None:
                    continue
                role = EVENT_FIELDS[field][1]
                if role == "date" and "startDate" not in node:
                    # a date no range is drawn from ("31 FEB 1900", kept as written) is no
                    # schema.org Date: it goes out as written, beside the claims
                    if date_text(pref.date):
                        node["startDate"] = date_text(pref.date)
                    else:
                        node["sleuth:dateAsWritten"] = pref.value
                elif role == "place" and "location" not in node:
                    node["location"] = _place(pref.value)
            node["citation"] = self.citations(items)
            node["sleuth:claims"] = [self.claim(a, prefs.get(a.field_name)) for a in items]
            if any(a.id in self.conflicts for a in items):
                tentative = any(
                    self.conflicts[a.id].is_tentative for a in items if a.id in self.conflicts
                )
                node["sleuth:status"] = "tentative" if tentative else "conflicting"
            nodes.append(node)
        return nodes

    def person(self, p: Person, events: list[Node]) -> Node:
        node: Node = {
            "@type": "Person",
            "@id": person_id(p.id),
            "identifier": p.id,
            "name": display_name(p),
            "sleuth:living": bool(p.is_living),
        }
        if p.given_name:
            node["givenName"] = p.given_name
        if p.surname:
            node["familyName"] = p.surname
        if p.sex in _GENDER:
            node["gender"] = _GENDER[p.sex]
        for key, gd, fallback in (
            ("birthDate", p.birth, "birth_date"),
            ("deathDate", p.death, "death_date"),
        ):
            pref = self.preferred(p.id, fallback)
            text = date_text(gd) or (date_text(pref.date) if pref else "")
            if text:
                node[key] = text
        for key, place, fallback in (
            ("birthPlace", p.birth_place, "birth_place"),
            ("deathPlace", p.death_place, "death_place"),
        ):
            pref = self.preferred(p.id, fallback)
            value = _place(place or (pref.value if pref else None))
            if value:
                node[key] = value
        for key, ids in (("parent", p.parents), ("children", p.children), ("spouse", p.spouses)):
            if ids:
                node[key] = [_ref(person_id(x)) for x in sorted(ids)]
        other = [a for a in self.cited(p.id) if a.field_name not in EVENT_FIELDS]
        subject: list[Node] = [_ref(e["@id"]) for e in events]
        subject.extend(self.citations(other))
        if subject:
            node["subjectOf"] = subject
        if other:
            node["sleuth:claims"] = [
                self.claim(a, self.preferred(p.id, a.field_name))
                for a in other
            ]
        return node

    def conflict(self, c: Conflict) -> Node:
        return {
            "@type": "Thing",
            "additionalType": "urn:sleuth:Conflict",
            "@id": f"urn:sleuth:conflict:{c.id}",
            "name": f"Conflict over {label(c.field)}",
            "about": _ref(person_id(c.person_id)),
            "description": c.rationale,
            "sleuth:field": c.field,
            "sleuth:tentative": c.is_tentative,
            "sleuth:recommendedValue": c.recommended_value,
            "sleuth:recommended": _ref(f"urn:sleuth:assertion:{c.recommended_assertion_id}"),
            "sleuth:competing": [
                {
                    "@id": f"urn:sleuth:assertion:{rc.assertion_id}",
                    "value": rc.value,
                    "sleuth:weight": rc.weight,
                    "sleuth:rank": rc.rank,
                    "sleuth:evidenceType": rc.evidence_type,
                    "sleuth:tier": rc.tier,
                    "sleuth:confidence": rc.confidence,
                    "sleuth:reason": rc.reason,
                }
                for rc in sorted(c.competing, key=lambda r: r.rank)
            ],
            "potentialAction": [{"@type": "SearchAction", "name": x} for x in c.next_actions],
        }

    def hypothesis(self, h: Hypothesis) -> Node:
        node: Node = {
            "@type": "CreativeWork",
            "additionalType": "urn:sleuth:Hypothesis",
            "@id": f"urn:sleuth:hypothesis:{h.id}",
            "name": "Hypothesis (not a fact)",
            "text": h.statement,
            "genre": h.hypothesis_type,
            "creativeWorkStatus": h.status,
            "sleuth:isFact": False,
            "sleuth:priority": h.priority,
            "sleuth:suggestedQueries": list(h.suggested_queries),
            "sleuth:suggestedSources": list(h.suggested_sources),
        }
        if h.target_person:
            node["about"] = _ref(person_id(h.target_person))
        if h.evidence:
            node["citation"] = [
                {
                    "@type": "CreativeWork",
                    "@id": f"urn:sleuth:snapshot:{c.snapshot_id}#char={c.locator.start},"
                    f"{c.locator.end}",
                    "isPartOf": _ref(f"urn:sleuth:snapshot:{c.snapshot_id}"),
                    "text": c.excerpt,
                    "position": position(c, self.g.snapshots.get(c.snapshot_id)),
                }
                for c in h.evidence
            ]
        return node

    def build(self) -> Node:
        nodes: list[Node] = [
            {
                "@type": "Dataset",
                "@id": "urn:sleuth:case",
                "name": self.g.title or "sleuth case",
                "sleuth:reviewOpen": self.g.review_open,
                "sleuth:livingRedacted": sum(1 for p in self.g.persons if p.is_living),
                "sleuth:redactionCount": len(self.g.redactions),
            }
        ]
        for p in self.g.persons:
            events = self.events(p)
            nodes.append(self.person(p, events))
            nodes.extend(events)
        nodes.extend(_snapshot_node(s) for s in self.g.snapshots.values())
        nodes.extend(self.conflict(c) for c in self.g.conflicts)
        nodes.extend(self.hypothesis(h) for h in self.g.hypotheses)
        return {"@context": ["https://schema.org", {"sleuth": SLEUTH_VOCAB}], "@graph": nodes}


def to_jsonld(
    graph: CaseGraph, *, today: date | None = None, mask_names: bool = False
) -> dict[str, Any]:
    """The case as a schema.org JSON-LD document (a json.dumps-able dict), censored first."""
    return jsonld_of_view(censor(graph, today=today, mask_names=mask_names))


def jsonld_of_view(view: CensoredGraph) -> dict[str, Any]:
    """`to_jsonld` of a case the caller has censored already (`censor`'s copy)."""
    return _Builder(view).build()
