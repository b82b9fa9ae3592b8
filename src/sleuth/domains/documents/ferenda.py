"""ferenda's distilled metadata beside a document (lagen.nu's RDF, one Turtle file per
document): an independent reference for a document's identifier, title, date and the
directives a report came from.

ferenda keeps a document in `<repo>/<stage>/<basefile>`; a flattened copy names the files
`<repo>__<stage>__<year>__<number>[__<attachment>]` ("souregeringen__intermediate__2017__66__
dataskydd….xml.bz2", "soukb__intermediate__1972__47__index.hocr.html.bz2"), and the
distilled metadata `<repo>__distilled__<year>__<number>.ttl`. `read_sidecar` finds and reads
it for a document; the documents domain's ingest keeps what it says in the snapshot's
metadata (`ferenda`), so a process can be linked by it (`links`, relation `metadata`) and
the report can show it, always as metadata, never as the document's own text.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

_NAME = re.compile(r"^(?P<repo>[a-z]+)__(?:downloaded|intermediate|parsed)__"
                   r"(?P<year>\d{4}(?:-\d{2})?)__(?P<num>\d+)(?:__|\.)")
_DIR_URI = re.compile(r"/dir/(?P<y>\d{4}):(?P<n>\d+)$")
_DCT = "http://purl.org/dc/terms/"
_RPUBL = "http://rinfo.lagrummet.se/ns/2008/11/rinfo/publ#"


def sidecar_path(path: Path) -> Path | None:
    """The distilled metadata file for a document's file, where one lies beside it."""
    m = _NAME.match(path.name)
    if m is None:
        return None
    side = path.with_name(f"{m['repo']}__distilled__{m['year']}__{m['num']}.ttl")
    return side if side.is_file() else None


def read_sidecar(path: Path) -> dict[str, Any] | None:
    """What the distilled metadata says of the document (`file`, `identifier`, `title`,
    `issued`, `utgar_fran`: directive designations, `departement`), or None when there is
    no such file or it cannot be read (it is a reference, never a reason to refuse)."""
    side = sidecar_path(path)
    if side is None:
        return None
    # rdflib is imported on first use: slow to import, and only documents cases read it.
    from rdflib import Graph, URIRef

    graph = Graph()
    try:
        graph.parse(side, format="turtle")
    except Exception:  # a broken reference file: no metadata, the document is read as is
        return None
    ident = URIRef(_DCT + "identifier")
    for subject, _, value in sorted(graph.triples((None, ident, None))):
        if "#" in str(subject):
            continue

        def values(pred: str, subject: Any = subject) -> list[str]:
            return sorted(str(o) for o in graph.objects(subject, URIRef(pred)))

        directives = []
        for uri in values(_RPUBL + "utgarFran"):
            if m := _DIR_URI.search(uri):
                directives.append(f"Dir. {m['y']}:{int(m['n'])} ({uri})")
        out: dict[str, Any] = {"file": side.name, "subject": str(subject),
                               "identifier": str(value)}
        for key, pred in (("title", _DCT + "title"), ("issued", _DCT + "issued")):
            if found := values(pred):
                out[key] = found[0]
        if directives:
            out["utgar_fran"] = directives
        if dep := values(_RPUBL + "departement"):
            out["departement"] = dep[0].rstrip("/").rsplit("/", 1)[-1]
        return out
    return None
