"""Helpers shared by the command modules."""

from __future__ import annotations

from pathlib import Path

from rich.console import Console

from sleuth.privacy.policy import activate_policy, load_policy
from sleuth.store import Store

console = Console(soft_wrap=True)
err = Console(stderr=True, soft_wrap=True)


def open_case(case_dir: Path) -> Store:
    """Open a case and make its privacy policy the one every output of this command uses."""
    store = Store.open_case(case_dir)
    activate_policy(load_policy(case_dir))
    return store
