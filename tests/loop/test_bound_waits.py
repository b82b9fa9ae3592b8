"""A research run's time budget bounds every wait for a source (issue 26, item 3): the
fetcher's waiter ends where the budget does, counting the time earlier segments used."""

from __future__ import annotations

from pathlib import Path

import pytest

from sleuth.loop.run import _bound_waits
from sleuth.loop.state import Budget
from sleuth.sources.fetcher import Fetcher
from sleuth.sources.registry import load_registry
from sleuth.sources.waiting import WaitRefused
from sleuth.store import Store


def test_the_budget_ends_every_wait(tmp_path: Path) -> None:
    store = Store.create_case(tmp_path / "case")
    try:
        fetcher = Fetcher(store, load_registry(tmp_path / "case"), clock=lambda: 1000.0)
        _bound_waits(fetcher, Budget(max_minutes=2), elapsed=90.0, simulated=False)
        assert fetcher.waiter.deadline == 1030.0  # 120 s budget, 90 s already used
        assert fetcher.waiter.remaining() == 30.0
        with pytest.raises(WaitRefused):
            fetcher.waiter.wait(60.0, cap=3600.0, what="a Retry-After")
        simulated = Fetcher(store, load_registry(tmp_path / "case"), clock=lambda: 0.0,
                            sleep=lambda s: None)
        _bound_waits(simulated, Budget(max_minutes=2), elapsed=90.0, simulated=True)
        assert simulated.waiter.deadline is None  # a simulated clock is left alone
    finally:
        store.close()
