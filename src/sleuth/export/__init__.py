"""Outputs of a case: schema.org JSON-LD, GEDCOM 5.5.1 / 7.0, GEDCOM X and a Markdown report.

Every exporter takes the raw CaseGraph and runs it through `sleuth.privacy.censor()` itself, so
no caller can forget the redaction step. Each writes from the censored copy alone (its
`*_of_view` function, which `sleuth privacy report` calls with the copy it already holds; the
report also reads the stored snapshots, to classify its sources).
"""

from __future__ import annotations

from sleuth.export.gedcom import to_gedcom
from sleuth.export.gedcomx import to_gedcomx
from sleuth.export.jsonld import to_jsonld
from sleuth.export.report import to_report

__all__ = ["to_gedcom", "to_gedcomx", "to_jsonld", "to_report"]
