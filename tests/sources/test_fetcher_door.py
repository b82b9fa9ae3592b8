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
from sleuth.sources.fetcher import Fetcher

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
