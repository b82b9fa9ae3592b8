"""`check_tree`: every data-quality check (`person_checks`, `family_checks`) over a tree, as
findings; the rules and their sources are described in `sleuth.quality.rules`."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date

from sleuth.quality.family_checks import FAMILY_CHECKS
from sleuth.quality.findings import Finding
from sleuth.quality.person_checks import PERSON_CHECKS
from sleuth.quality.rules import CheckRun
from sleuth.quality.tree import Tree


def check_tree(
    tree: Tree,
    *,
    today: date | None = None,
    mask_names: bool = False,
    only: Iterable[str] | None = None,
) -> list[Finding]:
    """Run every rule (or those whose id or source is in `only`) over the tree."""
    run = CheckRun(tree, today or date.today(), mask_names, set(only) if only else None)
    for p in tree.persons.values():
        for check in PERSON_CHECKS:
            check(run, p)
    for f in tree.families.values():
        for fcheck in FAMILY_CHECKS:
            fcheck(run, f)
    order = {"error": 0, "warning": 1, "possible": 2, "note": 3}
    run.out.sort(key=lambda x: (order.get(x.severity, 3), x.rule, x.people))
    return run.out
