"""Opening an investigation's case folder so that a kill at any moment leaves a folder that
`sleuth resume` continues or `sleuth investigate` starts again.

The question, corpus and options (the working state) are written before anything else
(`record`: a new folder appears with its state in it); the store and the repository are made
after it, and made again by `open_store` and `repo.init_repo` when a kill came first. A
folder that holds only what an earlier start left before it wrote its state (an `--out`
folder that existed, or a case from before `record`) is recognised by `unstarted`, and
`sleuth investigate` starts there again.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from sleuth.domains.investigations.state import (
    WORKING_DIR,
    CaseState,
    is_investigation,
    save_state,
)
from sleuth.model import InputError
from sleuth.store.store import CASE_CONFIG, CASE_DB, Store

DOMAIN_NAME = "investigations"
_STORE_FILES = {CASE_DB, *(CASE_DB + end for end in ("-wal", "-shm", "-journal"))}


def record(case_dir: Path, state: CaseState) -> None:
    """Write a new case's state before anything else. A folder that does not exist yet is
    made beside it under a hidden name, the state written in it, and renamed into place: a
    kill leaves no case folder or one that `sleuth resume` continues, never one between."""
    if case_dir.exists():  # an empty --out folder, or a start made again where it stopped
        save_state(case_dir, state)
        return
    case_dir.parent.mkdir(parents=True, exist_ok=True)
    tmp = case_dir.parent / f".{case_dir.name}.{os.getpid()}.tmp"
    tmp.mkdir()
    try:
        save_state(tmp, state)
        os.rename(tmp, case_dir)
    except OSError:
        shutil.rmtree(tmp, ignore_errors=True)
        if not case_dir.exists():
            raise
        raise InputError("the folder exists and is not empty (another start made it); give "
                         "a new folder to --out", file=str(case_dir)) from None


def open_store(case_dir: Path) -> Store:
    """The case's store; made here when the run that wrote the state was killed before it
    made the store (or an older run's start left its config without a state)."""
    if (case_dir / CASE_CONFIG).exists():
        return Store.open_case(case_dir)
    return Store.create_case(case_dir, domain=DOMAIN_NAME)


def unstarted(case_dir: Path) -> bool:
    """Whether the folder holds only what a start killed before it recorded its question
    left: an investigation's store config and database, and half-written working files.
    Nothing ran there, so nothing is lost by starting again; any other file (a research
    case, the user's own) keeps the folder refused."""
    if not case_dir.is_dir() or is_investigation(case_dir):
        return False
    names = {p.name for p in case_dir.iterdir()}
    if not names or not names <= {CASE_CONFIG, WORKING_DIR, *_STORE_FILES}:
        return False
    work = case_dir / WORKING_DIR
    if work.exists() and (not work.is_dir() or any(not p.name.endswith(".tmp")
                                                   for p in work.iterdir())):
        return False
    if CASE_CONFIG not in names:
        return not names & _STORE_FILES  # a database with no config is no start of ours
    try:
        return Store.case_domain(case_dir) == DOMAIN_NAME
    except InputError:  # a config cut short by the kill is not known to be ours
        return False
