"""The registry of sources: the built-in specs plus any YAML the user drops into a folder.

Search order (later wins on the same id): built-ins (`specs/registry.yaml`), then
`$SLEUTH_SOURCES_DIR`, then `CASE/sources/`. Writing a YAML file is all it takes to add one;
a spec that replaces another of its id (a mirror) keeps its `record` and `follow` sections
unless it sets them.

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

    def declared(self) -> Iterator[SourceSpec]:
        """In the order the specs were declared (`specs/registry.yaml`, then the user's):
        the GPS catalogue lists record sets in it."""
        return iter(self._specs.values())

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
        if spec.id in specs:
            spec = _inherit(spec, specs[spec.id])
        specs[spec.id] = spec
        origins[spec.id] = "built-in" if path.parent == BUILTIN_DIR else str(path)
    return Registry(specs, origins)


# What a spec replacing another of its id (a mirror, a local copy) keeps from it unless it
# says otherwise: what its pages are and how its hits are followed belong to the source.
_INHERITED = ("record", "follow")


def _inherit(spec: SourceSpec, prior: SourceSpec) -> SourceSpec:
    """`spec` with the sections it does not set taken from the spec of its id it replaces."""
    update = {f: getattr(prior, f) for f in _INHERITED if f not in spec.model_fields_set}
    return spec.model_copy(update=update) if update else spec


def spec_of(snap: Snapshot) -> SourceSpec | None:
    """The registered spec of the source that fetched `snap` (None: unknown or unreadable),
    for the extractors: a YAML-only source's pages are read by its own selector rules."""
    source_id = snap.metadata.get("source_id") if isinstance(snap.metadata, dict) else None
    if not isinstance(source_id, str):
        return None
    registry = current_registry()
    return registry.get(source_id) if registry is not None and source_id in registry else None


def current_registry() -> Registry | None:
    """The built-in and $SLEUTH_SOURCES_DIR specs, for readers that are asked about one
    snapshot at a time (its kind, its parser): kept while the user folder's files are
    unchanged. None when a user spec is broken: the caller falls back to built-in rules."""
    env = os.environ.get(ENV_DIR)
    folder = Path(env) if env else None
    stamps = tuple(filter(None, map(_stamp, _folder(folder)))) if folder else ()
    return _registry_of(env, stamps)


@lru_cache(maxsize=8)
def _registry_of(env_dir: str | None, stamps: tuple[_Stamp, ...]) -> Registry | None:
    try:
        return load_registry()
    except SleuthError:  # a broken user spec elsewhere must not stop reading this snapshot
        return None
