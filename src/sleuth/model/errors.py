"""Errors a user can act on: each names the file, line or field that is wrong."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any


class SleuthError(Exception):
    """Base class: anything sleuth raises on purpose."""


class InputError(SleuthError):
    """Bad input, located as precisely as we can (file, line, field)."""

    def __init__(
        self,
        message: str,
        *,
        file: str | None = None,
        line: int | None = None,
        field: str | None = None,
    ) -> None:
        self.message = message
        self.file = file
        self.line = line
        self.field = field
        super().__init__(str(self))

    def __str__(self) -> str:
        where = ""
        if self.file:
            where = self.file + (f":{self.line}" if self.line else "")
        if self.field:
            where = f"{where} [{self.field}]" if where else f"[{self.field}]"
        return f"{where}: {self.message}" if where else self.message


@dataclass(frozen=True)
class InputProblem:
    """One thing wrong with an input file, located (issue 26, strict input). `refuse`: the
    default refuses the file for it (`--lenient` stores what can be read); otherwise the
    file is read and the problem reported as a warning. Either way it becomes a finding
    of `sleuth check`. The message never quotes the file's text, only its tags and xrefs."""

    kind: str  # "level", "line", "duplicate_xref", "dangling_pointer", "head", "trailer",
    # "charset", "control_character", "json", "json_shape", "partner_repeated"
    message: str
    line: int | None = None
    field: str | None = None
    refuse: bool = True

    def error(self, file: str | None) -> InputError:
        return InputError(self.message, file=file, line=self.line, field=self.field)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> InputProblem:
        return cls(str(d.get("kind", "")), str(d.get("message", "")),
                   d.get("line") if isinstance(d.get("line"), int) else None,
                   d.get("field") if isinstance(d.get("field"), str) else None,
                   bool(d.get("refuse", True)))


class InvariantViolation(SleuthError):
    """A write would break one of the Z specification's invariants; nothing was stored."""


class ImmutableError(SleuthError):
    """Something tried to change data that is append-only or content-addressed."""


class CaseBusy(SleuthError):
    """Another process is writing this case (`sleuth.store.lock`); nothing was done. The
    command exits with code 3, so a script can tell "try later" from a failure."""


class NotFound(SleuthError):
    """An id that does not exist in the case."""
