"""From a model's reply text to a validated contract object, or a reason why not.

Reasoning models wrap their thinking in `<think>…</think>` (DeepSeek-R1, Qwen3, QwQ) and
chatty ones fence JSON in Markdown; both are removed before parsing. Plain string scanning
only: no regex can be made to backtrack on a hostile reply.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

T = TypeVar("T", bound=BaseModel)
_REASONING_TAGS = ("think", "thinking", "reasoning")


@lru_cache(maxsize=64)
def schema_of(contract: type[BaseModel]) -> dict[str, Any]:
    """The contract's JSON schema, built once (Pydantic takes milliseconds per build)."""
    return contract.model_json_schema()


@lru_cache(maxsize=64)
def schema_text(contract: type[BaseModel]) -> str:
    return json.dumps(schema_of(contract), separators=(",", ":"))


def strip_reasoning(text: str) -> str:
    """Drop every `<think>…</think>` block; an unclosed opening tag drops the rest, and a
    closing tag with no opening one (servers that strip the opening) drops what precedes it."""
    for tag in _REASONING_TAGS:
        open_, close = f"<{tag}>", f"</{tag}>"
        low = text.lower()
        head = low.find(close)
        if head >= 0 and low.rfind(open_, 0, head) < 0:
            text = text[head + len(close):]
            low = text.lower()
        out: list[str] = []
        i = 0
        while True:
            s = low.find(open_, i)
            if s < 0:
                out.append(text[i:])
                break
            out.append(text[i:s])
            e = low.find(close, s)
            if e < 0:
                break
            i = e + len(close)
        text = "".join(out)
    return text.strip()


def extract_json(text: str) -> str:
    """The JSON object in a reply: without reasoning, Markdown fences or chatter around it."""
    text = strip_reasoning(text)
    if text.startswith("```"):
        nl = text.find("\n")
        end = text.rfind("```")
        if nl >= 0 and end > nl:
            text = text[nl + 1 : end].strip()
    if text.startswith("{"):
        return text
    start, end = text.find("{"), text.rfind("}")
    return text[start : end + 1] if 0 <= start < end else text


def parse_reply(text: str, model: type[T]) -> tuple[T | None, str]:
    """(object, "") when the reply is valid for the contract; (None, reason) otherwise."""
    body = extract_json(text)
    try:
        data = json.loads(body)
    except json.JSONDecodeError as exc:
        return None, f"not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"
    if not isinstance(data, dict):
        return None, f"expected a JSON object, got {type(data).__name__}"
    try:
        return model.model_validate(data), ""
    except ValidationError as exc:
        errs = exc.errors()
        first = errs[0]
        where = ".".join(str(x) for x in first["loc"]) or "(root)"
        more = f" (and {len(errs) - 1} more)" if len(errs) > 1 else ""
        return None, f"does not match {model.__name__}: {where}: {first['msg']}{more}"
