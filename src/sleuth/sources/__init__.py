"""Sources: where snapshots come from. Local files (text, HTML, PDF, GEDCOM) and, through the
polite fetcher, the network sources described by YAML specs (`sleuth.sources.specs`).

The network side is imported lazily so `load_file` stays light.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sleuth.sources.local import LoadedFile, load_file

if TYPE_CHECKING:
    from sleuth.model.source_spec import SourceSpec, load_spec
    from sleuth.sources.fetcher import Fetcher, FetchError, FetchResult
    from sleuth.sources.gates import SourceBlocked
    from sleuth.sources.registry import Registry, load_registry

_LAZY = {
    "Fetcher": "sleuth.sources.fetcher",
    "FetchResult": "sleuth.sources.fetcher",
    "FetchError": "sleuth.sources.fetcher",
    "SourceBlocked": "sleuth.sources.gates",
    "Registry": "sleuth.sources.registry",
    "load_registry": "sleuth.sources.registry",
    "SourceSpec": "sleuth.model.source_spec",
    "load_spec": "sleuth.model.source_spec",
}

__all__ = ["FetchError", "FetchResult", "Fetcher", "LoadedFile", "Registry", "SourceBlocked",
           "SourceSpec", "load_file", "load_registry", "load_spec"]


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        from importlib import import_module

        return getattr(import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'sleuth.sources' has no attribute {name!r}")
