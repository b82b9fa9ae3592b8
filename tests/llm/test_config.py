"""Settings: environment over case file over defaults; keys never in files or reprs."""

from __future__ import annotations

from pathlib import Path

import pytest

from sleuth.llm import LLMConfig
from sleuth.model import InputError


def test_per_role_overrides() -> None:
    cfg = LLMConfig.load(env={"SLEUTH_LLM_BASE_URL": "http://127.0.0.1:11434/v1",
                              "SLEUTH_LLM_MODEL": "qwen3:8b",
                              "SLEUTH_LLM_VERIFIER_MODEL": "qwen3:32b",
                              "SLEUTH_LLM_RESOLVER_PROVIDER": "anthropic",
                              "SLEUTH_LLM_RESOLVER_BASE_URL": "",
                              "SLEUTH_LLM_API_KEY": "sk-secret-1"})
    assert cfg.role("planner").model == "qwen3:8b"
    assert cfg.role("verifier").model == "qwen3:32b"
    assert cfg.role("resolver").provider == "anthropic"
    assert "sk-secret-1" not in repr(cfg) and cfg.role("planner").key() == "sk-secret-1"
    with pytest.raises(InputError, match="unknown LLM role"):
        cfg.role("oracle")


def test_case_file(tmp_path: Path) -> None:
    (tmp_path / "llm.toml").write_text(
        '[default]\nbase_url = "http://127.0.0.1:8080/v1"\nmodel = "smollm2"\n'
        'api_key_env = "MY_KEY"\nprice_in = 0.1\n'
        '[roles.analyst]\nmodel = "big"\n[limits]\nmax_cost = 2.5\nrun_limit = 40\n')
    cfg = LLMConfig.load(tmp_path, env={"MY_KEY": "k-123", "SLEUTH_LLM_PLANNER_MODEL": "env"})
    assert cfg.role("verifier").model == "smollm2" and cfg.role("analyst").model == "big"
    assert cfg.role("planner").model == "env"  # environment wins
    assert cfg.role("verifier").key() == "k-123" and cfg.role("verifier").price_in == 0.1
    assert cfg.limits.max_cost == 2.5 and cfg.limits.run_limit == 40


def test_case_file_may_not_hold_a_key(tmp_path: Path) -> None:
    (tmp_path / "llm.toml").write_text('[default]\napi_key = "sk-live-abc"\n')
    with pytest.raises(InputError, match="api_key_env") as info:
        LLMConfig.load(tmp_path, env={})
    assert "sk-live-abc" not in str(info.value)


def test_bad_values_name_the_field(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="timeout"):
        LLMConfig.load(env={"SLEUTH_LLM_TIMEOUT": "-1", "SLEUTH_LLM_MODEL": "m"})
    (tmp_path / "llm.toml").write_text("[default\n")
    with pytest.raises(InputError, match=r"llm\.toml"):
        LLMConfig.load(tmp_path, env={})
    with pytest.raises(InputError, match="exit_behavior"):
        LLMConfig.load(env={"SLEUTH_LLM_EXIT_BEHAVIOR": "explode"})
