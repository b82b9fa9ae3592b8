"""The provider layer against a real HTTP server: retries, Retry-After, timeouts, keys."""

from __future__ import annotations

import json
import logging
import threading
import time

import pytest
from llm_scripted import API_KEY, CHAT, MODEL, Sleeps, anthropic_reply, env_for, openai_reply
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from sleuth.llm import LLMClient, LLMConfig, LLMSchemaError, LLMUnavailable
from sleuth.llm.contracts import PingOutput
from sleuth.llm.provider import BACKOFF_BASE, backoff, retry_after
from sleuth.privacy.outbound import fixed_prompt

PING = [{"role": "user", "content": "Reply with JSON"}]
PROMPT = fixed_prompt(PING)  # fixed text, no case data: what `sleuth llm check` sends


def test_openai_request_shape_and_usage(httpserver: HTTPServer, client: LLMClient) -> None:
    httpserver.expect_request(CHAT, method="POST").respond_with_json(
        openai_reply('{"ok": true, "answer": 5}', 300, 20))
    out = client.structured("verifier", PROMPT, PingOutput)
    assert out == PingOutput(ok=True, answer=5)
    req, _ = httpserver.log[0]
    assert req.headers["Authorization"] == f"Bearer {API_KEY}"
    body = json.loads(req.data)
    assert body["model"] == MODEL and body["messages"] == PING
    assert body["response_format"] == {"type": "json_object"}
    rec = client.last
    assert rec is not None and (rec.input_tokens, rec.output_tokens) == (300, 20)
    assert rec.cost == pytest.approx((300 * 2.5 + 20 * 10) / 1e6)
    assert client.meter.total_cost() == pytest.approx(rec.cost)


def test_429_honours_retry_after(httpserver: HTTPServer, client: LLMClient,
                                 sleeps: Sleeps) -> None:
    httpserver.expect_ordered_request(CHAT).respond_with_json(
        {"error": {"message": "Rate limit reached", "type": "requests", "code":
                   "rate_limit_exceeded"}}, status=429, headers={"Retry-After": "7"})
    httpserver.expect_ordered_request(CHAT).respond_with_json(
        openai_reply('{"ok": true, "answer": 5}'))
    assert client.structured("planner", PROMPT, PingOutput) is not None
    assert sleeps == [7.0]
    assert client.last is not None and client.last.attempts == 2


def test_5xx_backs_off_then_gives_up(httpserver: HTTPServer, client: LLMClient,
                                     sleeps: Sleeps) -> None:
    for _ in range(3):
        httpserver.expect_ordered_request(CHAT).respond_with_data("upstream error", status=500)
    with pytest.raises(LLMUnavailable, match=r"HTTP 500.*after 3 attempts"):
        client.structured("planner", PROMPT, PingOutput)
    assert len(httpserver.log) == 3
    assert len(sleeps) == 2  # jittered exponential: [d/2, d] with d = base * 2^n
    for n, s in enumerate(sleeps):
        assert BACKOFF_BASE * 2**n / 2 <= s <= BACKOFF_BASE * 2**n
    assert client.meter.usage["planner"].failed == 1


def test_500_then_success(httpserver: HTTPServer, client: LLMClient) -> None:
    httpserver.expect_ordered_request(CHAT).respond_with_data("", status=503)
    httpserver.expect_ordered_request(CHAT).respond_with_json(
        openai_reply('{"ok": true, "answer": 5}'))
    assert client.structured("planner", PROMPT, PingOutput) == PingOutput(ok=True, answer=5)


def test_slow_response_times_out(httpserver: HTTPServer, sleeps: Sleeps) -> None:
    done = threading.Event()

    def slow(_req: Request) -> Response:
        time.sleep(1.0)
        done.set()
        return Response(json.dumps(openai_reply('{"ok": true, "answer": 5}')),
                        content_type="application/json")

    httpserver.expect_request(CHAT).respond_with_handler(slow)
    env = env_for(httpserver, SLEUTH_LLM_TIMEOUT="0.2", SLEUTH_LLM_MAX_RETRIES="0")
    c = LLMClient(LLMConfig.load(env=env), sleep=sleeps)
    with pytest.raises(LLMUnavailable, match=r"no answer within 0\.2 s"):
        c.structured("verifier", PROMPT, PingOutput)
    c.close()
    done.wait(5)  # let the server finish, so its late reply is not logged in the next test


def test_key_never_in_errors_or_logs(httpserver: HTTPServer, client: LLMClient,
                                     caplog: pytest.LogCaptureFixture) -> None:
    # OpenAI echoes (part of) a wrong key in its 401 body; a careless server echoes all of it.
    httpserver.expect_request(CHAT).respond_with_json(
        {"error": {"message": f"Incorrect API key provided: {API_KEY}.",
                   "type": "invalid_request_error", "code": "invalid_api_key"}}, status=401)
    caplog.set_level(logging.DEBUG)
    with pytest.raises(LLMUnavailable) as info:
        client.structured("verifier", PROMPT, PingOutput)
    assert info.value.status == 401
    assert len(httpserver.log) == 1  # 4xx other than 408/429: no retry
    assert API_KEY not in str(info.value) and "***" in str(info.value)
    assert API_KEY not in caplog.text
    assert API_KEY not in repr(client.config) and API_KEY not in repr(client.provider("verifier"))


def test_malformed_json_is_repaired_once(httpserver: HTTPServer, client: LLMClient) -> None:
    httpserver.expect_ordered_request(CHAT).respond_with_json(
        openai_reply('{"ok": true, "answer": 5'))
    httpserver.expect_ordered_request(CHAT).respond_with_json(
        openai_reply('{"ok": true, "answer": 5}'))
    assert client.structured("verifier", PROMPT, PingOutput) == PingOutput(ok=True, answer=5)
    repair = json.loads(httpserver.log[1][0].data)["messages"]
    assert repair[-2] == {"role": "assistant", "content": '{"ok": true, "answer": 5'}
    assert "not valid JSON" in repair[-1]["content"]
    assert client.last is not None and client.last.repaired


def test_malformed_twice_is_rejected(httpserver: HTTPServer, client: LLMClient) -> None:
    httpserver.expect_ordered_request(CHAT).respond_with_json(openai_reply("Sure! Here it is"))
    httpserver.expect_ordered_request(CHAT).respond_with_json(
        openai_reply('{"ok": "maybe", "answer": "five"}'))
    with pytest.raises(LLMSchemaError, match="after one repair attempt: does not match"):
        client.structured("verifier", PROMPT, PingOutput)
    assert len(httpserver.log) == 2


def test_reasoning_is_stripped(httpserver: HTTPServer, client: LLMClient) -> None:
    text = '<think>maybe {"ok": false, "answer": 4}? no.</think>\n```json\n{"ok": true, ' \
           '"answer": 5}\n```'
    httpserver.expect_request(CHAT).respond_with_json(openai_reply(text))
    assert client.structured("verifier", PROMPT, PingOutput) == PingOutput(ok=True, answer=5)


def test_anthropic_messages_endpoint(httpserver: HTTPServer, sleeps: Sleeps) -> None:
    httpserver.expect_ordered_request("/v1/messages", method="POST").respond_with_json(
        {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}},
        status=529)
    httpserver.expect_ordered_request("/v1/messages", method="POST").respond_with_json(
        anthropic_reply('{"ok": true, "answer": 5}', 210, 12))
    env = env_for(httpserver, SLEUTH_LLM_PROVIDER="anthropic",
                  SLEUTH_LLM_BASE_URL=httpserver.url_for("/"))
    c = LLMClient(LLMConfig.load(env=env), sleep=sleeps)
    msgs = [{"role": "system", "content": "Be terse."}, *PING]
    assert c.structured("resolver", fixed_prompt(msgs), PingOutput) == PingOutput(ok=True, answer=5)
    req = httpserver.log[1][0]
    assert req.headers["x-api-key"] == API_KEY
    assert req.headers["anthropic-version"] == "2023-06-01"
    assert "Authorization" not in req.headers
    body = json.loads(req.data)
    assert body["system"] == "Be terse." and body["messages"] == PING
    assert body["max_tokens"] > 0
    assert c.meter.usage["resolver"].input_tokens == 210
    assert len(sleeps) == 1
    c.close()


def test_retry_after_http_date() -> None:
    assert retry_after("Wed, 21 Oct 2015 07:28:00 GMT", now=1445412470.0) == pytest.approx(10)
    assert retry_after("3.5") == 3.5
    assert retry_after("soon") is None and retry_after(None) is None


def test_backoff_grows() -> None:
    import random

    rng = random.Random(1)
    waits = [backoff(n, rng) for n in range(5)]
    assert all(BACKOFF_BASE * 2**n / 2 <= w <= BACKOFF_BASE * 2**n for n, w in
               enumerate(waits))


def test_a_200_that_is_not_a_completion(httpserver: HTTPServer, client: LLMClient) -> None:
    httpserver.expect_request(CHAT).respond_with_data("<html>captive portal</html>")
    with pytest.raises(LLMUnavailable, match="not an openai completion"):
        client.structured("verifier", PROMPT, PingOutput)


def test_anthropic_thinking_blocks_are_not_the_answer(httpserver: HTTPServer,
                                                      sleeps: Sleeps) -> None:
    body = anthropic_reply('{"ok": true, "answer": 5}')
    body["content"].insert(0, {"type": "thinking", "thinking": '{"ok": false, "answer": 4}',
                               "signature": "EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pk"})
    httpserver.expect_request("/v1/messages").respond_with_json(body)
    env = env_for(httpserver, SLEUTH_LLM_PROVIDER="anthropic")  # base URL ending in /v1
    c = LLMClient(LLMConfig.load(env=env), sleep=sleeps)
    assert c.structured("analyst", PROMPT, PingOutput) == PingOutput(ok=True, answer=5)
    c.close()


def test_public_surface() -> None:
    import sleuth.llm

    for name in sleuth.llm.__all__:
        assert getattr(sleuth.llm, name) is not None
    assert {"LLMClient", "Verifier", "Planner", "Resolver", "ConflictAnalyst", "Meter",
            "llm_cost", "store_sink"} <= set(sleuth.llm.__all__)
