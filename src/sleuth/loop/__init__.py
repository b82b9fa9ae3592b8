"""The research loop: Lead / Scout / Analyst / Censor on LangGraph (seed 001
PlanAndExecuteLoop), with the store as the blackboard, durable checkpoints and stop
conditions it can name. `research` and `resume` are the entry points."""

from sleuth.loop.run import RunResult, research, resume
from sleuth.loop.state import Budget, RunConfig, SeedPerson

__all__ = ["Budget", "RunConfig", "RunResult", "SeedPerson", "research", "resume"]
