"""Stop conditions (seed 000 §7, seed 001 LeadCheckTermination), checked after every task.

Each condition is a pure function of a `Metrics` snapshot and the `Budget`, so they can be
tested one by one; `fired` returns the names of all that hold, in a fixed order, and the
termination log entry names them. `user_interrupt` is raised by Ctrl-C, not computed here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from sleuth.loop.state import Budget

RECENT = 20  # tasks remembered for the discovery rate


@dataclass
class Metrics:
    requests: int = 0
    elapsed: float = 0.0  # seconds
    llm_cost: float = 0.0
    iteration: int = 0
    frontier: int = 0
    revisits: int = 0
    clues: int = 0  # hypotheses with open tasks
    seed_confidence: float = 0.0  # best confidence of the seed person's birth
    generation_depth: int = 0  # generations of ancestors found above the seed
    since_discovery: int = 0
    recent: list[int] = field(default_factory=list)  # new facts per recent task
    claims: int = 0
    gps_ok: bool = False  # every claim has primary + distinct secondary evidence


def _rate(m: Metrics) -> float:
    window = m.recent[-RECENT:]
    return sum(1 for x in window if x > 0) / len(window) if window else 1.0


CONDITIONS: dict[str, Callable[[Metrics, Budget], bool]] = {
    "budget_requests": lambda m, b: b.max_requests is not None and m.requests >= b.max_requests,
    "budget_wall_time": lambda m, b: (b.max_minutes is not None
                                      and m.elapsed >= b.max_minutes * 60),
    "budget_llm_cost": lambda m, b: (b.max_llm_cost is not None
                                     and m.llm_cost >= b.max_llm_cost),
    "confidence_achieved": lambda m, b: (b.stop_on_confidence
                                         and m.seed_confidence >= b.target_confidence
                                         and m.generation_depth >= b.target_generations),
    "diminishing_returns": lambda m, b: (_rate(m) < b.diminishing_rate
                                         and m.since_discovery > b.diminishing_window),
    "frontier_exhausted": lambda m, b: m.frontier == 0 and m.revisits == 0 and m.clues == 0,
    "max_iterations": lambda m, b: (b.max_iterations is not None
                                    and m.iteration >= b.max_iterations),
    "gps_satisfied": lambda m, b: b.stop_on_gps and m.claims > 0 and m.gps_ok,
}
USER_INTERRUPT = "user_interrupt"
ALL = (*CONDITIONS, USER_INTERRUPT)


def fired(m: Metrics, budget: Budget) -> list[str]:
    """Every stop condition that holds now (empty: carry on)."""
    return [name for name, cond in CONDITIONS.items() if cond(m, budget)]
