"""The model endpoint goes through the network door: guard, redirects, reply size, proxies.

Only the host a user configured (base_url) may be private or loopback; the default public
endpoints get no such allowance. Names are answered by a test resolver, so nothing here
leaves this machine; the API key must not show in any error or log record on the way.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import closing

import httpx
import pytest
from llm_scripted import API_KEY, CHAT, MODEL, Sleeps, env_for, openai_reply
from pytest_httpserver import HTTPServer

from sleuth.llm import LLMClient, LLMConfig, LLMUnavailable
from sleuth.llm.contracts import PingOutput
from sleuth.llm.provider import make_provider
from sleuth.privacy.outbound import fixed_prompt

PING = [{"role": "user", "content": "Reply with JSON"}]
PROMPT = fixed_prompt(PING)  # fixed text, no case data: what `sleuth llm check` sends
OK = openai_reply('{"ok": true, "answer": 5}')


@pytest.fixture
def server_on_127() -> Iterator[HTTPServer]:
    """A model server on 127.0.0.1 itself, as Ollama or llama.cpp's server listen."""
    srv = HTTPServer(host="127.0.0.1", port=0)
    srv.start()
    yield srv
    srv.clear()
    if srv.is_running():
        srv.stop()


@pytest.fixture
def no_proxy_env(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    for var in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY", "http_proxy",
                "https_proxy", "all_proxy", "no_proxy"):
        monkeypatch.delenv(var, raising=False)
    return monkeypatch


def _client(env: dict[str, str]) -> closing[LLMClient]:
    return closing(LLMClient(LLMConfig.load(env=env), sleep=Sleeps()))


def _no_key_in(caplog: pytest.LogCaptureFixture, exc: BaseException) -> None:
    assert API_KEY not in str(exc) and API_KEY not in repr(exc)
    assert not [r for r in caplog.records if API_KEY in r.getMessage()]
    assert API_KEY not in caplog.text


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_a_default_endpoint_resolving_to_a_private_address_is_refused(
        provider: str, sleeps: Sleeps, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    cfg = LLMConfig.load(env={"SLEUTH_LLM_PROVIDER": provider, "SLEUTH_LLM_MODEL": MODEL,
                              "SLEUTH_LLM_API_KEY": API_KEY}).role("verifier")
    sent: list[httpx.Request] = []
    mock = httpx.MockTransport(lambda r: sent.append(r) or httpx.Response(200, json=OK))
    for kw in ({}, {"transport": mock}):  # the real socket path and a swapped-in transport
        p = make_provider(cfg, sleep=sleeps, resolver=lambda host, port: ["10.0.0.8"], **kw)
        try:
            with pytest.raises(LLMUnavailable, match=r"api\.\w+\.com .*private") as info:
                p.chat(PING)
        finally:
            p.close()
        _no_key_in(caplog, info.value)
    assert sent == [] and sleeps == []  # refused before sending, and not retried


def test_a_configured_local_endpoint_on_127_0_0_1_works(server_on_127: HTTPServer) -> None:
    server_on_127.expect_request(CHAT, method="POST").respond_with_json(OK)
    env = env_for(server_on_127)
    assert env["SLEUTH_LLM_BASE_URL"].startswith("http://127.0.0.1:")
    with _client(env) as c:
        assert c.structured("verifier", PROMPT, PingOutput) == PingOutput(ok=True, answer=5)


def test_a_configured_lan_name_is_reached_without_a_lookup() -> None:
    """A vLLM box on the LAN, or an Azure private endpoint: the configured host is trusted
    by name, so the test resolver (which refuses to answer) is never asked."""
    def resolver(host: str, port: int) -> list[str]:
        raise AssertionError(f"looked up {host}")

    mock = httpx.MockTransport(lambda r: httpx.Response(200, json=OK))
    cfg = LLMConfig.load(env={"SLEUTH_LLM_BASE_URL": "http://gpu-box.lan:8000/v1",
                              "SLEUTH_LLM_MODEL": MODEL}).role("verifier")
    p = make_provider(cfg, transport=mock, resolver=resolver)
    try:
        assert p.chat(PING).text == '{"ok": true, "answer": 5}'
    finally:
        p.close()


@pytest.mark.parametrize("target", ["http://169.254.169.254/latest/meta-data/",
                                    "http://10.0.0.5/v1/chat/completions"])
def test_a_redirect_to_a_private_address_is_not_followed(
        server_on_127: HTTPServer, target: str, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    server_on_127.expect_request(CHAT).respond_with_data("", status=307,
                                                         headers={"Location": target})
    with _client(env_for(server_on_127)) as c, \
            pytest.raises(LLMUnavailable, match=r"HTTP 307.*not followed") as info:
        c.structured("verifier", PROMPT, PingOutput)
    assert len(server_on_127.log) == 1
    _no_key_in(caplog, info.value)


def test_a_reply_over_the_size_limit_is_refused_once(
        httpserver: HTTPServer, sleeps: Sleeps, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    httpserver.expect_request(CHAT).respond_with_json(
        openai_reply('{"ok": true, "answer": 5}' + " " * 5000))
    cfg = LLMConfig.load(env=env_for(httpserver)).role("verifier")
    p = make_provider(cfg, sleep=sleeps, max_reply_bytes=4000)
    try:
        with pytest.raises(LLMUnavailable, match="exceeds the limit of 4000") as info:
            p.chat(PING)
    finally:
        p.close()
    assert len(httpserver.log) == 1 and sleeps == []  # the same answer every time: no retry
    _no_key_in(caplog, info.value)


def test_the_environment_proxy_still_carries_model_requests(
        httpserver: HTTPServer, no_proxy_env: pytest.MonkeyPatch) -> None:
    """Users reach hosted APIs through corporate proxies: HTTP(S)_PROXY keeps working."""
    no_proxy_env.setenv("HTTP_PROXY", f"http://localhost:{httpserver.port}")
    httpserver.expect_request(CHAT).respond_with_json(OK)
    env = {"SLEUTH_LLM_BASE_URL": "http://models.example/v1", "SLEUTH_LLM_MODEL": MODEL,
           "SLEUTH_LLM_API_KEY": API_KEY}
    with _client(env) as c:
        assert c.structured("verifier", PROMPT, PingOutput) == PingOutput(ok=True, answer=5)
    req = httpserver.log[0][0]
    assert req.headers["Host"] == "models.example"
    assert req.headers["Authorization"] == f"Bearer {API_KEY}"
