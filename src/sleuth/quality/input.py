"""Problems of the input files as findings (issue 26, strict input).

A GEDCOM file checked with `sleuth check FILE.ged` is read leniently and lists every
problem the strict reader found (`sleuth.gedcom.validate`); a case lists the problems its
files were stored with (`sleuth ingest --lenient`, or the warnings a strict ingest accepts),
kept in each snapshot's metadata. A problem the strict default refuses a file for is an
"error", one it only warns about (an extension tag's pointer to nothing) a "warning". The rule
set is "input"; a message names the file, line and field and quotes no value.
"""

from __future__ import annotations

from collections.abc import Iterable

from sleuth.model.errors import InputProblem
from sleuth.quality.findings import Finding

SOURCE = "input"
# kind -> title, one rule per kind of problem
TITLES = {
    "line": "Not a GEDCOM line",
    "level": "GEDCOM level jump",
    "duplicate_xref": "Duplicate xref",
    "dangling_pointer": "Pointer to a missing record",
    "partner_repeated": "Family with two husbands or two wives",
    "head": "No HEAD record",
    "trailer": "No TRLR record",
    "charset": "Character set undeclared, unknown or contradicted by the bytes",
    "control_character": "NUL or control character",
    "json": "JSON that does not parse",
    "json_shape": "JSON of no known record shape",
}
RULE_IDS = tuple(f"input_{k}" for k in TITLES)


def input_findings(found: Iterable[tuple[str, InputProblem]],
                   only: Iterable[str] | None = None) -> list[Finding]:
    """A finding per (file, problem); `only` filters by rule id or the set "input"."""
    keep = set(only) if only is not None else None
    out: list[Finding] = []
    for file, p in found:
        rule = f"input_{p.kind}"
        if keep is not None and rule not in keep and SOURCE not in keep:
            continue
        out.append(Finding(
            rule=rule,
            severity="error" if p.refuse else "warning",
            people=(),
            message=f"{TITLES.get(p.kind, 'Input problem')}: {p.error(file)}",
            source=SOURCE,
        ))
    return out
