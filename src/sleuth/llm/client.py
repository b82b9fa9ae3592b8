"""One structured request: limits → provider → accounting → parse, one repair, or reject.

`LLMClient.structured` returns a validated contract object or None (refused by a limit);
it raises `LLMUnavailable` / `LLMSchemaError` / `CallLimitExceeded`, which the roles turn
into a logged fallback to the deterministic components.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel

from sleuth.llm.config import LLMConfig
from sleuth.llm.errors import LLMSchemaError, LLMUnavailable
from sleuth.llm.meter import Meter
from sleuth.llm.provider import Message, Provider, Sleep, make_provider
from sleuth.llm.structured import parse_reply, schema_of, schema_text
from sleuth.privacy.outbound import ClearedPrompt

T = TypeVar("T", bound=BaseModel)
log = logging.getLogger(__name__)

REPAIR = ("Your previous reply could not be used: {reason}. Reply again with only one JSON "
          "object that matches this JSON schema, and nothing else:\n{schema}")


@dataclass(frozen=True)
class CallRecord:
    """What one `structured` call did (the last one is kept on the client for reports)."""

    role: str
    model: str
    latency_s: float  # wall time of every round trip of the call, repair included
    input_tokens: int
    output_tokens: int
    cost: float
    repaired: bool
    attempts: int  # HTTP attempts, retries included


class LLMClient:
    """Providers per role (created on first use) sharing one Meter."""

    def __init__(self, config: LLMConfig, meter: Meter | None = None, *,
                 sleep: Sleep = time.sleep, providers: dict[str, Provider] | None = None
                 ) -> None:
        self.config = config
        self.meter = meter or Meter(config.limits)
        self._sleep = sleep
        self._providers: dict[str, Provider] = dict(providers or {})
        self.last: CallRecord | None = None

    @classmethod
    def from_env(cls, case_dir: Path | None = None, *, max_cost: float | None = None,
                 thread_state: dict[str, Any] | None = None, sleep: Sleep = time.sleep
                 ) -> LLMClient | None:
        """A client when any role is configured, else None (the LLM layer stays off).

        `max_cost` (the loop's `Budget.max_llm_cost`) tightens the configured cost budget;
        `thread_state` is a previous run's `meter.state()`, so thread limits and usage
        carry over a resume.
        """
        cfg = LLMConfig.load(case_dir)
        if not cfg.enabled:
            return None
        limits = cfg.limits
        if max_cost is not None:
            cap = max_cost if limits.max_cost is None else min(max_cost, limits.max_cost)
            limits = limits.model_copy(update={"max_cost": cap})
        return cls(cfg, Meter(limits, thread_state=thread_state), sleep=sleep)

    def enabled(self, role: str) -> bool:
        return self.config.role(role).configured

    def provider(self, role: str) -> Provider:
        if role not in self._providers:
            self._providers[role] = make_provider(self.config.role(role), sleep=self._sleep)
        return self._providers[role]

    def close(self) -> None:
        for p in self._providers.values():
            p.close()
        self._providers.clear()

    def structured(self, role: str, prompt: ClearedPrompt, contract: type[T],
                   on_event: Callable[[str, dict[str, Any]], None] | None = None) -> T | None:
        """Validated reply, None if a limit refused the call; raises on failure. Only a
        prompt the privacy gate cleared is sent (`sleuth.privacy.outbound`)."""
        schema = schema_of(contract)
        cfg = self.config.role(role)
        if not self.meter.allow_model_call(role):
            return None
        provider = self.provider(role)
        msgs: list[Message] = list(prompt.messages)
        totals = [0.0, 0, 0, 0.0, 0]  # latency, in, out, cost, attempts
        reason = ""
        text = ""
        for attempt in range(2):
            if attempt == 1:
                if not self.meter.allow_model_call(role):
                    break
                msgs += [{"role": "assistant", "content": text[:4000]},
                         {"role": "user", "content": REPAIR.format(
                             reason=reason, schema=schema_text(contract))}]
                if on_event:
                    on_event("llm_repair", {"role": role, "reason": reason})
            try:
                res = provider.chat(msgs, schema=schema)
            except LLMUnavailable:
                self.meter.record_failure(role)
                raise
            cost = cfg.cost(res.input_tokens, res.output_tokens)
            self.meter.record(role, res.input_tokens, res.output_tokens, cost)
            totals[0] += res.latency_s
            totals[1] += res.input_tokens
            totals[2] += res.output_tokens
            totals[3] += cost
            totals[4] += res.attempts
            text = res.text
            obj, reason = parse_reply(text, contract)
            self.last = CallRecord(role, res.model, totals[0], int(totals[1]), int(totals[2]),
                                   totals[3], attempt == 1, int(totals[4]))
            if obj is not None:
                return obj
            log.info("%s reply rejected (%s)%s", role, reason,
                     "" if attempt else "; asking once for a repair")
        self.meter.record_failure(role)
        raise LLMSchemaError(f"{role}: reply rejected after one repair attempt: {reason}",
                             role=role, raw=text[:2000])
