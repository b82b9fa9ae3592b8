"""The network door on its own: the guard, redirects, body limits, logs, proxies, TLS.

Servers are pytest-httpserver on this machine (reached as `localhost`); other hosts are
names a test resolver answers or address literals the guard refuses before any connect.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator

import httpx
import pytest
from pytest_httpserver import HTTPServer

from sleuth.net import (
    BodyTooLarge,
    GuardedTransport,
    Resolver,
    SsrfRefused,
    guarded_client,
    read_body,
    register_secrets,
    shared_ssl_context,
)

SECRET = "k3y-9d81f0c2aa7e-SECRET"
PROXY_VARS = ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY", "http_proxy",
              "https_proxy", "all_proxy", "no_proxy")


def _resolve_to(*addrs: str) -> Resolver:
    return lambda host, port: list(addrs)


@pytest.fixture
def no_proxy_env(monkeypatch: pytest.MonkeyPatch) -> Iterator[pytest.MonkeyPatch]:
    for var in PROXY_VARS:
        monkeypatch.delenv(var, raising=False)
    yield monkeypatch


def test_loopback_is_refused_unless_the_host_is_configured_local(
        httpserver: HTTPServer) -> None:
    httpserver.expect_request("/p").respond_with_data("ok")
    with guarded_client() as c, pytest.raises(SsrfRefused, match="loopback"):
        c.get(httpserver.url_for("/p"))
    assert httpserver.log == []
    with guarded_client(local_hosts={"LOCALHOST"}) as c:
        assert c.get(httpserver.url_for("/p")).text == "ok"


@pytest.mark.parametrize("target", [
    "http://169.254.169.254/latest/meta-data/",
    "http://10.0.0.1/admin",
    "http://127.0.0.1:{port}/p",  # this very server, under a name that is not configured
    "http://[::1]:{port}/p",
])
def test_followed_redirects_are_checked_on_every_hop(httpserver: HTTPServer,
                                                     target: str) -> None:
    httpserver.expect_request("/go").respond_with_data(
        "", status=302, headers={"Location": target.format(port=httpserver.port)})
    httpserver.expect_request("/p").respond_with_data("inside")
    with guarded_client(local_hosts={"localhost"}, follow_redirects=True) as c, \
            pytest.raises(SsrfRefused):
        c.get(httpserver.url_for("/go"))
    assert [req.path for req, _ in httpserver.log] == ["/go"]


def test_a_public_name_resolving_to_a_private_address_is_refused() -> None:
    with guarded_client(resolver=_resolve_to("93.184.216.34", "10.9.8.7")) as c, \
            pytest.raises(SsrfRefused, match="private"):
        c.get("http://rebind.example/")


def test_a_swapped_in_transport_sits_behind_the_same_guard() -> None:
    seen: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(str(request.url))
        if request.url.path == "/go":
            return httpx.Response(307, headers={"Location": "http://intranet.example/x"})
        return httpx.Response(200, text="public")

    names = {"records.example": ["93.184.216.34"], "intranet.example": ["192.168.1.20"]}
    with guarded_client(transport=httpx.MockTransport(handler), follow_redirects=True,
                        resolver=lambda host, port: names[host]) as c:
        assert c.get("http://records.example/r").text == "public"
        with pytest.raises(SsrfRefused, match=r"intranet\.example"):
            c.get("http://records.example/go")
    assert seen == ["http://records.example/r", "http://records.example/go"]
    with guarded_client(transport=httpx.MockTransport(handler),
                        local_hosts={"intranet.example"}) as c:  # configured: no lookup
        assert c.get("http://intranet.example/x").status_code == 200


def test_body_over_the_limit_is_refused_declared_or_streamed(httpserver: HTTPServer) -> None:
    httpserver.expect_request("/big").respond_with_data("x" * 5000)

    def chunks() -> Iterator[bytes]:
        yield from (b"y" * 1000 for _ in range(5))

    with guarded_client(local_hosts={"localhost"}) as c:
        with c.stream("GET", httpserver.url_for("/big")) as resp, \
                pytest.raises(BodyTooLarge, match="5000 bytes exceeds the limit of 1000"):
            read_body(resp, 1000, 5.0)
        with c.stream("GET", httpserver.url_for("/big")) as resp:
            assert read_body(resp, 1000, 5.0, truncate=True) == b"x" * 1000
    mock = httpx.MockTransport(lambda r: httpx.Response(200, content=chunks()))
    with guarded_client(transport=mock, local_hosts={"h.example"}) as c, \
            c.stream("GET", "http://h.example/") as resp, \
            pytest.raises(BodyTooLarge, match="exceeds the limit of 2500 bytes"):
        read_body(resp, 2500, 5.0)


def test_registered_credentials_never_reach_the_http_stack_logs(
        httpserver: HTTPServer, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    httpserver.expect_request("/api").respond_with_data("ok")
    with guarded_client(local_hosts={"localhost"}, secrets=[SECRET]) as c:
        c.get(httpserver.url_for("/api"), params={"key": SECRET},
              headers={"X-Api-Key": SECRET})
    assert httpserver.log[0][0].args["key"] == SECRET  # it was sent
    ours = "\n".join(r.getMessage() for r in caplog.records
                     if r.name != "werkzeug")  # the test server logs what it was sent
    assert "HTTP Request: GET" in ours and "key=REDACTED" in ours
    assert SECRET not in ours


def test_log_scrubbing_keeps_exception_text_clean(caplog: pytest.LogCaptureFixture) -> None:
    register_secrets(SECRET)
    caplog.set_level(logging.DEBUG)
    try:
        raise RuntimeError(f"GET https://api.example/?key={SECRET} failed")
    except RuntimeError:
        logging.getLogger("httpx").exception("request failed")
    assert SECRET not in caplog.text


def test_sources_ignore_proxy_settings(httpserver: HTTPServer,
                                       no_proxy_env: pytest.MonkeyPatch) -> None:
    no_proxy_env.setenv("HTTP_PROXY", "http://127.0.0.1:9")  # nothing listens there
    httpserver.expect_request("/p").respond_with_data("direct")
    with guarded_client(local_hosts={"localhost"}) as c:
        assert c.get(httpserver.url_for("/p")).text == "direct"


def test_model_clients_go_through_the_environment_proxy(
        httpserver: HTTPServer, no_proxy_env: pytest.MonkeyPatch) -> None:
    """The proxy is the user's own configuration: it may be on this machine; the names it
    resolves are its business, but an address literal is still checked here."""
    no_proxy_env.setenv("HTTP_PROXY", f"http://proxyuser:{SECRET}@localhost:{httpserver.port}")
    no_proxy_env.setenv("NO_PROXY", "direct.example")
    httpserver.expect_request("/v1/models").respond_with_data("via proxy")
    with guarded_client(trust_env=True, resolver=_resolve_to("127.0.0.1")) as c:
        assert c.get("http://models.example/v1/models").text == "via proxy"
        req = httpserver.log[0][0]
        assert req.headers["Host"] == "models.example"
        assert req.headers["Proxy-Authorization"].startswith("Basic ")
        with pytest.raises(SsrfRefused):
            c.get("http://10.0.0.1/v1/models")  # a literal: checked before the proxy
        with pytest.raises(SsrfRefused, match="loopback"):
            c.get("http://direct.example/v1/models")  # NO_PROXY: direct, resolved here
    assert len(httpserver.log) == 1


def test_one_tls_context_per_trust_setting() -> None:
    a, b = GuardedTransport(), GuardedTransport(local_hosts=frozenset({"h.example"}),
                                                trust_env=True)
    try:
        assert a._pool._ssl_context is shared_ssl_context() is shared_ssl_context(False)
        assert b._pool._ssl_context is shared_ssl_context(True)
    finally:
        a.close()
        b.close()
