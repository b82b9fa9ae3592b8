"""The workbench's pages (issue 23) through Starlette's TestClient: the review queue and its
decisions (the same audited operations as `sleuth review`), persons and the source viewer."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from sqlalchemy import select
from starlette.testclient import TestClient
from web_helpers import audit_reasons, cli_items, csrf_of, decide
from workbench_case import LIVING_SECRETS, NEWS_PAGES, REGISTER_PAGES, write_pdf

import sleuth.web.app as app_module
import sleuth.web.views as views
from sleuth.cli.common import open_case
from sleuth.model import Agent, LogEntry
from sleuth.pipeline.ingest import ingest_path
from sleuth.resolve.explain import Proposal
from sleuth.resolve.review import enqueue_proposals
from sleuth.store import Store, schema

ITEM_RE = re.compile(r'data-item-id="(\d+)"')


def test_the_queue_shows_every_open_item_as_sleuth_review_lists_it(
        web: TestClient, web_case: Path) -> None:
    page = web.get("/review")
    assert page.status_code == 200
    listed = [int(i) for i in ITEM_RE.findall(page.text)]
    assert listed == [i["id"] for i in cli_items(web_case)] and listed
    for label in (">Accept<", ">Reject<", ">Edit<", '<textarea name="reason"',
                  "Medium confidence (0.75) requires human verification",
                  "She was born on 12 June 1884 in Clark County, Ohio."):
        assert label in page.text
    assert [i["id"] for i in web.get("/api/review").json()] == listed


def test_filters_by_kind_and_person(web: TestClient) -> None:
    assert ITEM_RE.findall(web.get("/review?kind=confidence").text)
    assert not ITEM_RE.findall(web.get("/review?kind=merge").text)
    assert ITEM_RE.findall(web.get("/review", params={"person": "Sarah Giles"}).text)
    assert not ITEM_RE.findall(web.get("/review", params={"person": "Nobody"}).text)


def test_accept_is_the_audited_review_operation(web: TestClient, web_case: Path) -> None:
    answer = decide(web, 1, "accept", "the obituary's informant was her son")
    assert answer.status_code == 303 and "accepted+item+1" in answer.headers["location"]
    assert 'data-item-id="1"' not in web.get("/review").text
    decided = {i["id"]: i for i in cli_items(web_case, "--all")}
    assert decided[1]["status"] == "accepted"
    # the reviewer's reason, who and when; the queue's own reason under its own name
    assert decided[1]["reason"] == "the obituary's informant was her son"
    assert decided[1]["decided_by"] and decided[1]["decided_at"]
    assert decided[1]["queue_reason"].endswith("requires human verification")
    waiting = decided[2]  # an open item keeps the queue's reason, decided by no one
    assert waiting["reason"] == waiting["queue_reason"] and waiting["decided_by"] is None
    shown = web.get("/review?status=all").text
    assert "the obituary&#39;s informant was her son" in shown
    assert ("review_accepted", "the obituary's informant was her son") in audit_reasons(
        web_case, 1)
    assert "accepted item 1" in web.get(answer.headers["location"]).text


def test_a_decision_needs_a_reason(web: TestClient, web_case: Path) -> None:
    answer = decide(web, 1, "accept", "   ")
    assert answer.status_code == 400 and "needs a reason" in answer.text
    assert cli_items(web_case)[0]["status"] == "open"


def test_reject(web: TestClient, web_case: Path) -> None:
    assert decide(web, 2, "reject", "a different Sarah Giles").status_code == 303
    assert {i["id"]: i["status"] for i in cli_items(web_case, "--all")}[2] == "rejected"
    assert {i["id"]: i["reason"] for i in cli_items(web_case, "--all")}[2] == (
        "a different Sarah Giles")
    assert ("review_rejected", "a different Sarah Giles") in audit_reasons(web_case, 2)


def test_an_edit_is_rechecked_by_the_firewall(web: TestClient, web_case: Path) -> None:
    refused = decide(web, 2, "edit", "she was born in Cook County", value="Cook County, Illinois")
    assert refused.status_code == 400 and "Item 2:" in refused.text
    assert {i["id"]: i["status"] for i in cli_items(web_case, "--all")}[2] == "open"
    done = decide(web, 2, "edit", "without the full stop", value="Clark County, Ohio")
    assert done.status_code == 303
    assert {i["id"]: i["status"] for i in cli_items(web_case, "--all")}[2] == "edited"
    sarah = next(p for p in re.findall(r'href="/person/([^"]+)">Sarah Giles<',
                                       web.get("/persons").text))
    assert "Clark County, Ohio" in web.get(f"/person/{sarah}").text


def test_an_edit_needs_the_corrected_value(web: TestClient) -> None:
    assert decide(web, 2, "edit", "why not", value="").status_code == 400


def test_bulk_accept_of_a_filtered_set_with_one_reason(web: TestClient, web_case: Path) -> None:
    page = web.get("/review", params={"person": "Sarah Giles"}).text
    assert "Accept all shown" in page
    token = re.search(r'name="csrf" value="([^"]+)"', page).group(1)  # type: ignore[union-attr]
    answer = web.post("/review/bulk-accept", follow_redirects=False, data={
        "csrf": token, "reason": "her family bible agrees", "item": ["1", "2"],
        "back": "/review?person=Sarah+Giles"})
    assert answer.status_code == 303 and "accepted+2+items" in answer.headers["location"]
    assert not cli_items(web_case)
    assert "The review queue is empty" in web.get("/review").text


def test_a_filter_left_empty_says_what_still_waits(web: TestClient) -> None:
    open_items = len(web.get("/api/review").json())
    page = web.get("/review", params={"person": "Nobody Here"}).text
    assert f"Nothing left here for Nobody Here: {open_items} other items are waiting" in page
    assert '<option selected>Nobody Here</option>' in page  # the filter still shows it


def test_a_decided_item_cannot_be_decided_again(web: TestClient) -> None:
    assert decide(web, 1, "accept", "yes").status_code == 303
    again = decide(web, 1, "reject", "no")
    assert again.status_code == 400 and "already accepted" in again.text
    assert decide(web, 999, "accept", "yes").status_code == 404


def test_the_person_page(web: TestClient) -> None:
    persons = web.get("/persons").text
    robert = re.search(r'href="/person/([^"]+)">Robert Whitfield<', persons).group(1)  # type: ignore[union-attr]
    page = web.get(f"/person/{robert}").text
    assert "1935-07-22" in page and "2011-01-09" in page  # he died in 2011: dates shown
    assert "Emma Whitfield" in page  # his daughter, as a link
    assert "<h2>Timeline</h2>" in page and "1935-07-22" in page.split("<h2>Timeline</h2>")[1]
    cites = re.findall(r'href="(/snapshot/[0-9a-f]+\?start=\d+&amp;end=\d+)"', page)
    assert cites
    assert web.get(cites[0].replace("&amp;", "&")).status_code == 200
    assert web.get("/person/no-such-person").status_code == 404


def test_the_source_viewer_marks_the_cited_words_with_page_and_hash(web: TestClient) -> None:
    item = web.get("/api/review").json()[0]
    sid, start, end = item["span"]
    page = web.get(f"/snapshot/{sid}", params={"start": start, "end": end}).text
    assert '<mark id="cited">She was born on 12 June 1884 in Clark County, Ohio.</mark>' in page
    assert "page 2" in page  # after the form feed
    assert re.search(r"sha256:[0-9a-f]{64}", page)
    assert "Springfield Daily News" in page  # the whole text: no living person in it
    whole = web.get(f"/snapshot/{sid}").text
    assert "<mark" not in whole and "Oak Hill" in whole


def test_the_source_viewer_refuses_a_span_outside_the_text(web: TestClient) -> None:
    sid = web.get("/api/review").json()[0]["span"][0]
    assert web.get(f"/snapshot/{sid}?start=5&end=99999").status_code == 400
    assert web.get(f"/snapshot/{sid}?start=9&end=3").status_code == 400
    assert web.get(f"/snapshot/{sid}?start=x").status_code == 400
    assert web.get("/snapshot/0123456789abcdef").status_code == 404
    assert web.get("/no/such/page").status_code == 404
    assert web.get("/").status_code == 200  # the queue, by a redirect


def test_the_persons_list_finds_by_name_a_page_at_a_time(web: TestClient) -> None:
    everyone = web.get("/persons").text
    assert "Robert Whitfield" in everyone and "Sarah Giles" in everyone
    found = web.get("/persons", params={"q": "whitfield"}).text
    assert "Robert Whitfield" in found and "Sarah Giles" not in found
    assert web.get("/persons?page=x").status_code == 400  # no page number, said so


def test_a_long_source_is_shown_around_the_cited_words(web: TestClient,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(views, "LONG_TEXT", 40)
    monkeypatch.setattr(views, "CONTEXT", 10)
    sid, start, end = web.get("/api/review").json()[0]["span"]
    page = web.get(f"/snapshot/{sid}", params={"start": start, "end": end}).text
    assert "characters before" in page and "characters after" in page
    assert "Daily News" not in page and "<mark" in page
    whole = web.get(f"/snapshot/{sid}", params={"start": start, "end": end, "whole": 1}).text
    assert "Daily News" in whole and "characters before" not in whole


def test_a_pdf_source_shows_its_page_with_the_cited_words_boxed(
        web: TestClient, web_case: Path, tmp_path: Path) -> None:
    store = open_case(web_case)
    try:
        register = ingest_path(store, write_pdf(tmp_path / "r.pdf", REGISTER_PAGES)).snapshot_id
        news = ingest_path(store, write_pdf(tmp_path / "n.pdf", NEWS_PAGES)).snapshot_id
    finally:
        store.close()
    words = "She was born on 12 June 1784 in Clark County, Ohio."
    item = next(i for i in web.get("/api/review").json() if i["span"][0] == register
                and i["excerpt"] == words)
    _, start, end = item["span"]
    page = web.get(f"/snapshot/{register}", params={"start": start, "end": end}).text
    assert f'<img src="/snapshot/{register}/page/2.png"' in page
    assert 'class="box" id="cited-box"' in page and "page 2" in page
    png = web.get(f"/snapshot/{register}/page/2.png")
    assert png.status_code == 200 and png.headers["content-type"] == "image/png"
    assert png.content.startswith(b"\x89PNG\r\n\x1a\n")
    assert web.get(f"/snapshot/{register}/page/3.png").status_code == 404
    # a page that mentions a living person is not shown as an image (it cannot be redacted)
    assert "<img" not in web.get(f"/snapshot/{news}", params={"start": 0, "end": 5}).text
    assert web.get(f"/snapshot/{news}/page/1.png").status_code == 404


def test_pedigree_and_descendant_charts(web: TestClient) -> None:
    persons = web.get("/persons").text
    ids = dict((n, i) for i, n in re.findall(r'href="/person/([^"]+)">([^<]+)<', persons))
    robert, emma = ids["Robert Whitfield"], ids["Emma Whitfield"]
    down = web.get(f"/person/{robert}/chart", params={"kind": "descendants"}).text
    assert "<svg" in down and f'data-person-id="{emma}"' in down
    up = web.get(f"/person/{emma}/chart").text  # ancestors by default
    assert f'data-person-id="{robert}"' in up and "1935–2011" in up
    assert "1990s" in up and "1990-05-12" not in up  # a living person's decade only
    assert web.get(f"/person/{emma}/chart?kind=cousins").status_code == 400
    assert web.get(f"/person/{emma}/chart?generations=x").status_code == 400
    assert web.get("/person/nobody/chart").status_code == 404


def test_the_report_and_the_research_log(web: TestClient, web_case: Path) -> None:
    store = open_case(web_case)
    try:
        with store.transaction() as tx:
            for agent, action, why in (
                    (Agent.LEAD, "plan", "research Robert Whitfield: 2 initial searches"),
                    (Agent.SCOUT, "fetch", "fetched the Springfield obituary index"),
                    (Agent.ANALYST, "analysis", "Emma Whitfield named as his daughter"),
                    (Agent.LEAD, "termination", "stopped (diminishing_returns)")):
                store.log(tx, LogEntry(agent=agent, action_type=action, rationale=why))
    finally:
        store.close()
    log = web.get("/log").text
    assert "Why the run stopped:</b> stopped (diminishing_returns)" in log
    assert "fetched the Springfield obituary index" in log
    assert "[Living] named as his daughter" in log  # masked as in the export
    scouts = web.get("/log", params={"agent": "Scout"}).text
    assert "obituary index" in scouts and "2 initial searches" not in scouts
    first = web.get("/report")
    assert first.status_code == 200
    last = int(re.search(r"Page 1 of (\d+)", first.text).group(1))  # type: ignore[union-attr]
    text = "\n".join(web.get(f"/report?page={n}").text for n in range(1, last + 1))
    assert "Robert Whitfield" in text
    viewer = re.findall(r'<a href="(/snapshot/[0-9a-f]+)">Open in the source viewer', text)
    assert viewer and all(web.get(u).status_code == 200 for u in set(viewer))
    assert not [s for s in LIVING_SECRETS if s in text]
    # each footnote opens the source viewer at the very words it cites
    cited = [html.unescape(u) for u in re.findall(
        r'<a class="viewer" href="(/snapshot/[0-9a-f]+\?start=\d+&amp;end=\d+)">', text)]
    assert cited
    for url in cited:
        page = web.get(url).text
        mark = re.search(r'<mark id="cited"[^>]*>(.*?)</mark>', page, re.S)
        assert mark and mark.group(1).strip(), url


def test_merge_review_side_by_side_then_a_split(web: TestClient, web_case: Path) -> None:
    persons = web.get("/persons").text
    ids = dict((n, i) for i, n in re.findall(r'href="/person/([^"]+)">([^<]+)<', persons))
    a, b = ids["Emma Whitfield"], ids["Emma"]
    store = open_case(web_case)
    try:
        enqueue_proposals(store, [Proposal(
            a=a, b=b, probability=0.9, recommended_action="review",
            features={"given": {"level": "exact", "weight": 2.5}},
            merge_rationale="the same given name; both Robert Whitfield's daughter",
            why_not_merge="the obituary gives no surname")])
    finally:
        store.close()
    queue = web.get("/review", params={"kind": "merge"}).text
    assert f'href="/compare/{a}/{b}">Compare the two side by side' in queue
    # the item names both persons (as the Censor shows them), each linked, not an id
    assert f'<a class="person" href="/person/{a}">Emma Whitfield</a>' in queue
    assert f'<a class="person" href="/person/{b}">Emma</a>' in queue
    assert f'<span class="value">{b}' not in queue and "1990-05-12" not in queue
    assert 'class="explain hidden-why"' in queue  # why its quoted words are withheld
    item = int(ITEM_RE.findall(queue)[0])
    compare = web.get(f"/compare/{a}/{b}").text
    assert "Same person?" in compare and f'data-item-id="{item}"' in compare
    assert "1990-05-12" not in compare and ">Accept<" in compare
    assert decide(web, item, "accept", "one daughter, named twice").status_code == 303
    assert web.get(f"/person/{b}", follow_redirects=False).headers["location"] == f"/person/{a}"
    page = web.get(f"/person/{a}").text
    assert "Merged from 2 records" in page and 'action="/person/' in page
    cluster = re.search(r'name="cluster" value="([^"]+)"', page).group(1)  # type: ignore[union-attr]
    form = {"cluster": cluster, "reason": "two daughters after all"}
    assert web.post(f"/person/{a}/split", data=form).status_code == 403  # no CSRF token
    done = web.post(f"/person/{a}/split", data={**form, "csrf": csrf_of(page)},
                    follow_redirects=False)
    assert done.status_code == 303 and "split+into+2+persons" in done.headers["location"]
    assert web.get(f"/person/{b}").status_code == 200  # a person of their own again
    assert "Merged from" not in web.get(f"/person/{a}").text
    store = Store.open_case(web_case)
    try:
        with store.engine.connect() as conn:
            a_log = schema.audit_log.c
            assert conn.execute(select(a_log.reason).where(
                a_log.action_type == "merge_split")).scalar() == "two daughters after all"
    finally:
        store.close()


def test_a_long_queue_comes_a_page_at_a_time(web: TestClient,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(app_module, "PER_QUEUE", 1)
    first = web.get("/review").text
    assert ITEM_RE.findall(first) == ["1"] and "Page 1 of 2" in first
    second = web.get("/review?page=2").text
    assert ITEM_RE.findall(second) == ["2"] and "previous" in second
    refused = decide(web, 2, "edit", "no", value="Cook County, Illinois")
    assert ITEM_RE.findall(refused.text) == ["2"]  # the refused item is the one shown
    assert web.get("/review?page=x").status_code == 200


def test_a_page_number_past_either_end_or_no_number_is_no_page(web: TestClient) -> None:
    """`/report?page=999` was the last page, `page=abc` the first: a wrong address now says
    so (404, 400); every page of the report and the persons list still answers."""
    first = web.get("/report?page=1")
    assert first.status_code == 200
    found = re.search(r"Page 1 of (\d+)", first.text)
    last = int(found.group(1)) if found else 1
    assert web.get(f"/report?page={last}").status_code == 200
    for url, code in ((f"/report?page={last + 1}", 404), ("/report?page=999", 404),
                      ("/report?page=-1", 404), ("/report?page=abc", 400),
                      ("/persons?page=99", 404), ("/log?page=x", 400)):
        answer = web.get(url)
        assert answer.status_code == code, url
        assert "no page" in answer.text or "must be a page number" in answer.text
    assert web.get("/persons?page=1").status_code == 200
