"""Migration 0003 on SQLite (and PostgreSQL when SLEUTH_TEST_PG_URL is set)."""

from __future__ import annotations

from alembic import command
from sqlalchemy import inspect

from sleuth.store.db import _config, make_engine, migrate, schema_is_current

TABLES = {"evidence_overrides", "negative_evidence"}


def _upgrade_to(engine: object, rev: str, down: bool = False) -> None:
    cfg = _config()
    with engine.begin() as conn:  # type: ignore[attr-defined]
        cfg.attributes["connection"] = conn
        (command.downgrade if down else command.upgrade)(cfg, rev)


def test_upgrade_downgrade_upgrade(db_url: str) -> None:
    engine = make_engine(db_url)
    try:
        _upgrade_to(engine, "0002")
        assert not TABLES & set(inspect(engine).get_table_names())
        migrate(engine)
        assert schema_is_current(engine)
        assert set(inspect(engine).get_table_names()) >= TABLES
        uq = inspect(engine).get_unique_constraints("negative_evidence")
        assert [u["column_names"] for u in uq] == [["person_id", "question", "snapshot_id"]]
        _upgrade_to(engine, "0002", down=True)
        assert not TABLES & set(inspect(engine).get_table_names())
        migrate(engine)
        assert set(inspect(engine).get_table_names()) >= TABLES
    finally:
        engine.dispose()


def test_migration_matches_the_schema_module(db_url: str) -> None:
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    from sleuth.store import schema

    engine = make_engine(db_url)
    try:
        migrate(engine)
        with engine.connect() as conn:
            diff = compare_metadata(MigrationContext.configure(conn), schema.metadata)
        mine = [d for d in diff if any(name in repr(d) for name in TABLES)]
        assert mine == []
    finally:
        engine.dispose()
