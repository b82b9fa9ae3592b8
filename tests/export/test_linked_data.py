"""Offline JSON-LD: schema.org served from the package, round trips, SPARQL over the case."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import pytest
from pyld import jsonld
from rdflib import BNode, Graph, Literal, URIRef
from rdflib.compare import isomorphic

from shared_data import shared_path
from sleuth.export import to_jsonld
from sleuth.export.linked_data import (
    OfflineContextError,
    compact,
    document_loader,
    expand,
    to_nquads,
    to_rdf_graph,
)
from sleuth.model import CaseGraph
from sleuth.pipeline.ingest import ingest_path
from sleuth.privacy import censor
from sleuth.store import Store, case_graph

SCHEMA = "http://schema.org/"
VOCAB = "urn:sleuth:vocab:"
PREFIXES = f"PREFIX schema: <{SCHEMA}>\nPREFIX sleuth: <{VOCAB}>\n"


@pytest.fixture(autouse=True)
def no_network(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Any socket connection or DNS lookup during these tests is a failure."""

    def refuse(*args: Any, **kwargs: Any) -> None:
        raise AssertionError(f"network access attempted: {args!r}")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)
    yield


@pytest.mark.parametrize(
    "url",
    [
        "https://schema.org",
        "http://schema.org",
        "https://schema.org/",
        "http://schema.org/",
        "https://schema.org/docs/jsonldcontext.json",
        "https://schema.org/docs/jsonldcontext.jsonld",
    ],
)
def test_loader_serves_packaged_schema_org(url: str) -> None:
    remote = document_loader(url)
    ctx = remote["document"]["@context"]
    assert ctx["@vocab"] == SCHEMA and ctx["birthDate"] == {"@id": "schema:birthDate",
                                                              "@type": "Date"}
    remote["document"]["@context"].clear()  # callers get a copy, never the cached original
    assert document_loader(url)["document"]["@context"]["Person"]


@pytest.mark.parametrize(
    "url",
    ["https://example.org/context.jsonld", "https://schema.org.evil.example/",
     "https://w3id.org/gedcomx", "file:///etc/passwd"],
)
def test_loader_refuses_everything_else(url: str) -> None:
    with pytest.raises(OfflineContextError, match="refusing to fetch"):
        document_loader(url)


def test_remote_context_fails_loudly_without_fetching() -> None:
    doc = {"@context": "https://example.org/ctx.jsonld", "name": "x"}
    with pytest.raises(jsonld.JsonLdError) as info:
        expand(doc)
    cause = info.value.__cause__
    while cause is not None and not isinstance(cause, OfflineContextError):
        cause = cause.__cause__
    assert isinstance(cause, OfflineContextError)


def test_sleuth_terms_expand_to_the_declared_vocabulary(family: CaseGraph, fam: ModuleType) -> None:
    expanded = expand(to_jsonld(family, today=fam.TODAY))
    keys = {k for node in expanded for k in node}
    assert f"{VOCAB}claims" in keys and f"{VOCAB}living" in keys
    assert not [k for k in keys if k.startswith("sleuth:")]  # nothing left as a bare scheme
    persons = [n for n in expanded if f"{SCHEMA}Person" in n.get("@type", [])]
    assert len(persons) == len(family.persons)


def _py(term: Any) -> Any:
    """A SPARQL result term as Python; schema:Date literals (no Python type) as their text."""
    if term is None:
        return None
    value = term.toPython()
    return str(term) if isinstance(value, Literal) else value


def _round_trip(doc: dict[str, Any], context: Any = None) -> Graph:
    """expand -> compact (schema.org context) -> expand again -> RDF."""
    return to_rdf_graph(expand(compact(expand(doc), context)))


def test_round_trip_through_compaction_keeps_every_triple(
    family: CaseGraph, fam: ModuleType
) -> None:
    doc = to_jsonld(family, today=fam.TODAY)
    before = to_rdf_graph(doc)
    assert len(before) > 300
    compacted = compact(expand(doc))
    assert compacted["@context"] == ["https://schema.org", {"sleuth": VOCAB}]
    assert any("sleuth:claims" in n for n in compacted["@graph"])
    for context in (None, "https://schema.org"):  # with and without the sleuth prefix
        after = _round_trip(doc, context)
        assert len(after) == len(before)
        assert isomorphic(before, after)
    # N-Quads text (the other way out of pyld) carries the same number of statements
    assert len(to_nquads(doc).splitlines()) == len(before)


def test_sparql_names_birth_dates_and_the_evidence_behind_them(
    family: CaseGraph, fam: ModuleType
) -> None:
    graph = to_rdf_graph(to_jsonld(family, today=fam.TODAY))
    rows = graph.query(PREFIXES + """
        SELECT ?name ?birth ?value ?text ?pos ?preferred WHERE {
          ?p a schema:Person ; schema:name ?name .
          OPTIONAL { ?p schema:birthDate ?birth }
          OPTIONAL {
            ?e a schema:Event ; schema:about ?p ; sleuth:claims ?c .
            ?c schema:propertyID "birth_date" ; schema:value ?value ;
               sleuth:preferred ?preferred ; schema:citation ?w .
            ?w schema:text ?text ; schema:position ?pos .
          }
        } ORDER BY ?name ?value""")
    got = [tuple(_py(x) for x in row) for row in rows]

    def pos(text: str, excerpt: str) -> str:
        start = text.index(excerpt)
        return f"chars {start}-{start + len(excerpt)}"

    bible = "Thomas Whitfield was born the 3rd of March 1902"
    redacted = "[redacted: living person]"
    assert got == [
        ("Daniel Reyes", None, None, None, None, None),
        ("Emma Whitfield", "1990/1999", "1990s", redacted,
         pos(fam.BIRTH_CERT, "Date of birth: May 12, 1990"), True),
        ("Robert Whitfield", "1935-07-22", "22 July 1935", "born 22 July 1935",
         pos(fam.BIBLE, "born 22 July 1935"), True),
        ("Thomas Whitfield", "1902-03-03", "3 March 1902", bible, pos(fam.BIBLE, bible), True),
        ("Thomas Whitfield", "1902-03-03", "abt 1900", "age 10", pos(fam.CENSUS, "age 10"),
         False),
    ]
    # the conflict is queryable too: both competing claims, ranked
    ranked = graph.query(PREFIXES + """
        SELECT ?value ?rank WHERE {
          ?c a schema:Thing ; schema:about <urn:sleuth:person:thomas> ; sleuth:competing ?x .
          ?x schema:value ?value ; sleuth:rank ?rank .
        } ORDER BY ?rank""")
    assert [(str(v), int(r)) for v, r in ranked] == [("3 March 1902", 1), ("abt 1900", 2)]


def test_no_living_secret_reaches_the_rdf(family: CaseGraph, fam: ModuleType) -> None:
    graph = to_rdf_graph(to_jsonld(family, today=fam.TODAY))
    text = " ".join(str(o) for o in graph.objects()).lower()
    for secret in fam.EMMA_SECRETS:
        assert secret.lower() not in text, secret
    living = graph.query(PREFIXES + "SELECT ?p WHERE { ?p sleuth:living true }")
    assert {str(r[0]) for r in living} == {"urn:sleuth:person:emma", "urn:sleuth:person:daniel"}


def _plain(graph: Graph) -> set[tuple[Any, Any, Any]]:
    return {t for t in graph if not any(isinstance(x, BNode) for x in t)}


def test_kennedy_case_loads_into_rdflib(store: Store) -> None:
    ingest_path(store, shared_path("gedcom", "samples", "kennedy.ged"))
    case = case_graph(store, title="kennedy")
    doc = to_jsonld(case)
    json.dumps(doc)
    graph = to_rdf_graph(doc)
    count = graph.query(PREFIXES + "SELECT (COUNT(?p) AS ?n) WHERE { ?p a schema:Person }")
    assert [int(r[0]) for r in count] == [len(case.persons)] == [208]
    parents = graph.query(PREFIXES + "SELECT (COUNT(*) AS ?n) WHERE { ?c schema:parent ?p }")
    assert [int(r[0]) for r in parents] == [sum(len(p.parents) for p in case.persons)]
    living = sum(1 for p in censor(case).persons if p.is_living)
    flagged = graph.query(PREFIXES + "SELECT (COUNT(?p) AS ?n) WHERE { ?p sleuth:living true }")
    assert [int(r[0]) for r in flagged] == [living] and 0 < living < 208
    assert (URIRef(f"{VOCAB}living"), Literal(True)) in set(graph.predicate_objects())


@pytest.mark.slow
def test_kennedy_round_trip_through_compaction(store: Store) -> None:
    """pyld compacts against all ~3000 schema.org terms (its _compact_iri scans every term
    for each IRI): about 11 s on this case, hence slow. Isomorphism is checked on the family
    case; here the triples outside blank nodes must be identical and the counts equal."""
    ingest_path(store, shared_path("gedcom", "samples", "kennedy.ged"))
    doc = to_jsonld(case_graph(store, title="kennedy"))
    graph = to_rdf_graph(doc)
    again = _round_trip(doc)
    assert len(again) == len(graph) > 20000
    assert _plain(again) == _plain(graph)
