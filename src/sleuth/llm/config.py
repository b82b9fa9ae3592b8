"""Which endpoint, key and model each role uses: environment over case file over defaults.

Environment: `SLEUTH_LLM_<KEY>` for every role and `SLEUTH_LLM_<ROLE>_<KEY>` for one role
(`SLEUTH_LLM_VERIFIER_MODEL`), KEY one of PROVIDER, BASE_URL, API_KEY, MODEL, TIMEOUT,
MAX_RETRIES, MAX_TOKENS, TEMPERATURE, PRICE_IN, PRICE_OUT (USD per million tokens),
JSON_MODE, API_STYLE (auto, openai, azure), API_VERSION and DEPLOYMENT (Azure),
ENDPOINT_LOCALITY (auto, local, hosted) and SEND_LIVING (see `sleuth.llm.outbound`).
Limits: SLEUTH_LLM_MAX_COST, SLEUTH_LLM_RUN_LIMIT, SLEUTH_LLM_THREAD_LIMIT,
SLEUTH_LLM_EXIT_BEHAVIOR.

A case may hold `llm.toml` (`[default]`, `[roles.<role>]`, `[limits]`). It may name the
variable that holds a key (`api_key_env`) but never the key itself: case folders are
copied and shared, keys must not travel with them.

A role is configured when it has a model; with none, the LLM layer stays off and the
deterministic components run alone.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, SecretStr, ValidationError, model_validator

from sleuth.model import InputError

ROLES: tuple[str, ...] = ("planner", "verifier", "resolver", "analyst")
CASE_FILE = "llm.toml"
PREFIX = "SLEUTH_LLM_"
_KEYS = ("provider", "base_url", "api_key", "model", "timeout", "max_retries", "max_tokens",
         "temperature", "price_in", "price_out", "json_mode", "api_style", "api_version",
         "deployment", "endpoint_locality", "send_living")
DEFAULT_BASE = {"openai": "https://api.openai.com/v1", "anthropic": "https://api.anthropic.com"}
# Azure OpenAI resource hosts (classic and AI Services); `api_style = "auto"` picks Azure's
# URL and `api-key` header for them.
AZURE_HOST_SUFFIXES = (".openai.azure.com", ".cognitiveservices.azure.com")
AZURE_API_VERSION = "2024-10-21"  # the latest GA data-plane inference version

Provider = Literal["openai", "anthropic"]
ApiStyle = Literal["auto", "openai", "azure"]
Locality = Literal["auto", "local", "hosted"]
ExitBehavior = Literal["continue", "error", "end"]


class RoleConfig(BaseModel):
    """One role's endpoint. `repr` never shows the key (SecretStr)."""

    model_config = ConfigDict(frozen=True)

    role: str
    provider: Provider = "openai"
    base_url: str = ""
    api_key: SecretStr | None = None
    model: str = ""
    timeout: float = Field(default=60.0, gt=0)
    max_retries: int = Field(default=3, ge=0, le=10)
    max_tokens: int = Field(default=2048, ge=1)
    temperature: float = Field(default=0.0, ge=0, le=2)
    price_in: float = Field(default=0.0, ge=0)  # USD per million input tokens
    price_out: float = Field(default=0.0, ge=0)  # USD per million output tokens
    # json_object: OpenAI JSON mode; json_object_schema: the same plus the schema, which
    # llama.cpp's server enforces (its json_schema form answers HTTP 500); json_schema: OpenAI
    # structured outputs; none: the prompt alone (servers that refuse response_format).
    json_mode: Literal["json_object", "json_object_schema", "json_schema", "none"] = (
        "json_object")
    # Azure OpenAI: `{base}/openai/deployments/{deployment}/chat/completions?api-version=...`
    # with an `api-key` header; api_version "v1" selects the v1 API `{base}/openai/v1/...`.
    api_style: ApiStyle = "auto"
    api_version: str = Field(default=AZURE_API_VERSION,
                             pattern=r"^(v1|preview|\d{4}-\d{2}-\d{2}(-preview)?)$")
    deployment: str = Field(default="", pattern=r"^[A-Za-z0-9._-]*$")  # "" = the model name
    # Whether the endpoint runs on this machine (auto: by host; see `sleuth.llm.outbound`).
    endpoint_locality: Locality = "auto"
    send_living: bool = False  # opt in to sending possibly-living persons' records off-machine

    @model_validator(mode="after")
    def _azure_needs_a_base(self) -> RoleConfig:
        if self.style == "azure" and not self.base_url:
            raise ValueError("Azure needs base_url (https://<resource>.openai.azure.com)")
        return self

    @property
    def configured(self) -> bool:
        return bool(self.model)

    @property
    def host(self) -> str:
        return (urlsplit(self.url).hostname or "").lower()

    @property
    def style(self) -> str:
        """The wire format: anthropic, openai or azure (auto-detected from the host)."""
        if self.provider == "anthropic":
            return "anthropic"
        if self.api_style != "auto":
            return self.api_style
        host = (urlsplit(self.base_url).hostname or "").lower()
        return "azure" if host.endswith(AZURE_HOST_SUFFIXES) else "openai"

    @property
    def url(self) -> str:
        return (self.base_url or DEFAULT_BASE[self.provider]).rstrip("/")

    def key(self) -> str | None:
        return self.api_key.get_secret_value() if self.api_key else None

    def cost(self, input_tokens: int, output_tokens: int) -> float:
        return (input_tokens * self.price_in + output_tokens * self.price_out) / 1_000_000


class Limits(BaseModel):
    """Seed 002 middleware semantics for model calls, plus the cost budget."""

    model_config = ConfigDict(frozen=True)

    run_limit: int | None = Field(default=None, ge=0)  # model calls per run
    thread_limit: int | None = Field(default=None, ge=0)  # model calls over the whole case
    exit_behavior: ExitBehavior = "continue"
    max_cost: float | None = Field(default=None, ge=0)  # USD, summed over every role


class LLMConfig(BaseModel):
    model_config = ConfigDict(frozen=True)

    roles: dict[str, RoleConfig]
    limits: Limits = Field(default_factory=Limits)

    def role(self, name: str) -> RoleConfig:
        if name not in self.roles:
            raise InputError(f"unknown LLM role {name!r}; use one of {', '.join(ROLES)}",
                             field="role")
        return self.roles[name]

    @property
    def enabled(self) -> bool:
        return any(r.configured for r in self.roles.values())

    @classmethod
    def load(cls, case_dir: Path | None = None,
             env: Mapping[str, str] | None = None) -> LLMConfig:
        """Environment (default `os.environ`) over `case_dir/llm.toml` over defaults."""
        env = os.environ if env is None else env
        file = _read_file(case_dir / CASE_FILE) if case_dir is not None else {}
        where = str(case_dir / CASE_FILE) if case_dir is not None else "environment"
        default = dict(file.get("default", {}))
        roles: dict[str, RoleConfig] = {}
        for role in ROLES:
            values: dict[str, Any] = {}
            values.update(_resolve_key_env(default, env, where))
            values.update(_resolve_key_env(dict(file.get("roles", {}).get(role, {})), env,
                                           where))
            values.update(_from_env(env, PREFIX))
            values.update(_from_env(env, f"{PREFIX}{role.upper()}_"))
            try:
                roles[role] = RoleConfig(role=role, **values)
            except ValidationError as exc:
                err = exc.errors()[0]
                raise InputError(f"LLM settings for {role}: {err['msg']}", file=where,
                                 field=".".join(str(x) for x in err["loc"])) from None
        limits: dict[str, Any] = dict(file.get("limits", {}))
        for key in ("max_cost", "run_limit", "thread_limit", "exit_behavior"):
            if (v := env.get(f"{PREFIX}{key.upper()}")) not in (None, ""):
                limits[key] = v
        try:
            return cls(roles=roles, limits=Limits(**limits))
        except ValidationError as exc:
            err = exc.errors()[0]
            raise InputError(f"LLM limits: {err['msg']}", file=where,
                             field=".".join(str(x) for x in err["loc"])) from None


def _from_env(env: Mapping[str, str], prefix: str) -> dict[str, Any]:
    return {k: env[f"{prefix}{k.upper()}"] for k in _KEYS
            if env.get(f"{prefix}{k.upper()}") not in (None, "")}


def _resolve_key_env(section: dict[str, Any], env: Mapping[str, str], where: str
                     ) -> dict[str, Any]:
    section = dict(section)
    if "api_key" in section:
        raise InputError("an API key may not be written in the case file; name its "
                         "environment variable with api_key_env", file=where, field="api_key")
    name = section.pop("api_key_env", None)
    if name:
        section["api_key"] = env.get(str(name)) or None
    unknown = set(section) - set(_KEYS)
    if unknown:
        raise InputError(f"unknown LLM setting {sorted(unknown)[0]!r}", file=where,
                         field=sorted(unknown)[0])
    return section


def _read_file(path: Path) -> dict[str, Any]:
    if not path.exists():
        return {}
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"not valid TOML: {exc}", file=str(path)) from None
