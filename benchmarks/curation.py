"""The curation domain (issue 25) on the F´ folder in ../shared/data/documents/fprime:
promoted core entities against an independent census of the FPP definitions.

    PYTHONPATH=src python benchmarks/curation.py [--json] [--pg URL]

The folder is curated end to end as `sleuth init --domain curation`, `sleuth ingest DIR` and
`sleuth work` do it (the same functions, in a temporary case; SQLite, and PostgreSQL too with
`--pg URL` or SLEUTH_TEST_PG_URL). Then:

- Truth: `sleuth.domains.curation.census`, a regex per FPP definition keyword on each line
  (owner: the last `component` line above, or above the `include` of an `.fppi`). It shares
  no code with the FPP reader (`fpp.py`): no tokens, statements or blocks. (F´'s own
  `fprime-fpp` tools were tried and rejected for this: `fpp.py`'s docstring says why.)
- Promoted entities: a core entity is right when its type, owning component (last name
  segment) and name equal a census entry, each entry matched once; recall and precision per
  type, the six entity types of the issue together, and prose-only finds (core entities
  promoted from SDD prose with no FPP definition) apart.
- Equivalences against hand labels: each SDD title is the component of its folder
  (INDEX.md: `CmdDispatcher` is `CommandDispatcher`, `RecvBuffApp` is `RecvBuff`); each SDD
  port-table row is the port of that name in the FPP component, except the six rows
  `PORT_LABELS` names (read off the SDD tables beside the FPP files). Traces: each "shall"
  statement is a requirement of its own, traced to the component of its folder (never an
  equivalence of it: only entities of one type are equivalent).
- Every promoted entity's evidence (and both citations of every equivalence) verbatim at
  its lines of the stored file; the review queue's share of what was decided; forbidden
  writes (seed 002's list, issued as raw SQL under each agent's database role): how many
  succeed (target 0).
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from sqlalchemy import text
from sqlalchemy.exc import DBAPIError

from sleuth.domains.curation import DOMAIN, census
from sleuth.domains.curation.model import span_of
from sleuth.domains.documents.work import work
from sleuth.model import SleuthError
from sleuth.store import Store
from sleuth.store import curation as cur
from sleuth.store.curation_roles import acting_as, drop_agent_roles

FOLDER = Path(__file__).resolve().parents[2] / "shared" / "data" / "documents" / "fprime"
ISSUE_TYPES = ("component", "port", "command", "event", "telemetry", "parameter")
TYPES = (*ISSUE_TYPES, "port_type", "instance", "connection")
ALIASES = {"CmdDispatcher": "CommandDispatcher", "RecvBuffApp": "RecvBuff"}  # INDEX.md
# SDD port-table rows whose FPP port has another name: (SDD component, SDD name) -> FPP name
PORT_LABELS = {("CmdDispatcher", "cmdSend"): "compCmdSend",
               ("CmdDispatcher", "compStat"): "compCmdStat",
               ("CmdDispatcher", "seqStatus"): "seqCmdStatus",
               ("CmdDispatcher", "cmdBuff"): "seqCmdBuff",
               ("CmdDispatcher", "cmdReg"): "compCmdReg",
               ("Health", "Wdog"): "WdogStroke"}
FORMAL = ("interface_contract", "formal_definition", "topology")


def _entry(e: cur.CoreEntity) -> census.Entry:
    owner = e.component.rsplit(".", 1)[-1] if e.component and e.entity_type != "instance" \
        else None
    return (e.entity_type, owner, e.name)


def _label(x: cur.Extraction) -> str:
    """The hand label: the core key an SDD extraction is."""
    module, comp = x.candidate_key.split(":")[1:3]
    target = f"fprime:{module}:{ALIASES.get(comp, comp)}"
    if x.candidate_type == "port":
        name = str(x.candidate_payload["name"])
        target += f":port:{PORT_LABELS.get((comp, name), name)}"
    return target


# seed 002's Forbidden Operations, each as raw SQL under the agent's own role
def _forbidden(sid: str, xid: str) -> list[tuple[str, str, str]]:
    entity = ("INSERT INTO core_entities (id, entity_type, candidate_key, name, payload, "
              "confidence, ecosystem, snapshot_id, extraction_id, evidence_text, evidence_doc,"
              " line_start, line_end, evidence_type, reason, promoted_by, promoted_at) VALUES "
              f"('bench', 'port', 'bench', 'x', '{{}}', 0.9, 'fprime', '{sid}', '{xid}', 'x', "
              "'d', 1, 1, 'formal_definition', 'r', 'me', CURRENT_TIMESTAMP)")
    equivalence = ("INSERT INTO core_equivalences (id, entity_id, extraction_id, "
                   "definition_key, other_key, relation, method, reason, confidence, "
                   "definition_citation, other_citation, created_by, created_at) SELECT "
                   f"'bench', id, '{xid}', 'a', 'b', 'renamed', 'm', 'r', 0.9, '{{}}', '{{}}', "
                   "'me', CURRENT_TIMESTAMP FROM core_entities LIMIT 1")
    status = f"UPDATE staging_extractions SET status = 'accepted' WHERE id = '{xid}'"
    content = f"UPDATE staging_extractions SET confidence_score = 0.5 WHERE id = '{xid}'"
    decision = ("INSERT INTO validation_decisions (id, extraction_id, stage, decided_by, "
                f"decision, reason, missing_fields, decided_at) VALUES ('bench', '{xid}', "
                "'validator', 'me', 'acceptable', 'r', '[]', CURRENT_TIMESTAMP)")
    return [("extractor", "writes core_entities", entity),
            ("extractor", "writes core_equivalences", equivalence),
            ("extractor", "sets status", status),
            ("extractor", "records a decision", decision),
            ("validator", "writes core_entities", entity),
            ("validator", "writes core_equivalences", equivalence),
            ("validator", "modifies extraction content", content),
            ("validator", "accepts (status accepted)", status),
            ("decision_maker", "modifies extraction content", content),
            ("decision_maker", "deletes an extraction",
             f"DELETE FROM staging_extractions WHERE id = '{xid}'"),
            ("decision_maker", "updates a core entity",
             "UPDATE core_entities SET confidence = 0.1")]


def forbidden_writes(store: Store, sid: str, xid: str) -> dict[str, Any]:
    tried, succeeded = 0, []
    for agent, what, sql in _forbidden(sid, xid):
        tried += 1
        try:
            with store.transaction() as conn, acting_as(conn, agent):  # type: ignore[arg-type]
                conn.execute(text(sql))
        except (DBAPIError, SleuthError):
            continue
        succeeded.append(f"{agent} {what}")
    return {"tried": tried, "succeeded": len(succeeded), "which": succeeded}


def curate(url: str | None) -> dict[str, Any]:
    """The whole folder through ingest and work; what was promoted, linked and reviewed."""
    with tempfile.TemporaryDirectory() as tmp:
        store = Store.create_case(Path(tmp) / "case", url, domain="curation")
        try:
            t0 = time.perf_counter()
            DOMAIN.ingest(store, FOLDER)
            t1, c1 = time.perf_counter(), time.process_time()
            report = work(store, agents=DOMAIN.agents)
            t2, c2 = time.perf_counter(), time.process_time()
            with store.engine.connect() as conn:
                entities = cur.core_entities(conn)
                links = cur.equivalences(conn)
                staged = cur.extractions(conn)
                review = cur.review_items(conn)
                n_conflicts = len(cur.conflicts(conn))
                texts = {s: store.snapshot(s, conn).text
                         for s in {x.snapshot_id for x in staged}}
            held = sum(_at(texts[e.snapshot_id], e.lines, e.evidence_text) for e in entities)
            cited = sum(_at(texts[c["snapshot_id"]], tuple(c["lines"]), c["text"])
                        for q in links for c in (q.definition_citation, q.other_citation))
            first = staged[0]
            forbidden = forbidden_writes(store, first.snapshot_id, first.id)
        finally:
            drop_agent_roles(store.engine)
            store.close()
    return {"entities": entities, "links": links, "staged": staged, "review": review,
            "conflicts": n_conflicts, "tasks": report.ran, "failed": report.failed,
            "ingest_s": round(t1 - t0, 2), "work_wall_s": round(t2 - t1, 2),
            "work_cpu_s": round(c2 - c1, 2),
            "evidence_verbatim": f"{held}/{len(entities)}",
            "equivalence_citations_verbatim": f"{cited}/{2 * len(links)}",
            "forbidden": forbidden}


def _at(text_: str, lines: tuple[int, int], evidence: str) -> bool:
    try:
        lo, hi = span_of(text_, lines)
    except ValueError:
        return False
    return text_[lo:hi] == evidence


def _prf(truth: Counter[Any], got: Counter[Any]) -> dict[str, Any]:
    hit = sum((truth & got).values())
    return {"truth": sum(truth.values()), "promoted": sum(got.values()), "right": hit,
            "recall": hit / max(1, sum(truth.values())),
            "precision": hit / max(1, sum(got.values()))}


def score(run: dict[str, Any]) -> dict[str, Any]:
    files = {p.name: p.read_text(encoding="utf-8") for p in sorted(FOLDER.iterdir())
             if p.suffix in (".fpp", ".fppi")}
    truth = Counter(e for v in census.census(files).values() for e, _ in v)
    by_ext = {x.id: x for x in run["staged"]}
    formal = [e for e in run["entities"] if by_ext[e.extraction_id].evidence_type in FORMAL]
    requirements = [e for e in run["entities"] if e.entity_type == "requirement"]
    prose_only = [e for e in run["entities"] if e not in formal and e not in requirements]
    got = Counter(_entry(e) for e in formal)
    rows = {k: _prf(Counter({e: n for e, n in truth.items() if e[0] == k}),
                    Counter({e: n for e, n in got.items() if e[0] == k})) for k in TYPES}
    six = _prf(Counter({e: n for e, n in truth.items() if e[0] in ISSUE_TYPES}),
               Counter({e: n for e, n in got.items() if e[0] in ISSUE_TYPES}))
    first = [x for x in run["staged"] if x.evidence_type not in FORMAL and x.refines is None]
    prose = [x for x in first if x.candidate_type != "requirement"]
    shall = [x for x in first if x.candidate_type == "requirement"]
    traced_right = sum(1 for e in requirements
                       if (e.payload.get("traces") or {}).get("key")
                       == _label(_root(by_ext, e.extraction_id)))
    right = sum(1 for q in run["links"] if _label(_root(by_ext, q.extraction_id))
                == q.definition_key)
    decided = [x for x in run["staged"] if x.status != "superseded"]
    return {
        "promoted": rows, "six_types": six, "all_fpp": _prf(truth, got),
        "prose_only_promoted": len(prose_only),
        "prose_candidates": len(prose),
        "prose_linked": len({_root(by_ext, q.extraction_id).id for q in run["links"]}),
        "equivalences": {"found": len(run["links"]), "right": right,
                         "precision": right / max(1, len(run["links"])),
                         "recall": right / max(1, len(prose)),
                         "renamed": sum(q.relation == "renamed" for q in run["links"])},
        "requirements_traced": {"statements": len(shall), "promoted": len(requirements),
                                "right": traced_right,
                                "recall": traced_right / max(1, len(shall))},
        "conflicts": run["conflicts"],
        "review": {"open": len(run["review"]), "decided": len(decided),
                   "share": len(run["review"]) / max(1, len(decided)),
                   "reasons": Counter(r.reason for r in run["review"])},
        "evidence_verbatim": run["evidence_verbatim"],
        "equivalence_citations_verbatim": run["equivalence_citations_verbatim"],
        "forbidden_writes": run["forbidden"],
        "tasks": run["tasks"], "failed": run["failed"], "ingest_s": run["ingest_s"],
        "work_wall_s": run["work_wall_s"], "work_cpu_s": run["work_cpu_s"],
    }


def _root(by_ext: dict[str, cur.Extraction], xid: str) -> cur.Extraction:
    """The extraction as the Extractor first staged it (before refinements)."""
    x = by_ext[xid]
    while x.refines is not None:
        x = by_ext[x.refines]
    return x


def main(pg: str | None = None) -> dict[str, Any]:
    if not FOLDER.exists():
        print(f"skipped: {FOLDER} not found")
        return {}
    out = {"sqlite": score(curate(None))}
    if pg:
        out["postgresql"] = score(curate(pg))
    return out


def table(r: dict[str, Any]) -> str:
    out = ["| type | FPP-defined (census) | promoted | right | recall | precision |",
           "|---|---:|---:|---:|---:|---:|"]
    for kind, v in [*r["promoted"].items(), ("**the six types**", r["six_types"]),
                    ("all FPP entities", r["all_fpp"])]:
        out.append(f"| {kind} | {v['truth']} | {v['promoted']} | {v['right']} | "
                   f"{v['recall']:.3f} | {v['precision']:.3f} |")
    return "\n".join(out)


if __name__ == "__main__":
    args = sys.argv[1:]
    pg = args[args.index("--pg") + 1] if "--pg" in args else os.environ.get(
        "SLEUTH_TEST_PG_URL")
    result = main(pg)
    if "--json" in args:
        print(json.dumps(result, indent=2, default=str))
    else:
        for backend, r in result.items():
            print(f"## {backend}\n\n{table(r)}\n")
            for k, v in r.items():
                if k not in ("promoted", "six_types", "all_fpp"):
                    print(f"{k}: {v}")
            print()
