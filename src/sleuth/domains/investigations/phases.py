"""The phases of an investigation as a state machine, drawn as seed 003 draws it.

    SETUP → RESEARCH → EXTRACTION → QUESTIONS? → INVESTIGATION → VERIFICATION → SYNTHESIS
    SYNTHESIS → RESEARCH (a new iteration: not passed, or gaps remain)
    SYNTHESIS → FINALE (verification passed and no gaps)
    FINALE: QUESTIONS (late) → VERIFY → INTEGRITY → LEGAL_REVIEW → COMPLETE
            critical new questions → RESEARCH; VERIFY fails → RESEARCH;
            INTEGRITY MAJOR issues → addressed → VERIFY; LEGAL_REVIEW HIGH risks → addressed
            → VERIFY

The seed's diagram returns from VERIFICATION to RESEARCH when gaps remain or verification
failed; its loop section has every iteration end in SYNTHESIS (rewrite summary.md, git
commit) before the termination check. Both hold here: VERIFICATION always goes on to
SYNTHESIS, which rewrites the summary from what verified, commits, and then takes the
diagram's return edge to RESEARCH, or enters the FINALE when passed and no gaps remain.

QUESTIONS runs when any trigger of the seed's table holds (`questions_due`): iteration 1,
every 4th iteration, stuck (not passed and no gap has a clear path), or saturation claimed.
"""

from __future__ import annotations

from dataclasses import dataclass

SETUP, RESEARCH, EXTRACTION, QUESTIONS, INVESTIGATION = (
    "SETUP", "RESEARCH", "EXTRACTION", "QUESTIONS", "INVESTIGATION")
VERIFICATION, SYNTHESIS, FINALE, COMPLETE = "VERIFICATION", "SYNTHESIS", "FINALE", "COMPLETE"
PHASES = (SETUP, RESEARCH, EXTRACTION, QUESTIONS, INVESTIGATION, VERIFICATION, SYNTHESIS,
          FINALE, COMPLETE)

# The finale's steps (`_state.json` "finale_step" while the phase is FINALE).
F_QUESTIONS, F_VERIFY, F_INTEGRITY, F_LEGAL = "QUESTIONS", "VERIFY", "INTEGRITY", "LEGAL_REVIEW"
FINALE_STEPS = (F_QUESTIONS, F_VERIFY, F_INTEGRITY, F_LEGAL)

EDGES: dict[str, tuple[str, ...]] = {
    SETUP: (RESEARCH,),
    RESEARCH: (EXTRACTION,),
    EXTRACTION: (QUESTIONS, INVESTIGATION),
    QUESTIONS: (INVESTIGATION,),
    INVESTIGATION: (VERIFICATION,),
    VERIFICATION: (SYNTHESIS,),
    SYNTHESIS: (RESEARCH, FINALE),
    FINALE: (RESEARCH, COMPLETE),
    COMPLETE: (),
}
FINALE_EDGES: dict[str, tuple[str, ...]] = {
    F_QUESTIONS: (F_VERIFY, RESEARCH),
    F_VERIFY: (F_INTEGRITY, RESEARCH),
    F_INTEGRITY: (F_LEGAL, F_VERIFY),
    F_LEGAL: (COMPLETE, F_VERIFY),
}

# The seed's /questions table: the frameworks each trigger applies.
EARLY, MID, STUCK, LATE = "early", "mid", "stuck", "late"
STAGE_FRAMEWORKS: dict[str, tuple[str, ...]] = {
    EARLY: ("who", "what", "when", "where", "why", "how", "stakeholder", "relationships",
            "sense-making"),
    MID: ("ach", "assumptions", "patterns", "meta", "five-whys"),
    STUCK: ("pre-mortem", "bias-check", "uncomfortable"),
    LATE: ("counterfactual", "pre-mortem", "cognitive-bias", "second-order"),
}


class IllegalTransition(ValueError):
    """A phase change the seed's diagram does not draw."""


def check(src: str, dst: str) -> str:
    """`dst` when the diagram has an edge from `src` to it, else IllegalTransition."""
    if dst not in EDGES.get(src, ()):
        raise IllegalTransition(f"no edge {src} → {dst} in seed 003's phase diagram")
    return dst


def check_finale(src: str, dst: str) -> str:
    if dst not in FINALE_EDGES.get(src, ()):
        raise IllegalTransition(f"no edge FINALE {src} → {dst} in seed 003's finale loop")
    return dst


@dataclass(frozen=True)
class Trigger:
    """Why /questions runs this iteration, and with which stages' frameworks."""

    stages: tuple[str, ...]
    reasons: tuple[str, ...]

    def __bool__(self) -> bool:
        return bool(self.stages)

    @property
    def frameworks(self) -> tuple[str, ...]:
        out: list[str] = []
        for stage in self.stages:
            out += [f for f in STAGE_FRAMEWORKS[stage] if f not in out]
        return tuple(out)


def questions_due(iteration: int, *, verification_passed: bool, stuck: bool,
                  saturation_claimed: bool) -> Trigger:
    """The seed's trigger table: iteration 1 (early), every 4th iteration (mid), stuck
    (verification not passed and the gaps lack clear paths), claiming saturation (late)."""
    stages: list[str] = []
    reasons: list[str] = []
    if iteration == 1:
        stages.append(EARLY)
        reasons.append("iteration 1")
    if iteration > 0 and iteration % 4 == 0:
        stages.append(MID)
        reasons.append(f"iteration {iteration} is a 4th")
    if stuck and not verification_passed:
        stages.append(STUCK)
        reasons.append("stuck: verification not passed and no gap has a clear path")
    if saturation_claimed:
        stages.append(LATE)
        reasons.append("saturation claimed: the last iteration found under 10% new")
    return Trigger(tuple(stages), tuple(reasons))


def after_extraction(trigger: Trigger) -> str:
    return check(EXTRACTION, QUESTIONS if trigger else INVESTIGATION)


def after_synthesis(*, passed: bool, gaps: int) -> str:
    """The termination check: FINALE when verification passed and no gap remains."""
    return check(SYNTHESIS, FINALE if passed and gaps == 0 else RESEARCH)
