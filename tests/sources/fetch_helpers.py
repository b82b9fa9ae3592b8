"""Helpers for the source tests: a spec factory, simulated time, a dump of the whole case.

A module with its own name (not `conftest`): `from conftest import ...` resolves to whichever
test folder's conftest was imported first when several folders run in one session.
"""

from __future__ import annotations

import copy
import time
from typing import Any, Protocol

from sqlalchemy import MetaData, select

from sleuth.model.source_spec import SourceSpec, parse_spec
from sleuth.store import Store

CONTACT = "tests@example.invalid"


class Server(Protocol):
    """A test server: pytest-httpserver's, or `fault_server.FaultServer`."""

    def url_for(self, path: str) -> str: ...


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


def spec_data(server: Server, **overrides: Any) -> dict[str, Any]:
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


def make_spec(server: Server, **overrides: Any) -> SourceSpec:
    return parse_spec(spec_data(server, **overrides), "testsrc.yaml")


def dump_case(store: Store) -> str:
    """Every row of every table in the case, as text: where a leaked credential would show."""
    meta = MetaData()
    meta.reflect(store.engine)
    out = []
    with store.engine.connect() as c:
        for table in meta.sorted_tables:
            for row in c.execute(select(table)):
                out.append(repr(tuple(bytes(v) if isinstance(v, memoryview) else v
                                      for v in row)))
    return "\n".join(out)
