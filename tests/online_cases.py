"""Online sources for the investigation tests: the built-in specs pointed at a real HTTP
server on 127.0.0.1 (pytest-httpserver) through $SLEUTH_SOURCES_DIR, the user's own way of
replacing a source's address, serving recorded real responses from ../shared/data."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from shared_data import shared_path
from sleuth.sources.registry import load_registry

WIKI = ("recorded", "wikipedia", "wptools")
PAGE = "/api/rest_v1/page/html/Douglas_Adams"
ROBOTS = "User-agent: *\nAllow: /\n"


def point_at(server: HTTPServer, folder: Path, *names: str) -> Path:
    """User specs replacing the built-in `names` with the same source on `server`."""
    folder.mkdir(parents=True, exist_ok=True)
    for name in names:
        data = load_registry().get(name).model_dump(mode="json", exclude_none=True)
        data.update(base_url=server.url_for("/").rstrip("/"), local=True)
        (folder / f"{name}.yaml").write_text(yaml.safe_dump(data), encoding="utf-8")
    return folder


def search_reply(summary: dict[str, Any]) -> dict[str, Any]:
    """A `list=search` reply in the shape the MediaWiki Action API documents
    (API:Search), naming the page of a recorded REST summary: no recorded search response
    is in ../shared/data, so this one envelope is written here; the page it leads to is the
    recorded one."""
    return {"batchcomplete": "", "query": {"searchinfo": {"totalhits": 1}, "search": [
        {"ns": 0, "title": summary["title"], "pageid": summary["pageid"], "size": 91234,
         "wordcount": 7841, "snippet": "English author, <span class=\"searchmatch\">"
         "anecdote</span>", "timestamp": summary["timestamp"]}]}}


def serve_wikipedia(server: HTTPServer) -> None:
    """robots.txt, the search, and Douglas Adams's page as Wikipedia served it (recorded)."""
    summary = json.loads(shared_path(*WIKI, "rest_summary.json").read_text(encoding="utf-8"))
    page = shared_path(*WIKI, "rest_html.html").read_bytes()
    server.expect_request("/robots.txt").respond_with_data(ROBOTS, content_type="text/plain")
    server.expect_request("/w/api.php", query_string={
        "action": "query", "list": "search", "format": "json",
        "srsearch": "douglas adams say anecdote"}).respond_with_json(search_reply(summary))
    server.expect_request(PAGE).respond_with_data(page, content_type="text/html; charset=utf-8")


def serve_only_search(server: HTTPServer, *, page: bool = False) -> None:
    """Every search answers with the recorded page's title; the page itself is served
    (`page`) or gone (404)."""
    summary = json.loads(shared_path(*WIKI, "rest_summary.json").read_text(encoding="utf-8"))
    server.expect_request("/robots.txt").respond_with_data(ROBOTS, content_type="text/plain")
    server.expect_request("/w/api.php").respond_with_json(search_reply(summary))
    if page:
        server.expect_request(PAGE).respond_with_data(
            shared_path(*WIKI, "rest_html.html").read_bytes(),
            content_type="text/html; charset=utf-8")
    else:
        server.expect_request(PAGE).respond_with_data("gone", status=404,
                                                      content_type="text/plain")


def serve_wikidata(server: HTTPServer) -> None:
    """wbsearchentities (its documented reply shape, naming Q42) and Q42's recorded
    wbgetentities response."""
    entity = shared_path("recorded", "wikidata", "wptools", "wikidata.json").read_bytes()
    found = {"searchinfo": {"search": "douglas adams"}, "success": 1, "search": [
        {"id": "Q42", "title": "Q42", "pageid": 138, "label": "Douglas Adams",
         "description": "English writer and humorist",
         "concepturi": "http://www.wikidata.org/entity/Q42"}]}

    def api(request: Request) -> Response:
        if request.args.get("action") == "wbsearchentities":
            return Response(json.dumps(found), content_type="application/json")
        if request.args.get("action") == "wbgetentities" and request.args.get("ids") == "Q42":
            return Response(entity, content_type="application/json")
        return Response("unexpected", status=400, content_type="text/plain")

    server.expect_request("/robots.txt").respond_with_data(ROBOTS, content_type="text/plain")
    server.expect_request("/w/api.php").respond_with_handler(api)


OCR = "/data/service/ndnp/sn83030214/1898010101/0005/ocr.txt"


def serve_chronicling_america(server: HTTPServer) -> None:
    """The loc.gov collection search (its JSON shape, one result linking its full text)
    and that page's recorded OCR text (New-York Tribune, 1 January 1898)."""
    text = shared_path("recorded", "chronicling_america", "ocr.txt").read_bytes()
    found = {"results": [{"id": "http://www.loc.gov/item/sn83030214/1898-01-01/ed-1/",
                          "url": "https://www.loc.gov/resource/sn83030214/1898-01-01/ed-1/"
                                 "?sp=5", "title": "New-York tribune. January 1, 1898",
                          "date": "1898-01-01", "description": ["Big harbor tieup"],
                          "fulltext_file": server.url_for(OCR)}]}
    server.expect_request("/robots.txt").respond_with_data(ROBOTS, content_type="text/plain")
    server.expect_request("/collections/chronicling-america/").respond_with_json(found)
    server.expect_request(OCR).respond_with_data(text, content_type="text/plain")
