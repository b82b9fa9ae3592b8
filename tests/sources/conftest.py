"""Fixtures for the fetcher tests: a spec factory, simulated time, a fetcher on the store.

Every server is pytest-httpserver on 127.0.0.1; nothing here touches the internet.
"""

from __future__ import annotations

import copy
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from pytest_httpserver import HTTPServer

from sleuth.sources.fetcher import Fetcher
from sleuth.sources.registry import Registry
from sleuth.sources.spec import SourceSpec, parse_spec
from sleuth.store import Store

CONTACT = "tests@example.invalid"


class FakeTime:
    """Wall clock plus a skew that `sleep` advances: waits cost no real time."""

    def __init__(self) -> None:
        self.skew = 0.0
        self.slept: list[float] = []

    def clock(self) -> float:
        return time.time() + self.skew

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.skew += seconds


def spec_data(server: HTTPServer, **overrides: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "id": "testsrc",
        "name": "Test source",
        "tier": 0,
        "kind": "json",
        "base_url": server.url_for("/").rstrip("/"),
        "local": True,
        "compliance": {
            "robots_txt": False,
            "requests_per_minute": 6000,
            "burst": 100,
            "cache_ttl_seconds": 3600,
            "content_types": ["application/json", "text/html", "text/plain"],
            "timeout_seconds": 2,
            "max_retries": 3,
        },
    }
    for key, value in overrides.items():
        if key == "compliance":
            base["compliance"] = {**base["compliance"], **value}
        else:
            base[key] = copy.deepcopy(value)
    return base


def make_spec(server: HTTPServer, **overrides: Any) -> SourceSpec:
    return parse_spec(spec_data(server, **overrides), "testsrc.yaml")


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
