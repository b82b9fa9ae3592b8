"""Two case graphs equal as every output reads them: conflicts and the redaction log in any
order (the workbench's kept case against a fresh read; `LiveCensor` against `censor`)."""

from __future__ import annotations

import json

from sleuth.model import CaseGraph


def assert_same(kept: CaseGraph, fresh: CaseGraph, *, with_log: bool = True) -> None:
    """`with_log`: the redaction log too (the workbench keeps none)."""
    assert kept.title == fresh.title
    assert [p.id for p in kept.persons] == [p.id for p in fresh.persons]
    assert kept.persons == fresh.persons
    assert kept.assertions.keys() == fresh.assertions.keys()
    for pid, claims in fresh.assertions.items():
        assert kept.assertions[pid] == claims, pid
    assert kept.snapshots == fresh.snapshots
    assert sorted(kept.conflicts, key=lambda c: c.id) == sorted(fresh.conflicts,
                                                                key=lambda c: c.id)
    assert kept.hypotheses == fresh.hypotheses
    assert kept.review_open == fresh.review_open
    assert kept.extra_parents == fresh.extra_parents

    def log(g: CaseGraph) -> list[str]:
        return sorted(json.dumps(r, sort_keys=True, default=str) for r in g.redactions)

    if with_log:
        assert log(kept) == log(fresh)
