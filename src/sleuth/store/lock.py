"""One writer per case (issue 26): `research`, `resume` and `ingest` hold the case's lock.

A second writer on the same case gets one line naming the holder ("case X is being written
by pid N on host H since T") and exit code 3, instead of a traceback half-way through and a
case with duplicated rows.

The lock is an exclusive `flock` on `CASE/writer.lock`, which records who holds it. The
kernel drops a `flock` when its process dies, `kill -9` included, so a lock file left behind
by a dead writer is stale by construction and the next writer simply takes it. A case kept
in PostgreSQL is also locked in the database (`pg_try_advisory_lock` on a connection held
for the duration, released when it closes), so case folders on two machines that name one
database exclude each other too. The lock is reentrant within a process: `research` ingests
its seed's tree under the lock it already holds.
"""

from __future__ import annotations

import fcntl
import json
import os
import socket
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import Connection, text
from sqlalchemy.engine import Engine

from sleuth.model.errors import CaseBusy

LOCK_FILE = "writer.lock"
# One key per database: the database is the case, whichever folder names it.
_PG_KEY = int.from_bytes(b"sleuthwr", "big") & 0x7FFF_FFFF_FFFF_FFFF
_HELD: dict[Path, int] = {}  # lock files this process holds, and how deeply


def _holder(path: Path, wait: float = 1.0) -> str:
    """Who holds the lock, from its record; the holder writes the record just after it takes
    the lock, so a record still empty is waited for a moment (two ingests started together
    saw the empty file and said "another process")."""
    deadline = time.monotonic() + wait
    while True:
        try:
            who = json.loads(path.read_text(encoding="utf-8") or "{}")
        except (OSError, ValueError):
            who = {}
        if who or time.monotonic() >= deadline:
            break
        time.sleep(0.02)
    if not who:
        return "another process"
    return f"pid {who.get('pid')} on host {who.get('host')} since {who.get('since')}" + (
        f" ({who['command']})" if who.get("command") else "")


@contextmanager
def _file_lock(case_dir: Path, command: str) -> Iterator[None]:
    path = (case_dir / LOCK_FILE).resolve()
    if path in _HELD:
        _HELD[path] += 1
        try:
            yield
        finally:
            _HELD[path] -= 1
        return
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise CaseBusy(f"case {case_dir} is being written by {_holder(path)}; "
                           "try again when it has finished") from None
        since = datetime.now(UTC).replace(microsecond=0).isoformat()
        record = json.dumps({"pid": os.getpid(), "host": socket.gethostname(),
                             "since": since, "command": command})
        os.ftruncate(fd, 0)
        os.pwrite(fd, record.encode(), 0)
        _HELD[path] = 1
        try:
            yield
        finally:
            del _HELD[path]
            os.ftruncate(fd, 0)  # an empty file: nobody holds it
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


@contextmanager
def _database_lock(engine: Engine, case_dir: Path) -> Iterator[None]:
    conn: Connection = engine.connect()
    try:
        got = conn.execute(text("SELECT pg_try_advisory_lock(:k)"), {"k": _PG_KEY}).scalar()
        conn.commit()
        if not got:
            raise CaseBusy(f"case {case_dir}: its database is being written by another "
                           "process (a PostgreSQL advisory lock is held); try again when "
                           "it has finished")
        try:
            yield
        finally:
            conn.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": _PG_KEY})
            conn.commit()
    finally:
        conn.close()


@contextmanager
def case_lock(case_dir: Path, command: str, engine: Engine | None = None) -> Iterator[None]:
    """Hold the case's writer lock for the block, or raise `CaseBusy` naming the holder.
    `engine`, when the case is kept in PostgreSQL, adds the database's own lock."""
    case_dir = Path(case_dir)
    with ExitStack() as stack:
        first = (case_dir / LOCK_FILE).resolve() not in _HELD
        stack.enter_context(_file_lock(case_dir, command))
        if first and engine is not None and engine.dialect.name == "postgresql":
            stack.enter_context(_database_lock(engine, case_dir))
        yield
