"""A Rich live display of the loop: queue sizes, facts proven, persons, requests, the task.

The loop calls it with small event dicts (`Runtime.report`); it keeps the latest values and
redraws at most a few times a second, so it costs nothing next to a request. Shown text is
the task's query, which names whom the run is searching for (never a living relative: the
Analyst does not search for the living).
"""

from __future__ import annotations

import time
from types import TracebackType
from typing import Any

from rich.console import Console
from rich.live import Live
from rich.table import Table

FIELDS = (("iteration", "tasks done"), ("frontier", "frontier"), ("revisit", "revisits"),
          ("facts", "facts proven"), ("persons", "persons"), ("requests", "requests"),
          ("model", "model use"), ("current", "current task"))
OPTIONAL = frozenset({"model"})  # rows shown only when the run reports them


class RichProgress:
    def __init__(self, console: Console | None = None, refresh_per_second: float = 4) -> None:
        self.values: dict[str, Any] = {}
        self.console = console or Console(stderr=True)
        self._live = Live(self._table(), console=self.console,
                          refresh_per_second=refresh_per_second, transient=False)
        self._last = 0.0
        self._min_gap = 1.0 / refresh_per_second
        self._started = False

    def _table(self) -> Table:
        table = Table(title="sleuth research", show_header=False, box=None)
        table.add_column(style="bold")
        table.add_column()
        for key, label in FIELDS:
            if key in OPTIONAL and key not in self.values:
                continue
            value = self.values.get(key, "")
            table.add_row(label, str(value)[:90])
        return table

    def __call__(self, event: dict[str, Any]) -> None:
        self.values.update(event)
        if not self._started:  # shown from the run's first event, not before: a run
            self._started = True  # refused before it starts (a busy case) prints one line
            self._live.__enter__()
        now = time.monotonic()
        if now - self._last >= self._min_gap:
            self._last = now
            self._live.update(self._table())

    def __enter__(self) -> RichProgress:
        self._started = False
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        if not self._started:
            return
        self._live.update(self._table())
        self._live.__exit__(kind, exc, tb)
        if not self.console.is_terminal:  # a log file or pipe: end the last table line
            self.console.line()
