"""Local GEDCOM files and folders of documents, through `load_file` (no network)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from sleuth.sources.local import LoadedFile, load_file
from sleuth.sources.plugins.base import SourcePlugin

SUFFIXES = {".txt", ".html", ".htm", ".xhtml", ".pdf", ".ged", ".gedcom", ".gdz", ".json",
            ".csv", ".vld"}


class LocalFilesPlugin(SourcePlugin):
    def files(self, root: Path) -> Iterator[Path]:
        if root.is_file():
            yield root
            return
        for p in sorted(root.rglob("*")):
            if p.is_file() and p.suffix.lower() in SUFFIXES:
                yield p

    def load(self, root: Path) -> Iterator[LoadedFile]:
        for p in self.files(root):
            yield load_file(p, source_name=self.spec.name,
                            evidence_type=self.spec.reliability.evidence_type)
