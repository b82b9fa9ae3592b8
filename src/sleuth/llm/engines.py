"""Deep-research engines: model endpoints asked a question for *leads* (issue 24).

An engine is one more role of the LLM layer, `engine:<name>`, configured like the others
(`sleuth.llm.config`): the default settings (`SLEUTH_LLM_*`, `[default]` in `llm.toml`),
then the engine's own (`SLEUTH_LLM_ENGINE_<NAME>_<KEY>`, `[engines.<name>]`). The engines
are named by `SLEUTH_LLM_ENGINES=a,b` or the `[engines.*]` sections; with none named, a
configured default model is one engine, `default`. Their calls share the client's Meter,
so one cost budget covers them all.

The investigation's /questions role, `questions`, is configured the same way
(`SLEUTH_LLM_QUESTIONS_<KEY>`, `[roles.questions]`) and rides on the same client and Meter;
it is on only when given a model of its own, so a case that ran offline with a default
model configured for its engines asks the same questions as before.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from sleuth.llm.client import LLMClient
from sleuth.llm.config import (
    CASE_FILE,
    PREFIX,
    LLMConfig,
    RoleConfig,
    _from_env,
    _read_file,
    _resolve_key_env,
)
from sleuth.llm.meter import Meter
from sleuth.model import InputError

ENGINE = "engine:"
QUESTIONS = "questions"  # the investigation's /questions role
NAMES_ENV = f"{PREFIX}ENGINES"
_NAME = re.compile(r"^[a-z0-9_]{1,32}$")


def engine_configs(case_dir: Path | None = None, env: Mapping[str, str] | None = None
                   ) -> dict[str, RoleConfig]:
    """role name (`engine:<name>`) -> its settings, for every configured engine."""
    env = os.environ if env is None else env
    file = _read_file(case_dir / CASE_FILE) if case_dir is not None else {}
    where = str(case_dir / CASE_FILE) if case_dir is not None else "environment"
    sections: dict[str, Any] = dict(file.get("engines", {}))
    names = [n.strip().lower() for n in env.get(NAMES_ENV, "").split(",") if n.strip()] or \
        sorted(sections)
    base: dict[str, Any] = {**_resolve_key_env(dict(file.get("default", {})), env, where),
                            **_from_env(env, PREFIX)}
    if not names:
        names = ["default"] if base.get("model") else []
    out: dict[str, RoleConfig] = {}
    for name in names:
        if not _NAME.match(name):
            raise InputError(f"engine name {name!r}: use a-z, 0-9 and _", field=NAMES_ENV)
        values = {**base, **_resolve_key_env(dict(sections.get(name, {})), env, where),
                  **_from_env(env, f"{PREFIX}ENGINE_{name.upper()}_")}
        cfg = _role(ENGINE + name, values, where, f"engine {name}")
        if cfg.configured:
            out[ENGINE + name] = cfg
    return out


def questions_config(case_dir: Path | None = None, env: Mapping[str, str] | None = None
                     ) -> RoleConfig | None:
    """The /questions role's settings (the defaults, then `[roles.questions]`, then
    `SLEUTH_LLM_QUESTIONS_*`), or None unless that role names a model of its own."""
    env = os.environ if env is None else env
    file = _read_file(case_dir / CASE_FILE) if case_dir is not None else {}
    where = str(case_dir / CASE_FILE) if case_dir is not None else "environment"
    own = {**_resolve_key_env(dict(file.get("roles", {}).get(QUESTIONS, {})), env, where),
           **_from_env(env, f"{PREFIX}{QUESTIONS.upper()}_")}
    if not own.get("model"):
        return None
    values = {**_resolve_key_env(dict(file.get("default", {})), env, where),
              **_from_env(env, PREFIX), **own}
    return _role(QUESTIONS, values, where, QUESTIONS)


def _role(role: str, values: dict[str, Any], where: str, label: str) -> RoleConfig:
    try:
        return RoleConfig(role=role, **values)
    except ValidationError as exc:
        err = exc.errors()[0]
        raise InputError(f"LLM settings for {label}: {err['msg']}", file=where,
                         field=".".join(str(x) for x in err["loc"])) from None


def engine_client(case_dir: Path | None = None, *, max_cost: float | None = None,
                  env: Mapping[str, str] | None = None) -> tuple[LLMClient, list[str]] | None:
    """A client whose roles include the engines and the questions role (and the configured
    roles, for the critique), and the engines' role names (none when only the questions
    role is configured); None when neither is. `max_cost` tightens the configured cost
    budget (the run's own budget left)."""
    engines = engine_configs(case_dir, env)
    asker = questions_config(case_dir, env)
    if not engines and asker is None:
        return None
    cfg = LLMConfig.load(case_dir, env)
    limits = cfg.limits
    if max_cost is not None:
        cap = max_cost if limits.max_cost is None else min(max_cost, limits.max_cost)
        limits = limits.model_copy(update={"max_cost": cap})
    roles = {**cfg.roles, **engines, **({QUESTIONS: asker} if asker else {})}
    cfg = cfg.model_copy(update={"roles": roles, "limits": limits})
    return LLMClient(cfg, Meter(limits)), list(engines)
