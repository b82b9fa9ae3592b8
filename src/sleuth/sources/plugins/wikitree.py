"""WikiTree API (api.wikitree.com). The appId, when the user sets one, is added by the
fetcher from the spec's auth block; private profiles come back privacy-limited, not refused."""

from __future__ import annotations

from sleuth.sources.fetcher import FetchResult
from sleuth.sources.plugins.base import SourcePlugin


class WikiTreePlugin(SourcePlugin):
    def profile(self, key: str) -> FetchResult:
        return self.call("getProfile", key=key)

    def ancestors(self, key: str) -> FetchResult:
        return self.call("getAncestors", key=key)

    def descendants(self, key: str) -> FetchResult:
        return self.call("getDescendants", key=key)

    def relatives(self, key: str) -> FetchResult:
        return self.call("getRelatives", key=key)
