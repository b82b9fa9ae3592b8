"""The documents domain end to end (issue 22): `sleuth init --domain documents`, `ingest`,
`work` (the agents on the `agent_tasks` blackboard), `tasks`, `export --format
timeline|entities|report` on real shared government documents (skips without ../shared);
every exported excerpt is on the page it names; a real `kill -9` of `sleuth work` resumes
with no duplicate and the same export; the schema refuses a fact without page; bad input is
one line and changes nothing."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from sqlalchemy.exc import IntegrityError
from typer.testing import CliRunner

from shared_data import shared_path
from sleuth.cli.app import app
from sleuth.domains.documents import Pages, extract_mentions
from sleuth.domains.documents.stage import Fact, process_stage
from sleuth.store import Store
from sleuth.store import agent_tasks as bb
from sleuth.store import documents as docs

GOV = ("documents", "swedish_gov")
FILES = [
    (*GOV, "soukb__intermediate__1972__47__index.hocr.html.bz2"),
    (*GOV, "propriksdagen__intermediate__1992-93__30__index.hocr.html.bz2"),
    (*GOV, "dirregeringen__downloaded__2016__15__dir.-201615-dataskyddsforordningen.pdf"),
    (*GOV, "dirregeringen__downloaded__2017__29__tillaggsdirektiv-till-"
     "forskningsdatautredningen-u-201604--dir.-201729.pdf"),
    ("documents", "eu_gdpr", "gdpr-regulation-2016-679.pdf"),
    ("documents", "us_federal_register", "federal-register-2020-17221.pdf"),
    (*GOV, "propriksdagen__intermediate__1987-88__155__index.hocr.html.bz2"),
    (*GOV, "afs__downloaded__konsolidering-afs-2011__19__index.pdf"),
    (*GOV, "souregeringen__intermediate__2013__75__organisering-av-framtidens-e-forvaltning-"
     "sou-201375.xml.bz2"),
    (*GOV, "souregeringen__intermediate__2014__67__inbyggd-integritet-inom-inspektionen-for-"
     "socialforsakringen-sou-201467.xml.bz2"),
    (*GOV, "souregeringen__intermediate__2017__66__dataskydd-inom-socialdepartementets-"
     "verksamhetsomrade_en-anpassning-till-eus-dataskyddsforordning-sou-2017_66-.xml.bz2"),
]  # 11 documents: SOUs (hOCR, pdftohtml XML), propositions, directives, a regulation, rules
SRC = Path(__file__).resolve().parents[3] / "src"
runner = CliRunner()


def run(*args: object) -> tuple[int, str, str]:
    result = runner.invoke(app, [str(a) for a in args])
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture(scope="module")
def ingested(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A documents case with the shared documents ingested and no task run yet."""
    paths = [shared_path(*f) for f in FILES]
    case = tmp_path_factory.mktemp("docs") / "case"
    code, out, _ = run("init", case, "--domain", "documents")
    assert code == 0 and "documents case" in out
    code, out, err = run("ingest", case, *paths)
    assert code == 0, err
    assert out.count("Head Detective task") == len(FILES)
    return case


def _copy(case: Path, to: Path) -> Path:
    shutil.copytree(case, to)
    (to / "writer.lock").unlink(missing_ok=True)
    return to


def _exports(case: Path) -> dict[str, str]:
    out = {}
    for fmt in ("timeline", "entities", "report"):
        code, text, err = run("export", case, "--format", fmt)
        assert code == 0, err
        out[fmt] = text
    return out


def test_init_ingest_work_tasks_export(ingested: Path, tmp_path: Path) -> None:
    case = _copy(ingested, tmp_path / "case")
    code, out, _ = run("tasks", case, "--format", "json")
    queued = json.loads(out)
    assert [t["task_type"] for t in queued] == ["head_detective_analysis"] * len(FILES)
    assert {t["status"] for t in queued} == {"pending"}

    code, out, err = run("work", case)
    assert code == 0, err
    assert "left]" in out and "0 failed" in out

    code, out, _ = run("tasks", case, "--format", "json")
    tasks = json.loads(out)
    assert len(tasks) == 3 * len(FILES)
    assert {t["status"] for t in tasks} == {"completed"}
    for t in tasks:
        o = t["output_data"]
        assert o["agent_version"] and o["model_used"] == "deterministic"
        assert {"processing_time_ms", "items_created", "skipped_sections",
                "uncertainties"} <= set(o)
        assert t["created_at"] and t["started_at"] and t["completed_at"]
    heads = [t for t in tasks if t["task_type"] == "head_detective_analysis"]
    assert all(h["output_data"]["stage_update"]["new_stage"] for h in heads)
    assert all(h["output_data"]["delegated_tasks"]["timeline_task_id"] for h in heads)
    code, out, _ = run("tasks", case)
    assert f"{len(tasks)} tasks, {len(tasks)} completed" in out

    ex = _exports(case)
    timeline = [json.loads(line) for line in ex["timeline"].splitlines()]
    entities = [json.loads(line) for line in ex["entities"].splitlines()]
    assert timeline and entities
    assert all(list(r) == ["document", "event_type", "date", "earliest", "latest",
                           "description", "page", "page_label", "excerpt", "actors"]
               for r in timeline)
    assert all(list(r) == ["name", "kind", "role", "role_text", "document", "page",
                           "page_label", "excerpt"] for r in entities)
    # every excerpt verbatim on the page it names
    store = Store.open_case(case)
    try:
        with store.engine.connect() as conn:
            by_name = {p.designation: store.snapshot(p.snapshot_id, conn)
                       for p in docs.processes(conn)}
            stages = {p.designation: p.stage for p in docs.processes(conn)}
    finally:
        store.close()
    assert len(by_name) == len(FILES)
    for row in timeline + entities:
        snap = by_name[row["document"]]
        pages = Pages.of(snap)
        i = row["page"] - 1
        page_text = snap.text[pages.starts[i]:pages.ends[i]]
        assert row["excerpt"] in page_text, row  # verbatim, even its line breaks
        assert 50 <= len(row["excerpt"]) <= 200
        assert row["page_label"] == pages.labels[i]
    for t in tasks:  # every mention the gate let through is kept, none lost to another
        if t["task_type"] == "metadata_extraction":
            o = t["output_data"]
            found = extract_mentions(by_name[t["input"]["document"]])
            refused = [u for u in o["uncertainties"] if u.startswith("not stored:")]
            assert o["relations_created"] + len(refused) == len(found), t["input"]
    assert sum(t["output_data"].get("relations_created", 0) for t in tasks) == len(entities)
    refused = sum(u.startswith("not stored:") for t in tasks
                  for u in t["output_data"]["uncertainties"])
    with sqlite3.connect(case / "case.sqlite") as db:  # every candidate staged, decided
        staged = db.execute("SELECT status, count(*) FROM candidates GROUP BY status").fetchall()
        decided = db.execute("SELECT count(DISTINCT candidate_id) FROM decisions").fetchone()
    assert sum(n for _, n in staged) == len(timeline) + len(entities) + refused == decided[0]
    assert dict(staged).get("promoted") == len(timeline) + len(entities)
    gdpr = [r for r in timeline if r["document"] == "REGULATION (EU) 2016/679"]
    assert any(r["page_label"].startswith("L 119/") for r in gdpr)  # printed labels
    assert ("SOU 1972:47", "member_appointed", "1969-05-09") in {
        (r["document"], r["event_type"], r["date"]) for r in timeline}
    assert {"name": "Rune Hermansson", "role": "chair"}.items() <= next(
        r for r in entities if r["name"] == "Rune Hermansson").items()
    assert stages["SOU 1972:47"] == "published" and stages["Dir. 2016:15"] == "directive"
    assert stages["Prop. 1992/93:30"] == "proposition"
    assert stages["REGULATION (EU) 2016/679"] == "law"
    report = ex["report"]
    assert "## SOU 1972:47" in report and "**Stage: published.**" in report
    notes = re.findall(r"^\[\^(\d+)\]: p\. ", report, flags=re.M)
    assert len(notes) == len(timeline) + len(entities)  # every line footnoted

    code, out, _ = run("show", case, "process")
    assert code == 0 and "SOU 1972:47" in out and "published" in out
    code, out, _ = run("show", case, "process", "SOU 1972:47")
    assert code == 0 and "**Stage: published.**" in out and "Rune Hermansson" in out
    code, out, _ = run("show", case, "process", "Dir. 2016:15", "--format", "json")
    shown = json.loads(out)
    assert shown["process"]["stage"] == "directive" and shown["events"]
    code, _, err = run("show", case, "process", "no such")
    assert code != 0 and "no process" in err

    # a second run has nothing to do and changes nothing
    code, out, _ = run("work", case)
    assert code == 0 and "work: 0 task runs" in out
    assert _exports(case) == ex


def _open_counts(db: Path) -> tuple[int, int]:
    with sqlite3.connect(db, timeout=5) as c:
        done, left = c.execute("SELECT sum(status = 'completed'), sum(status IN ('pending', "
                               "'running')) FROM agent_tasks").fetchone()
    return int(done or 0), int(left or 0)


@pytest.mark.slow
@pytest.mark.skipif(os.name != "posix", reason="needs POSIX signals")
@pytest.mark.parametrize("after", [1, 16])  # tasks completed when the kill comes
def test_kill_9_mid_work_resumes_with_no_duplicate(ingested: Path, tmp_path: Path,
                                                    after: int) -> None:
    reference = _copy(ingested, tmp_path / "reference")
    assert run("work", reference)[0] == 0
    expected = _exports(reference)

    case = _copy(ingested, tmp_path / "case")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(SRC), os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.Popen([sys.executable, "-m", "sleuth", "work", str(case)], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    db = case / "case.sqlite"
    deadline = time.monotonic() + 120
    try:
        while time.monotonic() < deadline and proc.poll() is None:
            try:
                done, left = _open_counts(db)
            except sqlite3.OperationalError:  # the table is being written: ask again
                done, left = 0, 1
            if done >= after:
                break
            time.sleep(0.01)
        proc.send_signal(signal.SIGKILL)
    finally:
        proc.wait(30)
    done, left = _open_counts(db)
    assert done >= after and left >= 1, "the kill did not land mid-run"
    print(f"killed with {done} tasks completed and {left} open")

    code, _, err = run("work", case)
    assert code == 0, err
    assert _open_counts(db)[1] == 0
    assert _exports(case) == expected
    store = Store.open_case(case)
    try:
        with store.engine.connect() as conn:
            tasks = bb.list_tasks(conn)
            n_events, n_mentions = len(docs.events(conn)), len(docs.mentions(conn))
            n_entities = len(docs.entities(conn))
    finally:
        store.close()
    assert len(tasks) == 3 * len(FILES) and {t.status for t in tasks} == {"completed"}
    ref = Store.open_case(reference)
    try:
        with ref.engine.connect() as conn:
            assert (len(docs.events(conn)), len(docs.mentions(conn)),
                    len(docs.entities(conn))) == (n_events, n_mentions, n_entities)
    finally:
        ref.close()


def test_schema_refuses_a_fact_without_page_or_excerpt(tmp_path: Path) -> None:
    case = tmp_path / "case"
    src = tmp_path / "dir.txt"
    src.write_text("Kommittédirektiv\nBeslut vid regeringssammanträde den 25 februari 2016.\n"
                   "En särskild utredare ska se över lagen.\n", encoding="utf-8")
    assert run("init", case, "--domain", "documents")[0] == 0
    assert run("ingest", case, src)[0] == 0
    store = Store.open_case(case)
    try:
        with store.engine.connect() as conn:
            sid = bb.list_tasks(conn)[0].snapshot_id
        good = {"snapshot_id": sid, "task_id": "t", "event_type": "directive_issued",
                "description": "directive decided", "date": "2016-02-25",
                "earliest": "2016-02-25", "latest": "2016-02-25", "page": 1,
                "page_label": "1", "excerpt": "Beslut vid regeringssammanträde den 25 "
                "februari 2016.", "char_start": 17, "char_end": 69, "actors": []}
        for bad in ({"page": None}, {"excerpt": "den 25 februari 2016"},
                    {"excerpt": "x" * 201}, {"page": 0}):
            with pytest.raises(IntegrityError), store.transaction() as tx:
                docs.add_event(store, tx, {**good, **bad, "date": str(bad)}, "test")
        with store.transaction() as tx:
            assert docs.add_event(store, tx, good, "test")[1]
            assert not docs.add_event(store, tx, good, "test")[1]  # the same event once
    finally:
        store.close()


def test_bad_input_is_one_line_and_changes_nothing(tmp_path: Path) -> None:
    from pypdf import PdfWriter

    scanned, encrypted = tmp_path / "scanned.pdf", tmp_path / "encrypted.pdf"
    w = PdfWriter()
    w.add_blank_page(200, 200)
    w.write(scanned)
    w = PdfWriter()
    w.add_blank_page(200, 200)
    w.encrypt("secret")
    w.write(encrypted)
    corrupt = tmp_path / "corrupt.pdf"
    corrupt.write_bytes(b"%PDF-1.4\n1 0 obj garbage\n%%EOF\n")
    hocr = tmp_path / "nopages.hocr.html"
    hocr.write_text('<html><head><meta name="ocr-system" content="tesseract"/></head>'
                    "<body><p>nothing</p></body></html>", encoding="utf-8")
    case = tmp_path / "case"
    assert run("init", case, "--domain", "documents")[0] == 0
    before = sorted([*(p.name for p in case.iterdir()), "writer.lock"])  # ingest's lock
    for bad, says in ((scanned, "needs OCR"), (encrypted, "encrypted"),
                      (corrupt, "unreadable PDF"), (hocr, "no pages")):
        code, _, err = run("ingest", case, bad)
        assert code == 2
        line = err.strip()
        assert "\n" not in line and bad.name in line and says in line, line
    assert sorted(p.name for p in case.iterdir()) == before
    code, out, _ = run("tasks", case, "--format", "json")
    assert code == 0 and json.loads(out) == []
    store = Store.open_case(case)
    try:
        with store.engine.connect() as conn:
            assert docs.processes(conn) == [] and docs.entities(conn) == []
    finally:
        store.close()


def test_work_refuses_a_genealogy_case(tmp_path: Path) -> None:
    case = tmp_path / "g"
    assert run("init", case)[0] == 0
    code, _, err = run("work", case)
    assert code == 2 and "has no agent tasks" in err.strip() and "\n" not in err.strip()


@pytest.mark.parametrize(("kind", "types", "stage"), [
    ("sou", ["member_appointed", "report_submitted"], "published"),
    ("sou", ["member_appointed"], "writing"),
    ("dir", ["directive_issued"], "directive"),
    ("dir", [], "directive"),
    ("prop", [], "proposition"),
    ("sou", ["report_submitted", "remiss_started"], "remiss"),
    ("prop", ["proposition_submitted", "law_enacted"], "law"),
    ("", [], "directive"),
])
def test_process_stage_is_a_pure_function_of_the_evidence(
        kind: str, types: list[str], stage: str) -> None:
    facts = [Fact(t, "2016-02-25", i + 1, str(i + 1)) for i, t in enumerate(types)]
    got = process_stage(kind, facts)
    assert got.stage == stage and got.explanation
    assert process_stage(kind, list(reversed(facts))) == got


def test_migration_0010_matches_the_schema_module(db_url: str) -> None:
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    from sleuth.store import schema
    from sleuth.store.db import make_engine, migrate

    engine = make_engine(db_url)
    try:
        migrate(engine)
        with engine.connect() as conn:
            diff = compare_metadata(MigrationContext.configure(conn), schema.metadata)
        mine = [d for d in diff if any(n in repr(d) for n in ("agent_tasks", "doc_"))]
        assert mine == []
    finally:
        engine.dispose()


def test_once_is_one_pass_and_a_lapsed_lease_is_taken_again(ingested: Path,
                                                             tmp_path: Path) -> None:
    from sleuth.domains.documents.work import work

    case = _copy(ingested, tmp_path / "case")
    code, out, _ = run("work", case, "--once")  # the Head Detectives delegate, then stop
    assert code == 0 and f"{len(FILES)} put back to wait" in out
    store = Store.open_case(case)
    try:
        with store.engine.connect() as conn:
            tasks = bb.list_tasks(conn)
        assert len(tasks) == 3 * len(FILES)
        assert {t.status for t in tasks} == {"pending"}
        # a worker that died holding a claim: its lease (0 s) has lapsed, so another
        # worker, without the case's lock, takes the task again; a live lease is left alone
        with store.transaction() as tx:
            live = bb.claim_next(store, tx, "live:2", lease_s=3600)
            dead = bb.claim_next(store, tx, "dead:1", lease_s=0)
        assert dead is not None and live is not None and dead.id != live.id
        with store.transaction() as tx:
            again = bb.claim_next(store, tx, "other:3", lease_s=60)
        assert again is not None and again.id == dead.id and again.claimed_by == "other:3"
        with pytest.raises(bb.LeaseLost), store.transaction() as tx:
            bb.complete_task(store, tx, dead.id, "dead:1", {})
        with store.transaction() as tx:  # give the claims back as a locked worker would
            assert bb.release_orphans(store, tx, "test") == 2
        report = work(store, once=True, holds_lock=True)
        assert report.completed == 3 * len(FILES) and report.failed == 0
        with store.engine.connect() as conn:
            assert bb.open_count(conn) == 0
    finally:
        store.close()


def test_a_failing_agent_fails_its_task_in_one_line_and_the_rest_go_on(
        ingested: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from sleuth.domains.documents import work as worker
    from sleuth.domains.documents.agents import AGENTS, TASK_HEAD

    case = _copy(ingested, tmp_path / "case")
    store = Store.open_case(case)
    try:
        with store.engine.connect() as conn:
            first = bb.list_tasks(conn)[0].id

        def head(store: Store, conn: object, task: bb.AgentTask) -> object:
            if task.id == first:
                raise ValueError("boom\nsecond line")
            return AGENTS[TASK_HEAD](store, conn, task)  # type: ignore[arg-type]

        monkeypatch.setattr(worker, "AGENTS", {**AGENTS, TASK_HEAD: head})
        report = worker.work(store)
        assert report.failed == 1 and report.completed == 3 * (len(FILES) - 1)
        with store.engine.connect() as conn:
            failed = bb.get_task(conn, first)
            assert failed is not None and failed.status == "failed"
            assert failed.error == "internal error: ValueError: boom"
            assert bb.children(conn, first) == []  # what it began was rolled back
    finally:
        store.close()
