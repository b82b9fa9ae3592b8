"""Online sources for the investigation tests: the built-in specs pointed at a real HTTP
server on 127.0.0.1 (pytest-httpserver) through $SLEUTH_SOURCES_DIR, the user's own way of
replacing a source's address, serving recorded real responses from ../shared/data."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml
from pytest_httpserver import HTTPServer

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


def serve_only_search(server: HTTPServer) -> None:
    """The search answers, the page it leads to is gone (404)."""
    summary = json.loads(shared_path(*WIKI, "rest_summary.json").read_text(encoding="utf-8"))
    server.expect_request("/robots.txt").respond_with_data(ROBOTS, content_type="text/plain")
    server.expect_request("/w/api.php").respond_with_json(search_reply(summary))
    server.expect_request(PAGE).respond_with_data("gone", status=404, content_type="text/plain")
