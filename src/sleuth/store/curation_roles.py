"""Seed 002's "Allowed / Forbidden Operations" as the database's own permissions.

Each curation agent acts under a role of its own while it writes (`acting_as`):

- PostgreSQL: one role per agent and per case database and schema
  (`sleuth_<tag>_extractor`, `_validator`, `_decision_maker`; `tag` names the database and
  schema), created idempotently, NOLOGIN, with exactly the GRANTs below; the session switches
  with `SET LOCAL ROLE` for the agent's writes and back with `RESET ROLE`, inside the same
  transaction (what a task writes still commits with its completion). What GRANTs cannot
  say (staged `pending`, only the status changes, the Validator never accepts) migration
  0011's trigger says.
- SQLite: the connection's `sleuth_set_role()` (`sleuth.store.dialect.sqlite_agent_role`),
  which migration 0011's triggers ask.

Either way a forbidden write fails in the database, whatever code issues it; the handles
in `sleuth.store.curation` only make the allowed operations the ones there are to call.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from typing import Literal

from sqlalchemy import Connection, Engine, text
from sqlalchemy.exc import DBAPIError

from sleuth.model import SleuthError

Agent = Literal["extractor", "validator", "decision_maker"]
AGENTS: tuple[Agent, ...] = ("extractor", "validator", "decision_maker")

# (privilege, tables) per agent; `INSERT (...)` and `UPDATE (status)` are column grants.
_STAGE_COLUMNS = ("id, seq, snapshot_id, task_id, refines, attempt, candidate_type, "
                  "candidate_key, candidate_payload, confidence_score, confidence_reason, "
                  "evidence_text, evidence_doc, line_start, line_end, char_start, char_end, "
                  "evidence_type, created_by, created_at")
GRANTS: dict[Agent, tuple[tuple[str, tuple[str, ...]], ...]] = {
    # seed 002: raw_snapshots INSERT, staging_extractions INSERT (never its status)
    "extractor": (
        ("SELECT", ("blobs", "snapshots", "staging_extractions", "validation_decisions",
                    "core_entities")),
        ("INSERT", ("blobs", "snapshots", "audit_log")),
        (f"INSERT ({_STAGE_COLUMNS})", ("staging_extractions",)),
    ),
    # seed 002: staging_extractions UPDATE status, validation_decisions INSERT
    "validator": (
        ("SELECT", ("snapshots", "staging_extractions", "validation_decisions",
                    "core_entities", "core_equivalences")),
        ("UPDATE (status)", ("staging_extractions",)),
        ("INSERT", ("validation_decisions", "audit_log")),
    ),
    # seed 002: core_entities INSERT, staging_extractions UPDATE status, validation_decisions
    # INSERT; and core_equivalences, the conflicts they find and the human review queue
    "decision_maker": (
        ("SELECT", ("snapshots", "staging_extractions", "validation_decisions",
                    "core_entities", "core_equivalences", "core_conflicts",
                    "curation_review")),
        ("UPDATE (status)", ("staging_extractions",)),
        ("INSERT", ("validation_decisions", "core_entities", "core_equivalences",
                    "core_conflicts", "curation_review", "audit_log")),
    ),
}


class ForbiddenWrite(SleuthError):
    """The database refused an agent a write seed 002 does not allow it."""


def is_forbidden(exc: BaseException) -> bool:
    """True when a database error is a refused permission (a GRANT missing, or a guard
    trigger's `forbidden:`)."""
    msg = str(getattr(exc, "orig", exc))
    return "forbidden:" in msg or "permission denied" in msg


def role_names(conn: Connection) -> dict[Agent, str]:
    """The PostgreSQL role of each agent for this connection's database and schema."""
    db, schema = conn.execute(text("SELECT current_database(), current_schema()")).one()
    tag = hashlib.sha256(f"{db}/{schema}".encode()).hexdigest()[:10]
    return {a: f"sleuth_{tag}_{a}" for a in AGENTS}


_READY: dict[int, tuple[Engine, dict[Agent, str]]] = {}  # id(engine): its roles, granted


def ensure_agent_roles(conn: Connection) -> dict[Agent, str]:
    """Create the agents' roles if missing and grant them what seed 002 allows, in the
    caller's transaction (idempotent: roles are created once, GRANTs repeat harmlessly).
    The session's user becomes a member so that it may `SET ROLE`. One line naming what is
    missing when the user may not create roles."""
    names = role_names(conn)
    schema = conn.execute(text("SELECT current_schema()")).scalar_one()
    try:
        for agent, role in names.items():
            conn.execute(text(
                "DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = "
                f"'{role}') THEN CREATE ROLE \"{role}\" NOLOGIN; END IF; "
                "EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; END $$"))
            conn.execute(text(f'GRANT "{role}" TO CURRENT_USER'))
            conn.execute(text(f'GRANT USAGE ON SCHEMA "{schema}" TO "{role}"'))
            conn.execute(text(f'GRANT USAGE ON ALL SEQUENCES IN SCHEMA "{schema}" TO "{role}"'))
            # an audit entry's INSERT reads back its generated id (RETURNING)
            conn.execute(text(f'GRANT SELECT (id) ON audit_log TO "{role}"'))
            for privilege, tables in GRANTS[agent]:
                conn.execute(text(f"GRANT {privilege} ON {', '.join(tables)} TO \"{role}\""))
    except DBAPIError as exc:
        if is_forbidden(exc) or "must have" in str(exc.orig):
            raise SleuthError(
                "the curation domain on PostgreSQL gives each agent its own database role: "
                "the case's database user needs CREATEROLE (or a superuser must run "
                f"`sleuth init` once); {str(exc.orig).splitlines()[0]}") from None
        raise
    return names


def _roles(conn: Connection) -> dict[Agent, str]:
    """The agents' roles, made ready once per engine (and again if one has gone)."""
    engine = conn.engine
    ready = _READY.get(id(engine))
    if ready is not None and ready[0] is engine:
        names = ready[1]
        have = conn.execute(text("SELECT count(*) FROM pg_roles WHERE rolname IN "
                                 f"({', '.join(repr(n) for n in names.values())})")).scalar()
        if have == len(names):
            return names
    names = ensure_agent_roles(conn)
    _READY[id(engine)] = (engine, names)
    return names


@contextmanager
def acting_as(conn: Connection, agent: Agent) -> Iterator[None]:
    """Run the block as `agent`: the database refuses it whatever seed 002 does not allow.
    The role is dropped again when the block ends (on an error too; on PostgreSQL a failed
    transaction's rollback drops it)."""
    if conn.dialect.name == "postgresql":
        role = _roles(conn)[agent]
        conn.execute(text(f'SET LOCAL ROLE "{role}"'))
        try:
            yield
        finally:
            with suppress(DBAPIError):  # an aborted transaction: its rollback resets it
                conn.execute(text("RESET ROLE"))
        return
    conn.execute(text("SELECT sleuth_set_role(:r)"), {"r": agent})
    try:
        yield
    finally:
        conn.execute(text("SELECT sleuth_set_role(NULL)"))


def drop_agent_roles(engine: Engine) -> None:
    """Drop this database's agent roles (tests: a dropped test database leaves its roles)."""
    if engine.dialect.name != "postgresql":
        return
    with engine.begin() as conn:
        for role in role_names(conn).values():
            conn.execute(text(
                f"DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '{role}') "
                f'THEN EXECUTE \'DROP OWNED BY "{role}"\'; EXECUTE \'DROP ROLE "{role}"\'; '
                "END IF; END $$"))
    _READY.pop(id(engine), None)
