"""What each page of the workbench shows, read from the store and passed through the Censor.

The store's reads return raw data; every value a page prints comes from a `CensoredGraph`
(`sleuth.privacy.censor`) or from the review queue as `sleuth review` shows it
(`censored_items`), so the browser sees exactly what an export would. The censored case is
kept while the case is unchanged (`case_version`: every write is audited).
"""

from __future__ import annotations

import gc
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sleuth.gps.timeline import timeline
from sleuth.model import (
    Assertion,
    Candidate,
    CaseGraph,
    Citation,
    InputError,
    NotFound,
    Person,
    Snapshot,
)
from sleuth.pipeline.review import censored_items
from sleuth.privacy import MENTIONS_LIVING, REDACTED_EXCERPT, CensoredGraph, Verdict, unredacted
from sleuth.privacy.live import LiveCensor
from sleuth.store import Store, case_graph, review_items
from sleuth.store.queries import case_merges, merged_into, patch_case
from sleuth.store.workbench import (
    audit_head,
    candidate_spans,
    case_version,
    clusters_of,
    pairs,
    touched_since,
    unpromoted,
)

MARKERS = frozenset({REDACTED_EXCERPT, MENTIONS_LIVING})
SAME_PERSON = "same_person"  # a resolver's merge proposal (`sleuth.resolve.review`)

# What kind of review an item asks for, read from its reason (the filters of the queue).
KINDS = {
    "confidence": "Uncertain (confidence)",
    "firewall": "Firewall refinement limit",
    "merge": "Merge to check",
    "conflict": "Conflict",
    "other": "Other",
}


# What each kind of item asks of the reviewer, in plain words (shown under its reason).
KIND_HELP = {
    "confidence": "sleuth read this in the quoted words but is not sure enough to record it "
                  "as a fact by itself. Accept if the words say it; Reject if they do not; "
                  "Edit if they say something slightly different.",
    "firewall": "sleuth could not match this value to the quoted words exactly. Accept only "
                "if the words support it; Edit to the value the words give.",
    "merge": "",  # a merge item explains itself (the two persons, Accept merges)
    "conflict": "Sources disagree about this. Open the person's page to compare the "
                "evidence before deciding.",
    "other": "",
}


def item_kind(item: dict[str, Any]) -> str:
    reason = str(item.get("queue_reason") or item.get("reason") or "").lower()
    if item.get("field") == "same_person" or "duplicate" in reason or "merge" in reason:
        return "merge"
    if "refinement" in reason or "firewall" in reason:
        return "firewall"
    if "conflict" in reason or "contradict" in reason:
        return "conflict"
    if "confidence" in reason:
        return "confidence"
    return "other"


@dataclass
class CaseView:
    """The censored views of one case, kept across its changes: after a decision only the
    persons it touched are read again (`patch_case`, from the audit log's entries since:
    `touched_since`) and censored again (`LiveCensor`, which gives what `censor` of the
    whole case gives); a change the audit log cannot place reads the whole case again."""

    store: Store
    redaction: bool = True  # False: the owner's view, as stored (`sleuth serve --no-redaction`)
    title: str = ""  # the case's title, as its exports read it (the case folder's name)
    _version: tuple[int, ...] | None = None
    _raw: CaseGraph | None = None
    _merged: dict[str, str] = field(default_factory=dict)
    _audit: int = 0  # the last audit entry `_raw` holds
    _live: LiveCensor | None = None
    _snaps: dict[str, SourceView] = field(default_factory=dict)
    _by_snapshot: dict[str, list[Citation]] | None = None
    _outputs: dict[str, str] = field(default_factory=dict)
    _living: dict[str, bool] | None = None
    reloads: int = 0  # whole-case reads (the benchmark and tests count them)
    _owner: CensoredGraph | None = None
    _sorted: tuple[CensoredGraph, list[Person]] | None = None
    _owner_of: CaseGraph | None = None
    _queues: dict[str | None, list[dict[str, Any]]] = field(default_factory=dict)
    _queued_at: tuple[int, ...] | None = None  # the case version `_queues` were made at

    def _fresh(self) -> None:
        version = case_version(self.store)
        if version == self._version:
            return
        if self._raw is not None:
            last, touched = touched_since(self.store, self._audit)
            if touched is None:
                self._raw, self._live = None, None
            else:
                self._raw, self._merged, redone = patch_case(self.store, self._raw,
                                                             self._merged, touched)
                self._audit = last
                if self._live is not None:
                    self._live.update(self._raw, redone)
                gc.freeze()  # see `graph`
        self._version = version
        self._snaps, self._by_snapshot, self._outputs = {}, None, {}
        self._living = None

    def warm(self) -> None:
        """Read and censor the whole case now (`sleuth serve` does before it listens)."""
        self.graph()

    def raw(self) -> CaseGraph:
        self._fresh()
        if self._raw is None:
            self.reloads += 1
            self._audit = audit_head(self.store)  # before reading: later writes are read again
            self._merged = case_merges(self.store)
            self._raw = case_graph(self.store, title=self.title)
            self._live = None
        return self._raw

    def graph(self) -> CensoredGraph:
        raw = self.raw()
        if not self.redaction:
            if self._owner is None or self._owner_of is not raw:
                self._owner, self._owner_of = unredacted(raw), raw
            return self._owner
        if self._live is None:
            self._live = LiveCensor(raw, keep_log=False)  # no page shows the log
            # The two graphs are most of the heap and make no cycles: out of the cyclic
            # collector's sight, a full collection does not walk them on a page load (two
            # seconds on a 10,000-person case). What a change replaces is freed by its
            # reference count.
            gc.freeze()
        return self._live.graph

    def verdicts(self) -> dict[str, Verdict]:
        """Who is living in the whole case, and why, as the Censor judges it."""
        raw = self.raw()
        if self._live is None:
            self._live = LiveCensor(raw, keep_log=False)
            gc.freeze()
        assert self._live is not None
        return self._live.verdicts

    def censored(self) -> tuple[CaseGraph, CensoredGraph]:
        """The case and the Censor's copy of it with the Censor's log (`censor(raw)`, as an
        export makes it; the pages' copy keeps no log)."""
        raw = self.raw()
        self.graph()
        assert self._live is not None and self.redaction
        return raw, self._live.graph.model_copy(update={"redactions": self._live.log()})

    def living_names(self) -> list[str]:
        """The names of the living, as `sleuth export --format log` masks them."""
        living = self.living()
        return [p.canonical_name for p in self.raw().persons if living.get(p.id, False)]

    def output(self, name: str, make: Callable[[], str]) -> str:
        """One of the case's exports (made by its domain, through the Censor), kept while
        the case is unchanged."""
        self._fresh()
        if name not in self._outputs:
            self._outputs[name] = make()
        return self._outputs[name]

    # -- the review queue --------------------------------------------------------------
    def queue(self, status: str | None = "open") -> list[dict[str, Any]]:
        """The review queue exactly as `sleuth review --format json` prints it, each item
        with its kind and the span its words come from (for the source viewer); kept while
        the case is unchanged (each call gets its own copies to filter)."""
        version = case_version(self.store)  # not `_fresh`: the queue needs no case read
        if version != self._queued_at:
            self._queues, self._queued_at = {}, version
        if status not in self._queues:
            self._queues[status] = self._queue(status)
        return [dict(i) for i in self._queues[status]]

    def _queue(self, status: str | None) -> list[dict[str, Any]]:
        items = (censored_items(self.store, status, verdicts=self.verdicts) if self.redaction
                 else review_items(self.store, status))
        spans = candidate_spans(self.store, (str(i["candidate_id"]) for i in items))
        merges = pairs(self.store, (str(i["candidate_id"]) for i in items
                                    if i["field"] == SAME_PERSON))
        now = self.merged() if merges else {}
        graph = self.graph() if merges else None
        for it in items:
            it["kind"] = item_kind(it)
            it["help"] = KIND_HELP[it["kind"]]
            a, b = merges.get(str(it["candidate_id"]), ("", ""))
            it["pair"] = (now.get(a, a), now.get(b, b)) if a and b else None
            # the two persons as their pages show them (censored names and dates), not ids
            it["pair_people"] = ([_brief(graph.person(x), x) for x in it["pair"]]
                                 if it["pair"] and graph is not None else None)
            sid, start, end = spans.get(str(it["candidate_id"]), (it["snapshot_id"], None, None))
            it["span"] = (sid, start, end) if start is not None and end is not None else None
        return items

    # -- a person ----------------------------------------------------------------------
    def merged(self) -> dict[str, str]:
        with self.store.engine.connect() as conn:
            return merged_into(conn)

    def canonical(self, person_id: str) -> str:
        """The person a (possibly merged) id is now."""
        return self.merged().get(person_id, person_id)

    def compare(self, a: str, b: str) -> dict[str, Any]:
        """Two persons side by side, field by field, as the Censor shows them."""
        graph = self.graph()
        people = [graph.person(x) for x in (a, b)]
        missing = [x for x, p in zip((a, b), people, strict=True) if p is None]
        if missing:
            raise NotFound(f"person {missing[0]} does not exist")
        claims = [graph.assertions.get(x, []) for x in (a, b)]
        fields = sorted({c.field_name for lst in claims for c in lst})
        names = {p.id: p.canonical_name for p in graph.persons}

        def shown(c: Assertion) -> str:  # a tree's link names the relative by xref
            return names.get(c.related_id or "", c.value)

        rows = []
        for f in fields:
            values = [sorted({shown(c) for c in lst if c.field_name == f}) for lst in claims]
            rows.append((f, values, bool(values[0]) and values[0] == values[1]))
        return {"people": people, "rows": rows}

    def clusters(self, person: Person) -> list[dict[str, Any]]:
        """The merges that made this person (what a split undoes); a merge's rationale
        only for a person who is not living (it quotes both records, as a proposal does)."""
        found = clusters_of(self.store, person.id)
        for c in found:
            if self.redaction and person.is_living is not False:
                c["merge_rationale"] = ""
        return found

    def person(self, person_id: str) -> dict[str, Any]:
        graph = self.graph()
        person = graph.person(person_id)
        if person is None:
            raise NotFound(f"person {person_id} does not exist")
        names = {p.id: p.canonical_name for p in graph.persons}
        claims = graph.assertions.get(person_id, [])
        by_id = {a.id: a for a in claims}
        conflicts = [c for c in graph.conflicts if c.person_id == person_id]
        recommended = {c.recommended_assertion_id for c in conflicts}
        return {
            "person": person,
            "living": person.is_living,
            "relatives": _relatives(person, names),
            "claims": [_claim(a, graph, names, a.id in recommended) for a in claims],
            "conflicts": [
                {"conflict": c, "ranked": sorted(c.competing, key=lambda r: r.rank),
                 "fields": {r.assertion_id: by_id.get(r.assertion_id) for r in c.competing}}
                for c in conflicts
            ],
            "hypotheses": [h for h in graph.hypotheses
                           if person_id in (h.target_person, h.related_person)],
            "names": names,
            "clusters": self.clusters(person),
            "timeline": timeline(_family_of(graph, person), person_id),
        }

    def persons(self) -> list[Person]:
        """Everyone, by surname (sorted once a version)."""
        graph = self.graph()
        if self._sorted is None or self._sorted[0] is not graph:
            self._sorted = (graph, sorted(graph.persons, key=lambda p: (
                p.surname.casefold(), p.canonical_name.casefold())))
        return self._sorted[1]

    # -- a snapshot --------------------------------------------------------------------
    def snapshot(self, snapshot_id: str) -> SourceView:
        """The snapshot as the Censor shows it, and which of its cited spans may be shown.

        Where the censored case is at hand and no candidate waiting for review cites the
        snapshot, it is the censored case's. Otherwise the Censor is run on the part of
        the case that decides this one text (`_beside`): the living, the snapshot's citers
        and, beside them, a person for each subject of its unpromoted candidates, judged as
        the review queue judges them (alone, a subject without dates is living). As in the
        HTML report, the text is shown whole only where the Censor changed nothing in it;
        otherwise only the cited words whose censored excerpt still stands verbatim in it."""
        self._fresh()
        if snapshot_id in self._snaps:
            return self._snaps[snapshot_id]
        pending = unpromoted(self.store, snapshot_id)
        raw = self.raw()
        stored = raw.snapshots.get(snapshot_id)
        if not self.redaction:  # the owner's view: the text as stored, every cited span
            stored = stored or self.store.snapshot(snapshot_id)
            spans = {(c.locator.start, c.locator.end) for claims in raw.assertions.values()
                     for a in claims for c in a.citations if c.snapshot_id == snapshot_id}
            spans |= {(c.citation.locator.start, c.citation.locator.end) for c in pending
                      if c.citation is not None}
            view = SourceView(stored, whole=bool(stored.text), spans=spans)
            self._snaps[snapshot_id] = view
            return view
        if stored is not None and not pending:
            shown = self.graph().snapshots[snapshot_id]
            cites = self._cites().get(snapshot_id, [])
        else:  # candidates not promoted cite it: they stand beside the case, judged alone
            stored = stored or self.store.snapshot(snapshot_id)
            self.graph()
            assert self._live is not None
            shown, cites = self._live.source(stored, _beside(stored, pending))
        spans = {
            (c.locator.start, c.locator.end) for c in cites
            if c.excerpt not in MARKERS and c.excerpt
            and shown.text[c.locator.start:c.locator.end] == c.excerpt
        }
        view = SourceView(shown, whole=bool(shown.text) and shown.text == stored.text,
                          spans=spans)
        self._snaps[snapshot_id] = view
        return view

    def living(self) -> dict[str, bool]:
        """Person id -> living, as the Censor judges the whole case (kept a version)."""
        if self._living is None:
            self._living = {pid: v.living for pid, v in self.verdicts().items()}
        return self._living

    def _cites(self) -> dict[str, list[Citation]]:
        """Snapshot id -> the censored case's citations of it (built once a version)."""
        if self._by_snapshot is None:
            index: dict[str, list[Citation]] = {}
            for claims in self.graph().assertions.values():
                for a in claims:
                    for c in a.citations:
                        index.setdefault(c.snapshot_id, []).append(c)
            self._by_snapshot = index
        return self._by_snapshot


def _brief(person: Person | None, pid: str) -> dict[str, str]:
    """A person in one line of a merge proposal: the name and dates the Censor shows."""
    if person is None:
        return {"id": pid, "name": "(a person no longer in the case)", "dates": ""}
    born, died = shown_date(person, "birth"), shown_date(person, "death")
    dates = ", ".join(x for x in (f"born {born}" if born else "",
                                  f"died {died}" if died else "") if x)
    return {"id": person.id, "name": person.canonical_name, "dates": dates}


def _beside(snap: Snapshot, pending: list[Candidate]) -> list[tuple[Person, list[Assertion]]]:
    """A person for each subject of a snapshot's candidates not promoted, with those
    candidates as claims: what the review queue judges (alone, a subject without dates is
    living) and what the source viewer shows beside the case (`LiveCensor.source`)."""
    people: dict[str, tuple[Person, list[Assertion]]] = {}
    for cand in pending:
        pid = f"pending:{snap.id}:{cand.subject}"
        _, claims = people.setdefault(
            pid, (Person(id=pid, canonical_name=cand.subject_name or pid), []))
        claims.append(Assertion(
            id=cand.id, entity_id=pid, field_name=cand.field, value=cand.value,
            date=cand.date, confidence=min(max(cand.confidence, 0.0), 1.0),
            citations=[cand.citation] if cand.citation else []))
    return list(people.values())


@dataclass
class SourceView:
    """A censored snapshot; `whole`: its text may be shown whole (the Censor changed
    nothing in it); else only `spans`, the cited words that stand in it unredacted."""

    snap: Snapshot
    whole: bool
    spans: set[tuple[int, int]]

    def may_show(self, cited: tuple[int, int] | None) -> bool:
        return cited is not None and (self.whole or cited in self.spans)


def _family_of(graph: CensoredGraph, person: Person) -> CensoredGraph:
    """The person with parents, spouses, children and siblings, and their claims: all a
    timeline's events and the data-quality rules about this person read (the rules run on
    the graph they are given; the whole case would cost a tenth of a second a page)."""
    people = {p.id: p for p in graph.persons}
    near = {person.id, *person.parents, *person.spouses, *person.children}
    for parent in person.parents:
        if parent in people:
            near |= people[parent].children
    return graph.model_copy(update={
        "persons": [people[x] for x in near if x in people],
        "assertions": {x: graph.assertions.get(x, []) for x in near},
        "conflicts": [c for c in graph.conflicts if c.person_id in near],
    })


def _relatives(person: Person, names: dict[str, str]) -> list[tuple[str, list[tuple[str, str]]]]:
    out = []
    for label, ids in (("Parents", person.parents), ("Spouses", person.spouses),
                       ("Children", person.children)):
        if ids:
            ordered = sorted(ids, key=lambda i: names.get(i, i))
            out.append((label, [(i, names.get(i, i)) for i in ordered]))
    return out


def _claim(a: Assertion, graph: CensoredGraph, names: dict[str, str],
           recommended: bool) -> dict[str, Any]:
    cites = []
    for c in a.citations:
        snap = graph.snapshots.get(c.snapshot_id)
        cites.append({"citation": c, "source": source_label(snap) if snap else c.snapshot_id,
                      "page": c.locator.page})
    related = names.get(a.related_id) if a.related_id else None
    return {"a": a, "related": related, "citations": cites, "recommended": recommended}


def source_label(snap: Snapshot) -> str:
    """How a page names a source: its name, and the file or address it was read from."""
    where = snap.path.replace("\\", "/").rsplit("/", 1)[-1] if snap.path else snap.url
    return f"{snap.source_name}: {where}" if where and where != snap.source_name \
        else snap.source_name


def shown_date(person: Person, which: str) -> str:
    """A person's birth or death as a page prints it: a living person's as the Censor left
    it ("1990s"), anyone else's in ISO form."""
    d = person.birth if which == "birth" else person.death
    if d is None:
        return ""
    return d.original if person.is_living and d.original else d.iso()


def span(length: int, start: str | None, end: str | None) -> tuple[int, int] | None:
    """The cited span a source viewer's `?start=&end=` asks for, checked against the text."""
    if start is None and end is None:
        return None
    try:
        lo, hi = int(start or 0), int(end if end is not None else start or 0)
    except ValueError:
        raise InputError("start and end are character offsets (whole numbers)",
                         field="start") from None
    if not 0 <= lo <= hi or (length and hi > length):
        raise InputError(f"the span {lo}–{hi} is outside this source's {length} "
                         "characters", field="start")
    return lo, hi


@dataclass
class Page:
    """One page of a source as the viewer prints it: its number and printed label, and
    its text in runs, the cited words marked."""

    number: int | None
    label: str | None
    runs: list[tuple[str, bool]]


LONG_TEXT = 50_000  # a longer text is shown as a window around the cited words
CONTEXT = 4_000  # characters either side of them


def text_window(length: int, cited: tuple[int, int] | None,
                whole: bool) -> tuple[int, int]:
    """The part of a text a page shows: all of it when short or asked for, else the cited
    words with some context, or the beginning."""
    if whole or length <= LONG_TEXT:
        return 0, length
    if cited is None:
        return 0, LONG_TEXT
    return max(0, cited[0] - CONTEXT), min(length, cited[1] + CONTEXT)


def source_pages(snap: Snapshot, cited: tuple[int, int] | None,
                 window: tuple[int, int] | None = None) -> list[Page]:
    """The snapshot's text (or the `window` of it) cut at its page starts, the cited span
    marked (a span across a page break is marked on both pages)."""
    text = snap.text
    shown_lo, shown_hi = window or (0, len(text))
    starts = [s for s in snap.page_starts if 0 <= s <= len(text)] or [0]
    if starts[0] != 0:
        starts = [0, *starts]
    paged = bool(snap.page_starts)
    labels = snap.metadata.get("page_labels") if isinstance(snap.metadata, dict) else None
    pages = []
    for i, first in enumerate(starts):
        end = starts[i + 1] if i + 1 < len(starts) else len(text)
        lo, hi = max(first, shown_lo), min(end, shown_hi)
        if lo >= hi and not (first == lo == hi == shown_lo):
            continue
        number = (snap.page_of(first) if paged else None)
        label = (str(labels[number - 1]) if number and isinstance(labels, list)
                 and number <= len(labels) else None)
        runs: list[tuple[str, bool]] = []
        if (cited and cited[0] < hi and cited[1] > lo) or (cited and cited[0] == cited[1] == lo):
            a, b = max(cited[0], lo), min(cited[1], hi)
            runs = [(text[lo:a], False), (text[a:b], True), (text[b:hi], False)]
        else:
            runs = [(text[lo:hi], False)]
        pages.append(Page(number, label, [r for r in runs if r[0] or r[1]]))
    return pages
