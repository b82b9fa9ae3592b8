"""Which case a database belongs to (issue 26: a `db_url` could point one case folder at
another case's database, and every command then read and wrote the other case).

A case's database holds its case id and the folder it was made for (`case_meta` rows
`case_id` and `case_dir`); the folder's `case.json` holds the same id. Every open of a case
compares the two before the database is migrated or written, and a mismatch is one line
naming both folders.

Cases made before case ids adopt one on their first open, database first (one atomic
insert that the first opener wins), then `case.json`; a database whose marker names this
very folder but whose `case.json` lacks the id (an adoption cut short, a `case.json`
restored from a backup) is adopted again. Two old folders sharing one database before
the upgrade cannot be told apart: the first to open claims it and the other is refused."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, exists, inspect, select

from sleuth.model import InputError
from sleuth.store import schema as t

CASE_ID = "case_id"
CASE_DIR = "case_dir"
# Tables a case writes into; a database with a row in any of them already holds a case.
_CASE_TABLES = ("snapshots", "research_log", "audit_log", "persons", "tasks", "agent_tasks",
                "doc_documents", "core_entities", "case_meta")


@dataclass(frozen=True)
class Owner:
    """What a database says about the case it belongs to (None: nothing yet)."""

    case_id: str | None
    case_dir: str | None


def new_case_id() -> str:
    """A case's id: unique, never part of any output, so random is fine here."""
    return uuid.uuid4().hex


def read_owner(engine: Engine) -> Owner:
    """The database's marker, read without writing (a database not migrated yet has none)."""
    with engine.connect() as conn:
        if not inspect(conn).has_table("case_meta"):
            return Owner(None, None)
        rows = dict(conn.execute(select(t.case_meta.c.key, t.case_meta.c.value).where(
            t.case_meta.c.key.in_((CASE_ID, CASE_DIR)))).all())
    return Owner(rows.get(CASE_ID), rows.get(CASE_DIR))


def holds_a_case(engine: Engine) -> bool:
    """Whether the database already holds some case's rows."""
    with engine.connect() as conn:
        present = inspect(conn).get_table_names()
        return any(conn.execute(select(exists().select_from(t.metadata.tables[name])))
                   .scalar_one() for name in _CASE_TABLES if name in present)


def check_owner(owner: Owner, case_id: str | None, case_dir: Path, shown_url: str,
                config: Path, *, fresh: bool) -> None:
    """Refuse, in one line naming both folders, a database that is another case's. `fresh`:
    the database holds no case's rows yet (any case may take it)."""
    here = str(case_dir.resolve())
    if owner.case_id is None:
        if case_id is not None and not fresh:
            raise InputError(
                f"the database {shown_url} holds a case that is not {here}'s (it has no case "
                f"id: a case from before case ids, whose own folder must open it first); "
                "point db_url at this case's own database", file=str(config), field="db_url")
        return
    if owner.case_id == case_id or (case_id is None and owner.case_dir == here):
        return
    raise InputError(
        f"the database {shown_url} belongs to the case in {owner.case_dir or '(unknown)'} "
        f"(case id {owner.case_id}), not to {here} (case id {case_id or 'none'}); "
        "point db_url at this case's own database", file=str(config), field="db_url")


def claim(engine: Engine, case_id: str, case_dir: Path) -> str:
    """Write the marker unless the database has one (the first writer wins a race); the
    id the database holds afterwards."""
    rows = [{"key": CASE_ID, "value": case_id},
            {"key": CASE_DIR, "value": str(case_dir.resolve())}]
    with engine.begin() as conn:
        conn.execute(_insert_if_absent(conn).values(rows))
        held = conn.execute(select(t.case_meta.c.value).where(
            t.case_meta.c.key == CASE_ID)).scalar_one()
    return str(held)


def _insert_if_absent(conn: Connection) -> Any:
    # Imported here: only a first open writes the marker (start-up time, issue 19).
    if conn.dialect.name == "postgresql":
        from sqlalchemy.dialects import postgresql as dialect
    else:
        from sqlalchemy.dialects import sqlite as dialect  # type: ignore[no-redef]
    return dialect.insert(t.case_meta).on_conflict_do_nothing(index_elements=["key"])
