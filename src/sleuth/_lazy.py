"""Names a package loads on first use (PEP 562), for start-up time (issue 19).

A package's `__init__` names what it exports and where each name lives; `loader` gives it
the module-level `__getattr__` that imports the defining module the first time a name is
asked for and keeps the value, so `import sleuth` - and every `sleuth --help` - does not
pay for pydantic, SQLAlchemy or the extractors.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any


def loader(package: str, where: Mapping[str, Sequence[str]]) -> Callable[[str], Any]:
    """`__getattr__` for `package`, whose names `where` maps module -> names."""
    module_of = {name: module for module, names in where.items() for name in names}

    def __getattr__(name: str) -> Any:
        module = module_of.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        setattr(sys.modules[package], name, value)
        return value

    return __getattr__
