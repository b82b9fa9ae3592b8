"""Per-source circuit breaker: stop hammering a source that keeps failing.

closed → (N consecutive failures) → open → (cool-down elapsed) → half_open: one probe
request; success closes the circuit, failure re-opens it. Every change is reported through
`on_change` so the fetcher can persist it and write it to the research log.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum

from sleuth.model import SleuthError


class CircuitState(StrEnum):
    CLOSED = "closed"
    OPEN = "open"
    HALF_OPEN = "half_open"


class CircuitOpen(SleuthError):
    """The source's circuit is open: no request is sent until the cool-down has passed."""


OnChange = Callable[["CircuitBreaker", CircuitState, CircuitState, str], None]


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
    _probing: bool = field(default=False, init=False)

    def _move(self, new: CircuitState, reason: str) -> None:
        old, self.state = self.state, new
        if old != new and self.on_change is not None:
            self.on_change(self, old, new, reason)

    def before_request(self) -> None:
        """Raise CircuitOpen unless a request may go now (moves open → half_open)."""
        if self.state == CircuitState.OPEN:
            assert self.opened_at is not None
            left = self.opened_at + self.cooldown_seconds - self.clock()
            if left > 0:
                raise CircuitOpen(
                    f"source {self.source_id}: circuit open after {self.failures} consecutive "
                    f"failures; next probe in {left:.0f} s"
                )
            self._move(CircuitState.HALF_OPEN, "cool-down elapsed; probing")
        if self.state == CircuitState.HALF_OPEN:
            if self._probing:
                raise CircuitOpen(f"source {self.source_id}: half-open, a probe is in flight")
            self._probing = True

    def success(self) -> None:
        self._probing = False
        self.failures = 0
        if self.state != CircuitState.CLOSED:
            self.opened_at = None
            self._move(CircuitState.CLOSED, "probe succeeded")

    def failure(self, reason: str) -> None:
        self._probing = False
        self.failures += 1
        if self.state == CircuitState.HALF_OPEN or (
            self.state == CircuitState.CLOSED and self.failures >= self.failure_threshold
        ):
            self.opened_at = self.clock()
            self._move(CircuitState.OPEN, reason)
