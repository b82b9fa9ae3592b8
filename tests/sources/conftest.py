"""Fixtures for the fetcher tests: simulated time and a fetcher on the store.

Every server is pytest-httpserver on 127.0.0.1; nothing here touches the internet. The
helpers themselves live in `fetch_helpers`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fetch_helpers import CONTACT, FakeTime

from sleuth.model.source_spec import SourceSpec
from sleuth.sources.fetcher import Fetcher
from sleuth.sources.registry import Registry
from sleuth.store import Store


@pytest.fixture
def fake_time() -> FakeTime:
    return FakeTime()


@pytest.fixture
def fetcher_for(store: Store, fake_time: FakeTime) -> Iterator[Callable[..., Fetcher]]:
    """Build a fetcher over given specs (fake time unless `real_time=True`)."""
    made: list[Fetcher] = []

    def build(*specs: SourceSpec, real_time: bool = False, **kwargs: Any) -> Fetcher:
        reg = Registry({s.id: s for s in specs}, {s.id: "test" for s in specs})
        kwargs.setdefault("contact", CONTACT)
        kwargs.setdefault("env", {})
        kwargs.setdefault("rng", lambda: 0.5)
        if not real_time:
            kwargs.setdefault("clock", fake_time.clock)
            kwargs.setdefault("sleep", fake_time.sleep)
        f = Fetcher(store, reg, **kwargs)
        made.append(f)
        return f

    yield build
    for f in made:
        f.close()
