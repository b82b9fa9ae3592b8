"""FPP definitions (`fpp.Decl`) as seed 002 candidates, scored by the seed's rubric.

A formal FPP definition is HIGH (seed 002: "formal definition, F´ vocabulary match"): 0.95
when the file states every field the entity type requires, 0.90 where one comes from F´'s
own rules rather than the text (a special port's type, a telemetry channel's default
`update always`, the owner of an included `.fppi`). An entity whose required field no
definition can give (an internal port has no port type) keeps its score and goes to review
with the field named (the Decision Maker's "high but incomplete").
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from sleuth.domains.curation.fpp import Decl, read, read_tree
from sleuth.domains.curation.model import CurationCandidate, EvidenceKind, evidence_at, line_starts

FORMAL, IMPLIED = 0.95, 0.90
_EVIDENCE: dict[str, EvidenceKind] = {
    "component": "formal_definition", "port_type": "interface_contract",
    "port": "interface_contract", "command": "interface_contract",
    "telemetry": "formal_definition", "event": "formal_definition",
    "parameter": "formal_definition", "instance": "topology", "connection": "topology",
}


def _dotted(scope: tuple[str, ...]) -> str:
    return ".".join(scope)


def key_of(kind: str, scope: tuple[str, ...], name: str, graph: str | None = None) -> str:
    """The candidate key: `fprime:Svc:TlmChan` for a component, `fprime:Svc:TlmChan:port:
    TlmRecv` for what a component owns, `fprime:Fw:port_type:Cmd`, `fprime:Ref:instance:
    cmdDisp`, `fprime:Ref:Ref:connection:Downlink:tlmSend.PktSend->downlink.comIn`."""
    parts = ["fprime", *scope]
    if kind == "component":
        parts.append(name)
    elif kind == "connection":
        parts += ["connection", *([] if name.startswith(f"{graph}:") else [graph or ""]), name]
    else:
        parts += [kind, name]
    return ":".join(p.replace(" ", "_") for p in parts)


def payload_of(d: Decl) -> dict[str, Any]:
    """The typed fields seed 002 and issue 25 name for each candidate type."""
    f = d.fields
    base: dict[str, Any] = {"name": d.name}
    if d.description:
        base["description"] = d.description
    if d.kind == "component":
        return base | {"module": _dotted(d.scope), "kind": f.get("kind"),
                       "definition_lines": [d.start, f.get("block_end", d.end)]}
    if d.kind == "port_type":
        return base | {"module": _dotted(d.scope), "params": f.get("params", []),
                       "return_type": f.get("return_type")}
    if d.kind in ("instance",):
        return base | {"module": _dotted(d.scope), "component": f.get("component"),
                       "base_id": f.get("base_id"), "queue_size": f.get("queue_size"),
                       "stack_size": f.get("stack_size"), "priority": f.get("priority")}
    if d.kind == "connection":
        return base | {"topology": _dotted(d.scope), "graph": f.get("graph"),
                       "pattern": f.get("pattern"), "from": f.get("source"), "to": f.get("target")}
    owned = base | {"component": _dotted(d.scope)}
    keep: tuple[str, ...]
    if d.kind == "port":
        keep = ("type", "size", "direction", "kind", "special", "params")
    elif d.kind == "command":
        keep = ("kind", "opcode", "args")
    elif d.kind == "telemetry":
        keep = ("type", "update", "id", "format", "limits")
    elif d.kind == "event":
        keep = ("severity", "format", "id", "args", "throttle")
    else:  # parameter
        keep = ("type", "default", "id", "set_opcode", "save_opcode")
    return owned | {k: f[k] for k in keep if k in f}


def _score(d: Decl, included: bool) -> tuple[float, str]:
    f = d.fields
    what = {"port_type": "port type", "instance": "component instance"}.get(d.kind, d.kind)
    implied: list[str] = []
    if d.kind == "port" and f.get("special"):
        implied.append(f"its type {f['type']} from F´'s special port kind '{f['kind']}'")
    if d.kind == "telemetry" and not f.get("update_stated"):
        implied.append("update policy 'always' by FPP's default")
    if d.kind == "command" and not f.get("kind_stated"):
        implied.append("kind 'async' by FPP's default")
    if included:
        implied.append("owner from the including component's `include`")
    if implied:
        return IMPLIED, f"Formal FPP {what} definition; {'; '.join(implied)}"
    if d.kind == "port" and f.get("kind") == "internal":
        return FORMAL, "Formal FPP internal port definition (an internal port has no port type)"
    return FORMAL, f"Formal FPP {what} definition with complete signature"


ENTITY_KINDS = frozenset(_EVIDENCE)


def to_candidates(decls: Iterable[Decl], texts: Mapping[str, str],
                  included_docs: frozenset[str] = frozenset()) -> Iterator[CurationCandidate]:
    """One candidate per entity definition (modules, topologies, graphs and includes are
    structure, not candidates), its evidence the file's text at the definition's lines."""
    starts: dict[str, list[int]] = {}
    for d in decls:
        if d.kind not in ENTITY_KINDS:
            continue
        text = texts[d.doc]
        if d.doc not in starts:
            starts[d.doc] = line_starts(text)
        score, reason = _score(d, d.doc in included_docs)
        yield CurationCandidate(
            candidate_type=d.kind,  # type: ignore[arg-type]  # ENTITY_KINDS == CandidateType
            candidate_key=key_of(d.kind, d.scope, d.name, d.fields.get("graph")),
            candidate_payload=payload_of(d), confidence_score=score, confidence_reason=reason,
            evidence=evidence_at(text, d.doc, d.lines, starts[d.doc]),
            evidence_type=_EVIDENCE[d.kind])


def folder_candidates(files: Mapping[str, str]) -> list[CurationCandidate]:
    """Every FPP candidate of a folder's `.fpp` files, includes followed (`fpp.read_tree`)."""
    fppi = frozenset(n for n in files if n.endswith(".fppi"))
    return list(to_candidates(read_tree(files), files, fppi))


def file_candidates(text: str, doc: str) -> list[CurationCandidate]:
    """The candidates of one file on its own. A `.fppi` has no component around it: its
    owner is read from its flattened name (`Svc__BufferManager__Events.fppi` ->
    `Svc.BufferManager`, the folder that holds it), and each candidate says so."""
    if doc.endswith(".fppi"):
        scope = tuple(doc.split("__")[:-1])
        return list(to_candidates(read(text, doc, scope, "component"), {doc: text},
                                  frozenset({doc})))
    return list(to_candidates(read(text, doc), {doc: text}))
