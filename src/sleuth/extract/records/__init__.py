"""Extractors for structured records: each format module offers `detect` and `extract`.

`extract_record(snapshot, raw)` returns the candidates of the first format that recognises
the snapshot, or None so the caller falls back to the prose extractor. `raw` is the exact
bytes read (HTML profiles need their markup; the snapshot text is the visible text).
"""

from __future__ import annotations

from importlib import import_module

from sleuth.model.records import Candidate, Snapshot

# Specific detectors first: GEDCOM X JSON (familysearch) before the other JSON APIs.
FORMATS: tuple[str, ...] = ("gedcom", "familysearch", "wikitree_api", "wikidata", "wikipedia",
                            "chronam", "freereg", "freecen", "wikitree")


def extract_record(snap: Snapshot, raw: bytes | None = None) -> list[Candidate] | None:
    """Candidates from the first record format that recognises `snap`, else None."""
    for name in FORMATS:
        module = import_module(f"sleuth.extract.records.{name}")
        if module.detect(snap, raw):
            return module.extract(snap, raw)
    return None
