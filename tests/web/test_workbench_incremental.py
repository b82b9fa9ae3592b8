"""The workbench keeps its case across decisions (issue 23: a page after a decision in under
200 ms on 10,000 persons): after every kind of decision - accept, reject, edit, a merge,
its split, a bulk accept - the case it holds and its censored copy are exactly what reading
and censoring the whole case again give, and it read the whole case only once. (The
Censor's side on its own, new secrets included: tests/privacy/test_live_censor.py; the
report's pages made from that kept case: tests/web/test_report_paged.py.)"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from workbench_case import build_case

from graph_same import assert_same as same
from sleuth.cli.common import open_case
from sleuth.pipeline import review as ops
from sleuth.pipeline.ingest import ingest_path
from sleuth.privacy import censor
from sleuth.resolve import split as split_cluster
from sleuth.resolve.explain import Proposal
from sleuth.resolve.review import enqueue_proposals
from sleuth.store import Store, case_graph
from sleuth.store.workbench import clusters_of
from sleuth.web.app import Workbench, create_app
from sleuth.web.views import CaseView


def check(view: CaseView, store: Store) -> None:
    raw = case_graph(store)
    same(view.raw(), raw)
    same(view.graph(), censor(raw), with_log=False)
    assert view.reloads == 1, "the whole case was read again"


def open_item(view: CaseView, text: str, field: str | None = None) -> dict[str, Any]:
    for item in view.queue("open"):
        if text in str(item["excerpt"]) + str(item["value"]) and (
                field is None or item["field"] == field):
            return item
    raise AssertionError(f"no open item with {text!r}")


@pytest.fixture
def case(tmp_path: Path) -> Path:
    case = build_case(tmp_path, more=True)
    store = open_case(case)
    try:
        ids = {p.canonical_name: p.id for p in case_graph(store).persons}
        enqueue_proposals(store, [Proposal(
            a=ids["Emma Whitfield"], b=ids["Emma"], probability=0.9,
            recommended_action="review", features={"given": {"level": "exact", "weight": 2.5}},
            merge_rationale="the same given name; both Robert Whitfield's daughter",
            why_not_merge="the obituary gives no surname")])
    finally:
        store.close()
    return case


def test_every_kind_of_decision_leaves_the_case_as_a_fresh_read_gives_it(case: Path) -> None:
    store = open_case(case)
    try:
        view = CaseView(store)
        view.warm()
        check(view, store)
        ops.accept(store, int(open_item(view, "1884", "birth_date")["id"]), reason="r")
        check(view, store)
        ops.reject(store, int(open_item(view, "1882", "birth_date")["id"]), reason="r")
        check(view, store)
        item = open_item(view, "Clark County, Ohio", "birth_place")
        ops.edit(store, int(item["id"]), value="Clark County, Ohio", reason="r")
        check(view, store)
        merge = open_item(view, "", "same_person")
        ops.accept(store, int(merge["id"]), reason="one daughter")
        check(view, store)
        emma = next(p.id for p in view.raw().persons if p.canonical_name == "Emma Whitfield")
        (cluster,) = clusters_of(store, emma)
        split_cluster(store, cluster["id"], reason="two after all")
        check(view, store)
        rest = [int(i["id"]) for i in view.queue("open")]
        for rid in rest:
            try:
                ops.accept(store, rid, reason="bulk")
            except Exception:
                ops.reject(store, rid, reason="refused")
        check(view, store)
        assert not view.queue("open")
    finally:
        store.close()


def test_a_change_the_audit_log_cannot_place_reads_the_whole_case(case: Path) -> None:
    store = open_case(case)
    try:
        view = CaseView(store)
        view.warm()
        with store.transaction() as tx:
            store.audit(tx, "something_new", "mystery", "x", None, None, "test")
        view.graph()
        assert view.reloads == 2
        check_fresh = censor(case_graph(store))
        same(view.graph(), check_fresh, with_log=False)
    finally:
        store.close()


def bench_of(store: Store, case: Path) -> Workbench:
    bench: Workbench = create_app(store, case_dir=case, warm=True).app.state.bench  # type: ignore[attr-defined]
    return bench


def demo_decisions(folder: Path, check: Callable[[Workbench, Store], object]) -> None:
    """`sleuth demo`'s case in `folder`, `check`ed at first and after each of its review
    items is decided (accept and reject in turn)."""
    proc = subprocess.run([sys.executable, "-m", "sleuth", "demo", "--out", str(folder)],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    store = open_case(folder)
    try:
        bench = bench_of(store, folder)
        check(bench, store)
        items = [int(i["id"]) for i in bench.view.queue("open")]
        assert items
        for n, rid in enumerate(items):
            try:
                (ops.accept if n % 2 == 0 else ops.reject)(store, rid, reason="demo")
            except Exception:
                ops.reject(store, rid, reason="refused")
            check(bench, store)
    finally:
        store.close()


PARENTS = """0 HEAD
1 GEDC
2 VERS 5.5.1
1 CHAR UTF-8
0 @I1@ INDI
1 NAME Anna /Lee/
1 SEX F
1 BIRT
2 DATE 1850
1 FAMC @F1@
0 @I2@ INDI
1 NAME John /Lee/
1 SEX M
1 FAMS @F1@
0 @I3@ INDI
1 NAME Mary /Hale/
1 SEX F
1 FAMS @F1@
0 @I4@ INDI
1 NAME Anna /Lee/
1 SEX F
1 BIRT
2 DATE 1850
1 FAMC @F2@
0 @I5@ INDI
1 NAME John /Lee/
1 SEX M
1 FAMS @F2@
0 @I6@ INDI
1 NAME Ruth /Kent/
1 SEX F
1 FAMC @F3@
1 FAMC @F4@
0 @I7@ INDI
1 NAME Paul /Kent/
1 SEX M
1 FAMS @F3@
0 @I8@ INDI
1 NAME Jane /Kent/
1 SEX F
1 FAMS @F3@
0 @I9@ INDI
1 NAME Carl /Stone/
1 SEX M
1 FAMS @F4@
0 @I10@ INDI
1 NAME Ella /Stone/
1 SEX F
1 FAMS @F4@
0 @F1@ FAM
1 HUSB @I2@
1 WIFE @I3@
1 CHIL @I1@
0 @F2@ FAM
1 HUSB @I5@
1 CHIL @I4@
0 @F3@ FAM
1 HUSB @I7@
1 WIFE @I8@
1 CHIL @I6@
0 @F4@ FAM
1 HUSB @I9@
1 WIFE @I10@
1 CHIL @I6@
0 TRLR
"""


def test_merges_and_splits_give_the_extra_parents_a_fresh_read_gives(tmp_path: Path) -> None:
    """Two records of one father merged, then the two records of his daughter (one with her
    mother), then the father split again: the daughter has three parents, a conflict the
    case shows (`extra_parents`), until she is split too. The kept case's are a fresh
    read's after each step."""
    case = tmp_path / "case"
    Store.create_case(case).close()
    (tmp_path / "tree.ged").write_text(PARENTS, encoding="utf-8")
    store = open_case(case)
    try:
        ingest_path(store, tmp_path / "tree.ged")
        ids: dict[str, list[str]] = {}
        for p in case_graph(store).persons:
            ids.setdefault(p.canonical_name, []).append(p.id)
        johns, annas = sorted(ids["John Lee"]), sorted(ids["Anna Lee"])
        view = CaseView(store)
        view.warm()
        check(view, store)
        seen = []

        def merge(a: str, b: str) -> None:
            enqueue_proposals(store, [Proposal(
                a=a, b=b, probability=0.9, recommended_action="review", features={},
                merge_rationale="one person", why_not_merge="r")])
            ops.accept(store, int(open_item(view, "", "same_person")["id"]), reason="one")
            check(view, store)
            seen.append({k: len(v) for k, v in view.raw().extra_parents.items()})

        def split(a: str) -> None:
            (cluster,) = clusters_of(store, view.canonical(a))
            split_cluster(store, cluster["id"], reason="two after all")
            check(view, store)
            seen.append({k: len(v) for k, v in view.raw().extra_parents.items()})

        merge(*johns)
        merge(*annas)
        split(johns[0])
        anna = view.canonical(annas[0])
        split(annas[0])
        assert seen == [{}, {}, {anna: 1}, {}]
    finally:
        store.close()
