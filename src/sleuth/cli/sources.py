"""`sleuth sources list|check NAME|allow NAME ACTION|test-fetch NAME URL`.

Shows each source's tier, limits, ToS permission state, credential presence (never a value)
and circuit state; records the user's permission for a ToS-prohibited action (audited).
"""

from __future__ import annotations

import tempfile
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table

from sleuth.cli.common import console, open_case

if TYPE_CHECKING:  # specs, gates and the store load in the commands: start-up time (issue 19)
    from sleuth.model.source_spec import SourceSpec
    from sleuth.sources.gates import Credentials
    from sleuth.sources.registry import Registry
    from sleuth.store import Store

# `sleuth.model.source_spec.ACTIONS`, spelled out for the help text so that `--help` does not
# load pydantic (tests/cli/test_startup.py checks that they agree).
ACTION_NAMES = ("api", "bulk", "download", "fetch", "scrape", "search", "store")

app = typer.Typer(help="Sources: tiers, limits, permissions, circuit state.",
                  no_args_is_help=True)

CaseOpt = Annotated[Path | None, typer.Option("--case", help="case folder (for its "
                                              "permissions, circuit state and sources/)")]


def _circuit(store: Store | None, source_id: str) -> str:
    if store is None:
        return "-"
    from sleuth.store.http_cache import load_circuit

    with store.engine.connect() as conn:
        row = load_circuit(conn, source_id)
    if row is None:
        return "closed"
    return f"{row['circuit']} ({row['failures']} failures)" if row["failures"] else row["circuit"]


def _credentials(spec: SourceSpec, creds: Credentials) -> str:
    auth = spec.compliance.auth
    if auth is None:
        return "not needed"
    state = "present" if creds.available(spec) else "missing"
    return state if spec.compliance.requires_auth else f"optional, {state}"


def _permissions(spec: SourceSpec, store: Store | None) -> str:
    from sleuth.sources.gates import consent

    prohibited = spec.compliance.prohibited_actions
    if not prohibited:
        return "none prohibited"
    parts = []
    for action in prohibited:
        row = None
        if store is not None:
            with store.engine.connect() as conn:
                row = consent(conn, spec.id, action)
        parts.append(f"{action}: {'permitted' if row and row['granted'] else 'blocked'}")
    return ", ".join(parts)


def _open(case: Path | None, stack: ExitStack) -> tuple[Registry, Store | None]:
    from sleuth.sources.registry import load_registry

    registry = load_registry(case)
    if case is None:
        return registry, None
    store = open_case(case)
    stack.callback(store.close)
    return registry, store


def list_sources(case: CaseOpt = None) -> None:
    """Every source with its tier, limits, credentials, ToS permissions and circuit state."""
    from sleuth.sources.gates import Credentials

    creds = Credentials()
    with ExitStack() as stack:
        registry, store = _open(case, stack)
        table = Table("source", "tier", "rate", "cache", "robots", "credentials",
                      "ToS-prohibited actions", "circuit")
        table.columns[0].no_wrap = True
        for spec in registry:
            c = spec.compliance
            table.add_row(spec.id, str(int(spec.tier)),
                          f"{c.requests_per_minute:g}/min burst {c.burst}",
                          f"{c.cache_ttl_seconds / 3600:g} h", "yes" if c.robots_txt else "no",
                          _credentials(spec, creds), _permissions(spec, store),
                          _circuit(store, spec.id))
        console.print(table)


def check(name: Annotated[str, typer.Argument(metavar="NAME")], case: CaseOpt = None) -> None:
    """One source in full: limits, ToS, credentials (names only) and each action's verdict."""
    from sleuth.sources.gates import Credentials, decide
    from sleuth.store import Store

    creds = Credentials()
    with ExitStack() as stack:
        registry, store = _open(case, stack)
        spec = registry.get(name)
        c = spec.compliance
        console.print(f"[bold]{spec.name}[/bold] ({spec.id}) — tier {int(spec.tier)}, "
                      f"{spec.kind}, {spec.base_url or 'local'}")
        console.print(f"defined in: {registry.origins.get(spec.id, '?')}")
        console.print(f"rate: {c.requests_per_minute:g}/min, burst {c.burst}; cache TTL "
                      f"{c.cache_ttl_seconds}s; timeout {c.timeout_seconds:g}s; max body "
                      f"{c.max_body_bytes} bytes; retries {c.max_retries}; robots.txt "
                      f"{'honoured' if c.robots_txt else 'not used (API)'}")
        for p in c.path_limits:
            console.print(f"  paths matching {p.pattern!r}: {p.requests_per_minute:g}/min, "
                          f"burst {p.burst}")
        console.print(f"content types: {', '.join(c.content_types)}")
        console.print(f"ToS: {c.tos_url or '-'}; allowed {list(c.allowed_actions)}; "
                      f"prohibited {list(c.prohibited_actions)}")
        for n, present in creds.presence(spec).items():
            console.print(f"credential {n}: {'set' if present else 'not set'}")
        console.print(f"circuit: {_circuit(store, spec.id)}")
        if spec.notes:
            console.print(f"notes: {spec.notes}")
        actions = sorted({"api" if spec.kind == "json" else "scrape", *c.allowed_actions,
                          *c.prohibited_actions})
        if store is None:
            tmp = stack.enter_context(tempfile.TemporaryDirectory())
            store = Store.create_case(Path(tmp) / "case")
            stack.callback(store.close)
        with store.engine.connect() as conn:
            for action in actions:
                d = decide(conn, spec, action, creds)
                console.print(f"  {action}: {'allowed' if d.allowed else 'BLOCKED'} — "
                              f"{d.reason}")


def allow(
    name: Annotated[str, typer.Argument(metavar="NAME")],
    action: Annotated[str, typer.Argument(metavar="ACTION", help=", ".join(ACTION_NAMES))],
    reason: Annotated[str, typer.Option("--reason", help="why this is permitted")],
    case: Annotated[Path, typer.Option("--case", help="case folder")],
    revoke: Annotated[bool, typer.Option("--revoke", help="withdraw the permission")] = False,
) -> None:
    """Record (or revoke) permission for an action a source's ToS prohibits; audited."""
    from sleuth.sources.gates import record_consent

    with ExitStack() as stack:
        registry, store = _open(case, stack)
        spec = registry.get(name)
        assert store is not None
        with store.transaction() as conn:
            record_consent(store, conn, spec.id, action, reason, granted=not revoke)
        console.print(f"{spec.id} {action}: {'revoked' if revoke else 'permitted'} ({reason})")


def test_fetch(
    name: Annotated[str, typer.Argument(metavar="NAME")],
    url: Annotated[str, typer.Argument(metavar="URL")],
    case: CaseOpt = None,
    action: Annotated[str | None, typer.Option("--action")] = None,
) -> None:
    """Fetch one URL through every gate into a snapshot (a throw-away case without --case)."""
    from sleuth.extract.records import extract_record
    from sleuth.sources.fetcher import Fetcher
    from sleuth.store import Store

    with ExitStack() as stack:
        registry, store = _open(case, stack)
        if store is None:
            tmp = stack.enter_context(tempfile.TemporaryDirectory())
            store = Store.create_case(Path(tmp) / "case")
            stack.callback(store.close)
        fetcher = stack.enter_context(Fetcher(store, registry))
        res = fetcher.fetch(name, url, action=action)
        how = ("cache hit, no request" if res.from_cache else
               "revalidated (304)" if res.revalidated else f"HTTP {res.status}")
        console.print(f"{res.url}: {how}; {len(res.raw)} bytes, {res.snapshot.media_type}; "
                      f"snapshot {res.snapshot.id} ({'new' if res.created else 'stored'}); "
                      f"{res.requests} request(s)")
        cands = extract_record(res.snapshot, res.raw, registry.get(name))
        console.print("record format: " + (f"{len(cands)} candidate(s)" if cands is not None
                                           else "not recognised (prose extractor applies)"))


app.command("list")(list_sources)
app.command("check")(check)
app.command("allow")(allow)
app.command("test-fetch")(test_fetch)
