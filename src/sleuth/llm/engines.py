"""Deep-research engines: model endpoints asked a question for *leads* (issue 24).

An engine is one more role of the LLM layer, `engine:<name>`, configured like the others
(`sleuth.llm.config`): the default settings (`SLEUTH_LLM_*`, `[default]` in `llm.toml`),
then the engine's own (`SLEUTH_LLM_ENGINE_<NAME>_<KEY>`, `[engines.<name>]`). The engines
are named by `SLEUTH_LLM_ENGINES=a,b` or the `[engines.*]` sections; with none named, a
configured default model is one engine, `default`. Their calls share the client's Meter,
so one cost budget covers them all.
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
        try:
            cfg = RoleConfig(role=ENGINE + name, **values)
        except ValidationError as exc:
            err = exc.errors()[0]
            raise InputError(f"LLM settings for engine {name}: {err['msg']}", file=where,
                             field=".".join(str(x) for x in err["loc"])) from None
        if cfg.configured:
            out[ENGINE + name] = cfg
    return out


def engine_client(case_dir: Path | None = None, *, max_cost: float | None = None,
                  env: Mapping[str, str] | None = None) -> tuple[LLMClient, list[str]] | None:
    """A client whose roles include the engines (and the configured roles, for the
    critique), and the engines' role names; None when no engine is configured.
    `max_cost` tightens the configured cost budget (the run's own budget left)."""
    engines = engine_configs(case_dir, env)
    if not engines:
        return None
    cfg = LLMConfig.load(case_dir, env)
    limits = cfg.limits
    if max_cost is not None:
        cap = max_cost if limits.max_cost is None else min(max_cost, limits.max_cost)
        limits = limits.model_copy(update={"max_cost": cap})
    cfg = cfg.model_copy(update={"roles": {**cfg.roles, **engines}, "limits": limits})
    return LLMClient(cfg, Meter(limits)), list(engines)
