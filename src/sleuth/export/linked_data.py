"""Offline JSON-LD: expand, compact and load sleuth's JSON-LD into rdflib, never over the network.

pyld's default document loader fetches every remote `@context` with `requests`, and nothing
bundles schema.org. sleuth ships the official schema.org context (release 29.1, CC BY-SA 3.0,
see `sleuth/data/jsonld/ATTRIBUTION.md`) and `document_loader` serves it for the schema.org
URLs; any other URL raises `OfflineContextError` instead of being fetched, so a document that
points elsewhere fails loudly rather than silently reaching out.

RDF loading goes through pyld's `to_rdf` and builds rdflib terms from its dataset: the JSON-LD
semantics stay pyld's (one processor for expansion, compaction and RDF), and rdflib's own
JSON-LD parser, which resolves remote contexts with urllib, is never involved.
"""

from __future__ import annotations

import copy
import json
from functools import lru_cache
from importlib import resources
from typing import Any

from pyld import jsonld
from rdflib import BNode, Graph, Literal, URIRef
from rdflib.term import Node

from sleuth.export.jsonld import CONTEXT, SLEUTH_VOCAB
from sleuth.model.errors import SleuthError

SCHEMA_ORG_URLS = frozenset(
    {"https://schema.org", "http://schema.org", "https://schema.org/", "http://schema.org/"}
)
_SCHEMA_ORG_PREFIXES = (
    "https://schema.org/docs/jsonldcontext.json",  # .json and .jsonld, any query string
    "http://schema.org/docs/jsonldcontext.json",
)
Doc = dict[str, Any]
_XSD_STRING = "http://www.w3.org/2001/XMLSchema#string"


class OfflineContextError(SleuthError):
    """A JSON-LD document asked for a remote document that sleuth does not ship."""

    def __init__(self, url: str) -> None:
        self.url = url
        super().__init__(
            f"refusing to fetch {url!r}: sleuth processes JSON-LD offline and ships only the "
            "schema.org context (https://schema.org); inline any other @context"
        )


@lru_cache(maxsize=1)
def _schema_org_context() -> Doc:
    path = resources.files("sleuth").joinpath("data", "jsonld", "schemaorgcontext.jsonld")
    return json.loads(path.read_text(encoding="utf-8"))


def schema_org_context() -> Doc:
    """The packaged schema.org context document ({"@context": {...}}), a fresh copy."""
    return copy.deepcopy(_schema_org_context())


def is_schema_org(url: str) -> bool:
    return url in SCHEMA_ORG_URLS or url.startswith(_SCHEMA_ORG_PREFIXES)


def document_loader(url: str, options: dict[str, Any] | None = None) -> dict[str, Any]:
    """A pyld document loader that answers schema.org from the package and never fetches."""
    if not is_schema_org(url):
        raise OfflineContextError(url)
    return {
        "contentType": "application/ld+json",
        "contextUrl": None,
        "documentUrl": url,
        "document": schema_org_context(),
    }


def _options(**extra: Any) -> dict[str, Any]:
    return {"documentLoader": document_loader, **extra}


def expand(doc: Doc | list[Any]) -> list[Doc]:
    """JSON-LD expansion (absolute IRIs everywhere, no context left)."""
    return jsonld.expand(doc, _options())


def compact(doc: Doc | list[Any], context: Any = None) -> Doc:
    """JSON-LD compaction, by default with sleuth's context (schema.org plus `sleuth:`)."""
    ctx = CONTEXT if context is None else context
    return jsonld.compact(doc, {"@context": ctx}, _options())


def to_nquads(doc: Doc | list[Any]) -> str:
    """The document's RDF dataset as canonical-enough N-Quads text (pyld's serialisation)."""
    return jsonld.to_rdf(doc, _options(format="application/n-quads"))


def to_rdf_graph(doc: Doc | list[Any]) -> Graph:
    """The document's RDF as an rdflib Graph, ready for SPARQL.

    pyld produces the RDF dataset (so rdflib never sees a context it could try to fetch);
    its terms are turned into rdflib terms directly, skipping an N-Quads text round trip.
    Named graphs (none in sleuth's exports) are merged into the default one.
    """
    dataset = jsonld.to_rdf(doc, _options())
    graph = Graph()
    graph.bind("schema", "http://schema.org/")
    graph.bind("sleuth", SLEUTH_VOCAB)
    graph.addN(
        (_term(q["subject"]), _term(q["predicate"]), _term(q["object"]), graph)
        for quads in dataset.values()
        for q in quads
    )
    return graph


def _term(node: dict[str, str]) -> Node:
    kind, value = node["type"], node["value"]
    if kind == "IRI":
        return URIRef(value)
    if kind == "blank node":
        return BNode(value[2:])
    if "language" in node:
        return Literal(value, lang=node["language"])
    datatype = node.get("datatype")
    return Literal(value, datatype=None if datatype in (None, _XSD_STRING) else URIRef(datatype))
