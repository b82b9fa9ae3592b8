"""The workbench's guards (issue 23, item 7): loopback only unless a token, CSRF on every
POST, and the Censor on every page: a crawl of every page finds no living person's exact
birth date, address, phone or e-mail."""

from __future__ import annotations

import re
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from starlette.testclient import TestClient
from typer.testing import CliRunner
from web_helpers import cli_items, csrf_of, decide, links
from workbench_case import LIVING_SECRETS, NEWS_PAGES, REGISTER_PAGES, write_pdf

import family_case
import sleuth.web.views as views
from sleuth.cli.app import app as cli
from sleuth.cli.common import open_case
from sleuth.model import CaseGraph, InputError
from sleuth.pipeline.ingest import ingest_path
from sleuth.privacy import censor
from sleuth.store import Store
from sleuth.store.workbench import unpromoted
from sleuth.web.app import create_app
from sleuth.web.safety import is_loopback


def crawl(client: TestClient, start: list[str]) -> dict[str, str]:
    """Every page reachable from `start` by the app's own links: url -> body."""
    seen: dict[str, str] = {}
    todo = list(start)
    while todo:
        url = todo.pop()
        if url in seen:
            continue
        answer = client.get(url)
        assert answer.status_code == 200, (url, answer.status_code)
        seen[url] = answer.text
        todo.extend(u for u in links(answer.text) if u not in seen)
    return seen


def test_no_page_shows_a_living_persons_exact_dates_address_or_contacts(
        web: TestClient) -> None:
    pages = crawl(web, ["/review", "/review?status=all", "/persons", "/api/review"])
    assert sum(u.startswith("/snapshot/") for u in pages) >= 4
    assert sum(u.startswith("/person/") for u in pages) >= 4
    leaks = [(u, s) for u, body in pages.items() for s in LIVING_SECRETS if s in body]
    assert not leaks
    # and what the dead may show, they show
    assert any("1935-07-22" in body for body in pages.values())


def test_the_family_case_shows_no_secret_either(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """The privacy tests' three-generation case (conflicts, hypotheses, an obituary that
    quotes a living granddaughter's birthday), served as a store would give it."""
    family = family_case.build_family()

    def graph(store: Store, title: str = "") -> CaseGraph:
        return family

    monkeypatch.setattr(views, "case_graph", graph)
    Store.create_case(tmp_path / "case").close()
    store = open_case(tmp_path / "case")
    try:
        with TestClient(create_app(store), base_url="http://127.0.0.1") as client:
            pages = crawl(client, ["/persons"])
            thomas = next(p.id for p in family.persons if p.canonical_name == "Thomas Whitfield")
            page = pages[f"/person/{thomas}"]
    finally:
        store.close()
    assert not [(u, s) for u, body in pages.items() for s in family_case.EMMA_SECRETS
                if s in body]
    assert "Conflicts (1)" in page and "recommended" in page
    assert any("Hypotheses (" in body and ">Hypothesis<" in body for body in pages.values())


# -- loopback and token ---------------------------------------------------------------------
def test_on_loopback_it_answers_only_to_a_loopback_host_name(web: TestClient) -> None:
    assert web.get("/review").status_code == 200
    assert web.get("/review", headers={"host": "localhost:8765"}).status_code == 200
    assert web.get("/review", headers={"host": "evil.example"}).status_code == 400


@pytest.fixture
def guarded(web_case: Path) -> Iterator[TestClient]:
    store = open_case(web_case)
    try:
        with TestClient(create_app(store, token="s3cret-token"),
                        base_url="http://192.0.2.10:8765") as client:
            yield client
    finally:
        store.close()


def test_off_loopback_every_request_needs_the_token(guarded: TestClient) -> None:
    for url in ("/review", "/persons", "/api/review", "/static/workbench.css", "/nothing"):
        assert guarded.get(url).status_code == 401
    assert guarded.get("/review", headers={"authorization": "Bearer wrong"}).status_code == 401
    assert guarded.get("/review?token=wrong").status_code == 401
    ok = guarded.get("/review", headers={"authorization": "Bearer s3cret-token"})
    assert ok.status_code == 200
    first = guarded.get("/review?token=s3cret-token&kind=confidence", follow_redirects=False)
    assert first.status_code == 303 and first.headers["location"] == "/review?kind=confidence"
    assert "sleuth_token=s3cret-token" in first.headers["set-cookie"]
    assert "samesite=strict" in first.headers["set-cookie"].lower()
    assert guarded.get("/persons").status_code == 200  # the cookie now carries it
    assert guarded.post("/review/1/accept", data={"reason": "x"}).status_code == 403


def test_only_loopback_addresses_count_as_loopback() -> None:
    assert is_loopback("127.0.0.1") and is_loopback("localhost") and is_loopback("::1")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.5")
    assert not is_loopback("example.org")


def test_serve_prints_a_token_once_off_loopback(web_case: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    started: dict[str, Any] = {}

    def run(server: uvicorn.Server, sockets: list[socket.socket]) -> None:
        host, port = sockets[0].getsockname()[:2]
        started.update(app=server.config.app, host=host, port=port)

    def free_port() -> int:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            return int(s.getsockname()[1])

    monkeypatch.setattr(uvicorn.Server, "run", run)
    monkeypatch.delenv("SLEUTH_SERVE_TOKEN", raising=False)
    port = free_port()
    res = CliRunner().invoke(cli, ["serve", str(web_case), "--host", "0.0.0.0",
                                   "--port", str(port)])
    assert res.exit_code == 0, res.output
    token = getattr(started["app"], "token", None)
    assert token and res.stdout.count(token) == 1 and started["host"] == "0.0.0.0"
    assert f"http://{socket.gethostname()}:{port}/review?token={token}" in res.stdout
    port = free_port()
    res = CliRunner().invoke(cli, ["serve", str(web_case), "--port", str(port)])
    assert getattr(started["app"], "token", "x") is None and started["port"] == port
    assert f"http://127.0.0.1:{port}/review  " in res.stdout and "?token=" not in res.stdout
    monkeypatch.setenv("SLEUTH_SERVE_TOKEN", "from-the-environment")
    res = CliRunner().invoke(cli, ["serve", str(web_case), "--host", "0.0.0.0",
                                   "--port", str(free_port())])
    assert getattr(started["app"], "token", None) == "from-the-environment"
    assert CliRunner().invoke(cli, ["serve", str(web_case), "--port", "0"]).exit_code == 2


def test_serve_on_a_port_in_use_says_so_in_one_line(web_case: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        res = CliRunner().invoke(cli, ["serve", str(web_case), "--port", str(port)])
    assert res.exit_code == 2
    assert f"cannot listen on 127.0.0.1:{port}" in res.stderr and "open http" not in res.stdout


# -- CSRF -------------------------------------------------------------------------------------
def test_a_post_without_this_sessions_csrf_token_is_refused(web: TestClient,
                                                            web_case: Path) -> None:
    assert decide(web, 1, "accept", "looks right", csrf="").status_code == 403
    assert decide(web, 1, "accept", "looks right", csrf="0" * 64).status_code == 403
    with TestClient(web.app, base_url="http://127.0.0.1") as other:  # another browser
        theirs = csrf_of(other.get("/review").text)
    assert decide(web, 1, "accept", "looks right", csrf=theirs).status_code == 403
    bulk = web.post("/review/bulk-accept", data={"reason": "x", "item": ["1"]})
    assert bulk.status_code == 403
    assert [i["status"] for i in cli_items(web_case)] == ["open", "open"]
    assert decide(web, 1, "accept", "looks right").status_code == 303


def same_as_the_whole_case(store: Store) -> int:
    """Every snapshot as the source viewer censors it (the kept censored case, and its
    unpromoted candidates' subjects judged beside it: `LiveCensor.source`), against the
    whole case censored with those subjects in it, before and after a page of the case
    was censored."""
    view = views.CaseView(store)
    raw = view.raw()
    sids = {*raw.snapshots, *(i["snapshot_id"] for i in view.queue(None))}
    for sid in sids:
        pending = unpromoted(store, sid)
        snap = raw.snapshots.get(sid) or store.snapshot(sid)
        beside = views._beside(snap, pending)
        whole = raw.model_copy(update={
            "persons": [*raw.persons, *(p for p, _ in beside)],
            "assertions": {**raw.assertions, **{p.id: claims for p, claims in beside}},
            "snapshots": {sid: snap}})
        expected = censor(whole).snapshots[sid].text
        first = views.CaseView(store).snapshot(sid)  # the first page of a fresh view
        warm_view = views.CaseView(store)
        warm_view.graph()
        warm_view.snapshot(next(iter(sids)))
        warm = warm_view.snapshot(sid)
        assert first.snap.text == expected == warm.snap.text, sid
        assert first.spans == warm.spans and first.whole == warm.whole, sid
    return len(sids)


def test_a_source_reads_as_the_whole_case_would_censor_it(web_case: Path,
                                                         tmp_path: Path) -> None:
    store = open_case(web_case)
    try:
        ingest_path(store, write_pdf(tmp_path / "r.pdf", REGISTER_PAGES))
        ingest_path(store, write_pdf(tmp_path / "n.pdf", NEWS_PAGES))
        assert same_as_the_whole_case(store) >= 6
    finally:
        store.close()


def test_the_family_case_sources_read_as_the_whole_case_would_censor_them(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    family = family_case.build_family()
    monkeypatch.setattr(views, "case_graph", lambda store, title="": family)
    Store.create_case(tmp_path / "case").close()
    store = open_case(tmp_path / "case")
    try:
        assert same_as_the_whole_case(store) == len(family.snapshots)
    finally:
        store.close()


def test_every_answer_keeps_the_page_to_the_app_itself(web: TestClient) -> None:
    for url in ("/review", "/persons", "/static/workbench.js", "/nothing"):
        headers = web.get(url).headers
        assert "default-src 'self'" in headers["content-security-policy"]
        assert "script-src 'self'" in headers["content-security-policy"]
        assert headers["x-frame-options"] == "DENY"
    page = web.get("/review").text
    assert not re.findall(r'(?:src|href)="(?:https?:)?//', page)  # nothing from elsewhere


# -- redaction off, for the owner on their own machine --------------------------------------
def test_redaction_off_shows_the_case_as_stored_under_a_banner(web_case: Path) -> None:
    store = open_case(web_case)
    try:
        with TestClient(create_app(store, redaction=False),
                        base_url="http://127.0.0.1") as client:
            pages = crawl(client, ["/review", "/persons"])
    finally:
        store.close()
    assert all('id="redaction-off"' in body for u, body in pages.items()
               if not u.startswith("/api/"))
    emma = next(body for u, body in pages.items() if u.startswith("/person/")
                and "<h1>Emma Whitfield" in body)
    assert "1990-05-12" in emma and "12 MAY 1990" in emma


def test_redaction_is_on_unless_asked_and_never_off_loopback(web: TestClient,
                                                             web_case: Path) -> None:
    assert "redaction-off" not in web.get("/review").text
    store = open_case(web_case)
    try:
        with pytest.raises(InputError):
            create_app(store, token="s3cret-token", redaction=False)
    finally:
        store.close()
    res = CliRunner().invoke(cli, ["serve", str(web_case), "--host", "0.0.0.0",
                                   "--no-redaction"])
    assert res.exit_code == 2 and "--no-redaction is for your own machine only" in res.stderr
    res = CliRunner().invoke(cli, ["serve", str(web_case), "--no-redaction"],
                             env={"SLEUTH_SERVE_TOKEN": "t0ken"})
    assert res.exit_code == 2 and "--no-redaction" in res.stderr
