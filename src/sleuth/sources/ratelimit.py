"""Token buckets: a source never sends more than `burst + rate × t` requests in any t seconds.

The clock and the sleep are injectable so tests and benchmarks can run on simulated time.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

Clock = Callable[[], float]
Sleep = Callable[[float], None]


@dataclass
class TokenBucket:
    """`rate_per_minute` tokens a minute, at most `burst` saved up; one token per request."""

    rate_per_minute: float
    burst: int = 1
    clock: Clock = time.monotonic
    tokens: float = field(init=False)
    updated: float = field(init=False)
    not_before: float = field(init=False, default=0.0)  # Retry-After pushes this forward
    _lock: threading.Lock = field(init=False, default_factory=threading.Lock)

    def __post_init__(self) -> None:
        self.tokens = float(self.burst)
        self.updated = self.clock()

    @property
    def per_second(self) -> float:
        return self.rate_per_minute / 60.0

    def _refill(self, now: float) -> None:
        self.tokens = min(float(self.burst), self.tokens + (now - self.updated) * self.per_second)
        self.updated = now

    def wait_time(self) -> float:
        """Seconds until a token is available (0 when one is)."""
        with self._lock:
            now = self.clock()
            self._refill(now)
            hold = max(0.0, self.not_before - now)
            need = 0.0 if self.tokens >= 1.0 else (1.0 - self.tokens) / self.per_second
            return max(hold, need)

    def try_take(self) -> bool:
        with self._lock:
            now = self.clock()
            self._refill(now)
            if now < self.not_before or self.tokens < 1.0:
                return False
            self.tokens -= 1.0
            return True

    def acquire(self, sleep: Sleep) -> float:
        """Block (through `sleep`) until a token is taken; returns the seconds waited."""
        waited = 0.0
        while not self.try_take():
            delay = max(self.wait_time(), 1e-4)
            sleep(delay)
            waited += delay
        return waited

    def hold_until(self, when: float) -> None:
        """Send nothing before `when` (a server's Retry-After)."""
        with self._lock:
            self.not_before = max(self.not_before, when)


@dataclass
class SourceLimiter:
    """A source's main bucket plus stricter buckets for paths matching a pattern."""

    main: TokenBucket
    paths: list[tuple[re.Pattern[str], TokenBucket]] = field(default_factory=list)

    def buckets_for(self, path: str) -> list[TokenBucket]:
        return [self.main, *(b for pat, b in self.paths if pat.search(path))]

    def acquire(self, path: str, sleep: Sleep) -> float:
        """Take a token from every bucket that applies, waiting as needed."""
        waited = 0.0
        buckets = self.buckets_for(path)
        while True:
            delay = max(b.wait_time() for b in buckets)
            if delay <= 0:
                taken = [b for b in buckets if b.try_take()]
                if len(taken) == len(buckets):
                    return waited
                for b in taken:  # give back: another thread won a token in between
                    with b._lock:
                        b.tokens = min(float(b.burst), b.tokens + 1.0)
                delay = 1e-4
            sleep(delay)
            waited += delay

    def hold_until(self, when: float) -> None:
        self.main.hold_until(when)
