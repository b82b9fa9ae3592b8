"""Seed 002's loop limits, apart from the loop itself: the agents name them when they are
registered, and that must not load LangGraph (only the refinement loop's run does)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Limits:
    """Seed 002's Loop Control and Middleware Configuration."""

    recursion_limit: int = 5
    tool_calls: Mapping[str, int] = field(default_factory=lambda: {
        "extractor": 20, "validator": 10, "decision_maker": 5})
    per_tool: Mapping[str, int] = field(default_factory=lambda: {"fetch_document": 5})
    run_tool_calls: int = 15  # the global limiter, per run
    thread_tool_calls: int = 50  # the global limiter, per thread (one candidate key)
    model_calls_run: int = 10
    model_calls_thread: int = 20


SEED_002 = Limits()

__all__ = ["SEED_002", "Limits"]
