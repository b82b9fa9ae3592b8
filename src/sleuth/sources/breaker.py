"""Per-source circuit breaker: stop hammering a source that keeps failing.

closed → (N consecutive failures) → open → (cool-down elapsed) → half_open: one probe
request; success closes the circuit, failure re-opens it. A server that asks for a pause
longer than the source's cap (a long Retry-After) opens it too, until the time it stated
(`hold`), instead of a sleep. Every change of state is reported through `on_change` (the
fetcher persists it and writes it to the research log); a change of the failure count
alone through `on_save` (persisted), so a resumed run keeps both.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum

from sleuth.sources.waiting import SourceUnavailable


class CircuitState(StrEnum):
    CLOSED = "closed"
    OPEN = "open"
    HALF_OPEN = "half_open"


class CircuitOpen(SourceUnavailable):
    """The source's circuit is open: no request is sent until the cool-down has passed."""


OnChange = Callable[["CircuitBreaker", CircuitState, CircuitState, str], None]
OnSave = Callable[["CircuitBreaker", str], None]


@dataclass
class CircuitBreaker:
    source_id: str
    failure_threshold: int = 5
    cooldown_seconds: float = 300.0
    clock: Callable[[], float] = time.monotonic
    on_change: OnChange | None = None
    state: CircuitState = CircuitState.CLOSED
    failures: int = 0
    opened_at: float | None = None
    open_until: float | None = None  # a server's stated time, when later than the cool-down
    on_save: OnSave | None = None
    _probing: bool = field(default=False, init=False)

    def _move(self, new: CircuitState, reason: str) -> None:
        old, self.state = self.state, new
        if old != new and self.on_change is not None:
            self.on_change(self, old, new, reason)
        elif self.on_save is not None:
            self.on_save(self, reason)

    def reopens_at(self) -> float | None:
        """When an open circuit lets a probe through (None unless open)."""
        if self.state != CircuitState.OPEN or self.opened_at is None:
            return None
        return max(self.opened_at + self.cooldown_seconds, self.open_until or 0.0)

    def before_request(self) -> None:
        """Raise CircuitOpen unless a request may go now (moves open → half_open)."""
        if self.state == CircuitState.OPEN:
            at = self.reopens_at()
            left = (at - self.clock()) if at is not None else 0.0
            if left > 0:
                why = (f"the server asked for a pause until {time.ctime(at)}"
                       if self.open_until is not None and at == self.open_until else
                       f"circuit open after {self.failures} consecutive failures")
                raise CircuitOpen(f"source {self.source_id} unavailable: {why}; next probe "
                                  f"in {left:.0f} s")
            self._move(CircuitState.HALF_OPEN, "cool-down elapsed; probing")
        if self.state == CircuitState.HALF_OPEN:
            if self._probing:
                raise CircuitOpen(f"source {self.source_id}: half-open, a probe is in flight")
            self._probing = True

    def success(self) -> None:
        self._probing = False
        changed = self.failures != 0 or self.open_until is not None
        self.failures = 0
        self.open_until = None
        if self.state != CircuitState.CLOSED:
            self.opened_at = None
            self._move(CircuitState.CLOSED, "probe succeeded")
        elif changed and self.on_save is not None:
            self.on_save(self, "answered")

    def failure(self, reason: str) -> None:
        self._probing = False
        self.failures += 1
        if self.state == CircuitState.HALF_OPEN or (
            self.state == CircuitState.CLOSED and self.failures >= self.failure_threshold
        ):
            self.opened_at = self.clock()
            self._move(CircuitState.OPEN, reason)
        elif self.on_save is not None:
            self.on_save(self, reason)

    def hold(self, until: float, reason: str) -> None:
        """Open the circuit until `until` (a server's Retry-After past the cap)."""
        self._probing = False
        self.opened_at = self.clock()
        self.open_until = max(until, self.open_until or 0.0)
        self._move(CircuitState.OPEN, reason)
