"""Helpers shared by the workbench's tests: forms as a browser fills them, the CLI's view."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import select
from starlette.testclient import TestClient
from typer.testing import CliRunner

from sleuth.cli.app import app
from sleuth.store import Store
from sleuth.store import schema as t


def csrf_of(page: str) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', page)
    assert found, "the page has no CSRF field"
    return found.group(1)


def decide(client: TestClient, item: int, action: str, reason: str,
           value: str | None = None, csrf: str | None = None) -> Any:
    """POST one decision the way the queue's form does (its CSRF token included)."""
    token = csrf if csrf is not None else csrf_of(client.get("/review").text)
    form = {"csrf": token, "reason": reason, "back": "/review"}
    if value is not None:
        form["value"] = value
    return client.post(f"/review/{item}/{action}", data=form, follow_redirects=False)


def cli_items(case: Path, *args: str) -> list[dict[str, Any]]:
    """`sleuth review CASE ... --format json`, parsed."""
    res = CliRunner().invoke(app, ["review", str(case), *args, "--format", "json"])
    assert res.exit_code == 0, res.output
    return [json.loads(line) for line in res.stdout.splitlines() if line.strip()]


def audit_reasons(case: Path, review_id: int) -> list[tuple[str, str]]:
    """(action, reason) of the audit log's rows about one review item."""
    store = Store.open_case(case)
    try:
        with store.engine.connect() as conn:
            a = t.audit_log.c
            return [(str(r.action_type), str(r.reason)) for r in conn.execute(
                select(a.action_type, a.reason).where(a.entity_type == "review",
                                                      a.entity_id == str(review_id)))]
    finally:
        store.close()


def links(page: str) -> list[str]:
    """Every link of a page to this app (its assets aside)."""
    return [html.unescape(h) for h in re.findall(r'href="(/[^"]*)"', page)
            if not h.startswith("/static/")]


@contextmanager
def served(case: Path) -> Iterator[TestClient]:
    """A test client on the workbench of `case` (its folder given, as `sleuth serve`)."""
    from sleuth.cli.common import open_case
    from sleuth.web.app import create_app

    store = open_case(case)
    try:
        with TestClient(create_app(store, case_dir=case), base_url="http://127.0.0.1") as c:
            yield c
    finally:
        store.close()
