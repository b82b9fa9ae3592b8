"""A case: its database opened (migrated, guarded) from a case folder or a URL, with every
write (`base`, `intake`, `core`) and the research log.

Callers open one transaction per batch (`with store.transaction() as tx:`), so a crash leaves
either the whole batch or none of it. Every change to a mutable row writes an audit entry in
the same transaction.
"""

from __future__ import annotations

import json
from pathlib import Path

from sqlalchemy import Connection, func, insert, select

from sleuth.model import LogEntry, NotFound, utcnow
from sleuth.store import schema as t
from sleuth.store.core import CoreWrites, name_key
from sleuth.store.db import make_engine, migrate, sqlite_url
from sleuth.store.intake import IntakeWrites

CASE_DB = "case.sqlite"
CASE_CONFIG = "case.json"

_LOG_SEQ = select(func.coalesce(func.max(t.research_log.c.seq), 0))
# The log's sequence number is computed by the INSERT itself: one statement, not two, and
# no window between reading MAX(seq) and writing it.
_LOG_INSERT = insert(t.research_log).values(seq=_LOG_SEQ.scalar_subquery() + 1)


class Store(IntakeWrites, CoreWrites):
    """A case's database. SQLite by default; PostgreSQL through the same code."""

    # -- opening ---------------------------------------------------------------------------
    @classmethod
    def open_url(cls, url: str) -> Store:
        engine = make_engine(url)
        migrate(engine)
        return cls(engine)

    @classmethod
    def create_case(cls, case_dir: Path, db_url: str | None = None,
                    domain: str | None = None) -> Store:
        """A new case folder; `domain` (what the case is about, `sleuth.domains`) is kept in
        its config when given (a case without one is genealogy's, as before domains)."""
        case_dir.mkdir(parents=True, exist_ok=True)
        config = case_dir / CASE_CONFIG
        if config.exists():
            raise FileExistsError(f"{case_dir}: already a sleuth case ({CASE_CONFIG} exists)")
        settings = {"db_url": db_url, "created_at": utcnow().isoformat()}
        if domain is not None:
            settings["domain"] = domain
        config.write_text(json.dumps(settings))
        return cls.open_case(case_dir)

    @staticmethod
    def case_domain(case_dir: Path) -> str | None:
        """The domain the case was created for (None: not recorded, or not a case)."""
        config = case_dir / CASE_CONFIG
        if not config.exists():
            return None
        domain = json.loads(config.read_text()).get("domain")
        return None if domain is None else str(domain)

    @classmethod
    def open_case(cls, case_dir: Path) -> Store:
        config = case_dir / CASE_CONFIG
        if not config.exists():
            raise NotFound(f"{case_dir}: not a sleuth case (run `sleuth init {case_dir}`)")
        url = json.loads(config.read_text()).get("db_url") or sqlite_url(case_dir / CASE_DB)
        return cls.open_url(url)

    def close(self) -> None:
        self.engine.dispose()

    def log(self, conn: Connection, entry: LogEntry) -> None:
        conn.execute(
            _LOG_INSERT,
            dict(
                id=entry.id,
                timestamp=entry.timestamp,
                agent=str(entry.agent),
                action_type=entry.action_type,
                rationale=entry.rationale,
                context=entry.context,
                revisit_reason=entry.revisit_reason,
            ),
        )


ID_TABLES = ("snapshots", "candidates", "decisions", "review_queue", "persons", "relationships",
             "assertions", "citations", "conflicts", "hypotheses", "merge_clusters", "tasks",
             "research_log", "audit_log", "negative_evidence")


def id_namespace(conn: Connection, label: str) -> str:
    """A namespace for `model.id_stream` that no earlier stream of this case used: `label`
    (the run) plus how many rows the case holds. Every committed write adds rows (the audit
    log only grows), so a resumed run never redraws an id a crashed one committed, while a
    replay of the same inputs into a fresh case draws the same ids."""
    sizes = [str(conn.execute(select(func.count()).select_from(t.metadata.tables[name]))
                 .scalar_one()) for name in ID_TABLES if name in t.metadata.tables]
    return f"{label}:{'.'.join(sizes)}"


__all__ = ["CASE_CONFIG", "CASE_DB", "ID_TABLES", "Store", "id_namespace", "name_key"]
