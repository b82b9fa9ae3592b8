"""Strict input (issue 26): a local file with problems is refused, or read leniently.

`load_file` finds a file's problems (GEDCOM: `sleuth.gedcom.validate`; JSON: `check_json`
here) and hands them to `judge`. By default a problem that makes the file unsafe to read
(`InputProblem.refuse`) refuses the file with one line naming file, line and field, before
anything is stored; the others are read with a warning. Inside `reading(lenient=True)`
(`sleuth ingest --lenient`) nothing is refused: the file is read as well as it can be. Either
way every problem is kept in the snapshot's metadata (`input_problems`), where `sleuth check`
finds it, and handed to the `Reading` in force, so the command can print a warning line.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field

from sleuth.extract.records import json_shape
from sleuth.model import InputError, Snapshot
from sleuth.model.errors import InputProblem

PROBLEMS_KEY = "input_problems"  # in a snapshot's metadata: each problem's `to_json()`
# Text that starts like a JSON object or array ("[Transcriber's note]" does not)
_JSON_START = re.compile(r'[\ufeff \t\r\n]*(?:\{[ \t\r\n]*["}]|\[[ \t\r\n]*[\[{"\]])')
_KEY = re.compile(r'"((?:[^"\\]|\\.){1,80})"[ \t\r\n]*:')
# A C0 control (not TAB, LF, CR) or DEL written as a JSON escape (`\u0000`): valid JSON,
# but a NUL that PostgreSQL's text columns refuse and no record means (as in GEDCOM).
_CONTROL_ESCAPE = re.compile(
    r'(?<!\\)((?:\\\\)*)\\u00(0[0-8bBcCeEfF]|1[0-9a-fA-F]|7[fF])')


@dataclass
class Reading:
    """How files are read in this context, and what was found wrong with them."""

    lenient: bool = False
    problems: list[tuple[str, InputProblem]] = field(default_factory=list)


_READING: ContextVar[Reading | None] = ContextVar("sleuth_reading", default=None)


@contextmanager
def reading(*, lenient: bool = False) -> Iterator[Reading]:
    """Read files leniently (or not) inside this block, collecting their problems."""
    r = Reading(lenient)
    token = _READING.set(r)
    try:
        yield r
    finally:
        _READING.reset(token)


def judge(problems: list[InputProblem], where: str, meta: dict[str, object],
          lenient: bool | None = None) -> None:
    """Refuse the file for its first refusing problem (unless lenient), else record every
    problem in `meta` and in the `Reading` in force."""
    if not problems:
        return
    r = _READING.get()
    soft = lenient if lenient is not None else (r is not None and r.lenient)
    refused = [p for p in problems if p.refuse]
    if refused and not soft:
        first = refused[0]
        more = len(problems) - 1
        extra = f"; {more} more problem{'s' if more > 1 else ''}" if more else ""
        raise InputError(f"{first.message}{extra} (refused; `sleuth ingest --lenient` stores "
                         "what can be read)",
                         file=where, line=first.line, field=first.field)
    meta[PROBLEMS_KEY] = [p.to_json() for p in problems]
    if r is not None:
        r.problems.extend((where, p) for p in problems)


def problems_of(snap: Snapshot) -> list[InputProblem]:
    """The problems a stored snapshot was read with (none for a clean file)."""
    found = snap.metadata.get(PROBLEMS_KEY) if isinstance(snap.metadata, dict) else None
    if not isinstance(found, list):
        return []
    return [InputProblem.from_json(d) for d in found if isinstance(d, dict)]


def looks_json(suffix: str, text: str) -> bool:
    return suffix == ".json" or _JSON_START.match(text) is not None


def check_json(snap: Snapshot, raw: bytes) -> list[InputProblem]:
    """JSON that does not parse (its line, and the member being read where the text
    stops), or that parses into no record shape an extractor reads."""
    text = snap.text
    try:
        json.loads(text)
    except json.JSONDecodeError as exc:
        keys = list(_KEY.finditer(text, 0, exc.pos))
        key = keys[-1].group(1) if keys else None
        at_end = not text[exc.pos:].strip()
        what = "the text ends inside the JSON (truncated?)" if at_end else exc.msg
        return [InputProblem("json", f"JSON does not parse: {what} (column {exc.colno})",
                             exc.lineno, key)]
    except RecursionError:
        return [InputProblem("json", "JSON nested too deeply", 1)]
    problems = _control_escapes(text)
    if json_shape(snap, raw) is None:
        problems.append(InputProblem(
            "json_shape", "JSON of no known record shape (GEDCOM X, WikiTree API, Wikidata "
            "entities, Wikipedia parse or summary)", 1))
    return problems


def _control_escapes(text: str) -> list[InputProblem]:
    """The first escaped control character in a JSON text (its line and member), with a
    count of the rest: refused, as a NUL in a GEDCOM line is."""
    found = list(_CONTROL_ESCAPE.finditer(text))
    if not found:
        return []
    first = found[0]
    code = int(first.group(2), 16)
    name = "NUL" if code == 0 else f"control character U+{code:04X}"
    keys = list(_KEY.finditer(text, 0, first.start()))
    more = f" ({len(found)} in all)" if len(found) > 1 else ""
    return [InputProblem("control_character", f"{name} in a JSON string{more}",
                         text.count("\n", 0, first.start()) + 1,
                         keys[-1].group(1) if keys else None)]


def without_control_escapes(text: str) -> str:
    """The JSON text with its escaped control characters taken out (what `--lenient`
    stores; the JSON still parses to the same records, less those characters)."""
    return _CONTROL_ESCAPE.sub(r"\1", text)
