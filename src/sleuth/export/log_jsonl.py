"""The research log as JSONL (seed 001 LogEntry, one object a line), beside the store's copy.

The store's `research_log` is the record; this file is an output, so it goes through the
Censor: PII patterns are removed from every string and the names of people treated as living
are masked. It is appended as the run goes (a torn last line from a kill is cut off first)
and rewritten whole at the end, when the living are known best.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from sleuth.privacy import LIVING_NAME, redact_text
from sleuth.store import Store, research_log

LOG_FILE = "research-log.jsonl"


def _clean(value: Any, names: list[str]) -> Any:
    if isinstance(value, str):
        out = redact_text(value)
        for n in names:
            if n in out:
                out = out.replace(n, LIVING_NAME)
        return out
    if isinstance(value, dict):
        return {k: _clean(v, names) for k, v in value.items()}
    if isinstance(value, list):
        return [_clean(v, names) for v in value]
    return value


def _lines(store: Store, after: int, living: Iterable[str]) -> Iterable[tuple[int, str]]:
    names = sorted({n for n in living if n and len(n) > 2}, key=len, reverse=True)
    with store.engine.connect() as conn:
        for m in research_log.entries_after(conn, after):
            entry = {"seq": m["seq"], "id": m["id"], "timestamp": m["timestamp"].isoformat(),
                     "agent": m["agent"], "action_type": m["action_type"],
                     "rationale": m["rationale"], "revisit_reason": m["revisit_reason"],
                     "context": m["context"]}
            yield int(m["seq"]), json.dumps(_clean(entry, names), ensure_ascii=False)


def _last_seq(path: Path) -> int:
    """Seq of the last whole line; a torn tail (a kill mid-write) is truncated away."""
    if not path.exists():
        return 0
    data = path.read_bytes()
    cut = data.rfind(b"\n") + 1
    if cut != len(data):
        with path.open("r+b") as fh:
            fh.truncate(cut)
        data = data[:cut]
    lines = data.rstrip(b"\n").rsplit(b"\n", 1)
    try:
        return int(json.loads(lines[-1])["seq"]) if lines[-1] else 0
    except (ValueError, KeyError):
        return 0


def append(store: Store, case_dir: Path, living: Iterable[str] = ()) -> int:
    """Append entries not yet in the file; returns how many."""
    path = case_dir / LOG_FILE
    after = _last_seq(path)
    n = 0
    with path.open("a", encoding="utf-8") as fh:
        for _seq, line in _lines(store, after, living):
            fh.write(line + "\n")
            n += 1
    return n


def render(store: Store, living: Iterable[str] = ()) -> str:
    """The whole log as JSON lines, living persons' names masked (`sleuth export --format
    log`)."""
    return "".join(line + "\n" for _seq, line in _lines(store, 0, living))


def rewrite(store: Store, case_dir: Path, living: Iterable[str] = ()) -> int:
    """The whole log again, atomically (temp file + rename)."""
    path = case_dir / LOG_FILE
    tmp = path.with_suffix(".jsonl.tmp")
    n = 0
    with tmp.open("w", encoding="utf-8") as fh:
        for _seq, line in _lines(store, 0, living):
            fh.write(line + "\n")
            n += 1
    os.replace(tmp, path)
    return n
