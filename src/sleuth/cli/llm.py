"""`sleuth llm check`: does the configured endpoint answer, how fast, and in our schema?

One tiny structured request per distinct endpoint (wire format, URL, model) among the roles.
The report names the endpoint, its wire format (openai, azure, anthropic), whether it is on
this machine (local) or hosted (prompts PII-scrubbed, living persons withheld; see
`sleuth.llm.outbound`) and the model, never the key. Exit 0 when every endpoint gave a
schema-valid reply (a repaired one counts, and says so), 1 otherwise.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.table import Table

from sleuth.cli.common import console
from sleuth.model import InputError

if TYPE_CHECKING:  # the LLM layer (httpx, pydantic) loads in the command: start-up time
    from sleuth.llm import LLMClient

# `sleuth.llm.config.ROLES`, spelled out for the help text so that `--help` does not import
# the LLM layer (tests/cli/test_startup.py checks that they agree).
ROLE_NAMES = ("planner", "verifier", "resolver", "analyst")

app = typer.Typer(help="The optional LLM layer: check the configured endpoints.",
                  no_args_is_help=True)

PING = ('Reply with only this JSON object, with the number filled in: '
        '{"ok": true, "answer": <the sum of 2 and 3>}')


def ping(client: LLMClient, role: str) -> dict[str, Any]:
    """One structured request; a row of the report."""
    from sleuth.llm import LLMError
    from sleuth.llm.contracts import PingOutput
    from sleuth.llm.outbound import endpoint_is_local
    from sleuth.privacy.outbound import fixed_prompt

    cfg = client.config.role(role)
    row: dict[str, Any] = {"role": role, "provider": cfg.style, "url": cfg.url,
                           "model": cfg.model,
                           "endpoint": "local" if endpoint_is_local(cfg) else "hosted"}
    msgs = [{"role": "system", "content": "You are a health check. Follow the instruction "
             "exactly and reply in JSON."}, {"role": "user", "content": PING}]
    t0 = time.perf_counter()
    try:
        out = client.structured(role, fixed_prompt(msgs), PingOutput)
    except LLMError as exc:
        row.update(latency_s=round(time.perf_counter() - t0, 3), schema="no", error=str(exc))
        return row
    last = client.last
    row.update(latency_s=round(time.perf_counter() - t0, 3),
               schema="no" if out is None else ("after repair" if last and last.repaired
                                                else "yes"),
               correct=bool(out and out.ok and out.answer == 5),
               input_tokens=last.input_tokens if last else 0,
               output_tokens=last.output_tokens if last else 0)
    if out is None:
        row["error"] = "refused by a call limit"
    return row


@app.command("check")
def check(
    case: Annotated[Path | None, typer.Option("--case", help="A case folder whose llm.toml "
                                              "to read (the environment still wins).")] = None,
    role: Annotated[str | None, typer.Option("--role", help="Check only this role: "
                                             + ", ".join(ROLE_NAMES))] = None,
    fmt: Annotated[str, typer.Option("--format", help="text or json")] = "text",
) -> None:
    """Send a tiny structured request; report latency and schema compliance."""
    if fmt not in ("text", "json"):
        raise InputError(f"unknown format {fmt!r}; use text or json", field="--format")
    from sleuth.llm import ROLES, LLMClient, LLMConfig, Meter

    cfg = LLMConfig.load(case)
    roles = [role] if role else [r for r in ROLES if cfg.role(r).configured]
    for r in roles:
        cfg.role(r)  # unknown role: InputError
    roles = [r for r in roles if cfg.role(r).configured]
    if not roles:
        raise InputError("no LLM is configured (set SLEUTH_LLM_BASE_URL and SLEUTH_LLM_MODEL, "
                         "or write llm.toml in the case)", field="SLEUTH_LLM_MODEL")
    client = LLMClient(cfg, Meter())  # a check ignores the run's limits
    seen: dict[tuple[str, ...], dict[str, Any]] = {}
    try:
        for r in roles:
            c = cfg.role(r)
            key = (c.style, c.url, c.model, c.deployment, c.api_version)
            if key in seen:
                seen[key]["role"] += f", {r}"
                continue
            seen[key] = ping(client, r)
    finally:
        client.close()
    rows = list(seen.values())
    if fmt == "json":
        for row in rows:
            console.print_json(json.dumps(row))
    else:
        table = Table("roles", "provider", "model", "url", "endpoint", "latency", "schema",
                      "answer")
        for row in rows:
            table.add_row(row["role"], row["provider"], row["model"], row["url"], row["endpoint"],
                          f"{row['latency_s'] * 1000:.0f} ms", row["schema"],
                          "-" if "correct" not in row else ("5 ok" if row["correct"]
                                                            else "wrong"))
        console.print(table)
        for row in rows:
            if row.get("error"):
                console.print(f"{row['role']}: {row['error']}")
    if any(row["schema"] == "no" for row in rows):
        raise typer.Exit(1)
