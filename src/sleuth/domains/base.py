"""The one interface a domain implements (issue 21, item 6).

The core (snapshot -> candidate -> firewall -> validate -> decide -> promote or review ->
audit) is the same for every domain; what a domain adds is declared here, once: the
entities it promotes and the fields each must carry, how it reads a stored file into
candidates, the validator's rules and the decision maker's thresholds for its candidates,
and the outputs it writes. A command asks the case's domain, never a table of formats.
"""

from __future__ import annotations

from collections.abc import Callable, Container, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sleuth.model import Candidate, InputError, Snapshot
from sleuth.pipeline.decision import Thresholds
from sleuth.pipeline.validator import Rule


@dataclass(frozen=True)
class EntityType:
    """A kind of thing the domain promotes: the candidate fields that describe it, and
    those without which one cannot be promoted (the validator's "missing fields")."""

    name: str
    description: str
    fields: Container[str]
    required: tuple[str, ...] = ()


@dataclass
class Outcome:
    """What an agent did with its blackboard task: `completed`, `requeued` (wait for later)
    or `failed` (with `error`); `output` is its `output_data`, `line` one line for progress."""

    status: str
    line: str
    output: dict[str, Any] = field(default_factory=dict)
    error: str | None = None


# An agent of the blackboard (`sleuth work`): the store, the transaction its task's writes
# commit in, and the task (`store.agent_tasks.AgentTask`) in; what it did out.
Agent = Callable[[Any, Any, Any], Outcome]

# What a domain's ingest does with one file: store it, run the pipeline, return a summary.
Ingest = Callable[..., Any]
# One output: the case (its store and folder) in, the text a user reads out. Every export
# renders a censored view (`sleuth.privacy.censor`), whatever the domain.
Export = Callable[[Any, Path], str]


@dataclass(frozen=True)
class Domain:
    """Everything the core asks of a domain; `sleuth.domains.genealogy.GENEALOGY` is the
    first implementation, documents, curation and investigations the next."""

    name: str
    description: str
    entity_types: tuple[EntityType, ...]
    extract: Callable[[Snapshot, bytes | None], list[Candidate]]
    ingest: Ingest
    rules: tuple[Rule, ...]
    thresholds: Thresholds = field(default_factory=Thresholds)
    exports: Mapping[str, Export] = field(default_factory=dict)
    export_help: Mapping[str, str] = field(default_factory=dict)
    # the blackboard's agents by the task type each does (`sleuth work`); none: no tasks
    agents: Mapping[str, Agent] = field(default_factory=dict)
    # the batch functions `sleuth work` runs on the store after its tasks, under its lock
    # (curation: the search index); the line it returns is printed
    after_work: Callable[[Any], str] | None = None
    # the line `sleuth ingest` closes with, from the store (None: genealogy's counts)
    case_line: Callable[[Any], str] | None = None

    def entity_of(self, field_name: str) -> EntityType | None:
        """The entity type a candidate field is promoted onto (None: not this domain's)."""
        for kind in self.entity_types:
            if field_name in kind.fields:
                return kind
        return None

    def export(self, fmt: str) -> Export:
        """The exporter for `fmt`, or a one-line error naming the formats there are."""
        try:
            return self.exports[fmt]
        except KeyError:
            raise InputError(f"unknown format {fmt!r} for a {self.name} case; use one of "
                             f"{', '.join(self.exports)}", field="--format") from None
