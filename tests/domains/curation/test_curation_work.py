"""The curation domain end to end on the shared F´ folder (issue 25, items 6 and 8; skips
without ../shared): `sleuth init --domain curation`, `ingest DIR`, `work` (unattended),
`tasks`, `export --format entities|equivalences|conflicts|review|graph|graphml|jsonld`;
every promoted entity's evidence verbatim at its lines of the stored file; the same entity
in FPP and prose (and under two names) one core entity with equivalences citing both;
disagreements kept as conflicts; a real `kill -9` of `sleuth work` resumes to the same
exports; the same run on PostgreSQL when configured."""

from __future__ import annotations

import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from shared_data import shared_path
from sleuth.cli.app import app
from sleuth.domains.curation.model import span_of
from sleuth.export.linked_data import to_rdf_graph
from sleuth.store import Store
from sleuth.store import agent_tasks as bb
from sleuth.store import curation as cur
from sleuth.store.curation_roles import drop_agent_roles

SRC = Path(__file__).resolve().parents[3] / "src"
FORMATS = ("entities", "equivalences", "conflicts", "review", "graph", "graphml", "jsonld")
runner = CliRunner()


def run(*args: object) -> tuple[int, str, str]:
    result = runner.invoke(app, [str(a) for a in args])
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture(scope="module")
def folder() -> Path:
    return Path(shared_path("documents", "fprime"))


@pytest.fixture(scope="module")
def ingested(tmp_path_factory: pytest.TempPathFactory, folder: Path) -> Path:
    case = tmp_path_factory.mktemp("curation") / "case"
    code, out, _ = run("init", case, "--domain", "curation")
    assert code == 0 and "curation case" in out
    code, out, err = run("ingest", case, folder)
    assert code == 0, err
    assert "39 files (39 newly stored" in out and "39 extraction tasks queued" in out
    assert "1 other files skipped" in out  # the licence text
    return case


def _copy(case: Path, to: Path) -> Path:
    shutil.copytree(case, to)
    (to / "writer.lock").unlink(missing_ok=True)
    return to


@pytest.fixture(scope="module")
def worked(ingested: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    case = _copy(ingested, tmp_path_factory.mktemp("worked") / "case")
    code, out, err = run("work", case)
    assert code == 0, err
    assert "work: 78 task runs (78 completed" in out
    return case


def _exports(case: Path) -> dict[str, str]:
    out = {}
    for fmt in FORMATS:
        code, text, err = run("export", case, "--format", fmt)
        assert code == 0, err
        out[fmt] = text
    return out


def test_every_fpp_entity_is_promoted_with_its_evidence_at_its_lines(worked: Path) -> None:
    store = Store.open_case(worked)
    try:
        with store.engine.connect() as conn:
            entities = cur.core_entities(conn)
            for e in entities:
                text = store.snapshot(e.snapshot_id, conn).text
                lo, hi = span_of(text, e.lines)
                assert text[lo:hi] == e.evidence_text, e.candidate_key
            review = cur.review_items(conn)
            statuses = Counter(x.status for x in cur.extractions(conn))
    finally:
        store.close()
    by_type = Counter(e.entity_type for e in entities)
    assert by_type == {"port": 79, "connection": 57, "event": 46, "instance": 38,
                       "requirement": 34, "port_type": 20, "telemetry": 16, "command": 11,
                       "component": 9, "parameter": 2}
    assert all(e.promoted_by == "decision_maker_agent" for e in entities)
    # the one FPP entity not promoted: an internal port has no port type
    assert [(r.reason, r.missing_fields) for r in review] == [
        ("High confidence but missing: ['type']", ["type"])]
    assert statuses["accepted"] == 312 + 40 and statuses["review"] == 1


def test_prose_and_renamed_entities_are_one_core_entity(worked: Path) -> None:
    rows = [json.loads(line) for line in _exports(worked)["equivalences"].splitlines()]
    assert len(rows) == 40  # every SDD title and port row ("shall" statements: traces)
    by_other = {r["other_key"]: r for r in rows}
    cmd = by_other["fprime:Svc:CmdDispatcher"]
    assert cmd["entity_key"] == "fprime:Svc:CommandDispatcher"
    assert (cmd["relation"], cmd["method"]) == ("renamed", "same_directory")
    assert cmd["definition"]["doc"] == "Svc__CmdDispatcher__CmdDispatcher.fpp"
    assert cmd["other"]["doc"] == "Svc__CmdDispatcher__docs__sdd.md"
    assert cmd["definition"]["text"].startswith("active component CommandDispatcher")
    assert cmd["other"]["text"] == "# Svc::CmdDispatcher Component"
    assert by_other["fprime:Ref:RecvBuffApp"]["entity_key"] == "fprime:Ref:RecvBuff"
    send = by_other["fprime:Svc:CmdDispatcher:port:cmdSend"]
    assert send["entity_key"] == "fprime:Svc:CommandDispatcher:port:compCmdSend"
    assert by_other["fprime:Svc:Health:port:Wdog"]["entity_key"] == \
        "fprime:Svc:Health:port:WdogStroke"
    tlm_get = by_other["fprime:Svc:TlmChan:port:TlmGet"]
    assert {(c["field"], c["definition"], c["other"]) for c in tlm_get["conflicts"]} == {
        ("type", "Fw.TlmGet", "Fw.Tlm"), ("kind", "guarded", "sync")}
    # one core entity each: no prose key was promoted as an entity of its own
    entities = [json.loads(line) for line in _exports(worked)["entities"].splitlines()]
    keys = {e["candidate_key"] for e in entities}
    assert "fprime:Svc:CmdDispatcher" not in keys and len(keys) == len(entities) == 312
    disp = next(e for e in entities if e["candidate_key"] == "fprime:Svc:CommandDispatcher")
    assert {q["other_key"] for q in disp["equivalences"]} >= {"fprime:Svc:CmdDispatcher"}


def test_conflicts_keep_both_values_and_citations(worked: Path) -> None:
    rows = [json.loads(line) for line in _exports(worked)["conflicts"].splitlines()]
    assert len(rows) == 7
    for r in rows:
        assert r["definition"]["doc"].endswith(".fpp") and r["other"]["doc"].endswith(".md")
        assert r["definition"]["text"] and r["other"]["text"]
    event = next(r for r in rows if r["entity_key"] == "fprime:Svc:BufferManager:port:eventOut")
    assert (event["field"], event["definition_value"], event["other_value"]) == (
        "type", "Fw.Log", "Fw.LogEvent")


def test_graph_exports_read_back(worked: Path) -> None:
    ex = _exports(worked)
    lines = [json.loads(line) for line in ex["graph"].splitlines()]
    nodes = [r["node"] for r in lines if "node" in r]
    edges = [r["edge"] for r in lines if "edge" in r]
    assert len(nodes) == 312
    kinds = Counter(e["kind"] for e in edges)
    assert kinds["has"] == 154 and kinds["typed_by"] == 79 and kinds["connects"] == 50
    assert kinds["traces"] == 34  # each "shall" statement to its component
    assert {"source": "fprime:Ref:instance:cmdDisp", "kind": "instance_of",
            "target": "fprime:Svc:CommandDispatcher"} in edges
    nx = pytest.importorskip("networkx")
    g = nx.parse_graphml(ex["graphml"])
    assert (g.number_of_nodes(), g.number_of_edges()) == (len(nodes), len(edges))
    rdf = to_rdf_graph(json.loads(ex["jsonld"]))
    got = rdf.query("SELECT (COUNT(*) AS ?n) WHERE { ?a <urn:sleuth:curation#has> ?b }")
    assert [int(r[0]) for r in got] == [154]  # type: ignore[index]


def test_tasks_lists_the_blackboard(worked: Path) -> None:
    code, out, _ = run("tasks", worked, "--format", "json")
    assert code == 0
    rows = json.loads(out)
    assert Counter(r["task_type"] for r in rows) == {"curation_extraction": 39,
                                                     "curation_refinement": 39}
    assert {r["status"] for r in rows} == {"completed"}


def test_a_second_ingest_and_work_change_nothing(worked: Path, folder: Path,
                                                 tmp_path: Path) -> None:
    case = _copy(worked, tmp_path / "again")
    before = _exports(case)
    code, out, _ = run("ingest", case, folder)
    assert code == 0 and "0 newly stored" in out and "0 extraction tasks" in out
    code, out, _ = run("work", case)
    assert code == 0 and "work: 0 task runs" in out
    assert _exports(case) == before


def test_bad_input_is_one_line_and_changes_nothing(ingested: Path, tmp_path: Path) -> None:
    case = _copy(ingested, tmp_path / "bad")
    (tmp_path / "notes.txt").write_text("not FPP", encoding="utf-8")
    code, _, err = run("ingest", case, tmp_path / "notes.txt")
    assert code == 2 and "not an FPP" in err and "\n" not in err.strip()
    code, _, err = run("ingest", case, tmp_path / "missing")
    assert code == 2 and "no such file or folder" in err


def _open_counts(db: Path) -> tuple[int, int]:
    with sqlite3.connect(db, timeout=5) as c:
        done, left = c.execute("SELECT sum(status = 'completed'), sum(status IN ('pending', "
                               "'running')) FROM agent_tasks").fetchone()
    return int(done or 0), int(left or 0)


@pytest.mark.slow
@pytest.mark.skipif(os.name != "posix", reason="needs POSIX signals")
@pytest.mark.parametrize("after", [5, 45])  # tasks completed when the kill comes
def test_kill_9_mid_work_resumes_to_the_same_exports(ingested: Path, worked: Path,
                                                     tmp_path: Path, after: int) -> None:
    expected = _exports(worked)
    case = _copy(ingested, tmp_path / "case")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(SRC), os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.Popen([sys.executable, "-m", "sleuth", "work", str(case)], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    db = case / "case.sqlite"
    deadline = time.monotonic() + 300
    try:
        while time.monotonic() < deadline and proc.poll() is None:
            try:
                done, _ = _open_counts(db)
            except sqlite3.OperationalError:  # being written: ask again
                done = 0
            if done >= after:
                break
            time.sleep(0.01)
        proc.send_signal(signal.SIGKILL)
    finally:
        proc.wait(30)
    done, left = _open_counts(db)
    assert done >= after and left >= 1, "the kill did not land mid-run"
    code, _, err = run("work", case)
    assert code == 0, err
    assert _open_counts(db)[1] == 0
    assert _exports(case) == expected
    store = Store.open_case(case)
    try:
        with store.engine.connect() as conn:
            assert {t.status for t in bb.list_tasks(conn)} == {"completed"}
            counts = cur.curation_counts(conn)
    finally:
        store.close()
    assert counts["core_entities"] == 312 and counts["core_equivalences"] == 40


def test_the_whole_folder_on_each_backend(db_url: str, folder: Path, tmp_path: Path) -> None:
    case = tmp_path / "case"
    url = None if db_url.startswith("sqlite") else db_url
    Store.create_case(case, url, domain="curation").close()
    try:
        assert run("ingest", case, folder)[0] == 0
        code, out, err = run("work", case)
        assert code == 0 and "78 completed" in out, err + out
        store = Store.open_case(case)
        try:
            with store.engine.connect() as conn:
                counts = cur.curation_counts(conn)
        finally:
            store.close()
        assert (counts["core_entities"], counts["core_equivalences"], counts["core_conflicts"],
                counts["curation_review"]) == (312, 40, 7, 1)
    finally:
        if url is not None:
            store = Store.open_case(case)
            drop_agent_roles(store.engine)
            store.close()


def test_prose_without_its_definition_goes_to_review_never_promoted(folder: Path,
                                                                     tmp_path: Path) -> None:
    case = tmp_path / "prose"
    assert run("init", case, "--domain", "curation")[0] == 0
    assert run("ingest", case, folder / "Svc__TlmChan__docs__sdd.md")[0] == 0
    code, out, _ = run("work", case)
    assert code == 0 and "2 completed" in out
    store = Store.open_case(case)
    try:
        with store.engine.connect() as conn:
            assert cur.core_entities(conn) == [] and cur.equivalences(conn) == []
            review = cur.review_items(conn)
            staged = [x for x in cur.extractions(conn) if x.refines is None]
    finally:
        store.close()
    assert len(review) == len(staged) == 9  # nothing dropped, nothing promoted
    reasons = Counter(r.reason.split(" (")[0] for r in review)
    assert reasons == {"Medium confidence": 5, "Low confidence": 4}
    assert {r.priority for r in review if r.reason.startswith("Low")} == {"high"}
    title = next(r for r in review if r.missing_fields == ["kind"] and r.priority == "normal")
    assert title.reason == "Medium confidence (0.60) requires human verification"


def test_ingest_closes_with_the_curation_review_queue(folder: Path, tmp_path: Path) -> None:
    case = tmp_path / "queue"
    assert run("init", case, "--domain", "curation")[0] == 0
    code, out, _ = run("ingest", case, folder / "Svc__TlmChan__docs__sdd.md")
    assert code == 0 and out.splitlines()[-1] == (
        "case: 1 snapshots, 0 core entities, 0 open review items")
    assert run("work", case)[0] == 0  # its 9 prose candidates to review (test above)
    code, out, _ = run("ingest", case, folder / "Svc__PrmDb__PrmDb.fpp")
    assert code == 0 and out.splitlines()[-1] == (
        "case: 2 snapshots, 0 core entities, 9 open review items")


def _decided(case: Path) -> tuple[set[tuple[str, ...]], int, list[Any], list[Any]]:
    store = Store.open_case(case)
    try:
        with store.engine.connect() as conn:
            eqs = {(q.definition_key, q.other_key, q.relation, q.method, str(q.confidence))
                   for q in cur.equivalences(conn)}
            return (eqs, len(cur.core_entities(conn)), cur.review_items(conn),
                    cur.review_items(conn, status=None))
    finally:
        store.close()


def test_prose_reviewed_before_its_definition_is_decided_again_when_it_arrives(
        folder: Path, tmp_path: Path) -> None:
    sdd, fpp = folder / "Svc__TlmChan__docs__sdd.md", folder / "Svc__TlmChan__TlmChan.fpp"
    late = tmp_path / "late"
    assert run("init", late, "--domain", "curation")[0] == 0
    assert run("ingest", late, sdd)[0] == 0 and run("work", late)[0] == 0
    assert len(_decided(late)[2]) == 9  # no definition yet: all to review
    code, out, _ = run("ingest", late, fpp)
    assert code == 0 and out.splitlines()[-1].endswith(" 9 open review items")
    code, out, _ = run("work", late)
    assert code == 0 and "9 rechecked accepted" in out
    together = tmp_path / "together"
    assert run("init", together, "--domain", "curation")[0] == 0
    assert run("ingest", together, fpp, sdd)[0] == 0 and run("work", together)[0] == 0
    eqs, entities, open_items, every = _decided(late)
    # decided as if the definition had been there first
    assert (eqs, entities, open_items) == _decided(together)[:3]
    assert len(eqs) == 5  # of the 9: the title and port rows; the "shall" statements trace
    assert len(every) == 9  # nothing dropped: the items stay, out of the open queue
    store = Store.open_case(late)
    try:
        with store.engine.connect() as conn:
            reviewed = {r.extraction_id for r in every}
            xs = {x.id: x for x in cur.extractions(conn)}
    finally:
        store.close()
    assert {xs[i].status for i in reviewed} == {"superseded"}
    assert all(any(x.refines == i for x in xs.values()) for i in reviewed)


def test_two_builds_of_the_same_files_export_byte_identical(folder: Path,
                                                           tmp_path: Path) -> None:
    """Snapshot ids are named by the files' content, so the exports citing them (and every
    tie they break) are the same in a second case."""
    files = (folder / "Svc__TlmChan__TlmChan.fpp", folder / "Svc__TlmChan__docs__sdd.md")
    built = []
    for name in ("one", "two"):
        case = tmp_path / name
        assert run("init", case, "--domain", "curation")[0] == 0
        assert run("ingest", case, *files)[0] == 0 and run("work", case)[0] == 0
        built.append(_exports(case))
    assert '"snapshot_id": ' in built[0]["equivalences"]
    assert built[0] == built[1]


def test_a_requirement_is_traced_to_its_component_never_equivalent(worked: Path) -> None:
    """`Svc.Health` "same_name" `…:requirement:HTH-001` was an equivalence: a requirement is
    an entity of its own type, linked to the component it binds by a trace."""
    ex = _exports(worked)
    entities = {e["candidate_key"]: e for e in map(json.loads, ex["entities"].splitlines())}
    assert not [r for r in map(json.loads, ex["equivalences"].splitlines())
                if ":requirement:" in r["other_key"]]
    store = Store.open_case(worked)
    try:
        with store.engine.connect() as conn:
            types = {x.id: x.candidate_type for x in cur.extractions(conn)}
            pairs = {(types[q.extraction_id], entities[q.definition_key]["candidate_type"])
                     for q in cur.equivalences(conn)}
    finally:
        store.close()
    assert pairs and all(a == b for a, b in pairs)  # only one type is ever equivalent
    req = entities["fprime:Svc:CmdDispatcher:requirement:CD-001"]
    assert req["candidate_type"] == "requirement" and req["equivalences"] == []
    assert req["candidate_payload"]["traces"]["key"] == "fprime:Svc:CommandDispatcher"
    assert req["evidence"]["source"]["doc"] == "Svc__CmdDispatcher__docs__sdd.md"
    edges = [json.loads(line)["edge"] for line in ex["graph"].splitlines() if '"edge"' in line]
    assert {"kind": "traces", "method": "same_directory",
            "source": "fprime:Svc:CmdDispatcher:requirement:CD-001",
            "target": "fprime:Svc:CommandDispatcher"} in edges
    assert {"kind": "traces", "method": "same_key", "source":
            "fprime:Svc:Health:requirement:HTH-001", "target": "fprime:Svc:Health"} in edges
