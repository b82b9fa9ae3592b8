"""The fetcher through the network door: a swapped-in transport is guarded the same way,
and no credential reaches the HTTP stack's own log records."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable

import httpx
import pytest
from fetch_helpers import make_spec
from pytest_httpserver import HTTPServer

from sleuth.net import SsrfRefused
from sleuth.sources.fetcher import Fetcher, RobotsDisallowed

SECRET = "sEcReT-5b1e77d0-apikey"
OTHER = "caller-9f2c41aa-apikey"


def test_query_keys_never_reach_the_http_logs(httpserver: HTTPServer,
                                              fetcher_for: Callable[..., Fetcher],
                                              caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    httpserver.expect_request("/ok").respond_with_json({"ok": True})
    spec = make_spec(httpserver, compliance={
        "auth": {"kind": "api_key", "env": ["TEST_API_KEY"], "param": "key"}})
    f = fetcher_for(spec, env={"TEST_API_KEY": SECRET})
    f.fetch("testsrc", "/ok", params={"q": "Whitfield"})
    f.fetch("testsrc", "/ok", params={"q": "Hollis", "api_key": OTHER})  # a caller's own key
    assert [r.args.get("key") for r, _ in httpserver.log] == [SECRET, SECRET]
    ours = "\n".join(r.getMessage() for r in caplog.records if r.name != "werkzeug")
    assert "HTTP Request: GET" in ours
    assert SECRET not in ours and OTHER not in ours


def test_a_swapped_in_transport_is_behind_the_same_guard(
        httpserver: HTTPServer, fetcher_for: Callable[..., Fetcher]) -> None:
    seen: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request.url.host)
        return httpx.Response(200, json={"name": "Ada"})

    mock = httpx.MockTransport(handler)
    local = make_spec(httpserver, base_url="http://mirror.test")  # local: its host allowed
    res = fetcher_for(local, transport=mock).fetch("testsrc", "/r/1")
    assert json.loads(res.raw) == {"name": "Ada"} and seen == ["mirror.test"]

    public = make_spec(httpserver, local=False, base_url="http://records.example")
    f = fetcher_for(public, transport=mock, resolver=lambda host, port: ["192.168.0.9"])
    with pytest.raises(SsrfRefused, match="private"):
        f.fetch("testsrc", "/r/2")
    assert seen == ["mirror.test"]


APP_ID = "sleuth-app-7731"


def test_an_app_id_is_never_stored(httpserver: HTTPServer, fetcher_for: Callable[..., Fetcher],
                                   store) -> None:  # type: ignore[no-untyped-def]
    """Issue 26: WikiTree's appId rode in every stored URL (a snapshot's final URL and
    redirects, a refusal's message in the research log). Now one function makes every
    fetched URL safe to keep (`fetcher.stored_url`), an app id masked like any key."""
    from fetch_helpers import dump_case

    httpserver.expect_request("/robots.txt").respond_with_data(
        "User-agent: *\nDisallow: /private\n", content_type="text/plain")
    httpserver.expect_request("/moved").respond_with_data(
        "", status=301, headers={"Location": f"/r/1?appId={APP_ID}&format=json"})
    httpserver.expect_request("/r/1").respond_with_json({"name": "Ada"})
    spec = make_spec(httpserver, id="wikitree", compliance={
        "robots_txt": True,
        "auth": {"kind": "app_id", "env": ["SLEUTH_WIKITREE_APP_ID"], "param": "appId"}})
    f = fetcher_for(spec, env={"SLEUTH_WIKITREE_APP_ID": APP_ID})
    res = f.fetch("wikitree", "/moved", params={"q": "Hollis"})
    assert json.loads(res.raw) == {"name": "Ada"}
    assert [r.args.get("appId") for r, _ in httpserver.log if r.path != "/robots.txt"] == [
        APP_ID, APP_ID]  # the server still gets it
    with pytest.raises(RobotsDisallowed, match=r"robots\.txt disallows"):
        f.fetch("wikitree", "/private/2")
    kept = dump_case(store)
    assert APP_ID not in kept
    assert "appId=REDACTED" in kept  # the address is kept, its app id masked
