"""Privacy: the Censor every output goes through, and scrubbers for logs and errors.

Exports never read a raw CaseGraph: they call `censor` first. `is_living` says who is
protected and why; `redact_text` removes SSNs, e-mail addresses and phone numbers from
free text that leaves the process by another route (logs, error messages).
"""

from __future__ import annotations

from sleuth.privacy.living import assess_living, is_living
from sleuth.privacy.pii import redact_text
from sleuth.privacy.redaction import (
    LIVING_NAME,
    MENTIONS_LIVING,
    REDACTED_EXCERPT,
    SENSITIVE_FIELDS,
    censor,
)

__all__ = [
    "LIVING_NAME",
    "MENTIONS_LIVING",
    "REDACTED_EXCERPT",
    "SENSITIVE_FIELDS",
    "assess_living",
    "censor",
    "is_living",
    "redact_text",
]
