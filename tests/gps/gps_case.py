"""Helpers for the GPS tests: cases built from real recorded files, ingested as a user would."""

from __future__ import annotations

import hashlib
from pathlib import Path

from shared_data import shared_path
from sleuth.loop.queues import FrontierQueue, TaskSpec
from sleuth.model import Agent, EvidenceType, LogEntry, Snapshot, Tier
from sleuth.pipeline.ingest import ingest_path
from sleuth.store import Store

FS = ("recorded", "familysearch", "saved_fetch_objects")


def ingest(store: Store, *parts: str, evidence: EvidenceType = EvidenceType.SECONDARY) -> str:
    """Ingest one shared-data file; returns its snapshot id."""
    return ingest_path(store, shared_path(*parts), evidence_type=evidence).snapshot_id


def fs(store: Store, name: str) -> str:
    return ingest(store, *FS, name)


def log_search(
    store: Store,
    *,
    source: str,
    name: str,
    person_id: str | None,
    response: Path | None,
    url: str,
    success: bool = True,
    text: str | None = None,
    media_type: str = "application/json",
) -> str | None:
    """Store a real recorded search response as the loop's Scout would, and log the access.

    Mirrors `sleuth.loop.scout`: a SearchTask with the target person, the fetched snapshot
    (metadata.source_id), and a `source_access` entry with the same context keys.
    """
    snap_id = None
    with store.transaction() as conn:
        if response is not None:
            raw = response.read_bytes()
            snap, _ = store.put_snapshot(conn, raw, Snapshot(
                sha256=hashlib.sha256(raw).hexdigest(), url=url, source_name=f"{source} API",
                tier=Tier.TIER0, evidence_type=EvidenceType.SECONDARY,
                media_type=media_type, text=raw.decode("utf-8") if text is None else text,
                metadata={"source_id": source, "status": 200}))
            snap_id = snap.id
        spec = TaskSpec(action="search", source=source, values={"name": name},
                        query=f"{source} search: {name}",
                        target={"person_id": person_id, "name": name})
        task = FrontierQueue(store).push(conn, spec, 0.5, agent=str(Agent.LEAD))
        store.log(conn, LogEntry(
            agent=Agent.SCOUT, action_type="source_access",
            rationale=f"read {url}" if success else "blocked: test",
            context={"task": task, "source": source, "tier": 0, "action": "search",
                     "endpoint": None, "query": spec.query, "url": url, "success": success,
                     "failure_reason": None if success else "blocked: test",
                     "response_time_ms": 5, "from_cache": False, "requests": 1,
                     "snapshot_id": snap_id}))
    return snap_id
