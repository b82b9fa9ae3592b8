"""Call limits and cost accounting (seed 002's middleware semantics, without LangChain).

A limit counts calls per *run* (one `sleuth research`/`resume` invocation) and per *thread*
(the whole case, carried across resumes by `state()`/`Meter(thread_state=...)`). When a
call would pass a limit, its exit behaviour decides:

- continue: this call is refused (the caller falls back to deterministic code) and the run
  goes on; later calls are refused the same way;
- error: `CallLimitExceeded` is raised;
- end: the call is refused and `stop_reason()` says the run should end now.

The cost budget (`Limits.max_cost`, or the loop's `Budget.max_llm_cost` through
`llm_cost()`) behaves as "end": it is a stop condition, never an exception.
"""

from __future__ import annotations

import json
import threading
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from sleuth.llm.config import ExitBehavior, Limits
from sleuth.llm.errors import CallLimitExceeded

METER_FILE = "llm-meter.json"  # a case's saved meter state (carried across resumes)


@dataclass(frozen=True)
class CallLimit:
    """A tool-call limit: `tool` None counts every tool (ToolCallLimitMiddleware)."""

    tool: str | None = None
    run_limit: int | None = None
    thread_limit: int | None = None
    exit_behavior: ExitBehavior = "continue"


@dataclass
class RoleUsage:
    calls: int = 0
    refused: int = 0  # calls a limit or the budget stopped before they were sent
    failed: int = 0  # endpoint errors and replies rejected for their schema
    input_tokens: int = 0
    output_tokens: int = 0
    cost: float = 0.0


@dataclass
class _Counts:
    run: dict[str, int] = field(default_factory=dict)
    thread: dict[str, int] = field(default_factory=dict)


class Meter:
    """One per research run; shared by every role's calls (thread-safe)."""

    def __init__(self, limits: Limits | None = None, tool_limits: tuple[CallLimit, ...] = (),
                 *, thread_state: dict[str, Any] | None = None) -> None:
        self.limits = limits or Limits()
        self.tool_limits = tool_limits
        self.usage: dict[str, RoleUsage] = {}
        self._models = _Counts()
        self._tools = _Counts()
        self._ended: str | None = None
        self._lock = threading.Lock()
        if thread_state:
            self._models.thread = dict(thread_state.get("model_calls", {}))
            self._tools.thread = dict(thread_state.get("tool_calls", {}))
            for role, u in thread_state.get("usage", {}).items():
                self.usage[role] = RoleUsage(**u)

    # -- model calls ---------------------------------------------------------------------
    def allow_model_call(self, role: str) -> bool:
        """Count a model call about to be sent; False when it must not be sent."""
        with self._lock:
            u = self.usage.setdefault(role, RoleUsage())
            if self._ended:
                u.refused += 1
                return False
            lim = self.limits
            if lim.max_cost is not None and self._cost() >= lim.max_cost:
                self._ended = f"budget_llm_cost: ${self._cost():.4f} of ${lim.max_cost:g} spent"
                u.refused += 1
                return False
            run, thread = self._models.run.get("*", 0), self._models.thread.get("*", 0)
            which = _over(run, thread, lim.run_limit, lim.thread_limit)
            if which:
                u.refused += 1
                return self._exit(lim.exit_behavior, f"model_call_limit ({which})", which)
            self._models.run["*"] = run + 1
            self._models.thread["*"] = thread + 1
            return True

    def record(self, role: str, input_tokens: int, output_tokens: int, cost: float) -> None:
        with self._lock:
            u = self.usage.setdefault(role, RoleUsage())
            u.calls += 1
            u.input_tokens += input_tokens
            u.output_tokens += output_tokens
            u.cost += cost

    def record_failure(self, role: str) -> None:
        with self._lock:
            self.usage.setdefault(role, RoleUsage()).failed += 1

    # -- tool calls ----------------------------------------------------------------------
    def allow_tool_call(self, tool: str) -> bool:
        """Count a tool call (a fetch the planner asked for...); False when refused."""
        with self._lock:
            if self._ended:
                return False
            hit: list[tuple[CallLimit, str]] = []
            for lim in self.tool_limits:
                key = lim.tool or "*"
                if lim.tool not in (None, tool):
                    continue
                which = _over(self._tools.run.get(key, 0), self._tools.thread.get(key, 0),
                              lim.run_limit, lim.thread_limit)
                if which:
                    hit.append((lim, which))
            for lim, which in hit:  # "error" first, then "end", then "continue"
                if lim.exit_behavior == "error":
                    return self._exit("error", f"tool_call_limit {lim.tool or '*'} ({which})",
                                      which)
            for lim, which in hit:
                return self._exit(lim.exit_behavior,
                                  f"tool_call_limit {lim.tool or '*'} ({which})", which)
            for key in {"*", tool}:
                self._tools.run[key] = self._tools.run.get(key, 0) + 1
                self._tools.thread[key] = self._tools.thread.get(key, 0) + 1
            return True

    # -- reading -------------------------------------------------------------------------
    def total_cost(self) -> float:
        with self._lock:
            return self._cost()

    def stop_reason(self) -> str | None:
        """Why the run should end now ("end" behaviour or the cost budget), else None."""
        return self._ended

    def start_run(self) -> None:
        """A new run (a resume): run counters restart, thread counters and usage carry on."""
        with self._lock:
            self._models.run.clear()
            self._tools.run.clear()
            self._ended = None

    def state(self) -> dict[str, Any]:
        """What to persist between runs of one case (JSON-able)."""
        with self._lock:
            return {"model_calls": dict(self._models.thread),
                    "tool_calls": dict(self._tools.thread),
                    "usage": {r: asdict(u) for r, u in self.usage.items()}}

    def summary(self) -> dict[str, Any]:
        """Per-role usage plus totals, for live progress and the run report."""
        s = self.state()["usage"]
        return {"roles": s, "total_cost": round(self.total_cost(), 6),
                "calls": sum(u["calls"] for u in s.values()),
                "input_tokens": sum(u["input_tokens"] for u in s.values()),
                "output_tokens": sum(u["output_tokens"] for u in s.values()),
                "stop_reason": self._ended}

    def _cost(self) -> float:
        return sum(u.cost for u in self.usage.values())

    def _exit(self, behavior: ExitBehavior, reason: str, which: str) -> bool:
        if behavior == "error":
            raise CallLimitExceeded(f"{reason} reached", limit=which)
        if behavior == "end":
            self._ended = reason
        return False


def _over(run: int, thread: int, run_limit: int | None, thread_limit: int | None) -> str:
    if run_limit is not None and run >= run_limit:
        return f"run limit {run_limit}"
    if thread_limit is not None and thread >= thread_limit:
        return f"thread limit {thread_limit}"
    return ""


def llm_cost(meter: Meter | None) -> float:
    """The accumulated LLM cost in USD (0 without an LLM): the loop's `state["llm_cost"]`."""
    return 0.0 if meter is None else meter.total_cost()


def load_usage(case_dir: Path) -> dict[str, Any] | None:
    """The case's saved per-role model usage (`Meter.summary` shape), None when no model
    was used: for the report's "Model usage" section."""
    path = Path(case_dir) / METER_FILE
    if not path.exists():
        return None
    meter = Meter(thread_state=json.loads(path.read_text(encoding="utf-8")))
    summary = meter.summary()
    return summary if summary["calls"] or summary["roles"] else None


def usage_line(meter: Meter) -> str:
    """One line for the live display: calls, tokens and cost so far."""
    s = meter.summary()
    return (f"{s['calls']} calls, {s['input_tokens'] + s['output_tokens']:,} tokens, "
            f"${s['total_cost']:.4f}")
