"""Permission and ToS gates (seed 001 SourcePermissionGate and CensorCheckSourceAccess).

Tier 0 is always permitted. Tier 1/2 need the user's own credentials (env vars named in the
spec, or the OS keyring); without them the source is skipped and the decision logged. An
action the source's ToS prohibits is blocked unless the user recorded permission
(`sleuth sources allow`), and keeping Tier 2 material needs a recorded `store` permission.
Credential *values* never leave this module except into the request that needs them.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection

from sleuth.model import Agent, InputError, LogEntry, SleuthError
from sleuth.model.source_spec import ACTIONS, SourceSpec, SourceTier
from sleuth.store import Store
from sleuth.store.permissions import add_consent, latest_consent

KeyringGet = Callable[[str, str], str | None]


class SourceBlocked(SleuthError):
    """A gate refused a source access; the reason is in the research log."""


@dataclass(frozen=True)
class GateDecision:
    allowed: bool
    reason: str
    rule: str  # tier | credentials | tos | consent | store


def _system_keyring(service: str, username: str) -> str | None:
    try:
        import keyring

        return keyring.get_password(service, username)
    except Exception:  # no keyring backend on this machine: treat as absent
        return None


class Credentials:
    """The user's credentials for sources, looked up by the names a spec gives."""

    def __init__(self, env: Mapping[str, str] | None = None,
                 keyring_get: KeyringGet | None = None) -> None:
        self._env = os.environ if env is None else env
        self._keyring = keyring_get or _system_keyring

    def get(self, spec: SourceSpec, name: str) -> str | None:
        if value := self._env.get(name):
            return value
        auth = spec.compliance.auth
        if auth and auth.keyring_service:
            return self._keyring(auth.keyring_service, name) or None
        return None

    def values(self, spec: SourceSpec) -> dict[str, str]:
        """Every credential part that is set (for use in a request, never for display)."""
        auth = spec.compliance.auth
        if auth is None:
            return {}
        return {n: v for n in auth.env if (v := self.get(spec, n))}

    def presence(self, spec: SourceSpec) -> dict[str, bool]:
        """Which credential names are set: safe to show, it never includes a value."""
        auth = spec.compliance.auth
        return {n: self.get(spec, n) is not None for n in (auth.env if auth else ())}

    def available(self, spec: SourceSpec) -> bool:
        auth = spec.compliance.auth
        if auth is None:
            return not spec.compliance.requires_auth
        have = self.presence(spec)
        if not auth.env:
            return False
        if auth.kind.startswith("oauth2"):  # a ready token, or every part of the grant
            return have[auth.env[0]] or all(have[n] for n in auth.env[1:])
        return have[auth.env[0]]

    def secrets(self, spec: SourceSpec) -> list[str]:
        auth = spec.compliance.auth
        if auth is None or auth.kind == "app_id":
            return []
        return list(self.values(spec).values())


def record_consent(store: Store, conn: Connection, source_id: str, action: str, reason: str,
                   *, granted: bool = True, by: str = "Human") -> None:
    """Record (or revoke) the user's permission for an action; append-only and audited."""
    if action not in ACTIONS:
        raise InputError(f"unknown action {action!r}; known: {', '.join(sorted(ACTIONS))}",
                         field="ACTION")
    if not reason.strip():
        raise InputError("a permission needs a reason", field="--reason")
    add_consent(store, conn, source_id, action, reason.strip(), granted=granted, by=by)


def consent(conn: Connection, source_id: str, action: str) -> dict[str, Any] | None:
    """The latest recorded permission for (source, action), or None."""
    return latest_consent(conn, source_id, action)


def _granted(conn: Connection, source_id: str, action: str) -> dict[str, Any] | None:
    row = consent(conn, source_id, action)
    return row if row and row["granted"] else None


def decide(conn: Connection, spec: SourceSpec, action: str, creds: Credentials) -> GateDecision:
    """The gate's verdict for one (source, action); pure apart from reading consents."""
    tier = spec.tier
    if tier != SourceTier.FREE and not creds.available(spec):
        names = ", ".join(spec.compliance.auth.env) if spec.compliance.auth else "(none)"
        return GateDecision(False, f"Tier {int(tier)} source {spec.id} skipped: no user "
                            f"credentials (set {names} or the OS keyring)", "credentials")
    comp = spec.compliance
    if action in comp.prohibited_actions:
        if row := _granted(conn, spec.id, action):
            return GateDecision(True, f"Action {action} prohibited by ToS: {spec.id}; permitted "
                                f"by {row['granted_by']}: {row['reason']}", "consent")
        return GateDecision(False, f"Action prohibited by ToS: {spec.id} ({action}; "
                            f"{comp.tos_url or 'no ToS URL'})", "tos")
    if tier == SourceTier.SUBSCRIPTION and not _granted(conn, spec.id, "store"):
        return GateDecision(False, f"Tier 2 source {spec.id}: storing its material needs a "
                            f"recorded authorisation (sleuth sources allow {spec.id} store "
                            "--reason ...)", "store")
    if action in comp.allowed_actions:
        return GateDecision(True, "Action permitted", "tos")
    return GateDecision(True, f"Action {action} not restricted by the ToS of {spec.id}", "tos")


def log_decision(store: Store, conn: Connection, spec: SourceSpec, action: str,
                 d: GateDecision) -> None:
    store.log(conn, LogEntry(
        agent=Agent.CENSOR, action_type="source_access", rationale=d.reason,
        context={"source": spec.id, "action": action, "tier": int(spec.tier),
                 "allowed": d.allowed, "rule": d.rule}))
