"""Graph building from promoted entities (issue 25 item 7): nodes and edges from what each
definition states, only between promoted entities, deterministic."""

from __future__ import annotations

import random
from pathlib import Path

from shared_data import shared_path
from sleuth.domains.curation import folder_candidates
from sleuth.domains.curation.graph import GraphEntity, build_graph


def _e(key: str, etype: str, **payload: object) -> GraphEntity:
    return GraphEntity(key, etype, key.rsplit(":", 1)[-1], payload)


ENTITIES = [
    _e("fprime:Svc:TlmChan", "component", module="Svc", kind="active"),
    _e("fprime:Svc:TlmChan:port:TlmRecv", "port", component="Svc.TlmChan", type="Fw.Tlm"),
    _e("fprime:Fw:port_type:Tlm", "port_type", module="Fw"),
    _e("fprime:Svc:TlmChan:port:Run", "port", component="Svc.TlmChan", type="Svc.Sched"),
    _e("fprime:Ref:instance:tlmSend", "instance", component="Svc.TlmChan"),
    _e("fprime:Ref:instance:downlink", "instance", component="Svc.Framer"),
    _e("fprime:Ref:Ref:connection:Downlink:tlmSend.PktSend->downlink.comIn", "connection",
       topology="Ref.Ref", graph="Downlink",
       **{"from": {"instance": "tlmSend", "port": "PktSend", "index": None},
          "to": {"instance": "downlink", "port": "comIn", "index": None}}),
]


def test_edges_from_the_definitions_between_promoted_entities() -> None:
    g = build_graph(ENTITIES)
    got = {(e.source.rsplit(":", 1)[-1], e.relation, e.target.rsplit(":", 1)[-1])
           for e in g.edges}
    conn = "tlmSend.PktSend->downlink.comIn"
    assert got == {("TlmChan", "has_port", "TlmRecv"), ("TlmChan", "has_port", "Run"),
                   ("TlmRecv", "typed_by", "Tlm"), ("tlmSend", "instance_of", "TlmChan"),
                   (conn, "from", "tlmSend"), (conn, "to", "downlink"),
                   ("tlmSend", "connects", "downlink")}
    # targets that were not promoted are not drawn, but listed
    assert {(e.relation, e.target) for e in g.missing} == {
        ("typed_by", "fprime:Svc:port_type:Sched"), ("instance_of", "fprime:Svc:Framer")}
    connects = next(e for e in g.edges if e.relation == "connects")
    assert connects.as_json()["attributes"] == {
        "connection": ENTITIES[-1].key, "graph": "Downlink", "from_port": "PktSend",
        "to_port": "comIn"}


def test_the_same_entities_give_the_same_graph_in_any_order() -> None:
    shuffled = ENTITIES[:]
    random.Random(7).shuffle(shuffled)
    assert build_graph(shuffled).as_json() == build_graph(ENTITIES).as_json()
    assert [n["id"] for n in build_graph(ENTITIES).as_json()["nodes"]] == sorted(
        e.key for e in ENTITIES)


def test_the_fprime_folder_as_a_graph() -> None:
    folder = Path(shared_path("documents", "fprime"))
    files = {p.name: p.read_text(encoding="utf-8") for p in sorted(folder.iterdir())
             if p.suffix in (".fpp", ".fppi")}
    cands = folder_candidates(files)
    g = build_graph(GraphEntity(c.candidate_key, c.candidate_type, c.name,
                                c.candidate_payload, "", c.evidence.source.doc,
                                c.evidence.source.lines) for c in cands)
    rel = {r: sum(1 for e in g.edges if e.relation == r) for r in
           ("has_port", "has_command", "has_event", "has_telemetry", "has_parameter")}
    assert rel == {"has_port": 80, "has_command": 11, "has_event": 46, "has_telemetry": 16,
                   "has_parameter": 2}  # every owned definition hangs off its component
    keys = {n.key for n in g.nodes}
    assert all(e.source in keys and e.target in keys for e in g.edges)
    # the instances of the nine components in the folder find them
    inst = {e.target for e in g.edges if e.relation == "instance_of"}
    assert "fprime:Svc:CommandDispatcher" in inst and "fprime:Ref:RecvBuff" in inst
