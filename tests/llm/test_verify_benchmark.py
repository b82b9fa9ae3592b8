"""`benchmarks/verify.py --model` (issue 24): the plain-prompt peer and sleuth's check with
the model on top, run on real dev claims (../shared/data, skipped when absent) against a
scripted OpenAI-compatible server on 127.0.0.1 (the network edge, nothing patched)."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from llm_scripted import API_KEY, CHAT, env_for, openai_reply
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from shared_data import shared_path
from sleuth.llm import LLMConfig
from sleuth.verify import verify_claim

BENCH = Path(__file__).resolve().parents[2] / "benchmarks"
PLAIN = "Is the claim supported by the text?"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_verify", BENCH / "verify.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules["bench_verify"] = mod
    spec.loader.exec_module(mod)
    return mod


bench = _load()
vmodel = sys.modules["verify_model"]
Answer = Callable[[bool, list[str]], Any]  # (plain prompt?, the numbered sentences) -> reply


@pytest.fixture
def data() -> Path:
    return shared_path("citations")


@pytest.fixture
def env(httpserver: HTTPServer, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    for key in [k for k in os.environ if k.startswith("SLEUTH_LLM")]:
        monkeypatch.delenv(key)
    for key, value in env_for(httpserver).items():
        monkeypatch.setenv(key, value)
    yield


def _serve(server: HTTPServer, answer: Answer) -> None:
    """Every chat request answered by `answer`, which sees which prompt it is and the
    evidence sentences the prompt numbers."""

    def handle(request: Request) -> Response:
        body = request.get_json()
        system, user = body["messages"][0]["content"], body["messages"][1]["content"]
        sentences = re.findall(r"^\[\d+\] (.*)$", user, flags=re.M)
        reply = answer(system.startswith(PLAIN), sentences)
        if isinstance(reply, str):
            reply = openai_reply(reply)
        return Response(json.dumps(reply), content_type="application/json")

    server.expect_request(CHAT, method="POST").respond_with_handler(handle)


def _supported(plain: bool, sentences: list[str]) -> str:
    """Everything supported; the judge quotes the start of sentence 0, verbatim."""
    if plain:
        return json.dumps({"verdict": "supported"})
    return json.dumps({"verdict": "supported", "rationale": "stated",
                       "quotes": [{"sentence_index": 0, "text": sentences[0][:20]}]})


def _row(out: str, section: str, system: str) -> list[str]:
    """The 'all' row of `system` in the table of `section`, split into its cells."""
    block = out.split(f"## {section}", 1)[1].split("\n## ", 1)[0]
    [line] = [ln for ln in block.splitlines() if re.match(rf"{re.escape(system)} +all ", ln)]
    return line[len(system):].split()[1:]


def _items(data: Path, n: int) -> list[Any]:
    return list(bench.load_wice(data / "wice" / "entailment_retrieval__claim__dev.jsonl"))[:n]


def _client(server: HTTPServer, cache: Path | None = None, **extra: str) -> Any:
    cfg = LLMConfig.load(env=env_for(server, **extra))
    return vmodel.CachedClient(cfg, vmodel.ReplyCache(cache), sleep=lambda s: None)


def test_model_rows_appear_with_their_figures(data: Path, env: None, httpserver: HTTPServer,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    _serve(httpserver, _supported)
    assert bench.main(["--data", str(data), "--limit", "4", "--no-paraphrase", "--model"]) == 0
    out = capsys.readouterr().out
    items = _items(data, 4)
    gold_sup = sum(it.label == "supported" for it in items)
    # cells: n acc macroF1 P(sup) R(sup) #sup binary bin(own) ms
    plain = _row(out, "WiCE", "plain model prompt")
    assert plain[0] == "4" and plain[5] == "4"  # every claim called supported, as answered
    assert float(plain[1]) == pytest.approx(gold_sup / 4, abs=1e-3)
    contradicted = sum(verify_claim(it.claim, it.evidence).verdict == "contradicted"
                       for it in items)  # fmt: skip
    ours = _row(out, "WiCE", "sleuth verify + model")
    assert int(ours[5]) == 4 - contradicted  # every quoted answer stands, bar contradictions
    assert float(ours[-1]) > 0
    assert "plain model prompt: 4 claims, 4 asked, 4 requests sent" in out
    assert f"sleuth verify + model: 4 claims, {4 - contradicted} asked" in out
    assert _row(out, "Wikipedia citation checker", "plain model prompt")[5] == "4"
    # the scripted server counts 120 tokens in and 40 out a reply, at $2.50 / $10 a million
    assert "4 requests sent (0 answered from the cache), 480 tokens in / 160 out, $0.0028" in out
    assert API_KEY not in out
    # the plain prompt is the claim and the numbered sentences, fenced, nothing else
    user = httpserver.log[0][0].get_json()["messages"][1]["content"]
    assert items[0].claim in user and "[0] " in user and "DATA-" in user


def test_a_citation_of_a_missing_sentence_never_upgrades(
        data: Path, httpserver: HTTPServer) -> None:  # fmt: skip
    _serve(httpserver, lambda plain, s: json.dumps(
        {"verdict": "supported", "quotes": [{"sentence_index": 999, "text": "x"}]}))
    items = _items(data, 6)
    client = _client(httpserver)
    systems: dict[str, Any] = {}
    lines = bench.run_models(client, items, systems, None)
    lexical = [bench._READ[verify_claim(it.claim, it.evidence).verdict] for it in items]
    assert systems["sleuth verify + model"][0] == lexical
    assert systems["plain model prompt"][0] == ["supported"] * 6  # the peer takes it as is
    asked = sum(v != "contradicted" for v in
                (verify_claim(it.claim, it.evidence).verdict for it in items))  # fmt: skip
    assert lines[1].endswith(f"answers set aside by the firewall {asked}")


def test_a_contradicted_claim_is_never_sent_and_stays(data: Path,
                                                      httpserver: HTTPServer) -> None:
    _serve(httpserver, _supported)
    every = list(bench.load_wice(data / "wice" / "entailment_retrieval__claim__dev.jsonl"))
    hit = [it for it in every if verify_claim(it.claim, it.evidence).verdict == "contradicted"]
    assert hit, "WiCE dev has contradicted claims"
    items = hit[:2] + _items(data, 2)
    client = _client(httpserver)
    systems: dict[str, Any] = {}
    bench.run_models(client, items, systems, None)
    assert systems["sleuth verify + model"][0][:2] == ["not_supported"] * 2
    assert systems["sleuth verify + model"][0][2:] == ["supported"] * 2
    judged = [r.get_json()["messages"][1]["content"] for r, _ in httpserver.log
              if not r.get_json()["messages"][0]["content"].startswith(PLAIN)]
    assert len(judged) == 2
    assert not any(it.claim in u for it in hit[:2] for u in judged)


def test_unparseable_and_refused_answers_are_errors(data: Path,
                                                    httpserver: HTTPServer) -> None:
    def answer(plain: bool, sentences: list[str]) -> Any:
        if plain:  # a refusal, as api.openai.com sends one: no content
            reply = openai_reply("")
            reply["choices"][0]["message"].update(content=None, refusal="I can't help.")
            return reply
        return "Sure! The claim looks supported to me."

    _serve(httpserver, answer)
    items = _items(data, 3)
    client = _client(httpserver)
    systems: dict[str, Any] = {}
    lines = bench.run_models(client, items, systems, None)
    assert systems["plain model prompt"][0] == ["not_supported"] * 3
    checks = [verify_claim(it.claim, it.evidence).verdict for it in items]
    assert systems["sleuth verify + model"][0] == [bench._READ[v] for v in checks]
    assert "3 asked, 6 requests sent" in lines[0]  # one repair each
    assert "model errors 3 (unparseable or refused by the model 3," in lines[0]
    asked = sum(v != "contradicted" for v in checks)
    assert asked and f"{asked} asked, {2 * asked} requests sent" in lines[1]
    assert f"model errors {asked} (unparseable or refused by the model {asked}," in lines[1]


def test_calls_past_a_limit_are_refused_and_counted(data: Path,
                                                    httpserver: HTTPServer) -> None:
    _serve(httpserver, _supported)
    items = _items(data, 3)
    client = _client(httpserver, SLEUTH_LLM_RUN_LIMIT="1")
    systems: dict[str, Any] = {}
    lines = bench.run_models(client, items, systems, None)
    assert systems["plain model prompt"][0] == ["supported", "not_supported", "not_supported"]
    assert "1 requests sent" in lines[0] and "refused by a limit 2" in lines[0]
    assert len(httpserver.log) == 1


def test_the_cache_file_makes_a_rerun_send_nothing(data: Path, env: None, tmp_path: Path,
                                                   httpserver: HTTPServer,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    _serve(httpserver, _supported)
    cache = tmp_path / "replies.json"
    args = ["--data", str(data), "--limit", "3", "--no-paraphrase", "--model",
            "--model-cache", str(cache)]  # fmt: skip
    assert bench.main(args) == 0
    first = capsys.readouterr().out
    sent = len(httpserver.log)
    assert sent > 0 and cache.exists()
    stored = cache.read_text(encoding="utf-8")
    assert API_KEY not in stored and httpserver.url_for("/") not in stored
    assert sum(len(v) for v in json.loads(stored).values()) == sent
    httpserver.clear_log()
    assert bench.main(args) == 0
    second = capsys.readouterr().out
    assert len(httpserver.log) == 0
    for name in ("plain model prompt", "sleuth verify + model"):
        assert _row(first, "WiCE", name)[:-1] == _row(second, "WiCE", name)[:-1]
    assert "0 requests sent (3 answered from the cache)" in second


def test_model_without_configuration_is_one_line_and_exit_2(
        data: Path, httpserver: HTTPServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    for key in [k for k in os.environ if k.startswith("SLEUTH_LLM")]:
        monkeypatch.delenv(key)
    args = ["--data", str(data), "--limit", "2", "--no-paraphrase", "--model"]
    assert bench.main(args) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and len(captured.err.strip().splitlines()) == 1
    assert "no LLM is configured" in captured.err
    # the same configuration by a folder's llm.toml alone (as `sleuth verify --case`)
    (tmp_path / "llm.toml").write_text(
        f'[default]\nbase_url = "{httpserver.url_for("/v1")}"\nmodel = "m"\n'
        f'api_key_env = "BENCH_TEST_KEY"\n', encoding="utf-8")
    monkeypatch.setenv("BENCH_TEST_KEY", API_KEY)
    _serve(httpserver, _supported)
    assert bench.main([*args, "--llm-case", str(tmp_path)]) == 0
    assert _row(capsys.readouterr().out, "WiCE", "plain model prompt")[5] == "2"


def test_binary_as_each_set_defines_it(data: Path) -> None:
    checker = bench.load_checker(data / "wiki_citation_checker" / "dataset_dev.json")
    gold = [it.label for it in checker]
    partial = ["partially_supported"] * len(gold)
    s = bench.scores(partial, gold, bench.CHECKER_POSITIVE)
    share = sum(g != "not_supported" for g in gold) / len(gold)
    assert s["binary (set's own)"] == pytest.approx(share)
    assert s["binary accuracy"] == pytest.approx(1 - sum(g == "supported" for g in gold)
                                                 / len(gold))  # fmt: skip
    wice = [it.label for it in _items(data, 60)]
    w = bench.scores(["supported"] * 60, wice)
    assert w["binary (set's own)"] == w["binary accuracy"] != share


def test_the_paraphrase_row_asks_what_the_lexical_row_asked(data: Path,
                                                            httpserver: HTTPServer) -> None:
    pytest.importorskip("wordllama")
    from sleuth.verify.soft import load_paraphrase

    _serve(httpserver, _supported)
    items = _items(data, 4)
    client = _client(httpserver)
    systems: dict[str, Any] = {}
    lines = bench.run_models(client, items, systems, load_paraphrase())
    asked = sum(verify_claim(it.claim, it.evidence).verdict != "contradicted" for it in items)
    assert systems["sleuth + paraphrase + model"][0] == systems["sleuth verify + model"][0]
    assert f"{asked} asked, 0 requests sent ({asked} answered from the cache)" in lines[2]
    assert len(httpserver.log) == 4 + asked
