"""FamilySearch OAuth2: a token from the user's credentials, cached in memory, renewed once.

A local server plays both the token endpoint and the records API; the records are the real
recorded GEDCOM X responses.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import Any

import pytest
from fetch_helpers import FakeTime, dump_case, make_spec
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from shared_data import shared_path
from sleuth.model import SleuthError
from sleuth.model.source_spec import SourceSpec, parse_spec
from sleuth.sources.fetcher import Fetcher, FetchError
from sleuth.sources.gates import Credentials, record_consent
from sleuth.sources.plugins import load_plugin
from sleuth.sources.registry import load_registry
from sleuth.store import Store

PASSWORD = "pw-Hunter2-9d81f0"
USERNAME = "ada.researcher"
CLIENT_ID = "a02f100000SLEUTHTEST"
CREDS = {"FAMILYSEARCH_CLIENT_ID": CLIENT_ID, "FAMILYSEARCH_USERNAME": USERNAME,
         "FAMILYSEARCH_PASSWORD": PASSWORD}
PERSONA = "/platform/records/personas/QKY4-HNVQ"
FS_CASE = "arthur_cowling_marriage_reg_1937.json"


class FakeFamilySearch:
    """Token endpoint plus records API; tokens are numbered, some are refused."""

    def __init__(self, server: HTTPServer, *, expires_in: int | None = None) -> None:
        self.forms: list[dict[str, str]] = []
        self.api_auth: list[str] = []
        self.refused: set[str] = set()
        self.expires_in = expires_in
        self.body = shared_path("recorded", "familysearch", "saved_fetch_objects",
                                FS_CASE).read_bytes()
        server.expect_request("/token", method="POST").respond_with_handler(self.token)
        server.expect_request(PERSONA).respond_with_handler(self.api)
        server.expect_request("/platform/records/personas/OTHER").respond_with_handler(self.api)

    def token(self, req: Request) -> Response:
        form = dict(req.form)
        self.forms.append(form)
        if form.get("password", form.get("client_secret")) not in (PASSWORD, "cs-" + PASSWORD):
            # A careless server echoing the credentials back must not leak them either.
            return Response(json.dumps({"error": "invalid_grant", "echo": form}), status=400,
                            content_type="application/json")
        body: dict[str, Any] = {"access_token": f"fs-token-{len(self.forms)}-x9q",
                                "token_type": "Bearer"}
        if self.expires_in:
            body["expires_in"] = self.expires_in
        return Response(json.dumps(body), content_type="application/json")

    def api(self, req: Request) -> Response:
        auth = req.headers.get("Authorization", "")
        self.api_auth.append(auth)
        if not auth.startswith("Bearer fs-token-") or auth.split()[1] in self.refused:
            return Response(json.dumps({"errors": [{"message": f"bad token {auth}"}]}),
                            status=401, content_type="application/json")
        return Response(self.body, content_type="application/x-gedcomx-v1+json")

    @property
    def issued(self) -> list[str]:
        return [f"fs-token-{i + 1}-x9q" for i in range(len(self.forms))]


def _fs_spec(server: HTTPServer) -> SourceSpec:
    data = load_registry().get("familysearch").model_dump(mode="json", exclude_none=True)
    data.update(base_url=server.url_for("/").rstrip("/"), local=True)
    data["compliance"]["robots_txt"] = False
    data["compliance"]["auth"]["token_url"] = server.url_for("/token")
    return parse_spec(data, "familysearch.yaml")


def _consent(store: Store, source: str = "familysearch") -> None:
    with store.transaction() as conn:
        record_consent(store, conn, source, "store", "my own FamilySearch account")


def _no_leak(store: Store, text: str, fs: FakeFamilySearch) -> None:
    for secret in (PASSWORD, *fs.issued):
        assert secret not in text
        assert secret not in dump_case(store)


def test_password_grant_token_is_used_cached_and_never_stored(
    httpserver: HTTPServer, store: Store, fetcher_for: Callable[..., Fetcher],
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    fs = FakeFamilySearch(httpserver)
    spec = _fs_spec(httpserver)
    _consent(store)
    plugin = load_plugin(spec, fetcher_for(spec, env=CREDS))
    res = plugin.record("QKY4-HNVQ")  # type: ignore[attr-defined]
    plugin.record("OTHER")  # type: ignore[attr-defined]
    assert fs.forms == [{"grant_type": "password", "client_id": CLIENT_ID,
                         "username": USERNAME, "password": PASSWORD}]
    assert fs.api_auth == ["Bearer fs-token-1-x9q"] * 2  # one login, cached in memory
    again = fetcher_for(spec, env=CREDS)  # a new session: token gone, response cache kept
    assert again.fetch("familysearch", PERSONA).from_cache
    assert len(fs.forms) == 1  # a fresh cache hit needs no request, so no login either
    assert plugin.candidates(res), "the GEDCOM X parser read the authorised response"
    _no_leak(store, caplog.text, fs)
    assert USERNAME not in dump_case(store)
    assert "oauth_token" in dump_case(store)  # the login itself is in the research log


def test_a_rejected_token_is_renewed_once(
    httpserver: HTTPServer, store: Store, fetcher_for: Callable[..., Fetcher]
) -> None:
    fs = FakeFamilySearch(httpserver)
    fs.refused.add("fs-token-1-x9q")
    spec = _fs_spec(httpserver)
    _consent(store)
    f = fetcher_for(spec, env=CREDS)
    res = f.fetch("familysearch", PERSONA)
    assert res.status == 200
    assert fs.api_auth == ["Bearer fs-token-1-x9q", "Bearer fs-token-2-x9q"]
    fs.refused.add("fs-token-2-x9q")
    fs.refused.add("fs-token-3-x9q")
    with pytest.raises(FetchError, match="HTTP 401") as err:
        f.fetch("familysearch", "/platform/records/personas/OTHER")
    assert len(fs.forms) == 3  # one renewal, not a loop
    assert fs.api_auth[2:] == ["Bearer fs-token-2-x9q", "Bearer fs-token-3-x9q"]
    _no_leak(store, str(err.value), fs)


def test_a_ready_token_is_not_renewed_without_the_grant(
    httpserver: HTTPServer, store: Store, fetcher_for: Callable[..., Fetcher]
) -> None:
    fs = FakeFamilySearch(httpserver)
    spec = _fs_spec(httpserver)
    _consent(store)
    f = fetcher_for(spec, env={"FAMILYSEARCH_ACCESS_TOKEN": "fs-token-9-x9q"})
    assert f.fetch("familysearch", PERSONA).status == 200
    fs.refused.add("fs-token-9-x9q")
    with pytest.raises(FetchError, match="HTTP 401") as err:
        f.fetch("familysearch", "/platform/records/personas/OTHER")
    assert fs.forms == [] and len(fs.api_auth) == 2
    assert "fs-token-9-x9q" not in str(err.value) + dump_case(store)


def test_refused_credentials_never_reach_the_error_or_the_case(
    httpserver: HTTPServer, store: Store, fetcher_for: Callable[..., Fetcher]
) -> None:
    fs = FakeFamilySearch(httpserver)
    spec = _fs_spec(httpserver)
    _consent(store)
    wrong = {**CREDS, "FAMILYSEARCH_PASSWORD": "wrong-pw-0a7c33"}
    f = fetcher_for(spec, env=wrong)
    with pytest.raises(SleuthError, match="invalid_grant") as err:
        f.fetch("familysearch", PERSONA)
    assert fs.api_auth == []  # no API request without a token
    for secret in ("wrong-pw-0a7c33", USERNAME, CLIENT_ID):
        assert secret not in str(err.value)
        assert secret not in dump_case(store)


def test_an_expiring_token_is_renewed_before_use(
    httpserver: HTTPServer, store: Store, fetcher_for: Callable[..., Fetcher],
    fake_time: FakeTime,
) -> None:
    fs = FakeFamilySearch(httpserver, expires_in=120)
    spec = _fs_spec(httpserver)
    _consent(store)
    f = fetcher_for(spec, env=CREDS)
    f.fetch("familysearch", PERSONA)
    fake_time.sleep(30)
    f.fetch("familysearch", "/platform/records/personas/OTHER")
    assert len(fs.forms) == 1
    fake_time.skew += 90 * 86400  # past expiry (and past the response cache's TTL)
    f.fetch("familysearch", PERSONA)
    assert len(fs.forms) == 2 and fs.api_auth[-1] == "Bearer fs-token-2-x9q"


def test_client_credentials_grant_from_the_keyring(
    httpserver: HTTPServer, store: Store, fetcher_for: Callable[..., Fetcher]
) -> None:
    fs = FakeFamilySearch(httpserver)
    spec = make_spec(httpserver, id="archive", tier=1, compliance={
        "requires_auth": True,
        "content_types": ["application/x-gedcomx-v1+json"],
        "auth": {"kind": "oauth2_client_credentials", "keyring_service": "sleuth-archive",
                 "env": ["ARCHIVE_TOKEN", "ARCHIVE_CLIENT_ID", "ARCHIVE_SECRET"],
                 "token_url": httpserver.url_for("/token")}})
    ring = {"ARCHIVE_CLIENT_ID": CLIENT_ID, "ARCHIVE_SECRET": "cs-" + PASSWORD}
    creds = Credentials(env={}, keyring_get=lambda service, user: ring.get(user))
    f = fetcher_for(spec, credentials=creds)
    assert f.fetch("archive", PERSONA).status == 200
    assert fs.forms == [{"grant_type": "client_credentials", "client_id": CLIENT_ID,
                         "client_secret": "cs-" + PASSWORD}]
    assert "cs-" + PASSWORD not in dump_case(store)


def test_credentials_are_not_sent_to_a_plain_http_token_endpoint(
    httpserver: HTTPServer, store: Store, fetcher_for: Callable[..., Fetcher]
) -> None:
    fs = FakeFamilySearch(httpserver)
    data = _fs_spec(httpserver).model_dump(mode="json", exclude_none=True)
    data["compliance"]["auth"]["token_url"] = "http://ident.example.invalid/token"
    spec = parse_spec(data, "familysearch.yaml")
    _consent(store)
    with pytest.raises(SleuthError, match="non-https token endpoint"):
        fetcher_for(spec, env=CREDS).fetch("familysearch", PERSONA)
    assert fs.forms == [] and fs.api_auth == []
