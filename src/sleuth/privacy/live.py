"""The Censor kept across changes of a case (the review workbench, issue 23).

`sleuth serve` shows one case while its reviewer changes it: each decision adds or changes a
few claims, merges or splits two persons. Reading and censoring a 10,000-person case again
after each one took seconds. `LiveCensor` keeps the censored copy and, given the new raw
graph and the persons whose data changed, censors again only what the change can reach, and
gives exactly what `censor(graph)` gives (tests/privacy/test_live_censor.py checks it after
every kind of decision):

* who is living: `living.Judge` judges again the changed persons, whoever names one of them
  as a relative, and whoever Gramps' inference read one of them for;
* the secrets (the living persons' exact dates and removed values) are recomputed from the
  living persons; where they changed, every text is searched for the secrets added or taken
  away (only those), and whatever holds one is censored again: a text that holds none of
  them reads the same under the old secrets and the new;
* the spans withheld for the living (`withheld`) are kept per person (and for the
  hypotheses); where a snapshot's change, its text and everyone citing it are censored
  again;
* persons, their claims and conflicts are censored again where their data, their verdict
  or (above) their texts changed; a snapshot where who cites it, whether they are living,
  or its text's secrets changed; hypotheses and the title every time (few).

Anything else (another day, so other verdicts; names masked; a secret that could be read
across a mask) censors the whole case again.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date
from itertools import chain
from typing import Any

from sleuth.model.citation import Citation
from sleuth.model.graph import CaseGraph, Conflict
from sleuth.model.records import Assertion, Hypothesis, Person, Snapshot
from sleuth.privacy.living import Judge, Verdict, explain_living
from sleuth.privacy.pii import Literals
from sleuth.privacy.policy import PrivacyPolicy, active_policy
from sleuth.privacy.redaction import (
    _SECRET_CHAR,
    Contribution,
    Secrets,
    _Censor,
    _union,
    make_secrets,
    paused_gc,
    person_secrets,
)
from sleuth.privacy.view import CensoredGraph
from sleuth.privacy.withheld import Span, Withheld
from sleuth.privacy.written_dates import DateSecrets

Notes = list[dict[str, Any]]
_MASKS = ("[", "]", "█")  # what a mask leaves in a text: no secret may hold one


class _Delta:
    """The secrets added or taken away: a text that holds none of them is censored the
    same before and after."""

    def __init__(self, days: set[date], months: set[tuple[int, int]], words: set[str]) -> None:
        self.dates = DateSecrets(days, months)
        self.words = Literals(words)

    def mentioned(self, texts: Iterable[str | None]) -> bool:
        for text in texts:
            if text and _SECRET_CHAR.search(text) and (
                    self.dates.search(text) or self.words.search(text)):
                return True
        return False


def _strings(value: Any) -> Iterable[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from _strings(v)


def _claim_texts(claims: list[Assertion], conflicts: list[Conflict]) -> Iterable[str]:
    for a in claims:
        yield a.value
        for c in a.citations:
            yield c.excerpt
    for k in conflicts:
        yield k.rationale
        yield k.recommended_value
        yield from k.next_actions
        for r in k.competing:
            yield r.value


def _snapshot_texts(s: Snapshot) -> Iterable[str]:
    yield s.text
    yield s.source_name
    yield s.url or ""
    yield s.path or ""
    yield from _strings(s.metadata)


class LiveCensor:
    """`censor(graph)` of a case that changes a little at a time: `graph` is the censored
    copy of the raw graph given last; `update(raw, touched)` takes the next one."""

    def __init__(self, graph: CaseGraph, *, today: date | None = None,
                 mask_names: bool = False, policy: PrivacyPolicy | None = None,
                 keep_log: bool = True) -> None:
        self.keep_log = keep_log  # False: `graph.redactions` is left empty (no page shows it)
        self.today = today
        self.mask_names = mask_names
        self.pol = active_policy(policy)
        self.full_runs = 0  # how often the whole case was censored (tests, benchmark)
        self._build(graph)

    @property
    def verdicts(self) -> dict[str, Verdict]:
        """Who is living in the graph given last, and why (read-only)."""
        return self.judge.verdicts

    # -- the whole case ---------------------------------------------------------------------
    def _build(self, raw: CaseGraph) -> None:
        self.full_runs += 1
        with paused_gc():
            self.judge = Judge(raw, today=self.today, policy=self.pol, track=True)
            self.contrib: dict[str, Contribution] = {}
            self.parts: tuple[Any, ...] = ()
            self.alive = {pid for pid, v in self.judge.verdicts.items() if v.living}
            self._secrets(raw, {p.id for p in raw.persons})
            self.withheld: Withheld | None = None
            c = self._censor(raw)
            assert c.parts is not None  # made by the Censor when given none
            self.span_parts: dict[str, frozenset[Span]] = c.parts
            self.hyp_spans = c.hypothesis_spans()
            self.withheld = c.withheld
            self.people: dict[str, tuple[Person, Notes]] = {}
            self.claims: dict[str, tuple[list[Assertion], Notes]] = {}
            self.conflicts: dict[str, tuple[Conflict | None, Notes]] = {}
            self.snaps: dict[str, tuple[Snapshot, Notes]] = {}
            self.cites: dict[str, set[str]] = {}  # person (or entity) -> snapshots cited
            self.citers: dict[str, set[str]] = {}  # and back
            for p in raw.persons:
                self.people[p.id] = _unit(c, c.person, p)
            by_person = _conflicts_by_person(raw)
            for pid, claims in raw.assertions.items():
                self._claims(c, pid, claims, by_person.get(pid, []))
                self._cite(pid, claims)
            for k in raw.conflicts:  # of a person without claims
                if k.id not in self.conflicts:
                    self.conflicts[k.id] = _unit(c, c.conflict, k)
            hyp_citers = _hypothesis_citers(raw.hypotheses)
            for sid, snap in raw.snapshots.items():
                self.snaps[sid] = _unit(c, c.snapshot, snap, self._who(sid, hyp_citers))
            self._finish(c, raw, hyp_citers)

    def _censor(self, raw: CaseGraph) -> _Censor:
        return _Censor(raw, self.judge.now, self.mask_names, self.pol,
                       verdicts=self.judge.verdicts, secrets=self.secrets,
                       living=self.alive, withheld=self.withheld)

    def _withheld(self, c: _Censor, raw: CaseGraph, who: set[str]) -> set[str]:
        """Bring the withheld spans up to date for the persons `who` (whose claims, links
        or verdict changed) and their spouses, old and new (whether a dead person's
        marriage is a living spouse's turns on the spouse); give `c` them. Returns the
        snapshots whose withheld spans changed."""
        near = set(who)
        for pid in who:
            for p in (self.people.get(pid, (None,))[0], self.judge.by_id.get(pid)):
                if p is not None:
                    near |= p.spouses
        moved: set[str] = set()
        for pid in near:
            claims = raw.assertions.get(pid)
            new = c.withheld_spans(pid, claims) if claims else frozenset()
            old = self.span_parts.get(pid, frozenset())
            if new != old:
                moved |= {sid for sid, _, _ in new ^ old}
                if new:
                    self.span_parts[pid] = new
                else:
                    del self.span_parts[pid]
        hyp = c.hypothesis_spans()
        if hyp != self.hyp_spans:
            moved |= {sid for sid, _, _ in hyp ^ self.hyp_spans}
            self.hyp_spans = hyp
        if moved:
            assert self.withheld is not None
            by = {sid: got for sid, got in self.withheld.spans.items() if sid not in moved}
            by.update(Withheld.of(s for part in (*self.span_parts.values(), self.hyp_spans)
                                  for s in part if s[0] in moved).spans)
            self.withheld = c.withheld = Withheld(by)
        return moved

    def _secrets(self, raw: CaseGraph, who: set[str]) -> None:
        """The secrets, from each living person's part: made again only where the
        parts of `who` (whose data or verdict changed) change their union."""
        mask = self.mask_names or self.pol.mask_names
        by_id = self.judge.by_id
        self.alive = set(self.alive)  # a new set: a censor made before keeps its own
        for pid in who:
            verdict = self.judge.verdicts.get(pid)
            if verdict is not None and verdict.living:
                self.alive.add(pid)
            else:
                self.alive.discard(pid)
            person = by_id.get(pid)
            if verdict is not None and verdict.living and person is not None:
                self.contrib[pid] = person_secrets(person, raw.assertions.get(pid, []), mask)
            else:
                self.contrib.pop(pid, None)
        parts = (*_union(self.contrib.values()), mask)
        if parts != self.parts:
            self.parts = parts
            self.secrets: Secrets = make_secrets(*parts[:4], mask=mask)

    def _claims(self, c: _Censor, pid: str, claims: list[Assertion],
                conflicts: list[Conflict]) -> None:
        """A person's claims, then their conflicts (which show the claims' censored values)."""
        self.claims[pid] = _unit(c, c.claims, pid, claims)
        for k in conflicts:
            self.conflicts[k.id] = _unit(c, c.conflict, k)

    def _cite(self, pid: str, claims: list[Assertion] | None) -> None:
        for sid in self.cites.pop(pid, set()):
            self.citers[sid].discard(pid)
        if claims:
            sids = {ct.snapshot_id for a in claims for ct in a.citations}
            self.cites[pid] = sids
            for sid in sids:
                self.citers.setdefault(sid, set()).add(pid)

    def _who(self, sid: str, hyp_citers: dict[str, set[str]]) -> set[str]:
        return self.citers.get(sid, set()) | hyp_citers.get(sid, set())

    def _finish(self, c: _Censor, raw: CaseGraph, hyp_citers: dict[str, set[str]]) -> None:
        self.raw = raw
        self.key = c._secret_key
        self.hyp_citers = hyp_citers
        hyps = [_unit(c, c.hypothesis, h) for h in raw.hypotheses]
        title = c.scrub(raw.title)
        people = [self.people[p.id] for p in raw.persons]
        claims = [self.claims[pid] for pid in raw.assertions]
        conflicts = [self.conflicts[k.id] for k in raw.conflicts]
        snaps = [self.snaps[sid] for sid in raw.snapshots]
        self._parts: tuple[list[tuple[Any, Notes]], ...] = (people, claims, conflicts, hyps,
                                                             snaps)
        log = self.log() if self.keep_log else []
        self.graph = CensoredGraph.model_construct(
            title=title,
            persons=[p for p, _ in people],
            assertions=dict(zip(raw.assertions, (out for out, _ in claims), strict=True)),
            snapshots=dict(zip(raw.snapshots, (s for s, _ in snaps), strict=True)),
            conflicts=[k for k, _ in conflicts if k is not None],
            hypotheses=[h for h, _ in hyps],
            review_open=raw.review_open,
            redactions=log,
            extra_parents=raw.extra_parents,
        )

    def log(self) -> Notes:
        """The redaction log of the graph given last, as `censor` keeps it (in another
        order): made when asked where the graph keeps none (`keep_log=False`), for a
        report's privacy note."""
        log: Notes = [dict(r) for r in self.raw.redactions]
        log += chain.from_iterable(notes for part in self._parts for _, notes in part)
        return log

    # -- a change ---------------------------------------------------------------------------
    def update(self, raw: CaseGraph, touched: Iterable[str]) -> CensoredGraph:
        """Censor `raw`, which differs from the graph given last only in `touched`: the
        persons (or other entities with claims) whose record, claims, links or conflicts
        changed. Added and removed persons, snapshots and hypotheses are found here."""
        if self.today is None and date.today() != self.judge.now:
            self._build(raw)  # a new day: anyone may have come of age to be shown
            return self.graph
        with paused_gc():
            old = self.raw
            old_ids = self.judge.by_id.keys()
            by_id = {p.id: p for p in raw.persons}
            gone = old_ids - by_id.keys()
            touched = set(touched) | (old.assertions.keys() ^ raw.assertions.keys())
            judged = self.judge.update(raw, touched, by_id)
            self._secrets(raw, touched | judged)
            c = self._censor(raw)
            whole, delta = self._delta(c)
            if whole or (c.mask and judged):
                self._build(raw)
                return self.graph
            by_person = _conflicts_by_person(raw)
            moved = self._withheld(c, raw, touched | judged)
            units = touched | judged
            units |= {pid for sid in moved for pid in self.citers.get(sid, ())}
            units |= {k.person_id for k in raw.conflicts if k.id not in self.conflicts}
            if delta is not None:
                units |= {pid for pid, claims in raw.assertions.items() if pid not in units
                          and delta.mentioned(_claim_texts(claims, by_person.get(pid, [])))}
            for p in raw.persons:
                if p.id in units or p.id not in self.people:
                    self.people[p.id] = _unit(c, c.person, p)
            for pid in gone:
                self.people.pop(pid, None)
            for k in old.conflicts:
                if k.person_id in units:
                    self.conflicts.pop(k.id, None)
            for pid in units:
                claims = raw.assertions.get(pid)
                if claims is None:
                    self.claims.pop(pid, None)
                else:
                    self._claims(c, pid, claims, by_person.get(pid, []))
            for k in raw.conflicts:  # of a person without claims
                if k.id not in self.conflicts:
                    self.conflicts[k.id] = _unit(c, c.conflict, k)
            live_ids = {k.id for k in raw.conflicts}
            for cid in [x for x in self.conflicts if x not in live_ids]:
                del self.conflicts[cid]
            # who cites each snapshot, before and after
            affected: set[str] = set()
            for pid in touched:
                affected |= self.cites.get(pid, set())
                affected |= {ct.snapshot_id for a in raw.assertions.get(pid, [])
                             for ct in a.citations}
            before = {sid: set(self.citers.get(sid, ())) for sid in affected}
            for pid in touched:
                self._cite(pid, raw.assertions.get(pid))
            hyp_citers = _hypothesis_citers(raw.hypotheses)
            # a snapshot none of these reach has the citers and verdicts it had (a text
            # searched for changed secrets: every snapshot)
            reach = affected | raw.snapshots.keys() - self.snaps.keys()
            reach |= hyp_citers.keys() | self.hyp_citers.keys() | moved
            for pid in judged:
                reach |= self.cites.get(pid, set())
            snaps = raw.snapshots.items() if delta is not None else (
                (sid, raw.snapshots[sid]) for sid in sorted(reach) if sid in raw.snapshots)
            for sid, snap in snaps:
                who = self._who(sid, hyp_citers)
                was = before.get(sid, self.citers.get(sid, set())) | \
                    self.hyp_citers.get(sid, set())
                if (sid not in self.snaps or who != was or who & judged or sid in moved
                        or (delta is not None and delta.mentioned(_snapshot_texts(snap)))):
                    self.snaps[sid] = _unit(c, c.snapshot, snap, who)
            for sid in old.snapshots.keys() - raw.snapshots.keys():
                self.snaps.pop(sid, None)
            self._finish(c, raw, hyp_citers)
        return self.graph

    def source(self, snap: Snapshot, pending: list[tuple[Person, list[Assertion]]]
               ) -> tuple[Snapshot, list[Citation]]:
        """One snapshot of the graph given last (or one it does not cite) as `censor`
        shows it when `pending` (persons not in the case, with claims citing it: a
        snapshot's candidates not promoted) stand beside the case, each judged alone as
        the review queue judges them; and every censored citation of it. Their secrets
        join the case's; where they add none, the case's censored claims are the answer.
        The spans they cite are not withheld from the case's quotes (`withheld`): judged
        alone, without the case's evidence, a subject with no dates is presumed living,
        and what the case says of its own persons stands; their own excerpts are."""
        raw = self.raw
        mask = self.mask_names or self.pol.mask_names
        alone: dict[str, Verdict] = {}
        if pending:
            alone = explain_living(CaseGraph(
                persons=[p for p, _ in pending], assertions=dict(
                    (p.id, claims) for p, claims in pending), snapshots={snap.id: snap}),
                today=self.judge.now, policy=self.pol)
        secrets = self.secrets
        extra = [person_secrets(p, claims, mask) for p, claims in pending if alone[p.id].living]
        if extra:
            parts = tuple(a | b for a, b in zip(self.parts[:4], _union(extra), strict=True))
            if parts != self.parts[:4]:
                secrets = make_secrets(*parts, mask=mask)
        c = _Censor(raw, self.judge.now, self.mask_names, self.pol,
                    verdicts={**self.judge.verdicts, **alone}, secrets=secrets,
                    living=self.alive | {pid for pid, v in alone.items() if v.living},
                    withheld=self.withheld)
        who = self._who(snap.id, self.hyp_citers) | {p.id for p, _ in pending}
        shown = c.snapshot(snap, who)
        cites: list[Citation] = []
        for pid in self.citers.get(snap.id, ()):
            if secrets is self.secrets:  # the case's own censored claims
                cites += _cited_in(self.graph.assertions.get(pid, []), snap.id)
            else:
                citing = [a for a in raw.assertions.get(pid, [])
                          if any(ct.snapshot_id == snap.id for ct in a.citations)]
                cites += _cited_in(c.claims(pid, citing), snap.id)
        for p, claims in pending:
            cites += _cited_in(c.claims(p.id, claims), snap.id)
        return shown, cites

    def _delta(self, c: _Censor) -> tuple[bool, _Delta | None]:
        """Whether to censor the whole case again, else the secrets that changed (None:
        none did)."""
        if c._secret_key == self.key:
            return False, None
        old_days, old_months, old_words, _ = self.key
        days, months, words, _ = c._secret_key
        changed_words = set(old_words) ^ set(words)
        if c.mask or any(m in w for w in changed_words for m in _MASKS):
            return True, None
        return False, _Delta({date(*d) for d in set(old_days) ^ set(days)},
                             set(old_months) ^ set(months), changed_words)


def _unit(c: _Censor, fn: Any, *args: Any) -> tuple[Any, Notes]:
    """`fn(*args)` of the Censor `c`, with the notes it logged."""
    log, c.log = c.log, []
    try:
        out = fn(*args)
        return out, c.log
    finally:
        c.log = log


def _conflicts_by_person(raw: CaseGraph) -> dict[str, list[Conflict]]:
    out: dict[str, list[Conflict]] = {}
    for k in raw.conflicts:
        out.setdefault(k.person_id, []).append(k)
    return out


def _hypothesis_citers(hyps: list[Hypothesis]) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for h in hyps:
        for c in h.evidence:
            out.setdefault(c.snapshot_id, set()).add(h.target_person or "")
    return out


def _cited_in(claims: list[Assertion], sid: str) -> list[Citation]:
    return [ct for a in claims for ct in a.citations if ct.snapshot_id == sid]
