"""The shared plugin: endpoint and search URLs from the spec, fetch through the Fetcher."""

from __future__ import annotations

import re
from collections.abc import Mapping
from importlib import import_module
from typing import Any
from urllib.parse import quote

from sleuth.extract.records import extract_record
from sleuth.model import Candidate, InputError
from sleuth.model.source_spec import SourceSpec
from sleuth.sources.fetcher import Fetcher, FetchResult

_PLACEHOLDER = re.compile(r"\{([a-z_]+)\}")


def person_values(person: Mapping[str, Any]) -> dict[str, str]:
    """Template values from a person: given/surname/years, with the seed's aliases."""
    v = {k: str(x).strip() for k, x in person.items() if x not in (None, "")}
    if "given" in v:
        v.setdefault("given_name", v["given"])
    if "given_name" in v:
        v.setdefault("given", v["given_name"])
    if "name" not in v and ("given" in v or "surname" in v):
        v["name"] = " ".join(p for p in (v.get("given"), v.get("surname")) if p)
    return v


def render(template: str, values: Mapping[str, str], *, quote_values: bool = False) -> str | None:
    """Fill `{placeholders}`; None when one has no value (the parameter is then left out)."""
    missing = [n for n in _PLACEHOLDER.findall(template) if not values.get(n)]
    if missing:
        return None
    return _PLACEHOLDER.sub(
        lambda m: quote(values[m.group(1)], safe="") if quote_values else values[m.group(1)],
        template)


def render_params(params: Mapping[str, str], person: Mapping[str, Any]) -> dict[str, str]:
    values = person_values(person)
    out = {}
    for key, template in params.items():
        filled = render(template, values)
        if filled is not None and filled.strip():
            out[key] = filled
    return out


class SourcePlugin:
    """A source as the Scout sees it: search, fetch a named endpoint, extract."""

    def __init__(self, spec: SourceSpec, fetcher: Fetcher) -> None:
        self.spec = spec
        self.fetcher = fetcher

    def endpoint(self, name: str, **values: str) -> str:
        try:
            template = self.spec.endpoints[name]
        except KeyError:
            raise InputError(f"source {self.spec.id} has no endpoint {name!r}; it has "
                             f"{sorted(self.spec.endpoints)}", field="endpoint") from None
        url = render(template, values, quote_values=True)
        if url is None:
            raise InputError(f"endpoint {name} needs {_PLACEHOLDER.findall(template)}",
                             field="endpoint")
        return url

    def headers(self) -> dict[str, str]:
        """Extra request headers (an OAuth2 bearer token, an Accept type)."""
        return {}

    def fetch(self, url: str, action: str | None = None) -> FetchResult:
        return self.fetcher.fetch(self.spec.id, url, action=action, headers=self.headers())

    def call(self, name: str, **values: str) -> FetchResult:
        return self.fetch(self.endpoint(name, **values), action="api")

    def search(self, person: Mapping[str, Any], page: int = 0) -> FetchResult:
        if self.spec.search is None:
            raise InputError(f"source {self.spec.id} has no search", field="search")
        params = render_params(self.spec.search.params, person)
        pag = self.spec.pagination
        if pag and pag.type != "none" and page:
            step = (pag.page_size or 1) if pag.type == "offset" else 1
            params[pag.param] = str(pag.start + page * step)
        return self.fetcher.fetch(self.spec.id, self.spec.search.endpoint, action="search",
                                  params=params, headers=self.headers())

    def candidates(self, result: FetchResult) -> list[Candidate] | None:
        """Hand the response to the record parsers (None: no format recognised it); a
        YAML-only HTML source falls back to its own CSS-selector extraction rules."""
        return extract_record(result.snapshot, result.raw, self.spec)


def load_plugin(spec: SourceSpec, fetcher: Fetcher) -> SourcePlugin:
    """The spec's Python plugin class, or the generic one for YAML-only sources."""
    if not spec.plugin:
        return SourcePlugin(spec, fetcher)
    module, _, cls = spec.plugin.partition(":")
    try:
        plugin_cls = getattr(import_module(module), cls)
    except (ImportError, AttributeError) as exc:
        raise InputError(f"plugin {spec.plugin!r} cannot be loaded: {exc}",
                         field="plugin") from exc
    return plugin_cls(spec, fetcher)
