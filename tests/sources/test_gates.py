"""Permission and ToS gates; credentials never stored, logged or shown."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from fetch_helpers import dump_case, make_spec
from pytest_httpserver import HTTPServer
from sqlalchemy import select
from werkzeug import Request, Response

from sleuth.sources.fetcher import Fetcher, FetchError
from sleuth.sources.gates import Credentials, SourceBlocked, record_consent
from sleuth.store import Store
from sleuth.store import schema as t

SECRET = "sEcReT-7f3a9c1e-token"


def _log(store: Store) -> list[dict[str, object]]:
    with store.engine.connect() as c:
        return [dict(r._mapping) for r in c.execute(
            select(t.research_log).order_by(t.research_log.c.seq))]


def _tier2(server: HTTPServer) -> object:
    return make_spec(server, id="paid", tier=2, compliance={
        "requires_auth": True,
        "auth": {"kind": "bearer", "env": ["PAID_TOKEN"], "header": "Authorization"}})


def test_tier0_is_always_allowed(httpserver: HTTPServer, store: Store,
                                 fetcher_for: Callable[..., Fetcher]) -> None:
    f = fetcher_for(make_spec(httpserver))
    assert f.check(f.registry.get("testsrc"), "api").allowed


def test_tier2_without_credentials_is_skipped_and_logged(
    httpserver: HTTPServer, store: Store, fetcher_for: Callable[..., Fetcher]
) -> None:
    f = fetcher_for(_tier2(httpserver), env={})
    with pytest.raises(SourceBlocked, match="no user credentials"):
        f.fetch("paid", "/r/1")
    assert httpserver.log == []
    entry = _log(store)[-1]
    assert entry["agent"] == "Censor" and entry["context"]["allowed"] is False
    assert entry["context"]["rule"] == "credentials"


def test_tier2_needs_a_recorded_store_authorisation(
    httpserver: HTTPServer, store: Store, fetcher_for: Callable[..., Fetcher]
) -> None:
    seen: list[str] = []

    def handler(req: Request) -> Response:
        seen.append(req.headers.get("Authorization", ""))
        return Response(json.dumps({"persons": [{"name": "Ada"}]}),
                        content_type="application/json")

    httpserver.expect_request("/r/1").respond_with_handler(handler)
    f = fetcher_for(_tier2(httpserver), env={"PAID_TOKEN": SECRET})
    with pytest.raises(SourceBlocked, match="recorded authorisation"):
        f.fetch("paid", "/r/1")
    with store.transaction() as conn:
        record_consent(store, conn, "paid", "store", "my own subscription, personal research")
    res = f.fetch("paid", "/r/1")
    assert seen == [f"Bearer {SECRET}"]  # the credential went to the server...
    assert res.snapshot.metadata["request_headers"]
    dump = dump_case(store)
    assert SECRET not in dump  # ...and nowhere into the case
    assert "my own subscription" in dump  # the authorisation is audited


def test_api_key_in_query_is_redacted_everywhere(
    httpserver: HTTPServer, store: Store, fetcher_for: Callable[..., Fetcher]
) -> None:
    got: list[str] = []

    def handler(req: Request) -> Response:
        got.append(req.args.get("key", ""))
        if req.path == "/missing":
            return Response("nope", status=404)
        return Response(json.dumps({"ok": True}), content_type="application/json")

    httpserver.expect_request("/ok").respond_with_handler(handler)
    httpserver.expect_request("/missing").respond_with_handler(handler)
    spec = make_spec(httpserver, compliance={
        "auth": {"kind": "api_key", "env": ["TEST_API_KEY"], "param": "key"}})
    f = fetcher_for(spec, env={"TEST_API_KEY": SECRET})
    res = f.fetch("testsrc", "/ok", params={"q": "Whitfield"})
    assert got == [SECRET]
    assert "key=" not in res.url and "q=Whitfield" in res.url
    with pytest.raises(FetchError) as err:
        f.fetch("testsrc", "/missing", params={"key": SECRET})  # even a caller-passed key
    assert SECRET not in str(err.value)
    assert SECRET not in dump_case(store)


def test_tos_prohibited_action_blocked_until_permitted(
    httpserver: HTTPServer, store: Store, fetcher_for: Callable[..., Fetcher]
) -> None:
    httpserver.expect_request("/memorial/1").respond_with_data(
        "<h1 id='bio-name'>Ada Whitfield</h1>", content_type="text/html")
    spec = make_spec(httpserver, id="grave", kind="html", compliance={
        "allowed_actions": [], "prohibited_actions": ["scrape", "bulk"],
        "tos_url": "https://graves.example/terms"})
    f = fetcher_for(spec)
    with pytest.raises(SourceBlocked, match="prohibited by ToS: grave"):
        f.fetch("grave", "/memorial/1")
    assert httpserver.log == []
    with store.transaction() as conn:
        record_consent(store, conn, "grave", "scrape", "site owner's written permission")
    res = f.fetch("grave", "/memorial/1")
    assert "Ada Whitfield" in res.snapshot.text
    with store.transaction() as conn:
        record_consent(store, conn, "grave", "scrape", "permission withdrawn", granted=False)
    with pytest.raises(SourceBlocked):
        f.fetch("grave", "/memorial/2")
    rules = [e["context"].get("rule") for e in _log(store) if e["agent"] == "Censor"]
    assert rules[0] == "tos" and "consent" in rules


def test_keyring_is_consulted_when_env_is_empty(httpserver: HTTPServer) -> None:
    spec = make_spec(httpserver, id="paid", tier=1, compliance={
        "requires_auth": True,
        "auth": {"kind": "bearer", "env": ["PAID_TOKEN"], "keyring_service": "sleuth-paid"}})
    asked: list[tuple[str, str]] = []

    def kr(service: str, user: str) -> str | None:
        asked.append((service, user))
        return SECRET

    creds = Credentials(env={}, keyring_get=kr)
    assert creds.available(spec) and creds.presence(spec) == {"PAID_TOKEN": True}
    assert set(asked) == {("sleuth-paid", "PAID_TOKEN")}
    assert not Credentials(env={}, keyring_get=lambda s, u: None).available(spec)
