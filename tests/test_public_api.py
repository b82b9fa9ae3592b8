"""The package's public surface is deliberate (STYLE.md §4): test the list itself."""

from __future__ import annotations

import sleuth


def test_public_api_is_exactly_what_we_promise() -> None:
    assert sorted(sleuth.__all__) == sorted(
        [
            "Candidate",
            "CaseGraph",
            "Citation",
            "EvidenceType",
            "GenDate",
            "Locator",
            "Person",
            "Snapshot",
            "Store",
            "Tier",
            "check_candidates",
            "ingest_path",
            "__version__",
        ]
    )
    for name in sleuth.__all__:
        assert getattr(sleuth, name) is not None


def test_model_imports_without_database_or_network() -> None:
    import subprocess
    import sys

    code = (
        "import sys, sleuth.model, sleuth.verify; "
        "bad = [m for m in ('sqlalchemy', 'httpx', 'alembic') if m in sys.modules]; "
        "sys.exit(1 if bad else 0)"
    )
    assert subprocess.run([sys.executable, "-c", code]).returncode == 0
