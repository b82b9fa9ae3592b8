"""Commands answer at once (issue 19): heavy modules load only in the command that uses them,
configuration is read once per process, and an up-to-date case opens without Alembic."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

# What `import sleuth.cli.app` (and so `sleuth --help`) must not load.
HEAVY = ("sqlalchemy", "pydantic", "alembic", "numpy", "langgraph", "httpx", "yaml",
         "sleuth.pipeline.ingest", "sleuth.pipeline.promote", "sleuth.extract", "sleuth.store",
         "sleuth.export", "sleuth.loop", "sleuth.resolve", "sleuth.quality", "sleuth.llm.client")


def _loaded_after(code: str) -> set[str]:
    probe = f"import sys\n{code}\nprint('\\n'.join(sys.modules))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         check=True).stdout
    return set(out.split())


def test_the_command_line_imports_no_heavy_module() -> None:
    loaded = _loaded_after("import sleuth.cli.app")
    assert not [m for m in HEAVY if m in loaded]


def test_help_lists_every_command_without_them() -> None:
    code = ("import sys\nfrom sleuth.cli.app import app\n"
            "try:\n    app(['--help'])\nexcept SystemExit:\n    pass\n"
            "print('\\n'.join(sys.modules))")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert "ingest" in res.stdout and "privacy" in res.stdout and "research" in res.stdout
    assert not [m for m in HEAVY if m in res.stdout.split()]


def test_extract_stores_nothing_and_loads_no_store(tmp_path: Path) -> None:
    """`sleuth extract` prints what extraction finds: the database layer (SQLAlchemy, the
    store, staging) is for `sleuth ingest` (it took a second more to start)."""
    letter = tmp_path / "letter.txt"
    letter.write_text("John Smith was born 12 March 1850 in Leeds.\n", encoding="utf-8")
    code = ("import sys\nfrom sleuth.cli.app import app\n"
            f"try:\n    app(['extract', {str(letter)!r}])\nexcept SystemExit:\n    pass\n"
            "print('\\n'.join(sys.modules))")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert "birth_date = 1850-03-12" in res.stdout, res.stderr
    loaded = set(res.stdout.split())
    assert not {"sqlalchemy", "sleuth.store", "sleuth.pipeline.staging"} & loaded


def test_the_help_texts_spell_out_the_constants_they_stand_for() -> None:
    from sleuth.cli.case import Evidence
    from sleuth.cli.llm import ROLE_NAMES
    from sleuth.cli.sources import ACTION_NAMES
    from sleuth.llm.config import ROLES
    from sleuth.model import EvidenceType
    from sleuth.model.source_spec import ACTIONS

    assert ROLE_NAMES == ROLES
    assert set(ACTION_NAMES) == set(ACTIONS) and list(ACTION_NAMES) == sorted(ACTIONS)
    assert [e.value for e in Evidence] == [e.value for e in EvidenceType]


def test_lazy_packages_export_what_they_list() -> None:
    import sleuth
    import sleuth.loop
    import sleuth.model
    import sleuth.pipeline
    import sleuth.privacy

    for pkg in (sleuth, sleuth.pipeline, sleuth.loop, sleuth.model, sleuth.privacy):
        names = [n for n in pkg.__all__ if n != "__version__"]
        assert sorted(names) == sorted(n for ns in pkg._WHERE.values() for n in ns)
        for name in names:
            assert getattr(pkg, name) is not None
    with pytest.raises(AttributeError):
        _ = sleuth.model.NoSuchThing  # type: ignore[attr-defined]


def test_an_up_to_date_case_opens_without_alembic(tmp_path: Path) -> None:
    from alembic.script import ScriptDirectory

    from sleuth.store import Store
    from sleuth.store.db import _config, current_revision, head_revision

    assert head_revision() == ScriptDirectory.from_config(_config()).get_current_head()
    store = Store.create_case(tmp_path / "case")  # a new case is migrated by Alembic
    assert current_revision(store.engine) == head_revision()
    store.close()
    loaded = _loaded_after("from pathlib import Path\nfrom sleuth.store import Store\n"
                           f"Store.open_case(Path({str(tmp_path / 'case')!r})).close()")
    assert "sleuth.store.store" in loaded and "alembic" not in loaded


def test_source_specs_are_parsed_once_per_process(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    import sleuth.sources.registry as reg

    calls: list[str] = []
    real = reg.load_spec

    def counting(path: Path) -> object:
        calls.append(path.name)
        return real(path)

    monkeypatch.setattr(reg, "load_spec", counting)
    monkeypatch.setattr(reg, "_SPECS", {})
    monkeypatch.setattr(reg, "_INDEX", {})
    first = reg.load_registry(tmp_path)
    n = len(calls)
    assert n == len(first) > 3
    second = reg.load_registry(tmp_path)
    assert len(calls) == n  # nothing parsed again
    assert [s.id for s in second] == [s.id for s in first] and second is not first
    # a spec the user changes is read again
    spec = next(iter(first))
    own = tmp_path / "sources" / "mine.yaml"
    own.parent.mkdir()
    source = reg.BUILTIN_DIR / next(p for p in calls if p)
    own.write_text(source.read_text(encoding="utf-8"), encoding="utf-8")
    reg.load_registry(tmp_path)
    assert calls.count("mine.yaml") == 1
    own.write_text(source.read_text(encoding="utf-8") + "\n# changed\n", encoding="utf-8")
    reg.load_registry(tmp_path)
    assert calls.count("mine.yaml") == 2
    assert spec.id in {s.id for s in reg.load_registry(tmp_path)}


def test_every_source_client_shares_one_tls_context() -> None:
    from sleuth.net.transport import GuardedTransport, shared_ssl_context

    a, b = GuardedTransport(), GuardedTransport(local_hosts=frozenset({"example.test"}))
    try:
        assert a._pool._ssl_context is b._pool._ssl_context is shared_ssl_context()
    finally:
        a.close()
        b.close()
