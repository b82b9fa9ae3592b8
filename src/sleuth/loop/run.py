"""Entry points: `research` starts a run on a case folder, `resume` continues one.

    research(case_dir, seed_person, sources=None, budget=None, progress=None) -> RunResult
    resume(case_dir, progress=None, budget=None) -> RunResult

The run's settings are kept in `CASE/research-run.json`, its place in the loop in the
LangGraph checkpointer (`store/checkpoints.py`), and everything it learned in the case
store. Ctrl-C stops at once with a checkpoint and a final log entry naming
`user_interrupt`; `resume` carries on from there (or after a `kill -9`, from the last
completed node).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from langgraph.errors import GraphRecursionError

from sleuth.export import log_jsonl
from sleuth.gps.coverage import coverage, record_negative, searches
from sleuth.gps.overrides import load_overrides
from sleuth.llm import LLMClient
from sleuth.loop import lead
from sleuth.loop.analyst import recorded_seed
from sleuth.loop.graph import build
from sleuth.loop.queues import ClueQueue, FrontierQueue, NoveltyGuard
from sleuth.loop.runtime import Progress, Runtime
from sleuth.loop.state import (
    RUN_FILE,
    Budget,
    LoopState,
    RunConfig,
    SeedPerson,
    initial_state,
)
from sleuth.loop.stop import USER_INTERRUPT
from sleuth.model import Agent, InputError, LogEntry, id_stream, stable_id
from sleuth.pipeline import ingest_path
from sleuth.privacy import assess_living
from sleuth.sources.fetcher import CONTACT_ENV, Fetcher
from sleuth.sources.registry import load_registry
from sleuth.store import Store, blackboard, case_graph, research_log
from sleuth.store.checkpoints import checkpointer
from sleuth.store.id_marks import load_mark
from sleuth.store.lock import case_lock
from sleuth.store.queries import id_namespace
from sleuth.store.store import CASE_CONFIG

RECURSION_LIMIT = 10_000_000
LLM_METER = "llm-meter.json"
RECURSION_STOP = "recursion_limit"  # the graph's step limit: a person should look, then resume
StepHook = Callable[[str, dict[str, Any]], None]  # (node, its update) after each checkpoint


@dataclass
class RunResult:
    case_dir: Path
    run_id: str
    terminated: bool
    stop_reasons: list[str]
    iterations: int
    requests: int
    facts: int
    persons: int
    elapsed: float
    seed_person_id: str | None
    log_path: Path
    state: dict[str, Any] = field(default_factory=dict)


def _seed(seed: SeedPerson | Mapping[str, Any] | str) -> SeedPerson:
    if isinstance(seed, SeedPerson):
        return seed
    if isinstance(seed, str):
        seed = {"name": seed}
    data = dict(seed)
    parts = str(data.get("name", "")).split()
    data.setdefault("given", " ".join(parts[:-1]) if len(parts) > 1 else "".join(parts))
    data.setdefault("surname", parts[-1] if len(parts) > 1 else "")
    return SeedPerson.model_validate(data)


def research(case_dir: Path, seed_person: SeedPerson | Mapping[str, Any] | str,
             sources: list[str] | None = None, budget: Budget | None = None,
             progress: Progress | None = None, *, naive: bool = False,
             db_url: str | None = None, fetcher_options: Mapping[str, Any] | None = None,
             on_step: StepHook | None = None) -> RunResult:
    """Research a seed person into `case_dir` (created when it is not a case yet)."""
    case_dir = Path(case_dir)
    if (case_dir / RUN_FILE).exists():
        raise InputError("this case already has a research run; use `sleuth resume`",
                         file=str(case_dir / RUN_FILE))
    seed = _seed(seed_person)
    if not (case_dir / CASE_CONFIG).exists():
        # Refused before anything is written: a start that cannot run makes no case.
        _refusals(case_dir, sources, fetcher_options or {})
        Store.create_case(case_dir, db_url).close()
    with _writer(case_dir, "research"):
        if (case_dir / RUN_FILE).exists():  # another start won the race to the lock
            raise InputError("this case already has a research run; use `sleuth resume`",
                             file=str(case_dir / RUN_FILE))
        return _start(case_dir, seed, sources, budget, progress, naive, fetcher_options,
                      on_step)


def _start(case_dir: Path, seed: SeedPerson, sources: list[str] | None,
           budget: Budget | None, progress: Progress | None, naive: bool,
           fetcher_options: Mapping[str, Any] | None, on_step: StepHook | None) -> RunResult:
    _refusals(case_dir, sources, fetcher_options or {})  # a case that existed: under its lock
    config = RunConfig(seed=seed, sources=sources, budget=budget or Budget(), naive=naive)
    # The run is named by what it asks, so a replay draws the same ids (`model.ids`).
    config.run_id = stable_id("research", config.model_dump_json(exclude={"run_id"}))
    if seed.gedcom:
        _ingest_gedcom(case_dir, seed)
    config.save(case_dir)
    return _drive(case_dir, config, progress, fetcher_options or {}, on_step)


def resume(case_dir: Path, progress: Progress | None = None, budget: Budget | None = None,
           fetcher_options: Mapping[str, Any] | None = None,
           on_step: StepHook | None = None) -> RunResult:
    """Continue the case's run from its last checkpoint (a new budget may be given)."""
    case_dir = Path(case_dir)
    config = RunConfig.load(case_dir)
    with _writer(case_dir, "resume"):
        if budget is not None:
            config = config.model_copy(update={"budget": budget})
            if _stopped(case_dir):  # a run that stopped carries on under the new budget
                config = _reopen(case_dir, config)
            config.save(case_dir)
        return _drive(case_dir, config, progress, fetcher_options or {}, on_step)


@contextmanager
def _writer(case_dir: Path, command: str) -> Iterator[None]:
    """The case's writer lock (`store.lock`): a second research, resume or ingest on the
    case refuses with one line naming this one."""
    store = Store.open_case(case_dir)
    try:
        with case_lock(case_dir, command, store.engine):
            yield
    finally:
        store.close()


def _stopped(case_dir: Path) -> bool:
    """The run's last word was a final stop (not a Ctrl-C or a step limit to resume)."""
    store = Store.open_case(case_dir)
    try:
        with store.engine.connect() as conn:
            last = research_log.last_context(conn, "Lead", "termination")
    finally:
        store.close()
    return last is not None and not (last or {}).get("resumable")


def _reopen(case_dir: Path, config: RunConfig) -> RunConfig:
    """A new segment of a stopped run: the tasks its stop parked go back to the frontier and
    the loop starts again from them with fresh counters (the new budget is this segment's)."""
    store = Store.open_case(case_dir)
    try:
        with store.transaction() as conn:
            back = FrontierQueue(store).unpark(conn, "resumed with a new budget")
            store.log(conn, LogEntry(  # named by the run and its segment, as a replay names it
                id=stable_id("resume_budget", config.run_id, str(config.segment + 1)),
                agent=Agent.LEAD, action_type="decision",
                rationale=f"resumed with a new budget: {back} parked tasks back in the frontier",
                context={"decision": "resume_budget", "tasks": back,
                         "budget": config.budget.model_dump(), "segment": config.segment + 1}))
    finally:
        store.close()
    return config.model_copy(update={"segment": config.segment + 1})


def _refusals(case_dir: Path, sources: list[str] | None,
              fetcher_options: Mapping[str, Any]) -> None:
    """What refuses a start: a source id not known, network sources without a contact."""
    registry = load_registry(case_dir)
    for sid in sources or []:
        registry.get(sid)  # unknown ids fail now, naming the known ones
    _require_contact(registry, sources, fetcher_options)


def _require_contact(registry: Any, sources: list[str] | None,
                     fetcher_options: Mapping[str, Any]) -> None:
    """Network sources ask for a contact in the User-Agent: without one, refuse."""
    network = [s for s in registry if s.kind != "local" and not s.local
               and (sources is None or s.id in sources)]
    if network and not (fetcher_options.get("contact") or os.environ.get(CONTACT_ENV)):
        raise InputError(f"set {CONTACT_ENV} (an e-mail or URL) before researching "
                         "network sources: they ask for a contact in the User-Agent",
                         field=CONTACT_ENV)


def _ingest_gedcom(case_dir: Path, seed: SeedPerson) -> None:
    path = Path(seed.gedcom or "")
    if not path.is_file():
        raise InputError("no such GEDCOM file", file=str(path), field="--gedcom")
    store = Store.open_case(case_dir)
    try:
        ingest_path(store, path)
    finally:
        store.close()


def _drive(case_dir: Path, config: RunConfig, progress: Progress | None,
           fetcher_options: Mapping[str, Any], on_step: StepHook | None = None) -> RunResult:
    """Run (or carry on) the graph; its ids come from a stream named by the run and by what
    the case held when it started, so the same run replayed on the same responses makes the
    same ids. A resume carries the stream on from where its last commit left it
    (`store.id_marks`): it never redraws an id the killed run committed, and the work it
    redoes draws the ids the uninterrupted run drew for it."""
    store = Store.open_case(case_dir)
    with store.engine.connect() as conn:
        mark = load_mark(conn, config.run_id) or {
            "namespace": id_namespace(conn, f"research:{config.run_id}"), "drawn": 0}
    unit = mark.get("unit")
    with id_stream(str(mark["namespace"]), start=int(mark["drawn"]), key=config.run_id,
                   unit=(str(unit["namespace"]), int(unit["drawn"])) if unit else None):
        return _drive_in(case_dir, store, config, progress, fetcher_options, on_step)


def _drive_in(case_dir: Path, store: Store, config: RunConfig, progress: Progress | None,
              fetcher_options: Mapping[str, Any], on_step: StepHook | None) -> RunResult:
    registry = load_registry(case_dir)
    since = _session_since(store, config)
    fetcher = Fetcher(store, registry, session_since=since, **dict(fetcher_options))
    with store.engine.connect() as conn:
        guard = NoveltyGuard.load(conn)
    rt = Runtime(case_dir, store, registry, fetcher, config,
                 FrontierQueue(store, naive=config.naive), ClueQueue(store), guard, progress)
    if since is not None:
        with store.engine.connect() as conn:
            rt.recall(conn, since)
    rt.llm = _llm_client(case_dir, config)
    try:
        _require_contact(registry, config.sources, {"contact": fetcher.contact})
        with checkpointer(case_dir) as saver:
            graph = build(rt, saver)
            cfg: Any = {"configurable": {"thread_id": config.thread_id},
                        "recursion_limit": RECURSION_LIMIT}
            snap = graph.get_state(cfg)
            state = dict(snap.values or {})
            _bound_waits(fetcher, config.budget, float(state.get("elapsed", 0.0)),
                         simulated="sleep" in fetcher_options)
            if not (state and _finished(snap)):  # not finished yet: start or carry on
                try:
                    for update in graph.stream(None if state else _first_state(store), cfg,
                                               durability="sync", stream_mode="updates"):
                        if on_step is not None:
                            for node, values in update.items():
                                on_step(node, dict(values or {}))
                except GraphRecursionError:  # seed 002: the step limit escalates to a person
                    state = dict(graph.get_state(cfg).values or {})
                    lead.finish(rt, [RECURSION_STOP], lead.metrics(rt, _loop_state(state)),
                                resumable=True)
                    state["stop_reasons"] = [RECURSION_STOP]
                    _final_log(rt)
                    return _result(rt, state)
                except KeyboardInterrupt:
                    state = dict(graph.get_state(cfg).values or {})
                    lead.finish(rt, [USER_INTERRUPT], lead.metrics(rt, _loop_state(state)),
                                resumable=True)
                    state["stop_reasons"] = [USER_INTERRUPT]
                    _final_log(rt)
                    return _result(rt, state)
                state = dict(graph.get_state(cfg).values or {})
        _final_log(rt)
        return _result(rt, state)
    finally:
        _save_llm_meter(rt)
        rt.close()


def _session_since(store: Store, config: RunConfig) -> int | None:
    """Where this segment of the run began in the log (its plan, or its resume with a new
    budget), when a killed process began it: the resumed one carries on its session."""
    with store.engine.connect() as conn:
        if config.segment:
            return research_log.seq_where(conn, "Lead", "decision", "segment", config.segment)
        return research_log.seq_where(conn, "Lead", "plan", "run_id", config.run_id)


def _bound_waits(fetcher: Fetcher, budget: Budget, elapsed: float, *, simulated: bool) -> None:
    """No wait for a source (Retry-After, backoff, a rate limit) runs past the run's time
    budget: a longer one sets the source aside instead (`sources.waiting`). Simulated waits
    (tests, benchmarks) run on their own clock and are left as they are."""
    if budget.max_minutes is not None and not simulated:
        fetcher.waiter.deadline = fetcher.clock() + budget.max_minutes * 60 - elapsed


def _first_state(store: Store) -> dict[str, Any]:
    """A segment's first state; a continuation knows its seed person from the log."""
    with store.engine.connect() as conn:
        seed = recorded_seed(conn)
    return {**initial_state(), **({"seed_person_id": seed} if seed else {})}


def _finished(snap: Any) -> bool:
    """The graph reached END: no task left in the step. Not `not snap.next`: a kill after a
    node's writes were saved but before the step's checkpoint leaves that node out of `next`
    (it has run) though the step is unfinished; `tasks` keeps it, and `stream(None)` applies
    its saved writes and carries on (issue 5: such a resume used to stop at once)."""
    return not snap.tasks


def _llm_client(case_dir: Path, config: RunConfig) -> Any:
    """The optional LLM layer (None when no model is configured); its call and cost
    counters carry over a resume through `CASE/llm-meter.json`."""
    path = case_dir / LLM_METER
    saved = json.loads(path.read_text(encoding="utf-8")) if path.exists() else None
    return LLMClient.from_env(case_dir, max_cost=config.budget.max_llm_cost, thread_state=saved)


def _save_llm_meter(rt: Runtime) -> None:
    if rt.llm is None:
        return
    path = rt.case_dir / LLM_METER
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(rt.llm.meter.state()), encoding="utf-8")
    os.replace(tmp, path)


def _record_negative_evidence(rt: Runtime) -> None:
    """GPS: every search that found no plausible record becomes a negative-evidence statement
    for its person and question, cited to the stored search response (idempotent)."""
    graph = case_graph(rt.store)
    table = coverage(rt.store, graph, overrides=load_overrides(rt.store),
                     log=searches(rt.store, graph, rt.registry))
    record_negative(rt.store, table)


def _final_log(rt: Runtime) -> None:
    """Rewrite the JSONL with the Censor's full judgement of who is living."""
    _record_negative_evidence(rt)
    graph = case_graph(rt.store)
    living = assess_living(graph)
    names = [p.canonical_name for p in graph.persons if living.get(p.id, (False, ""))[0]]
    log_jsonl.rewrite(rt.store, rt.case_dir, names)


def _loop_state(values: dict[str, Any]) -> LoopState:
    """A checkpoint's values as what they are: langgraph types `StateSnapshot.values` as a
    plain dict, and the graph `build` makes is a `StateGraph(LoopState)`."""
    return cast(LoopState, values)


def _result(rt: Runtime, state: dict[str, Any]) -> RunResult:
    with rt.store.engine.connect() as conn:
        facts, persons = blackboard.facts(conn), blackboard.person_count(conn)
    return RunResult(
        case_dir=rt.case_dir, run_id=rt.config.run_id,
        terminated=bool(state.get("terminated")), stop_reasons=list(
            state.get("stop_reasons") or []), iterations=int(state.get("iteration", 0)),
        requests=int(state.get("requests", 0)), facts=facts, persons=persons,
        elapsed=float(state.get("elapsed", 0.0)), seed_person_id=state.get("seed_person_id"),
        log_path=rt.case_dir / log_jsonl.LOG_FILE, state=state)
