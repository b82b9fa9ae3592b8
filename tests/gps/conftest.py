"""Fixtures for the GPS tests (helpers live in gps_case.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from sleuth.store import Store


@pytest.fixture
def elmer_case(store: Store) -> Iterator[Store]:
    """A real FamilySearch death certificate (Virginia, 1955) ingested into a fresh store."""
    import gps_case

    gps_case.fs(store, "us_va_death_1955_elmer_davis.json")
    yield store
