"""The research loop: Lead / Scout / Analyst / Censor on LangGraph (seed 001
PlanAndExecuteLoop), with the store as the blackboard, durable checkpoints and stop
conditions it can name. `research` and `resume` are the entry points.

Names load on first use (PEP 562): a reader of one submodule (`sleuth.sources.hits` for the
report's search log) must not pay for LangGraph (start-up time, issue 19).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sleuth._lazy import loader

if TYPE_CHECKING:
    from sleuth.loop.run import RunResult, research, resume
    from sleuth.loop.state import Budget, RunConfig, SeedPerson

_WHERE: dict[str, tuple[str, ...]] = {
    "sleuth.loop.run": ("RunResult", "research", "resume"),
    "sleuth.loop.state": ("Budget", "RunConfig", "SeedPerson"),
}

__all__ = ["Budget", "RunConfig", "RunResult", "SeedPerson", "research", "resume"]


__getattr__ = loader("sleuth.loop", _WHERE)
