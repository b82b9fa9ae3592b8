"""Reply parsing: reasoning and fences removed, JSON found, contracts enforced."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from sleuth.llm.contracts import PingOutput, VerifierOutput
from sleuth.llm.structured import extract_json, parse_reply, strip_reasoning

_json = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=20),
                     lambda kids: st.lists(kids, max_size=4)
                     | st.dictionaries(st.text(max_size=8), kids, max_size=4), max_leaves=20)


@given(st.dictionaries(st.text(max_size=10), _json, max_size=5),
       st.text(max_size=200).filter(lambda s: "</think>" not in s.lower()))
def test_reasoning_never_reaches_the_parser(obj: dict, thought: str) -> None:
    text = f"<think>{thought}</think>\n{json.dumps(obj)}"
    assert json.loads(extract_json(text)) == obj
    assert "<think>" not in strip_reasoning(text).lower()


def test_forms_of_reasoning() -> None:
    assert strip_reasoning("<think>a</think>x<THINK>b</THINK>y") == "xy"
    assert strip_reasoning("plan...</think>{}") == "{}"  # server dropped the opening tag
    assert strip_reasoning("{} <think>never closed") == "{}"
    assert strip_reasoning("<thinking>t</thinking>{}") == "{}"


def test_chatter_and_fences() -> None:
    assert extract_json('Here you go:\n```json\n{"a": 1}\n```\nThanks') == '{"a": 1}'
    assert extract_json('Sure. {"a": {"b": 2}} done') == '{"a": {"b": 2}}'


def test_reasons_name_the_field() -> None:
    obj, why = parse_reply('{"ok": true}', PingOutput)
    assert obj is None and why.startswith("does not match PingOutput: answer: Field required")
    obj, why = parse_reply("[1, 2]", PingOutput)
    assert obj is None and "expected a JSON object" in why
    obj, why = parse_reply('{"verification_results": [{"field": "x", "value": "y", '
                           '"status": "Probably"}]}', VerifierOutput)
    assert obj is None and "verification_results.0.status" in why
