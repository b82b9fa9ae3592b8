"""The workbench on `sleuth demo`'s case (issue 23): every page it links answers, none shows
a living person's exact date, address, phone or e-mail, and the queue can be cleared from the
browser's forms alone."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from web_helpers import cli_items, csrf_of, links, served

from sleuth.cli.common import open_case
from sleuth.model import DATE_FIELDS
from sleuth.privacy.redaction import living_verdicts
from sleuth.store import case_graph

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("demo") / "case"
    proc = subprocess.run([sys.executable, "-m", "sleuth", "demo", "--out", str(out)],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    return out


@pytest.fixture
def client(demo: Path) -> Iterator[TestClient]:
    with served(demo) as c:
        yield c


def secrets_of(case: Path) -> set[str]:
    """Every living person's exact dates (ISO), street addresses, phones and e-mails."""
    store = open_case(case)
    try:
        raw = case_graph(store)
    finally:
        store.close()
    out: set[str] = set()
    for pid, verdict in living_verdicts(raw).items():
        if not verdict.living:
            continue
        for a in raw.assertions.get(pid, []):
            if a.field_name in DATE_FIELDS and a.date and a.date.precision == "day":
                out.add(a.date.iso())
            if a.field_name in ("phone", "email") or (
                    a.field_name in ("address", "residence") and re.search(r"\d", a.value)):
                out.add(a.value)
    return out


def test_every_page_of_the_demo_answers_and_hides_the_living(client: TestClient,
                                                             demo: Path) -> None:
    secrets = secrets_of(demo)
    seen: dict[str, str] = {}
    todo = ["/review", "/review?status=all", "/persons", "/api/review", "/log", "/report"]
    while todo:
        url = todo.pop()
        if url in seen:
            continue
        answer = client.get(url)
        assert answer.status_code == 200, url
        seen[url] = answer.text
        todo.extend(u for u in links(answer.text) if u not in seen)
    assert len(seen) > 500
    assert not [(u, s) for u, body in seen.items() for s in secrets if s in body]


def test_the_demo_queue_is_cleared_from_the_forms(client: TestClient, demo: Path) -> None:
    while True:
        page = client.get("/review").text
        open_items = re.findall(r'data-item-id="(\d+)"', page)
        if not open_items:
            break
        item = open_items[0]
        answer = client.post(f"/review/{item}/accept", follow_redirects=False, data={
            "csrf": csrf_of(page), "reason": "read against the quoted words",
            "back": "/review"})
        if answer.status_code != 303:  # an item the case refuses to accept: reject it
            answer = client.post(f"/review/{item}/reject", follow_redirects=False, data={
                "csrf": csrf_of(page), "reason": "cannot be accepted as it stands",
                "back": "/review"})
        assert answer.status_code == 303, answer.text[:500]
    assert "The review queue is empty" in page
    assert not cli_items(demo)
    assert all(i["status"] in ("accepted", "rejected", "edited")
               for i in cli_items(demo, "--all"))
