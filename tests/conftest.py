"""Shared fixtures: a fresh store per test on SQLite, and on PostgreSQL when one is configured.

Set SLEUTH_TEST_PG_URL (e.g. postgresql+psycopg://sleuth@127.0.0.1:54329/postgres) to run
every store-backed test against PostgreSQL too; CI does (see .ci/run).
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import HealthCheck, settings
from sqlalchemy import text
from sqlalchemy.engine import make_url

import family_case
from sleuth.model import CaseGraph
from sleuth.store import Store
from sleuth.store.db import make_engine, sqlite_url

# pytest-xdist (`make test` runs one worker per core) starts its workers with COLUMNS=80; the
# CLI's console reads COLUMNS once, when it is made, so a test that widens the table with
# monkeypatch would still get 80 columns. The suite runs as a plain pytest run does: unset.
os.environ.pop("COLUMNS", None)
# Hypothesis' "input generation is slow" check measures the machine, not the code: on a
# loaded CI machine it failed a strategy that takes 10 ms on an idle one.
settings.register_profile("sleuth", suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("sleuth")

PG_URL = os.environ.get("SLEUTH_TEST_PG_URL")
BACKENDS = ["sqlite"] + (["postgresql"] if PG_URL else [])


@pytest.fixture(params=BACKENDS)
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield sqlite_url(tmp_path / "case.sqlite")
        return
    assert PG_URL
    name = f"sleuth_test_{uuid.uuid4().hex[:12]}"
    admin = make_engine(PG_URL)
    with admin.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield make_url(PG_URL).set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    s = Store.open_url(db_url)
    try:
        yield s
    finally:
        s.close()


@pytest.fixture
def case_dir(tmp_path: Path, db_url: str) -> Iterator[Path]:
    """A case folder whose store is on the parametrised backend."""
    case = tmp_path / "case"
    url = None if db_url.startswith("sqlite") else db_url
    Store.create_case(case, url).close()
    yield case


@pytest.fixture
def fam() -> ModuleType:
    """The three-generation Whitfield case used by the privacy and export tests."""
    return family_case


@pytest.fixture
def family() -> CaseGraph:
    return family_case.build_family()
