"""Two wire formats over httpx: OpenAI-compatible chat completions and Anthropic Messages.

OpenAI's shape covers hosted OpenAI, Ollama, vLLM, llama.cpp's server and LM Studio; Azure
OpenAI speaks it too, at its own URL and with an `api-key` header (`AzureProvider`). All
share one retry policy: 408/429/5xx/529 and transport errors are retried with exponential
backoff and jitter, honouring Retry-After; anything else fails at once. The API key goes
only into a request header: every message that leaves this module is scrubbed of it, and
the HTTP stack's log records too (`sleuth.net.redact`).

Requests go through the network door (`sleuth.net.guarded_client`): the host of a
configured base_url is the one host allowed to be private or loopback (Ollama on
127.0.0.1, a vLLM box on the LAN, an Azure private endpoint); the default public endpoints
get no such allowance. Redirects are not followed: the request carries the prompt and the
key, and an API that redirects is configured at the wrong address. Replies are read under a
size cap (`MAX_REPLY_BYTES`). Proxies and CA settings come from the environment
(HTTPS_PROXY, NO_PROXY, SSL_CERT_FILE...), as httpx's defaults always gave them.
"""

from __future__ import annotations

import json
import random
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from email.utils import parsedate_to_datetime
from typing import Any
from urllib.parse import quote

import httpx

from sleuth.llm.config import RoleConfig
from sleuth.llm.errors import LLMNotConfigured, LLMUnavailable, scrub
from sleuth.net.body import BodyRefused, BodyTooLarge, read_body
from sleuth.net.guard import Resolver, SsrfRefused, system_resolver
from sleuth.net.transport import guarded_client

RETRY_STATUS = frozenset({408, 429, 500, 502, 503, 504, 529})
BACKOFF_BASE = 0.5  # seconds before the first retry (doubled each time, jittered)
BACKOFF_CAP = 30.0
RETRY_AFTER_CAP = 120.0  # a server asking for longer than this is treated as unavailable
MAX_REPLY_BYTES = 8 * 1024 * 1024  # a completion of max_tokens is a few hundred KB at most

Message = dict[str, str]
Sleep = Callable[[float], None]


@dataclass(frozen=True)
class ChatResult:
    text: str
    input_tokens: int
    output_tokens: int
    model: str
    latency_s: float  # the successful round trip only
    attempts: int
    finish_reason: str | None = None


def retry_after(value: str | None, now: float | None = None) -> float | None:
    """Seconds to wait from a Retry-After header (delta-seconds or an HTTP date)."""
    if not value:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(value).timestamp()
    except (TypeError, ValueError, IndexError):
        return None
    return max(0.0, when - (time.time() if now is None else now))


def backoff(attempt: int, rng: random.Random) -> float:
    """Exponential backoff with jitter: a random wait in [d/2, d], d = base * 2^attempt."""
    d = min(BACKOFF_CAP, BACKOFF_BASE * (2**attempt))
    return d / 2 + rng.random() * d / 2


class Provider(ABC):
    """Final `chat`, per-format `_request` / `_parse` hooks (one class per wire format)."""

    def __init__(self, cfg: RoleConfig, *, sleep: Sleep = time.sleep,
                 transport: httpx.BaseTransport | None = None, seed: int | None = None,
                 resolver: Resolver = system_resolver,
                 max_reply_bytes: int = MAX_REPLY_BYTES) -> None:
        if not cfg.configured:
            raise LLMNotConfigured(f"no model configured for the {cfg.role} role "
                                   f"(set SLEUTH_LLM_MODEL or SLEUTH_LLM_{cfg.role.upper()}_MODEL)")
        self.cfg = cfg
        self._sleep = sleep
        self._rng = random.Random(seed)
        self.max_reply_bytes = max_reply_bytes
        self._http = guarded_client(local_hosts=endpoint_hosts(cfg), resolver=resolver,
                                    timeout_s=cfg.timeout, trust_env=True, transport=transport,
                                    secrets=(cfg.key(),))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.cfg.url!r}, model={self.cfg.model!r})"  # no key

    def close(self) -> None:
        self._http.close()

    # -- hooks ---------------------------------------------------------------------------
    @abstractmethod
    def endpoint(self) -> str:
        """Each API names it its own way."""

    @abstractmethod
    def headers(self) -> dict[str, str]:
        """Each API names it its own way."""

    @abstractmethod
    def body(self, messages: list[Message], schema: dict[str, Any] | None) -> dict[str, Any]:
        """Each API names it its own way."""

    @abstractmethod
    def parse(self, data: dict[str, Any]) -> tuple[str, int, int, str | None]:
        """(text, input tokens, output tokens, finish reason) from a reply body."""

    # -- the one door ----------------------------------------------------------------------
    def chat(self, messages: list[Message], *, schema: dict[str, Any] | None = None
             ) -> ChatResult:
        """One completion, retried per the policy above; raises LLMUnavailable."""
        url = self.endpoint()
        body = self.body(messages, schema)
        key = self.cfg.key()
        last = ""
        for attempt in range(self.cfg.max_retries + 1):
            wait: float | None = None
            t0 = time.perf_counter()
            try:
                req = self._http.build_request("POST", url, json=body, headers=self.headers())
                resp = self._http.send(req, stream=True)
                raw = read_body(resp, self.max_reply_bytes, self.cfg.timeout)
            except (SsrfRefused, BodyTooLarge) as exc:  # the same answer on every attempt
                raise LLMUnavailable(scrub(f"{url}: {exc}", key)) from None
            except BodyRefused as exc:
                last = f"reply broken off ({exc})"
            except httpx.TimeoutException:
                last = f"no answer within {self.cfg.timeout:g} s"
            except httpx.TransportError as exc:
                last = f"connection failed ({type(exc).__name__})"
            else:
                latency = time.perf_counter() - t0
                if resp.status_code == 200:
                    return self._result(raw, latency, attempt + 1, key)
                last = f"HTTP {resp.status_code}: {_brief(raw.decode(errors='replace'))}"
                if resp.is_redirect:
                    last += (f"; redirect to {resp.headers.get('location')} not followed (set "
                             "the base URL to the address the API answers at)")
                if resp.status_code not in RETRY_STATUS:
                    raise LLMUnavailable(scrub(f"{url}: {last}", key), status=resp.status_code)
                wait = retry_after(resp.headers.get("retry-after"))
                if wait is not None and wait > RETRY_AFTER_CAP:
                    raise LLMUnavailable(scrub(f"{url}: {last}; Retry-After {wait:g} s is "
                                               "beyond the cap", key), status=resp.status_code)
            if attempt < self.cfg.max_retries:
                self._sleep(wait if wait is not None else backoff(attempt, self._rng))
        raise LLMUnavailable(scrub(f"{url}: {last} (after {self.cfg.max_retries + 1} "
                                   "attempts)", key))

    def _result(self, raw: bytes, latency: float, attempts: int,
                key: str | None) -> ChatResult:
        try:
            data = json.loads(raw)
            text, tin, tout, finish = self.parse(data)
        except (ValueError, KeyError, IndexError, TypeError) as exc:
            raise LLMUnavailable(scrub(f"{self.endpoint()}: reply is not an "
                                       f"{self.cfg.provider} completion ({exc})", key)) from None
        return ChatResult(text, tin, tout, str(data.get("model") or self.cfg.model), latency,
                          attempts, finish)


class OpenAIProvider(Provider):
    def endpoint(self) -> str:
        return f"{self.cfg.url}/chat/completions"

    def headers(self) -> dict[str, str]:
        key = self.cfg.key()
        return {"Authorization": f"Bearer {key}"} if key else {}

    def body(self, messages: list[Message], schema: dict[str, Any] | None) -> dict[str, Any]:
        out: dict[str, Any] = {"model": self.cfg.model, "messages": messages,
                               "temperature": self.cfg.temperature,
                               "max_tokens": self.cfg.max_tokens}
        mode = self.cfg.json_mode
        if schema is not None and mode == "json_object":
            out["response_format"] = {"type": "json_object"}
        elif schema is not None and mode == "json_object_schema":
            out["response_format"] = {"type": "json_object", "schema": schema}
        elif schema is not None and mode == "json_schema":
            out["response_format"] = {"type": "json_schema", "json_schema": {
                "name": str(schema.get("title", "reply")), "schema": schema, "strict": False}}
        return out

    def parse(self, data: dict[str, Any]) -> tuple[str, int, int, str | None]:
        choice = data["choices"][0]
        text = choice["message"].get("content") or ""
        if isinstance(text, list):  # content parts, as some compatible servers send them
            text = "".join(p.get("text", "") for p in text if p.get("type") == "text")
        usage = data.get("usage") or {}
        return (str(text), int(usage.get("prompt_tokens") or 0),
                int(usage.get("completion_tokens") or 0), choice.get("finish_reason"))


class AzureProvider(OpenAIProvider):
    """Azure OpenAI: the OpenAI body, Azure's URL and `api-key` header (never Bearer).

    Dated API versions address a deployment:
    `{base}/openai/deployments/{deployment}/chat/completions?api-version=YYYY-MM-DD`;
    api_version "v1" uses the v1 API, `{base}/openai/v1/chat/completions`, where the body's
    `model` names the deployment. The base may be given with or without `/openai[/v1]`.
    """

    def base(self) -> str:
        url = self.cfg.url
        for tail in ("/openai/v1", "/openai"):
            if url.endswith(tail):
                return url[: -len(tail)]
        return url

    @property
    def deployment(self) -> str:
        return self.cfg.deployment or self.cfg.model

    @property
    def v1(self) -> bool:
        return self.cfg.api_version == "v1" or self.cfg.url.endswith("/openai/v1")

    def endpoint(self) -> str:
        if self.v1:
            return f"{self.base()}/openai/v1/chat/completions"
        return (f"{self.base()}/openai/deployments/{quote(self.deployment, safe='')}"
                f"/chat/completions?api-version={self.cfg.api_version}")

    def headers(self) -> dict[str, str]:
        key = self.cfg.key()
        return {"api-key": key} if key else {}

    def body(self, messages: list[Message], schema: dict[str, Any] | None) -> dict[str, Any]:
        out = super().body(messages, schema)
        if self.v1:
            out["model"] = self.deployment
        return out


class AnthropicProvider(Provider):
    VERSION = "2023-06-01"

    def endpoint(self) -> str:
        url = self.cfg.url
        return f"{url}/messages" if url.endswith("/v1") else f"{url}/v1/messages"

    def headers(self) -> dict[str, str]:
        h = {"anthropic-version": self.VERSION}
        if key := self.cfg.key():
            h["x-api-key"] = key
        return h

    def body(self, messages: list[Message], schema: dict[str, Any] | None) -> dict[str, Any]:
        system = "\n\n".join(m["content"] for m in messages if m["role"] == "system")
        rest = [m for m in messages if m["role"] != "system"]
        out: dict[str, Any] = {"model": self.cfg.model, "max_tokens": self.cfg.max_tokens,
                               "temperature": self.cfg.temperature, "messages": rest}
        if system:
            out["system"] = system
        return out

    def parse(self, data: dict[str, Any]) -> tuple[str, int, int, str | None]:
        # Only text blocks: "thinking" blocks are the model's reasoning, never its answer.
        text = "".join(b.get("text", "") for b in data["content"] if b.get("type") == "text")
        usage = data.get("usage") or {}
        return (text, int(usage.get("input_tokens") or 0), int(usage.get("output_tokens") or 0),
                data.get("stop_reason"))


def endpoint_hosts(cfg: RoleConfig) -> frozenset[str]:
    """The host a user configured (base_url) may be private or loopback; a default is public."""
    return frozenset({cfg.host}) if cfg.base_url and cfg.host else frozenset()


def make_provider(cfg: RoleConfig, **kw: Any) -> Provider:
    cls = {"anthropic": AnthropicProvider, "azure": AzureProvider}.get(cfg.style,
                                                                      OpenAIProvider)
    return cls(cfg, **kw)


def _brief(text: str, limit: int = 200) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit] + "..."
