"""Data-quality findings on the tree so far become clue hypotheses and corroboration
revisits in the research loop (never facts), once each, even when the pass is redone."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import select

from sleuth.loop import resolution, tasking
from sleuth.loop.invariants import violations
from sleuth.loop.quality import NOT_LEADS
from sleuth.loop.queues import ClueQueue, FrontierQueue, NoveltyGuard, TaskSpec
from sleuth.loop.runtime import Runtime
from sleuth.loop.state import RunConfig, SeedPerson
from sleuth.pipeline import ingest_path
from sleuth.sources.fetcher import Fetcher
from sleuth.sources.registry import load_registry
from sleuth.store import Store
from sleuth.store import schema as t

# Death recorded 40 years before birth; a mother born after her son.
TREE = """0 HEAD
1 GEDC
2 VERS 5.5.1
1 CHAR UTF-8
0 @I1@ INDI
1 NAME Josiah /Pettibone/
1 SEX M
1 BIRT
2 DATE 12 MAR 1841
2 PLAC Hartford, Connecticut
1 DEAT
2 DATE 3 JUN 1801
1 FAMC @F1@
0 @I2@ INDI
1 NAME Abigail /Pettibone/
1 SEX F
1 BIRT
2 DATE 1850
1 DEAT
2 DATE 1910
1 FAMS @F1@
0 @F1@ FAM
1 WIFE @I2@
1 CHIL @I1@
0 TRLR
"""


def _runtime(case: Path) -> Runtime:
    store = Store.create_case(case)
    registry = load_registry(case)
    config = RunConfig(seed=SeedPerson(name="Josiah Pettibone", given="Josiah",
                                       surname="Pettibone"))
    return Runtime(case, store, registry, Fetcher(store, registry), config,
                   FrontierQueue(store), ClueQueue(store), NoveltyGuard())


def test_findings_become_clues_and_revisits_once(tmp_path: Path) -> None:
    ged = tmp_path / "tree.ged"
    ged.write_text(TREE, encoding="utf-8")
    rt = _runtime(tmp_path / "case")
    try:
        ingest_path(rt.store, ged)
        with rt.store.engine.connect() as conn:
            p = t.persons.c
            ids = {n: i for n, i in conn.execute(select(p.canonical_name, p.id))}
        josiah = ids["Josiah Pettibone"]
        searched = TaskSpec(action="search", source="wikitree", query="wikitree search: Josiah",
                            values={"name": "Josiah Pettibone"},
                            target={"person_id": josiah, "generation": 0})
        rt.guard.add(searched)  # he was searched before: a revisit can improve on it

        resolution.check_quality(rt, josiah)

        h = t.hypotheses.c
        with rt.store.engine.connect() as conn:
            rows = conn.execute(select(h.id, h.hypothesis_type, h.target_person, h.is_fact,
                                       h.statement)).all()
            quality = [r for r in rows if r.hypothesis_type.startswith("data_quality:")]
            types = {r.hypothesis_type for r in quality}
            assert {"data_quality:death_before_birth", "data_quality:unborn_mother"} <= types
            assert not {x.split(":", 1)[1] for x in types} & NOT_LEADS
            assert all(r.is_fact is False for r in quality)
            dbb = next(r for r in quality if r.hypothesis_type == "data_quality:death_before_birth")
            assert dbb.target_person == josiah and "1801" in dbb.statement
            k = t.tasks.c
            tasks = [TaskSpec.model_validate(x) for x, in conn.execute(
                select(k.payload).where(k.hypothesis_id == dbb.id))]
            assert tasks and all(s.queue == "revisit" for s in tasks)
            assert {s.revisit.reason for s in tasks if s.revisit} == {tasking.CORROBORATE}
            assert tasks[0].revisit and tasks[0].revisit.original_query == searched.query
            r = t.research_log.c
            logged = [c for c, in conn.execute(select(r.context).where(
                r.action_type == "decision")) if (c or {}).get("decision") == "data_quality"]
            assert {c["rule"] for c in logged} == {x.split(":", 1)[1] for x in types}
            assert violations(conn) == []
            n_hyp, n_tasks = len(rows), conn.execute(select(k.id)).all()

        resolution.check_quality(rt, josiah)  # a redone pass (after a kill) adds nothing twice
        with rt.store.engine.connect() as conn:
            assert len(conn.execute(select(h.id)).all()) == n_hyp
            assert conn.execute(select(t.tasks.c.id)).all() == n_tasks
    finally:
        rt.close()
        rt.store.close()


def test_the_baseline_checks_nothing(tmp_path: Path) -> None:
    ged = tmp_path / "tree.ged"
    ged.write_text(TREE, encoding="utf-8")
    rt = _runtime(tmp_path / "case")
    rt.config = rt.config.model_copy(update={"naive": True})
    try:
        ingest_path(rt.store, ged)
        resolution.check_quality(rt, None)
        with rt.store.engine.connect() as conn:
            assert not conn.execute(select(t.hypotheses.c.id)).all()
    finally:
        rt.close()
        rt.store.close()
