"""What the nodes share but the checkpoint must not hold: store, fetcher, plugins, queues.

Rebuilt from the case folder on every start or resume; nothing here is state that matters
after a crash (the store and the checkpoint hold that).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import Connection

from sleuth.loop.queues import ClueQueue, FrontierQueue, NoveltyGuard
from sleuth.loop.state import RunConfig
from sleuth.loop.yields import SearchYields
from sleuth.model import SleuthError
from sleuth.model.source_spec import SourceSpec
from sleuth.sources.fetcher import Fetcher
from sleuth.sources.plugins import SourcePlugin, load_plugin
from sleuth.sources.registry import Registry
from sleuth.store import Store, research_log

Progress = Callable[[dict[str, Any]], None]
MAX_FAILURES = 3


@dataclass
class Runtime:
    case_dir: Path
    store: Store
    registry: Registry
    fetcher: Fetcher
    config: RunConfig
    frontier: FrontierQueue
    clues: ClueQueue
    guard: NoveltyGuard
    progress: Progress | None = None
    mark: float = field(default_factory=time.monotonic)  # wall clock of the last update
    _plugins: dict[str, SourcePlugin] = field(default_factory=dict)
    failures: dict[str, int] = field(default_factory=dict)  # consecutive, per source
    disabled: set[str] = field(default_factory=set)  # failed too often in this session
    llm: Any = None  # an `sleuth.llm.LLMClient` when a model is configured, else None
    yields: SearchYields = field(default_factory=SearchYields)  # per source, read from the log

    @property
    def budget(self) -> Any:
        return self.config.budget

    def sources(self) -> list[SourceSpec]:
        """Network sources this run may use, Tier 0 first (seed 000 planner rule 2)."""
        wanted = self.config.sources
        out = [s for s in self.registry if s.kind != "local" and s.id not in self.disabled
               and (wanted is None or s.id in wanted)]
        return sorted(out, key=lambda s: (int(s.tier), s.id))

    def outcome(self, source_id: str, ok: bool) -> bool:
        """Count a source's failures; True when it has just been set aside for this session
        (MAX_FAILURES in a row: the Analyst stops planning tasks for it)."""
        self.failures[source_id] = 0 if ok else self.failures.get(source_id, 0) + 1
        if self.failures[source_id] >= MAX_FAILURES and source_id not in self.disabled:
            self.disabled.add(source_id)
            return True
        return False

    def recall(self, conn: Connection, since: int) -> None:
        """A resumed session's failure counts, replayed from the Scout's accesses its killed
        process logged after `since` (a source it set aside stays aside)."""
        for _seq, _action, ctx in research_log.actions_after(conn, since, ("source_access",)):
            if "task" in ctx:  # the Scout's, not the gates'
                self.outcome(str(ctx.get("source")),
                             bool(ctx.get("success") or ctx.get("answered")))

    def usable(self, source_id: str) -> bool:
        return any(s.id == source_id for s in self.sources())

    def plugin(self, source_id: str) -> SourcePlugin:
        if source_id not in self._plugins:
            if not self.usable(source_id):
                raise SleuthError(f"source {source_id} is not configured for this run")
            self._plugins[source_id] = load_plugin(self.registry.get(source_id), self.fetcher)
        return self._plugins[source_id]

    def tier(self, source_id: str) -> int:
        return int(self.registry.get(source_id).tier) if source_id in self.registry else 0

    def report(self, **event: Any) -> None:
        if self.progress is not None:
            if self.llm is not None:  # model use is shown live, not only in the report
                from sleuth.llm.meter import usage_line

                event.setdefault("model", usage_line(self.llm.meter))
            self.progress(event)

    def close(self) -> None:
        self.fetcher.close()
        self.store.close()
