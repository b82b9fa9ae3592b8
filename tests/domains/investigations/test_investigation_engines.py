"""Deep-research engines as lead providers, and the model-cost budget (issue 24): the
production LLM client against a real OpenAI-compatible server on 127.0.0.1 (the network
edge, `tests/llm/llm_scripted.py`'s reply shapes). Leads go to research-leads/, ranked by
triangulation, critiqued engine by engine, never cited; each call's cost is spent against
--max-cost, which stops the run as `budget:cost` and carries over a resume."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from investigation_cases import QUESTION, REPORT, UNRELATED, assert_deliverable, run, write_corpus
from llm.llm_scripted import API_KEY, CHAT, openai_reply
from online_cases import point_at, serve_only_search
from sleuth.domains.investigations.leads import EngineLead, EngineRound, triangulate
from sleuth.domains.investigations.state import load_state

CALL_COST = (120 * 2.5 + 40 * 10) / 1_000_000  # openai_reply's usage at the prices below
LEADS = {
    "alpha-model": [
        {"title": "SOU 1970:12 Data och offentlighet", "url": "https://example.org/sou-1970-12",
         "claim": "The committee proposed a data act."},
        {"title": "Uppsala weather 1969", "url": "", "claim": "Mild spring."}],
    "beta-model": [
        {"title": "Data och offentlighet (SOU 1970:12)",
         "url": "http://www.example.org/SOU-1970-12/", "claim": "OFK proposed a datalag."},
        {"title": "Offentlighetskommittén", "url": "https://example.org/ofk", "claim": ""}],
}


def _engines(monkeypatch: pytest.MonkeyPatch, server: HTTPServer, *names: str) -> None:
    monkeypatch.setenv("SLEUTH_LLM_ENGINES", ",".join(names))
    monkeypatch.setenv("SLEUTH_LLM_BASE_URL", server.url_for("/v1"))
    monkeypatch.setenv("SLEUTH_LLM_API_KEY", API_KEY)
    monkeypatch.setenv("SLEUTH_LLM_PRICE_IN", "2.5")
    monkeypatch.setenv("SLEUTH_LLM_PRICE_OUT", "10")
    monkeypatch.setenv("SLEUTH_LLM_MAX_RETRIES", "0")
    for name in names:
        monkeypatch.setenv(f"SLEUTH_LLM_ENGINE_{name.upper()}_MODEL", f"{name}-model")


def _answer(request: Request) -> Response:
    """Each engine answers the question with its own leads; a critique marks its first
    lead plausible and its last doubtful."""
    body = request.get_json()
    system = body["messages"][0]["content"]
    if system.startswith("You critique"):
        reply: dict[str, Any] = {"assessments": [
            {"index": 0, "verdict": "plausible", "reason": "a real report"},
            {"index": 1, "verdict": "doubtful", "reason": "no URL given"}],
            "missing": ["the directive of 1969"]}
    else:
        reply = {"leads": LEADS.get(body["model"], [])}
    return Response(json.dumps(openai_reply(json.dumps(reply))),
                    content_type="application/json")


def test_triangulation_ranks_sources_all_engines_found_first() -> None:
    a = [EngineLead(title="A", url="https://x.org/a"), EngineLead(title="B")]
    b = [EngineLead(title="C", url="https://x.org/c"), EngineLead(title="A page",
                                                                  url="http://www.x.org/a/")]
    c = [EngineLead(title="b"), EngineLead(title="A", url="x.org/a#top")]
    ranked = triangulate({"one": a, "two": b, "three": c})
    assert [r.title for r in ranked] == ["A", "B", "C"]
    assert ranked[0].engines == ["one", "three", "two"] and ranked[0].best == 0
    assert ranked[1].engines == ["one", "three"]  # "B" and "b": the same title folded
    assert triangulate({}) == []


def test_two_engines_give_triangulated_critiqued_leads_never_cited(
        tmp_path: Path, httpserver: HTTPServer, monkeypatch: pytest.MonkeyPatch) -> None:
    _engines(monkeypatch, httpserver, "alpha", "beta")
    httpserver.expect_request(CHAT, method="POST").respond_with_handler(_answer)
    corpus = write_corpus(tmp_path / "corpus", report__txt=REPORT, weather__txt=UNRELATED)
    case = tmp_path / "case"
    code, out, err = run("investigate", QUESTION, "--out", case, "--corpus", corpus)
    assert code == 0, out + err
    state = load_state(case)
    assert state.status == "COMPLETE" and state.termination["reason"] == "verified"
    sent = [r.get_json() for r, _ in httpserver.log]
    asks = [b for b in sent if not b["messages"][0]["content"].startswith("You critique")]
    assert sorted(b["model"] for b in asks) == ["alpha-model", "beta-model"]
    assert all(QUESTION in b["messages"][-1]["content"] for b in asks)
    critiques = [b for b in sent if b not in asks]
    assert sorted(b["model"] for b in critiques) == ["alpha-model", "beta-model"]
    # the critic is shown the other engine's leads, fenced as data
    beta_on_alpha = next(b for b in critiques if b["model"] == "beta-model")
    assert "https://example.org/sou-1970-12" in beta_on_alpha["messages"][-1]["content"]
    assert "<<<DATA-" in beta_on_alpha["messages"][-1]["content"]
    leads = json.loads((case / "research-leads" / "engines-iteration-01.json").read_text())
    assert EngineRound.from_json(leads).to_json() == leads  # what a resumed run re-reads
    ranked = leads["ranked"]
    assert ranked[0]["url"] == "https://example.org/sou-1970-12"  # found by both: first
    assert ranked[0]["engines"] == ["alpha", "beta"] and len(ranked) == 3
    assert all(len(r["engines"]) == 1 for r in ranked[1:])
    md = (case / "research-leads" / "engines-iteration-01.md").read_text(encoding="utf-8")
    assert "named by 2 of 2 engines (alpha, beta)" in md
    assert "### beta on alpha's leads" in md and "lead 1: doubtful — no URL given" in md
    assert "missing: the directive of 1969" in md
    # leads are never sources: nothing cites a lead's URL, every footnote a capture
    assert all("example.org" not in s.path for s in state.sources)
    assert "example.org" not in (case / "summary.md").read_text(encoding="utf-8")
    assert_deliverable(case)
    assert state.budget.model_cost_used == pytest.approx(4 * CALL_COST)


def test_the_cost_budget_stops_the_run_and_resume_keeps_what_was_spent(
        tmp_path: Path, httpserver: HTTPServer, monkeypatch: pytest.MonkeyPatch) -> None:
    _engines(monkeypatch, httpserver, "solo")
    httpserver.expect_request(CHAT, method="POST").respond_with_handler(_answer)
    corpus = write_corpus(tmp_path / "corpus", weather__txt=UNRELATED)  # never answers
    case = tmp_path / "case"
    code, out, _ = run("investigate", QUESTION, "--out", case, "--corpus", corpus,
                       "--max-iterations", 6, "--max-cost", 1.5 * CALL_COST)
    assert code == 1 and "budget:cost" in out
    state = load_state(case)
    assert state.status == "PAUSED" and state.termination["reason"] == "budget:cost"
    assert state.current_iteration == 2 and len(httpserver.log) == 2
    assert state.budget.model_cost_used == pytest.approx(2 * CALL_COST)
    code, out, _ = run("resume", case)  # no larger budget: nothing is spent
    assert code == 1 and "--max-cost" in out and len(httpserver.log) == 2
    code, out, _ = run("resume", case, "--max-cost", 2.5 * CALL_COST)
    assert code == 1 and "budget:cost" in out
    state = load_state(case)
    assert state.current_iteration == 3 and len(httpserver.log) == 3
    assert state.budget.model_cost_used == pytest.approx(3 * CALL_COST)  # kept, then added


def test_a_zero_cost_budget_sends_nothing(tmp_path: Path, httpserver: HTTPServer,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    _engines(monkeypatch, httpserver, "solo")
    httpserver.expect_request(CHAT, method="POST").respond_with_handler(_answer)
    corpus = write_corpus(tmp_path / "corpus", weather__txt=UNRELATED)
    case = tmp_path / "case"
    code, _, _ = run("investigate", QUESTION, "--out", case, "--corpus", corpus,
                     "--max-cost", 0)
    assert code == 1 and not httpserver.log
    state = load_state(case)
    assert state.termination["reason"] == "budget:cost" and state.current_iteration == 1


def test_an_engine_that_fails_is_recorded_not_a_crash(
        tmp_path: Path, httpserver: HTTPServer, monkeypatch: pytest.MonkeyPatch) -> None:
    _engines(monkeypatch, httpserver, "alpha")
    httpserver.expect_request(CHAT, method="POST").respond_with_data("down", status=500)
    corpus = write_corpus(tmp_path / "corpus", report__txt=REPORT)
    case = tmp_path / "case"
    code, out, err = run("investigate", QUESTION, "--out", case, "--corpus", corpus)
    assert code == 0, out + err  # the corpus still answers; the engine gave no leads
    md = (case / "research-leads" / "engines-iteration-01.md").read_text(encoding="utf-8")
    assert "engine alpha gave no leads:" in md and "- no leads" in md
    assert load_state(case).budget.model_cost_used == 0.0


def test_a_misconfigured_engine_refuses_the_command(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SLEUTH_LLM_ENGINES", "alpha,no good")
    corpus = write_corpus(tmp_path / "corpus", report__txt=REPORT)
    code, _, err = run("investigate", QUESTION, "--out", tmp_path / "case", "--corpus", corpus)
    assert code == 2 and "engine name 'no good'" in err and "\n" not in err.strip()
    assert not (tmp_path / "case").exists()


def test_engine_leads_become_searches_of_the_online_sources(
        tmp_path: Path, httpserver: HTTPServer, monkeypatch: pytest.MonkeyPatch) -> None:
    _engines(monkeypatch, httpserver, "solo")
    lead = {"title": "Douglas Adams", "url": "https://en.wikipedia.org/wiki/Douglas_Adams",
            "claim": "He told the anecdote often."}
    httpserver.expect_request(CHAT, method="POST").respond_with_json(
        openai_reply(json.dumps({"leads": [lead]})))
    serve_only_search(httpserver, page=True)
    monkeypatch.setenv("SLEUTH_SOURCES_DIR", str(point_at(httpserver, tmp_path / "specs",
                                                          "wikipedia")))
    case = tmp_path / "case"
    code, out, err = run("investigate", "What did Douglas Adams say about the anecdote?",
                         "--out", case, "--sources", "wikipedia")
    assert code == 0, out + err
    searched = [r.args.get("srsearch") for r, _ in httpserver.log if r.path == "/w/api.php"]
    assert searched == ["douglas adams say anecdote", "Douglas Adams"]
    leads = (case / "research-leads" / "iteration-01.md").read_text(encoding="utf-8")
    assert "## engine lead (solo): Douglas Adams — wikipedia" in leads
    state = load_state(case)
    assert len(state.captured()) == 1  # the lead led to the page already captured
    assert all("en.wikipedia.org/wiki" not in s.path for s in state.sources)  # never cited
