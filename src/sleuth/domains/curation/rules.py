"""The curation domain's entity types (the fields each must carry), validator rules and
decision thresholds: declared here, read by the pipeline, never hard-coded in it."""

from __future__ import annotations

from sleuth.domains.base import EntityType
from sleuth.domains.curation.model import StagedCuration
from sleuth.model import Candidate
from sleuth.pipeline.decision import Thresholds
from sleuth.pipeline.validator import EvidencePresent, Finding, Rule

# candidate type -> (description, the payload fields without which it is not promoted)
REQUIRED: dict[str, tuple[str, tuple[str, ...]]] = {
    "component": ("an F´ component (kind active, passive or queued)", ("name", "module", "kind")),
    "port_type": ("a port type and its parameters (and return type)", ("name", "module")),
    "port": ("a component's port instance: type, direction, kind sync/async/guarded/output "
             "or special", ("name", "component", "type", "direction", "kind")),
    "command": ("a command: opcode when stated, arguments, kind sync/async/guarded",
                ("name", "component", "kind")),
    "telemetry": ("a telemetry channel: type and update policy",
                  ("name", "component", "type", "update")),
    "event": ("an event: severity and format string", ("name", "component", "severity", "format")),
    "parameter": ("a parameter: type and default", ("name", "component", "type")),
    "instance": ("a component instance of a deployment", ("name", "component")),
    "connection": ("a dependency: a topology connection from one port to another, or a "
                   "pattern graph", ("name", "topology", "graph", "from")),
    "requirement": ("a requirement a design document states ('shall'), traced to the "
                    "component it binds", ("name", "component", "requirement")),
}
ENTITY_TYPES = tuple(EntityType(kind, what, frozenset({kind}), required=req)
                     for kind, (what, req) in REQUIRED.items())
# Seed 002's own cut-offs: promoted from 0.80 with every required field, reviewed from 0.50.
THRESHOLDS = Thresholds(auto_promote=0.80, normal_review=0.50)


class RequiredPayload:
    """Seed 002's "missing fields" for one candidate type: its payload must carry each
    field the type requires (`REQUIRED`), or the candidate goes to review naming them."""

    def __init__(self, candidate_type: str) -> None:
        self.candidate_type = candidate_type
        self.required = REQUIRED[candidate_type][1]
        self.name = f"required_{candidate_type}_fields"

    def __call__(self, c: Candidate) -> Finding | None:
        if c.field != self.candidate_type:
            return None
        payload = c.payload if isinstance(c, StagedCuration) else {}
        missing = tuple(f for f in self.required if payload.get(f) in (None, "", [], {}))
        if missing:
            return Finding("needs_more_evidence", f"Missing required fields: {list(missing)}",
                           f"Extract {list(missing)} from source document", missing)
        return None


class NarrativeCapped:
    """Seed 002: a narrative- or requirement-only candidate above 0.6 needs more evidence."""

    name = "narrative_capped"

    def __call__(self, c: Candidate) -> Finding | None:
        kind = c.evidence_kind if isinstance(c, StagedCuration) else ""
        if kind in ("narrative", "requirement") and c.confidence > 0.6:
            return Finding("needs_more_evidence", "Confidence too high for narrative-only "
                           "evidence", "Find formal definition or additional sources")
        return None


RULES: tuple[Rule, ...] = (EvidencePresent(), NarrativeCapped(),
                           *(RequiredPayload(k) for k in REQUIRED))
