"""Chronicling America on loc.gov: search JSON and page OCR text (its own stricter limit,
`compliance.path_limits` in the spec)."""

from __future__ import annotations

from sleuth.sources.fetcher import FetchResult
from sleuth.sources.plugins.base import SourcePlugin


class ChroniclingAmericaPlugin(SourcePlugin):
    def item(self, item_id: str) -> FetchResult:
        return self.call("item", key=item_id)

    def ocr_text(self, url: str) -> FetchResult:
        """A page's full text (a URL taken from a search or item response)."""
        return self.fetch(url, action="download")
