"""Online sources for an investigation: the built-in plugins, searched through the polite
fetcher (gates, robots.txt, rate limits, cache: the one door to the network).

A search answers with *leads* (titles, links, snippets), written to `research-leads/` and
never cited; a lead becomes a source only when its document is fetched and captured like a
corpus file (`capture.capture_fetched`). Each source says how its hits are opened:

- wikipedia: full-text search (`list=search`), each hit's page as HTML (REST `page/html`);
- wikidata: `wbsearchentities`, each hit's entity JSON (`wbgetentities`);
- chronicling_america: the loc.gov collection search, each hit's OCR full text where the
  result links one, else the item's JSON.

`corpus` names the local folder (`--corpus`) among them. A source that cannot be searched
(unreachable, blocked, refused) raises `SourceUnavailable` with a one-line reason: the
research phase records it as a gap, never a crash.
"""

from __future__ import annotations

import html
import json
import re
from dataclasses import dataclass
from typing import Any

from sleuth.model import InputError, SleuthError
from sleuth.model.source_spec import SourceSpec
from sleuth.sources.fetcher import Fetcher, FetchResult
from sleuth.sources.plugins import load_plugin

CORPUS = "corpus"
ONLINE = ("wikipedia", "wikidata", "chronicling_america")
HITS_PER_SEARCH = 5
_PLACEHOLDER = re.compile(r"\{[a-z_]+\}")
_TAG = re.compile(r"<[^>]+>")


class SourceUnavailable(SleuthError):
    """A source could not be searched or opened now (its one-line reason)."""


def parse_sources(text: str | None) -> list[str]:
    """`--sources a,b,c` as names, in order, each once; an unknown name refuses the whole
    command (InputError: exit 2)."""
    names: list[str] = []
    for raw in (text or "").split(","):
        name = raw.strip()
        if not name:
            continue
        if name != CORPUS and name not in ONLINE:
            raise InputError(f"unknown source {name!r} for --sources; an investigation "
                             f"searches {', '.join((*ONLINE, CORPUS))}", field="--sources")
        if name not in names:
            names.append(name)
    if text is not None and not names:
        raise InputError("--sources names no source", field="--sources")
    return names


@dataclass(frozen=True)
class Lead:
    """One search hit: what to open, and what the search said of it (never evidence)."""

    source: str
    title: str
    url: str  # the document to capture (absolute)
    snippet: str
    action: str = "api"


def _plain(text: str) -> str:
    return " ".join(html.unescape(_TAG.sub("", text)).split())


def _params(spec: SourceSpec, query: str) -> dict[str, str]:
    """The spec's search parameters with every placeholder filled by the query text."""
    assert spec.search is not None
    return {k: (query if _PLACEHOLDER.search(v) else v) for k, v in spec.search.params.items()}


def _at(data: Any, path: str | None) -> list[Any]:
    for part in (path or "").split("."):
        if part:
            data = data.get(part) if isinstance(data, dict) else None
    return data if isinstance(data, list) else []


class OnlineSources:
    """The investigation's view of the built-in online plugins."""

    def __init__(self, fetcher: Fetcher) -> None:
        self.fetcher = fetcher

    def spec(self, name: str) -> SourceSpec:
        return self.fetcher.registry.get(name)

    def _get(self, name: str, url: str, *, action: str,
             params: dict[str, str] | None = None) -> FetchResult:
        try:
            return self.fetcher.fetch(name, url, action=action, params=params)
        except SleuthError as exc:
            raise SourceUnavailable(f"{name}: {str(exc).splitlines()[0]}") from None
        except Exception as exc:  # the network edge: anything it raises is a reason
            raise SourceUnavailable(f"{name}: {type(exc).__name__}: {exc}") from None

    def search(self, name: str, query: str) -> list[Lead]:
        """The source's hits for `query`, best first (at most HITS_PER_SEARCH)."""
        spec = self.spec(name)
        if spec.search is None:
            raise SourceUnavailable(f"{name}: the source has no search")
        res = self._get(name, spec.search.endpoint, action="search",
                        params=_params(spec, query))
        try:
            data = json.loads(res.snapshot.text)
        except ValueError:
            raise SourceUnavailable(f"{name}: the search did not answer JSON") from None
        plugin = load_plugin(spec, self.fetcher)
        leads: list[Lead] = []
        for hit in _at(data, spec.search.result_path)[:HITS_PER_SEARCH]:
            if isinstance(hit, dict) and (lead := self._lead(name, plugin, hit)) is not None:
                leads.append(lead)
        return leads

    @staticmethod
    def _lead(name: str, plugin: Any, hit: dict[str, Any]) -> Lead | None:
        def address(path: str) -> str:
            return (plugin.spec.base_url or "").rstrip("/") + path if path.startswith("/") \
                else path

        if name == "wikipedia" and hit.get("title"):
            title = str(hit["title"])
            return Lead(name, title, address(plugin.endpoint("html",
                                                             key=title.replace(" ", "_"))),
                        _plain(str(hit.get("snippet", ""))))
        if name == "wikidata" and hit.get("id"):
            label = str(hit.get("label") or hit["id"])
            return Lead(name, f"{label} ({hit['id']})",
                        address(plugin.endpoint("wbgetentities", id=str(hit["id"]))),
                        _plain(str(hit.get("description", ""))))
        if name == "chronicling_america" and (hit.get("url") or hit.get("id")):
            text = hit.get("fulltext_file")
            desc = hit.get("description")
            snippet = _plain(" ".join(desc) if isinstance(desc, list) else str(desc or ""))
            title = str(hit.get("title") or hit.get("url") or hit.get("id"))
            if isinstance(text, str) and text:
                return Lead(name, title, text, snippet, action="download")
            url = str(hit.get("url") or hit.get("id"))
            return Lead(name, title, url + ("&" if "?" in url else "?") + "fo=json", snippet)
        return None

    def open(self, lead: Lead) -> FetchResult:
        """Fetch the lead's document (to be captured)."""
        return self._get(lead.source, lead.url, action=lead.action)
