"""The Scout node (seed 001 ScoutSearchSource / ScoutRevisitSource).

Runs the selected task through the source's plugin, so every request passes the permission
and ToS gates, robots.txt, rate limits, the response cache and the circuit breaker of
`sleuth.sources.fetcher`; the fetcher stores the snapshot before this node returns, so a
crash after it re-reads the cache instead of asking again. The access is logged (success,
failure reason, response time); a revisit is logged as `revisit` with its reason. What came
back becomes an AnalyzeTask for the Analyst, in the same transaction that completes the
search task, so the pair is atomic.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any

from sqlalchemy import Connection

from sleuth.loop.queues import TaskSpec
from sleuth.loop.runtime import Runtime
from sleuth.loop.state import LoopState
from sleuth.loop.yields import era_of
from sleuth.model import Agent, LogEntry, SleuthError
from sleuth.sources.fetcher import FetchError, FetchResult
from sleuth.sources.gates import SourceBlocked
from sleuth.sources.hits import has_hits
from sleuth.store import research_log
from sleuth.store.tasks import task_completed

SCOUT = str(Agent.SCOUT)
NOT_FOUND = (404, 410)


def _run(rt: Runtime, spec: TaskSpec) -> FetchResult:
    plugin = rt.plugin(spec.source)
    values = {k: str(v) for k, v in spec.values.items()}
    if spec.action == "search":
        return plugin.search(spec.values, spec.page)
    if spec.action == "fetch":  # a document a search hit links to (same source's host)
        return plugin.fetch(str(spec.values["url"]), action=spec.endpoint or "fetch")
    return plugin.call(spec.endpoint or "", **values)


def _logged_requests(conn: Connection, task_id: str) -> int:
    """What the task's fetch cost, as its committed log entry says (the checkpoint missed it)."""
    for context in research_log.contexts(conn, SCOUT, "source_access", newest_first=True):
        if context.get("task") == task_id:
            return int(context.get("requests") or 0)
    return 0


def _own_fetch(rt: Runtime, task_id: str, result: FetchResult) -> FetchResult:
    """A cache hit that is this very task's fetch, stored by a killed process before the
    task was done, is logged and counted as the fetch it was (as the uninterrupted run)."""
    with rt.store.engine.connect() as conn:
        made = research_log.fetched_for(conn, task_id, result.snapshot.id)
    return result if made is None else replace(result, from_cache=False, requests=made)


def scout(rt: Runtime, state: LoopState) -> dict[str, Any]:
    task_id = state.get("task_id")
    if not task_id:
        return {"analyse": []}
    with rt.store.engine.connect() as conn:
        spec, _prio, _ = rt.frontier.get(conn, task_id)
        done = task_completed(conn, task_id)
        if done:  # a crash after this node's transaction: its AnalyzeTasks are queued already
            return {"analyse": rt.frontier.pending_analysis(conn),
                    "requests": state.get("requests", 0) + _logged_requests(conn, task_id)}
    rt.report(current=spec.query or f"{spec.source} {spec.endpoint or spec.action}")
    started = time.monotonic()
    result: FetchResult | None = None
    failure = None
    sent = 0  # requests a failed fetch cost (a refusal or a set-aside source costs none)
    answered = False  # "no such record" (404/410) is the source answering, not failing
    try:
        if spec.source in rt.disabled:
            raise SleuthError(f"source {spec.source} was set aside for this session")
        result = _run(rt, spec)
    except SourceBlocked as exc:
        failure = f"blocked: {exc}"
    except FetchError as exc:
        failure, sent = str(exc), 1
        answered = exc.status in NOT_FOUND
    except SleuthError as exc:
        failure = str(exc)
    if result is not None and result.from_cache:
        result = _own_fetch(rt, task_id, result)
    ms = int((time.monotonic() - started) * 1000)
    requests = result.requests if result else sent
    context = {"task": task_id, "source": spec.source, "tier": rt.tier(spec.source),
               "action": spec.action, "endpoint": spec.endpoint, "query": spec.query,
               "url": result.url if result else None, "success": result is not None,
               "failure_reason": failure, "response_time_ms": ms,
               "from_cache": bool(result and (result.from_cache or result.revalidated)),
               "requests": requests, "answered": answered, "era": era_of(spec.target),
               "snapshot_id": result.snapshot.id if result else None}
    analyse: list[str] = []
    with rt.store.transaction() as conn:
        if spec.queue == "revisit" and spec.revisit is not None:
            rt.store.log(conn, LogEntry(
                agent=Agent.SCOUT, action_type="revisit", rationale=spec.revisit.reason,
                revisit_reason=spec.revisit.reason,
                context={**context, "original_query": spec.revisit.original_query,
                         "improved_query": spec.revisit.improved_query,
                         "triggering_clue": spec.revisit.triggering_clue}))
        rt.store.log(conn, LogEntry(
            agent=Agent.SCOUT, action_type="source_access",
            rationale=failure or f"read {context['url']}", context=context))
        if result is not None:
            analyse.append(rt.frontier.push(conn, TaskSpec(
                queue="analyze", action="analyze", source=spec.source, endpoint=spec.endpoint,
                snapshot_id=result.snapshot.id,
                search=spec.action == "search" and has_hits(rt.registry.get(spec.source)),
                target=spec.target, values=spec.values, query=spec.query, from_task=task_id,
                revisit=spec.revisit),
                1.0, tier=rt.tier(spec.source), agent=SCOUT))
        rt.frontier.complete(conn, task_id, failure or "fetched", failed=result is None,
                             agent=SCOUT)
        if rt.outcome(spec.source, result is not None or answered):
            rt.store.log(conn, LogEntry(
                agent=Agent.LEAD, action_type="decision",
                rationale=f"source {spec.source} set aside for this session after "
                          f"{rt.failures[spec.source]} failures in a row",
                context={"decision": "source_set_aside", "source": spec.source}))
    return {"analyse": analyse, "requests": state.get("requests", 0) + requests}
