"""VERIFICATION: every statement checked against captured evidence (seed 003's checkpoint).

For each statement:

1. NO_EVIDENCE when its source was not captured, its snapshot is not in the store, or the
   capture in `evidence/` no longer matches the stored snapshot's hash;
2. NOT_FOUND when its quote is not the captured text at the span it names;
3. the verifier (`sleuth.verify.claims.verify_claim`) on the statement's claim against the
   sentences of the cited pages: supported → VERIFIED, contradicted → CONTRADICTED,
   partially supported, not supported or not found → NOT_FOUND;
4. every name, year and number the English sentence states must be in that evidence too
   (a wrong template can't slip past a claim made in the source's words): else NOT_FOUND;
5. a statement of fact (not an attributed position) is checked against every other
   captured source that speaks of the same persons (a general statement: the other
   source's sentences on the same thing, `general.related_spans`), by the verifier
   (which reads Swedish dates, so one person's appointment dated differently by two
   sources is a contradiction): one that contradicts it makes it CONTRADICTED, whatever
   its own source says. All positions of a contested claim are then checked, each against
   its own source, and a contested claim stated as the position of some of its sources but
   not of all is a gap (`unstated_positions`): the summary never takes one side.

CONTRADICTED blocks completion; NOT_FOUND and NO_EVIDENCE become gaps, as does every part
of the question no verified statement answers.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from sleuth.domains.investigations.capture import evidence_intact
from sleuth.domains.investigations.general import KIND as GENERAL
from sleuth.domains.investigations.general import clean, related_spans
from sleuth.domains.investigations.model import (
    CONTRADICTED,
    NO_EVIDENCE,
    NOT_FOUND,
    VERDICT_OF,
    VERIFIED,
    Check,
    Gap,
    SourceRecord,
    Statement,
)
from sleuth.domains.investigations.prose import (
    evidence_sentences,
    join_split_words,
    one_line,
    page_range,
    sentences_with,
)
from sleuth.domains.investigations.statements import answered
from sleuth.model import Snapshot
from sleuth.verify.claims import ClaimCheck, verify_claim

Verifier = Callable[..., ClaimCheck]


@dataclass
class Outcome:
    checks: dict[str, Check] = field(default_factory=dict)
    gaps: list[Gap] = field(default_factory=list)
    contested: dict[str, list[str]] = field(default_factory=dict)
    revisions: dict[str, list[str]] = field(default_factory=dict)
    withdraw: set[str] = field(default_factory=set)
    answered: dict[str, bool] = field(default_factory=dict)

    @property
    def passed(self) -> bool:
        return bool(self.checks) and all(c.verdict == VERIFIED for c in self.checks.values())


def _fold(text: str) -> str:
    return " ".join(join_split_words(text).lower().split())


def _surname(name: str) -> str:
    return name.split()[-1]


def check_statement(st: Statement, snap: Snapshot | None, rec: SourceRecord | None,
                    case_dir: Path, *, others: Sequence[tuple[SourceRecord, Snapshot]] = (),
                    verifier: Verifier = verify_claim) -> Check:
    """One statement's check (see the module docstring)."""
    if rec is None or rec.status != "captured" or snap is None:
        return Check(st.id, NO_EVIDENCE, "", f"source {st.source_id} has no captured evidence")
    if not evidence_intact(case_dir, rec, snap):
        return Check(st.id, NO_EVIDENCE, "",
                     f"evidence/{rec.id}/ does not match the stored snapshot (hash differs)")
    if one_line(snap.text[st.start:st.end]) != st.quote or not st.quote:
        return Check(st.id, NOT_FOUND, "", "the quote is not the captured text at its span")
    sentences = evidence_sentences(snap, st.start, st.end)
    result = verifier(st.claim, sentences, claim_id=st.id)
    verdict = VERDICT_OF[result.verdict]
    evidence = [{"sentence_index": e.sentence_index, "start": e.start, "end": e.end,
                 "text": e.text} for e in result.evidence]
    unsupported = [t for _, _, t in result.unsupported_spans]
    rationale = result.rationale
    a, b = page_range(snap, st.start, st.end)
    page = _fold(snap.text[a:b])
    missing = [n for n in st.names if _fold(n) not in page]
    missing += [n for n in st.numbers if not re.search(rf"(?<!\d){n}(?!\d)", page)]
    if missing and verdict == VERIFIED:
        verdict = NOT_FOUND
        rationale += f"; the sentence states {', '.join(missing)}, which the evidence does not"
    unsupported += [m for m in missing if m not in unsupported]
    check = Check(st.id, verdict, result.verdict, rationale, evidence, unsupported)
    if st.kind == "position" or not (st.names or st.kind == GENERAL):
        return check
    for orec, osnap in others:
        if orec.id == st.source_id:
            continue
        if st.kind == GENERAL:  # the other source's sentences on the same thing
            sents = [clean(osnap.text[a:b]) for a, b in related_spans(st.claim, osnap.text)]
        else:
            sents = [s for s in sentences_with(osnap, [_surname(st.names[0])])
                     if any(w.lower() in s.lower() for w in _role_words(st))]
        if not sents:
            continue
        res = verifier(st.claim, sents, claim_id=f"{st.id}@{orec.id}")
        check.against.append({"source": orec.id, "verdict": VERDICT_OF[res.verdict],
                              "verifier_verdict": res.verdict, "rationale": res.rationale,
                              "evidence": [e.text for e in res.evidence][:6]})
        if res.verdict == "contradicted":
            check.verdict = CONTRADICTED
            check.rationale += f"; {orec.id} contradicts it ({res.rationale})"
    return check


def _role_words(st: Statement) -> list[str]:
    """Words that show another source's sentence is about the same act (its verb, role)."""
    words = re.findall(r"[^\W\d_]{5,}", st.claim)
    return [w for w in words if w[0].islower()] or words


def verify_all(statements: list[Statement], snaps: dict[str, Snapshot],
               sources: dict[str, SourceRecord], case_dir: Path, asks: list[str], *,
               iteration: int, verifier: Verifier = verify_claim,
               contested: dict[str, list[str]] | None = None) -> Outcome:
    """Check every statement; the gaps, contested claims and revisions that follow.
    `contested`: the claims found contested before (claim -> its sources), each of which
    must be stated as a position of every one of its sources."""
    out = Outcome()
    others = [(sources[sid], snap) for sid, snap in sorted(snaps.items()) if sid in sources]
    for st in statements:
        check = check_statement(st, snaps.get(st.source_id), sources.get(st.source_id),
                                case_dir, others=others,
                                verifier=verifier)
        out.checks[st.id] = check
        if check.verdict == CONTRADICTED:
            against = [a["source"] for a in check.against if a["verdict"] == CONTRADICTED]
            out.contested[st.id] = [st.source_id, *against]
            out.gaps.append(Gap.of("contradicted", f"“{st.text}” ({st.source_id}) is "
                                   f"contradicted by {', '.join(against) or 'its evidence'}",
                                   ref=st.id, since=iteration))
        elif check.verdict == NO_EVIDENCE:
            out.gaps.append(Gap.of("no_evidence", f"“{st.text}”: {check.rationale}",
                                   ref=st.id, since=iteration))
        elif check.verdict == NOT_FOUND:
            out.gaps.append(Gap.of("unverified", f"“{st.text}” is not shown by "
                                   f"{st.source_id}: {check.rationale}", ref=st.id,
                                   since=iteration))
            unshown = [n for n in st.names
                       if any(n.split()[-1] in u for u in check.unsupported)]
            if st.kind == "appointment" and unshown and len(unshown) < len(st.names):
                out.revisions[st.id] = unshown
            else:
                out.withdraw.add(st.id)
    out.gaps += unstated_positions(statements, contested or {}, iteration)
    verified = {sid for sid, c in out.checks.items() if c.verdict == VERIFIED}
    out.answered = answered(asks, statements, verified)
    for ask, ok in out.answered.items():
        if not ok:
            out.gaps.append(Gap.of("unanswered", f"no verified statement answers "
                                   f"the question's “{ask}”", ref=ask, since=iteration))
    return out


def unstated_positions(statements: list[Statement], contested: dict[str, list[str]],
                       iteration: int) -> list[Gap]:
    """A contested claim stated from some of its sources but not all: a gap (the summary
    would take one side), until every source's position is stated. A claim none of whose
    positions is stated is not in the deliverable at all, and no gap."""
    gaps = []
    for key, sources in sorted(contested.items()):
        stated = {s.source_id for s in statements if s.contested == key}
        if stated and (missing := sorted(set(sources) - stated)):
            gaps.append(Gap.of("contradicted", f"the contested claim {key} is stated as the "
                               f"position of {', '.join(sorted(stated))} but not of "
                               f"{', '.join(missing)}", ref=key, since=iteration))
    return gaps
