"""Graph building (seed 002 "Pipeline Functions (Not Agents)"): nodes and edges from the
promoted entities, deterministically, no model.

A node is a promoted entity (its key, type, name and citation). Edges come from the fields
the entity's definition states (`candidate_payload`), only between promoted entities (seed
002: an edge whose target is not an entity is not drawn; it is listed in `missing`):

- `has_port`, `has_command`, `has_event`, `has_telemetry`, `has_parameter`: a component to
  what it owns (`component: Svc.TlmChan` -> `fprime:Svc:TlmChan`);
- `typed_by`: a port to its port type (`type: Fw.Cmd` -> `fprime:Fw:port_type:Cmd`);
- `instance_of`: a topology instance to its component;
- `from` and `to`: a connection to the instances at its ends, and `connects` from the one
  instance to the other (with the connection's key, ports and graph).

Pure functions: the same entities give the same graph, in the same order. The exports
(`sleuth export --format graph`) and search read it; nothing stores it (it is rebuilt
from `core_entities` whenever asked).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

OWNS = {"port": "has_port", "command": "has_command", "event": "has_event",
        "telemetry": "has_telemetry", "parameter": "has_parameter"}


@dataclass(frozen=True)
class GraphEntity:
    """What the graph needs of a promoted entity."""

    key: str
    entity_type: str
    name: str
    payload: Mapping[str, Any]
    snapshot_id: str = ""
    doc: str = ""
    lines: tuple[int, int] = (0, 0)


@dataclass(frozen=True)
class Edge:
    source: str
    target: str
    relation: str
    attributes: Mapping[str, Any] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        return {"source": self.source, "target": self.target, "relation": self.relation,
                **({"attributes": dict(self.attributes)} if self.attributes else {})}


@dataclass
class Graph:
    nodes: list[GraphEntity]
    edges: list[Edge]
    missing: list[Edge]  # edges whose target (or source) is not a promoted entity

    def as_json(self) -> dict[str, Any]:
        return {
            "nodes": [{"id": n.key, "type": n.entity_type, "name": n.name,
                       "citation": {"snapshot_id": n.snapshot_id, "doc": n.doc,
                                    "lines": list(n.lines)}} for n in self.nodes],
            "edges": [e.as_json() for e in self.edges],
            "missing": [e.as_json() for e in self.missing],
        }


def _dotted_key(dotted: str, kind: str | None = None) -> str:
    """`Svc.TlmChan` -> `fprime:Svc:TlmChan`; with a kind, `Fw.Cmd` -> `fprime:Fw:port_type:Cmd`."""
    parts = [p for p in str(dotted).split(".") if p]
    if kind and parts:
        parts = [*parts[:-1], kind, parts[-1]]
    return ":".join(["fprime", *parts])


def _instance_key(topology: str, instance: str) -> str:
    """An instance of topology `Ref.Ref` lives in module `Ref`: `fprime:Ref:instance:cmdDisp`."""
    module = str(topology).split(".")[:-1] or [str(topology)]
    return ":".join(["fprime", *module, "instance", instance])


def _edges_of(e: GraphEntity) -> Iterable[Edge]:
    p = e.payload
    if e.entity_type in OWNS and p.get("component"):
        yield Edge(_dotted_key(p["component"]), e.key, OWNS[e.entity_type])
    if e.entity_type == "port" and p.get("type"):
        yield Edge(e.key, _dotted_key(p["type"], "port_type"), "typed_by")
    if e.entity_type == "instance" and p.get("component"):
        yield Edge(e.key, _dotted_key(p["component"]), "instance_of")
    if e.entity_type == "connection" and p.get("topology"):
        ends: dict[str, dict[str, Any]] = {}
        for side in ("from", "to"):
            end = p.get(side)
            if isinstance(end, Mapping) and end.get("instance"):
                ends[side] = dict(end)
                yield Edge(e.key, _instance_key(p["topology"], end["instance"]), side,
                           {k: v for k, v in end.items() if k != "instance" and v is not None})
        if len(ends) == 2:
            yield Edge(_instance_key(p["topology"], ends["from"]["instance"]),
                       _instance_key(p["topology"], ends["to"]["instance"]), "connects",
                       {"connection": e.key, "graph": p.get("graph"),
                        "from_port": ends["from"].get("port"), "to_port": ends["to"].get("port")})


def build_graph(entities: Iterable[GraphEntity]) -> Graph:
    """The graph of these promoted entities: nodes by key, edges by (source, relation,
    target), each edge once."""
    nodes = sorted({e.key: e for e in entities}.values(), key=lambda n: n.key)
    keys = {n.key for n in nodes}
    edges: dict[tuple[str, str, str, str], Edge] = {}
    missing: dict[tuple[str, str, str, str], Edge] = {}
    for n in nodes:
        for edge in _edges_of(n):
            ident = (edge.source, edge.relation, edge.target,
                     str(sorted(edge.attributes.items())))
            (edges if edge.source in keys and edge.target in keys else missing)[ident] = edge
    return Graph(nodes, [edges[k] for k in sorted(edges)], [missing[k] for k in sorted(missing)])
