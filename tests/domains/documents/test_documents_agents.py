"""The documents domain end to end (issue 22): `sleuth init --domain documents`, `ingest`,
`work` (the agents on the `agent_tasks` blackboard), `tasks`, `export --format
timeline|entities|report` on every document in ../shared/data/documents (skips without
../shared; the fprime/ folder belongs to the curation domain, and the page images there are
scans of handwriting, refused in one line); every exported excerpt and every footnote of the
report is on the page it names (verbatim, modulo whitespace and line-end hyphens), the page
labels agree with the printed ones (the GDPR's "L 119/n", ferenda's page anchors); a real
`kill -9` of `sleuth work` resumes with no duplicate and the same export; the schema refuses a
fact without page; bad input is one line and changes nothing."""

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
from typing import Any

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


def documents_in_folder() -> list[Path]:
    """Every document in ../shared/data/documents: the PDFs and the OCR and pdftohtml
    documents (`*.hocr.html.bz2`, `*.xml.bz2`); not fprime/ (the curation domain's), not the
    page images (scans of handwriting: `test_page_images_are_refused_in_one_line`), not the
    references beside them (ferenda's parsed XHTML, RDF, Turtle, JSON, page mappings, the
    regeringen.se pages, licences)."""
    root = shared_path("documents")
    return sorted(p for p in root.rglob("*") if p.is_file() and "fprime" not in p.parts
                  and (p.suffix == ".pdf" or p.name.endswith((".hocr.html.bz2", ".xml.bz2"))))


FILES = [("documents", str(p.relative_to(p.parents[1]))) for p in (
    documents_in_folder() if (Path(__file__).resolve().parents[3].parent / "shared").exists()
    else [])] or [("documents", "absent")]
# 15 documents: SOUs (hOCR, two copies of one in pdftohtml XML), propositions, directives,
# a statute-book regulation, the GDPR, a Federal Register rule, two French parish-register
# transcriptions (no process: each a process by itself)
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
    assert out.count("Head Detective task") == len(FILES) >= 15
    return case


def _norm(s: str) -> str:
    """No whitespace, a hyphen at a line's end joined: how a quoted excerpt (whose line breaks
    the report made spaces) is compared with its page."""
    return "".join(re.sub(r"[-\u2010\u2014]\s+", "", s).split())


def _page_text(snap: object, page: int) -> str:
    pages = Pages.of(snap)  # type: ignore[arg-type]
    return snap.text[pages.starts[page - 1]:pages.ends[page - 1]]  # type: ignore[attr-defined]


def _copy(case: Path, to: Path) -> Path:
    shutil.copytree(case, to)
    (to / "writer.lock").unlink(missing_ok=True)
    return to


def _exports(case: Path) -> dict[str, str]:
    out = {}
    for fmt in ("timeline", "entities", "report", "html"):
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
    # every excerpt verbatim on the page it names (a designation two documents share, as
    # the two copies of SOU 2017:66 do: on that page of one of them)
    store = Store.open_case(case)
    try:
        with store.engine.connect() as conn:
            snaps: dict[str, list[Any]] = {}
            for d in docs.documents(conn):
                snaps.setdefault(d.designation, []).append(store.snapshot(d.snapshot_id, conn))
            stages = {names: p.stage for p in docs.processes(conn)
                      for names in [d.designation for d in docs.documents(conn)
                                    if d.process_id == p.id]}
            procs = {p.designation: p for p in docs.processes(conn)}
            by_task_doc = {t.id: store.snapshot(str(t.snapshot_id), conn)
                           for t in bb.list_tasks(conn)}
    finally:
        store.close()
    assert sum(len(v) for v in snaps.values()) == len(FILES)
    for row in timeline + entities:
        held = [s for s in snaps[row["document"]]
                if row["page"] <= len(Pages.of(s).starts)
                and row["excerpt"] in _page_text(s, row["page"])]
        assert held, row  # verbatim, even its line breaks
        assert 50 <= len(row["excerpt"]) <= 200
        assert row["page_label"] == Pages.of(held[0]).labels[row["page"] - 1]
    gdpr = [r for r in timeline + entities if r["document"] == "REGULATION (EU) 2016/679"]
    assert gdpr and all(r["page_label"] == f"L 119/{r['page']}" for r in gdpr)  # printed
    for t in tasks:  # every mention the gate let through is kept, none lost to another
        if t["task_type"] == "metadata_extraction":
            o = t["output_data"]
            found = extract_mentions(by_task_doc[t["id"]])
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
    assert ("SOU 1972:47", "member_appointed", "1969-05-09") in {
        (r["document"], r["event_type"], r["date"]) for r in timeline}
    assert {"name": "Rune Hermansson", "role": "chair"}.items() <= next(
        r for r in entities if r["name"] == "Rune Hermansson").items()
    assert stages["SOU 1972:47"] == "published" and stages["Dir. 2016:15"] == "directive"
    assert stages["Prop. 1992/93:30"] == stages["Prop. 1987/88:155"] == "proposition"
    assert stages["REGULATION (EU) 2016/679"] == stages["AFS 2011:19"] == "law"
    assert stages["SOU 2013:75"] == stages["SOU 2014:67"] == "published"
    assert stages["Dir. 2017:29"] == stages["Dir. 2014:158"] == "directive"
    # a process by its first directive, across documents; the two copies of one SOU in one
    assert procs["Dir. 2016:65"].documents and procs["Dir. 1991:74"].documents
    assert len(procs["Dir. 2016:52"].documents) == 2  # SOU 2017:66 twice (ferenda metadata)
    _check_report(ex["report"], snaps, len(timeline) + len(entities))
    _check_ferenda_labels(timeline + entities)
    page = ex["html"]  # the same dossier as one HTML page: every note there, every link kept
    md_notes = re.findall(r"^\[\^(\d+)\]: ", ex["report"], flags=re.M)
    assert re.findall(r'<li id="fn-(\d+)">', page) == md_notes
    assert set(re.findall(r'href="#fn-(\d+)"', page)) == set(md_notes)

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


def _check_report(report: str, snaps: dict[str, list[Any]], facts: int) -> None:
    """Every line of the dossier that says something (a list item, a stage) carries a
    footnote; every footnote is cited where it is used, and names a document and page whose
    text holds its excerpt (modulo whitespace and line-end hyphens), or is a link read from
    metadata beside a file; every stored fact has its footnote."""
    assert "## SOU 1972:47" in report and "**Stage: published.**" in report
    body, _, notes = report.partition("\n---\n")
    for line in body.splitlines():
        if line.startswith("- ") or line.startswith("**Stage:"):
            assert re.search(r"\[\^\d+\]", line) or "awaiting detailed information" in line \
                or "prints no designation" in line, line
    cited = set(re.findall(r"\[\^(\d+)\](?!:)", body))
    found = re.findall(r"^\[\^(\d+)\]: (.*)$", notes, flags=re.M)
    assert {n for n, _ in found} == cited and len(found) >= facts
    note = re.compile(r"^(?P<doc>.+?), p\. (?P<label>.+?) \(page (?P<page>\d+) of the file\): "
                      r"“(?P<excerpt>.*)”$")
    for n, text in found:
        if ": metadata beside the file, not its text: " in text:
            continue
        m = note.match(text)
        assert m, text
        page, excerpt = int(m["page"]), m["excerpt"].replace("\\|", "|")
        assert any(_norm(excerpt).rstrip("-\u2010\u2014") in _norm(_page_text(s, page))
                   and Pages.of(s).labels[page - 1] == m["label"] for s in snaps[m["doc"]]), (
            n, text)


# ferenda's parsed XHTML of the same documents marks each page (`<span id="sidN"
# class="sidbrytning">`, N the printed page): an independent reference for page labels
FERENDA = {"SOU 1972:47": "soukb__parsed__1972__47.xhtml",
           "Prop. 1987/88:155": "propriksdagen__parsed__1987-88__155.xhtml",
           "Prop. 1992/93:30": "propriksdagen__parsed__1992-93__30.xhtml",
           "Dir. 2016:15": "dirregeringen__parsed__2016__15.xhtml",
           "Dir. 2017:29": "dirregeringen__parsed__2017__29.xhtml",
           "Dir. 2014:158": "dirregeringen__parsed__2014__158.xhtml",
           "SOU 2013:75": "souregeringen__parsed__2013__75.xhtml",
           "SOU 2017:66": "souregeringen__parsed__2017__66.xhtml"}


def _ferenda_pages(name: str) -> dict[str, str]:
    from selectolax.lexbor import LexborHTMLParser

    html = shared_path(*GOV, name).read_text(encoding="utf-8")
    parts = re.split(r'<span id="sid(\d+)" class="sidbrytning"[^>]*/?>', html)
    out: dict[str, str] = {}
    for i in range(1, len(parts), 2):
        out[parts[i]] = out.get(parts[i], "") + parts[i + 1]
    return {k: re.sub(r"\W+", "", LexborHTMLParser(f"<div>{v}</div>").text()).lower()
            for k, v in out.items()}


def _check_ferenda_labels(rows: list[dict[str, Any]]) -> None:
    """Each exported excerpt's longest line is on ferenda's page of the same label, or on none
    of its pages (ferenda moves headings out of the page's text); never only on another."""
    pages = {doc: _ferenda_pages(name) for doc, name in FERENDA.items()}
    agree = checked = 0
    for r in rows:
        if r["document"] not in pages:
            continue
        lines = [re.sub(r"\W+", "", x).lower() for x in
                 re.sub(r"[-\u2010\u2014]\n", "", r["excerpt"]).split("\n")]
        probe = max(lines, key=len)[:40]
        where = {k for k, v in pages[r["document"]].items() if probe in v}
        checked += 1
        agree += r["page_label"] in where
        assert not where or r["page_label"] in where, (r, sorted(where))
    assert checked >= 100 and agree >= 0.9 * checked, (agree, checked)


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
    for bad, says in ((scanned, "no text layer on any of its 1 pages"), (encrypted, "encrypted"),
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


def test_page_images_are_refused_in_one_line(tmp_path: Path) -> None:
    """The folder's page images (bourbon_pdfs/*.jpg: 17th- and 18th-century handwriting) are
    scans with no text layer: without OCR they need it; with tesseract, it cannot read them
    reliably. Either way one line naming the file and page, and nothing in the case changes."""
    images = sorted(shared_path("documents", "bourbon_pdfs").glob("*.jpg"))
    assert images
    case = tmp_path / "case"
    assert run("init", case, "--domain", "documents")[0] == 0
    before = sorted([*(p.name for p in case.iterdir()), "writer.lock"])
    for image in images:
        code, _, err = run("ingest", case, image)
        line = err.strip()
        assert code == 2 and "\n" not in line and image.name in line, line
        assert "image (JPEG)" in line and ("needs OCR" in line or (
            "could not read it reliably" in line and "page 1" in line)), line
    assert sorted(p.name for p in case.iterdir()) == before
    assert json.loads(run("tasks", case, "--format", "json")[1]) == []


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
