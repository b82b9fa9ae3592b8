"""robots.txt under a total deadline and a 500 KiB cap, read as RFC 9309 says (issue 26).

A drip is served by a raw socket server on 127.0.0.1 (`fault_server`): one byte at a time,
slower than nothing trips a per-read timeout. An unreadable robots.txt (5xx, refused, too slow)
makes the source unavailable for now; it is never logged as "robots.txt disallows".
"""

from __future__ import annotations

import socket
import time
from collections.abc import Callable, Iterator

import pytest
from fault_server import Fault, FaultServer
from fetch_helpers import spec_data
from pytest_httpserver import HTTPServer
from sqlalchemy import select
from werkzeug import Response

from sleuth.model import SleuthError
from sleuth.model.source_spec import SourceSpec, parse_spec
from sleuth.sources.fetcher import Fetcher, RobotsDisallowed
from sleuth.store import Store
from sleuth.store import schema as t

TIMEOUT = 1.0  # the source's timeout in these tests
SLACK = 0.5  # seconds past it a fetch may take (scheduling, the store's writes)
HEAD = b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 40\r\n\r\n"
ROBOTS = b"User-agent: *\nDisallow: /private\n# pad.\n"  # 40 bytes


@pytest.fixture
def drip() -> Iterator[Callable[..., FaultServer]]:
    """A server answering every path with `payload`: `head` bytes at once, then one byte
    every `interval` seconds (`fault_server.FaultServer`)."""
    made: list[FaultServer] = []

    def start(payload: bytes, *, head: int, interval: float) -> FaultServer:
        made.append(FaultServer({"*": Fault(payload, head=head, interval=interval)}))
        return made[-1]

    yield start
    for s in made:
        s.stop()


def _spec(httpserver: HTTPServer, base_url: str | None = None) -> SourceSpec:
    data = spec_data(httpserver, compliance={"robots_txt": True, "timeout_seconds": TIMEOUT})
    if base_url:
        data["base_url"] = base_url
    return parse_spec(data, "testsrc.yaml")


def _log(store: Store) -> list[tuple[str, str]]:
    r = t.research_log.c
    with store.engine.connect() as c:
        return [(a, why or "") for a, why in c.execute(
            select(r.action_type, r.rationale).order_by(r.seq))]


def _assert_unavailable(exc: pytest.ExceptionInfo[SleuthError], store: Store) -> None:
    """The fetch says the source is unavailable, and nothing says robots.txt disallows."""
    assert not isinstance(exc.value, RobotsDisallowed)
    assert "unavailable" in str(exc.value) and "disallow" not in str(exc.value)
    log = _log(store)
    assert "source_unavailable" in [a for a, _ in log]
    assert not any("disallow" in why for _, why in log)


@pytest.mark.parametrize("where", ["status line and headers", "body"])
def test_a_robots_drip_ends_within_the_source_timeout(
    httpserver: HTTPServer, store: Store, fetcher_for: Callable[..., Fetcher],
    drip: Callable[..., FaultServer], where: str
) -> None:
    """Was: a 1-byte-per-5-s drip held a fetch 120 s against an 8 s timeout (no read
    timed out). Now the whole robots.txt exchange ends within the source's timeout."""
    if where == "body":  # a byte every 0.9 s: the old check after each read ended at 1.8 s
        server = drip(HEAD + ROBOTS, head=len(HEAD), interval=0.9)
    else:  # a byte every 0.3 s from the first: each read well inside the 1 s read timeout
        server = drip(HEAD + ROBOTS, head=0, interval=0.3)
    f = fetcher_for(_spec(httpserver, f"http://127.0.0.1:{server.port}"))
    started = time.monotonic()
    with pytest.raises(SleuthError) as exc:
        f.fetch("testsrc", "/person/1")
    assert time.monotonic() - started < TIMEOUT + SLACK
    _assert_unavailable(exc, store)
    assert server.connections == 1  # robots.txt only: the page itself was not asked for


@pytest.mark.parametrize("status", [500, 503, 429])
def test_robots_5xx_makes_the_source_unavailable_not_disallowed(
    httpserver: HTTPServer, store: Store, fetcher_for: Callable[..., Fetcher], status: int
) -> None:
    httpserver.expect_request("/robots.txt").respond_with_data("down", status=status)
    httpserver.expect_request("/person/1").respond_with_json({"name": "Ada"})
    f = fetcher_for(_spec(httpserver))
    with pytest.raises(SleuthError) as exc:
        f.fetch("testsrc", "/person/1")
    _assert_unavailable(exc, store)
    assert [req.path for req, _ in httpserver.log] == ["/robots.txt"]  # complete disallow


def test_robots_connection_refused_makes_the_source_unavailable(
    httpserver: HTTPServer, store: Store, fetcher_for: Callable[..., Fetcher]
) -> None:
    """The demo's resume case: its in-process world server is gone."""
    with socket.create_server(("127.0.0.1", 0)) as s:
        port = s.getsockname()[1]  # closed again: nothing listens there
    f = fetcher_for(_spec(httpserver, f"http://127.0.0.1:{port}"))
    with pytest.raises(SleuthError) as exc:
        f.fetch("testsrc", "/person/1")
    _assert_unavailable(exc, store)


@pytest.mark.parametrize("status", [404, 410, 403])
def test_robots_4xx_allows_everything(
    httpserver: HTTPServer, fetcher_for: Callable[..., Fetcher], status: int
) -> None:
    httpserver.expect_request("/robots.txt").respond_with_data("no", status=status)
    httpserver.expect_request("/private/1").respond_with_json({"name": "Ada"})
    f = fetcher_for(_spec(httpserver))
    assert f.fetch("testsrc", "/private/1").status == 200


def test_robots_redirect_is_followed(
    httpserver: HTTPServer, fetcher_for: Callable[..., Fetcher]
) -> None:
    """RFC 9309 §2.3.1.2: a crawler follows at least five redirects for robots.txt."""
    httpserver.expect_request("/robots.txt").respond_with_response(
        Response(status=301, headers={"Location": "/real-robots.txt"}))
    httpserver.expect_request("/real-robots.txt").respond_with_data(
        "User-agent: *\nDisallow: /private\n", content_type="text/plain")
    httpserver.expect_request("/open/1").respond_with_json({"name": "Ada"})
    f = fetcher_for(_spec(httpserver))
    assert f.fetch("testsrc", "/open/1").status == 200  # the rules found at the target
    with pytest.raises(RobotsDisallowed):
        f.fetch("testsrc", "/private/1")


def test_robots_past_500_kib_is_capped(
    httpserver: HTTPServer, fetcher_for: Callable[..., Fetcher]
) -> None:
    """Was: a 200 MB robots.txt was read whole. Now at most the first 500 KiB is read and
    parsed: a rule past it does not apply, and an endless file ends."""
    sent = {"bytes": 0}

    def endless() -> Iterator[bytes]:
        yield b"User-agent: *\nDisallow: /private\n"
        line = b"# " + b"x" * 1020 + b"\n"
        for _ in range(200_000):  # 200 MB, if anyone read it all
            sent["bytes"] += len(line)
            yield line

    httpserver.expect_request("/robots.txt").respond_with_response(
        Response(endless(), content_type="text/plain"))
    httpserver.expect_request("/open/1").respond_with_json({"name": "Ada"})
    f = fetcher_for(_spec(httpserver))
    started = time.monotonic()
    with pytest.raises(RobotsDisallowed):  # the rule within the first 500 KiB holds
        f.fetch("testsrc", "/private/1")
    assert f.fetch("testsrc", "/open/1").status == 200
    assert time.monotonic() - started < TIMEOUT + SLACK
    assert sent["bytes"] < 20 * 1024 * 1024  # stopped early (the socket buffers some)
