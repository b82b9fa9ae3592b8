"""Graph building (seed 002: a deterministic batch function after promotion, not an agent):
nodes are the promoted core entities, edges the relations their payloads state.

- `has`: a component to each port, command, event, channel and parameter it owns;
- `typed_by`: a port to its port type (`Fw.Cmd` -> `fprime:Fw:port_type:Cmd`; a type named
  inside its module, `Cycle`, read in that module);
- `instance_of`: a deployment's component instance to its component;
- `from` / `to`: a topology connection to the instances it joins, and `connects`: one
  instance to the other, with the ports (a pattern graph has only `from`);
- `traces`: a requirement (a design document's "shall") to the component it binds, as the
  Extractor found it (`match.TRACES`): a link, never an equivalence.

An edge is drawn only where both ends were promoted (an instance of a component whose FPP
is not in the case has no `instance_of`). Nodes by key, edges by (source, kind, target):
the same core, the same graph.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from sleuth.domains.curation.match import MEMBER_TYPES, TRACES, qualified
from sleuth.store.curation import CoreEntity


@dataclass(frozen=True)
class Edge:
    source: str
    kind: str
    target: str
    attrs: dict[str, Any] = field(default_factory=dict)


@dataclass
class Graph:
    nodes: dict[str, CoreEntity]
    edges: list[Edge]


def _type_key(type_name: str) -> str:
    *module, name = type_name.split(".")
    return ":".join(["fprime", *module, "port_type", name])


def build_graph(entities: Iterable[CoreEntity]) -> Graph:
    nodes = {e.candidate_key: e for e in sorted(entities, key=lambda e: e.candidate_key)}
    by_name = {(e.entity_type, e.module, e.name): e.candidate_key for e in nodes.values()}
    instances: dict[str, list[str]] = {}
    for e in nodes.values():
        if e.entity_type == "instance":
            instances.setdefault(e.name, []).append(e.candidate_key)
    edges: list[Edge] = []

    def add(source: str | None, relation: str, target: str | None, **attrs: Any) -> None:
        if source in nodes and target in nodes:
            assert source is not None and target is not None
            edges.append(Edge(source, relation, target, attrs))

    def instance(name: Any) -> str | None:
        keys = instances.get(str(name), [])
        return keys[0] if len(keys) == 1 else None

    for key, e in nodes.items():
        p = e.payload
        if e.entity_type in MEMBER_TYPES and e.component:
            module, comp = e.component.rsplit(".", 1)
            add(by_name.get(("component", module, comp)), "has", key, member=e.entity_type)
        if e.entity_type == "port" and isinstance(p.get("type"), str):
            home = e.component.rsplit(".", 1)[0] if e.component else None
            add(key, "typed_by", _type_key(str(qualified(p["type"], home))))
        if e.entity_type == "requirement" and isinstance(p.get(TRACES), dict):
            add(key, TRACES, str(p[TRACES].get("key")), method=p[TRACES].get("method"))
        if e.entity_type == "instance" and isinstance(p.get("component"), str):
            module, _, comp = str(p["component"]).rpartition(".")
            add(key, "instance_of", by_name.get(("component", module, comp)))
        if e.entity_type == "connection":
            src, dst = p.get("from") or {}, p.get("to") or {}
            a, b = instance(src.get("instance")), instance(dst.get("instance"))
            add(key, "from", a, port=src.get("port"))
            add(key, "to", b, port=dst.get("port"))
            if a is not None and b is not None:
                add(a, "connects", b, connection=key, graph=p.get("graph"),
                    from_port=src.get("port"), to_port=dst.get("port"))
    edges.sort(key=lambda d: (d.source, d.kind, d.target, str(sorted(d.attrs.items()))))
    return Graph(nodes, edges)
