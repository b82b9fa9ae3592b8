"""`sleuth llm check` through the CLI runner, against the scripted server."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
import typer
from llm_scripted import API_KEY, CHAT, env_for, openai_reply
from pytest_httpserver import HTTPServer
from typer.testing import CliRunner

from sleuth.cli import llm as llm_cmd
from sleuth.cli.app import _Group

# The same registration the lead adds to sleuth.cli.app.
app = typer.Typer(cls=_Group)
app.add_typer(llm_cmd.app, name="llm")
runner = CliRunner()


@pytest.fixture
def env(httpserver: HTTPServer, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    for k in list(os.environ):
        if k.startswith("SLEUTH_LLM_"):
            monkeypatch.delenv(k)
    e = env_for(httpserver, SLEUTH_LLM_MAX_RETRIES="0")
    for k, v in e.items():
        monkeypatch.setenv(k, v)
    return e


def test_check_ok(httpserver: HTTPServer, env: dict[str, str]) -> None:
    httpserver.expect_request(CHAT).respond_with_json(openai_reply('{"ok": true, "answer": 5}'))
    res = runner.invoke(app, ["llm", "check", "--format", "json"])
    assert res.exit_code == 0, res.output
    row = json.loads(res.output[res.output.index("{"):])  # after any server log line
    assert row["schema"] == "yes" and row["correct"] is True and row["latency_s"] >= 0
    assert row["role"] == "planner, verifier, resolver, analyst"  # one endpoint, one request
    assert len(httpserver.log) == 1 and API_KEY not in res.output


def test_check_reports_non_compliance(httpserver: HTTPServer, env: dict[str, str]) -> None:
    httpserver.expect_request(CHAT).respond_with_json(openai_reply("The answer is 5."))
    res = runner.invoke(app, ["llm", "check", "--role", "verifier"])
    assert res.exit_code == 1
    assert "no" in res.output and "rejected after one repair attempt" in res.output
    assert len(httpserver.log) == 2


def test_check_without_configuration(monkeypatch: pytest.MonkeyPatch) -> None:
    for k in list(os.environ):
        if k.startswith("SLEUTH_LLM_"):
            monkeypatch.delenv(k)
    res = runner.invoke(app, ["llm", "check"])
    assert res.exit_code == 2 and "no LLM is configured" in res.output


def test_check_reads_the_case_file(httpserver: HTTPServer, tmp_path: Path,
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    for k in list(os.environ):
        if k.startswith("SLEUTH_LLM_"):
            monkeypatch.delenv(k)
    monkeypatch.setenv("LOCAL_LLM_KEY", API_KEY)
    (tmp_path / "llm.toml").write_text(
        f'[default]\nbase_url = "{httpserver.url_for("/v1")}"\nmodel = "case-model"\n'
        'api_key_env = "LOCAL_LLM_KEY"\njson_mode = "json_object_schema"\n')
    httpserver.expect_request(CHAT).respond_with_json(
        openai_reply('<think>2+3</think>{"ok": true, "answer": 5}'))
    res = runner.invoke(app, ["llm", "check", "--case", str(tmp_path), "--format", "json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.output[res.output.index("{"):])["model"] == "case-model"
    req = json.loads(httpserver.log[0][0].data)
    assert req["response_format"]["type"] == "json_object"
    assert req["response_format"]["schema"]["title"] == "PingOutput"
    assert httpserver.log[0][0].headers["Authorization"] == f"Bearer {API_KEY}"
