"""Is a candidate an entity the core already holds? (seed 002's `find_duplicates`)

Pure functions over the promoted core entities. A prose candidate names what the SDD calls
it (`Svc::CmdDispatcher`, port `cmdSend`); its formal definition may use another name
(`component CommandDispatcher`, `output port compCmdSend`). The rules, in order, each
accepted only when exactly one definition fits:

- component: the same key (same name, same module); else the one component whose FPP file
  lives in the SDD's own directory (`Svc/CmdDispatcher/docs/sdd.md` and
  `Svc/CmdDispatcher/CmdDispatcher.fpp`: F´ keeps a component's design document beside its
  definition), named "renamed" when the names differ.
- a member (port, command, event, channel, parameter): its owner resolved as above, then
  the same name in that component; else the same name but for letter case with the same
  direction; else a name whose words are the other's with words left out (`cmdSend`,
  `compCmdSend`) with the same type and direction.

`disagreements` then lists the fields the two state differently (a port's type, kind or
direction; a command's arguments), each to be kept as a conflict with both citations.

A requirement (a "shall" statement) is never the same entity as anything the FPP defines:
only entities of one type are equivalent. Its component, found as above, is what it traces
to (relation `traces`): a link between two entities, not an equivalence.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from sleuth.store.curation import CoreEntity

MEMBER_TYPES = ("port", "command", "event", "telemetry", "parameter")
TRACES = "traces"  # a requirement's relation to its component, and the payload field naming it
# Fields compared between a definition and its prose; the rest describe, or are the name.
COMPARED: dict[str, tuple[str, ...]] = {
    "component": ("kind",), "port": ("type", "direction", "kind"),
    "command": ("kind", "opcode", "args"), "event": ("severity", "format", "args"),
    "telemetry": ("type", "update"), "parameter": ("type", "default"),
}


@dataclass(frozen=True)
class Counterpart:
    """The core entity a candidate is, how that was found, and how sure."""

    entity: CoreEntity
    relation: str  # same_name | renamed (the same entity) | traces (a requirement's component)
    method: str
    reason: str
    confidence: float


def directory(doc: str) -> str:
    """The repository folder of a flattened file name: `Svc__CmdDispatcher__docs__sdd.md`
    and `Svc__CmdDispatcher__CmdDispatcher.fpp` are both `Svc/CmdDispatcher`."""
    parts = doc.split("__")[:-1]
    if parts and parts[-1] == "docs":
        parts = parts[:-1]
    return "/".join(parts)


def words(name: str) -> list[str]:
    """A camelCase name's words, lower case (`compCmdSend` -> comp, cmd, send)."""
    return [w.lower() for w in re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+", name)]


def _within(short: list[str], long: list[str]) -> bool:
    """`short`'s words appear in `long` in order, with some left out."""
    it = iter(long)
    return len(short) < len(long) and all(w in it for w in short)


def qualified(type_name: Any, module: str | None) -> Any:
    """A type named inside a module (`Cycle` in `module Svc`) by its full name."""
    if isinstance(type_name, str) and type_name and "." not in type_name and module:
        return f"{module}.{type_name}"
    return type_name


def _module_of(entity: CoreEntity) -> str | None:
    if entity.component:
        return entity.component.rsplit(".", 1)[0]
    return entity.module


class Definitions:
    """The core entities, indexed to answer `counterpart` (kept up to date with `add` as
    the Decision Maker promotes)."""

    def __init__(self, entities: Iterable[CoreEntity] = ()) -> None:
        self.by_key: dict[str, CoreEntity] = {}
        self.components_in: dict[str, list[CoreEntity]] = defaultdict(list)
        self.members: dict[tuple[str, str], list[CoreEntity]] = defaultdict(list)
        for e in entities:
            self.add(e)

    def add(self, e: CoreEntity) -> None:
        if e.candidate_key in self.by_key:
            return
        self.by_key[e.candidate_key] = e
        if e.entity_type == "component":
            self.components_in[directory(e.evidence_doc)].append(e)
        elif e.entity_type in MEMBER_TYPES and e.component:
            self.members[(e.component, e.entity_type)].append(e)

    def component(self, module: str, name: str, doc: str) -> Counterpart | None:
        """The component an SDD names `module::name`."""
        same = self.by_key.get(f"fprime:{module}:{name}")
        if same is not None:
            return Counterpart(same, "same_name", "same_key",
                               f"the FPP defines component {module}.{name}", 0.90)
        here = [c for c in self.components_in.get(directory(doc), []) if c.module == module]
        if len(here) == 1:
            c = here[0]
            return Counterpart(
                c, "renamed", "same_directory",
                f"{doc} and {c.evidence_doc} share the folder {directory(doc)}, whose one "
                f"component is {module}.{c.name} (the SDD says {module}::{name})", 0.85)
        return None

    def counterpart(self, candidate_type: str, payload: Mapping[str, Any], doc: str
                    ) -> Counterpart | None:
        """The core entity a (prose) candidate is, or None (none fits, or several do); for
        a requirement, the component it traces to (`traces`), never itself."""
        if candidate_type == "component":
            return self.component(str(payload.get("module")), str(payload.get("name")), doc)
        owner = str(payload.get("component") or "")
        if candidate_type not in (*MEMBER_TYPES, "requirement") or "." not in owner:
            return None
        module, comp = owner.rsplit(".", 1)
        found = self.component(module, comp, doc)
        if found is None:
            return None
        if candidate_type == "requirement":
            return replace(found, relation=TRACES)
        return self._member(candidate_type, payload, found)

    def _member(self, kind: str, payload: Mapping[str, Any], owner: Counterpart
                ) -> Counterpart | None:
        name = str(payload.get("name") or "")
        pool = self.members.get((f"{owner.entity.module}.{owner.entity.name}", kind), [])
        where = f"{owner.entity.module}.{owner.entity.name}"
        renamed_owner = owner.relation == "renamed"
        exact = [e for e in pool if e.name == name]
        if len(exact) == 1:
            return Counterpart(exact[0], "same_name",
                               "same_name_renamed_owner" if renamed_owner else "same_key",
                               f"{where} defines {kind} {name}", 0.90)
        direction = payload.get("direction")
        agree = [e for e in pool if e.name.lower() == name.lower()
                 and direction in (None, e.payload.get("direction"))]
        if len(agree) == 1:
            e = agree[0]
            return Counterpart(e, "same_name", "same_name_but_case",
                               f"{where} defines {kind} {e.name} (the SDD writes {name}), "
                               f"direction {e.payload.get('direction')}", 0.85)
        mine = words(name)
        module = owner.entity.module
        sig = [e for e in pool
               if (_within(mine, words(e.name)) or _within(words(e.name), mine))
               and payload.get("type") is not None
               and qualified(payload.get("type"), module)
               == qualified(e.payload.get("type"), module)
               and direction is not None and direction == e.payload.get("direction")]
        if len(sig) == 1:
            e = sig[0]
            return Counterpart(
                e, "renamed", "name_words_and_signature",
                f"{where} defines {kind} {e.name}: the SDD's {name} is its name with words "
                f"left out, with the same type {e.payload.get('type')} and direction "
                f"{direction}, and no other {kind} of {where} fits", 0.80)
        return None


def disagreements(candidate_type: str, definition: Mapping[str, Any],
                  other: Mapping[str, Any], module: str | None) -> list[tuple[str, Any, Any]]:
    """(field, the definition's value, the other's value) for each compared field both
    state and state differently (types compared by their full names)."""
    out: list[tuple[str, Any, Any]] = []
    for fld in COMPARED.get(candidate_type, ()):
        mine, theirs = definition.get(fld), other.get(fld)
        if mine in (None, "", [], {}) or theirs in (None, "", [], {}):
            continue
        if fld == "type":
            mine, theirs = qualified(mine, module), qualified(theirs, module)
        if mine != theirs:
            out.append((fld, definition.get(fld), other.get(fld)))
    return out


def module_of(entity: CoreEntity) -> str | None:
    """The module a definition's unqualified type names are read in."""
    return _module_of(entity)
