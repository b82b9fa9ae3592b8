"""YAML-only HTML sources: CSS-selector extraction rules yield cited candidates.

The page is served by a real HTTP server on 127.0.0.1 and shaped like a Find a Grave
memorial (written here; no Find a Grave page is recorded and nothing is scraped).
"""

from __future__ import annotations

import hashlib
import html
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pytest_httpserver import HTTPServer

from sleuth.extract.records import extract_record, selectors
from sleuth.model import Candidate, InputError, Snapshot
from sleuth.model.source_spec import SourceSpec, load_spec, parse_spec
from sleuth.sources.fetcher import Fetcher
from sleuth.sources.gates import SourceBlocked, record_consent
from sleuth.sources.plugins import load_plugin
from sleuth.sources.registry import load_registry, spec_of
from sleuth.store import Store
from sleuth.text import html_text
from sleuth.verify.firewall import Source, check_candidates

MEMORIAL = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>{name} (1850-1921) - Find a Grave Memorial</title>
<script>window.memorial = {{"id": 4242, "name": "Not Shown"}};</script>
<style>.bio-name {{ font-weight: bold }}</style></head>
<body>
<header><nav><a href="/">Find a Grave</a> <a href="/memorial/search">Memorial Search</a></nav>
</header>
<main>
<section class="memorial-hero">
  <h1 class="bio-name" id="bio-name">{given} <i>{maiden}</i> {surname}</h1>
  <p class="bio-min">Birth 1850 &ndash; Death 1921 <span class="badge">Famous memorial</span></p>
  <dl class="mem-events">
    <dt>Birth</dt>
    <dd><time itemprop="birthDate" id="birthDateLabel">12 Mar 1850</time>
        <div itemprop="birthPlace" id="birthLocationLabel">{place}</div></dd>
    <dt>Death</dt>
    <dd><span itemprop="deathDate" id="deathDateLabel">3 Jan 1921 (aged 70)</span>
        <div itemprop="deathPlace" id="deathLocationLabel">{place}</div></dd>
    <dt>Burial</dt>
    <dd><div id="cemeteryNameLabel" itemprop="name">
          <a href="/cemetery/1234/beckett-street-cemetery">{cemetery}</a></div>
        <span id="cemeteryCityName">Leeds</span></dd>
    <dt>Memorial ID</dt><dd id="memNumberLabel">4242 &middot; View Source</dd>
  </dl>
</section>
<section id="family"><h2>Family Members</h2>
  <ul><li class="memorial-item"><h3>Thomas {surname}</h3> 1845&ndash;1910</li></ul></section>
</main></body></html>
"""

FIELDS = {"given": "Ada", "maiden": "Smith", "surname": "Whitfield",
          "place": "Leeds, West Yorkshire, England", "cemetery": "Beckett Street Cemetery",
          "name": "Ada Whitfield"}


def _page(**values: str) -> str:
    return MEMORIAL.format(**{k: html.escape(v) for k, v in {**FIELDS, **values}.items()})


def _local_fag(server: HTTPServer) -> SourceSpec:
    """The built-in Find a Grave spec, pointed at the local server."""
    data = load_registry().get("find_a_grave").model_dump(mode="json", exclude_none=True)
    data.update(base_url=server.url_for("/").rstrip("/"), local=True)
    return parse_spec(data, "find_a_grave.yaml")


def _by_field(cands: list[Candidate]) -> dict[str, Candidate]:
    return {c.field: c for c in cands}


def _firewall(cands: list[Candidate], snap: Snapshot) -> None:
    report = check_candidates(cands, {snap.id: Source.of(snap.text, snap.url)})
    assert not report.rejected, [str(v) for v in report.violations]


def test_find_a_grave_is_blocked_until_permitted_then_yields_cited_candidates(
    httpserver: HTTPServer, store: Store, fetcher_for: Callable[..., Fetcher]
) -> None:
    httpserver.expect_request("/robots.txt").respond_with_data(
        "User-agent: *\nDisallow: /private/\n", content_type="text/plain")
    httpserver.expect_request("/memorial/4242/ada-whitfield").respond_with_data(
        _page(), content_type="text/html; charset=utf-8")
    spec = _local_fag(httpserver)
    plugin = load_plugin(spec, fetcher_for(spec))
    with pytest.raises(SourceBlocked, match="prohibited by ToS: find_a_grave"):
        plugin.fetch("/memorial/4242/ada-whitfield")
    assert httpserver.log == []  # the ToS gate stops the request before robots.txt, even

    with store.transaction() as conn:
        record_consent(store, conn, "find_a_grave", "scrape", "written permission from owner")
    res = plugin.fetch("/memorial/4242/ada-whitfield")
    cands = plugin.candidates(res)
    assert cands is not None
    got = _by_field(cands)
    assert {f: c.value for f, c in got.items()} == {
        "name": "Ada Smith Whitfield", "birth_date": "1850-03-12",
        "birth_place": "Leeds, West Yorkshire, England", "death_date": "1921-01-03",
        "death_place": "Leeds, West Yorkshire, England", "burial_place": "Beckett Street Cemetery",
    }
    text = res.snapshot.text
    assert all(c.subject == "p1" and c.subject_name == "Ada Smith Whitfield" for c in cands)
    for c in cands:
        assert c.citation is not None
        loc = c.citation.locator
        assert text[loc.start:loc.end] == c.citation.excerpt
    assert got["death_date"].citation.excerpt == "3 Jan 1921"  # type: ignore[union-attr]
    # The death place is cited on the death line, not at the identical birth place above it.
    birth_at = got["birth_place"].citation.locator.start  # type: ignore[union-attr]
    death_at = got["death_place"].citation.locator.start  # type: ignore[union-attr]
    assert birth_at < got["death_date"].citation.locator.start < death_at  # type: ignore[union-attr]
    _firewall(cands, res.snapshot)
    # Without the plugin, the snapshot's own source id finds the registered spec.
    again = extract_record(res.snapshot, res.raw, spec_of(res.snapshot)) or []
    assert [(c.field, c.value, c.citation.locator) for c in again] == [  # type: ignore[union-attr]
        (c.field, c.value, c.citation.locator) for c in cands]  # type: ignore[union-attr]


def test_a_source_written_as_yaml_alone(httpserver: HTTPServer, store: Store, tmp_path: Path,
                                        fetcher_for: Callable[..., Fetcher]) -> None:
    """A user's spec file: attribute-free selectors, a number, a required field."""
    (tmp_path / "parish.yaml").write_text(f"""
id: parish_burials
name: Parish burial index
tier: 0
kind: html
base_url: {httpserver.url_for("/").rstrip("/")}
local: true
compliance: {{robots_txt: false, requests_per_minute: 60, content_types: [text/html]}}
extraction:
  person:
    name: {{selector: "td.name", type: name, required: true}}
    burial_date: {{selector: "td.when", type: date}}
    age: {{selector: "td.age", type: number}}
    residence: {{selector: "td.abode", type: place}}
""", encoding="utf-8")
    spec = load_registry(extra_dirs=(tmp_path,)).get("parish_burials")
    httpserver.expect_request("/entry/17").respond_with_data(
        "<html><body><table><tr><th>Name</th><td class='name'>Jonas  Pickersgill</td>"
        "<td class='when'>buried 4 May 1788</td><td class='age'>aged 63 years</td>"
        "<td class='abode'>Wortley</td></tr></table></body></html>",
        content_type="text/html")
    httpserver.expect_request("/entry/18").respond_with_data(
        "<html><body><p>No entry with that number.</p></body></html>", content_type="text/html")
    plugin = load_plugin(spec, fetcher_for(spec))
    res = plugin.fetch("/entry/17")
    cands = plugin.candidates(res) or []
    assert {c.field: c.value for c in cands} == {
        "name": "Jonas Pickersgill", "burial_date": "1788-05-04", "age": "63",
        "residence": "Wortley"}
    _firewall(cands, res.snapshot)
    # The required name is missing: not this record, so the prose extractor gets the page.
    assert plugin.candidates(plugin.fetch("/entry/18")) is None


@settings(max_examples=40, deadline=None)
@given(
    given_name=st.from_regex(r"[A-Z][a-zé]{1,10}", fullmatch=True),
    surname=st.from_regex(r"[A-Z][a-z']{1,12}(-[A-Z][a-z]{1,8})?", fullmatch=True),
    place=st.from_regex(r"[A-Z][a-z]{2,10}( [A-Z][a-z]{2,10})?, [A-Z][a-z]{3,10}", fullmatch=True),
    cemetery=st.from_regex(r"(St\.? )?[A-Z][a-z]{2,10} (Cemetery|Churchyard)", fullmatch=True),
)
def test_every_selected_value_is_cited_where_the_page_shows_it(
    given_name: str, surname: str, place: str, cemetery: str
) -> None:
    raw = _page(given=given_name, surname=surname, place=place, cemetery=cemetery).encode()
    snap = Snapshot(sha256=hashlib.sha256(raw).hexdigest(), url="https://graves.example/m/1",
                    source_name="Find a Grave", media_type="text/html",
                    text=html_text(raw.decode()), metadata={"source_id": "find_a_grave"})
    spec = load_registry().get("find_a_grave")
    cands = selectors.extract(snap, raw, spec)
    got = {c.field: c.value for c in cands}
    assert got["name"] == f"{given_name} Smith {surname}"
    assert got["birth_place"] == got["death_place"] == place
    assert got["burial_place"] == cemetery
    _firewall(cands, snap)


def test_extraction_rules_are_validated_with_the_key(tmp_path: Path) -> None:
    base = ("id: x\nname: X\ntier: 0\nbase_url: https://x.example\n"
            "compliance: {requests_per_minute: 1}\n")
    bad_css = tmp_path / "bad_css.yaml"
    bad_css.write_text(base + "extraction: {person: {name: {selector: 'h1[', type: name}}}\n")
    with pytest.raises(InputError, match=r"bad_css.yaml: extraction.person.name.selector"):
        load_spec(bad_css)
    bad_type = tmp_path / "bad_type.yaml"
    bad_type.write_text(base + "extraction: {person: {born: {selector: '#b', type: date}}}\n")
    with pytest.raises(InputError, match=r"extraction.person.born: type date"):
        load_spec(bad_type)


def test_non_html_or_ruleless_snapshots_are_not_selector_records() -> None:
    raw = _page().encode()
    snap = Snapshot(sha256=hashlib.sha256(raw).hexdigest(), source_name="x",
                    media_type="text/plain", text=raw.decode())
    spec = load_registry().get("find_a_grave")
    assert not selectors.detect(snap, raw, spec)
    assert extract_record(snap, raw, spec) is None
    html_snap = snap.model_copy(update={"media_type": "text/html",
                                        "text": html_text(raw.decode())})
    assert selectors.detect(html_snap, raw, spec)
    assert extract_record(html_snap, raw, load_registry().get("wikitree")) is None
