"""Candidates from an F´ software design document (SDD Markdown), at MEDIUM or LOW confidence.

What the prose states, not what it implies: the component its title names (MEDIUM 0.60:
a strong cue, its kind not stated), each row of a port table (MEDIUM 0.65 with name, type,
direction and kind; 0.55 when the table leaves one or two of them out), and each "shall"
statement that names the component it binds (LOW 0.40: narrative, seed 002's "single
mention"), a requirement of its own (named by its id, or by the component when it has none)
that traces to that component, never the component itself. The SDD names are its own
(`Svc::CmdDispatcher`, whose FPP component is `CommandDispatcher`): matching them to the FPP
definitions is the equivalence (or, for a requirement, trace) step, not this.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from sleuth.domains.curation.model import CurationCandidate, evidence_at, line_starts

TITLE, PORT_FULL, PORT_PARTIAL, SHALL = 0.60, 0.65, 0.55, 0.40

_TITLE = re.compile(r"^#\s+`?(\w+)::(\w+)`?")
_LINK = re.compile(r"\[`?([^`\]]+)`?\]\([^)]*\)")
_TAG = re.compile(r"<[^>]+>")
_SHALL = re.compile(r"\bshall\b", re.IGNORECASE)
_REQ_ID = re.compile(r"^([A-Z][A-Z0-9-]*-\d+)\s*\|")


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def _clean(cell: str) -> str:
    """A cell's plain words: links, anchors and backticks taken off, `::` written `.`."""
    cell = _LINK.sub(r"\1", _TAG.sub("", cell))
    return cell.replace("`", "").replace("::", ".").strip()


def _owner(text: str, doc: str) -> tuple[str, str]:
    for line in text.splitlines()[:5]:
        m = _TITLE.match(line)
        if m:
            return m.group(1), m.group(2)
    parts = doc.split("__")
    return parts[0], parts[1] if len(parts) > 1 else parts[0]


def sdd_candidates(text: str, doc: str) -> list[CurationCandidate]:
    """Every candidate one SDD states, its evidence the line that states it."""
    return list(_iter(text, doc))


def _iter(text: str, doc: str) -> Iterator[CurationCandidate]:
    module, comp = _owner(text, doc)
    owner = f"{module}.{comp}"
    starts = line_starts(text)
    lines = text.splitlines()
    for n, line in enumerate(lines, 1):
        if _TITLE.match(line):
            yield CurationCandidate(
                candidate_type="component", candidate_key=f"fprime:{module}:{comp}",
                candidate_payload={"name": comp, "module": module, "kind": None},
                confidence_score=TITLE,
                confidence_reason="SDD title names the component; its kind is not stated",
                evidence=evidence_at(text, doc, (n, n), starts), evidence_type="design_table")
            break
    header: list[str] | None = None
    for n, line in enumerate(lines, 1):
        if "|" not in line:
            header = None
            continue
        cells = _cells(line)
        if all(set(c) <= set("-: ") for c in cells):
            continue
        if header is None:
            header = [c.lower() for c in cells]
            continue
        if "name" in header and ("direction" in header or "kind" in header or "role" in header):
            cand = _port_row(header, cells, owner, module, comp)
            if cand is not None:
                payload, score, reason = cand
                yield CurationCandidate(
                    candidate_type="port",
                    candidate_key=f"fprime:{module}:{comp}:port:{payload['name']}",
                    candidate_payload=payload, confidence_score=score, confidence_reason=reason,
                    evidence=evidence_at(text, doc, (n, n), starts), evidence_type="design_table")
    for n, line in enumerate(lines, 1):
        if not _SHALL.search(line) or not re.search(rf"\b{comp}\b", line):
            continue  # a "shall" that does not name the component binds it to nothing
        rid = _REQ_ID.match(line.strip())
        words = _clean(_cells(line)[1] if rid else line)
        yield CurationCandidate(
            candidate_type="requirement",
            candidate_key=f"fprime:{module}:{comp}" + (f":requirement:{rid.group(1)}"
                                                       if rid else f":shall:L{n}"),
            candidate_payload={"name": rid.group(1) if rid else comp, "component": owner,
                               "requirement": {"id": rid.group(1) if rid else None,
                                               "text": words}},
            confidence_score=SHALL,
            confidence_reason="A 'shall' statement binds the component (narrative, one mention)",
            evidence=evidence_at(text, doc, (n, n), starts), evidence_type="requirement")


def _port_row(header: list[str], cells: list[str], owner: str, module: str, comp: str
              ) -> tuple[dict[str, object], float, str] | None:
    row = dict(zip(header, cells, strict=False))
    name = _clean(row.get("name", ""))
    if not re.fullmatch(r"\w+", name):
        return None
    type_cell = next((row[h] for h in ("port data type", "port", "type") if h in row
                      and "::" in row[h]), "")
    direction = _clean(row.get("direction", "")).lower() or None
    kind = _clean(row.get("kind", row.get("type", "") if "port" in header else "")).lower()
    if kind in ("", "n/a"):
        kind = "output" if direction == "output" else ""
    kind = {"asynchronous": "async", "synchronous": "sync", "synchronous input": "sync"}.get(
        kind, kind.split(" ")[0] if kind else "")
    if direction is None and kind:
        direction = "output" if kind == "output" else "input"
    payload: dict[str, object] = {"name": name, "component": owner,
                                  "type": _clean(type_cell) or None,
                                  "direction": direction, "kind": kind or None}
    if "role" in row:
        payload["role"] = _clean(row["role"])
    missing = [k for k in ("type", "direction", "kind") if not payload[k]]
    if missing:
        return payload, PORT_PARTIAL, (f"SDD port table row; {', '.join(missing)} not stated")
    return payload, PORT_FULL, "SDD port table row with type, direction and kind (not formal)"
