"""Bounded waiting: every wait a fetch makes is capped, and ends at once on cancel.

A fetch waits for three reasons: a server's Retry-After, the backoff after a failure, and a
rate limit's next token. Each wait is capped by the source's policy
(`compliance.max_wait_seconds`) and by the run's remaining time (`Waiter.deadline`). A wait
past either is not shortened - a request sent early would break the source's limits - but
refused before it starts (`WaitRefused`: the source is unavailable for now), so a source
that asks for a day's pause costs the run nothing.

Real waits are `Event.wait` on the waiter's cancel event, not one `time.sleep` of the whole
span: `cancel.set()` (from any thread: a signal handler, a watchdog) ends a wait at once
with `WaitCancelled`, and Ctrl-C in the main thread interrupts it as any blocking call.
Tests and benchmarks inject a simulated `sleep`, capped the same way.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC
from email.utils import parsedate_to_datetime

from sleuth.model import SleuthError

Clock = Callable[[], float]
Sleep = Callable[[float], None]
BACKOFF_BASE = 1.0
BACKOFF_CAP = 60.0
_SLACK = 1e-3  # seconds: float noise in a limiter's computed delay is not a refusal


class SourceUnavailable(SleuthError):
    """The source cannot be asked now - its circuit is open, its robots.txt cannot be read,
    or the wait it needs is past the cap or the run's time. Not a refusal by its rules:
    the same request may go later."""


class WaitRefused(SourceUnavailable):
    """A wait longer than the source's cap or the run's remaining time: not started."""


class WaitCancelled(SleuthError):
    """The run was cancelled (its cancel event set) while a fetch waited."""


def parse_retry_after(value: str | None, now: float) -> float | None:
    """Seconds to wait from a Retry-After header (delta-seconds or an HTTP-date)."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, when.timestamp() - now)


def backoff_delay(attempt: int, rng: Callable[[], float]) -> float:
    """Exponential backoff with equal jitter: half fixed, half random."""
    delay = min(BACKOFF_CAP, BACKOFF_BASE * 2 ** (attempt - 1))
    return delay / 2 + rng() * delay / 2


@dataclass
class Waiter:
    """Waits on `clock`'s time, each within a cap and before `deadline` (None: no end)."""

    clock: Clock = time.time
    sleep: Sleep | None = None  # a simulated sleep (tests, benchmarks); None: real time
    cancel: threading.Event = field(default_factory=threading.Event)
    deadline: float | None = None  # on `clock`: when the run's time budget ends

    def remaining(self) -> float | None:
        """Seconds left before the deadline (None when there is none)."""
        return None if self.deadline is None else max(0.0, self.deadline - self.clock())

    def allowance(self, cap: float) -> float:
        """The longest a wait may last now: `cap`, or less when the run ends sooner."""
        left = self.remaining()
        return cap if left is None else min(cap, left)

    def wait(self, seconds: float, *, cap: float, what: str) -> None:
        """Wait `seconds`: WaitRefused (without waiting) past the cap or the run's end,
        WaitCancelled as soon as the cancel event is set."""
        self.budget(cap, what)(seconds)

    def budget(self, cap: float, what: str) -> Sleep:
        """A sleep for one wait made of several sleeps (a rate limiter's loop): together
        they may not pass `cap`, nor any of them the run's end."""
        spent = [0.0]

        def sleep(seconds: float) -> None:
            seconds = max(0.0, seconds)
            if self.cancel.is_set():
                raise WaitCancelled(f"{what}: cancelled")
            left = self.remaining()
            if seconds > cap - spent[0] + _SLACK:
                raise WaitRefused(f"{what}: would wait {seconds:.0f} s, past the source's "
                                  f"cap of {cap:g} s; source unavailable for now")
            if left is not None and seconds > left + _SLACK:
                raise WaitRefused(f"{what}: would wait {seconds:.0f} s, past the run's "
                                  f"remaining time ({left:.0f} s); source unavailable for now")
            if self.sleep is not None:
                self.sleep(seconds)
                cancelled = self.cancel.is_set()
            else:
                cancelled = self.cancel.wait(seconds)
            spent[0] += seconds
            if cancelled:
                raise WaitCancelled(f"{what}: cancelled")

        return sleep
