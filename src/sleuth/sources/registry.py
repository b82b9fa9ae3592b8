"""The registry of sources: the built-in specs plus any YAML the user drops into a folder.

Search order (later wins on the same id): built-ins (`specs/registry.yaml`), then
`$SLEUTH_SOURCES_DIR`, then `CASE/sources/`. Writing a YAML file is all it takes to add one.

A run asks for the registry several times (the loop, coverage, the record extractors), so
each YAML file is parsed once per process and kept while its size and modification time
stay the same (`_spec`); specs are frozen, so sharing them is safe, and a registry is
always a fresh object (`Registry.add` changes only that one).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path

import yaml

from sleuth.model import InputError, NotFound, SleuthError, Snapshot
from sleuth.model.source_spec import SourceSpec, load_spec

BUILTIN_DIR = Path(__file__).with_name("specs")
ENV_DIR = "SLEUTH_SOURCES_DIR"


class Registry:
    """Source specs by id, with where each came from."""

    def __init__(self, specs: dict[str, SourceSpec], origins: dict[str, str]) -> None:
        self._specs = specs
        self.origins = origins

    def __iter__(self) -> Iterator[SourceSpec]:
        return iter(sorted(self._specs.values(), key=lambda s: (int(s.tier), s.id)))

    def __contains__(self, source_id: object) -> bool:
        return source_id in self._specs

    def __len__(self) -> int:
        return len(self._specs)

    def get(self, source_id: str) -> SourceSpec:
        try:
            return self._specs[source_id]
        except KeyError:
            known = ", ".join(sorted(self._specs))
            raise NotFound(f"unknown source {source_id!r}; known: {known}") from None

    def add(self, spec: SourceSpec, origin: str = "code") -> None:
        self._specs[spec.id] = spec
        self.origins[spec.id] = origin


_Stamp = tuple[str, int, int]  # (path, st_mtime_ns, st_size)
_SPECS: dict[_Stamp, SourceSpec] = {}
_INDEX: dict[_Stamp, list[Path]] = {}


def _stamp(path: Path) -> _Stamp | None:
    try:
        st = path.stat()
    except OSError:
        return None  # missing: load_spec says so, with the file's name
    return (str(path.resolve()), st.st_mtime_ns, st.st_size)


def _spec(path: Path) -> SourceSpec:
    """`load_spec`, parsed once per process while the file is unchanged."""
    stamp = _stamp(path)
    if stamp is None:
        return load_spec(path)
    spec = _SPECS.get(stamp)
    if spec is None:
        spec = _SPECS[stamp] = load_spec(path)
    return spec


def _builtins() -> list[Path]:
    index = BUILTIN_DIR / "registry.yaml"
    stamp = _stamp(index)
    if stamp is not None and stamp in _INDEX:
        return list(_INDEX[stamp])
    data = yaml.safe_load(index.read_text(encoding="utf-8")) or {}
    paths = []
    for i, entry in enumerate(data.get("sources") or []):
        if not isinstance(entry, dict) or "config" not in entry:
            raise InputError(f"sources.{i}: needs a config", file=index.name)
        paths.append(BUILTIN_DIR / entry["config"])
    if stamp is not None:
        _INDEX[stamp] = list(paths)
    return paths


def _folder(folder: Path) -> list[Path]:
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if p.suffix in (".yaml", ".yml")
                  and p.name != "registry.yaml")


def load_registry(case_dir: Path | None = None, extra_dirs: tuple[Path, ...] = ()) -> Registry:
    """All sources: built-ins, then $SLEUTH_SOURCES_DIR, then CASE/sources/, then extras."""
    specs: dict[str, SourceSpec] = {}
    origins: dict[str, str] = {}
    folders: list[Path] = []
    if env := os.environ.get(ENV_DIR):
        folders.append(Path(env))
    if case_dir is not None:
        folders.append(case_dir / "sources")
    folders.extend(extra_dirs)
    paths = _builtins() + [p for f in folders for p in _folder(f)]
    for path in paths:
        spec = _spec(path)
        specs[spec.id] = spec
        origins[spec.id] = "built-in" if path.parent == BUILTIN_DIR else str(path)
    return Registry(specs, origins)


def spec_of(snap: Snapshot) -> SourceSpec | None:
    """The registered spec of the source that fetched `snap` (None: unknown or unreadable),
    for the extractors: a YAML-only source's pages are read by its own selector rules."""
    source_id = snap.metadata.get("source_id") if isinstance(snap.metadata, dict) else None
    if not isinstance(source_id, str):
        return None
    return _registered(os.environ.get(ENV_DIR), source_id)


@lru_cache(maxsize=64)
def _registered(env_dir: str | None, source_id: str) -> SourceSpec | None:
    """Cached per user-specs folder: a research run reads the same few sources many times."""
    try:
        registry = load_registry()
    except SleuthError:  # a broken user spec elsewhere must not stop this extraction
        return None
    return registry.get(source_id) if source_id in registry else None
