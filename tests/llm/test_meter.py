"""Seed 002 limit semantics (continue / error / end), run vs thread, cost budget."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from llm_scripted import CHAT, Log, Sleeps, env_for, openai_reply
from pytest_httpserver import HTTPServer

from sleuth.llm import CallLimit, CallLimitExceeded, Limits, LLMClient, LLMConfig, Meter, llm_cost
from sleuth.llm.contracts import PingOutput
from sleuth.llm.roles import ConflictAnalyst
from sleuth.privacy.outbound import fixed_prompt

PING = [{"role": "user", "content": "JSON please"}]
PROMPT = fixed_prompt(PING)  # fixed text, no case data: what `sleuth llm check` sends


def test_continue_refuses_and_run_goes_on() -> None:
    m = Meter(Limits(run_limit=2, exit_behavior="continue"))
    assert [m.allow_model_call("verifier") for _ in range(4)] == [True, True, False, False]
    assert m.stop_reason() is None and m.usage["verifier"].refused == 2


def test_error_raises() -> None:
    m = Meter(Limits(run_limit=1, exit_behavior="error"))
    assert m.allow_model_call("planner")
    with pytest.raises(CallLimitExceeded, match="run limit 1"):
        m.allow_model_call("planner")


def test_end_stops_the_run_and_a_resume_restarts_run_counts() -> None:
    m = Meter(Limits(run_limit=1, thread_limit=3, exit_behavior="end"))
    assert m.allow_model_call("planner") and not m.allow_model_call("verifier")
    assert m.stop_reason() == "model_call_limit (run limit 1)"
    m2 = Meter(m.limits, thread_state=m.state())  # a resume: thread counts carry over
    assert m2.allow_model_call("planner") and m2.stop_reason() is None
    m2.start_run()
    assert m2.allow_model_call("planner")
    m2.start_run()
    assert not m2.allow_model_call("planner")
    assert m2.stop_reason() == "model_call_limit (thread limit 3)"


def test_tool_limits_per_tool_and_global() -> None:
    m = Meter(tool_limits=(CallLimit(tool="fetch_document", run_limit=2, exit_behavior="error"),
                           CallLimit(run_limit=3, exit_behavior="continue")))
    assert m.allow_tool_call("fetch_document") and m.allow_tool_call("search")
    assert m.allow_tool_call("fetch_document")
    assert not m.allow_tool_call("search")  # global run limit 3, continue
    with pytest.raises(CallLimitExceeded):
        m.allow_tool_call("fetch_document")


@given(st.lists(st.tuples(st.sampled_from(["planner", "verifier", "resolver", "analyst"]),
                          st.integers(0, 10_000), st.integers(0, 10_000)), max_size=30))
def test_cost_is_the_sum_per_role(calls: list[tuple[str, int, int]]) -> None:
    m = Meter()
    for role, tin, tout in calls:
        m.record(role, tin, tout, (tin * 3 + tout * 15) / 1e6)
    total = sum((tin * 3 + tout * 15) / 1e6 for _, tin, tout in calls)
    assert llm_cost(m) == pytest.approx(total)
    assert m.summary()["calls"] == len(calls)
    assert sum(u["cost"] for u in m.summary()["roles"].values()) == pytest.approx(total)
    assert llm_cost(None) == 0.0


def test_cost_budget_is_a_stop_condition(httpserver: HTTPServer, sleeps: Sleeps) -> None:
    httpserver.expect_request(CHAT).respond_with_json(
        openai_reply('{"ok": true, "answer": 5}', 100_000, 10_000))
    cfg = LLMConfig.load(env=env_for(httpserver, SLEUTH_LLM_MAX_COST="0.5"))
    c = LLMClient(cfg, sleep=sleeps)
    assert c.structured("planner", PROMPT, PingOutput) is not None  # $0.25 + $0.10
    assert c.structured("planner", PROMPT, PingOutput) is not None  # $0.70 now
    assert c.structured("planner", PROMPT, PingOutput) is None  # over budget: refused
    assert llm_cost(c.meter) == pytest.approx(0.70)
    assert (c.meter.stop_reason() or "").startswith("budget_llm_cost")
    assert len(httpserver.log) == 2
    c.close()


def test_refused_role_returns_none_and_logs(httpserver: HTTPServer, sleeps: Sleeps) -> None:
    cfg = LLMConfig.load(env=env_for(httpserver, SLEUTH_LLM_RUN_LIMIT="0",
                                     SLEUTH_LLM_EXIT_BEHAVIOR="end"))
    log = Log()
    advice = ConflictAnalyst(LLMClient(cfg, sleep=sleeps), log).analyse(
        "birth_date", [{"value": "1890"}, {"value": "1889"}])
    assert advice is None and log.actions() == ["llm_refused"]
    assert "model_call_limit" in log[0].rationale and httpserver.log == []


def test_no_llm_configured_means_no_call() -> None:
    cfg = LLMConfig.load(env={})
    assert not cfg.enabled
    assert ConflictAnalyst(LLMClient(cfg)).analyse("x", [{"value": "1"}]) is None
    assert ConflictAnalyst(None).analyse("x", [{"value": "1"}]) is None


def test_from_env_joins_the_loop_budget(httpserver: HTTPServer,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    for k, v in env_for(httpserver, SLEUTH_LLM_MAX_COST="5").items():
        monkeypatch.setenv(k, v)
    prior = Meter()
    prior.record("verifier", 10, 10, 0.25)
    c = LLMClient.from_env(max_cost=1.0, thread_state=prior.state())
    assert c is not None and c.meter.limits.max_cost == 1.0
    assert llm_cost(c.meter) == pytest.approx(0.25)  # a resume keeps what was spent
    monkeypatch.delenv("SLEUTH_LLM_MODEL")
    assert LLMClient.from_env() is None


def test_error_behaviour_reaches_the_caller(httpserver: HTTPServer, sleeps: Sleeps) -> None:
    cfg = LLMConfig.load(env=env_for(httpserver, SLEUTH_LLM_RUN_LIMIT="0",
                                     SLEUTH_LLM_EXIT_BEHAVIOR="error"))
    with pytest.raises(CallLimitExceeded, match="model_call_limit"):
        ConflictAnalyst(LLMClient(cfg, sleep=sleeps)).analyse("x", [{"value": "1"}])
