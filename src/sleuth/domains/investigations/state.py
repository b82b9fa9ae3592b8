"""`_state.json`: where the investigation is (phase, iteration), what blocks it (gaps), the
sources and questions so far, the budgets and the termination signals.

Written atomically (a temporary file renamed over the old one) after every phase, so a
`kill -9` leaves either the state before the phase or the state after it, never half of
one; every phase can be run again from the state before it.

The loop's own copy (`.working/state.json`, names as the sources print them) is git-ignored:
the case repository is meant to be shared, so what it commits as `_state.json` is the
censored view `publish` writes before each commit (`VIEW_MARK` says so). A copy of the
repository without `.working/` (a clone) can be read, not resumed.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sleuth.domains.investigations.model import Gap, Question, SourceRecord
from sleuth.domains.investigations.phases import SETUP
from sleuth.model import InputError

STATE_FILE = "_state.json"  # the censored view, committed
EXTRACTION_FILE = "_extraction.json"  # the censored view, committed
WORKING_DIR = ".working"  # the loop's own state, git-ignored: it names living people
VIEW_MARK = "_view"  # the key a censored view carries
IN_PROGRESS, COMPLETE, PAUSED, ERROR = "IN_PROGRESS", "COMPLETE", "PAUSED", "ERROR"

# Why a run ended (`termination.reason`).
DONE = "verified"  # verification passed and no gaps remain: the finale completed
BUDGET_ITERATIONS, BUDGET_REQUESTS, BUDGET_COST = (
    "budget:iterations", "budget:requests", "budget:cost")
STALLED = "stalled"  # an iteration changed nothing and no search is left (`stall`)

DEFAULT_MAX_ITERATIONS = 10
DEFAULT_MAX_REQUESTS = 200


def now() -> str:
    return datetime.now(UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


@dataclass
class Budget:
    max_iterations: int = DEFAULT_MAX_ITERATIONS
    max_requests: int = DEFAULT_MAX_REQUESTS
    max_model_cost: float | None = None  # the model meter's currency (USD); None: no cap
    requests_used: int = 0
    model_cost_used: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass
class CaseState:
    case_id: str
    topic: str
    corpus: str = ""
    online: list[str] = field(default_factory=list)  # --sources: online plugins, "corpus"
    status: str = IN_PROGRESS
    current_iteration: int = 0
    current_phase: str = SETUP
    finale_step: str = ""
    finale_passes: int = 0
    next_source_id: str = "S001"
    people_count: int = 0
    entities_count: int = 0
    sources_count: int = 0
    gaps: list[Gap] = field(default_factory=list)
    verification_passed: bool = False
    last_verification: str = ""
    sources: list[SourceRecord] = field(default_factory=list)
    questions: list[Question] = field(default_factory=list)
    questions_runs: list[dict[str, Any]] = field(default_factory=list)
    signals: dict[str, Any] = field(default_factory=dict)
    budget: Budget = field(default_factory=Budget)
    termination: dict[str, Any] | None = None
    contested: dict[str, list[str]] = field(default_factory=dict)  # statement -> sources
    revisions: dict[str, list[str]] = field(default_factory=dict)  # statement -> names dropped
    withdrawn: list[str] = field(default_factory=list)  # statements their evidence didn't show
    # each withdrawn statement as it read and why, so fact-check.md still shows it
    withdrawals: list[dict[str, Any]] = field(default_factory=list)
    private_sources: list[str] = field(default_factory=list)  # withheld from git (`publish`)
    verification: dict[str, Any] = field(default_factory=dict)  # the last checkpoint
    log: list[dict[str, Any]] = field(default_factory=list)  # one entry per iteration
    created_at: str = field(default_factory=now)
    updated_at: str = field(default_factory=now)

    # -- sources ------------------------------------------------------------------------
    def take_source_id(self) -> str:
        sid = self.next_source_id
        self.next_source_id = f"S{int(sid[1:]) + 1:03d}"
        return sid

    def source(self, sid: str) -> SourceRecord | None:
        return next((s for s in self.sources if s.id == sid), None)

    def captured(self) -> list[SourceRecord]:
        return [s for s in self.sources if s.status == "captured"]

    # -- json ---------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        out = {k: v for k, v in self.__dict__.items()}
        out["gaps"] = [g.to_json() for g in self.gaps]
        out["sources"] = [s.to_json() for s in self.sources]
        out["questions"] = [q.to_json() for q in self.questions]
        out["budget"] = self.budget.to_json()
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> CaseState:
        data = dict(data)
        data["gaps"] = [Gap.from_json(g) for g in data.get("gaps", [])]
        data["sources"] = [SourceRecord.from_json(s) for s in data.get("sources", [])]
        data["questions"] = [Question.from_json(q) for q in data.get("questions", [])]
        data["budget"] = Budget(**data.get("budget", {}))
        known = set(cls.__dataclass_fields__)
        return cls(**{k: v for k, v in data.items() if k in known})


def working(case_dir: Path, name: str) -> Path:
    """Where the loop keeps its un-censored copy of `name` (`_state.json` -> state.json)."""
    return case_dir / WORKING_DIR / name.lstrip("_")


def is_investigation(case_dir: Path) -> bool:
    return (case_dir / STATE_FILE).is_file() or working(case_dir, STATE_FILE).is_file()


def read_working(case_dir: Path, name: str) -> Any:
    """The loop's copy of `name`; a case made before the working copies were kept apart
    has it in the case folder (no `VIEW_MARK`). None when neither exists. A censored view
    is never read as the working state: it would take masked names for real ones."""
    path = working(case_dir, name)
    if not path.is_file():
        path = case_dir / name
        if not path.is_file():
            return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise InputError(f"unreadable investigation state: {exc}", file=str(path)) from None
    if isinstance(data, dict) and VIEW_MARK in data:
        raise InputError(f"{WORKING_DIR}/ is missing: this copy of the case holds only the "
                         "censored view its repository shares, which can be read but not "
                         "resumed (resume where the investigation ran)", file=str(case_dir))
    return data


def load_state(case_dir: Path) -> CaseState:
    data = read_working(case_dir, STATE_FILE)
    if data is None:
        raise InputError("not an investigation case (no _state.json)", file=str(case_dir))
    if not isinstance(data, dict) or "topic" not in data:
        raise InputError("not an investigation state (no topic)",
                         file=str(working(case_dir, STATE_FILE)))
    return CaseState.from_json(data)


def shown_path(path: str, corpus: str) -> str:
    """`path` as a shared record shows it: relative to the corpus folder when it lies in
    it (a URL, or a path elsewhere, as it is)."""
    if corpus and Path(path).is_absolute() and Path(path).is_relative_to(corpus):
        return Path(path).relative_to(corpus).as_posix()
    return path


def write_json(path: Path, data: Any) -> None:
    """Write JSON atomically: a kill leaves the old file or the new one."""
    tmp = path.with_name(path.name + ".tmp")
    with tmp.open("w", encoding="utf-8") as fh:
        json.dump(data, fh, ensure_ascii=False, indent=1, sort_keys=False)
        fh.write("\n")
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)


def save_state(case_dir: Path, state: CaseState) -> None:
    state.updated_at = now()
    state.sources_count = len(state.captured())
    path = working(case_dir, STATE_FILE)
    path.parent.mkdir(exist_ok=True)
    write_json(path, state.to_json())
