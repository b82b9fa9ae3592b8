"""Azure OpenAI against the scripted server: Azure's URL, query string and `api-key` header,
never Bearer; the key in no repr, error or log line; `sleuth llm check` speaks it too."""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path

import pytest
import typer
from llm_scripted import API_KEY, env_for, openai_reply
from pytest_httpserver import HTTPServer
from typer.testing import CliRunner
from werkzeug import Request, Response

from sleuth.cli import llm as llm_cmd
from sleuth.cli.app import _Group
from sleuth.llm import LLMClient, LLMConfig, LLMUnavailable
from sleuth.llm.contracts import PingOutput
from sleuth.llm.provider import AzureProvider, OpenAIProvider, make_provider
from sleuth.model import InputError
from sleuth.privacy.outbound import fixed_prompt

PING = [{"role": "user", "content": "Reply with JSON"}]
PROMPT = fixed_prompt(PING)  # fixed text, no case data: what `sleuth llm check` sends
DEPLOYMENT = "gpt-4o-prod"
DATED = f"/openai/deployments/{DEPLOYMENT}/chat/completions"
V1 = "/openai/v1/chat/completions"


def azure_env(server: HTTPServer, **extra: str) -> dict[str, str]:
    return env_for(server, **{"SLEUTH_LLM_BASE_URL": server.url_for("/").rstrip("/"),
                              "SLEUTH_LLM_API_STYLE": "azure",
                              "SLEUTH_LLM_DEPLOYMENT": DEPLOYMENT,
                              "SLEUTH_LLM_MAX_RETRIES": "0", **extra})


def _ping(server: HTTPServer, env: dict[str, str], role: str) -> Request:
    """One structured call through the production client; the request the server got."""
    client = LLMClient(LLMConfig.load(env=env))
    try:
        assert client.structured(role, PROMPT, PingOutput) == PingOutput(ok=True, answer=5)
    finally:
        client.close()
    return server.log[0][0]


def test_dated_api_shape(httpserver: HTTPServer) -> None:
    httpserver.expect_request(DATED, method="POST", query_string="api-version=2024-10-21"
                              ).respond_with_json(openai_reply('{"ok": true, "answer": 5}'))
    req = _ping(httpserver, azure_env(httpserver), "verifier")
    assert req.path == DATED and req.query_string == b"api-version=2024-10-21"
    assert req.headers["api-key"] == API_KEY and "Authorization" not in req.headers
    assert json.loads(req.data)["messages"] == PING


def test_v1_api_names_the_deployment_in_the_body(httpserver: HTTPServer) -> None:
    httpserver.expect_request(V1, method="POST", query_string=""
                              ).respond_with_json(openai_reply('{"ok": true, "answer": 5}'))
    env = azure_env(httpserver, SLEUTH_LLM_BASE_URL=httpserver.url_for("/openai/v1"))
    req = _ping(httpserver, env, "planner")
    assert req.path == V1 and req.query_string == b""
    assert req.headers["api-key"] == API_KEY and "Authorization" not in req.headers
    assert json.loads(req.data)["model"] == DEPLOYMENT


@pytest.mark.parametrize(("base", "style"), [
    ("https://sleuth-east.openai.azure.com", "azure"),
    ("https://sleuth-ai.cognitiveservices.azure.com/openai", "azure"),
    ("https://api.openai.com/v1", "openai"),
    ("http://127.0.0.1:11434/v1", "openai"),
])
def test_style_is_detected_from_the_host(base: str, style: str) -> None:
    cfg = LLMConfig.load(env={"SLEUTH_LLM_BASE_URL": base, "SLEUTH_LLM_MODEL": "gpt-4o",
                              "SLEUTH_LLM_API_VERSION": "2025-01-01-preview"}).role("analyst")
    assert cfg.style == style
    provider = make_provider(cfg)
    try:
        if style == "azure":
            assert isinstance(provider, AzureProvider)
            host = base.split("/openai")[0]
            assert provider.endpoint() == (f"{host}/openai/deployments/gpt-4o/chat/completions"
                                           "?api-version=2025-01-01-preview")
        else:
            assert type(provider) is OpenAIProvider
    finally:
        provider.close()


def test_azure_settings_are_checked() -> None:
    with pytest.raises(InputError, match="Azure needs base_url"):
        LLMConfig.load(env={"SLEUTH_LLM_API_STYLE": "azure", "SLEUTH_LLM_MODEL": "m"})
    with pytest.raises(InputError, match="api_version"):
        LLMConfig.load(env={"SLEUTH_LLM_API_VERSION": "latest", "SLEUTH_LLM_MODEL": "m"})
    with pytest.raises(InputError, match="deployment"):
        LLMConfig.load(env={"SLEUTH_LLM_DEPLOYMENT": "../admin", "SLEUTH_LLM_MODEL": "m"})


def test_key_never_in_reprs_errors_or_logs(httpserver: HTTPServer,
                                           caplog: pytest.LogCaptureFixture) -> None:
    def denied(req: Request) -> Response:  # a server that echoes the key it was sent
        said = f"Access denied due to invalid subscription key {req.headers.get('api-key')}"
        return Response(json.dumps({"error": {"code": "401", "message": said}}), status=401,
                        content_type="application/json")

    httpserver.expect_request(DATED).respond_with_handler(denied)
    cfg = LLMConfig.load(env=azure_env(httpserver))
    client = LLMClient(cfg)
    caplog.set_level(logging.DEBUG)
    try:
        with pytest.raises(LLMUnavailable) as info:
            client.structured("resolver", PROMPT, PingOutput)
        provider = client.provider("resolver")
        shown = [str(info.value), repr(info.value), repr(cfg), repr(cfg.role("resolver")),
                 repr(provider), caplog.text, *(r.getMessage() for r in caplog.records)]
    finally:
        client.close()
    assert "HTTP 401" in str(info.value) and "***" in str(info.value)
    assert not [s for s in shown if API_KEY in s]


def test_llm_check_with_azure(httpserver: HTTPServer, monkeypatch: pytest.MonkeyPatch) -> None:
    for k in list(os.environ):
        if k.startswith("SLEUTH_LLM_"):
            monkeypatch.delenv(k)
    for k, v in azure_env(httpserver, SLEUTH_LLM_ENDPOINT_LOCALITY="hosted").items():
        monkeypatch.setenv(k, v)
    httpserver.expect_request(DATED, query_string="api-version=2024-10-21").respond_with_json(
        openai_reply('{"ok": true, "answer": 5}'))
    app = typer.Typer(cls=_Group)
    app.add_typer(llm_cmd.app, name="llm")
    res = CliRunner().invoke(app, ["llm", "check", "--format", "json"])
    assert res.exit_code == 0, res.output
    row = json.loads(res.output[res.output.index("{"):])
    assert (row["provider"], row["endpoint"], row["schema"]) == ("azure", "hosted", "yes")
    assert row["correct"] is True and len(httpserver.log) == 1
    req, _ = httpserver.log[0]
    assert req.headers["api-key"] == API_KEY and "Authorization" not in req.headers
    assert API_KEY not in res.output


def test_case_file_settings(tmp_path: Path) -> None:
    (tmp_path / "llm.toml").write_text(
        '[default]\nbase_url = "https://sleuth-east.openai.azure.com"\nmodel = "gpt-4o"\n'
        'api_version = "v1"\n[roles.verifier]\ndeployment = "verifier-4o"\n'
        'endpoint_locality = "local"\nsend_living = true\n')
    cfg = LLMConfig.load(tmp_path, env={})
    v, p = cfg.role("verifier"), cfg.role("planner")
    assert (v.style, v.deployment, v.endpoint_locality, v.send_living) == (
        "azure", "verifier-4o", "local", True)
    assert (p.style, p.deployment, p.endpoint_locality, p.send_living) == (
        "azure", "", "auto", False)
    provider = make_provider(v)
    try:
        assert provider.endpoint() == "https://sleuth-east.openai.azure.com/openai/v1/chat/completions"
        assert provider.body(PING, None)["model"] == "verifier-4o"
    finally:
        provider.close()
