"""Helpers shared by the command modules."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from rich.console import Console

if TYPE_CHECKING:
    from sleuth.domains import Domain
    from sleuth.store import Store

console = Console(soft_wrap=True)
err = Console(stderr=True, soft_wrap=True)


def open_case(case_dir: Path) -> Store:
    """Open a case and make its privacy policy the one every output of this command uses."""
    # Imported here, not at the top: every command module imports this one, and `--help`
    # must not pay for SQLAlchemy and pydantic (start-up time, issue 19).
    from sleuth.privacy.policy import activate_policy, load_policy
    from sleuth.store import Store

    store = Store.open_case(case_dir)
    activate_policy(load_policy(case_dir))
    return store


def domain_of(case_dir: Path) -> Domain:
    """The domain the case was created for (genealogy for a case that names none)."""
    # Imported here, not at the top: start-up time (issue 19).
    from sleuth.domains import DEFAULT, get_domain
    from sleuth.store import Store

    return get_domain(Store.case_domain(case_dir) or DEFAULT)


def cut(text: str, width: int) -> str:
    """`text` in at most `width` characters, "…" marking a cut: one line per row."""
    return text if len(text) <= width else text[: max(width - 1, 0)] + "…"
