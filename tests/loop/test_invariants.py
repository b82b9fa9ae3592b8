"""Z invariants at every checkpoint, over random small worlds and budgets (property test)."""

from __future__ import annotations

from pathlib import Path

from helpers import run
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pytest_httpserver import HTTPServer

from sleuth.loop import Budget
from sleuth.loop.graph import NODES
from sleuth.loop.invariants import violations
from sleuth.store import Store


@settings(max_examples=5, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), generations=st.integers(1, 2),
       max_requests=st.integers(1, 15), naive=st.booleans(), confident=st.booleans())
def test_invariants_hold_at_every_checkpoint(
    httpserver: HTTPServer, world_on, tmp_path_factory, seed: int, generations: int,
    max_requests: int, naive: bool, confident: bool,
) -> None:
    w = world_on(seed=seed, generations=generations)
    case: Path = tmp_path_factory.mktemp("case") / "case"
    Store.create_case(case).close()
    store = Store.open_case(case)
    seen: list[str] = []

    def check(node: str, update: dict) -> None:
        seen.append(node)
        with store.engine.connect() as conn:
            bad = violations(conn, terminated=bool(update.get("terminated")))
        assert not bad, f"after {node}: {bad}"

    budget = Budget(max_requests=max_requests, stop_on_confidence=confident,
                    target_generations=generations)
    try:
        res = run(case, httpserver, w, budget, naive=naive, on_step=check)
    finally:
        store.close()
    assert res.terminated and res.stop_reasons
    assert set(seen) <= set(NODES) and "check_termination" in seen
    if "budget_requests" in res.stop_reasons:
        assert res.requests >= max_requests
