"""The model peers of `benchmarks/verify.py --model` (issue 24).

Two systems, both asking the configured `verifier` role through the project's client
(`sleuth.llm.LLMClient`: its meter, limits and repair, prompts cleared by the privacy gate
`clear_prompt`), on the same items and the same evidence cut:

- `plain`: one "is this claim supported by this text?" prompt per claim, the sentences
  numbered, the answer read by the structured-output helper and taken as it is: no check
  of any kind (the peer a user would write). A reply that cannot be read, a refusal and
  an unavailable endpoint count as `not_supported` and as a model error.
- `sleuth`: the deterministic `verify_claim` check, then `sleuth.llm.entail.judge_claim`
  on top, as `sleuth verify --model` runs them (cited sentences must exist, quotes must be
  verbatim, a contradiction is final and never sent).

Replies are cached by (model, prompt hash): in memory always, and in a JSON file when one is
given, so a rerun sends nothing it has sent before. The fence around the evidence has a
random boundary (`sleuth.llm.prompts.fence`: a page cannot guess it), so the hash reads the
prompt with that boundary masked. The cache holds the model's name, hashes and replies; no
key, no URL.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict

from sleuth.llm import LLMClient, LLMConfig
from sleuth.llm.entail import ROLE, judge_claim
from sleuth.llm.errors import CallLimitExceeded, LLMSchemaError, LLMUnavailable
from sleuth.llm.outbound import endpoint_is_local
from sleuth.llm.prompts import fence
from sleuth.llm.provider import Sleep
from sleuth.llm.structured import schema_text
from sleuth.privacy.outbound import ClearedPrompt, Withheld, clear_prompt
from sleuth.verify.claims import ClaimCheck

T = TypeVar("T", bound=BaseModel)
TOP_K = 20  # evidence sentences a model is shown: the claim's top 20 by BM25, in page order
_BOUNDARY = re.compile(r"DATA-[0-9a-f]{16}")

PLAIN_SYSTEM = """Is the claim supported by the text? The text is given as numbered sentences.
Answer "supported" (the text states everything the claim says), "partially_supported" (some
of it) or "not_supported" (none of it, or the text disagrees).
Reply with ONE JSON object matching this JSON schema, and nothing else:
"""


class PlainAnswer(BaseModel):
    """The plain prompt's reply: a verdict, nothing to check."""

    model_config = ConfigDict(extra="ignore")
    verdict: Literal["supported", "partially_supported", "not_supported"]


class ReplyCache:
    """Replies by (model, prompt hash); written to `path` (sorted, so the file is the same
    whatever order the run met its prompts in) when one is given."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._data: dict[str, dict[str, dict[str, Any]]] = {}
        self._dirty = 0
        if path is not None and path.exists():
            self._data = json.loads(path.read_text(encoding="utf-8"))

    @staticmethod
    def prompt_hash(prompt: ClearedPrompt, contract: type[BaseModel]) -> str:
        text = json.dumps({"contract": contract.__name__, "messages": list(prompt.messages)},
                          ensure_ascii=False, sort_keys=True)  # fmt: skip
        return hashlib.sha256(_BOUNDARY.sub("DATA-*", text).encode()).hexdigest()

    def get(self, model: str, key: str) -> dict[str, Any] | None:
        return self._data.get(model, {}).get(key)

    def put(self, model: str, key: str, value: dict[str, Any]) -> None:
        self._data.setdefault(model, {})[key] = value
        self._dirty += 1
        if self._dirty >= 25:
            self.save()

    def save(self) -> None:
        if self.path is None or not self._dirty:
            return
        tmp = self.path.with_name(self.path.name + ".tmp")
        tmp.write_text(json.dumps(self._data, ensure_ascii=False, sort_keys=True, indent=1),
                       encoding="utf-8")  # fmt: skip
        os.replace(tmp, self.path)
        self._dirty = 0


class CachedClient(LLMClient):
    """The project's client, answering a prompt it has seen from the cache, and counting
    what became of each request (`tally`)."""

    def __init__(self, config: LLMConfig, cache: ReplyCache, *, sleep: Sleep = time.sleep
                 ) -> None:  # fmt: skip
        super().__init__(config, sleep=sleep)
        self.cache = cache
        self.tally: Counter[str] = Counter()

    def structured(self, role: str, prompt: ClearedPrompt, contract: type[T],
                   on_event: Any = None) -> T | None:  # fmt: skip
        model = self.config.role(role).model
        key = ReplyCache.prompt_hash(prompt, contract)
        self.tally["asked"] += 1
        hit = self.cache.get(model, key)
        if hit is None:
            try:
                obj = super().structured(role, prompt, contract, on_event)
            except LLMSchemaError as exc:  # paid for: kept, so a rerun does not pay again
                self.cache.put(model, key, {"error": str(exc)[:300]})
                self.tally["unparseable"] += 1
                raise
            except LLMUnavailable:
                self.tally["unavailable"] += 1
                raise
            except CallLimitExceeded:
                self.tally["refused"] += 1
                raise
            if obj is None:
                self.tally["refused"] += 1
                return None
            self.cache.put(model, key, {"reply": obj.model_dump(mode="json")})
            return obj
        self.tally["cached"] += 1
        if "error" in hit:
            self.tally["unparseable"] += 1
            raise LLMSchemaError(hit["error"], role=role)
        return contract.model_validate(hit["reply"])

    def close(self) -> None:
        self.cache.save()
        super().close()


def load_client(case_dir: Path | None, cache_path: Path | None) -> CachedClient | str:
    """The client for `--model`, or why there is none (one line)."""
    from sleuth.model.errors import InputError

    try:
        cfg = LLMConfig.load(case_dir)
    except InputError as exc:
        return f"--model: {exc}"
    if not cfg.role(ROLE).configured:
        where = f"{case_dir}/llm.toml" if case_dir is not None else "--llm-case DIR's llm.toml"
        return (f"--model: no LLM is configured for the {ROLE} role (SLEUTH_LLM_MODEL and "
                f"SLEUTH_LLM_BASE_URL, or {where}; `sleuth llm check`)")
    return CachedClient(cfg, ReplyCache(cache_path))


def numbered(evidence: Sequence[str]) -> str:
    return "\n".join(f"[{i}] {s}" for i, s in enumerate(evidence))


def _plain_build(payload: dict[str, Any], data: dict[str, str] | None
                 ) -> list[dict[str, str]]:  # fmt: skip
    parts = [f"CLAIM: {payload['claim']}"]
    parts += [fence(text, label) for label, text in (data or {}).items()]
    parts.append("Reply with the JSON object now.")
    return [{"role": "system", "content": PLAIN_SYSTEM + schema_text(PlainAnswer)},
            {"role": "user", "content": "\n\n".join(parts)}]


def plain_verdict(client: LLMClient, claim: str, evidence: Sequence[str]) -> str:
    """The plain prompt's verdict; `not_supported` when there is no usable answer."""
    cfg = client.config.role(ROLE)
    prompt = clear_prompt(_plain_build, {"claim": claim}, {"text": numbered(evidence)},
                          hosted=not endpoint_is_local(cfg), send_living=cfg.send_living,
                          living=None)  # fmt: skip
    if isinstance(prompt, Withheld):  # pragma: no cover - living=None never withholds
        return "not_supported"
    try:
        reply = client.structured(ROLE, prompt, PlainAnswer)
    except (LLMSchemaError, LLMUnavailable, CallLimitExceeded):
        return "not_supported"
    return reply.verdict if reply is not None else "not_supported"


def sleuth_model_verdict(client: LLMClient, check: ClaimCheck, evidence: Sequence[str],
                         set_aside: Counter[str]) -> str:  # fmt: skip
    """`judge_claim` over the deterministic check, as `sleuth verify --model` runs it;
    counts the answers the firewall set aside (a sentence or quote it could not find)."""
    out = judge_claim(client, check, evidence)
    if "was set aside" in out.rationale:
        set_aside["set aside"] += 1
    return out.verdict


@dataclass(frozen=True)
class Usage:
    """What a system's run cost: the meter's figures and the client's tally, as deltas."""

    requests: int
    input_tokens: int
    output_tokens: int
    cost: float
    tally: Counter[str]
    priced: bool  # a price per token is configured, so the cost is known

    @classmethod
    def now(cls, client: CachedClient) -> Usage:
        u = client.meter.usage.get(ROLE)
        cfg = client.config.role(ROLE)
        return cls(u.calls if u else 0, u.input_tokens if u else 0,
                   u.output_tokens if u else 0, u.cost if u else 0.0, Counter(client.tally),
                   bool(cfg.price_in or cfg.price_out))

    def since(self, before: Usage) -> Usage:
        return Usage(self.requests - before.requests, self.input_tokens - before.input_tokens,
                     self.output_tokens - before.output_tokens, self.cost - before.cost,
                     self.tally - before.tally, self.priced)  # fmt: skip

    def line(self, name: str, n: int, extra: str = "") -> str:
        t = self.tally
        errors = t["unparseable"] + t["refused"] + t["unavailable"]
        cost = f"${self.cost:.4f}" if self.priced else "cost n/a (no SLEUTH_LLM_PRICE_IN/OUT)"
        return (f"{name}: {n} claims, {t['asked']} asked, {self.requests} requests sent "
                f"({t['cached']} answered from the cache), {self.input_tokens} tokens in / "
                f"{self.output_tokens} out, {cost}; model errors {errors} (unparseable or "
                f"refused by the model {t['unparseable']}, refused by a limit {t['refused']}, "
                f"endpoint unavailable {t['unavailable']}){extra}")
