"""Fixtures of the workbench's tests (the case itself: workbench_case.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from workbench_case import build_case

from sleuth.cli.common import open_case
from sleuth.web.app import create_app


@pytest.fixture
def web_case(tmp_path: Path, db_url: str) -> Path:
    """The case on the parametrised backend (SQLite, and PostgreSQL where configured)."""
    return build_case(tmp_path, None if db_url.startswith("sqlite") else db_url)


@pytest.fixture
def web(web_case: Path) -> Iterator[TestClient]:
    store = open_case(web_case)
    try:
        app = create_app(store, title="case", case_dir=web_case)
        with TestClient(app, base_url="http://127.0.0.1") as c:
            yield c
    finally:
        store.close()


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Where the browser tests left their screenshots (look at them)."""
    import tempfile

    screens = Path(tempfile.gettempdir()) / "sleuth-workbench-screens"
    if screens.is_dir() and any(screens.iterdir()):
        terminalreporter.write_line(f"workbench screenshots: {screens}")
