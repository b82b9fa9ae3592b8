"""Wikidata (wbgetentities, SPARQL) and Wikipedia (REST summary, parse)."""

from __future__ import annotations

from sleuth.sources.fetcher import FetchResult
from sleuth.sources.plugins.base import SourcePlugin


class WikidataPlugin(SourcePlugin):
    def entities(self, *ids: str) -> FetchResult:
        return self.call("wbgetentities", id="|".join(ids))


class WikidataSparqlPlugin(SourcePlugin):
    def headers(self) -> dict[str, str]:
        return {"Accept": "application/sparql-results+json"}

    def query(self, sparql: str) -> FetchResult:
        return self.call("sparql", query=sparql)


class WikipediaPlugin(SourcePlugin):
    def summary(self, title: str) -> FetchResult:
        return self.call("summary", key=title.replace(" ", "_"))

    def parse(self, title: str) -> FetchResult:
        return self.call("parse", key=title.replace(" ", "_"))
