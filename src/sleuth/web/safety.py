"""The workbench's guards (issue 23, item 7), one ASGI middleware in front of every route.

* Bound to a loopback address, it answers only requests addressed to a loopback name (a
  web page elsewhere cannot reach it by rebinding its own domain name to 127.0.0.1).
* Bound to any other address it needs a token (printed once by `sleuth serve`, or from
  `SLEUTH_SERVE_TOKEN`): every request carries it as `?token=`, as the cookie that first
  request sets, or as `Authorization: Bearer`; anything else is refused (401).
* Every answer forbids scripts, styles and images from anywhere but the app itself
  (Content-Security-Policy), framing and referrers.
* Every POST carries the session's CSRF token in the form field `csrf`: the session is a
  random cookie (SameSite=Strict), its CSRF token an HMAC of it under a key made at start;
  a POST without it, or with another session's, is refused (403).
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import secrets
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import parse_qsl, urlencode

from starlette.datastructures import URL
from starlette.requests import Request
from starlette.responses import PlainTextResponse, RedirectResponse, Response

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

SESSION_COOKIE = "sleuth_session"
TOKEN_COOKIE = "sleuth_token"
CSRF_FIELD = "csrf"
TOKEN_ENV = "SLEUTH_SERVE_TOKEN"
LOOPBACK_NAMES = frozenset({"127.0.0.1", "localhost", "::1", "[::1]"})
# Every page: scripts and everything else only from the app itself (no CDN can creep in, and
# an injected inline script would not run), no framing, no referrer to an original's site.
SECURITY_HEADERS = [
    (b"content-security-policy", b"default-src 'self'; script-src 'self'; "
     b"style-src 'self' 'unsafe-inline'; img-src 'self' data:; object-src 'none'; "
     b"frame-ancestors 'none'; form-action 'self'; base-uri 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
]


def is_loopback(host: str) -> bool:
    """Whether binding `host` keeps the app on this machine."""
    if host.strip("[]") == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


class Guard:
    """Token (off loopback), loopback host names (on it), session cookie and CSRF."""

    def __init__(self, app: ASGIApp, *, token: str | None, key: bytes | None = None) -> None:
        self.app = app
        self.token = token
        self.key = key or secrets.token_bytes(32)

    def csrf_for(self, session: str) -> str:
        return hmac.new(self.key, session.encode(), hashlib.sha256).hexdigest()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        refused = self._refused(request)
        if refused is not None:
            await refused(scope, receive, send)
            return
        if self.token is not None and request.query_params.get("token"):
            # the token's first use: keep it in a cookie and take it out of the address
            query = urlencode([(k, v) for k, v in parse_qsl(request.url.query) if k != "token"])
            target = str(URL(path=request.url.path, query=query))
            answer = RedirectResponse(target, status_code=303)
            self._set(answer, TOKEN_COOKIE, self.token)
            await answer(scope, receive, send)
            return
        session = request.cookies.get(SESSION_COOKIE) or ""
        fresh = not session
        if fresh:
            session = secrets.token_urlsafe(24)
        scope.setdefault("state", {})["csrf"] = self.csrf_for(session)

        async def send_with_cookie(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = message.setdefault("headers", [])
                headers.extend(SECURITY_HEADERS)
                if fresh:
                    header = (f"{SESSION_COOKIE}={session}; Path=/; HttpOnly; "
                              "SameSite=Strict").encode("latin-1")
                    headers.append((b"set-cookie", header))
            await send(message)

        await self.app(scope, receive, send_with_cookie)

    def _refused(self, request: Request) -> Response | None:
        if self.token is None:
            host = (request.url.hostname or "").lower()
            if host not in LOOPBACK_NAMES:
                return PlainTextResponse("This workbench answers only on this machine "
                                         "(127.0.0.1 or localhost).", status_code=400)
            return None
        given = (request.query_params.get("token") or request.cookies.get(TOKEN_COOKIE)
                 or _bearer(request.headers.get("authorization", "")))
        if not given or not hmac.compare_digest(given.encode(), self.token.encode()):
            return PlainTextResponse("This workbench needs its token: open the address "
                                     "`sleuth serve` printed (…?token=…).", status_code=401)
        return None

    def _set(self, response: Response, name: str, value: str) -> None:
        response.set_cookie(name, value, httponly=True, samesite="strict", path="/")


def _bearer(header: str) -> str:
    kind, _, value = header.partition(" ")
    return value.strip() if kind.lower() == "bearer" else ""


def check_csrf(request: Request, form_value: object) -> bool:
    """Whether a POST's form carries this session's CSRF token."""
    expected = getattr(request.state, "csrf", "")
    return (isinstance(form_value, str) and bool(expected)
            and hmac.compare_digest(form_value.encode(), str(expected).encode()))
