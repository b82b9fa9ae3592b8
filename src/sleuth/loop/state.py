"""The loop's LangGraph state and the run's settings.

The state is deliberately small (ids and counters): the store is the blackboard (seed 004),
so queues, hypotheses, evidence and the log live in the case database and survive a crash
on their own; the checkpoint only says where in the loop the run was.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, TypedDict

from pydantic import BaseModel, Field

from sleuth.model import InputError, new_id

RUN_FILE = "research-run.json"


class LoopState(TypedDict, total=False):
    iteration: int
    task_id: str | None  # the task the Lead selected for this iteration
    analyse: list[str]  # AnalyzeTask ids the Scout produced for the Analyst
    seed_person_id: str | None
    requests: int  # HTTP requests sent (cache hits are free)
    elapsed: float  # active wall seconds, summed over resumes
    llm_cost: float
    facts: int  # promoted assertions so far
    since_discovery: int  # tasks since one last added a fact or a person
    recent: list[int]  # new facts per task, last few tasks (diminishing returns)
    terminated: bool
    stop_reasons: list[str]
    queues: dict[str, int]  # queue sizes as the Lead's update counted them (read once a step)


class Budget(BaseModel):
    """Limits; None means no limit. Seed 000 §7 / seed 001 LeadCheckTermination."""

    max_requests: int | None = Field(default=500, ge=0)
    max_minutes: float | None = Field(default=30.0, gt=0)
    max_llm_cost: float | None = Field(default=None, ge=0)
    max_iterations: int | None = Field(default=2000, ge=1)
    target_generations: int = Field(default=4, ge=0)
    target_confidence: float = Field(default=0.9, ge=0, le=1)
    diminishing_window: int = Field(default=10, ge=1)  # queries since the last discovery
    diminishing_rate: float = Field(default=0.1, ge=0)  # new facts per query below this
    stop_on_confidence: bool = True  # seed 000 "confidence_achieved"
    stop_on_gps: bool = True


class SeedPerson(BaseModel):
    """Who to research: what the user knows (not evidence; nothing here becomes a fact)."""

    name: str = Field(min_length=1)
    given: str = ""
    surname: str = ""
    birth_year: int | None = None
    death_year: int | None = None
    born: str | None = None
    died: str | None = None
    place: str | None = None
    gedcom: str | None = None  # a GEDCOM file ingested as evidence first
    xref: str | None = None  # its person

    def values(self) -> dict[str, Any]:
        """Template values for source search parameters (`sleuth.sources.plugins`)."""
        v: dict[str, Any] = {"name": self.name, "given": self.given, "surname": self.surname,
                             "birth_year": self.birth_year, "death_year": self.death_year,
                             "birth_place": self.place}
        return {k: x for k, x in v.items() if x not in (None, "")}


class RunConfig(BaseModel):
    run_id: str = Field(default_factory=new_id)
    seed: SeedPerson
    sources: list[str] | None = None  # source ids to use; None: every usable one
    budget: Budget = Field(default_factory=Budget)
    naive: bool = False  # breadth-first baseline: FIFO, no priorities, no novelty guard
    segment: int = 0  # continuations of a stopped run (`sleuth resume` with a new budget)

    @property
    def thread_id(self) -> str:
        """The checkpointer's thread: one per segment, so a continuation starts afresh."""
        return self.run_id if self.segment == 0 else f"{self.run_id}:{self.segment}"

    def save(self, case_dir: Path) -> None:
        """Written atomically, so a kill never leaves half a file."""
        path = case_dir / RUN_FILE
        tmp = path.with_suffix(".tmp")
        tmp.write_text(self.model_dump_json(indent=2), encoding="utf-8")
        os.replace(tmp, path)

    @classmethod
    def load(cls, case_dir: Path) -> RunConfig:
        path = case_dir / RUN_FILE
        if not path.exists():
            raise InputError("no research run in this case (start one with `sleuth research`)",
                             file=str(path))
        try:
            return cls.model_validate(json.loads(path.read_text(encoding="utf-8")))
        except (ValueError, json.JSONDecodeError) as exc:
            raise InputError(f"unreadable run settings: {exc}", file=str(path)) from exc


def initial_state() -> LoopState:
    return LoopState(iteration=0, task_id=None, analyse=[], seed_person_id=None, requests=0,
                     elapsed=0.0, llm_cost=0.0, facts=0, since_discovery=0, recent=[],
                     terminated=False, stop_reasons=[])
