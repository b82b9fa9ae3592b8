"""`sleuth privacy report`: who is treated as living and why, what was redacted where.

The report is built from the case itself, through the same code every output uses:

* living: every person's `Verdict` (the rule that decided, the reason, each rule's vote);
* redactions: the Censor's log counted per field and action;
* outputs: each output path (report, JSON-LD, GEDCOM 5.5.1 and 7.0, GEDCOM X, `sleuth show`,
  the review queue) is checked for leaks - any SSN, national id, e-mail, phone number, or a
  living person's exact birth date or removed contact value. The expected number of leaks
  is zero, always. The graph's outputs are all functions of the censored view, so the view
  itself is proved clean string by string and date by date, and each output is rendered
  and scanned from the part of the view that holds or names a living person (plus the
  first person holding each kind of claim, source, conflict and hypothesis), which runs
  the exporter's code on everything it writes about the living (`sleuth.privacy.proof`:
  why this proves what rendering every person did, at a fifth of the CPU on 100,000
  persons). `checked` says what was rendered; each output's counts are of that rendering;
* pii: the scanner's findings in every stored snapshot, cited or not (logged as Censor
  decisions when `record` is set; the bytes stay as they are);
* compliance: consent and ToS decisions other agents logged under the Censor's name, and the
  case's tier permissions.
"""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from collections.abc import Callable, Mapping
from collections.abc import Set as AbstractSet
from concurrent.futures import ProcessPoolExecutor
from datetime import date
from multiprocessing import get_all_start_methods, get_context
from typing import Any, TypeVar

from sleuth.model.graph import CaseGraph
from sleuth.model.records import Agent, Snapshot
from sleuth.privacy.policy import PrivacyPolicy, active_policy, use_policy
from sleuth.privacy.proof import (
    LEAK_KINDS,
    exposed_view,
    living_contacts,
    view_findings,
    view_strings,
)
from sleuth.privacy.redaction import (
    LIVING_NAME,
    censor,
    living_verdicts,
    one_view,
    paused_gc,
)
from sleuth.privacy.scan import (
    ACTION,
    SHARED_DAY,
    BirthDays,
    Finding,
    first_places,
    living_birth_patterns,
    log_findings,
    scan_stored_texts,
    scan_text,
    summarise,
)
from sleuth.privacy.view import CensoredGraph
from sleuth.store import Store, case_graph
from sleuth.store.permissions import tier_permissions
from sleuth.store.research_log import decisions_of

R = TypeVar("R")
_ESCAPED = re.compile(r'[\x00-\x1f"\\]')  # characters JSON writes escaped
MARKERS = {"redacted": "[redacted", "masked_chars": "█", "living_name": LIVING_NAME}


OUTPUTS = ("report", "jsonld", "gedcom", "gedcom7", "gedcomx", "show", "review")


def output_texts(store: Store, graph: CaseGraph, today: date) -> dict[str, str]:
    """Every output path's whole text for this case (each exporter censors on its own)."""
    return {path: render_output(path, store, graph, today) for path in OUTPUTS}


def render_output(path: str, store: Store | None, graph: CaseGraph, today: date,
                  shown: CensoredGraph | None = None) -> str:
    """One output path's text (`OUTPUTS`). `shown` is the graph censored as every output
    sees it (`censor(graph, today=today)`), when the caller has it; only "review" reads
    the store."""
    view = shown if shown is not None else censor(graph, today=today)
    return render_view(path, store, view, graph.snapshots, today)


def render_view(path: str, store: Store | None, view: CensoredGraph,
                stored: Mapping[str, Snapshot], today: date) -> str:
    """One output path's text from the censored `view` alone, as its exporter writes it
    (`stored`: the case's snapshots before the Censor, which the report's source classes
    are read from). Each exporter is imported where it is used: `sleuth show`'s view and
    the review queue need none of them, and all of them take most of a second to import."""
    if path == "report":
        from sleuth.export.report import report_of_view

        return report_of_view(view, stored, today)
    if path == "jsonld":
        from sleuth.export.jsonld import jsonld_of_view

        return json.dumps(jsonld_of_view(view), ensure_ascii=False)
    if path in ("gedcom", "gedcom7"):
        from sleuth.export.gedcom import gedcom_of_view

        return gedcom_of_view(view, "7.0" if path == "gedcom7" else "5.5.1", today)
    if path == "gedcomx":
        from sleuth.export.gedcomx import gedcomx_of_view

        return json.dumps(gedcomx_of_view(view), ensure_ascii=False)
    if path == "show":
        return view.model_dump_json()
    if path == "review" and store is not None:
        from sleuth.pipeline.review import censored_items

        return json.dumps(censored_items(store, None), ensure_ascii=False, default=str)
    raise ValueError(f"unknown output path {path!r}")


def leaks(text: str, where: str, graph: CaseGraph, living: set[str],
          births: BirthDays | None = None) -> list[Finding]:
    """Generic PII, living persons' exact birth dates and removed contact values in `text`
    (`CONTACT_FIELDS`); each value's first occurrence, as `str.find` gives it. One pass per
    text whatever the number of persons (`births` and `first_places`): a loop over the
    living per output was quadratic in the case (issue 19)."""
    if births is None:
        births = living_birth_patterns(graph, living)
    return _leaks(text, where, births, living_contacts(graph, living))


def _leaks(text: str, where: str, births: BirthDays, contacts: list[tuple[str, str, str]],
           known: AbstractSet[str] = frozenset()) -> list[Finding]:
    """`leaks` with what it looks for read from the case beforehand; generic PII and birth
    days but in the stretches between quotes that are `known` (scanned already)."""
    found = scan_text(text, where, births=births, kinds=LEAK_KINDS, known=known)
    if not contacts:  # most cases: no living person's contact value to look for
        return found
    first = first_places(text.lower(), {v.lower() for _, _, v in contacts})
    for pid, field, value in contacts:
        start = first.get(value.lower())
        if start is not None:
            found.append(Finding(where, field, start, start + len(value), pid))
    return found


class _OutputCheck:
    """The censored view proved clean (`proof.view_findings`), and each output path
    rendered from its exposed part (`proof.exposed_view`) and checked for leaks (`leaks`).

    Everything is checked against what was read of the uncensored case beforehand (the
    living persons' birth days, their removed contact values): the uncensored case itself
    is not held. A finding in the view counts in every output rendered from it.

    The checks are independent and each is CPU-bound, so where the system forks (POSIX) the
    view-only ones are shared out among worker processes forked once the censored view is
    built (they read it, never change it) while this process does what reads the store:
    the review queue, the stored snapshots' scan. The summaries are gathered in `OUTPUTS`
    order whoever finishes first, so the report is the same either way."""

    def __init__(self, shown: CensoredGraph, stored: Mapping[str, Snapshot], today: date,
                 living: set[str], births: BirthDays,
                 contacts: list[tuple[str, str, str]]) -> None:
        self.shown, self.stored, self.today = shown, stored, today
        self.living, self.births, self.contacts = living, births, contacts
        self.exposed = exposed_view(shown, living)
        # The view's strings an output quotes whole are proved with the view (and counted
        # in every output's row): scanned again in each output, they were most of the
        # JSON outputs' scans. As JSON writes them, too (a snapshot's lines).
        self.known = view_strings(self.exposed)
        self.known |= {json.dumps(s, ensure_ascii=False)[1:-1]
                       for s in self.known if _ESCAPED.search(s)}

    def one(self, path: str, store: Store | None = None) -> dict[str, Any]:
        """One output path's own counts, or the view's ("view")."""
        if path == "view":
            found = view_findings(self.shown, self.living, self.births, self.contacts)
            return {"leak_kinds": dict(Counter(f.kind for f in found))}
        text = render_view(path, store, self.exposed, self.stored, self.today)
        known = self.known if path != "review" else frozenset()
        found = _leaks(text, f"output:{path}", self.births, self.contacts, known)
        return {"chars": len(text),
                **{name: text.count(marker) for name, marker in MARKERS.items()},
                "leak_kinds": dict(Counter(f.kind for f in found))}

    def checked(self) -> dict[str, int]:
        """What the outputs were rendered from, and the whole view's size."""
        full = set(self.exposed.assertions) | self.living
        return {"persons": len(self.shown.persons),
                "rendered_whole": sum(1 for p in self.exposed.persons if p.id in full),
                "rendered_as_relatives": sum(1 for p in self.exposed.persons
                                             if p.id not in full),
                "claims": sum(map(len, self.shown.assertions.values())),
                "claims_rendered": sum(map(len, self.exposed.assertions.values()))}

    def all(self, store: Store, workers: int,
            meanwhile: Callable[[], R]) -> tuple[dict[str, dict[str, Any]], R]:
        """Every output's summary, in `OUTPUTS` order, and what `meanwhile` returns: the
        rest of the report's work on the store, done here while the workers render. The
        view is proved here too: it reads every object of the view, which a forked worker
        would first have to copy (each object it reads is written, to count a reference)."""
        tasks = [path for path in OUTPUTS if path != "review"]
        if workers < 1 or "fork" not in get_all_start_methods():
            out = {path: self.one(path, store) for path in ["review", "view", *tasks]}
            return _summaries(out), meanwhile()
        # Imported here, not at the top, for start-up time; and once, before forking, not by
        # each worker (~0.6 s each): the same wall time on idle CPUs, less CPU under load.
        import sleuth.export  # noqa: F401

        global _FORKED
        _FORKED = self
        try:
            with ProcessPoolExecutor(workers, mp_context=get_context("fork")) as pool:
                pending = {path: pool.submit(_check_in_child, path) for path in tasks}
                out = {"review": self.one("review", store), "view": self.one("view")}
                rest = meanwhile()
                # then this process takes what no worker has started, the last first
                for path in reversed(tasks):
                    if pending[path].cancel():
                        out[path] = self.one(path)
                out.update({path: pending[path].result() for path in tasks
                            if path not in out})
        finally:
            _FORKED = None
        return _summaries(out), rest


def _summaries(out: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Each output's row, in `OUTPUTS` order: its own findings and, for those rendered
    from the censored view (all but the review queue), the view's."""
    rows: dict[str, dict[str, Any]] = {}
    for path in OUTPUTS:
        row = dict(out[path])
        kinds = Counter(row.pop("leak_kinds"))
        if path != "review":
            kinds.update(out["view"]["leak_kinds"])
        shared = kinds.pop(SHARED_DAY, 0)
        rows[path] = {
            **row,
            "leaks": sum(kinds.values()),
            "leak_kinds": dict(sorted(kinds.items())),
            # a living person's birth day printed as a deceased person's date: not a leak
            # while the view holds none of the living's exact dates
            "shared_days": shared,
        }
    return rows


# the check a forked worker inherits (set only while `_OutputCheck.all` shares work out)
_FORKED: _OutputCheck | None = None


def _check_in_child(path: str) -> dict[str, Any]:
    assert _FORKED is not None, "a worker forked without the check to run"
    return _FORKED.one(path)


def _workers() -> int:
    """Worker processes for the output checks: one a CPU, as many as free memory holds (a
    worker that renders an output touches much of the view, so may come to copy a share
    of what this process holds), none without fork."""
    if "fork" not in get_all_start_methods():
        return 0
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    try:
        import resource  # POSIX only, as fork is

        free = os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
        held = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # KiB on Linux
    except (ValueError, OSError, AttributeError):
        return 0
    fits = free // max(held, 1)
    return min(len(OUTPUTS), cpus or 1, fits)


def compliance(store: Store) -> dict[str, Any]:
    """Consent / ToS decisions logged by (or for) the Censor, and tier permissions."""
    with store.engine.connect() as conn:
        decisions = decisions_of(conn, str(Agent.CENSOR), ACTION)
        permissions = tier_permissions(conn)
    return {"decisions": decisions, "tier_permissions": permissions}


def privacy_report(
    store: Store,
    *,
    title: str = "",
    today: date | None = None,
    policy: PrivacyPolicy | None = None,
    record: bool = True,
    workers: int | None = None,
) -> dict[str, Any]:
    """The whole report as a JSON-able dict (see the module docstring). `workers`: processes
    that check the outputs (default: one a CPU where the system forks; 0 checks them here)."""
    now = today or date.today()
    pol = active_policy(policy)
    # The collector stays paused to the end: every step allocates much and makes no cycle,
    # and beside a large case each collection walks millions of objects (the snapshot scan
    # after the outputs took four times its own time on 10,000 persons).
    with use_policy(pol), paused_gc():
        with one_view():
            graph = case_graph(store, title=title)
            verdicts = living_verdicts(graph, today=now, policy=pol)
            living = {pid for pid, v in verdicts.items() if v.living}
            safe = censor(graph, today=now, policy=pol)
            births = living_birth_patterns(graph, living)
            check = _OutputCheck(safe, graph.snapshots, now, living, births,
                                 living_contacts(graph, living))
        # The uncensored case goes here, before any output is rendered or worker forked:
        # the exporters read the censored view alone, and at 100,000 persons the raw graph
        # is most of the memory (workers fit in what is left).
        del graph

        def on_the_store() -> tuple[list[Finding], int, dict[str, Any]]:
            found = scan_stored_texts(store, births)
            return (found, log_findings(store, found) if record else 0,
                    compliance(store))

        per_output, (snapshot_findings, logged, comp) = check.all(
            store, _workers() if workers is None else workers, on_the_store)
        names = {p.id: p.canonical_name for p in safe.persons}
        persons = [
            {
                "id": pid,
                "name": names.get(pid, ""),
                "living": v.living,
                "rule": v.rule,
                "reason": v.reason,
                "votes": v.votes,
            }
            for pid, v in sorted(verdicts.items())
        ]
        by_field = Counter((r["field"], r["action"]) for r in safe.redactions)
        checked = check.checked()
        # The view goes while the collector is still paused: once it runs again, its first
        # pass would read every object made since it paused (seconds at 100,000 persons).
        del safe, check, names
    return {
        "case": title,
        "today": now.isoformat(),
        "policy": pol.model_dump(),
        "living": {
            "count": len(living),
            "persons": len(verdicts),
            "by_rule": dict(Counter(v.rule for v in verdicts.values() if v.living)),
        },
        "persons": persons,
        "redactions": {
            "by_field": [
                {"field": f, "action": a, "count": n} for (f, a), n in sorted(by_field.items())
            ],
            "by_output": per_output,
            "checked": checked,
        },
        "pii": {
            "snapshots": summarise(snapshot_findings),
            "findings": len(snapshot_findings),
            "logged": logged,
        },
        "compliance": comp,
    }
