"""The fetcher against a hostile server on 127.0.0.1 (issue 26, item 8): `FaultServer`
sends what pytest-httpserver cannot - lying framing, byte drips, compression bombs - and a
second listener on 127.0.0.2 proves an SSRF redirect never connects.

robots.txt's faults (drip, 200 MB, 4xx/5xx/unreachable) are in `test_robots_bounded`, the
Retry-After cap in `test_bounded_wait`; each test here names the failure it guards against.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fault_server import Fault, FaultServer, PeakRss, deflate_bomb, gzip_bomb, redirect, response
from fetch_helpers import make_spec
from sqlalchemy import func, select

from sleuth.model import SleuthError
from sleuth.net.guard import SsrfRefused
from sleuth.sources.fetcher import Fetcher, FetchError
from sleuth.sources.gates import SourceBlocked
from sleuth.store import Store
from sleuth.store import schema as t

TIMEOUT = 1.0  # the source's timeout in these tests
SLACK = 1.0  # seconds past it a fetch may take (scheduling, the store's writes)
LIMIT = 1024 * 1024  # the source's body limit in these tests
JSON = {"Content-Type": "application/json"}


@pytest.fixture
def serve() -> Iterator[Callable[..., FaultServer]]:
    made: list[FaultServer] = []

    def start(faults: dict[str, Fault], host: str = "127.0.0.1") -> FaultServer:
        made.append(FaultServer(faults, host))
        return made[-1]

    yield start
    for s in made:
        s.stop()


def _fetcher(fetcher_for: Callable[..., Fetcher], server: FaultServer, **compliance: Any
             ) -> Fetcher:
    spec = make_spec(server, compliance={"timeout_seconds": TIMEOUT, "max_retries": 0,
                                         "max_body_bytes": LIMIT, **compliance})
    return fetcher_for(spec, real_time=True)


def _snapshots(store: Store) -> int:
    with store.engine.connect() as c:
        return c.execute(select(func.count()).select_from(t.snapshots)).scalar_one()


# -- compression bombs ---------------------------------------------------------------------

@pytest.mark.parametrize("encoding", ["gzip", "deflate"])
def test_a_compression_bomb_is_refused_before_it_is_inflated(
    serve: Callable[..., FaultServer], fetcher_for: Callable[..., Fetcher], store: Store,
    encoding: str
) -> None:
    """Was: a gzip bomb was refused at the 1 MB limit but the process peaked at 237 MB
    first (httpx inflates each received chunk whole: 64 KiB of bomb is 64 MB). Now it is
    inflated a step at a time and refused as it passes the limit: the peak stays near it."""
    bomb = (gzip_bomb if encoding == "gzip" else deflate_bomb)(256 << 20)
    server = serve({"/p": Fault(response(body=bomb, headers={**JSON,
                                                             "Content-Encoding": encoding}))})
    f = _fetcher(fetcher_for, server)
    with PeakRss() as peak, pytest.raises(FetchError, match="limit"):
        f.fetch("testsrc", "/p")
    if peak.available:
        assert peak.growth < 24 * 1024 * 1024, f"peak grew {peak.growth / 2**20:.0f} MB"
    assert _snapshots(store) == 0


def test_a_small_compressed_body_is_read_whole(
    serve: Callable[..., FaultServer], fetcher_for: Callable[..., Fetcher]
) -> None:
    """The bounded inflater reads what an honest server compresses, split over reads."""
    import gzip
    import json

    body = json.dumps({"name": "Ada Whitfield", "note": "x" * 200_000}).encode()
    server = serve({"/p": Fault(response(body=gzip.compress(body),
                                         headers={**JSON, "Content-Encoding": "gzip"}))})
    got = _fetcher(fetcher_for, server).fetch("testsrc", "/p")
    assert got.raw == body
    assert b"accept-encoding: gzip, deflate\r\n" in server.requests[0].lower()


@pytest.mark.parametrize("encoding", ["zstd", "br", "gzip, gzip"])
def test_a_body_in_an_encoding_not_asked_for_is_refused(
    serve: Callable[..., FaultServer], fetcher_for: Callable[..., Fetcher], store: Store,
    encoding: str
) -> None:
    """Only what the door inflates under its cap is asked for (httpx would also offer
    zstd, which it inflates whole); anything else a server sends is refused, not guessed."""
    server = serve({"/p": Fault(response(body=b"\x28\xb5\x2f\xfd" + b"\0" * 64,
                                         headers={**JSON, "Content-Encoding": encoding}))})
    with pytest.raises(FetchError, match="not asked for"):
        _fetcher(fetcher_for, server).fetch("testsrc", "/p")
    assert _snapshots(store) == 0


def test_a_robots_txt_bomb_is_read_to_500_kib_only(
    serve: Callable[..., FaultServer], fetcher_for: Callable[..., Fetcher]
) -> None:
    """A robots.txt is parsed to its first 500 KiB; gzipped, it is inflated no further."""
    import zlib

    rules = b"User-agent: *\nDisallow: /private\n"
    c = zlib.compressobj(9, zlib.DEFLATED, zlib.MAX_WBITS | 16)
    bomb = c.compress(rules) + gzip_bomb(256 << 20)[10:]  # (the rules, then the zeros)
    server = serve({
        "/robots.txt": Fault(response(body=bomb, headers={"Content-Encoding": "gzip"})),
        "/open": Fault(response(body=b'{"name": "Ada"}', headers=JSON)),
    })
    f = _fetcher(fetcher_for, server, robots_txt=True)
    with PeakRss() as peak:
        assert f.fetch("testsrc", "/open").status == 200
    if peak.available:
        assert peak.growth < 24 * 1024 * 1024, f"peak grew {peak.growth / 2**20:.0f} MB"


# -- lying framing and drips ---------------------------------------------------------------

def test_a_content_length_longer_than_the_body_is_refused(
    serve: Callable[..., FaultServer], fetcher_for: Callable[..., Fetcher], store: Store
) -> None:
    """Content-Length 1000, 15 bytes sent, connection closed: a broken-off body, not a
    snapshot of 15 bytes."""
    server = serve({"/p": Fault(response(body=b'{"name": "Ada"}', headers=JSON,
                                         length=1000))})
    with pytest.raises(FetchError, match="reading body"):
        _fetcher(fetcher_for, server).fetch("testsrc", "/p")
    assert _snapshots(store) == 0


def test_a_content_length_shorter_than_the_body_stores_the_declared_bytes_only(
    serve: Callable[..., FaultServer], fetcher_for: Callable[..., Fetcher]
) -> None:
    """What follows the declared length is not the body: never stored, never read."""
    server = serve({"/p": Fault(response(body=b"Ada Whitfield. SMUGGLED " + b"x" * 5000,
                                         length=14))})
    got = _fetcher(fetcher_for, server).fetch("testsrc", "/p")
    assert got.raw == b"Ada Whitfield." and "SMUGGLED" not in got.snapshot.text


def test_a_content_length_that_never_comes_ends_within_the_timeout(
    serve: Callable[..., FaultServer], fetcher_for: Callable[..., Fetcher], store: Store
) -> None:
    """Content-Length 1000, 15 bytes sent, the connection held open 10 s."""
    server = serve({"/p": Fault(response(body=b'{"name": "Ada"}', headers=JSON,
                                         length=1000), hold=10)})
    started = time.monotonic()
    with pytest.raises(FetchError):
        _fetcher(fetcher_for, server).fetch("testsrc", "/p")
    assert time.monotonic() - started < TIMEOUT + SLACK
    assert _snapshots(store) == 0


def test_a_declared_length_past_the_limit_is_refused_unread(
    serve: Callable[..., FaultServer], fetcher_for: Callable[..., Fetcher]
) -> None:
    server = serve({"/p": Fault(response(headers=JSON, length=10 * 1024**3),
                                tail=b"x" * 65536)})
    with pytest.raises(FetchError, match="exceeds the limit"):
        _fetcher(fetcher_for, server).fetch("testsrc", "/p")
    assert server.sent < 64 * 1024 * 1024  # what the socket buffers took, not 10 GB


def test_an_endless_body_is_cut_at_the_limit(
    serve: Callable[..., FaultServer], fetcher_for: Callable[..., Fetcher], store: Store
) -> None:
    """No Content-Length, a body without end: refused once past the limit."""
    server = serve({"/p": Fault(response(headers=JSON, length=-1), tail=b" " * 65536)})
    with pytest.raises(FetchError, match="limit"):
        _fetcher(fetcher_for, server).fetch("testsrc", "/p")
    assert server.sent < 64 * 1024 * 1024 and _snapshots(store) == 0


@pytest.mark.parametrize("where", ["status line and headers", "body"])
def test_a_dripped_answer_ends_within_the_source_timeout(
    serve: Callable[..., FaultServer], fetcher_for: Callable[..., Fetcher], store: Store,
    where: str
) -> None:
    """A byte every 0.3 s: no single read times out. Was: a page's status line and headers
    had no total deadline (only robots.txt's had), so a server dripping header lines held a
    fetch for hours (h11 allows 16 KiB of them). Now the whole answer ends within the
    source's timeout, headers and body alike."""
    answer = response(body=b'{"name": "' + b"a" * 100 + b'"}', headers=JSON)
    head = answer.index(b"\r\n\r\n") + 4 if where == "body" else 0
    server = serve({"/p": Fault(answer, head=head, interval=0.3)})
    started = time.monotonic()
    with pytest.raises(FetchError, match=r"(?i)timeout|not complete within"):
        _fetcher(fetcher_for, server).fetch("testsrc", "/p")
    assert time.monotonic() - started < TIMEOUT + SLACK
    assert _snapshots(store) == 0


# -- SSRF: redirects that must never connect -----------------------------------------------

@pytest.mark.parametrize("target", [
    "http://127.0.0.2:{port}/secret",  # loopback, another address than the source's
    "http://2130706434:{port}/secret",  # 127.0.0.2 as a decimal number
    "http://0x7f000002:{port}/secret",  # ... in hex
    "http://0177.0.0.2:{port}/secret",  # ... in octal (httpx refuses to parse it)
    "http://[::ffff:127.0.0.2]:{port}/secret",  # ... mapped into IPv6
    "http://localhost:{port}/secret",  # a name for loopback
    "http://169.254.169.254/latest/meta-data/",  # cloud metadata: link-local
    "file:///etc/passwd",  # not the web at all
])
def test_a_redirect_to_a_private_address_never_connects(
    serve: Callable[..., FaultServer], fetcher_for: Callable[..., Fetcher], store: Store,
    target: str
) -> None:
    """The source (local: its own host 127.0.0.1 may be loopback) redirects elsewhere on
    loopback, spelled every way a URL can spell it: refused with one error (the guard's,
    the scheme check's, or for a form httpx will not parse, a failed fetch), and the
    listener there never sees a connection."""
    inside = serve({"*": Fault(response(body=b"metadata: secret"))}, host="127.0.0.2")
    server = serve({"/go": redirect(target.format(port=inside.port))})
    refusal = FetchError if "0177" in target else (SsrfRefused, SourceBlocked)
    with pytest.raises(refusal) as exc:
        _fetcher(fetcher_for, server).fetch("testsrc", "/go")
    assert "\n" not in str(exc.value)
    assert inside.connections == 0 and server.paths == ["/go"]
    assert _snapshots(store) == 0


def test_an_unparsable_redirect_is_one_error(
    serve: Callable[..., FaultServer], fetcher_for: Callable[..., Fetcher], store: Store
) -> None:
    """A Location no URL parser accepts is a failed fetch (SleuthError), not a crash."""
    server = serve({"/go": redirect("http://[::1/secret")})
    with pytest.raises(SleuthError):
        _fetcher(fetcher_for, server).fetch("testsrc", "/go")
    assert _snapshots(store) == 0


def test_an_empty_coded_robots_txt_is_an_empty_file(
    serve: Callable[..., FaultServer], fetcher_for: Callable[..., Fetcher]
) -> None:
    """No bytes at all under `Content-Encoding: gzip` is an empty file (everything
    allowed), not a truncated one (which would set the source aside)."""
    server = serve({
        "/robots.txt": Fault(response(headers={"Content-Encoding": "gzip"})),
        "/open": Fault(response(body=b'{"name": "Ada"}', headers=JSON)),
    })
    assert _fetcher(fetcher_for, server, robots_txt=True).fetch("testsrc", "/open").status == 200


# -- NUL and control characters ----------------------------------------------------------

@pytest.mark.parametrize(("body", "ctype"), [
    (b'{"name": "Ada\\u0000 Whitfield", "born": "1851"}', "application/json"),
    (b"<html><body><p>Ada\x00 Whitfield was born in 1851.</p></body></html>",
     "text/html; charset=utf-8"),
])
def test_a_nul_in_a_response_never_reaches_the_database(
    serve: Callable[..., FaultServer], fetcher_for: Callable[..., Fetcher], store: Store,
    body: bytes, ctype: str
) -> None:
    """A server's NUL (raw, or escaped in JSON) was stored as it came: on PostgreSQL, whose
    text columns refuse NUL, an internal `DataError` that ended the run. The stored text
    has none; the raw bytes are kept as they came."""
    server = serve({"/p": Fault(response(body=body, headers={"Content-Type": ctype}))})
    got = _fetcher(fetcher_for, server).fetch("testsrc", "/p")
    assert got.raw == body
    assert "\x00" not in got.snapshot.text and "\\u0000" not in got.snapshot.text
    assert "Whitfield" in got.snapshot.text
    assert _snapshots(store) == 1


def test_a_nul_in_a_plain_text_response_is_refused(
    serve: Callable[..., FaultServer], fetcher_for: Callable[..., Fetcher], store: Store
) -> None:
    """Plain text with a NUL is binary data, as a local file with one is: refused, as one
    `FetchError`, nothing stored (on PostgreSQL it was an internal `DataError`)."""
    body = b"Ada Whitfield was born in 1851.\x00\n"
    server = serve({"/p": Fault(response(body=body,
                                         headers={"Content-Type": "text/plain; charset=utf-8"}))})
    with pytest.raises(FetchError, match="NUL"):
        _fetcher(fetcher_for, server).fetch("testsrc", "/p")
    assert _snapshots(store) == 0
