"""The four LLM roles of seed 000 §3/§5, each a plain class with explicit inputs.

Every role returns a validated, firewalled result, or None when the LLM is off, refused by
a limit, unavailable or unable to produce its contract: the deterministic component is the
default and the fallback, so None always means "carry on without the model". Each call
writes one research-log entry (`llm_<role>`, usage and counts) and one `llm_rejected` entry
per refused claim, naming the firewall check that caught it.

A hosted endpoint (`sleuth.llm.outbound`) is an output path: what it is sent is scrubbed of
PII first, and a record the Censor would treat as about a possibly living person is not sent
at all unless the user opted in (`send_living`): the role logs `llm_skipped` and returns
None. Each role method takes `living`: None (default) lets the role judge from its inputs
with the Censor's decision function; True / False is the caller's own verdict from the case
graph (the Censor's `assess_living`), which knows more than one call's inputs.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from pydantic import BaseModel

from sleuth.llm.client import LLMClient
from sleuth.llm.contracts import (
    ConflictOutput,
    EvidenceRank,
    FeatureScore,
    PlannedAction,
    PlannerOutput,
    ResolverOutput,
    RevisitRecommendation,
    VerifierOutput,
)
from sleuth.llm.errors import CallLimitExceeded, LLMError, LLMNotConfigured, LLMSchemaError
from sleuth.llm.guard import (
    HYPOTHESIS_METHOD,
    LLM_METHOD,
    Gate,
    Rejection,
    build_candidate,
    firewall,
    same_value,
    targets_ungrounded,
    urls_ungrounded,
    years_ungrounded,
)
from sleuth.llm.outbound import (
    candidates_graph,
    claims_graph,
    endpoint_is_local,
    living_reasons,
    person_records,
    records_graph,
)
from sleuth.llm.prompts import messages
from sleuth.model import REVISIT_REASONS, Agent, Candidate, Hypothesis, LogEntry, Snapshot
from sleuth.model.graph import CaseGraph
from sleuth.privacy.outbound import Withheld, clear_prompt
from sleuth.verify import Source
from sleuth.verify.normalise import fold

T = TypeVar("T", bound=BaseModel)
LogSink = Callable[[LogEntry], None]
Living = Callable[[], list[str]]  # the reasons some input person may be living (lazy)
CALLER_SAYS_LIVING = "the case's Censor treats a person in this record as possibly living"
AGENTS = {"planner": Agent.LEAD, "verifier": Agent.VALIDATOR, "resolver": Agent.ANALYST,
          "analyst": Agent.ANALYST}
MAX_TEXT = 24_000  # characters of snapshot text sent (the firewall still checks all of it)
MERGE_CONFIDENCE = 0.9  # below this a "merge" recommendation becomes "review" (§5.3 rule 4)


def store_sink(store: Any, conn: Any) -> LogSink:
    """Log into the case's research log inside the caller's transaction."""
    return lambda entry: store.log(conn, entry)


class _Role:
    name = ""
    contract: type[BaseModel] = BaseModel

    def __init__(self, client: LLMClient | None, log: LogSink | None = None) -> None:
        self.client = client
        self.log = log

    def _emit(self, action: str, rationale: str, context: dict[str, Any]) -> None:
        if self.log is not None:
            self.log(LogEntry(agent=AGENTS[self.name], action_type=action, rationale=rationale,
                              context={"role": self.name, **context}))

    def _ask(self, payload: dict[str, Any], data: dict[str, str] | None,
             context: dict[str, Any], living: Living | None = None) -> Any:
        """The contract object, or None (logged) when the model cannot be used or may not
        be sent this record (a hosted endpoint and a possibly living person)."""
        if self.client is None or not self.client.enabled(self.name):
            return None
        cfg = self.client.config.role(self.name)
        prompt = clear_prompt(lambda p, d: messages(self.name, self.contract, p, d),
                              payload, data, hosted=not endpoint_is_local(cfg),
                              send_living=cfg.send_living, living=living)
        if isinstance(prompt, Withheld):
            why = prompt.reasons
            self._emit("llm_skipped", f"not sent to the hosted endpoint {cfg.host}: "
                       f"{len(why)} possibly living person(s) ({why[0]}); the "
                       "deterministic reading stands (send_living = true sends it)",
                       {**context, "reason": "living", "living": len(why), "host": cfg.host})
            return None
        try:
            out = self.client.structured(
                self.name, prompt, self.contract,
                on_event=lambda a, c: self._emit(a, str(c.get("reason", "")), {**context, **c}))
        except LLMSchemaError as exc:
            self._emit("llm_schema_rejected", str(exc), {**context, "reply": exc.raw[:500]})
            return None
        except CallLimitExceeded:
            raise  # exit behaviour "error": the caller decides
        except LLMNotConfigured:
            return None
        except LLMError as exc:
            self._emit("llm_unavailable", str(exc), context)
            return None
        if out is None:
            self._emit("llm_refused", self.client.meter.stop_reason() or "call limit reached",
                       context)
        return out

    @staticmethod
    def _living(said: bool | None, graph: Callable[[], CaseGraph]) -> Living:
        """The caller's verdict when given, else the Censor's over the role's inputs."""
        if said is not None:
            return lambda: [CALLER_SAYS_LIVING] if said else []
        return lambda: living_reasons(graph())

    def _finish(self, gate: Gate, context: dict[str, Any], summary: str,
                counts: dict[str, Any]) -> None:
        for r in gate.rejections:
            self._emit("llm_rejected", str(r), {**context, "check": r.check, "field": r.field,
                                                "value": r.value, "candidate_id": r.candidate_id})
        last = self.client.last if self.client else None
        usage = ({"model": last.model, "input_tokens": last.input_tokens,
                  "output_tokens": last.output_tokens, "cost": round(last.cost, 6),
                  "latency_s": round(last.latency_s, 3), "repaired": last.repaired}
                 if last else {})
        self._emit(f"llm_{self.name}", summary, {**context, **counts, **usage,
                                                  "rejected": len(gate.rejections)})


# -- verifier -------------------------------------------------------------------------------
@dataclass
class VerifyResult:
    candidates: list[Candidate]  # new facts and hypotheses that passed: stage them
    confirmed: list[str]  # ids of input candidates the model verified with a grounded snippet
    disputed: list[str]  # ids of input candidates the model could not find or contests
    hypotheses: list[Hypothesis]
    rejected: list[Rejection]
    flags: list[str] = field(default_factory=list)  # the model's own hallucination_flags


class Verifier(_Role):
    """Checks a snapshot's deterministic extractions and proposes hypotheses (Tier-2+)."""

    name = "verifier"
    contract = VerifierOutput

    def verify(self, snap: Snapshot, candidates: Sequence[Candidate], *,
               living: bool | None = None) -> VerifyResult | None:
        ctx = {"snapshot_id": snap.id}
        # Extracted values and excerpts are crawled text too: they travel fenced, as data.
        extracted = {
            "extracted_fields": [{"id": c.id, "subject_name": c.subject_name, "field": c.field,
                                  "value": c.value, "is_fact": c.is_fact} for c in candidates],
            "existing_citations": [{"field": c.field, "snippet": c.citation.excerpt}
                                   for c in candidates if c.citation is not None],
        }
        data = {"extracted fields and citations (JSON)": json.dumps(extracted,
                                                                     ensure_ascii=False),
                "raw_text": snap.text[:MAX_TEXT]}
        out: VerifierOutput | None = self._ask(
            {"url": snap.url}, data, ctx,
            self._living(living, lambda: candidates_graph(candidates)))
        if out is None:
            return None
        gate = Gate(self.name)
        source = Source.of_snapshot(snap)  # its normalised index, built once
        subjects = {fold(c.subject_name): c.subject for c in candidates if c.subject_name}
        names = {c.subject: c.subject_name for c in candidates}
        new: list[Candidate] = []
        checks: list[tuple[Candidate, str]] = []  # (the model's version, the base id)
        disputed: list[str] = []
        for r in out.verification_results:
            base = next((c for c in candidates if c.field == r.field
                         and same_value(c.value, r.value) and (r.subject_name is None or fold(
                             r.subject_name) == fold(c.subject_name or ""))), None)
            if r.status in ("Unverified", "Not Found") or (r.status == "Conflicting" and base):
                if base is not None:
                    disputed.append(base.id)
                continue
            sname = r.subject_name or (base.subject_name if base else None)
            subject = base.subject if base else subjects.get(fold(sname or ""), "")
            if not subject:
                subject = f"llm{len(subjects) + 1}"
                subjects[fold(sname or "")] = subject
            cand = build_candidate(snap, subject=subject, subject_name=sname, fld=r.field,
                                   value=r.value, snippet=r.citation_snippet,
                                   confidence=r.confidence, rationale=r.rationale,
                                   is_fact=True, method=LLM_METHOD, base=base,
                                   source=source)
            if base is not None:
                checks.append((cand, base.id))
            else:
                new.append(cand)
        hyps: list[tuple[Candidate, list[str], str]] = []
        for h in out.hypotheses:
            subject = next((s for s, n in names.items() if n and fold(n) in fold(h.text)),
                           candidates[0].subject if candidates else "llm")
            snippet = h.evidence_hint if h.evidence_hint and fold(h.evidence_hint) in fold(
                snap.text) else None
            why = f"{h.type}: {h.evidence_hint}".strip(": ")
            if h.suggested_queries:
                why += f" (queries: {'; '.join(h.suggested_queries)})"
            cand = build_candidate(snap, subject=subject, subject_name=names.get(subject),
                                   fld="hypothesis", value=h.text, snippet=snippet,
                                   confidence=h.priority, rationale=why, is_fact=h.is_fact,
                                   method=HYPOTHESIS_METHOD, source=source)
            hyps.append((cand, h.suggested_queries, h.type))
            new.append(cand)
        checked = firewall([c for c, _ in checks] + new, snap, gate, source)
        ok = {c.id for c in checked.passed}
        confirmed = [bid for c, bid in checks if c.id in ok]
        passed_new = [c for c in checked.passed if c.id in {n.id for n in new}]
        hypotheses = [Hypothesis(hypothesis_type=kind, statement=c.value,
                                 suggested_queries=list(qs), priority=c.confidence,
                                 evidence=[c.citation] if c.citation else [])
                      for c, qs, kind in hyps if c.id in ok]
        facts = sum(c.is_fact for c in passed_new)
        self._finish(gate, ctx, f"{len(confirmed)} confirmed, {facts} new facts, "
                     f"{len(hypotheses)} hypotheses, {len(gate.rejections)} refused by the "
                     "firewall", {"confirmed": len(confirmed), "new": facts,
                                  "hypotheses": len(hypotheses), "disputed": len(disputed),
                                  "flags": out.hallucination_flags[:20]})
        return VerifyResult(passed_new, confirmed, disputed, hypotheses, gate.rejections,
                            list(out.hallucination_flags))


# -- planner --------------------------------------------------------------------------------
@dataclass
class PlanResult:
    next_actions: list[PlannedAction]
    query_expansions: list[str]
    revisits: list[RevisitRecommendation]
    should_stop: bool
    stop_reason: str | None
    reasoning: str
    rejected: list[Rejection]


class Planner(_Role):
    """Proposes next actions, query expansions and revisits; the Lead still applies the
    NoveltyGuard, the budget and the source gates to everything proposed."""

    name = "planner"
    contract = PlannerOutput

    def plan(self, current_state: Mapping[str, Any], *, sources: Sequence[Mapping[str, Any]],
             recent_discoveries: Sequence[str] = (), pending_clues: Sequence[str] = (),
             targets: Sequence[str] = (), stop_conditions: Mapping[str, Any] | None = None,
             living: bool | None = None, grounding: Sequence[str] = ()) -> PlanResult | None:
        """`grounding`: names, places and ids the case holds beyond what the model is shown
        (never sent): a proposed query may aim at them too, and at nothing else."""
        payload = {"current_state": dict(current_state), "sources": [dict(s) for s in sources],
                   "known_targets": list(targets),
                   "allowed_revisit_reasons": list(REVISIT_REASONS),
                   "stop_conditions": dict(stop_conditions or {})}
        data = {"recent discoveries and pending clues (JSON)": json.dumps(
            {"recent_discoveries": list(recent_discoveries),
             "pending_clues": list(pending_clues)}, ensure_ascii=False, indent=1)}
        out: PlannerOutput | None = self._ask(
            payload, data, {},
            self._living(living, lambda: records_graph(person_records(payload))))
        if out is None:
            return None
        known = json.dumps(payload, ensure_ascii=False, default=str) + data[next(iter(data))]
        ids = {str(s.get("id")) for s in sources} | set(targets)
        gate = Gate(self.name)
        # A query's targets must be in the case or the seed (issue 26): a search for a name
        # or place the model made up would spend requests on nothing.
        grounded = _Grounding(known + "\n" + "\n".join(grounding), [*targets, *grounding])
        actions = [a for a in out.next_actions if self._action_ok(a, ids, known, gate)
                   and grounded(gate, "next_actions", a.query)]
        expansions = [q for q in _urls_grounded(gate, "query_expansions",
                                                out.query_expansions, known)
                      if grounded(gate, "query_expansions", q)]
        revisits = []
        for r in out.revisit_schedule:
            if r.reason not in REVISIT_REASONS:
                gate.reject("revisit_reason", "revisit_schedule", r.reason,
                            "not one of the allowed revisit reasons")
            elif r.source_id not in ids:
                gate.reject("no_invented_targets", "revisit_schedule", r.source_id,
                            "source id not given in the input")
            elif bad := urls_ungrounded(r.improved_query, known):
                gate.reject("no_fabricated_urls", "revisit_schedule", r.improved_query,
                            f"URL {bad[0]!r}")
            elif grounded(gate, "revisit_schedule", r.improved_query):
                revisits.append(r)
        self._finish(gate, {}, f"{len(actions)} actions, {len(expansions)} expansions, "
                     f"{len(revisits)} revisits", {"should_stop": out.should_stop})
        return PlanResult(actions, expansions, revisits, out.should_stop, out.stop_reason,
                          out.reasoning, gate.rejections)

    @staticmethod
    def _action_ok(a: PlannedAction, ids: set[str], known: str, gate: Gate) -> bool:
        if not 0.0 <= a.priority <= 1.0:
            gate.reject("confidence_bounds", "next_actions", str(a.priority),
                        "priority outside [0, 1]")
            return False
        if a.target and a.target not in ids and not (a.target.startswith(("http://",
                                                                          "https://"))
                                                     and a.target in known):
            gate.reject("no_invented_targets", "next_actions", a.target,
                        "target not given in the input")
            return False
        if bad := urls_ungrounded(f"{a.query} {a.target}", known):
            gate.reject("no_fabricated_urls", "next_actions", a.query, f"URL {bad[0]!r}")
            return False
        return True


# -- entity resolver ------------------------------------------------------------------------
@dataclass
class ResolverVerdict:
    recommendation: str  # merge | review | separate (an uncertain "merge" becomes "review")
    similarity_score: float
    confidence: float
    feature_scores: dict[str, FeatureScore]
    merge_rationale: str
    why_not_merge: str
    rejected: list[Rejection]


class Resolver(_Role):
    """Judges one pair the deterministic resolver sent to review. Advice only: a merge
    still goes through `sleuth.resolve` (reversible) and, by default, a human."""

    name = "resolver"
    contract = ResolverOutput

    def judge(self, person_a: Mapping[str, Any], person_b: Mapping[str, Any],
              features: Mapping[str, Any], *, shared_assertions: Sequence[Any] = (),
              conflicting_assertions: Sequence[Any] = (), living: bool | None = None
              ) -> ResolverVerdict | None:
        payload = {"person_a": dict(person_a), "person_b": dict(person_b),
                   "features": dict(features), "shared_assertions": list(shared_assertions),
                   "conflicting_assertions": list(conflicting_assertions)}
        ctx = {"pair": [str(person_a.get("id", "")), str(person_b.get("id", ""))]}
        out: ResolverOutput | None = self._ask(
            payload, None, ctx,
            self._living(living, lambda: records_graph([person_a, person_b])))
        if out is None:
            return None
        known = json.dumps(payload, ensure_ascii=False, default=str)
        gate = Gate(self.name)
        for name, v in (("similarity_score", out.similarity_score),
                        ("confidence", out.confidence),
                        *((f"feature_scores.{k}", f.score) for k, f in
                          out.feature_scores.items())):
            if not 0.0 <= v <= 1.0:
                gate.reject("confidence_bounds", name, str(v), "outside [0, 1]")
        for k in out.feature_scores:
            if k not in features:
                gate.reject("no_invented_features", f"feature_scores.{k}", k,
                            "feature not given in the input")
        if not out.why_not_merge.strip():
            gate.reject("why_not_merge_required", "why_not_merge", "",
                        "every verdict must say why NOT merge")
        prose = " ".join([out.merge_rationale, out.why_not_merge,
                          *(f.reason for f in out.feature_scores.values())])
        _prose_checks(gate, prose, known)
        verdict = None
        if not gate.rejections:
            rec = out.recommendation
            if rec == "merge" and out.confidence < MERGE_CONFIDENCE:
                rec = "review"
            verdict = ResolverVerdict(rec, out.similarity_score, out.confidence,
                                      out.feature_scores, out.merge_rationale,
                                      out.why_not_merge, [])
        said = verdict.recommendation if verdict else "refused"
        self._finish(gate, ctx, f"recommendation {said}",
                     {"model_recommendation": out.recommendation})
        if verdict is not None:
            verdict.rejected = gate.rejections
        return verdict


# -- conflict analyst -----------------------------------------------------------------------
@dataclass
class ConflictAdvice:
    recommended_value: str  # always one of the competing values
    confidence: float
    is_tentative: bool
    rationale: str
    evidence_ranking: list[EvidenceRank]
    next_actions: list[str]
    hypotheses: list[Hypothesis]  # the next actions as clue hypotheses (never facts)
    rejected: list[Rejection]


class ConflictAnalyst(_Role):
    """Writes the rationale and next actions for one conflict; every claim is preserved."""

    name = "analyst"
    contract = ConflictOutput

    def analyse(self, fld: str, competing_claims: Sequence[Mapping[str, Any]], *,
                person_id: str | None = None, living: bool | None = None
                ) -> ConflictAdvice | None:
        payload = {"field": fld, "competing_claims": [dict(c) for c in competing_claims]}
        ctx = {"field": fld, "person_id": person_id}
        out: ConflictOutput | None = self._ask(
            payload, None, ctx,
            self._living(living, lambda: claims_graph(fld, competing_claims)))
        if out is None:
            return None
        known = json.dumps(payload, ensure_ascii=False, default=str)
        gate = Gate(self.name)
        values = [str(c.get("value", "")) for c in competing_claims]
        if not any(same_value(out.recommended_value, v) for v in values):
            gate.reject("no_invented_values", fld, out.recommended_value,
                        "recommended value is not one of the competing claims")
        if not 0.0 <= out.confidence <= 1.0:
            gate.reject("confidence_bounds", "confidence", str(out.confidence), "outside [0, 1]")
        if not out.preserve_alternatives:
            gate.reject("conflict_preservation", fld, out.recommended_value,
                        "competing claims are preserved, never discarded")
        for r in out.evidence_ranking:
            if not 0 <= r.claim_index < len(values):
                gate.reject("no_invented_claims", "evidence_ranking", str(r.claim_index),
                            f"claim index outside 0..{len(values) - 1}")
        _prose_checks(gate, " ".join([out.analysis, *(r.reason for r in out.evidence_ranking)]),
                      known)
        actions = _urls_grounded(gate, "next_actions", out.next_actions, known)
        core = [r for r in gate.rejections if r.field != "next_actions"]
        advice = None
        if not core:
            value = next(v for v in values if same_value(out.recommended_value, v))
            hyps = [Hypothesis(hypothesis_type="conflict_next_action", statement=a,
                               target_person=person_id, suggested_queries=[a], priority=0.5)
                    for a in actions]
            advice = ConflictAdvice(value, out.confidence,
                                    out.is_tentative or out.confidence < 0.8, out.analysis,
                                    out.evidence_ranking, actions, hyps, gate.rejections)
        self._finish(gate, ctx, "advice accepted" if advice else "advice refused",
                     {"next_actions": len(actions)})
        return advice


def _prose_checks(gate: Gate, prose: str, known: str) -> None:
    """Free-text reasoning may not bring in years or URLs the input never held."""
    if bad := years_ungrounded(prose, known):
        gate.reject("no_invented_dates", "rationale", ", ".join(bad),
                    f"years {', '.join(bad)} are in no input claim")
    if bad := urls_ungrounded(prose, known):
        gate.reject("no_fabricated_urls", "rationale", bad[0], "URL not in the input")


@dataclass
class _Grounding:
    """A planner's query checked for invented targets (`guard.targets_ungrounded`)."""

    known: str
    names: Sequence[str]

    def __call__(self, gate: Gate, fld: str, query: str) -> bool:
        if bad := targets_ungrounded(query, self.known, self.names):
            gate.reject("no_invented_targets", fld, query,
                        f"{', '.join(map(repr, bad))}: not a name, place or id in the case "
                        "or the seed")
            return False
        return True


def _urls_grounded(gate: Gate, fld: str, texts: Sequence[str], known: str) -> list[str]:
    """The texts whose URLs all appear in what the model was given; the rest are refused."""
    kept = []
    for text in texts:
        if bad := urls_ungrounded(text, known):
            gate.reject("no_fabricated_urls", fld, text, f"URL {bad[0]!r}")
        else:
            kept.append(text)
    return kept
