"""End to end: the loop researches a seed person in a mini world on a real local server."""

from __future__ import annotations

import json
from pathlib import Path

import miniworld
import pytest
from helpers import CONTACT, EXHAUST, duplicated_assertions, run, seed_of
from pytest_httpserver import HTTPServer
from sqlalchemy import select
from typer.testing import CliRunner

from sleuth.cli.app import app
from sleuth.loop import Budget, resume
from sleuth.loop.invariants import violations
from sleuth.model import REVISIT_REASONS
from sleuth.store import Store
from sleuth.store import schema as t


def _log(case: Path) -> list[dict]:
    return [json.loads(x) for x in (case / "research-log.jsonl").read_text().splitlines()]


def test_prioritised_run_reaches_the_goal_with_few_requests(
        httpserver: HTTPServer, world_on, case_dir: Path) -> None:
    w = world_on(seed=1, generations=3)
    res = run(case_dir, httpserver, w, Budget(max_requests=200, target_generations=3))
    assert res.stop_reasons == ["confidence_achieved"]
    # one search, then the seed and the 2 + 4 ancestors whose parents complete 3 generations
    assert res.requests <= 1 + 7 + 2
    store = Store.open_case(case_dir)
    try:
        with store.engine.connect() as conn:
            assert violations(conn, terminated=True) == []
            names = set(conn.execute(select(t.persons.c.canonical_name)).scalars())
        assert duplicated_assertions(store) == 0
    finally:
        store.close()
    for pid in w.ancestors(w.seed.id, 3):
        p = w.people[pid]
        assert f"{p.given} {p.surname}" in names
    log = _log(case_dir)
    assert log[-1]["action_type"] == "termination"
    assert log[-1]["context"]["reasons"] == ["confidence_achieved"]
    kinds = {e["action_type"] for e in log}
    assert {"plan", "select", "source_access", "analysis", "decision"} <= kinds
    access = [e for e in log if e["action_type"] == "source_access" and e["agent"] == "Scout"]
    assert all("response_time_ms" in e["context"] and e["context"]["success"] for e in access)


def test_naive_baseline_needs_more_requests(httpserver: HTTPServer, world_on,
                                            tmp_path: Path) -> None:
    w = world_on(seed=2, generations=3)
    smart = run(tmp_path / "a", httpserver, w, Budget(max_requests=300, target_generations=3))
    naive = run(tmp_path / "b", httpserver, w, Budget(max_requests=300, target_generations=3),
                naive=True)
    assert smart.stop_reasons == naive.stop_reasons == ["confidence_achieved"]
    assert smart.requests < naive.requests


def test_living_people_are_masked_in_the_jsonl_log(httpserver: HTTPServer, world_on,
                                                   tmp_path: Path) -> None:
    w = world_on(seed=4, generations=1)
    case = tmp_path / "case"
    run(case, httpserver, w, EXHAUST)
    living = next(p for p in w.people.values() if p.born >= 1975)
    text = (case / "research-log.jsonl").read_text()
    assert f"{living.given} {living.surname}" not in text
    store = Store.open_case(case)
    try:
        with store.engine.connect() as conn:
            flagged = set(conn.execute(select(t.persons.c.canonical_name).where(
                t.persons.c.is_living.is_(True))).scalars())
        assert f"{living.given} {living.surname}" in flagged
    finally:
        store.close()


def test_too_narrow_a_search_is_revisited_with_a_reason(httpserver: HTTPServer, world_on,
                                                        tmp_path: Path) -> None:
    w = world_on(seed=5, generations=1)
    case = tmp_path / "case"
    Store.create_case(case).close()
    miniworld.install(case, httpserver.url_for("/").rstrip("/"))
    from sleuth.loop import research

    wrong = {**seed_of(w), "birth_year": w.seed.born + 12}  # the user misremembers
    res = research(case, wrong, sources=["wikitree"], budget=EXHAUST, fetcher_options=CONTACT)
    assert res.seed_person_id is not None
    revisits = [e for e in _log(case) if e["action_type"] == "revisit"]
    assert revisits and all(e["revisit_reason"] in REVISIT_REASONS for e in revisits)
    assert revisits[0]["revisit_reason"] == "Previous search parameters too narrow"


def test_ctrl_c_checkpoints_and_resume_finishes_without_repeats(
        httpserver: HTTPServer, world_on, tmp_path: Path) -> None:
    w = world_on(seed=6, generations=2)
    ref = run(tmp_path / "ref", httpserver, w, EXHAUST)
    w.requests.clear()
    calls = {"n": 0}

    def interrupt(event: dict) -> None:
        calls["n"] += 1
        if calls["n"] == 9:
            raise KeyboardInterrupt

    case = tmp_path / "case"
    first = run(case, httpserver, w, EXHAUST, progress=interrupt)
    assert first.stop_reasons == ["user_interrupt"] and not first.terminated
    assert _log(case)[-1]["context"]["reasons"] == ["user_interrupt"]
    done = resume(case, fetcher_options=CONTACT)
    assert done.terminated and done.stop_reasons == ["frontier_exhausted"]
    assert max(w.requests.values()) == 1, "no request repeated inside the cache TTL"
    assert done.facts == ref.facts and done.persons == ref.persons
    store = Store.open_case(case)
    try:
        assert duplicated_assertions(store) == 0
    finally:
        store.close()
    again = resume(case, fetcher_options=CONTACT)  # a finished run stays finished
    assert again.terminated and again.requests == done.requests


def test_budget_stop_empties_the_frontier(httpserver: HTTPServer, world_on,
                                          tmp_path: Path) -> None:
    w = world_on(seed=7, generations=3)
    res = run(tmp_path / "c", httpserver, w, Budget(max_requests=3, stop_on_confidence=False))
    assert res.stop_reasons == ["budget_requests"] and res.requests == 3
    store = Store.open_case(tmp_path / "c")
    try:
        with store.engine.connect() as conn:
            assert not conn.execute(select(t.tasks.c.id).where(
                t.tasks.c.in_frontier.is_(True))).first()
    finally:
        store.close()


def test_resume_with_a_new_budget_carries_on_after_a_budget_stop(
        httpserver: HTTPServer, world_on, tmp_path: Path) -> None:
    """`sleuth resume CASE --max-requests N` after a budget stop: the parked searches come
    back and the run spends the new budget (it used to do nothing)."""
    w = world_on(seed=7, generations=3)
    case = tmp_path / "c"
    first = run(case, httpserver, w, Budget(max_requests=3, stop_on_confidence=False))
    assert first.stop_reasons == ["budget_requests"]
    assert resume(case, fetcher_options=CONTACT).requests == first.requests  # no new budget
    more = resume(case, budget=Budget(max_requests=5, stop_on_confidence=False),
                  fetcher_options=CONTACT)
    assert more.terminated and 0 < more.requests <= 5
    log = _log(case)
    assert [e["context"]["reasons"] for e in log if e["action_type"] == "termination"] == [
        ["budget_requests"], more.stop_reasons]
    assert any(e["context"].get("decision") == "resume_budget" for e in log)
    store = Store.open_case(case)
    try:
        with store.engine.connect() as conn:
            assert violations(conn, terminated=True) == []
        assert duplicated_assertions(store) == 0
    finally:
        store.close()


def test_a_start_refused_for_want_of_a_contact_leaves_no_run_behind(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without SLEUTH_CONTACT the real sources refuse, and the folder does not then refuse
    `research` as if a run had started (nothing is fetched: the refusal comes first). The
    refusal comes before the case is made, too: no folder, no `case.json`, no database, no
    lock is left (was: all three, in a folder named by --out)."""
    monkeypatch.delenv("SLEUTH_CONTACT", raising=False)
    case = tmp_path / "case"
    runner = CliRunner()
    for _ in range(2):
        r = runner.invoke(app, ["research", "--name", "Mary Hollis", "--born", "1850",
                                "--out", str(case)])
        assert r.exit_code == 2 and "SLEUTH_CONTACT" in r.output, r.output
        assert "already has a research run" not in r.output
    assert not case.exists()


def test_research_without_network_ends_with_a_summary_not_a_traceback(
        tmp_path: Path) -> None:
    """No network: every name lookup fails. Each search fails cleanly (logged with why),
    the sources are set aside, and the run stops with a reason."""
    from sleuth.loop import research

    def offline(host: str, port: int) -> list[str]:
        raise OSError(f"[Errno -3] Temporary failure in name resolution: {host}")

    res = research(tmp_path / "case", {"name": "Mary Hollis", "birth_year": 1850},
                   sources=["wikitree", "wikidata"], budget=Budget(max_requests=20),
                   fetcher_options={**CONTACT, "resolver": offline,
                                    "sleep": lambda _s: None})
    assert res.terminated and res.stop_reasons and res.persons == 0
    failures = [e for e in _log(tmp_path / "case") if e["action_type"] == "source_access"
                and e["agent"] == "Scout"]
    assert failures and all(not e["context"]["success"] for e in failures)
    assert all("name resolution" in e["context"]["failure_reason"] for e in failures)


def test_cli_research_and_resume(httpserver: HTTPServer, world_on, tmp_path: Path,
                                 monkeypatch: pytest.MonkeyPatch) -> None:
    w = world_on(seed=8, generations=1)
    case = tmp_path / "case"
    runner = CliRunner()
    assert runner.invoke(app, ["init", str(case)]).exit_code == 0
    miniworld.install(case, httpserver.url_for("/").rstrip("/"))
    monkeypatch.setenv("SLEUTH_CONTACT", "cli@example.invalid")
    r = runner.invoke(app, ["research", "--name", seed_of(w)["name"], "--born",
                            str(w.seed.born), "--out", str(case), "--source", "wikitree",
                            "--max-requests", "50", "--generations", "1"])
    assert r.exit_code == 0, r.output
    assert "stopped" in r.output
    r = runner.invoke(app, ["resume", str(case)])
    assert r.exit_code == 0, r.output
    r = runner.invoke(app, ["research", "--name", "X Y", "--out", str(case)])
    assert r.exit_code == 2 and "already has a research run" in r.output
    r = runner.invoke(app, ["resume", str(tmp_path / "nope")])
    assert r.exit_code == 2 and "no research run" in r.output


def test_a_torn_jsonl_tail_is_cut_and_the_log_continues(httpserver: HTTPServer, world_on,
                                                        tmp_path: Path) -> None:
    """A kill mid-write leaves half a line; the next append cuts it and loses nothing."""
    from sleuth.export import log_jsonl

    w = world_on(seed=9, generations=1)
    case = tmp_path / "case"
    run(case, httpserver, w, Budget(max_requests=3, stop_on_confidence=False))
    path = case / log_jsonl.LOG_FILE
    whole = path.read_text().splitlines()
    path.write_text("\n".join(whole[:5]) + "\n" + whole[5][: len(whole[5]) // 2])
    store = Store.open_case(case)
    try:
        log_jsonl.append(store, case)
    finally:
        store.close()
    assert [json.loads(x)["seq"] for x in path.read_text().splitlines()] == [
        json.loads(x)["seq"] for x in whole]


class _Killed(BaseException):
    """A kill between a node's committed transaction and LangGraph's checkpoint."""


@pytest.mark.parametrize("node", ["scout", "analyst"])
def test_a_kill_between_commit_and_checkpoint_loses_nothing(
        httpserver: HTTPServer, world_on, tmp_path: Path, monkeypatch, node: str) -> None:
    from sleuth.loop import analyst, scout

    w = world_on(seed=5, generations=3)
    ref = run(tmp_path / "ref", httpserver, w, EXHAUST)
    served = set(w.requests)
    w.requests.clear()
    module, name = (scout, "scout") if node == "scout" else (analyst, "analyse")
    real = getattr(module, name)

    def commit_then_die(rt, state):
        out = real(rt, state)
        # the analyst's first record names the seed; the scout's first fetch costs a request
        if out.get("seed_person_id") or out.get("requests"):
            raise _Killed
        return out

    monkeypatch.setattr(module, name, commit_then_die)
    with pytest.raises(_Killed):
        run(tmp_path / "case", httpserver, w, EXHAUST)
    monkeypatch.setattr(module, name, real)
    done = resume(tmp_path / "case", fetcher_options=CONTACT)
    assert done.stop_reasons == ref.stop_reasons
    assert set(w.requests) == served, "the resumed run read what a clean run reads"
    assert max(w.requests.values()) == 1, "no request repeated inside the cache TTL"
    assert done.requests == ref.requests, "a request the checkpoint missed is still counted"
    assert (done.facts, done.persons, done.seed_person_id is not None) == (
        ref.facts, ref.persons, True)
    seeds = [e for e in _log(tmp_path / "case") if e["action_type"] == "decision"
             and e["context"].get("decision") == "seed_person"]
    assert len(seeds) == 1, "the seed, once identified, is not lost with the checkpoint"


def test_the_step_limit_stops_resumably_and_resume_finishes(
        httpserver: HTTPServer, world_on, tmp_path: Path, monkeypatch) -> None:
    """Seed 002: hitting the graph's recursion limit is not a crash; it stops with a
    checkpoint and a log entry naming it, for a person to look at, and resume carries on."""
    import sleuth.loop.run as run_mod

    w = world_on(seed=4, generations=2)
    monkeypatch.setattr(run_mod, "RECURSION_LIMIT", 12)
    first = run(tmp_path / "case", httpserver, w, EXHAUST)
    assert first.stop_reasons == ["recursion_limit"] and not first.terminated
    assert _log(tmp_path / "case")[-1]["context"]["reasons"] == ["recursion_limit"]
    monkeypatch.setattr(run_mod, "RECURSION_LIMIT", 10_000_000)
    done = resume(tmp_path / "case", fetcher_options=CONTACT)
    assert done.terminated and done.stop_reasons == ["frontier_exhausted"]


def test_export_log_is_the_censored_research_log(httpserver: HTTPServer, world_on,
                                                 tmp_path: Path) -> None:
    w = world_on(seed=2, generations=2)
    run(tmp_path / "case", httpserver, w, Budget(max_requests=5, target_generations=2))
    res = CliRunner().invoke(app, ["export", str(tmp_path / "case"), "--format", "log"])
    assert res.exit_code == 0, res.output
    rows = [json.loads(x) for x in res.output.splitlines()]
    assert rows[0]["action_type"] == "plan" and rows[-1]["action_type"] == "termination"
    assert [r["seq"] for r in rows] == sorted(r["seq"] for r in rows)
    assert rows == _log(tmp_path / "case")  # the file the run wrote says the same


def test_a_step_limit_stop_tells_the_user_to_look_before_resuming(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from sleuth.cli.research import _summary
    from sleuth.loop import RunResult

    res = RunResult(tmp_path, "r", False, ["recursion_limit"], 2400, 310, 900, 40, 61.0,
                    None, tmp_path / "research-log.jsonl")
    _summary(res)
    out = capsys.readouterr().out
    assert "step limit" in out and "sleuth review" in out and "sleuth resume" in out
