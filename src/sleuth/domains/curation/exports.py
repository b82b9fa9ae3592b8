"""The curation domain's outputs (`sleuth export CASE --format F`).

- entities: JSON lines, one promoted core entity each, in seed 002's shape
  (`candidate_type`, `candidate_key`, `candidate_payload`, `evidence {text, source {doc,
  lines}}`, `evidence_type`) with its confidence, how it was promoted, and every
  equivalence that cites it again;
- equivalences: JSON lines, one per `core_equivalences` row: the core entity, the other
  key, relation and method, the reason, both citations and the conflicts found;
- conflicts: JSON lines, one per field the prose and the definition disagree on;
- review: JSON lines, the open human review queue with reasons and missing fields;
- graph: JSON lines, `{"node": ...}` then `{"edge": ...}` (`graph.build_graph`);
  graphml: the same graph as GraphML; jsonld: as JSON-LD.

Written by hand, not through a library's serialiser, so the same core gives the same bytes
(tests read the GraphML back with networkx and the JSON-LD with rdflib). Nothing here is
about a person: F´ is public engineering text, so no Censor applies.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.parse import quote
from xml.sax.saxutils import escape, quoteattr

from sleuth.domains.curation.graph import build_graph
from sleuth.store import curation as cur
from sleuth.store.store import Store

EXPORT_HELP = {
    "entities": "promoted core entities, JSON lines, each with its evidence and equivalences",
    "equivalences": "one entity seen again (prose, another name), JSON lines, both citations",
    "conflicts": "fields prose and definition disagree on, JSON lines, both citations",
    "review": "the open human review queue, JSON lines, with reasons and missing fields",
    "graph": "the entity graph, JSON lines: nodes then edges",
    "graphml": "the entity graph as GraphML",
    "jsonld": "the entity graph as JSON-LD",
}
VOCAB = "urn:sleuth:curation#"


def _lines(rows: list[dict[str, Any]]) -> str:
    return "\n".join(json.dumps(r, ensure_ascii=False, sort_keys=True) for r in rows)


def _evidence(e: cur.CoreEntity) -> dict[str, Any]:
    return {"text": e.evidence_text, "source": {"doc": e.evidence_doc, "lines": list(e.lines)}}


def entity_rows(store: Store) -> list[dict[str, Any]]:
    with store.engine.connect() as conn:
        entities = cur.core_entities(conn)
        seen: dict[str, list[dict[str, Any]]] = {}
        for q in cur.equivalences(conn):
            seen.setdefault(q.entity_id, []).append(
                {"other_key": q.other_key, "relation": q.relation, "method": q.method,
                 "citation": q.other_citation})
    return [{"candidate_type": e.entity_type, "candidate_key": e.candidate_key,
             "name": e.name, "component": e.component, "candidate_payload": e.payload,
             "confidence_score": e.confidence, "evidence": _evidence(e),
             "evidence_type": e.evidence_type, "promoted_by": e.promoted_by,
             "reason": e.reason, "equivalences": seen.get(e.id, [])} for e in entities]


def equivalence_rows(store: Store) -> list[dict[str, Any]]:
    with store.engine.connect() as conn:
        found = cur.conflicts(conn)
        out = []
        for q in cur.equivalences(conn):
            out.append({"entity_key": q.definition_key, "other_key": q.other_key,
                        "relation": q.relation, "method": q.method, "reason": q.reason,
                        "confidence": q.confidence, "definition": q.definition_citation,
                        "other": q.other_citation,
                        "conflicts": [{"field": c.field, "definition": c.definition_value,
                                       "other": c.other_value}
                                      for c in found if c.equivalence_id == q.id]})
    return out


def conflict_rows(store: Store) -> list[dict[str, Any]]:
    with store.engine.connect() as conn:
        keys = {q.id: (q.definition_key, q.other_key) for q in cur.equivalences(conn)}
        return [{"entity_key": keys[c.equivalence_id][0], "other_key": keys[c.equivalence_id][1],
                 "field": c.field, "definition_value": c.definition_value,
                 "other_value": c.other_value, "definition": c.definition_citation,
                 "other": c.other_citation} for c in cur.conflicts(conn)]


def review_rows(store: Store) -> list[dict[str, Any]]:
    with store.engine.connect() as conn:
        return [{**cur.extraction(conn, r.extraction_id).as_seed(), "priority": r.priority,
                 "reason": r.reason, "missing_fields": r.missing_fields, "origin": r.origin}
                for r in cur.review_items(conn)]


def _graph(store: Store) -> Any:
    with store.engine.connect() as conn:
        return build_graph(cur.core_entities(conn))


def _node(e: cur.CoreEntity) -> dict[str, Any]:
    return {"id": e.candidate_key, "type": e.entity_type, "name": e.name,
            "component": e.component, "module": e.module, "doc": e.evidence_doc,
            "lines": list(e.lines)}


def graph_lines(store: Store, _: Path) -> str:
    g = _graph(store)
    rows = [{"node": _node(e)} for e in g.nodes.values()]
    rows += [{"edge": {"source": d.source, "kind": d.kind, "target": d.target, **d.attrs}}
             for d in g.edges]
    return _lines(rows)


def graphml(store: Store, _: Path) -> str:
    g = _graph(store)
    node_keys = ("type", "name", "component", "module", "doc", "lines")
    edge_keys = ("kind", "member", "port", "graph", "from_port", "to_port", "connection")
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           '<graphml xmlns="http://graphml.graphdrawing.org/xmlns">']
    out += [f'  <key id="n_{k}" for="node" attr.name="{k}" attr.type="string"/>'
            for k in node_keys]
    out += [f'  <key id="e_{k}" for="edge" attr.name="{k}" attr.type="string"/>'
            for k in edge_keys]
    out.append('  <graph id="fprime" edgedefault="directed">')
    for e in g.nodes.values():
        n = _node(e)
        out.append(f"    <node id={quoteattr(e.candidate_key)}>")
        out += [f'      <data key="n_{k}">{escape(_text(n[k]))}</data>' for k in node_keys
                if n[k] is not None]
        out.append("    </node>")
    for i, d in enumerate(g.edges):
        out.append(f'    <edge id="e{i}" source={quoteattr(d.source)} '
                   f"target={quoteattr(d.target)}>")
        attrs = {"kind": d.kind, **d.attrs}
        out += [f'      <data key="e_{k}">{escape(_text(attrs[k]))}</data>' for k in edge_keys
                if attrs.get(k) is not None]
        out.append("    </edge>")
    out += ["  </graph>", "</graphml>"]
    return "\n".join(out)


def _text(v: Any) -> str:
    return v if isinstance(v, str) else json.dumps(v)


def iri(key: str) -> str:
    """A candidate key as an IRI (`urn:fprime:Svc:TlmChan`; `->`, `[`, `]` escaped)."""
    return "urn:" + quote(key, safe=":._-$")


def jsonld(store: Store, _: Path) -> str:
    g = _graph(store)
    out: dict[str, dict[str, Any]] = {}
    for key, e in g.nodes.items():
        out[key] = {"@id": iri(key), "@type": e.entity_type, "name": e.name,
                    "evidenceDoc": e.evidence_doc, "evidenceLines": list(e.lines)}
        if e.component:
            out[key]["component"] = e.component
    for d in g.edges:
        out[d.source].setdefault(d.kind, []).append({"@id": iri(d.target)})
    doc = {"@context": {"@vocab": VOCAB, "name": "http://schema.org/name"},
           "@graph": list(out.values())}
    return json.dumps(doc, ensure_ascii=False, indent=1, sort_keys=True)


def _as(rows: Any) -> Any:
    return lambda store, _: _lines(rows(store))


EXPORTS = {"entities": _as(entity_rows), "equivalences": _as(equivalence_rows),
           "conflicts": _as(conflict_rows), "review": _as(review_rows),
           "graph": graph_lines, "graphml": graphml, "jsonld": jsonld}
