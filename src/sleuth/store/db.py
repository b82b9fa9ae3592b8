"""Engines and migrations: one SQLite file per case by default, PostgreSQL by URL."""

from __future__ import annotations

import re
from contextlib import suppress
from functools import cache
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.exc import DBAPIError

from sleuth.store.dialect import sqlite_agent_role

MIGRATIONS = Path(__file__).with_name("migrations")
_REVISION = re.compile(r"^revision\b[^=\n]*=\s*['\"]([^'\"]+)['\"]", re.MULTILINE)
_DOWN = re.compile(r"^down_revision\b[^=\n]*=\s*(.+)$", re.MULTILINE)


def sqlite_url(path: Path) -> str:
    return f"sqlite:///{path.resolve()}"


def make_engine(url: str) -> Engine:
    """An engine with the pragmas a case needs (WAL, foreign keys, a patient busy timeout)."""
    kwargs: dict[str, Any] = {"future": True}
    if url.startswith("sqlite"):
        kwargs["connect_args"] = {"timeout": 30}
    engine = create_engine(url, **kwargs)
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _sqlite_pragmas)
        event.listen(engine, "checkin", _sqlite_checkin)
    return engine


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()
    sqlite_agent_role(dbapi_conn)


def _sqlite_checkin(dbapi_conn: Any, _record: Any) -> None:
    """A connection back in the pool acts for no agent (`store.curation` resets it too)."""
    with suppress(Exception):
        dbapi_conn.execute("SELECT sleuth_set_role(NULL)")


def _config() -> Any:
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    return cfg


@cache
def head_revision() -> str | None:
    """The newest migration's id, read from the version files' `revision` and
    `down_revision` lines (what Alembic computes, without importing Alembic); None when
    the files do not give exactly one head."""
    revisions: set[str] = set()
    parents: set[str] = set()
    for path in sorted((MIGRATIONS / "versions").glob("*.py")):
        source = path.read_text(encoding="utf-8")
        if m := _REVISION.search(source):
            revisions.add(m.group(1))
        if d := _DOWN.search(source):
            parents.update(re.findall(r"['\"]([^'\"]+)['\"]", d.group(1)))
    heads = revisions - parents
    return next(iter(heads)) if len(heads) == 1 else None


def current_revision(engine: Engine) -> str | None:
    """The revision the database says it is at (None: not migrated yet)."""
    try:
        with engine.connect() as conn:
            return conn.execute(text("SELECT version_num FROM alembic_version")).scalar()
    except DBAPIError:
        return None  # no alembic_version table: a new database


def migrate(engine: Engine) -> None:
    """Bring the schema to the newest revision (idempotent).

    Every command opens its case through here, so a case already at the head revision is
    recognised with one query and Alembic is not even imported (start-up time, issue 19)."""
    head = head_revision()
    if head is not None and current_revision(engine) == head:
        return
    from alembic import command

    cfg = _config()
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")


def schema_is_current(engine: Engine) -> bool:
    from alembic.runtime.migration import MigrationContext
    from alembic.script import ScriptDirectory

    head = ScriptDirectory.from_config(_config()).get_current_head()
    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision() == head
