"""Bounded waiting (issue 26, item 3): a long Retry-After sets the source aside instead of a
sleep, every wait is capped and can be cancelled, and the breaker is kept in the case.

Each test names the failure it guards against; the servers are pytest-httpserver on
127.0.0.1, waits are simulated (`FakeTime`) unless a test measures real time.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable

import pytest
from fetch_helpers import FakeTime, make_spec
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from sleuth.model import SleuthError
from sleuth.sources.breaker import CircuitOpen
from sleuth.sources.fetcher import Fetcher, FetchError, RateLimited
from sleuth.store import Store

BODY = {"name": "Ada Whitfield", "born": "1850"}
CAP = 300.0  # compliance.max_retry_after_seconds by default


def _ok() -> Response:
    return Response(json.dumps(BODY), content_type="application/json")


def test_retry_after_100000_never_sleeps_and_sets_the_source_aside(
    httpserver: HTTPServer, store: Store, fetcher_for: Callable[..., Fetcher],
    fake_time: FakeTime
) -> None:
    """Was: the next request to the source slept 100,000 s (`--max-minutes` could not stop
    it). Now: no wait past the cap; the circuit is open until the stated time, in this
    fetcher and in a new one on the same case (a resumed run)."""
    calls: list[float] = []

    def handler(req: Request) -> Response:
        calls.append(fake_time.clock())
        if len(calls) == 1:
            return Response("later", status=429, headers={"Retry-After": "100000"})
        return _ok()

    httpserver.expect_request("/p").respond_with_handler(handler)
    spec = make_spec(httpserver)
    f = fetcher_for(spec)
    with pytest.raises(RateLimited, match="100000"):
        f.fetch("testsrc", "/p")
    with pytest.raises(CircuitOpen):  # set aside at once, not after a sleep
        f.fetch("testsrc", "/p")
    assert max(fake_time.slept, default=0.0) <= CAP
    assert len(calls) == 1
    fake_time.skew += 50_000  # a resumed run, half-way through the pause
    with pytest.raises(CircuitOpen):
        fetcher_for(spec).fetch("testsrc", "/p")
    assert len(calls) == 1 and max(fake_time.slept, default=0.0) <= CAP
    fake_time.skew += 50_001  # past the stated time: one probe, and the source is back
    assert fetcher_for(spec).fetch("testsrc", "/p").status == 200
    assert len(calls) == 2 and max(fake_time.slept, default=0.0) <= CAP


def test_retry_after_past_the_runs_remaining_time_is_not_slept(
    httpserver: HTTPServer, fetcher_for: Callable[..., Fetcher], fake_time: FakeTime
) -> None:
    """A Retry-After within the source's cap but past the run's end: no sleep either."""
    httpserver.expect_request("/p").respond_with_data(
        "later", status=429, headers={"Retry-After": "60"})
    f = fetcher_for(make_spec(httpserver), deadline=fake_time.clock() + 10)
    with pytest.raises(RateLimited, match="10 s left"):
        f.fetch("testsrc", "/p")
    assert fake_time.slept == [] and len(httpserver.log) == 1


def test_rate_limit_wait_past_the_cap_is_refused_not_slept(
    httpserver: HTTPServer, fetcher_for: Callable[..., Fetcher], fake_time: FakeTime
) -> None:
    """A rate limit's next token 600 s away, a cap of 5 s: refused, nothing sent early."""
    httpserver.expect_request("/p").respond_with_json(BODY)
    httpserver.expect_request("/q").respond_with_json(BODY)
    f = fetcher_for(make_spec(httpserver, compliance={
        "requests_per_minute": 0.1, "burst": 1, "max_wait_seconds": 5}))
    f.fetch("testsrc", "/p")
    with pytest.raises(SleuthError, match="unavailable for now"):
        f.fetch("testsrc", "/q")
    assert fake_time.slept == [] and len(httpserver.log) == 1


def test_cancel_ends_a_wait_at_once(
    httpserver: HTTPServer, fetcher_for: Callable[..., Fetcher]
) -> None:
    """Ctrl-C (the wait's cancel event) during a 60 s rate-limit wait: back in < 1 s."""
    httpserver.expect_request("/p").respond_with_json(BODY)
    httpserver.expect_request("/q").respond_with_json(BODY)
    cancel = threading.Event()
    f = fetcher_for(make_spec(httpserver, compliance={"requests_per_minute": 1, "burst": 1}),
                    real_time=True, cancel=cancel)
    f.fetch("testsrc", "/p")
    timer = threading.Timer(0.2, cancel.set)
    timer.start()
    started = time.monotonic()
    try:
        with pytest.raises(SleuthError, match="cancelled"):
            f.fetch("testsrc", "/q")
    finally:
        timer.cancel()
    assert time.monotonic() - started < 1.0
    assert len(httpserver.log) == 1


def test_failure_counts_survive_a_new_fetcher(
    httpserver: HTTPServer, fetcher_for: Callable[..., Fetcher]
) -> None:
    """Was: failures below the threshold were kept in memory only, so a run resumed after
    each failure never opened the circuit. Now the count is in the case."""
    httpserver.expect_request("/p").respond_with_data("boom", status=500)
    spec = make_spec(httpserver, compliance={"breaker_failures": 3, "max_retries": 0})
    for _ in range(3):  # three runs, one failure each
        with pytest.raises(FetchError, match="HTTP 500"):
            fetcher_for(spec).fetch("testsrc", "/p")
    with pytest.raises(CircuitOpen):
        fetcher_for(spec).fetch("testsrc", "/p")
    assert len(httpserver.log) == 3


def test_a_success_resets_the_kept_count(
    httpserver: HTTPServer, fetcher_for: Callable[..., Fetcher]
) -> None:
    state = {"fail": True}

    def handler(req: Request) -> Response:
        return Response("boom", status=500) if state["fail"] else _ok()

    httpserver.expect_request("/p").respond_with_handler(handler)
    spec = make_spec(httpserver, compliance={"breaker_failures": 2, "max_retries": 0,
                                             "cache_ttl_seconds": 0})
    with pytest.raises(FetchError):
        fetcher_for(spec).fetch("testsrc", "/p")
    state["fail"] = False
    fetcher_for(spec).fetch("testsrc", "/p")
    state["fail"] = True
    with pytest.raises(FetchError, match="HTTP 500"):  # one failure since: still closed
        fetcher_for(spec).fetch("testsrc", "/p")
    with pytest.raises(FetchError, match="HTTP 500"):
        fetcher_for(spec).fetch("testsrc", "/p")
    with pytest.raises(CircuitOpen):
        fetcher_for(spec).fetch("testsrc", "/p")
