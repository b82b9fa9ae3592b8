"""Per-case privacy settings: which living-person rule decides, and its thresholds.

A case folder's `case.json` may hold a `"privacy"` object; anything left out keeps the
default below. The defaults are the *strictest* reading (a person is living when any of the
seed's, Gramps' or FamilySearch's rules says so), with each rule's own published numbers:

| setting | default | from |
|---|---|---|
| `rule` | `strictest` | one of `strictest`, `gramps`, `familysearch`, `seed` |
| `max_age` | 110 | Gramps `behavior.max-age-prob-alive`; FamilySearch "born within 110 years" |
| `living_if_born_within` | 100 | seed 000 §8.1 ("born less than 100 years ago") |
| `family_event_within` | 95 | FamilySearch "married or had a child within 95 years" |
| `max_sibling_age_diff` | 20 | Gramps `behavior.max-sib-age-diff` |
| `avg_generation_gap` | 20 | Gramps `behavior.avg-generation-gap` |
| `min_generation_years` | 13 | Gramps `behavior.min-generation-years` |
| `fuzzy_range` | 50 | Gramps `behavior.date-before-range` / `-after-range` ("before"/"after") |
| `about_range` | 10 | "about", "estimated", "calculated" dates: ± this many years |
| `mask_names` | false | seed 000 §8.2: names kept for tree building unless asked |

`about_range` is not Gramps' `date-about-range` (50): read that way, a man born "ABT 1882"
could be alive at 144 (kennedy.ged's Alexander G. Crawford), and every undated ancestor
of someone born "about" a year had another half-century added. An "about" year is an
estimate of a few years either way; the open-ended "before"/"after" dates keep Gramps' 50.

Commands that know the case folder load it with `load_policy(case_dir)` and either pass it to
`censor(..., policy=)` or wrap the call in `use_policy(policy)`, which every exporter's
internal `censor` call picks up without a signature change.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from sleuth.model.errors import InputError

Rule = Literal["strictest", "gramps", "familysearch", "seed"]
RULES: tuple[str, ...] = ("strictest", "gramps", "familysearch", "seed")
CASE_CONFIG = "case.json"


class PrivacyPolicy(BaseModel):
    """How a case decides who is living. Immutable; see the module docstring for defaults."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    rule: Rule = "strictest"
    max_age: int = Field(default=110, ge=1, le=200)
    living_if_born_within: int = Field(default=100, ge=1, le=200)
    family_event_within: int = Field(default=95, ge=1, le=200)
    max_sibling_age_diff: int = Field(default=20, ge=0, le=100)
    avg_generation_gap: int = Field(default=20, ge=1, le=100)
    min_generation_years: int = Field(default=13, ge=1, le=100)
    fuzzy_range: int = Field(default=50, ge=0, le=100)
    about_range: int = Field(default=10, ge=0, le=100)
    mask_names: bool = False


DEFAULT_POLICY = PrivacyPolicy()
_ACTIVE: ContextVar[PrivacyPolicy | None] = ContextVar("sleuth_privacy_policy", default=None)


def active_policy(policy: PrivacyPolicy | None = None) -> PrivacyPolicy:
    """`policy` if given, else the one `use_policy` installed, else the defaults."""
    return policy or _ACTIVE.get() or DEFAULT_POLICY


def activate_policy(policy: PrivacyPolicy) -> None:
    """Install `policy` for the rest of this context (a CLI command opening its case)."""
    _ACTIVE.set(policy)


@contextmanager
def use_policy(policy: PrivacyPolicy) -> Iterator[PrivacyPolicy]:
    """Make `policy` the one every `censor` call inside the block uses by default."""
    token = _ACTIVE.set(policy)
    try:
        yield policy
    finally:
        _ACTIVE.reset(token)


def policy_from_dict(data: object, *, file: str | None = None) -> PrivacyPolicy:
    """Validate a `"privacy"` object; a bad key or value is an InputError naming the field."""
    if data is None:
        return DEFAULT_POLICY
    if not isinstance(data, dict):
        raise InputError("'privacy' must be an object", file=file, field="privacy")
    try:
        return PrivacyPolicy.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "privacy"
        raise InputError(first["msg"], file=file, field=f"privacy.{where}") from None


def load_policy(case_dir: Path) -> PrivacyPolicy:
    """The case's policy from `CASE/case.json` (defaults when it has no `privacy` key)."""
    config = case_dir / CASE_CONFIG
    if not config.exists():
        return DEFAULT_POLICY
    try:
        data = json.loads(config.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InputError(f"cannot read case settings: {exc}", file=str(config)) from None
    if not isinstance(data, dict):
        raise InputError("case settings must be a JSON object", file=str(config))
    return policy_from_dict(data.get("privacy"), file=str(config))
