"""The Waiter: each wait within its cap and the run's deadline, ended by its cancel event."""

from __future__ import annotations

import threading
import time

import pytest
from fetch_helpers import FakeTime

from sleuth.sources.waiting import (
    SourceUnavailable,
    WaitCancelled,
    Waiter,
    WaitRefused,
    backoff_delay,
)


def test_a_wait_past_the_cap_is_refused_before_it_starts() -> None:
    ft = FakeTime()
    w = Waiter(ft.clock, ft.sleep)
    with pytest.raises(WaitRefused, match="cap of 300 s") as exc:
        w.wait(100_000, cap=300, what="testsrc: rate limit")
    assert isinstance(exc.value, SourceUnavailable) and ft.slept == []
    w.wait(299, cap=300, what="testsrc: rate limit")
    assert ft.slept == [299]


def test_the_runs_deadline_caps_every_wait() -> None:
    ft = FakeTime()
    w = Waiter(ft.clock, ft.sleep, deadline=ft.clock() + 10)
    assert w.allowance(300) == pytest.approx(10, abs=0.1)
    with pytest.raises(WaitRefused, match="remaining time"):
        w.wait(60, cap=300, what="x")
    assert ft.slept == []


def test_a_budget_caps_several_sleeps_together() -> None:
    ft = FakeTime()
    sleep = Waiter(ft.clock, ft.sleep).budget(5, "limiter")
    sleep(3)
    with pytest.raises(WaitRefused):
        sleep(3)  # 6 s in all
    assert ft.slept == [3]


def test_cancel_from_another_thread_ends_a_real_wait_at_once() -> None:
    w = Waiter()
    threading.Timer(0.1, w.cancel.set).start()
    started = time.monotonic()
    with pytest.raises(WaitCancelled):
        w.wait(30, cap=60, what="x")
    assert time.monotonic() - started < 1.0
    with pytest.raises(WaitCancelled):  # once cancelled, no wait starts
        w.wait(0.01, cap=60, what="x")


def test_backoff_is_capped() -> None:
    assert backoff_delay(1, lambda: 0.5) == 0.75
    assert backoff_delay(30, lambda: 1.0) == 60.0
