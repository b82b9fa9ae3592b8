"""The research loop as a LangGraph StateGraph (seed 001 PlanAndExecuteLoop).

    START → lead_plan → lead_select ─(task)→ scout → analyst → censor → lead_update
                             │                                              │
                             └─(none)──────────→ check_termination ←────────┘
                                                   │(continue) → lead_select
                                                   └(stop) → END

One pass is the Z loop body: LeadSelectTask ; ScoutSearchSource ; AnalystGenerateHypotheses
; CensorValidateOutput ; LeadUpdateState ; LeadCheckTermination. Each node commits its own
store transaction before LangGraph writes the checkpoint, and each is idempotent when re-run
from the previous checkpoint, which is what makes `kill -9` + resume safe.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from langgraph.graph import END, START, StateGraph

from sleuth.loop import analyst, censor, lead, scout
from sleuth.loop.runtime import Runtime
from sleuth.loop.state import LoopState

NODES = ("lead_plan", "lead_select", "scout", "analyst", "censor", "lead_update",
         "check_termination")


def _after_select(state: LoopState) -> str:
    return "scout" if state.get("task_id") else "check_termination"


def _after_check(state: LoopState) -> str:
    return END if state.get("terminated") else "lead_select"


def build(rt: Runtime, checkpointer: Any = None) -> Any:
    g = StateGraph(LoopState)
    g.add_node("lead_plan", partial(lead.plan, rt))
    g.add_node("lead_select", partial(lead.select_task, rt))
    g.add_node("scout", partial(scout.scout, rt))
    g.add_node("analyst", partial(analyst.analyse, rt))
    g.add_node("censor", partial(censor.censor, rt))
    g.add_node("lead_update", partial(lead.update, rt))
    g.add_node("check_termination", partial(lead.check_termination, rt))
    g.add_edge(START, "lead_plan")
    g.add_edge("lead_plan", "lead_select")
    g.add_conditional_edges("lead_select", _after_select, ["scout", "check_termination"])
    g.add_edge("scout", "analyst")
    g.add_edge("analyst", "censor")
    g.add_edge("censor", "lead_update")
    g.add_edge("lead_update", "check_termination")
    g.add_conditional_edges("check_termination", _after_check, ["lead_select", END])
    return g.compile(checkpointer=checkpointer)
