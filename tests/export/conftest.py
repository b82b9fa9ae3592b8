"""Fixtures: the shared three-generation Whitfield case (tests/export/family_case.py)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from sleuth.model import CaseGraph


def _family_module() -> ModuleType:
    name = "sleuth_tests_family_case"
    if name not in sys.modules:
        path = Path(__file__).resolve().parents[1] / "export" / "family_case.py"
        spec = importlib.util.spec_from_file_location(name, path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


family_case = _family_module()


@pytest.fixture
def fam() -> ModuleType:
    return family_case


@pytest.fixture
def family() -> CaseGraph:
    return family_case.build_family()
