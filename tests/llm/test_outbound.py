"""A hosted endpoint is an output path: PII is scrubbed from what it is sent, and records the
Censor treats as about a possibly living person are not sent unless the user opts in.

The scripted server is on 127.0.0.1, so `endpoint_locality = "hosted"` makes it stand for a
third-party API; assertions are on the request bodies the server actually received.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from llm_scripted import CHAT, Log, env_for, openai_reply, snapshot
from pytest_httpserver import HTTPServer

from sleuth.llm import ConflictAnalyst, LLMClient, LLMConfig, Planner, Resolver, Verifier
from sleuth.llm.outbound import endpoint_is_local, is_local_host
from sleuth.pipeline.ingest import extract_for

DECEASED = (
    "OBITUARY. John Henry Whitcombe was born May 12, 1890 in Dorchester, Dorset. He died at "
    "Weymouth on 3 March 1961. He was a stonemason by trade. Copies of this notice: telephone "
    "+44 1305 267992 or write to records@dorset-obits.example.org.\n"
)
LIVING = (
    "Emma Louise Whitcombe was born 14 June 1988 in Weymouth, Dorset. She can be reached at "
    "+44 7700 900123 or emma.whitcombe@example.net.\n"
)
WITH_PARENTS = (
    "OBITUARY. John Henry Whitcombe was born May 12, 1890 in Dorchester, Dorset, the son of "
    "Thomas Whitcombe and Mary Ann Legg. He died at Weymouth on 3 March 1961.\n"
)
VERIFIED = json.dumps({"verification_results": [{
    "field": "birth_date", "value": "1890-05-12", "status": "Verified", "confidence": 0.9,
    "citation_snippet": "born May 12, 1890", "rationale": "stated",
    "subject_name": "John Henry Whitcombe"}], "hypotheses": [], "hallucination_flags": []})


def make(server: HTTPServer, **extra: str) -> LLMClient:
    return LLMClient(LLMConfig.load(env=env_for(server, **extra)))


@pytest.fixture
def hosted(httpserver: HTTPServer) -> Iterator[LLMClient]:
    c = make(httpserver, SLEUTH_LLM_ENDPOINT_LOCALITY="hosted")
    yield c
    c.close()


def sent(server: HTTPServer) -> list[str]:
    """Every message text the server received."""
    return [m["content"] for req, _ in server.log for m in json.loads(req.data)["messages"]]


def verify(server: HTTPServer, client: LLMClient, log: Log, text: str, **kw: Any) -> Any:
    server.expect_request(CHAT).respond_with_json(openai_reply(VERIFIED))
    snap = snapshot(text)
    return Verifier(client, log).verify(snap, extract_for(snap, text.encode()), **kw)


@pytest.mark.parametrize(("host", "local"), [
    ("127.0.0.1", True), ("127.8.0.1", True), ("::1", True), ("[::1]", True),
    ("localhost", True), ("LOCALHOST.", True), ("ollama.localhost", True),
    ("192.168.1.20", False), ("10.0.0.5", False), ("fd00::1", False),
    ("api.openai.com", False), ("sleuth.openai.azure.com", False), ("", False)])
def test_only_this_machine_is_local(host: str, local: bool) -> None:
    assert is_local_host(host) is local


def test_locality_setting_overrides_the_host() -> None:
    def role(**env: str) -> Any:
        return LLMConfig.load(env={"SLEUTH_LLM_MODEL": "m", **env}).role("verifier")

    assert endpoint_is_local(role(SLEUTH_LLM_BASE_URL="http://127.0.0.1:11434/v1"))
    assert not endpoint_is_local(role())  # api.openai.com by default
    assert not endpoint_is_local(role(SLEUTH_LLM_BASE_URL="http://192.168.1.20:8080/v1"))
    assert endpoint_is_local(role(SLEUTH_LLM_BASE_URL="http://192.168.1.20:8080/v1",
                                  SLEUTH_LLM_ENDPOINT_LOCALITY="local"))
    assert not endpoint_is_local(role(SLEUTH_LLM_BASE_URL="http://127.0.0.1/v1",
                                      SLEUTH_LLM_VERIFIER_ENDPOINT_LOCALITY="hosted"))
    assert role(SLEUTH_LLM_SEND_LIVING="1").send_living
    assert not role().send_living


def test_hosted_gets_the_record_without_pii(httpserver: HTTPServer, hosted: LLMClient,
                                            log: Log) -> None:
    res = verify(httpserver, hosted, log, DECEASED)
    assert res is not None and len(res.confirmed) == 1
    body = "\n".join(sent(httpserver))
    assert "John Henry Whitcombe" in body and "stonemason" in body  # the record went
    assert "267992" not in body and "records@dorset-obits" not in body
    assert "[redacted: phone]" in body and "[redacted: email]" in body


def test_local_gets_the_text_unchanged(httpserver: HTTPServer, client: LLMClient,
                                       log: Log) -> None:
    assert verify(httpserver, client, log, DECEASED) is not None
    body = "\n".join(sent(httpserver))
    assert "+44 1305 267992" in body and "records@dorset-obits.example.org" in body


def test_living_person_is_not_sent(httpserver: HTTPServer, hosted: LLMClient,
                                   log: Log) -> None:
    assert verify(httpserver, hosted, log, LIVING) is None
    assert httpserver.log == []
    assert log.actions() == ["llm_skipped"]
    entry = log[0]
    assert entry.context["reason"] == "living" and entry.context["living"] == 1
    assert "1988 is less than 100 years ago" in entry.rationale
    shown = entry.rationale + json.dumps(entry.context)
    assert "Emma" not in shown and "7700" not in shown and "example.net" not in shown


def test_send_living_opts_in_but_pii_is_still_scrubbed(httpserver: HTTPServer,
                                                       log: Log) -> None:
    client = make(httpserver, SLEUTH_LLM_ENDPOINT_LOCALITY="hosted",
                  SLEUTH_LLM_SEND_LIVING="true")
    try:
        verify(httpserver, client, log, LIVING)
    finally:
        client.close()
    body = "\n".join(sent(httpserver))
    assert "Emma Louise Whitcombe" in body and "llm_skipped" not in log.actions()
    assert "900123" not in body and "emma.whitcombe@" not in body


def test_censor_decides_over_the_whole_record(httpserver: HTTPServer, hosted: LLMClient,
                                              log: Log) -> None:
    # Under the default strictest rule, Gramps' bounds leave the undated parents of a man
    # born in 1890 possibly living: the record is withheld...
    assert verify(httpserver, hosted, log, WITH_PARENTS) is None
    assert httpserver.log == [] and log.actions() == ["llm_skipped"]
    assert "Gramps" in log[0].rationale
    # ...unless the caller, holding the case graph, judged nobody in it living.
    assert verify(httpserver, hosted, log, WITH_PARENTS, living=False) is not None
    assert "Thomas Whitcombe" in "\n".join(sent(httpserver))


RESOLVER_REPLY = {"similarity_score": 0.5, "feature_scores": {},
                  "merge_rationale": "same name", "why_not_merge": "no shared dates",
                  "recommendation": "review", "confidence": 0.5}


def test_resolver_on_a_hosted_endpoint(httpserver: HTTPServer, hosted: LLMClient,
                                       log: Log) -> None:
    httpserver.expect_request(CHAT).respond_with_json(openai_reply(json.dumps(RESOLVER_REPLY)))
    judge = Resolver(hosted, log)
    # born 1985: withheld; names alone: the Censor cannot rule living out, withheld
    assert judge.judge({"id": "a", "name": "Emma Whitcombe", "born": 1985},
                       {"id": "b", "name": "E. Whitcombe", "born": 1985}, {}) is None
    assert judge.judge({"id": "a", "name": "Emma Whitcombe"},
                       {"id": "b", "name": "E. Whitcombe"}, {}) is None
    assert httpserver.log == [] and log.actions() == ["llm_skipped", "llm_skipped"]
    # the caller's verdict from the case graph lets undated names through
    assert judge.judge({"id": "a", "name": "Ann Legg"}, {"id": "b", "name": "Anne Legg"}, {},
                       living=False) is not None
    # the caller's "living" wins over dates that look old
    assert judge.judge({"id": "a", "name": "Tom Legg", "born": 1850},
                       {"id": "b", "name": "Thos Legg", "born": 1851}, {}, living=True) is None
    assert "Ann Legg" in "\n".join(sent(httpserver)) and len(httpserver.log) == 1


def test_analyst_and_planner_on_a_hosted_endpoint(httpserver: HTTPServer, hosted: LLMClient,
                                                  log: Log) -> None:
    analyst = ConflictAnalyst(hosted, log)
    living = [{"value": "1988-06-14", "source": "register"}, {"value": "1989"}]
    assert analyst.analyse("birth_date", living, person_id="p-1") is None
    planner = Planner(hosted, log)
    state = {"pedigree": [{"name": "Emma Whitcombe", "born": 1988, "died": None}]}
    assert planner.plan(state, sources=[]) is None
    assert httpserver.log == [] and log.actions() == ["llm_skipped", "llm_skipped"]
    httpserver.expect_request(CHAT).respond_with_json(openai_reply(json.dumps({
        "reasoning": "r", "next_actions": [], "query_expansions": [], "revisit_schedule": [],
        "should_stop": False, "stop_reason": None})))
    old = {"pedigree": [{"name": "John Whitcombe", "born": 1890, "died": 1961}]}
    assert planner.plan(old, sources=[], pending_clues=[
        "ask the informant at 07700 900123 or jw@example.net"]) is not None
    body = "\n".join(sent(httpserver))
    assert "John Whitcombe" in body and "900123" not in body and "jw@example" not in body
