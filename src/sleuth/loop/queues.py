"""The loop's queues (seed 000 §2.2), kept in the case store so a crash loses none of them.

FrontierQueue: search tasks (`tasks` rows, `in_frontier`), ordered by priority = expected
information gain. RevisitQueue: tasks that re-query a source already read, each with its
original query, improved query, a reason from seed 001's allowed set and the clue that
triggered it. ClueQueue: the Analyst's hypotheses (`is_fact = false`), pending until their
tasks are done. NoveltyGuard: normalised query hashing plus near-duplicate detection, so
near-identical searches are not repeated.

Z invariants kept here: a task in the frontier is never completed (CHECK constraint too);
only the Analyst adds hypotheses; a revisit without an allowed reason cannot be built.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections import defaultdict
from collections.abc import Callable
from typing import Any, Literal

from pydantic import BaseModel, Field, field_validator
from rapidfuzz import fuzz
from sqlalchemy import Connection

from sleuth.model import REVISIT_REASONS, Agent, Hypothesis, InvariantViolation, new_id
from sleuth.store import Store
from sleuth.store import tasks as rows
from sleuth.store.blackboard import SAME_PERSON

Queue = Literal["frontier", "revisit", "analyze"]
NEAR_DUPLICATE = 92  # rapidfuzz token_sort_ratio on the names of two searches
NEAR_YEARS = 2


class Revisit(BaseModel):
    """Seed 000 RevisitItem; the reason must be one seed 001 allows."""

    original_query: str
    improved_query: str
    reason: str
    triggering_clue: str | None = None
    original_source_id: str

    @field_validator("reason")
    @classmethod
    def _allowed(cls, v: str) -> str:
        if v not in REVISIT_REASONS:
            raise ValueError(f"revisit reason {v!r} is not one of {list(REVISIT_REASONS)}")
        return v


class TaskSpec(BaseModel):
    """What a task asks for; stored as the `tasks.payload` JSON.

    Seed 001's Task: its `action` decides the agent (search, call and fetch are the
    Scout's SearchTasks, analyze the Analyst's AnalyzeTask), so the seed's assignment rule
    holds by construction rather than by a validated `assigned_to` set."""

    queue: Queue = "frontier"
    action: Literal["search", "call", "fetch", "analyze"]
    source: str
    endpoint: str | None = None
    values: dict[str, Any] = Field(default_factory=dict)
    page: int = 0
    query: str = ""
    target: dict[str, Any] = Field(default_factory=dict)  # person_id, generation, name, key
    snapshot_id: str | None = None  # analyze: the snapshot to read
    search: bool = False  # analyze: the snapshot is a search response (hits, not facts)
    from_task: str | None = None
    revisit: Revisit | None = None
    state: Literal["queued", "active", "parked", "done", "failed"] = "queued"
    outcome: str | None = None
    yield_factor: float = 1.0  # the source's search yield its priority was scaled by

    def model_post_init(self, _ctx: Any) -> None:
        if self.queue == "revisit" and self.revisit is None:
            raise ValueError("a revisit task needs its reason (RevisitItem)")


def _fold(s: str) -> str:
    s = unicodedata.normalize("NFKD", s)
    s = "".join(ch for ch in s if not unicodedata.combining(ch)).lower()
    return " ".join(re.sub(r"[^\w\s]", " ", s).split())


def normalise_query(spec: TaskSpec) -> str:
    """Source, action, endpoint and the folded, sorted parameter values."""
    parts = sorted(f"{k}={_fold(str(v))}" for k, v in spec.values.items() if v not in (None, ""))
    return "|".join([spec.source, spec.action, spec.endpoint or "", str(spec.page), *parts])


def query_hash(spec: TaskSpec) -> str:
    return hashlib.sha256(normalise_query(spec).encode()).hexdigest()[:32]


def _year(v: Any) -> int | None:
    m = re.search(r"\d{3,4}", str(v or ""))
    return int(m.group()) if m else None


class NoveltyGuard:
    """Refuses a task whose query was already asked, exactly or nearly (seed 000 NoveltyGuard)."""

    def __init__(self) -> None:
        self.hashes: set[str] = set()
        self._searches: dict[str, list[tuple[str, int | None, int | None]]] = defaultdict(list)
        self.searched: dict[tuple[str, str], str] = {}  # (person, source) -> first query

    @classmethod
    def load(cls, conn: Connection) -> NoveltyGuard:
        """Rebuilt from every task ever queued: a resumed run forgets nothing it asked."""
        guard = cls()
        for payload in rows.task_payloads(conn):
            spec = TaskSpec.model_validate(payload)
            if spec.action != "analyze":
                guard.add(spec)
        return guard

    @staticmethod
    def _bucket(spec: TaskSpec) -> str:
        return f"{spec.source}|{spec.endpoint or ''}|{spec.page}"

    @staticmethod
    def _name(spec: TaskSpec) -> str:
        v = spec.values
        return _fold(str(v.get("name") or " ".join(str(v.get(k, "")) for k in ("given",
                                                                                "surname"))))

    def check(self, spec: TaskSpec) -> str | None:
        """Why this query is not novel, or None when it is."""
        if query_hash(spec) in self.hashes:
            return "exact duplicate of an earlier query"
        if spec.action != "search":
            return None
        name = self._name(spec)
        born, died = _year(spec.values.get("birth_year")), _year(spec.values.get("death_year"))
        for other, b2, d2 in self._searches[self._bucket(spec)]:
            if not _years_close(born, b2) or not _years_close(died, d2):
                continue
            score = fuzz.token_sort_ratio(name, other)
            if score >= NEAR_DUPLICATE:
                return f"near duplicate of an earlier search for {other!r} ({score:.0f})"
        return None

    def add(self, spec: TaskSpec) -> None:
        self.hashes.add(query_hash(spec))
        if spec.action == "search":
            if pid := spec.target.get("person_id"):
                self.searched.setdefault((str(pid), spec.source), spec.query)
            self._searches[self._bucket(spec)].append(
                (self._name(spec), _year(spec.values.get("birth_year")),
                 _year(spec.values.get("death_year"))))


def _years_close(a: int | None, b: int | None) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return abs(a - b) <= NEAR_YEARS


class FrontierQueue:
    """Search tasks in the store; the Lead takes the highest priority (FIFO when `naive`)."""

    def __init__(self, store: Store, *, naive: bool = False) -> None:
        self.store = store
        self.naive = naive

    def push(self, conn: Connection, spec: TaskSpec, priority: float, *, tier: int = 0,
             hypothesis_id: str | None = None, agent: str = str(Agent.ANALYST)) -> str:
        task_id = new_id()
        analyze = spec.action == "analyze"
        rows.insert_task(
            self.store, conn, task_id, task_type="AnalyzeTask" if analyze else "SearchTask",
            priority=min(1.0, max(0.0, priority)),
            agent_of_task=str(Agent.ANALYST if analyze else Agent.SCOUT),
            hypothesis_id=hypothesis_id, tier=tier, payload=spec.model_dump(mode="json"),
            query_hash=query_hash(spec), agent=agent)
        return task_id

    def active(self, conn: Connection) -> str | None:
        """A task the Lead selected but nobody finished (a crash between the two)."""
        return next((tid for tid, payload in rows.started_searches(conn)
                     if payload.get("state") == "active"), None)

    def select(self, conn: Connection) -> str | None:
        """LeadSelectTask: head(sortByPriority(frontier)) leaves the frontier, now active."""
        if (tid := self.active(conn)) is not None:
            return tid
        row = rows.next_search(conn, fifo=self.naive)
        if row is None:
            return None
        rows.set_task(self.store, conn, row[0], {**row[1], "state": "active"},
                      in_frontier=False, completed=False, action="task_selected",
                      agent=str(Agent.LEAD))
        return row[0]

    def get(self, conn: Connection, task_id: str) -> tuple[TaskSpec, float, str | None]:
        payload, priority, hypothesis = rows.task_row(conn, task_id)
        return TaskSpec.model_validate(payload), priority, hypothesis

    def complete(self, conn: Connection, task_id: str, outcome: str, *, failed: bool = False,
                 agent: str = str(Agent.LEAD)) -> None:
        spec, _, _ = self.get(conn, task_id)
        payload = spec.model_dump(mode="json") | {"state": "failed" if failed else "done",
                                                   "outcome": outcome}
        rows.set_task(self.store, conn, task_id, payload, in_frontier=False, completed=True,
                      action="task_completed", agent=agent)

    def reprioritise(self, conn: Connection,
                     rate: Callable[[TaskSpec, float, int], tuple[float, TaskSpec] | None],
                     agent: str = str(Agent.ANALYST)) -> int:
        """Re-rate queued search tasks with what is known now (a person found by name, later
        placed in the pedigree, is worth more than when their searches were queued).
        `rate(spec, priority, tier)` returns the new priority and spec, or None to keep."""
        changed = 0
        for tid, payload, prio, tiers in rows.frontier_searches(conn):
            spec = TaskSpec.model_validate(payload)
            out = rate(spec, float(prio), int((tiers or [0])[0]))
            if out is None or abs(out[0] - float(prio)) < 1e-9:
                continue
            new, spec = out
            new = min(1.0, max(0.0, new))
            rows.rerate_task(self.store, conn, str(tid), new, spec.model_dump(mode="json"),
                             before={"priority": float(prio)},
                             after={"priority": new, "target": spec.target}, agent=agent)
            changed += 1
        return changed

    def adopt(self, conn: Connection, spec: TaskSpec, priority: float,
              agent: str = str(Agent.ANALYST)) -> bool:
        """A queued search asking exactly `spec`'s question, queued for someone else (a
        namesake found first, not yet placed), is raised to `spec`'s priority and target:
        the one request answers both, and is worth what it is to the one who needs it most.
        Whether a task was raised."""
        if spec.action != "search":
            return False
        for tid, payload, prio in rows.same_query(conn, query_hash(spec), priority - 1e-9):
            queued = TaskSpec.model_validate(payload)
            moved = queued.model_copy(update={"target": spec.target,
                                              "yield_factor": spec.yield_factor})
            new = min(1.0, max(0.0, priority))
            rows.rerate_task(self.store, conn, str(tid), new, moved.model_dump(mode="json"),
                             before={"priority": float(prio), "target": queued.target},
                             after={"priority": new, "target": spec.target}, agent=agent,
                             reason="the same search is wanted for a person placed in the "
                                    "pedigree")
            return True
        return False

    def park_all(self, conn: Connection, reason: str) -> int:
        """Termination empties the frontier (Z: terminated ⇒ frontier = ⟨⟩); tasks are kept."""
        return rows.park_frontier(self.store, conn, reason, str(Agent.LEAD))

    def unpark(self, conn: Connection, reason: str) -> int:
        """A stopped run continued with a new budget: the tasks its stop parked go back to
        the frontier as they were queued (audited). Returns how many."""
        back = 0
        for tid, payload in rows.waiting_tasks(conn):
            if payload.get("state") != "parked":
                continue
            rows.set_task(self.store, conn, tid, {**payload, "state": "queued",
                                                  "outcome": reason},
                          in_frontier=True, completed=False, action="task_unparked",
                          agent=str(Agent.LEAD))
            back += 1
        return back

    def sizes(self, conn: Connection) -> dict[str, int]:
        """Tasks in each queue."""
        analyze, search, revisit = rows.queue_counts(conn)
        return {"frontier": search - revisit, "revisit": revisit, "analyze": analyze}

    def pending_analysis(self, conn: Connection) -> list[str]:
        return rows.pending_analyses(conn)


class ClueQueue:
    """The Analyst's hypotheses: pending clues whose tasks are not all done yet."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def add(self, conn: Connection, h: Hypothesis, *, agent: str) -> None:
        """AnalystGenerateHypotheses: nobody but the Analyst may add one (Z Invariant 6)."""
        if agent != str(Agent.ANALYST) or h.generated_by != Agent.ANALYST or h.is_fact:
            raise InvariantViolation(f"only the Analyst generates hypotheses (not {agent})")
        self.store.add_hypothesis(conn, h)

    def pending(self, conn: Connection) -> int:
        """Clues still being followed: hypotheses with a task not yet done. (A clue no
        source can test stays Pending, for a person to read, and does not hold the loop.)"""
        return rows.open_clues(conn)

    def settle_merged(self, conn: Connection, merged: dict[str, str]) -> int:
        """Same-person leads whose two persons a merge has made one are settled: Completed
        (audited, naming the merged person), no longer an open lead in the report."""
        done = 0
        for hid, status, a, b in rows.open_leads(conn, SAME_PERSON):
            root = merged.get(str(a), str(a))
            if root != merged.get(str(b), str(b)):
                continue
            rows.complete_hypotheses(self.store, conn, [(hid, status)], str(Agent.ANALYST),
                                     f"the two persons were merged into person {root}")
            done += 1
        return done

    def settle(self, conn: Connection) -> int:
        """Hypotheses whose tasks are all finished become Completed (audited)."""
        done = rows.followed_hypotheses(conn)
        rows.complete_hypotheses(self.store, conn, done, str(Agent.LEAD),
                                 "every task it suggested is done")
        return len(done)
