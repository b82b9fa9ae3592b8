"""Log records leave the process without going through the Censor: scrub them on the way.

`RedactingFilter` is a `logging.Filter` for handlers; `install_log_redaction()` wraps the
record factory so *every* record, from any logger (ours, httpx, sqlalchemy...), is scrubbed
when it is created: the formatted message and any exception text go through `redact_text`
(SSNs, national ids, e-mail addresses, phone numbers), before any handler or filter sees it.
"""

from __future__ import annotations

import logging
import traceback
from typing import Any

from sleuth.privacy.pii import redact_text

_INSTALLED = "_sleuth_redacting"


def scrub_record(record: logging.LogRecord) -> logging.LogRecord:
    """Freeze the record's message (args merged) and exception text, redacted, in place."""
    try:
        message = record.getMessage()
    except Exception:  # a bad format string must not make logging itself fail
        message = f"{record.msg!s} {record.args!r}"
    record.msg, record.args = redact_text(message), ()
    if record.exc_info and not record.exc_text:
        record.exc_text = "".join(traceback.format_exception(*record.exc_info)).rstrip("\n")
    if record.exc_text:
        record.exc_text = redact_text(record.exc_text)
    if record.stack_info:
        record.stack_info = redact_text(record.stack_info)
    return record


class RedactingFilter(logging.Filter):
    """A handler filter that scrubs each record it passes (it never drops one)."""

    def filter(self, record: logging.LogRecord) -> bool:
        scrub_record(record)
        return True


def install_log_redaction() -> None:
    """Scrub every log record at creation (idempotent; safe to call from each entry point)."""
    factory = logging.getLogRecordFactory()
    if getattr(factory, _INSTALLED, False):
        return

    def make(*args: Any, **kwargs: Any) -> logging.LogRecord:
        return scrub_record(factory(*args, **kwargs))

    setattr(make, _INSTALLED, True)
    logging.setLogRecordFactory(make)
