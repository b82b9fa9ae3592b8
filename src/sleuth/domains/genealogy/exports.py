"""Genealogy's outputs: the report (Markdown or HTML), schema.org JSON-LD, GEDCOM 5.5.1 and
7.0, GEDCOM X and the research log. Each reads the case once and renders it through the
privacy Censor inside the exporters; a living person's facts never reach the text."""

from __future__ import annotations

import gc
import json
from pathlib import Path
from typing import Any

from sleuth.export import to_gedcom, to_gedcomx, to_jsonld, to_report
from sleuth.export.html import to_html
from sleuth.export.log_jsonl import render
from sleuth.gps.proof import load_inputs
from sleuth.llm.meter import load_usage
from sleuth.model import CaseGraph
from sleuth.privacy import assess_living
from sleuth.store import Store, case_graph


def _graph(store: Store, case_dir: Path) -> CaseGraph:
    graph = case_graph(store, title=case_dir.name)
    # The case is read once and only read from here on: freezing it keeps the cyclic
    # collector from rescanning a whole large case at every collection (about a fifth of
    # an export's time on 3,000 persons).
    gc.freeze()
    return graph


def report(store: Store, case_dir: Path) -> str:
    graph = case_graph(store, title=case_dir.name)
    gps = load_inputs(store, graph)  # overrides, searches, negative evidence
    gc.freeze()
    return to_report(graph, gps=gps, model_usage=load_usage(case_dir))


def html(store: Store, case_dir: Path) -> str:
    graph = case_graph(store, title=case_dir.name)
    gps = load_inputs(store, graph)  # overrides, searches, negative evidence
    gc.freeze()
    return to_html(graph, gps=gps)


def jsonld(store: Store, case_dir: Path) -> str:
    return json.dumps(to_jsonld(_graph(store, case_dir)), indent=2, ensure_ascii=False)


def gedcomx(store: Store, case_dir: Path) -> str:
    return json.dumps(to_gedcomx(_graph(store, case_dir)), indent=2, ensure_ascii=False)


def gedcom(store: Store, case_dir: Path) -> str:
    return to_gedcom(_graph(store, case_dir), version="5.5.1")


def gedcom7(store: Store, case_dir: Path) -> str:
    return to_gedcom(_graph(store, case_dir), version="7.0")


def research_log(store: Store, case_dir: Path) -> str:
    """The research log (JSON lines), living persons' names masked by the Censor's verdict."""
    graph = case_graph(store, title=case_dir.name)
    living = assess_living(graph)
    names = [p.canonical_name for p in graph.persons if living.get(p.id, (False, ""))[0]]
    return render(store, names).rstrip("\n")


EXPORTS: dict[str, Any] = {
    "report": report, "html": html, "jsonld": jsonld, "gedcom": gedcom, "gedcom7": gedcom7,
    "gedcomx": gedcomx, "log": research_log,
}
