"""Helpers shared by the command modules."""

from __future__ import annotations

from pathlib import Path

from rich.console import Console

from sleuth.store import Store

console = Console(soft_wrap=True)
err = Console(stderr=True, soft_wrap=True)


def open_case(case_dir: Path) -> Store:
    return Store.open_case(case_dir)
