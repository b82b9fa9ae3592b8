"""Everything that differs between SQLite and PostgreSQL lives here (Splink's dialect idea).

Triggers make the raw layer, citations and the audit log append-only, freeze an assertion's
value once written, and keep the #parents ≤ 2 invariant, at the database level.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, text

from sleuth.store.schema import IMMUTABLE_TABLES

_SQLITE = [
    *(
        f"""CREATE TRIGGER {t}_immutable_{op.lower()} BEFORE {op} ON {t}
        BEGIN SELECT RAISE(ABORT, 'immutable: {t} rows cannot be {verb}'); END"""
        for t in IMMUTABLE_TABLES
        for op, verb in (("UPDATE", "updated"), ("DELETE", "deleted"))
    ),
    """CREATE TRIGGER assertions_value_frozen
    BEFORE UPDATE OF entity_id, entity_type, field_name, value, date, related_id ON assertions
    BEGIN SELECT RAISE(ABORT, 'immutable: an assertion''s value cannot change; add a new one');
    END""",
    """CREATE TRIGGER assertions_no_delete BEFORE DELETE ON assertions
    BEGIN SELECT RAISE(ABORT, 'immutable: assertions are never deleted; reject them'); END""",
    """CREATE TRIGGER relationships_two_parents BEFORE INSERT ON relationships
    WHEN NEW.relationship_type = 'parent' AND (SELECT count(*) FROM relationships
        WHERE person2_id = NEW.person2_id AND relationship_type = 'parent') >= 2
    BEGIN SELECT RAISE(ABORT, 'invariant: a person has at most two parents'); END""",
]

_POSTGRES = [
    """CREATE OR REPLACE FUNCTION sleuth_immutable() RETURNS trigger AS $$
    BEGIN RAISE EXCEPTION 'immutable: % rows cannot be %', TG_TABLE_NAME, lower(TG_OP)
      USING ERRCODE = 'integrity_constraint_violation'; END
    $$ LANGUAGE plpgsql""",
    *(
        f"""CREATE TRIGGER {t}_immutable BEFORE UPDATE OR DELETE ON {t}
        FOR EACH ROW EXECUTE FUNCTION sleuth_immutable()"""
        for t in IMMUTABLE_TABLES
    ),
    """CREATE OR REPLACE FUNCTION sleuth_assertion_frozen() RETURNS trigger AS $$
    BEGIN
      IF TG_OP = 'DELETE' THEN
        RAISE EXCEPTION 'immutable: assertions are never deleted; reject them'
          USING ERRCODE = 'integrity_constraint_violation';
      END IF;
      IF NEW.entity_id IS DISTINCT FROM OLD.entity_id
         OR NEW.entity_type IS DISTINCT FROM OLD.entity_type
         OR NEW.field_name IS DISTINCT FROM OLD.field_name
         OR NEW.value IS DISTINCT FROM OLD.value
         OR NEW.date::text IS DISTINCT FROM OLD.date::text
         OR NEW.related_id IS DISTINCT FROM OLD.related_id THEN
        RAISE EXCEPTION 'immutable: an assertion''s value cannot change; add a new one'
          USING ERRCODE = 'integrity_constraint_violation';
      END IF;
      RETURN NEW;
    END $$ LANGUAGE plpgsql""",
    """CREATE TRIGGER assertions_frozen BEFORE UPDATE OR DELETE ON assertions
    FOR EACH ROW EXECUTE FUNCTION sleuth_assertion_frozen()""",
    """CREATE OR REPLACE FUNCTION sleuth_two_parents() RETURNS trigger AS $$
    BEGIN
      IF NEW.relationship_type = 'parent' AND (SELECT count(*) FROM relationships
          WHERE person2_id = NEW.person2_id AND relationship_type = 'parent') >= 2 THEN
        RAISE EXCEPTION 'invariant: a person has at most two parents'
          USING ERRCODE = 'integrity_constraint_violation';
      END IF;
      RETURN NEW;
    END $$ LANGUAGE plpgsql""",
    """CREATE TRIGGER relationships_two_parents BEFORE INSERT ON relationships
    FOR EACH ROW EXECUTE FUNCTION sleuth_two_parents()""",
]


def sqlite_agent_role(dbapi_conn: Any) -> None:
    """Give one SQLite connection the agent it acts for, the way PostgreSQL has `SET ROLE`:
    `SELECT sleuth_set_role('validator')` sets it, `sleuth_role()` answers it (NULL: no
    agent). The curation tables' triggers (migration 0011) ask it, so what an agent may not
    write is refused by the database whatever code runs the statement; a connection that is
    not sleuth's has no such function and cannot write those tables at all."""
    cell: list[str | None] = [None]

    def set_role(name: str | None) -> str | None:
        cell[0] = name
        return name

    dbapi_conn.create_function("sleuth_role", 0, lambda: cell[0])
    dbapi_conn.create_function("sleuth_set_role", 1, set_role)


def install_guards(conn: Connection) -> None:
    """Create the append-only and invariant triggers for this connection's dialect."""
    statements = _POSTGRES if conn.dialect.name == "postgresql" else _SQLITE
    for stmt in statements:
        conn.execute(text(stmt))


def is_guard_error(exc: BaseException) -> bool:
    """True when a database error came from one of our guards (not from a real fault)."""
    msg = str(exc)
    return "immutable:" in msg or "invariant:" in msg
