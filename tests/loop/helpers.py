"""Running the loop on a mini world in tests."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import miniworld
from pytest_httpserver import HTTPServer
from sqlalchemy import func, select

from sleuth.loop import Budget, RunResult, research
from sleuth.store import Store
from sleuth.store import schema as t

CONTACT = {"contact": "tests@example.invalid"}


def seed_of(w: miniworld.World) -> dict[str, Any]:
    return {"name": f"{w.seed.given} {w.seed.surname}", "birth_year": w.seed.born}


def run(case: Path, server: HTTPServer, w: miniworld.World, budget: Budget,
        **kwargs: Any) -> RunResult:
    if not (case / "case.json").exists():
        Store.create_case(case).close()
    miniworld.install(case, server.url_for("/").rstrip("/"))
    return research(case, seed_of(w), sources=["wikitree"], budget=budget,
                    fetcher_options=CONTACT, **kwargs)


def duplicated_assertions(store: Store) -> int:
    """Assertions that say the same thing from the same cited span more than once."""
    a, c = t.assertions.c, t.citations.c
    key = (a.entity_id, a.field_name, a.value, c.snapshot_id, c.char_start, c.char_end)
    q = select(*key, func.count()).join(t.citations, c.assertion_id == a.id).group_by(
        *key).having(func.count() > 1)
    with store.engine.connect() as conn:
        return len(conn.execute(q).all())


EXHAUST = Budget(max_requests=1000, max_minutes=10, stop_on_confidence=False,
                 stop_on_gps=False, diminishing_window=1000, target_generations=3)
