"""A case: its database opened (migrated, guarded) from a case folder or a URL, with every
write (`base`, `intake`, `core`) and the research log.

Callers open one transaction per batch (`with store.transaction() as tx:`), so a crash leaves
either the whole batch or none of it. Every change to a mutable row writes an audit entry in
the same transaction.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, func, insert, make_url, select
from sqlalchemy.exc import ArgumentError, DBAPIError

from sleuth.model import InputError, LogEntry, NotFound, SleuthError, utcnow
from sleuth.store import schema as t
from sleuth.store.core import CoreWrites, name_key
from sleuth.store.db import make_engine, migrate, sqlite_url
from sleuth.store.identity import check_owner, claim, holds_a_case, new_case_id, read_owner
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
        """The database at `url`, migrated; one line naming it (password hidden) when it
        cannot be reached or read, never the driver's traceback (issue 26)."""
        engine = _engine(url)
        with _reachable(engine, url):
            migrate(engine)
        return cls(engine)

    @classmethod
    def create_case(cls, case_dir: Path, db_url: str | None = None,
                    domain: str | None = None) -> Store:
        """A new case folder; `domain` (what the case is about, `sleuth.domains`) is kept in
        its config when given (a case without one is genealogy's, as before domains). A
        database that already holds a case is refused before anything is made."""
        config = case_dir / CASE_CONFIG
        if config.exists():
            raise FileExistsError(f"{case_dir}: already a sleuth case ({CASE_CONFIG} exists)")
        case_id = new_case_id()
        if db_url is not None or (case_dir / CASE_DB).exists():
            _check_owner(str(db_url or sqlite_url(case_dir / CASE_DB)), case_id, case_dir,
                         config, migrated=False)
        case_dir.mkdir(parents=True, exist_ok=True)
        settings = {"db_url": db_url, "created_at": utcnow().isoformat(), "case_id": case_id}
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
        domain = read_case_config(config).get("domain")
        return None if domain is None else str(domain)

    @classmethod
    def open_case(cls, case_dir: Path) -> Store:
        """The case's database, once it is known to be this case's (`store.identity`: a
        database that is another case's is one line naming both folders, nothing written)."""
        config = case_dir / CASE_CONFIG
        if not config.exists():
            raise NotFound(f"{case_dir}: not a sleuth case (run `sleuth init {case_dir}`)")
        settings = read_case_config(config)
        url = str(settings.get("db_url") or sqlite_url(case_dir / CASE_DB))
        given = settings.get("case_id")
        case_id = given if isinstance(given, str) and given else None
        engine = _check_owner(url, case_id, case_dir, config, migrated=True)
        if case_id is None:  # a case from before case ids takes the id its database holds
            _adopt(config, settings, read_owner(engine).case_id)
        return cls(engine)

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


def read_case_config(path: Path) -> dict[str, Any]:
    """A case's `case.json`, or one line naming it when it is not a JSON object."""
    try:
        config = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise InputError(f"not a readable case file ({_first_line(exc)})",
                         file=str(path)) from None
    if not isinstance(config, dict):
        raise InputError("not a case file: expected a JSON object", file=str(path))
    return config


def _engine(url: str) -> Engine:
    try:
        return make_engine(url)
    except (ArgumentError, ImportError, ValueError) as exc:
        raise SleuthError(f"cannot open the case database {_shown(url)}: "
                          f"{_first_line(exc)}") from None


@contextmanager
def _reachable(engine: Engine, url: str) -> Iterator[None]:
    """A database that cannot be reached or read: one line naming it, password hidden."""
    try:
        yield
    except DBAPIError as exc:
        engine.dispose()
        raise SleuthError(f"cannot open the case database {_shown(url)}: "
                          f"{_first_line(exc.orig)}") from None
    except BaseException:
        engine.dispose()
        raise


def _check_owner(url: str, case_id: str | None, case_dir: Path, config: Path, *,
                 migrated: bool) -> Engine:
    """The engine for `url` once its database is known to be free or this case's: checked
    before anything is written, then (`migrated`) migrated and marked as this case's."""
    engine = _engine(url)
    with _reachable(engine, url):
        owner = read_owner(engine)
        fresh = owner.case_id is None and case_id is not None and not holds_a_case(engine)
        check_owner(owner, case_id, case_dir, _shown(url), config, fresh=fresh)
        if not migrated:
            engine.dispose()
            return engine
        migrate(engine)
        if owner.case_id is None:
            try:
                claim(engine, case_id or new_case_id(), case_dir)
            except DBAPIError:  # a database this user may only read opens unmarked
                return engine
            # Another process may have claimed it first: the winner's marker must fit too.
            check_owner(read_owner(engine), case_id, case_dir, _shown(url), config,
                        fresh=False)
    return engine


def _adopt(config: Path, settings: dict[str, Any], case_id: str | None) -> None:
    """Write the database's case id into an older `case.json` (atomically: a reader never
    sees half a file). A folder that cannot be written keeps working without it."""
    if case_id is None:
        return
    tmp = config.with_name(f".{config.name}.{os.getpid()}.tmp")
    with suppress(OSError):
        tmp.write_text(json.dumps({**settings, "case_id": case_id}))
        os.replace(tmp, config)
    with suppress(OSError):
        tmp.unlink(missing_ok=True)


def _shown(url: str) -> str:
    """A database URL as it may be printed: the password hidden."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return "(an unreadable URL)"


def _first_line(exc: BaseException | None) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__
