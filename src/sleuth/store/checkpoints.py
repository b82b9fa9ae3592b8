"""LangGraph checkpointers for a case (a database, so the store opens it): SQLite beside the
case database, or PostgreSQL.

A SQLite case keeps its checkpoints in `CASE/checkpoints.sqlite` (a sibling file, so the
checkpointer's connection never contends with the store's write lock); a PostgreSQL case
keeps them in the same database (LangGraph's own `checkpoint*` tables).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sleuth.store.store import CASE_CONFIG, read_case_config

CHECKPOINT_DB = "checkpoints.sqlite"


def case_db_url(case_dir: Path) -> str | None:
    config = case_dir / CASE_CONFIG
    url = read_case_config(config).get("db_url") if config.exists() else None
    return None if url is None else str(url)


def _pg_dsn(url: str) -> str:
    from sqlalchemy.engine import make_url

    u = make_url(url).set(drivername="postgresql")
    return u.render_as_string(hide_password=False)


@contextmanager
def checkpointer(case_dir: Path) -> Iterator[Any]:
    url = case_db_url(case_dir)
    if url and url.startswith("postgresql"):
        from langgraph.checkpoint.postgres import PostgresSaver

        with PostgresSaver.from_conn_string(_pg_dsn(url)) as pg_saver:
            pg_saver.setup()
            yield pg_saver
        return
    from langgraph.checkpoint.sqlite import SqliteSaver

    conn = sqlite3.connect(case_dir / CHECKPOINT_DB, check_same_thread=False, timeout=30)
    conn.execute("PRAGMA journal_mode=WAL")
    try:
        saver = SqliteSaver(conn)
        saver.setup()
        yield saver
    finally:
        conn.close()
