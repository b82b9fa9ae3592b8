"""An independent census of FPP definitions by line regexes (for tests and the benchmark).

It shares nothing with `fpp`: no tokens, no statements, no blocks. Each definition keyword
starts a line in these files (`guarded input port TlmRecv: Fw.Tlm`, `async command X`,
`event X`, `telemetry X: T`, `param X: T`, `port X`, `instance x: T`, `a.b -> c.d`), so a
regex per keyword on each line finds them; the owner of a component member is the last
`component` line above it (for an `.fppi`, above the line that includes it).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

Entry = tuple[str, str | None, str]  # (candidate type, owning component or None, name)

_NAME = r"\$?(\w+)"
_RULES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("component", re.compile(rf"^\s*(?:active|passive|queued)\s+component\s+{_NAME}")),
    ("port", re.compile(rf"^\s*(?:sync|async|guarded)\s+input\s+port\s+{_NAME}")),
    ("port", re.compile(rf"^\s*(?:output|internal)\s+port\s+{_NAME}")),
    ("port", re.compile(r"^\s*(?:command\s+(?:recv|reg|resp)|text\s+event|event|time\s+get|"
                        rf"telemetry|param\s+(?:get|set))\s+port\s+{_NAME}")),
    ("port_type", re.compile(rf"^\s*port\s+{_NAME}")),
    ("command", re.compile(rf"^\s*(?:sync\s+|async\s+|guarded\s+)?command\s+{_NAME}\b"
                           r"(?!\s+(?:port|instance)\b)")),
    ("event", re.compile(rf"^\s*event\s+{_NAME}\b(?!\s+(?:port|instance)\b)")),
    ("telemetry", re.compile(rf"^\s*telemetry\s+{_NAME}\s*:")),
    ("parameter", re.compile(rf"^\s*param\s+{_NAME}\s*:")),
    ("instance", re.compile(rf"^\s*instance\s+{_NAME}\s*:")),
    ("connection", re.compile(r"^\s*((?:\w+\s+)?\w+\s+connections\s+instance\s+\$?\w+)")),
    ("connection", re.compile(r"^\s*([\w$.\[\]]+\s*->\s*[\w$.\[\]]+)\s*$")),
)
_COMPONENT = re.compile(r"^\s*(?:active|passive|queued)\s+component\s+(\w+)")
_PATTERN = re.compile(r"\s+connections\s+instance\s+")
_INCLUDE = re.compile(r'^\s*include\s+"([^"]+)"')


def census_file(text: str, owner: str | None = None) -> list[tuple[Entry, int]]:
    """Every definition line of one file as ((type, owner, name), line)."""
    out: list[tuple[Entry, int]] = []
    for n, line in enumerate(text.splitlines(), 1):
        if line.lstrip().startswith(("#", "@")):
            continue
        comp = _COMPONENT.match(line)
        for kind, rule in _RULES:
            m = rule.match(line)
            if m:
                name = _PATTERN.sub(":", m.group(1))
                name = name if ":" in name else re.sub(r"\s+", "", name)
                name = name.replace("$", "")
                owned = None if kind in ("component", "port_type", "instance", "connection") \
                    else owner
                out.append(((kind, owned, name), n))
                break
        if comp:
            owner = comp.group(1)
    return out


def census(files: Mapping[str, str]) -> dict[str, list[tuple[Entry, int]]]:
    """The census of every `.fpp` file and, under the owner that includes it, every
    `.fppi` (found by its flattened name: the including file's folder + `__` + its name)."""
    out: dict[str, list[tuple[Entry, int]]] = {}
    for doc in sorted(files):
        if not doc.endswith(".fpp"):
            continue
        out[doc] = census_file(files[doc])
        owner: str | None = None
        for line in files[doc].splitlines():
            comp = _COMPONENT.match(line)
            if comp:
                owner = comp.group(1)
            inc = _INCLUDE.match(line)
            if inc:
                target = f"{doc.rsplit('__', 1)[0]}__{inc.group(1)}"
                if target in files:
                    out[target] = census_file(files[target], owner)
    return out
