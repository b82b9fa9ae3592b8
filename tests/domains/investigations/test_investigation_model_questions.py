"""/questions through a configured model (issue 24, "richer ones through a model when
configured"): the production client against a real OpenAI-compatible server on 127.0.0.1
(`tests/llm/llm_scripted.py`'s reply shapes). The model's questions are leads: kept only
when their framework was asked, they repeat nothing and their search words are the case's
own; they change what the research reads; an error or a spent budget leaves the frameworks'
questions alone; a reply is paid for once, even across a kill; a living private person's
name never reaches the model."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from investigation_cases import QUESTION, REPORT, UNRELATED, assert_deliverable, write_corpus
from llm.llm_scripted import API_KEY, CHAT, openai_reply
from sleuth.domains.investigations.loop import resume, start
from sleuth.domains.investigations.protect import MASK
from sleuth.domains.investigations.state import Budget, CaseState, load_state
from sleuth.llm.engines import questions_config
from sleuth.model import InputError

CALL_COST = (120 * 2.5 + 40 * 10) / 1_000_000  # openai_reply's usage at the prices below
# What became of the proposal: a file that names none of the question's words (so no
# search of the frameworks' reaches it) but the data act the report proposes.
LATER = ("Datalagen trädde i kraft den 1 juli 1973, och Datainspektionen inrättades samma "
         "år som tillsynsmyndighet för personregister.\n")
EARLY = [
    # the frameworks' own "who" question, word for word: a repeat by id
    {"framework": "who", "question": "Who chaired offentlighetskommittén (OFK), and who "
     "were its members?", "query": ["ofk"]},
    # the frameworks' "what" question reworded: the same content words
    {"framework": "what", "question": "What did the offentlighetskommittén (OFK) propose "
     "or decide?", "query": ["ofk"]},
    # kept, its invented search word dropped
    {"framework": "relationships", "question": "Had Karl Lidin served the justice ministry "
     "before he became OFK's secretary?", "query": ["Karl Lidin", "tidningsutgivareföreningen"]},
    {"framework": "numerology", "question": "Which number recurs in the report?", "query": []},
    {"framework": "why", "question": "   ", "query": ["ofk"]},
]
LATE = [{"framework": "second-order", "question": "What became of the datalag that OFK "
         "proposed: was it enacted, and when?", "query": ["datalag"]}]


def _configure(monkeypatch: pytest.MonkeyPatch, server: HTTPServer) -> None:
    monkeypatch.setenv("SLEUTH_LLM_BASE_URL", server.url_for("/v1"))
    monkeypatch.setenv("SLEUTH_LLM_API_KEY", API_KEY)
    monkeypatch.setenv("SLEUTH_LLM_QUESTIONS_MODEL", "asker-model")
    monkeypatch.setenv("SLEUTH_LLM_PRICE_IN", "2.5")
    monkeypatch.setenv("SLEUTH_LLM_PRICE_OUT", "10")
    monkeypatch.setenv("SLEUTH_LLM_MAX_RETRIES", "0")


def _stage(body: dict[str, Any]) -> str:
    text = body["messages"][-1]["content"]
    return "early" if "- who (early)" in text else "late" if "(late)" in text else "other"


def _answer(request: Request) -> Response:
    body = request.get_json()
    stage = _stage(body)
    reply = {"questions": EARLY if stage == "early" else LATE if stage == "late" else []}
    return Response(json.dumps(openai_reply(json.dumps(reply))),
                    content_type="application/json")


def _corpus(tmp_path: Path) -> Path:
    return write_corpus(tmp_path / "corpus", report__txt=REPORT, weather__txt=UNRELATED,
                        later__txt=LATER)


def _bodies(server: HTTPServer) -> list[dict[str, Any]]:
    return [r.get_json() for r, _ in server.log if r.path == CHAT]


def _read(state: CaseState) -> list[str]:
    return sorted(Path(s.path).name for s in state.captured())


def test_model_questions_are_kept_checked_and_change_what_is_read(
        tmp_path: Path, httpserver: HTTPServer, monkeypatch: pytest.MonkeyPatch) -> None:
    corpus = _corpus(tmp_path)
    offline = start(QUESTION, tmp_path / "offline", corpus)  # no model: today's behaviour
    assert offline.status == "COMPLETE" and _read(offline) == ["report.txt"]
    assert not list((tmp_path / "offline" / "research-leads").glob("questions-*"))
    assert all(q.origin == "" for q in offline.questions)

    _configure(monkeypatch, httpserver)
    httpserver.expect_request(CHAT, method="POST").respond_with_handler(_answer)
    case = tmp_path / "case"
    state = start(QUESTION, case, corpus)
    assert state.status == "COMPLETE" and state.termination
    assert state.termination["reason"] == "verified"
    assert_deliverable(case)
    # the model's late question found the file the frameworks never reach, and it was read
    assert _read(state) == ["later.txt", "report.txt"]
    later = next(s for s in state.captured() if s.path.endswith("later.txt"))
    assert "What became of the datalag" in later.query
    model = [q for q in state.questions if q.origin == "model:questions"]
    assert [(q.framework, q.stage, q.query) for q in model] == [
        ("relationships", "early", ["karl lidin"]),  # the invented word dropped
        ("second-order", "late", ["datalag"])]
    assert model[1].critical and model[1].status == "searched"
    # the deterministic questions are the same ones the offline run asked
    offline_ids = {q.id for q in offline.questions}
    assert offline_ids <= {q.id for q in state.questions}
    # what was dropped, and why, is on record in the state
    early = next(r for r in state.questions_runs if r["stages"] == ["early"])["model"]
    reasons = [d["reason"] for d in early["dropped"]]
    assert reasons[0].startswith("repeats question ") and reasons[1].startswith("repeats")
    assert "search word 'tidningsutgivareföreningen' is not in the case's question or " \
        "extraction" in reasons
    assert "framework 'numerology' was not asked for" in reasons and "empty" in reasons
    md = (case / "questions.md").read_text(encoding="utf-8")
    assert "(second-order, late, iteration 1, model:questions) What became of" in md
    assert "model questions" in (case / "iterations.md").read_text(encoding="utf-8")
    # the raw replies are in research-leads/, one per prompt; a lead is never a source
    saved = sorted((case / "research-leads").glob("questions-*.json"))
    assert len(saved) == len(_bodies(httpserver)) == 3  # early, late, late after iteration 2
    assert {json.loads(p.read_text())["model"] for p in saved} == {"asker-model"}
    assert state.budget.model_cost_used == pytest.approx(3 * CALL_COST)
    # the prompt lists the frameworks due and fences the case's data
    first = _bodies(httpserver)[0]["messages"][-1]["content"]
    assert "- relationships (early):" in first and "<<<DATA-" in first
    assert "Rune Hermansson" in first and "OFK föreslår att en datalag införs." in first


def test_a_model_error_is_recorded_and_the_frameworks_stand_alone(
        tmp_path: Path, httpserver: HTTPServer, monkeypatch: pytest.MonkeyPatch) -> None:
    _configure(monkeypatch, httpserver)
    httpserver.expect_request(CHAT, method="POST").respond_with_data("down", status=500)
    corpus = write_corpus(tmp_path / "corpus", report__txt=REPORT, weather__txt=UNRELATED)
    state = start(QUESTION, tmp_path / "case", corpus)
    assert state.status == "COMPLETE" and len(_bodies(httpserver)) == 2  # early and late
    assert all(q.origin == "" for q in state.questions)
    runs = [r["model"] for r in state.questions_runs]
    assert all(m["error"].startswith("model error:") and not m["kept"] for m in runs)
    text = (tmp_path / "case" / "iterations.md").read_text(encoding="utf-8")
    assert "- model questions: early: not used (model error:" in text
    assert "late: not used (model error:" in text
    assert state.budget.model_cost_used == 0.0
    offline = start(QUESTION, tmp_path / "offline", corpus)
    assert [q.id for q in state.questions] == [q.id for q in offline.questions]


def test_a_spent_budget_refuses_the_call_and_the_run_goes_on(
        tmp_path: Path, httpserver: HTTPServer, monkeypatch: pytest.MonkeyPatch) -> None:
    _configure(monkeypatch, httpserver)
    httpserver.expect_request(CHAT, method="POST").respond_with_handler(_answer)
    state = start(QUESTION, tmp_path / "case", _corpus(tmp_path),
                  budget=Budget(max_model_cost=0.5 * CALL_COST))
    assert state.status == "COMPLETE" and state.termination
    assert state.termination["reason"] == "verified"
    assert [_stage(b) for b in _bodies(httpserver)] == ["early"]  # the late call refused
    late = next(r for r in state.questions_runs if r["stages"] == ["late"])["model"]
    assert late["error"].startswith("refused: budget_llm_cost")
    assert state.budget.model_cost_used == pytest.approx(CALL_COST)
    assert _read(state) == ["report.txt"]  # without the late question: the frameworks' reach


class Killed(BaseException):
    """Stands for a kill: raised where the run would die, nothing after it runs."""


def test_a_run_killed_after_the_reply_resumes_without_asking_again(
        tmp_path: Path, httpserver: HTTPServer, monkeypatch: pytest.MonkeyPatch) -> None:
    _configure(monkeypatch, httpserver)
    httpserver.expect_request(CHAT, method="POST").respond_with_handler(_answer)
    corpus = _corpus(tmp_path)
    reference = start(QUESTION, tmp_path / "reference", corpus)
    paid = len(_bodies(httpserver))
    httpserver.clear_log()

    def die(line: str) -> None:  # after the reply is saved, before the state records it
        if "model questions:" in line:
            raise Killed

    case = tmp_path / "case"
    with pytest.raises(Killed):
        start(QUESTION, case, corpus, progress=die)
    assert load_state(case).current_phase == "QUESTIONS" and not load_state(case).questions
    assert [_stage(b) for b in _bodies(httpserver)] == ["early"]
    state = resume(case)
    assert state.status == "COMPLETE"
    stages = [_stage(b) for b in _bodies(httpserver)]
    assert stages.count("early") == 1 and len(stages) == paid  # the early reply re-read
    early = next(r for r in state.questions_runs if r["stages"] == ["early"])["model"]
    assert early["cached"]
    # the same inputs, the same outputs: the questions and what they read
    assert [q.to_json() for q in state.questions] == [q.to_json() for q in reference.questions]
    assert _read(state) == _read(reference)
    assert (case / "questions.md").read_text() == (
        tmp_path / "reference" / "questions.md").read_text()
    assert state.budget.model_cost_used == pytest.approx(paid * CALL_COST)  # paid once each


LIFE = ("The life of a Leeds clerk\n\nJohn Smith was born on 4 March 1990 in Leeds, the son "
        "of a wool merchant. He worked as a clerk in the city before the war, and kept the "
        "accounts of the wool exchange for thirty years.\n")


def test_a_living_private_persons_name_never_reaches_the_model(
        tmp_path: Path, httpserver: HTTPServer, monkeypatch: pytest.MonkeyPatch) -> None:
    _configure(monkeypatch, httpserver)
    leak = {"questions": [{"framework": "who", "question": "Who employed John Smith in Leeds?",
                           "query": ["john smith", "smith", "leeds"]}]}
    httpserver.expect_request(CHAT, method="POST").respond_with_json(
        openai_reply(json.dumps(leak)))
    corpus = write_corpus(tmp_path / "corpus", life__txt=LIFE)
    case = tmp_path / "case"
    state = start("When was John Smith born?", case, corpus, budget=Budget(max_iterations=2))
    bodies = _bodies(httpserver)
    assert bodies, "the model was never asked"
    for body in bodies:
        sent = json.dumps(body, ensure_ascii=False)
        assert "Smith" not in sent and "smith" not in sent.lower()
        assert f"When was {MASK} born?" in sent  # the question is there, masked
    model = [q for q in state.questions if q.origin]
    assert [(q.text, q.query) for q in model] == [(f"Who employed {MASK} in Leeds?", ["leeds"])]
    dropped = [d["reason"] for r in state.questions_runs for d in r["model"]["dropped"]]
    assert dropped.count(f"search word {MASK} names a living private person") == 2


def test_a_hosted_endpoint_is_not_sent_a_question_about_a_living_private_person(
        tmp_path: Path, httpserver: HTTPServer, monkeypatch: pytest.MonkeyPatch) -> None:
    _configure(monkeypatch, httpserver)
    monkeypatch.setenv("SLEUTH_LLM_QUESTIONS_ENDPOINT_LOCALITY", "hosted")
    httpserver.expect_request(CHAT, method="POST").respond_with_handler(_answer)
    corpus = write_corpus(tmp_path / "corpus", life__txt=LIFE)
    state = start("When was John Smith born?", tmp_path / "case", corpus,
                  budget=Budget(max_iterations=2))
    assert not httpserver.log  # withheld by the privacy gate: nothing was sent
    runs = [r["model"] for r in state.questions_runs]
    assert runs and all(m["error"].startswith("withheld by the privacy gate") for m in runs)
    # a question about no living private person goes to the same hosted endpoint
    start(QUESTION, tmp_path / "inquiry", write_corpus(tmp_path / "c2", report__txt=REPORT))
    assert httpserver.log


def test_no_deliverable_names_a_living_private_person_even_in_pieces(tmp_path: Path) -> None:
    """Without a model too: the frameworks' general questions name the question's people
    one word at a time ("beside John and Smith"), and the first iteration's leads are
    written before its extraction knows who is protected; both are masked by the commit."""
    corpus = write_corpus(tmp_path / "corpus", life__txt=LIFE)
    case = tmp_path / "case"
    start("When was John Smith born?", case, corpus, budget=Budget(max_iterations=2))
    files = [case / "questions.md", *sorted((case / "research-leads").glob("*.md"))]
    assert len(files) >= 3
    for path in files:
        text = path.read_text(encoding="utf-8")
        assert "smith" not in text.lower() and MASK in text, path.name
    assert "beside John and [living private person]" in (case / "questions.md").read_text()


def test_the_questions_role_is_on_only_with_a_model_of_its_own(tmp_path: Path) -> None:
    base = {"SLEUTH_LLM_BASE_URL": "http://127.0.0.1:9/v1", "SLEUTH_LLM_MODEL": "any"}
    assert questions_config(env=base) is None  # a default model alone: nothing changes
    on = questions_config(env={**base, "SLEUTH_LLM_QUESTIONS_MODEL": "asker"})
    assert on is not None and on.model == "asker" and on.url == "http://127.0.0.1:9/v1"
    (tmp_path / "llm.toml").write_text('[default]\nbase_url = "http://127.0.0.1:9/v1"\n'
                                       '[roles.questions]\nmodel = "asker"\nprice_in = 1.5\n')
    cfg = questions_config(tmp_path, env={})
    assert cfg is not None and cfg.price_in == 1.5 and cfg.role == "questions"
    with pytest.raises(InputError, match="LLM settings for questions"):
        questions_config(env={**base, "SLEUTH_LLM_QUESTIONS_MODEL": "asker",
                              "SLEUTH_LLM_QUESTIONS_TEMPERATURE": "9"})
