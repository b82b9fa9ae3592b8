"""Privacy: the Censor every output goes through, and scrubbers for logs and errors.

Exports never read a raw CaseGraph: they call `censor` first. `explain_living` says who is
protected, why and by which rule (`PrivacyPolicy`, per case in `case.json`); `redact_text`
removes SSNs, national ids, e-mail addresses and phone numbers from free text that leaves the
process by another route (logs via `install_log_redaction`, error messages). `scan` finds PII
in snapshots and outputs; `sleuth privacy report` is `export.privacy_report`, above the
exporters it checks.

Names load on first use (PEP 562): the command line installs the log scrubber on every
start, and that must not cost the Censor's imports (start-up time, issue 19).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sleuth._lazy import loader

if TYPE_CHECKING:
    from sleuth.privacy.living import Verdict, assess_living, explain_living, is_living
    from sleuth.privacy.logfilter import RedactingFilter, install_log_redaction
    from sleuth.privacy.pii import redact_text
    from sleuth.privacy.policy import (
        DEFAULT_POLICY,
        PrivacyPolicy,
        active_policy,
        load_policy,
        use_policy,
    )
    from sleuth.privacy.redaction import (
        LIVING_NAME,
        MENTIONS_LIVING,
        REDACTED_EXCERPT,
        SENSITIVE_FIELDS,
        censor,
        unredacted,
    )
    from sleuth.privacy.view import CensoredGraph

_WHERE: dict[str, tuple[str, ...]] = {
    "sleuth.privacy.living": ("Verdict", "assess_living", "explain_living", "is_living"),
    "sleuth.privacy.logfilter": ("RedactingFilter", "install_log_redaction"),
    "sleuth.privacy.pii": ("redact_text",),
    "sleuth.privacy.policy": (
        "DEFAULT_POLICY", "PrivacyPolicy", "active_policy", "load_policy", "use_policy",
    ),
    "sleuth.privacy.redaction": (
        "LIVING_NAME", "MENTIONS_LIVING", "REDACTED_EXCERPT", "SENSITIVE_FIELDS", "censor",
        "unredacted",
    ),
    "sleuth.privacy.view": ("CensoredGraph",),
}

__all__ = [
    "DEFAULT_POLICY",
    "LIVING_NAME",
    "MENTIONS_LIVING",
    "REDACTED_EXCERPT",
    "SENSITIVE_FIELDS",
    "CensoredGraph",
    "PrivacyPolicy",
    "RedactingFilter",
    "Verdict",
    "active_policy",
    "assess_living",
    "censor",
    "explain_living",
    "install_log_redaction",
    "is_living",
    "load_policy",
    "redact_text",
    "unredacted",
    "use_policy",
]


__getattr__ = loader("sleuth.privacy", _WHERE)
