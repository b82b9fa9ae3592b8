"""The investigation loop: seed 003's phases, run until verification passes with no gaps
(then the finale) or a budget stops it; `_state.json` names which.

Each phase reads what the phases before it wrote (the state, `_extraction.json`, the store)
and saves the state when it is done, so a run killed at any moment is resumed from the
phase it was in: capture is idempotent (one source per file), every file is rewritten
whole, and an iteration's commit is made once (`repo.commit_iteration`). One commit per
iteration, made when the iteration ends: after SYNTHESIS when the loop goes on, after the
FINALE when it completes or goes back to RESEARCH. The loop reads and writes its working
copies in `.working/`; what a commit holds is the censored view `publish` makes of them.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

from sleuth.domains.investigations import phases as ph
from sleuth.domains.investigations import stall
from sleuth.domains.investigations.asking import (
    Asked,
    Privacy,
    ask_model,
    case_view,
    vocabulary,
)
from sleuth.domains.investigations.capture import (
    capture,
    capture_fetched,
    recheck_failed,
    record_failure,
)
from sleuth.domains.investigations.corpus import Corpus, modifiers, query_terms, question_names
from sleuth.domains.investigations.extraction import Extraction, extract_source, merge
from sleuth.domains.investigations.finale import integrity, legal, report_md
from sleuth.domains.investigations.frameworks import ask
from sleuth.domains.investigations.general import GeneralComposer
from sleuth.domains.investigations.leads import EngineRound, LeadEngines, round_md
from sleuth.domains.investigations.model import VERIFIED, Check, Gap, Question, Statement
from sleuth.domains.investigations.online import (
    CORPUS,
    OnlineSources,
    SourceUnavailable,
    parse_sources,
)
from sleuth.domains.investigations.opening import open_store, record, unstarted
from sleuth.domains.investigations.previews import preview_snapshot, with_previews
from sleuth.domains.investigations.protect import (
    ShownLines,
    mask_strict,
    names_protected,
    protected,
)
from sleuth.domains.investigations.publish import private_sources, publish, view_state
from sleuth.domains.investigations.relevance import about_inquiry
from sleuth.domains.investigations.render import (
    View,
    fact_check_md,
    iterations_md,
    leads_md,
    organizations_md,
    people_md,
    questions_md,
    sources_md,
    statements_md,
    summary,
    theories_md,
    timeline_md,
)
from sleuth.domains.investigations.repo import commit_iteration, init_repo
from sleuth.domains.investigations.state import (
    BUDGET_COST,
    BUDGET_ITERATIONS,
    BUDGET_REQUESTS,
    COMPLETE,
    DONE,
    ERROR,
    EXTRACTION_FILE,
    PAUSED,
    STALLED,
    STATE_FILE,
    Budget,
    CaseState,
    is_investigation,
    load_state,
    now,
    read_working,
    save_state,
    working,
    write_json,
)
from sleuth.domains.investigations.statements import Composer, answered, asks_of
from sleuth.domains.investigations.verification import Outcome, verify_all
from sleuth.llm.client import LLMClient
from sleuth.llm.engines import QUESTIONS, engine_client, engine_configs, questions_config
from sleuth.model import InputError, Snapshot
from sleuth.model.documents import document_date, is_newspaper
from sleuth.store.lock import case_lock
from sleuth.store.store import Store

MAIN_CAPTURES = 3  # files the question itself may capture in one iteration
RELEVANT = 0.5  # the relevance bar: half the best file's score (`Corpus.relevant`)
UNREAD = "unread"  # the gap of a file above the bar not yet captured
ONLINE_CAPTURES = 2  # documents one online search may capture
LEAD_SEARCHES = 3  # the best-ranked engine leads searched for in one iteration
MAX_FINALE_PASSES = 4
LEADS_DIR = "research-leads"
Progress = Callable[[str], None]


@dataclass
class Run:
    case_dir: Path
    state: CaseState
    store: Store
    progress: ShownLines
    _corpus: Corpus | None = None
    _snaps: dict[str, Snapshot] | None = None
    _online: OnlineSources | None = None
    _llm: tuple[LLMClient, list[str]] | bool | None = False  # False: not looked up yet
    _engines: LeadEngines | None = None
    _cost_base: float = 0.0  # the model cost spent before this run (a resumed case)
    _parts: dict[str, Extraction] | None = None  # each captured source's (`parts`)
    _learned: tuple[str, ...] | None = None  # the captured sources `learn` last read

    def close(self) -> None:
        if self._online is not None:
            self._online.fetcher.close()
        if isinstance(self._llm, tuple):
            self._llm[0].close()

    # -- helpers ----------------------------------------------------------------------------
    def say(self, line: str) -> None:
        self.learn()
        self.progress(f"[iteration {self.state.current_iteration} · "
                      f"{self.state.current_phase}] {line}")

    def learn(self) -> None:
        """Tell the printer (`ShownLines`) whom the sources captured so far protect, read
        as the extraction phase reads them (a source just captured included)."""
        captured = self.state.captured()
        ids = tuple(r.id for r in captured)
        if ids == self._learned:
            return
        self._learned = ids
        x = merge(self.parts(), self.state.current_iteration, {r.title for r in captured})
        self.progress.learn(self.protected(x), self.state.topic)

    def parts(self) -> list[Extraction]:
        """Each captured source's own extraction, in registry order; each is read once a
        run (merging copies what it keeps, so they are never changed)."""
        snaps = self.snaps()
        if self._parts is None:
            self._parts = {}
        for r in self.state.captured():
            if r.id not in self._parts:
                self._parts[r.id] = extract_source(r, snaps[r.id])
        return [self._parts[r.id] for r in self.state.captured()]

    def save(self) -> None:
        save_state(self.case_dir, self.state)

    def goto(self, phase: str) -> None:
        self.state.current_phase = ph.check(self.state.current_phase, phase)
        self.save()

    @property
    def corpus(self) -> Corpus:
        if self._corpus is None:
            root = Path(self.state.corpus) if self.state.corpus else None
            if root is None or not root.is_dir():
                self._corpus = Corpus(root or self.case_dir)
            else:
                self._corpus = Corpus.read(root)
        return self._corpus

    def snaps(self) -> dict[str, Snapshot]:
        if self._snaps is None:
            self._snaps = {}
        for rec in self.state.captured():
            if rec.id not in self._snaps:
                self._snaps[rec.id] = self.store.snapshot(rec.snapshot_id)
        return self._snaps

    def extraction(self) -> Extraction:
        data = read_working(self.case_dir, EXTRACTION_FILE)
        if data is None:
            return Extraction(iteration=self.state.current_iteration)
        return Extraction.from_json(data)

    def view(self, x: Extraction, statements: list[Statement] | None = None,
             checks: dict[str, Check] | None = None) -> View:
        v = View(self.state, x, statements or [], checks or {}, self.protected(x),
                 asks_of(self.state.topic))
        v.withheld = [s.id for s in v.statements if names_protected(s.text, v.protected)
                      or names_protected(s.quote, v.protected)]
        v.days = self._read_as()[0]
        self.state.private_sources = private_sources(self.state, self.snaps(), x,
                                                     v.protected)
        return v

    def protected(self, x: Extraction) -> dict[str, dict[str, Any]]:
        """The living private persons the sources name (`protect`), read with the dates of
        the newspaper pages and the texts of all captured sources."""
        return protected(x, *self._read_as())

    def _read_as(self) -> tuple[dict[str, date], dict[str, str]]:
        """The captured sources' newspaper days and texts, as `protect` reads them."""
        snaps = self.snaps()
        dated = {sid: day for sid, snap in snaps.items() if is_newspaper(snap)
                 and (day := document_date(snap)) is not None}
        return dated, {sid: snap.text for sid, snap in snaps.items()}

    def _lead_people(self, searches: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
        """Whom research-leads must not name: the captured sources' living private persons
        and those the previews of files not captured name, judged as they are (`previews`)."""
        self.learn()
        read = {r.path for r in self.state.captured()}
        files = {str(f.path): f for f in self.corpus.files}
        shown: dict[tuple[str, str], Snapshot] = {}
        for hit in (h for s in searches for h in s["hits"]):
            ref, text = str(hit["path"]), str(hit.get("snippet") or "")
            if (not text or (ref, text) in shown or ref in read
                    or ("://" not in ref and str(Path(ref).resolve()) in read)):
                continue
            f = files.get(ref)
            shown[ref, text] = preview_snapshot(ref, text, f.loaded.snapshot
                                                if f is not None and f.loaded else None)
        if not shown:
            return self.progress.people
        return {**with_previews(self.parts(), *self._read_as(), list(shown.values())),
                **self.progress.people}  # a preview never clears one the sources protect

    def write(self, name: str, text: str) -> None:
        (self.case_dir / name).write_text(text, encoding="utf-8")

    def requests_left(self) -> int:
        b = self.state.budget
        return b.max_requests - b.requests_used

    # -- phases -----------------------------------------------------------------------------
    def setup(self) -> None:
        self.state.current_iteration = max(1, self.state.current_iteration)
        self.goto(ph.RESEARCH)

    def research(self) -> None:
        st, it = self.state, self.state.current_iteration
        corpus = self.corpus
        searches: list[dict[str, Any]] = []
        captured_now: list[str] = []
        if (st.corpus and not Path(st.corpus).is_dir()) or not (st.corpus or st.online):
            gap = Gap.of("capture_failed", f"the corpus folder {self.state.corpus or '(none)'} "
                         "cannot be read", ref="corpus", since=it)
            if all(g.id != gap.id for g in st.gaps):
                st.gaps.append(gap)
        for rec, line in recheck_failed(self.store, self.case_dir, st, corpus.files,
                                        iteration=it):  # a repaired or removed file
            captured_now += [rec.id] if rec.status == "captured" else []
            self.say(line)
        for f in corpus.unreadable:  # bad input: a failed capture and a gap, once each
            if self.requests_left() > 0 and all(s.path != f.where for s in st.sources):
                st.budget.requests_used += 1
                rec = record_failure(st, f.where, f.error, query="corpus", iteration=it)
                self.say(f"capture failed: {rec.id} {f.error}")

        def take(why: str, terms: list[str], *, limit: int, strict: bool,
                 floor: float = 0.0, about: frozenset[str] = frozenset()) -> list[str]:
            hits = (corpus.relevant(terms, about, bar=floor) if floor else
                    corpus.search(terms, limit=max(limit + len(st.sources), 8)))
            got: list[str] = []
            for h in hits:
                if len(got) >= limit or self.requests_left() <= 0:
                    break
                if strict and len(h.terms) < len(terms):
                    continue
                if any(s.path == str(h.path.resolve()) for s in st.sources):
                    continue
                entry = next(f for f in corpus.files if f.path == h.path)
                rec = capture(self.store, self.case_dir, st, entry, query=why, iteration=it)
                got.append(rec.id)
                self.say(f"captured {rec.id} {rec.title} ({h.path.name})")
            searches.append({"why": why, "terms": terms, "captured": got, "hits": [
                {"path": str(h.path), "score": h.score, "terms": h.terms, "snippet": h.snippet}
                for h in hits[:limit + 3]]})
            return got

        # a page naming a qualifier often ("German") is read too: its submarines may be there
        main = query_terms(st.topic)
        names = frozenset(question_names(st.topic) | modifiers(st.topic))
        wanted = not st.captured() or any(g.kind == "unanswered" for g in st.gaps)
        unread = any(g.kind == UNREAD for g in st.gaps)
        rnd = self._ask_engines() if wanted else None
        if (wanted or unread) and st.corpus:
            bar = not st.captured() or unread
            captured_now += take(f"the question: {st.topic}", main,
                                 limit=MAIN_CAPTURES if bar else 1,
                                 strict=False, floor=RELEVANT if bar else 0.0, about=names)
        if st.corpus:
            self._unread(main, names)
        if wanted or any(g.kind == "source_unreachable" for g in st.gaps):  # or a retry
            captured_now += self._search_online(f"the question: {st.topic}", " ".join(
                query_terms(st.topic, glossary=False)), searches)
        for r in (rnd.ranked[:LEAD_SEARCHES] if rnd else []):
            why = f"engine lead ({', '.join(r.engines)}): {r.title}"
            terms = query_terms(r.title, glossary=False)
            if st.corpus and terms:
                captured_now += take(why, terms, limit=1, strict=True)
            captured_now += self._search_online(why, r.title, searches)
        for q in st.questions:
            if q.status != "open":
                continue
            if q.query:
                got = take(f"question ({q.framework}): {q.text}", q.query, limit=1, strict=True)
                captured_now += got
                q.result = (f"captured {', '.join(got)}" if got else
                            "no further file in the corpus holds all its words")
            else:
                q.result = "answered from the sources already captured, or a check to make"
            q.status = "searched"
        x = self.extraction()
        for s in x.sources_to_capture:
            captured_now += take(f"cited by the sources: {s['designation']}", [s["query"]],
                                 limit=1, strict=True)
        st.signals["new_sources"] = len(captured_now)
        st.signals["requests_exhausted"] = self.requests_left() <= 0
        leads = self.case_dir / LEADS_DIR
        leads.mkdir(exist_ok=True)
        (leads / f"iteration-{it:02d}.md").write_text(  # a file's preview names no one
            mask_strict(leads_md(it, searches), self._lead_people(searches), st.topic),
            encoding="utf-8")
        self.goto(ph.EXTRACTION)

    def _unread(self, terms: list[str], names: frozenset[str]) -> None:
        """Every corpus file relevant to the question (`Corpus.relevant`) that is not yet
        read is a gap (`unread`), closed by the next iteration's capture: a cap on the
        captures of one iteration never leaves a relevant source silently unread."""
        st = self.state
        read = {s.path for s in st.sources}
        st.gaps = [g for g in st.gaps if g.kind != UNREAD] + [
            Gap.of(UNREAD, f"{h.path.name} is relevant to the question (score {h.score:g}; "
                   f"{', '.join(h.terms) or 'it names its subjects'}) and not yet captured",
                   ref=str(h.path.resolve()), since=st.current_iteration)
            for h in self.corpus.relevant(terms, names, bar=RELEVANT)
            if str(h.path.resolve()) not in read]

    # -- online sources and lead engines ---------------------------------------------------
    def online(self) -> OnlineSources:
        if self._online is None:  # on first use: an offline run never loads the network
            from sleuth.sources.fetcher import Fetcher
            from sleuth.sources.registry import load_registry

            self._online = OnlineSources(Fetcher(self.store, load_registry()))
        return self._online

    def _search_online(self, why: str, query: str, searches: list[dict[str, Any]]
                       ) -> list[str]:
        """Search each online source named by --sources for `query` (once per source and
        query); capture the first hits. A source that cannot be searched is a gap."""
        st, it = self.state, self.state.current_iteration
        done: list[str] = st.signals.setdefault("online_searched", [])
        got: list[str] = []
        for name in st.online:
            key = f"{name}|{query}"
            if name == CORPUS or not query.strip() or key in done or self.requests_left() <= 0:
                continue
            st.gaps = [g for g in st.gaps if not (g.kind == "source_unreachable"
                                                  and g.ref == name)]
            st.budget.requests_used += 1
            entry: dict[str, Any] = {"why": f"{why} — {name}", "terms": [query], "hits": [],
                                     "captured": []}
            searches.append(entry)
            try:
                leads = self.online().search(name, query)
            except SourceUnavailable as exc:
                entry["error"] = str(exc)
                st.gaps.append(Gap.of("source_unreachable", f"{name} could not be searched: "
                                      f"{exc}", ref=name, since=it))
                self.say(f"source unreachable: {exc}")
                continue
            done.append(key)
            entry["hits"] = [{"path": lead.url, "score": float(len(leads) - i),
                              "terms": [lead.title], "snippet": lead.snippet}
                             for i, lead in enumerate(leads)]
            for lead in leads[:ONLINE_CAPTURES]:
                if self.requests_left() <= 0:
                    break
                st.budget.requests_used += 1
                try:
                    res = self.online().open(lead)
                except SourceUnavailable as exc:
                    rec = record_failure(st, lead.url, str(exc), query=why, iteration=it)
                    self.say(f"capture failed: {rec.id} {exc}")
                    continue
                known = {s.id for s in st.sources}
                rec = capture_fetched(self.case_dir, st, res.snapshot, res.raw,
                                      title=f"{lead.title} ({name})", query=why, iteration=it)
                if rec.id not in known:
                    got.append(rec.id)
                    entry["captured"].append(rec.id)
                    self.say(f"captured {rec.id} {rec.title} ({rec.path})")
        return got

    def llm(self) -> tuple[LLMClient, list[str]] | None:
        """The run's model client (engines and the questions role share its meter) and
        the engines' role names; None when no model is configured."""
        if self._llm is False:
            b = self.state.budget
            left = None if b.max_model_cost is None else max(
                0.0, b.max_model_cost - b.model_cost_used)
            self._llm = engine_client(self.case_dir, max_cost=left)
            self._cost_base = b.model_cost_used
        return self._llm if isinstance(self._llm, tuple) else None

    def engines(self) -> LeadEngines | None:
        made = self.llm()
        if self._engines is None and made is not None and made[1]:
            self._engines = LeadEngines(*made)
        return self._engines

    def _ask_engines(self) -> EngineRound | None:
        """Ask the research engines (when configured) for leads on what is still open; the
        cost they spend is the run's model cost."""
        engines = self.engines()
        if engines is None:
            return None
        st, it = self.state, self.state.current_iteration
        b = st.budget
        folder = self.case_dir / LEADS_DIR
        done = working(self.case_dir, f"engines-iteration-{it:02d}.json")
        for path in (done, folder / done.name):  # the latter: a case from before .working/
            if path.is_file():  # asked before a kill: the answers stand, none asked again
                return EngineRound.from_json(json.loads(path.read_text(encoding="utf-8")))
        if b.max_model_cost is not None and b.model_cost_used >= b.max_model_cost:
            st.signals["cost_exhausted"] = True
            self.say(f"research engines not asked: the model cost budget is spent "
                     f"({b.model_cost_used:.4f} of {b.max_model_cost:g})")
            return None
        still = sorted({g.ref for g in st.gaps if g.kind == "unanswered" and g.ref})
        rnd = engines.research(st.topic, still)
        b.model_cost_used = round(self._cost_base + engines.client.meter.total_cost(), 6)
        st.signals["cost_exhausted"] = rnd.refused or (
            b.max_model_cost is not None and b.model_cost_used >= b.max_model_cost)
        self.say(f"research engines: {len(rnd.ranked)} leads from {len(rnd.leads)} of "
                 f"{len(engines.engines)} engines; model cost {b.model_cost_used:.4f}")
        folder.mkdir(exist_ok=True)
        (folder / f"engines-iteration-{it:02d}.md").write_text(round_md(it, rnd),
                                                              encoding="utf-8")
        write_json(done, rnd.to_json())
        self.save()  # the cost is spent: a kill from here on keeps it
        return rnd

    def extract(self) -> None:
        st = self.state
        before = self.extraction()
        old = before.facts() if before.iteration < st.current_iteration else set()
        titles = {r.title for r in st.captured()}
        x = merge(self.parts(), st.current_iteration, titles)
        facts = x.facts()
        novelty = len(facts - old) / len(facts) if facts else 0.0
        st.signals["novelty"] = round(novelty, 3)
        st.signals["saturation_claimed"] = st.current_iteration > 1 and novelty < 0.10
        st.people_count, st.entities_count = len(x.people), len(x.entities)
        write_json(working(self.case_dir, EXTRACTION_FILE), x.to_json())
        trigger = ph.questions_due(
            st.current_iteration, verification_passed=st.verification_passed,
            stuck=bool(st.signals.get("stuck")),
            saturation_claimed=bool(st.signals["saturation_claimed"]))
        st.signals["questions_trigger"] = list(trigger.reasons)
        self.say(f"{len(x.people)} people, {len(x.entities)} bodies, {len(x.events)} events, "
                 f"{len(x.statements)} statements; novelty {novelty:.0%}")
        self.goto(ph.after_extraction(trigger))

    def _ask(self, stages: tuple[str, ...], x: Extraction, reasons: list[str]) -> list[str]:
        st = self.state
        known = {q.id for q in st.questions}
        ctx = {"corpus_files": len(self.corpus.files), "topic": st.topic}
        new = []
        for stage in stages:
            qs = ask(ph.STAGE_FRAMEWORKS[stage], stage, x, ctx,
                     iteration=st.current_iteration, known=known)
            known |= {q.id for q in qs}
            new += qs
        model = self._ask_model(stages, x, new)
        new += model.questions if model else []
        st.questions += new
        st.questions_runs.append({"iteration": st.current_iteration, "stages": list(stages),
                                  "reasons": reasons, "new_questions": len(new),
                                  **({"model": model.record()} if model else {})})
        if model:
            self.say(f"model questions: {model.note()}")
            entry = next((e for e in st.log if e["iteration"] == st.current_iteration), None)
            if entry is not None:  # the finale's: synthesis wrote the iteration's entry
                entry.update(self._model_note())
        return [q.id for q in new]

    def _ask_model(self, stages: tuple[str, ...], x: Extraction, new: list[Question]
                   ) -> Asked | None:
        """The questions role's questions under the stages' frameworks (`asking`), with
        what they cost spent against the run's budget; None when the role is off."""
        made = self.llm()
        if made is None or QUESTIONS not in made[0].config.roles:
            return None
        st, b = self.state, self.state.budget
        plan: dict[str, str] = {}
        for stage in stages:
            for fw in ph.STAGE_FRAMEWORKS[stage]:
                plan.setdefault(fw, stage)
        privacy, asked = Privacy(self.protected(x), st.topic), [*st.questions, *new]
        got = ask_model(made[0], self.case_dir / LEADS_DIR, plan,
                        case_view(x, asked, st.gaps, privacy), vocabulary(x, privacy), asked,
                        privacy, st.current_iteration)
        charged: list[str] = st.signals.setdefault("model_questions_charged", [])
        if not got.error and got.key not in charged:  # a reply a killed run paid for counts
            self._cost_base += got.cost if got.cached else 0.0
            charged.append(got.key)
        b.model_cost_used = round(self._cost_base + made[0].meter.total_cost(), 6)
        return got

    def _model_note(self) -> dict[str, str]:
        """iterations.md's line on what the questions role gave this iteration."""
        runs = [r for r in self.state.questions_runs
                if r["iteration"] == self.state.current_iteration and "model" in r]
        return {"model questions": "; ".join(
            f"{', '.join(r['stages'])}: {r['model']['note']}" for r in runs)} if runs else {}

    def questions(self) -> None:
        st = self.state
        trigger = ph.questions_due(
            st.current_iteration, verification_passed=st.verification_passed,
            stuck=bool(st.signals.get("stuck")),
            saturation_claimed=bool(st.signals.get("saturation_claimed")))
        new = self._ask(trigger.stages, self.extraction(), list(trigger.reasons))
        self.say(f"/questions ({', '.join(trigger.reasons)}): {len(new)} new questions")
        self.goto(ph.INVESTIGATION)

    def investigate(self) -> None:
        x = self.extraction()
        v = self.view(x)
        self.write("people.md", people_md(v))
        self.write("organizations.md", organizations_md(v))
        self.write("timeline.md", timeline_md(v))
        self.write("statements.md", statements_md(v))
        self.write("theories.md", theories_md(v))
        self.write("questions.md", questions_md(self.state.questions, v.protected,
                                                self.state.topic))
        self.write("sources.md", sources_md(v))
        leads = self.case_dir / LEADS_DIR / f"iteration-{self.state.current_iteration:02d}.md"
        if leads.is_file():  # written before this iteration's extraction knew who is protected
            leads.write_text(mask_strict(leads.read_text(encoding="utf-8"), v.protected,
                                         self.state.topic), encoding="utf-8")
        self.goto(ph.VERIFICATION)

    def checkpoint(self) -> tuple[list[Statement], Outcome]:
        """Compose the statements and verify every one (the verification checkpoint)."""
        st = self.state
        snaps = self.snaps()
        composer = Composer(st.topic, self.extraction(), {r.id: r for r in st.captured()},
                            st.contested, st.revisions, set(st.withdrawn),
                            {sid: s.text for sid, s in snaps.items()})
        # an inquiry's papers name their body; without one, only what the sources report was
        # said stands of the inquiry composer's, and the question is read sentence by
        # sentence (`general`), as is one the inquiry composer finds nothing for; an
        # inquiry the question is not about (`relevance`) answers nothing of it
        statements = composer.compose()
        inquiry = bool(composer.extraction.committees) and about_inquiry(
            st.topic, composer.extraction, composer.subject_sources(), composer.texts)
        if not composer.extraction.committees:
            statements = [s for s in statements if s.kind == "reported"]
        elif not inquiry:
            statements = []
        if not statements or not inquiry:
            general = GeneralComposer(st.topic, asks_of(st.topic), composer.sources, snaps,
                                      st.contested, set(st.withdrawn)).compose()
            statements += [g for g in general if not any(
                s.source_id == g.source_id and s.start < g.end and g.start < s.end
                for s in statements)]
        out = verify_all(statements, snaps, {r.id: r for r in st.captured()}, self.case_dir,
                         asks_of(st.topic), iteration=st.current_iteration,
                         contested=st.contested)
        self._withheld_unanswered(statements, out)
        verified = {k for k, c in out.checks.items() if c.verdict == VERIFIED}
        if out.answered.get("who") and inquiry and (
                missing := composer.unstated(statements, verified)):
            out.answered["who"] = False  # people.md names them in a role the summary omits
            out.gaps.append(Gap.of("unanswered", "the sources name " + ", ".join(missing)
                                   + " in a role of the inquiry, which no verified statement "
                                   "of who sat on it states", ref="who",
                                   since=st.current_iteration))
        kept = [g for g in st.gaps if g.kind in ("capture_failed", "bad_input",
                                                 "source_unreachable", UNREAD)]
        st.gaps = kept + out.gaps
        for k, v in out.contested.items():
            st.contested[k] = sorted(set(st.contested.get(k, [])) | set(v))
        st.revisions.update(out.revisions)
        st.withdrawn = sorted(set(st.withdrawn) | out.withdraw)
        st.withdrawals += [{"id": s.id, "text": s.text, "claim": s.claim, "source": s.source_id,
                            "rationale": out.checks[s.id].rationale,
                            "iteration": st.current_iteration}
                           for s in statements if s.id in out.withdraw and s.id in out.checks
                           and all(w["id"] != s.id for w in st.withdrawals)]  # fmt: skip
        st.verification_passed = out.passed
        st.last_verification = now()
        st.verification = {"iteration": st.current_iteration,
                           "statements": [s.to_json() for s in statements],
                           "checks": {k: c.to_json() for k, c in out.checks.items()},
                           "answered": out.answered}
        return statements, out

    def _withheld_unanswered(self, statements: list[Statement], out: Outcome) -> None:
        """A part of the question answered only by statements the summary must withhold (they
        name a living private person) is not answered: a gap, never an empty summary that
        passes."""
        prot = self.protected(self.extraction())
        withheld = {s.id for s in statements
                    if names_protected(s.text, prot) or names_protected(s.quote, prot)}
        if not withheld:
            return
        shown = {k for k, c in out.checks.items() if c.verdict == VERIFIED} - withheld
        now_answered = answered(asks_of(self.state.topic), statements, shown)
        for ask_, ok in now_answered.items():
            if not ok and out.answered.get(ask_):
                out.gaps.append(Gap.of("unanswered", f"the statements that answer the "
                                       f"question's “{ask_}” name a living private person and "
                                       "are withheld", ref=ask_,
                                       since=self.state.current_iteration))
        out.answered = now_answered

    def verify(self) -> None:
        statements, out = self.checkpoint()
        counts: dict[str, int] = {}
        for c in out.checks.values():
            counts[c.verdict] = counts.get(c.verdict, 0) + 1
        self.say(f"{len(statements)} statements: " + ", ".join(
            f"{n} {k}" for k, n in sorted(counts.items())) + f"; {len(self.state.gaps)} gaps")
        self.goto(ph.SYNTHESIS)

    def _last(self) -> tuple[list[Statement], dict[str, Check]]:
        ver = self.state.verification
        return ([Statement.from_json(s) for s in ver.get("statements", [])],
                {k: Check.from_json(c) for k, c in ver.get("checks", {}).items()})

    def _render(self) -> View:
        statements, checks = self._last()
        v = self.view(self.extraction(), statements, checks)
        self.write("summary.md", summary(v))
        self.write("fact-check.md", fact_check_md(v))
        self.write("timeline.md", timeline_md(v))  # the reports the summary now uses
        self.write("people.md", people_md(v))  # and the people its quotes name
        self.write("theories.md", theories_md(v))
        self.write("sources.md", sources_md(v))
        self.write("questions.md", questions_md(self.state.questions, v.protected,
                                                self.state.topic))
        return v

    def synthesize(self) -> bool:
        """Rewrite the summary; the termination check. False: the run stops here."""
        st = self.state
        v = self._render()
        gaps = st.gaps
        clear = any(g.kind in ("unverified", "contradicted", "no_evidence", UNREAD)
                    for g in gaps) or (
            any(g.kind == "unanswered" for g in gaps)
            and (st.signals.get("new_sources", 0) > 0
                 or any(q.status == "open" and q.query for q in st.questions)))
        st.signals["stuck"] = not st.verification_passed and not clear
        nxt = ph.after_synthesis(passed=st.verification_passed, gaps=len(gaps))
        shown = v.summary_statements()
        self._log({"sources captured": len(st.captured()),
                   "new sources": st.signals.get("new_sources", 0),
                   "questions asked": sum(1 for q in st.questions
                                          if q.asked_in == st.current_iteration),
                   "statements": len(v.statements), "verified in summary": len(shown),
                   "gaps": len(gaps), "novelty": st.signals.get("novelty"),
                   "verification passed": st.verification_passed, "next": nxt,
                   **self._model_note()})
        if nxt == ph.FINALE:
            st.current_phase = ph.check(ph.SYNTHESIS, ph.FINALE)
            st.finale_step = ph.F_QUESTIONS
            st.finale_passes = 0
            self.write("iterations.md", iterations_md(st))
            self.save()
            return True
        return self._next_iteration(ph.SYNTHESIS, f"{len(gaps)} gaps remain"
                                    if gaps else "verification did not pass",
                                    stalled=self._stalled(v.statements))

    def _stalled(self, statements: list[Statement]) -> bool:
        """The iteration made no progress and no search is left (`stall`): /questions runs
        with the stuck frameworks first; the run stops only when they find nothing new."""
        st = self.state
        before = st.signals.get(stall.MARKS)
        marks = stall.marks(statements, st.gaps)
        moved = stall.progressed(st, marks)
        st.signals[stall.MARKS] = marks
        if moved or stall.retry_pending(st, before):
            return False
        new = self._ask((ph.STUCK,), self.extraction(), [
            "stuck: the iteration captured no source, stated nothing new and closed no gap"])
        self.say(f"/questions (stuck): {len(new)} new questions")
        left = [q for q in st.questions if q.status == "open" and q.query
                and self._finds_new(q.query)]
        for q in st.questions:
            if q.status == "open" and q not in left:
                q.status = "searched"
                q.result = q.result or ("no file in the corpus not yet captured holds all its "
                                        "words" if q.query else "a check to make")
        self.write("questions.md", questions_md(st.questions, self.protected(self.extraction()),
                                                st.topic))
        if left:
            return False
        st.signals[stall.CORPUS_AT_STALL] = stall.corpus_listing(st.corpus)
        return True

    def _finds_new(self, query: list[str]) -> str:
        """The corpus file not yet captured that holds every word of `query` ("" if none):
        what the research phase would capture for a question with that search."""
        hits = [h for h in self.corpus.search(query, limit=8) if len(h.terms) == len(query)
                and all(s.path != str(h.path.resolve()) for s in self.state.sources)]
        return hits[0].path.name if hits else ""

    def _log(self, entry: dict[str, Any]) -> None:
        it = self.state.current_iteration
        self.state.log = [e for e in self.state.log if e["iteration"] != it]
        self.state.log.append({"iteration": it, **entry})

    def _commit(self, headline: str) -> None:
        """The iteration's commit: the censored views first (`publish`), then the commit,
        its message masked as they are."""
        st = self.state
        x = self.extraction()
        shared = publish(self.case_dir, st, x, self.protected(x), self.snaps())
        entry = next((e for e in st.log if e["iteration"] == st.current_iteration), {})
        body = "\n".join(f"{k}: {v}" for k, v in entry.items() if k != "iteration")
        summ = (self.case_dir / "summary.md").read_text(encoding="utf-8")
        message = f"Iteration {st.current_iteration}: {headline}\n\n{body}\n\n{summ}"
        commit_iteration(self.case_dir, st.current_iteration, shared(message))

    def _next_iteration(self, frm: str, why: str, *, stalled: bool = False) -> bool:
        """End the iteration (commit) and start the next, unless a budget stops it or it
        stalled (a budget is named first: it holds whatever the gaps)."""
        st = self.state
        stop = None
        if st.current_iteration >= st.budget.max_iterations:
            stop = (BUDGET_ITERATIONS, f"{st.budget.max_iterations} iterations run; "
                    f"{len(st.gaps)} gaps open, verification "
                    f"{'passed' if st.verification_passed else 'not passed'}")
        elif st.signals.get("requests_exhausted"):
            stop = (BUDGET_REQUESTS, f"{st.budget.requests_used} of {st.budget.max_requests} "
                    f"requests used; {len(st.gaps)} gaps open")
        elif st.signals.get("cost_exhausted"):
            stop = (BUDGET_COST, f"model cost {st.budget.model_cost_used:g} of "
                    f"{st.budget.max_model_cost:g} spent; {len(st.gaps)} gaps open")
        elif stalled:
            stop = (STALLED, stall.detail(st))
        if stop:
            st.status, st.termination = PAUSED, {"reason": stop[0], "detail": stop[1],
                                                 "gaps": [g.text for g in st.gaps],
                                                 "at": now()}
            self.write("iterations.md", iterations_md(st))
            self.save()
            self._commit(f"stopped by {stop[0]}")
            self.say(f"stopped: {stop[0]} ({stop[1]})")
            return False
        self.write("iterations.md", iterations_md(st))
        self.save()
        self._commit(why)
        if frm == ph.SYNTHESIS:
            ph.check(ph.SYNTHESIS, ph.RESEARCH)
        st.current_iteration += 1
        st.current_phase, st.finale_step = ph.RESEARCH, ""
        self.save()
        return True

    # -- the finale -------------------------------------------------------------------------
    def finale(self) -> bool:
        st = self.state
        step = st.finale_step or ph.F_QUESTIONS
        if st.finale_passes >= MAX_FINALE_PASSES:
            return self._back("the finale did not settle", step)
        if step == ph.F_QUESTIONS:
            new = self._ask((ph.LATE,), self.extraction(), ["finale: late questions"])
            critical = []
            for q in st.questions:
                if q.id in new and q.query:
                    if found := self._finds_new(q.query):
                        critical.append(q.text)
                        q.result = f"critical: {found} is not yet captured"
                        q.status = "open"
                    else:
                        q.status, q.result = "searched", "no further file in the corpus"
                elif q.id in new:
                    q.status, q.result = "searched", "a check the finale makes"
            earlier = self._unresearched(set(new))
            self.say(f"late /questions: {len(new)} new, {len(critical)} critical" + (
                f"; {len(earlier)} earlier questions lead to files not yet read"
                if earlier else ""))
            if critical:
                return self._back(f"critical new questions: {critical[0]}", step)
            if earlier:
                return self._back(f"questions not yet researched: {earlier[0]}", step)
            return self._step(step, ph.F_VERIFY)
        if step == ph.F_VERIFY:
            _, out = self.checkpoint()
            self._render()
            if not out.passed or st.gaps:
                return self._back("the finale's verification failed", step)
            return self._step(step, ph.F_INTEGRITY)
        v = self._render()
        text = (self.case_dir / "summary.md").read_text(encoding="utf-8")
        if step == ph.F_INTEGRITY:
            issues = integrity(v, text)
            self.write("integrity-check.md", report_md("Integrity check", issues,
                                                       st.finale_passes + 1,
                                                       "no issues: every sentence footnoted "
                                                       "and verified"))
            if any(i.severity == "MAJOR" for i in issues):
                st.finale_passes += 1
                return self._step(step, ph.F_VERIFY)
            return self._step(step, ph.F_LEGAL)
        issues = legal(v)
        self.write("legal-review.md", report_md("Legal review", issues, st.finale_passes + 1,
                                                "no risks: no living private person is named"))
        if any(i.severity == "HIGH" for i in issues):
            st.finale_passes += 1
            return self._step(step, ph.F_VERIFY)
        ph.check_finale(step, ph.COMPLETE)
        st.current_phase = ph.check(ph.FINALE, ph.COMPLETE)
        st.finale_step = ""
        st.status = COMPLETE
        st.termination = {"reason": DONE, "detail": "verification passed and no gaps remain; "
                          "integrity and legal review clear", "gaps": [], "at": now()}
        self._log({**next((e for e in st.log if e["iteration"] == st.current_iteration), {}),
                   "finale": "complete"})
        self.write("iterations.md", iterations_md(st))
        self.save()
        self._commit("complete: verification passed, no gaps")
        self.say("complete: verification passed and no gaps remain")
        return False

    def _unresearched(self, late: set[str]) -> list[str]:
        """The texts of the open questions asked before the finale (`late`: its own) whose
        search finds a file not yet read; they stay open for the research phase. The rest
        get what became of them: the run completes with every question researched, also
        when iteration 1 goes straight from /questions to the finale (seed 003: QUESTIONS
        → INVESTIGATION researches them)."""
        out: list[str] = []
        for q in self.state.questions:
            if q.status != "open" or q.id in late:
                continue
            if q.query and (found := self._finds_new(q.query)):
                out.append(q.text)
                q.result = f"{found} is not yet captured"
            else:
                q.status = "searched"
                q.result = ("no further file in the corpus holds all its words" if q.query
                            else "answered from the sources already captured, or a check "
                            "to make")
        return out

    def _step(self, src: str, dst: str) -> bool:
        self.state.finale_step = ph.check_finale(src, dst)
        self.save()
        return True

    def _back(self, why: str, step: str) -> bool:
        if step in (ph.F_QUESTIONS, ph.F_VERIFY):
            ph.check_finale(step, ph.RESEARCH)
        ph.check(ph.FINALE, ph.RESEARCH)
        self._log({**next((e for e in self.state.log
                           if e["iteration"] == self.state.current_iteration), {}),
                   "finale": f"back to RESEARCH: {why}"})
        return self._next_iteration(ph.FINALE, f"finale: {why}")

    # -- the driver -------------------------------------------------------------------------
    def loop(self) -> CaseState:
        steps = {ph.SETUP: self.setup, ph.RESEARCH: self.research, ph.EXTRACTION: self.extract,
                 ph.QUESTIONS: self.questions, ph.INVESTIGATION: self.investigate,
                 ph.VERIFICATION: self.verify}
        while self.state.status not in (COMPLETE, ERROR):
            phase = self.state.current_phase
            if phase in steps:
                steps[phase]()
            elif phase == ph.SYNTHESIS:
                if not self.synthesize():
                    break
            elif phase == ph.FINALE:
                if not self.finale():
                    break
            else:
                break
        return self.state


def start(question: str, case_dir: Path, corpus: Path | None, *,
          budget: Budget | None = None, sources: str | None = None,
          progress: Progress = lambda _: None) -> CaseState:
    """A new investigation in `case_dir` (created), run until it stops. `sources`: the
    --sources list (online plugins and "corpus"); None: the corpus alone, offline."""
    online = parse_sources(sources)
    engine_configs()  # a misconfigured research engine refuses the command before it starts
    questions_config()  # as does a misconfigured questions role
    refused = _refused_start(case_dir)  # a start refused for bad input: its folder is reused
    if is_investigation(case_dir) and not refused:
        raise InputError("already an investigation; continue it with `sleuth resume "
                         f"{case_dir}`", file=str(case_dir))
    if (not refused and case_dir.exists() and any(case_dir.iterdir())
            and not unstarted(case_dir)):  # a start killed before it wrote its state: again
        raise InputError("the folder exists and is not empty; give a new folder to --out",
                         file=str(case_dir))
    if corpus is None and (not online or CORPUS in online):
        raise InputError("give --corpus DIR: the local sources an offline investigation "
                         "reads (or name online sources with --sources)", field="--corpus")
    if corpus is not None and not corpus.is_dir():
        raise InputError("the corpus folder does not exist or is not a folder",
                         file=str(corpus))
    topic = " ".join(question.split())
    state = CaseState(case_id=case_dir.name, topic=topic,
                      corpus=str(corpus.resolve()) if corpus else "",
                      online=online, budget=budget or Budget())
    if not topic:
        state.status = ERROR
        state.gaps.append(Gap.of("bad_input", "the question is empty", ref="question"))
    record(case_dir, state)  # first: from here on a kill leaves a case `resume` continues
    store = open_store(case_dir)
    try:
        init_repo(case_dir)
        if not topic:
            view_state(case_dir, state)  # the file the message names; nothing is committed
            raise InputError("the question is empty: nothing to investigate (recorded as a "
                             f"gap in {case_dir / STATE_FILE}, not committed; give a question "
                             "with the same --out to start there)", field="QUESTION")
        with case_lock(case_dir, "investigate", store.engine):
            return _drive(Run(case_dir, state, store, shown(progress)))
    finally:
        store.close()


def _refused_start(case_dir: Path) -> bool:
    """Whether the folder holds only a start refused for bad input (an empty question):
    nothing captured, nothing run, so `sleuth investigate` may start there again."""
    if not is_investigation(case_dir):
        return False
    state = load_state(case_dir)
    return (state.status == ERROR and state.current_iteration == 0 and not state.sources
            and bool(state.gaps) and all(g.kind == "bad_input" for g in state.gaps))


def shown(progress: Progress) -> ShownLines:
    """`progress` as the run prints through it: masked (`ShownLines`)."""
    return progress if isinstance(progress, ShownLines) else ShownLines(progress)


def _drive(run: Run) -> CaseState:
    try:
        state = run.loop()
        run.learn()  # what the caller prints next (its report) is masked as the run's lines
        return state
    finally:
        run.close()


def resume(case_dir: Path, *, max_iterations: int | None = None,
           max_requests: int | None = None, max_cost: float | None = None,
           progress: Progress = lambda _: None) -> CaseState:
    """Continue an investigation from the phase its state names (after a kill, or with a
    larger budget after a budget stopped it)."""
    state = load_state(case_dir)
    if state.status == ERROR:
        raise InputError("this investigation cannot continue: " + "; ".join(
            g.text for g in state.gaps if g.kind == "bad_input") + "; start it again in this "
            f"folder: sleuth investigate \"QUESTION\" --out {case_dir} --corpus DIR",
            file=str(case_dir))
    store = open_store(case_dir)  # made here when the start was killed before it made it
    try:
        init_repo(case_dir)  # a case from before .working/ was ignored gets the line
        with case_lock(case_dir, "resume", store.engine):
            state = load_state(case_dir)  # as the lock holder sees it
            run = Run(case_dir, state, store, shown(progress))
            run.learn()  # what is printed from here on is masked as the run's own lines
            if state.status == COMPLETE:
                return state
            grown = False
            if max_iterations is not None and max_iterations > state.budget.max_iterations:
                state.budget.max_iterations, grown = max_iterations, True
            if max_requests is not None and max_requests > state.budget.max_requests:
                state.budget.max_requests, grown = max_requests, True
                state.signals["requests_exhausted"] = False
            cap = state.budget.max_model_cost
            if max_cost is not None and (cap is None or max_cost > cap):
                state.budget.max_model_cost = max_cost  # a first cap, or a larger one
                grown = grown or cap is not None
                state.signals["cost_exhausted"] = False
            if state.status == PAUSED:
                reason = (state.termination or {}).get("reason", "a budget")
                if reason == STALLED and not stall.changed_since_stall(state):
                    run.progress("stalled, and nothing it reads has changed since (the "
                                 "corpus folder holds the same files, byte for byte): a resume "
                                 "would repeat the last iteration. What would unblock it:")
                    for line in stall.unblock(state):
                        run.progress(f"  - {line}")
                    return state
                if reason != STALLED and not grown:
                    run.progress(f"stopped by {reason}; give a larger --max-iterations, "
                                 "--max-requests or --max-cost to continue")
                    return state
                state.status, state.termination = "IN_PROGRESS", None
                state.current_iteration += 1
                state.current_phase, state.finale_step = ph.RESEARCH, ""
            save_state(case_dir, state)
            return _drive(run)
    finally:
        store.close()
