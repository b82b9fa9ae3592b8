"""The demonstration (issue 24's acceptance) on the Swedish documents of ../shared/data, and a
real `kill -9` of `sleuth investigate` resumed by `sleuth resume`: the same deliverable, one
commit per iteration, no source captured twice."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from investigation_cases import QUESTION, assert_deliverable, demo_corpus
from shared_data import shared_path
from sleuth.cli.app import app
from sleuth.domains.investigations.repo import iteration_commits
from sleuth.domains.investigations.state import STATE_FILE, load_state, working
from sleuth.store import Store

SRC = Path(__file__).resolve().parents[3] / "src"
runner = CliRunner()


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    shared = shared_path("documents", "swedish_gov")
    return demo_corpus(shared, tmp_path_factory.mktemp("corpus"))


@pytest.fixture(scope="module")
def reference(corpus: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    case = tmp_path_factory.mktemp("ref") / "case"
    result = runner.invoke(app, ["investigate", QUESTION, "--out", str(case), "--corpus",
                                 str(corpus)])
    assert result.exit_code == 0, result.stdout + result.stderr
    return case


def test_the_demonstration_terminates_verified(reference: Path) -> None:
    state = load_state(reference)
    assert state.status == "COMPLETE" and state.termination
    assert state.termination["reason"] == "verified"
    assert state.verification_passed and not state.gaps
    assert_deliverable(reference)
    summary = (reference / "summary.md").read_text(encoding="utf-8")
    for name in ("Rune Hermansson was appointed chair", "Erik Adamsson", "Åke Polstam",
                 "Erik Svedberg", "Karl-Olof Lidin", "“offentlighets- och "
                 "sekretesslagstiftningskommittén” (OSK)", "11 April 1969", "Data och integritet"):
        assert name in summary, name
    assert "S001, SOU 1972:47, p. 6 (page 2 of the file)" in summary  # the page is cited
    commits = iteration_commits(reference)
    assert [c[0] for c in commits] == list(range(1, state.current_iteration + 1))


def test_an_english_reader_is_told_what_the_report_holds_and_what_its_terms_mean(
        reference: Path) -> None:
    """The report's own sentence says it holds a proposed Data Act; the proposals quoted in
    Swedish come with the glosses of their official terms, and each is VERIFIED."""
    summary = (reference / "summary.md").read_text(encoding="utf-8")
    assert ("which contains a proposal for a Data Act (“förslag till datalag”) and amendments "
            "to, among others, the Freedom of the Press Act (“tryckfrihetsförordningen”)"
            in summary)
    assert "stated its proposal in these words" not in summary
    assert ("“OSK föreslår, att myndigheten benämnes datainspektionen.” (Terms: myndigheten, "
            "authority; datainspektionen, the Data Inspection Board.)" in summary)
    checks = (reference / "fact-check.md").read_text(encoding="utf-8")
    assert "## VERIFIED: In June 1972 the inquiry handed over its interim report" in checks
    assert "innehållande förslag till datalag" in checks  # the claim the verifier checked


def test_the_timeline_names_who_each_date_governs_as_precisely_as_the_source(
        reference: Path) -> None:
    """Each dated line names the people its own date governs (an enumeration of dates and
    names), a month or a year is not given a day, a proposed date is not an entry into force,
    and an event is quoted from its own sentence."""
    lines = (reference / "timeline.md").read_text(encoding="utf-8").splitlines()

    def line(head: str) -> str:
        [found] = [ln for ln in lines if ln.startswith(f"- **{head}**")]
        return found

    assert "Named: Edmund Rapaport, Per Svenonius." in line("1969-06-18")
    assert "Named: Hans-Olof Hansson." in line("1970-03-06")
    assert "Named: Hans-Olov Stark." in line("1972-02-10")
    assert "report handed over" in line("1972-06")  # "Stockholm ijuni 1972": no day
    assert "proposed entry into force" in line("1974-07-01")  # "föreslås träda i kraft"
    runsten = line("2016-08-08")
    assert "Named: Hélène Runsten." in runsten and "“Som sekreterare" in runsten
    assert "Som experter" not in runsten


def _snapshots(case: Path) -> int:
    store = Store.open_case(case)
    try:
        from sleuth.store.snapshots import snapshot_meta

        with store.engine.connect() as conn:
            return sum(1 for _ in snapshot_meta(conn))
    finally:
        store.close()


@pytest.mark.slow
@pytest.mark.skipif(os.name != "posix", reason="needs POSIX signals")
@pytest.mark.parametrize("at", [(1, "FINALE"), (2, "EXTRACTION")])
def test_kill_9_mid_run_resumes_to_the_same_deliverable(corpus: Path, reference: Path,
                                                        tmp_path: Path,
                                                        at: tuple[int, str]) -> None:
    case = tmp_path / "case"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(SRC), os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.Popen([sys.executable, "-m", "sleuth", "investigate", QUESTION,
                             "--out", str(case), "--corpus", str(corpus)], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    order = ["SETUP", "RESEARCH", "EXTRACTION", "QUESTIONS", "INVESTIGATION", "VERIFICATION",
             "SYNTHESIS", "FINALE", "COMPLETE"]
    target = (at[0], order.index(at[1]))
    seen: tuple[int, str] = (0, "SETUP")
    deadline = time.monotonic() + 120
    try:
        while time.monotonic() < deadline and proc.poll() is None:
            try:
                data = json.loads(working(case, STATE_FILE).read_text(encoding="utf-8"))
                seen = (data["current_iteration"], data["current_phase"])
            except (OSError, ValueError, KeyError):
                pass
            if (seen[0], order.index(seen[1])) >= target:
                break
            time.sleep(0.002)
        proc.send_signal(signal.SIGKILL)
    finally:
        proc.wait(30)
    assert proc.returncode == -signal.SIGKILL, "the run ended before the kill"
    assert load_state(case).status != "COMPLETE", "the kill did not land mid-run"
    print(f"killed at iteration {seen[0]}, phase {seen[1]}")

    result = runner.invoke(app, ["resume", str(case)])
    assert result.exit_code == 0, result.stdout + result.stderr
    state, ref = load_state(case), load_state(reference)
    assert state.status == "COMPLETE" and state.termination
    assert state.termination["reason"] == "verified"
    assert_deliverable(case)
    assert (case / "summary.md").read_text() == (reference / "summary.md").read_text()
    assert (case / "fact-check.md").read_text() == (reference / "fact-check.md").read_text()
    commits = iteration_commits(case)
    assert [c[0] for c in commits] == list(range(1, state.current_iteration + 1))
    assert [c[2].splitlines()[0] for c in commits] == [
        c[2].splitlines()[0] for c in iteration_commits(reference)]
    paths = [s.path for s in state.sources]
    assert len(paths) == len(set(paths))  # no source captured twice
    assert [s.id for s in state.sources] == [s.id for s in ref.sources]
    assert _snapshots(case) == len(state.captured())  # no snapshot stored twice
