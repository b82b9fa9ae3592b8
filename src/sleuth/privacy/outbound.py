"""A prompt cleared to leave this machine (privacy as a type, issue 21 item 4).

A model endpoint run by a third party is an output path. `LLMClient.structured` sends only a
`ClearedPrompt`, and only this module makes one: `clear_prompt` withholds a prompt about a
possibly living person from a hosted endpoint (unless the user opted in) and runs every string
of a hosted prompt through `redact_text`; `fixed_prompt` wraps text written in this program,
which carries no case data (the `sleuth llm check` ping). A caller that builds messages and
sends them without the gate does not type-check (tests/privacy/test_censored_type.py runs
mypy on one), exactly as an exporter handed the raw case graph does not.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sleuth.privacy.pii import redact_text

Message = dict[str, str]
# Builds the messages from the (possibly redacted) structured input and fenced data blocks.
Build = Callable[[dict[str, Any], dict[str, str] | None], list[Message]]


@dataclass(frozen=True)
class ClearedPrompt:
    """Messages the gate let go to one endpoint; `hosted` says whether they were redacted."""

    messages: tuple[Message, ...]
    hosted: bool


@dataclass(frozen=True)
class Withheld:
    """A prompt the gate kept back: the Censor's reasons, one per possibly living person
    (names left out: the reasons go into the research log)."""

    reasons: tuple[str, ...]


def redact(obj: Any) -> Any:
    """Every string in a JSON-like value through `redact_text` (keys included)."""
    if isinstance(obj, str):
        return redact_text(obj)
    if isinstance(obj, Mapping):
        return {redact(k): redact(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple | set | frozenset):
        return [redact(v) for v in obj]
    return obj


def clear_prompt(build: Build, payload: dict[str, Any], data: dict[str, str] | None, *,
                 hosted: bool, send_living: bool,
                 living: Callable[[], Sequence[str]] | None) -> ClearedPrompt | Withheld:
    """The prompt for a local endpoint as it is; for a hosted one, withheld when `living`
    (the Censor's reasons over the role's inputs) names anyone and the user has not set
    `send_living`, else built from redacted input."""
    if hosted:
        if not send_living and living is not None and (why := tuple(living())):
            return Withheld(why)
        payload = redact(payload)
        data = {k: redact_text(v) for k, v in (data or {}).items()} or None
    return ClearedPrompt(tuple(build(payload, data)), hosted)


def fixed_prompt(messages: Sequence[Message]) -> ClearedPrompt:
    """Messages of fixed text written in this program, with no case data in them (a health
    check's ping); anything read from a case goes through `clear_prompt`."""
    return ClearedPrompt(tuple(messages), hosted=False)
