"""The model's entailment judgement over `verify_claim` (issue 24): taken only as far as its
quotes stand in the sentences it cites, never over a contradiction; a scripted
OpenAI-compatible server on 127.0.0.1 is the only stand-in (the network edge)."""

from __future__ import annotations

import json
import os
from typing import Any

from llm_scripted import CHAT, openai_reply
from pytest_httpserver import HTTPServer

from sleuth.llm import LLMClient
from sleuth.llm.entail import judge_claim
from sleuth.verify import verify_claim

EVIDENCE = [
    "Thomas K. Arnold has covered the home entertainment industry since 1991.",
    "He joined Video Store Magazine, Home Media's predecessor, in 1991.",
    "Contact: arnold@example.com or 555-867-5309.",
]
CLAIM = "Arnold was hired by Video Store Magazine in 1991."  # "hired": not shown lexically


def _answer(server: HTTPServer, verdict: str, quotes: list[tuple[int, str]]) -> None:
    body = {"verdict": verdict, "rationale": "joined means hired here",
            "quotes": [{"sentence_index": i, "text": t} for i, t in quotes]}
    server.expect_request(CHAT).respond_with_json(openai_reply(json.dumps(body)))


def _sent(server: HTTPServer) -> dict[str, Any]:
    [(request, _)] = server.log
    return dict(request.get_json())


def test_a_quoted_supported_answer_upgrades_a_partial_check(httpserver: HTTPServer,
                                                            client: LLMClient) -> None:
    check = verify_claim(CLAIM, EVIDENCE)
    assert check.verdict == "partially_supported"
    _answer(httpserver, "supported", [(1, "He joined Video Store Magazine")])
    out = judge_claim(client, check, EVIDENCE)
    assert out.verdict == "supported" and not out.unsupported_spans
    [span] = out.evidence
    assert EVIDENCE[span.sentence_index][span.start : span.end] == span.text
    assert "by the model" in out.rationale
    user = _sent(httpserver)["messages"][-1]["content"]
    assert "[1] He joined Video Store Magazine" in user and CLAIM in user


def test_a_quote_that_is_not_in_its_sentence_is_set_aside(httpserver: HTTPServer,
                                                          client: LLMClient) -> None:
    check = verify_claim(CLAIM, EVIDENCE)
    _answer(httpserver, "supported", [(1, "He was hired by Video Store Magazine")])
    out = judge_claim(client, check, EVIDENCE)
    assert out.verdict == "partially_supported" and "set aside" in out.rationale
    httpserver.clear()
    _answer(httpserver, "supported", [(7, "He joined")])
    out = judge_claim(client, check, EVIDENCE)
    assert out.verdict == "partially_supported" and "does not exist" in out.rationale
    httpserver.clear()
    _answer(httpserver, "supported", [])
    assert judge_claim(client, check, EVIDENCE).verdict == "partially_supported"


def test_a_contradiction_is_never_sent_nor_upgraded(httpserver: HTTPServer,
                                                    client: LLMClient) -> None:
    check = verify_claim("Arnold joined Video Store Magazine in 1993.", EVIDENCE)
    assert check.verdict == "contradicted"
    _answer(httpserver, "supported", [(1, "He joined Video Store Magazine")])
    assert judge_claim(client, check, EVIDENCE) is check
    assert not httpserver.log


def test_the_model_may_lower_a_verdict_and_no_model_changes_nothing(
    httpserver: HTTPServer, client: LLMClient
) -> None:
    check = verify_claim("Arnold joined Video Store Magazine in 1991.", EVIDENCE)
    assert check.verdict == "supported"
    _answer(httpserver, "partially_supported", [(1, "He joined Video Store Magazine")])
    assert judge_claim(client, check, EVIDENCE).verdict == "partially_supported"
    assert judge_claim(None, check, EVIDENCE) is check


def test_a_hosted_endpoint_is_sent_no_pii(httpserver: HTTPServer, client: LLMClient) -> None:
    cfg = client.config.role("verifier")
    client.config.roles["verifier"] = cfg.model_copy(update={"endpoint_locality": "hosted"})
    check = verify_claim(CLAIM, EVIDENCE)
    _answer(httpserver, "not_supported", [])
    assert judge_claim(client, check, EVIDENCE).verdict == "not_supported"
    sent = json.dumps(_sent(httpserver))
    assert "arnold@example.com" not in sent and "867-5309" not in sent


def test_sleuth_verify_model_option(httpserver: HTTPServer, monkeypatch: Any,
                                    tmp_path: Any) -> None:
    from llm_scripted import env_for
    from typer.testing import CliRunner

    from sleuth.cli.app import app

    claims = tmp_path / "claims.jsonl"
    claims.write_text(json.dumps({"id": "a", "claim": CLAIM, "evidence": EVIDENCE}) + "\n",
                      encoding="utf-8")  # fmt: skip
    runner = CliRunner()
    for key in [k for k in os.environ if k.startswith("SLEUTH_LLM")]:
        monkeypatch.delenv(key)
    res = runner.invoke(app, ["verify", "--claims", str(claims), "--model"])
    assert res.exit_code == 2 and "no LLM is configured" in res.stderr
    for key, value in env_for(httpserver).items():
        monkeypatch.setenv(key, value)
    _answer(httpserver, "supported", [(1, "He joined Video Store Magazine")])
    res = runner.invoke(app, ["verify", "--claims", str(claims), "--model"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["verdict"] == "supported"
