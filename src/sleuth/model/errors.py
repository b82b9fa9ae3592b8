"""Errors a user can act on: each names the file, line or field that is wrong."""

from __future__ import annotations


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


class InvariantViolation(SleuthError):
    """A write would break one of the Z specification's invariants; nothing was stored."""


class ImmutableError(SleuthError):
    """Something tried to change data that is append-only or content-addressed."""


class CaseBusy(SleuthError):
    """Another process is writing this case (`sleuth.store.lock`); nothing was done. The
    command exits with code 3, so a script can tell "try later" from a failure."""


class NotFound(SleuthError):
    """An id that does not exist in the case."""
