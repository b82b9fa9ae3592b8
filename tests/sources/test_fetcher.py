"""The fetcher against a real HTTP server on 127.0.0.1, with fault injection."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime

import pytest
from fetch_helpers import FakeTime, make_spec
from pytest_httpserver import HTTPServer
from sqlalchemy import func, select, text
from werkzeug import Request, Response

from sleuth.net.guard import SsrfRefused
from sleuth.sources.breaker import CircuitOpen
from sleuth.sources.fetcher import Fetcher, FetchError, RateLimited, RobotsDisallowed
from sleuth.store import Store
from sleuth.store import schema as t

BODY = {"name": "Ada Whitfield", "born": "1850"}


def _count(store: Store, table: object) -> int:
    with store.engine.connect() as c:
        return c.execute(select(func.count()).select_from(table)).scalar_one()


def _paths(server: HTTPServer) -> list[str]:
    return [req.path for req, _ in server.log]


def test_fetch_stores_snapshot_and_fresh_hit_sends_nothing(
    httpserver: HTTPServer, store: Store, fetcher_for: Callable[..., Fetcher]
) -> None:
    httpserver.expect_request("/person/1").respond_with_json(BODY)
    f = fetcher_for(make_spec(httpserver))
    first = f.fetch("testsrc", "/person/1")
    assert first.created and first.requests == 1 and not first.from_cache
    assert json.loads(first.snapshot.text) == BODY
    assert first.snapshot.media_type == "application/json"
    assert first.snapshot.metadata["source_id"] == "testsrc"
    assert store.blob(first.snapshot.sha256) == first.raw
    second = f.fetch("testsrc", "/person/1")
    assert second.from_cache and second.requests == 0
    assert second.snapshot.id == first.snapshot.id
    assert _paths(httpserver) == ["/person/1"]
    assert _count(store, t.snapshots) == 1


@pytest.mark.parametrize("validator", ["etag", "last-modified"])
def test_conditional_request_304_reuses_snapshot(
    httpserver: HTTPServer, store: Store, fetcher_for: Callable[..., Fetcher], validator: str
) -> None:
    stamp = "Wed, 21 Oct 2015 07:28:00 GMT"
    seen: list[dict[str, str]] = []

    def handler(req: Request) -> Response:
        seen.append(dict(req.headers))
        if req.headers.get("If-None-Match") == '"v1"' or req.headers.get(
            "If-Modified-Since"
        ) == stamp:
            return Response(status=304)
        hdr = {"ETag": '"v1"'} if validator == "etag" else {"Last-Modified": stamp}
        return Response(json.dumps(BODY), content_type="application/json", headers=hdr)

    httpserver.expect_request("/p").respond_with_handler(handler)
    f = fetcher_for(make_spec(httpserver, compliance={"cache_ttl_seconds": 0}))
    first = f.fetch("testsrc", "/p")
    again = f.fetch("testsrc", "/p")
    assert again.revalidated and again.requests == 1
    assert again.snapshot.id == first.snapshot.id and again.raw == first.raw
    assert len(seen) == 2
    assert ("If-None-Match" if validator == "etag" else "If-Modified-Since") in seen[1]
    assert _count(store, t.snapshots) == 1


def test_changed_content_after_ttl_is_a_new_snapshot(
    httpserver: HTTPServer, store: Store, fetcher_for: Callable[..., Fetcher],
    fake_time: FakeTime
) -> None:
    bodies = iter([{"v": 1}, {"v": 2}])
    httpserver.expect_request("/p").respond_with_handler(
        lambda r: Response(json.dumps(next(bodies)), content_type="application/json"))
    f = fetcher_for(make_spec(httpserver, compliance={"cache_ttl_seconds": 60}))
    a = f.fetch("testsrc", "/p")
    fake_time.skew += 61
    b = f.fetch("testsrc", "/p")
    assert a.snapshot.id != b.snapshot.id and b.created
    assert _count(store, t.snapshots) == 2  # both versions kept: nothing is lost


@pytest.mark.parametrize("as_date", [False, True])
def test_429_retry_after_is_honoured(
    httpserver: HTTPServer, fetcher_for: Callable[..., Fetcher], fake_time: FakeTime,
    as_date: bool
) -> None:
    calls: list[float] = []

    def handler(req: Request) -> Response:
        calls.append(fake_time.clock())
        if len(calls) == 1:
            after = (format_datetime(datetime.now(UTC) + timedelta(seconds=30), usegmt=True)
                     if as_date else "30")
            return Response("slow down", status=429, headers={"Retry-After": after})
        return Response(json.dumps(BODY), content_type="application/json")

    httpserver.expect_request("/p").respond_with_handler(handler)
    f = fetcher_for(make_spec(httpserver))
    res = f.fetch("testsrc", "/p")
    assert res.requests == 2
    assert calls[1] - calls[0] >= 28  # waited (in simulated time) as the server asked


def test_retry_after_beyond_cap_raises(
    httpserver: HTTPServer, fetcher_for: Callable[..., Fetcher]
) -> None:
    httpserver.expect_request("/p").respond_with_data(
        "no", status=429, headers={"Retry-After": "86400"})
    f = fetcher_for(make_spec(httpserver, compliance={"max_retry_after_seconds": 60}))
    with pytest.raises(RateLimited, match="86400"):
        f.fetch("testsrc", "/p")
    assert len(httpserver.log) == 1


def test_500_burst_opens_breaker_then_half_open_probe_recovers(
    httpserver: HTTPServer, store: Store, fetcher_for: Callable[..., Fetcher],
    fake_time: FakeTime
) -> None:
    healthy = {"on": False}

    def handler(req: Request) -> Response:
        if healthy["on"]:
            return Response(json.dumps(BODY), content_type="application/json")
        return Response("boom", status=500)

    httpserver.expect_request("/p").respond_with_handler(handler)
    spec = make_spec(httpserver, compliance={"breaker_failures": 3, "max_retries": 10,
                                             "breaker_cooldown_seconds": 120})
    f = fetcher_for(spec)
    with pytest.raises(FetchError, match="HTTP 500"):
        f.fetch("testsrc", "/p")
    assert len(httpserver.log) == 3  # stopped at the threshold, not at max_retries
    assert sum(fake_time.slept) > 0  # backed off between attempts
    with pytest.raises(CircuitOpen):
        f.fetch("testsrc", "/p")
    assert len(httpserver.log) == 3  # open: nothing sent
    healthy["on"] = True
    fake_time.skew += 121
    res = f.fetch("testsrc", "/p")
    assert res.status == 200 and len(httpserver.log) == 4
    with store.engine.connect() as c:
        kinds = [r[0] for r in c.execute(
            select(t.research_log.c.action_type).order_by(t.research_log.c.seq))]
        state = c.execute(select(t.source_state.c.circuit)).scalar_one()
    assert [k for k in kinds if k.startswith("circuit_")] == [
        "circuit_open", "circuit_half_open", "circuit_closed"]
    assert state == "closed"


def test_open_circuit_survives_a_new_fetcher(
    httpserver: HTTPServer, fetcher_for: Callable[..., Fetcher]
) -> None:
    httpserver.expect_request("/p").respond_with_data("boom", status=502)
    spec = make_spec(httpserver, compliance={"breaker_failures": 2, "max_retries": 5})
    with pytest.raises(FetchError):
        fetcher_for(spec).fetch("testsrc", "/p")
    with pytest.raises(CircuitOpen):
        fetcher_for(spec).fetch("testsrc", "/p")  # state read back from source_state


def test_read_timeout(httpserver: HTTPServer, fetcher_for: Callable[..., Fetcher]) -> None:
    def slow(req: Request) -> Response:
        time.sleep(0.6)
        return Response("{}", content_type="application/json")

    httpserver.expect_request("/p").respond_with_handler(slow)
    f = fetcher_for(make_spec(httpserver, compliance={"timeout_seconds": 0.2,
                                                      "max_retries": 0}))
    with pytest.raises(FetchError, match="Timeout"):
        f.fetch("testsrc", "/p")


def test_slow_drip_hits_the_total_deadline(
    httpserver: HTTPServer, store: Store, fetcher_for: Callable[..., Fetcher]
) -> None:
    def drip(req: Request) -> Response:
        def gen() -> Iterator[bytes]:
            yield b'{"a": "'
            for _ in range(20):
                time.sleep(0.05)
                yield b"x"
            yield b'"}'
        return Response(gen(), content_type="application/json")

    httpserver.expect_request("/p").respond_with_handler(drip)
    f = fetcher_for(make_spec(httpserver, compliance={"timeout_seconds": 0.3,
                                                      "max_retries": 0}))
    # the total deadline, or the read timeout first when the machine is loaded: a timeout
    with pytest.raises(FetchError, match=r"not complete within|Timeout"):
        f.fetch("testsrc", "/p")
    assert _count(store, t.snapshots) == 0


@pytest.mark.parametrize("chunked", [False, True])
def test_oversized_body_is_refused(
    httpserver: HTTPServer, store: Store, fetcher_for: Callable[..., Fetcher], chunked: bool
) -> None:
    big = b'{"a": "' + b"x" * 5000 + b'"}'
    if chunked:
        httpserver.expect_request("/p").respond_with_handler(
            lambda r: Response(iter([big[:2000], big[2000:]]), content_type="application/json"))
    else:
        httpserver.expect_request("/p").respond_with_data(big, content_type="application/json")
    f = fetcher_for(make_spec(httpserver, compliance={"max_body_bytes": 1000,
                                                      "max_retries": 0}))
    with pytest.raises(FetchError, match="limit"):
        f.fetch("testsrc", "/p")
    assert _count(store, t.snapshots) == 0


def test_robots_disallow_is_honoured_and_robots_fetched_once(
    httpserver: HTTPServer, store: Store, fetcher_for: Callable[..., Fetcher]
) -> None:
    httpserver.expect_request("/robots.txt").respond_with_data(
        "User-agent: *\nDisallow: /private\n", content_type="text/plain")
    httpserver.expect_request("/open/1").respond_with_json(BODY)
    httpserver.expect_request("/open/2").respond_with_json(BODY)
    f = fetcher_for(make_spec(httpserver, compliance={"robots_txt": True}))
    f.fetch("testsrc", "/open/1")
    f.fetch("testsrc", "/open/2")
    with pytest.raises(RobotsDisallowed):
        f.fetch("testsrc", "/private/x")
    assert _paths(httpserver) == ["/robots.txt", "/open/1", "/open/2"]
    with store.engine.connect() as c:
        rules = [r[0]["rule"] for r in c.execute(select(t.research_log.c.context))
                 if r[0].get("allowed") is False]
    assert rules == ["robots"]


def test_redirect_hops_are_followed_and_rechecked(
    httpserver: HTTPServer, fetcher_for: Callable[..., Fetcher]
) -> None:
    httpserver.expect_request("/old").respond_with_data(
        "", status=301, headers={"Location": "/new"})
    httpserver.expect_request("/new").respond_with_json(BODY)
    f = fetcher_for(make_spec(httpserver))
    res = f.fetch("testsrc", "/old")
    assert res.requests == 2 and res.snapshot.metadata["final_url"].endswith("/new")
    assert res.snapshot.metadata["redirects"][0].endswith("/old")


@pytest.mark.parametrize("target", [
    "http://169.254.169.254/latest/meta-data/",  # cloud metadata: link-local
    "http://10.0.0.1/admin",  # private
    "http://127.0.0.1:{port}/p",  # loopback under another name than the source host
    "http://[::1]:{port}/p",  # IPv6 loopback
])
def test_redirect_to_private_address_is_refused(
    httpserver: HTTPServer, store: Store, fetcher_for: Callable[..., Fetcher], target: str
) -> None:
    httpserver.expect_request("/go").respond_with_data(
        "", status=302, headers={"Location": target.format(port=httpserver.port)})
    f = fetcher_for(make_spec(httpserver))  # local: only its own host 127.0.0.1 may be private
    with pytest.raises(SsrfRefused):
        f.fetch("testsrc", "/go")
    assert _paths(httpserver) == ["/go"]
    with store.engine.connect() as c:
        rules = [r[0].get("rule") for r in c.execute(select(t.research_log.c.context))]
    assert "ssrf" in rules


def test_non_local_source_cannot_reach_a_host_resolving_to_loopback(
    httpserver: HTTPServer, fetcher_for: Callable[..., Fetcher]
) -> None:
    httpserver.expect_request("/p").respond_with_json(BODY)
    spec = make_spec(httpserver, local=False,
                     base_url=f"http://records.example:{httpserver.port}")
    f = fetcher_for(spec, resolver=lambda host, port: ["127.0.0.1"])
    with pytest.raises(SsrfRefused, match="loopback"):
        f.fetch("testsrc", "/p")
    assert httpserver.log == []


def test_wrong_content_type_is_refused(
    httpserver: HTTPServer, store: Store, fetcher_for: Callable[..., Fetcher]
) -> None:
    httpserver.expect_request("/p").respond_with_data(b"\x89PNG....", content_type="image/png")
    f = fetcher_for(make_spec(httpserver))
    with pytest.raises(FetchError, match="content type 'image/png'"):
        f.fetch("testsrc", "/p")
    assert _count(store, t.snapshots) == 0


def test_malformed_json_is_refused(
    httpserver: HTTPServer, store: Store, fetcher_for: Callable[..., Fetcher]
) -> None:
    httpserver.expect_request("/p").respond_with_data('{"name": "Ada",',
                                                      content_type="application/json")
    f = fetcher_for(make_spec(httpserver))
    with pytest.raises(FetchError, match="malformed JSON at line 1"):
        f.fetch("testsrc", "/p")
    assert _count(store, t.snapshots) == 0 and _count(store, t.http_cache) == 0


def test_html_snapshot_keeps_raw_markup_and_visible_text(
    httpserver: HTTPServer, fetcher_for: Callable[..., Fetcher]
) -> None:
    page = "<html><body><h1 id='bio-name'>Ada Whitfield</h1><script>x=1</script></body></html>"
    httpserver.expect_request("/m/1").respond_with_data(page, content_type="text/html")
    f = fetcher_for(make_spec(httpserver, kind="html",
                              compliance={"allowed_actions": ["scrape", "store"]}))
    res = f.fetch("testsrc", "/m/1")
    assert res.raw.decode() == page and "Ada Whitfield" in res.snapshot.text
    assert "x=1" not in res.snapshot.text


def test_rate_never_exceeded_on_the_server_clock(
    httpserver: HTTPServer, fetcher_for: Callable[..., Fetcher]
) -> None:
    stamps: list[float] = []

    def handler(req: Request) -> Response:
        stamps.append(time.monotonic())
        return Response(json.dumps({"p": req.path}), content_type="application/json")

    httpserver.expect_request(re.compile("/q/.*")).respond_with_handler(handler)
    rate, burst = 1200.0, 3  # 20/s: a 12-request run takes about half a second
    spec = make_spec(httpserver, compliance={"requests_per_minute": rate, "burst": burst,
                                             "cache_ttl_seconds": 0})
    f = fetcher_for(spec, real_time=True)
    for i in range(14):
        f.fetch("testsrc", f"/q/{i}")
    per_s = rate / 60
    for i in range(len(stamps)):
        for j in range(i + 1, len(stamps)):
            allowed = burst + per_s * (stamps[j] - stamps[i])
            assert j - i + 1 <= allowed + 0.5, (i, j, stamps[j] - stamps[i])


def test_path_limit_applies_on_top_of_the_source_limit(
    httpserver: HTTPServer, fetcher_for: Callable[..., Fetcher], fake_time: FakeTime
) -> None:
    httpserver.expect_request(re.compile("/ocr/.*")).respond_with_data(
        "page text", content_type="text/plain")
    spec = make_spec(httpserver, compliance={"path_limits": [
        {"pattern": "/ocr/", "requests_per_minute": 1, "burst": 1}]})
    f = fetcher_for(spec)
    for i in range(3):
        f.fetch("testsrc", f"/ocr/{i}")
    assert sum(fake_time.slept) >= 119  # 3 OCR pages at 1/min with burst 1: 2 waits of 60 s


def test_contact_is_required_for_network_sources(
    httpserver: HTTPServer, fetcher_for: Callable[..., Fetcher]
) -> None:
    spec = make_spec(httpserver, local=False, base_url="https://records.example")
    f = fetcher_for(spec, contact=None)
    with pytest.raises(Exception, match="SLEUTH_CONTACT"):
        f.fetch("testsrc", "/p")


def test_user_agent_carries_contact(
    httpserver: HTTPServer, fetcher_for: Callable[..., Fetcher]
) -> None:
    httpserver.expect_request("/p").respond_with_json(BODY)
    fetcher_for(make_spec(httpserver)).fetch("testsrc", "/p")
    ua = httpserver.log[0][0].headers["User-Agent"]
    assert ua.startswith("sleuth/") and "tests@example.invalid" in ua


def test_consents_are_append_only(store: Store) -> None:
    from sleuth.model import ImmutableError
    from sleuth.sources.gates import record_consent

    with store.transaction() as conn:
        record_consent(store, conn, "find_a_grave", "scrape", "my own memorial pages")
    with pytest.raises(ImmutableError), store.transaction() as conn:
        conn.execute(text("UPDATE source_consents SET reason = 'x'"))
