"""OAuth2 access tokens from the user's own credentials (FamilySearch and alike).

The spec's `auth.env` names, in order: a ready access token, then the parts of the grant
(`oauth2_password`: client id, username, password; `oauth2_client_credentials`: client id,
client secret). A ready token is used as is; otherwise the grant is posted to `token_url`.
The token lives in this object's memory only: it is never written to a snapshot, a log entry
or an error message, and it is forgotten when the fetcher closes. A 401 from the API drops it
and the fetcher asks again, once.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import urlsplit

import httpx

from sleuth.model import SleuthError
from sleuth.model.source_spec import AuthSpec, SourceSpec
from sleuth.net.body import BodyRefused, read_body
from sleuth.net.transport import timeout
from sleuth.sources.gates import Credentials

GRANTS = {"oauth2_password": "password", "oauth2_client_credentials": "client_credentials"}
EXPIRY_MARGIN = 60.0  # renew a token this many seconds before the server says it expires
TOKEN_MAX_BYTES = 64 * 1024  # a token response is a few hundred bytes
_ERROR_CODE = re.compile(r"^[a-z_]{1,40}$")  # RFC 6749 error codes: safe to show


class TokenError(SleuthError):
    """The token endpoint did not give us a token; the message never holds a credential."""


@dataclass
class _Token:
    value: str
    expires_at: float | None  # None: until the API answers 401
    granted: bool  # obtained by a grant (renewable), not a ready token from the user


class TokenCache:
    """Access tokens per source, in memory only."""

    def __init__(self, credentials: Credentials, clock: Callable[[], float],
                 on_grant: Callable[[SourceSpec, str, str], None] | None = None) -> None:
        """`on_grant(spec, grant, host)` records that a login happened (never the token)."""
        self.credentials = credentials
        self.clock = clock
        self.on_grant = on_grant
        self._tokens: dict[str, _Token] = {}

    def token(self, spec: SourceSpec, client: httpx.Client,
              before_request: Callable[[str], object]) -> str | None:
        """A usable access token for `spec` (None: no credentials to get one)."""
        auth = spec.compliance.auth
        if auth is None or auth.kind not in GRANTS or not auth.env:
            return None
        held = self._tokens.get(spec.id)
        if held is not None and (held.expires_at is None or self.clock() < held.expires_at):
            return held.value
        ready = self.credentials.get(spec, auth.env[0])
        if ready and held is None:  # a ready token is tried first, and only once
            self._tokens[spec.id] = _Token(ready, None, granted=False)
            return ready
        parts = [self.credentials.get(spec, n) for n in auth.env[1:]]
        if not parts or not all(parts):
            return None
        tok = self._grant(spec, auth, [p for p in parts if p], client, before_request)
        self._tokens[spec.id] = tok
        return tok.value

    def renewable(self, spec: SourceSpec) -> bool:
        """Can a rejected token be replaced? Only when the grant's parts are all set."""
        auth = spec.compliance.auth
        if auth is None or auth.kind not in GRANTS or len(auth.env) < 2:
            return False
        return all(self.credentials.get(spec, n) for n in auth.env[1:])

    def drop(self, source_id: str) -> None:
        """Forget a token the API rejected; a ready token is kept out of the next round."""
        held = self._tokens.get(source_id)
        if held is not None:
            self._tokens[source_id] = _Token(held.value, 0.0, granted=True)

    def secrets(self, source_id: str) -> list[str]:
        held = self._tokens.get(source_id)
        return [held.value] if held else []

    def clear(self) -> None:
        self._tokens.clear()

    def _grant(self, spec: SourceSpec, auth: AuthSpec, parts: list[str], client: httpx.Client,
               before_request: Callable[[str], object]) -> _Token:
        url = auth.token_url
        if not url:
            raise TokenError(f"source {spec.id}: auth.token_url is not set")
        host = (urlsplit(url).hostname or "").lower()
        if urlsplit(url).scheme != "https" and host not in spec.local_hosts():
            raise TokenError(f"source {spec.id}: refusing to send credentials to a non-https "
                             f"token endpoint ({host})")
        grant = GRANTS[auth.kind]
        if grant == "password":
            if len(parts) < 3:
                raise TokenError(f"source {spec.id}: the password grant needs a client id, "
                                 "a username and a password")
            form = {"grant_type": grant, "client_id": parts[0], "username": parts[1],
                    "password": parts[2]}
        else:
            if len(parts) < 2:
                raise TokenError(f"source {spec.id}: the client-credentials grant needs a "
                                 "client id and a client secret")
            form = {"grant_type": grant, "client_id": parts[0], "client_secret": parts[1]}
        before_request(urlsplit(url).path or "/")
        seconds = spec.compliance.timeout_seconds
        try:
            with client.stream("POST", url, data=form, headers={"Accept": "application/json"},
                               timeout=timeout(seconds)) as resp:
                raw = read_body(resp, TOKEN_MAX_BYTES, seconds)
        except httpx.HTTPError as exc:
            raise TokenError(f"source {spec.id}: token endpoint {host} unreachable "
                             f"({type(exc).__name__})") from None
        except BodyRefused as exc:
            raise TokenError(f"source {spec.id}: token endpoint {host}: {exc}") from None
        try:
            body = json.loads(raw) if raw else {}
        except (json.JSONDecodeError, UnicodeDecodeError):
            body = {}
        body = body if isinstance(body, dict) else {}
        if resp.status_code != 200 or not isinstance(body.get("access_token"), str):
            code = body.get("error")
            why = f", {code}" if isinstance(code, str) and _ERROR_CODE.match(code) else ""
            raise TokenError(f"source {spec.id}: token endpoint {host} gave no access token "
                             f"(HTTP {resp.status_code}{why})")
        if self.on_grant is not None:
            self.on_grant(spec, grant, host)
        lifetime = body.get("expires_in")
        expires = None
        if isinstance(lifetime, int | float) and lifetime > 0:
            expires = self.clock() + max(0.0, float(lifetime) - EXPIRY_MARGIN)
        return _Token(body["access_token"], expires, granted=True)
