"""Throwaway PostgreSQL databases for tests that need more than the `db_url` fixture's one
(a reference case beside the case under test), made and dropped on SLEUTH_TEST_PG_URL."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import text
from sqlalchemy.engine import make_url

from sleuth.store.db import make_engine

PG_URL = os.environ.get("SLEUTH_TEST_PG_URL")


def create_database(template: str | None = None) -> tuple[str, str]:
    """A new database (a copy of `template` when given): its name and URL."""
    assert PG_URL, "SLEUTH_TEST_PG_URL is not set"
    name = f"sleuth_test_{uuid.uuid4().hex[:12]}"
    admin = make_engine(PG_URL)
    try:
        with admin.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
            conn.execute(text(f'CREATE DATABASE "{name}"'
                              + (f' TEMPLATE "{template}"' if template else "")))
    finally:
        admin.dispose()
    return name, make_url(PG_URL).set(database=name).render_as_string(hide_password=False)


def drop_databases(names: list[str]) -> None:
    admin = make_engine(str(PG_URL))
    try:
        with admin.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
            for n in names:
                conn.execute(text(f'DROP DATABASE IF EXISTS "{n}" WITH (FORCE)'))
    finally:
        admin.dispose()


@contextmanager
def databases() -> Iterator[list[str]]:
    """Collect the names of databases made in the block; drop them all at its end."""
    made: list[str] = []
    try:
        yield made
    finally:
        if made:
            drop_databases(made)
