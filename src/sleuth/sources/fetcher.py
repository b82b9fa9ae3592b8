"""The polite fetcher: every network read goes through here and becomes an immutable snapshot.

Order of checks for one fetch: gates (tier, credentials, ToS, Tier 2 storage) → response
cache (fresh hit: no request) → circuit breaker → for each redirect hop: scheme, SSRF guard,
robots.txt, rate limit → send (conditional when cached) → 304: the stored snapshot; 429/503:
honour Retry-After; 5xx/connect errors/timeouts: retry with exponential backoff and jitter →
stream the body under a size cap and a total deadline (the status line and headers under
one too) → content-type allow-list → JSON
well-formedness → snapshot + cache row + research-log entry in one transaction.

Every wait (Retry-After, backoff, rate limit) goes through the fetcher's `Waiter`
(`sleuth.sources.waiting`): capped by the source's `max_wait_seconds` and the run's
`deadline`, ended by its `cancel` event. A Retry-After past the cap opens the source's
circuit until the stated time instead (kept in the case, `sleuth.store.breakers`); an
unreadable robots.txt makes the source unavailable for now, never "disallowed".

Every request goes through the network door (`sleuth.net`): the SSRF guard at the socket,
timeouts, the body cap, one TLS context, no proxies from the environment. Credentials are
added to the outgoing request only; stored URLs, headers, log entries and error messages are
redacted (`sleuth.net.redact`), and the HTTP stack's own log records are scrubbed of them.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import re
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urljoin

import httpcore
import httpx

from sleuth._version import __version__
from sleuth.model import Agent, InputError, LogEntry, SleuthError, Snapshot, Tier
from sleuth.model.source_spec import SourceSpec
from sleuth.net.body import BodyRefused, read_body
from sleuth.net.deadline import total_deadline
from sleuth.net.guard import (
    ConnectTo,
    Resolver,
    SsrfRefused,
    resolve_checked,
    system_resolver,
)
from sleuth.net.redact import redact_headers, redact_url, register_secrets, scrub
from sleuth.net.transport import guarded_client, timeout
from sleuth.sources.breaker import CircuitBreaker, CircuitState
from sleuth.sources.gates import Credentials, GateDecision, SourceBlocked, decide, log_decision
from sleuth.sources.oauth import GRANTS, TokenCache
from sleuth.sources.ratelimit import SourceLimiter, TokenBucket
from sleuth.sources.registry import Registry
from sleuth.sources.robots import MAX_ROBOTS_BYTES, RobotsCache, RobotsUnavailable
from sleuth.sources.strict import without_control_escapes
from sleuth.sources.waiting import Sleep, Waiter, backoff_delay, parse_retry_after
from sleuth.store import Store
from sleuth.store.breakers import load_breaker, save_breaker
from sleuth.store.http_cache import CacheEntry, lookup, remember
from sleuth.store.research_log import permits_since
from sleuth.text import decode_text, html_text

CONTACT_ENV = "SLEUTH_CONTACT"
_KEEP_HEADERS = ("content-type", "etag", "last-modified", "date", "cache-control", "expires",
                 "content-language", "age")
_REDIRECTS = frozenset({301, 302, 303, 307, 308})



def stored_url(spec: SourceSpec, url: str) -> str:
    """The URL as it may be stored, logged or shown (a snapshot's address, its final URL
    and redirects, the cache's key, the research log, an error): every credential-bearing
    query value (an app id too) and any user:password masked. The one place a fetched URL
    is made safe to keep."""
    return redact_url(url, spec.secret_params())


class FetchError(SleuthError):
    """A fetch failed for a reason the caller should see (status, size, type, parse...)."""

    def __init__(self, message: str, *, url: str, status: int | None = None) -> None:
        self.url = url
        self.status = status
        super().__init__(f"{url}: {message}")


class RobotsDisallowed(SourceBlocked):
    """robots.txt forbids this URL for our user agent."""


class RateLimited(FetchError):
    """The server asked us to wait longer than the source allows us to hold a fetch (or
    than the run has left): the source is set aside, its circuit open until then."""


@dataclass(frozen=True)
class FetchResult:
    snapshot: Snapshot
    raw: bytes
    status: int
    url: str  # as stored: credentials redacted
    from_cache: bool = False  # a fresh hit: no request at all
    revalidated: bool = False  # a 304: request sent, no body transferred
    requests: int = 0  # HTTP requests sent for this fetch (robots.txt not counted)
    created: bool = False  # a new snapshot was stored


@dataclass
class _SourceState:
    spec: SourceSpec
    client: httpx.Client
    limiter: SourceLimiter
    breaker: CircuitBreaker
    robots: RobotsCache
    logged: set[str] = field(default_factory=set)


def user_agent(contact: str | None) -> str:
    return f"sleuth/{__version__} (+{contact or 'local'})"


class Fetcher:
    """Fetch URLs of registered sources into a case's store, politely."""

    def __init__(
        self,
        store: Store,
        registry: Registry,
        *,
        contact: str | None = None,
        clock: Callable[[], float] = time.time,
        sleep: Sleep | None = None,
        resolver: Resolver = system_resolver,
        rng: Callable[[], float] = random.random,
        credentials: Credentials | None = None,
        env: Mapping[str, str] | None = None,
        connect_to: ConnectTo | None = None,
        transport: httpx.BaseTransport | None = None,
        cancel: threading.Event | None = None,
        deadline: float | None = None,
        session_since: int | None = None,
    ) -> None:
        """`sleep` simulates waits (tests, benchmarks; None: real waits on `cancel`);
        `deadline` (on `clock`) is when the run's time ends: no wait goes past it;
        `session_since`: the research-log entry the session began after, when it began in an
        earlier process (a resumed run): the permits logged since are not logged again."""
        self.store = store
        self.session_since = session_since
        self.transport = transport  # tests: replaces the network, behind the same guard
        self.connect_to = dict(connect_to or {})  # curl's --connect-to (`ssrf.ConnectTo`)
        self.registry = registry
        env = os.environ if env is None else env
        self.contact = contact or env.get(CONTACT_ENV) or None
        self.clock = clock
        self.waiter = Waiter(clock, sleep, cancel or threading.Event(), deadline)
        self.resolver = resolver
        self.rng = rng
        self.credentials = credentials or Credentials(env)
        # OAuth2 tokens: memory only
        self._tokens = TokenCache(self.credentials, clock, self._token_granted)
        self._states: dict[str, _SourceState] = {}

    # -- set-up ---------------------------------------------------------------------------
    def _state(self, spec: SourceSpec) -> _SourceState:
        st = self._states.get(spec.id)
        if st is not None:
            return st
        comp = spec.compliance
        limiter = SourceLimiter(
            TokenBucket(comp.requests_per_minute, comp.burst, self.clock),
            [(re.compile(p.pattern),
              TokenBucket(p.requests_per_minute, p.burst, self.clock))
             for p in comp.path_limits],
        )
        client = guarded_client(
            local_hosts=spec.local_hosts(), resolver=self.resolver, connect_to=self.connect_to,
            timeout_s=comp.timeout_seconds, transport=self.transport,
            headers={"User-Agent": user_agent(self.contact)}, trust_env=False,
        )
        breaker = CircuitBreaker(spec.id, comp.breaker_failures, comp.breaker_cooldown_seconds,
                                 self.clock, self._circuit_changed, on_save=self._save_breaker)
        with self.store.engine.connect() as conn:
            saved = load_breaker(conn, spec.id)
        if saved:  # a resumed run carries on from the case's breaker
            breaker.state = CircuitState(saved.circuit)
            breaker.failures = saved.failures
            breaker.opened_at = saved.opened_at
            breaker.open_until = saved.open_until
        robots = RobotsCache(lambda u: self._get_robots(spec.id, u), ttl=86400.0,
                             clock=self.clock)
        st = _SourceState(spec, client, limiter, breaker, robots)
        if self.session_since is not None:
            with self.store.engine.connect() as conn:
                st.logged |= {f"{a}:True" for a in permits_since(conn, spec.id,
                                                                  self.session_since)}
        self._states[spec.id] = st
        return st

    def close(self) -> None:
        for st in self._states.values():
            st.client.close()
        self._states.clear()
        self._tokens.clear()

    def __enter__(self) -> Fetcher:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _circuit_changed(self, b: CircuitBreaker, old: CircuitState, new: CircuitState,
                         reason: str) -> None:
        with self.store.transaction() as conn:
            save_breaker(conn, b.source_id, str(new), b.failures, b.opened_at, b.open_until,
                         reason)
            self.store.log(conn, LogEntry(
                agent=Agent.SCOUT, action_type=f"circuit_{new}", rationale=reason,
                context={"source": b.source_id, "from": str(old), "to": str(new),
                         "failures": b.failures,
                         **({"open_until": b.open_until} if b.open_until else {})}))

    def _save_breaker(self, b: CircuitBreaker, reason: str) -> None:
        with self.store.transaction() as conn:
            save_breaker(conn, b.source_id, str(b.state), b.failures, b.opened_at,
                         b.open_until, reason)

    def _sleeper(self, st: _SourceState, what: str) -> Sleep:
        """A sleep for one wait of `st`'s source, within its cap and the run's time."""
        return self.waiter.budget(st.spec.compliance.max_wait_seconds, f"{st.spec.id}: {what}")

    def _token_granted(self, spec: SourceSpec, grant: str, host: str) -> None:
        with self.store.transaction() as conn:
            self.store.log(conn, LogEntry(
                agent=Agent.SCOUT, action_type="oauth_token",
                rationale=f"obtained an access token for {spec.id} ({grant} grant)",
                context={"source": spec.id, "grant": grant, "token_endpoint": host}))

    # -- gates ----------------------------------------------------------------------------
    def check(self, spec: SourceSpec, action: str) -> GateDecision:
        """Run the gates; log the decision (denials always, permits once per session).

        The verdict is read on a plain connection; a write transaction is opened only when
        there is something to log (most fetches of a session have nothing to add)."""
        with self.store.engine.connect() as conn:
            d = decide(conn, spec, action, self.credentials)
        st = self._states.get(spec.id)
        key = f"{action}:{d.allowed}"
        if not d.allowed or st is None or key not in st.logged:
            with self.store.transaction() as conn:
                log_decision(self.store, conn, spec, action, d)
            if st is not None:
                st.logged.add(key)
        return d

    # -- fetching -------------------------------------------------------------------------
    def fetch(self, source_id: str, url: str, *, action: str | None = None,
              params: Mapping[str, str] | None = None,
              headers: Mapping[str, str] | None = None) -> FetchResult:
        """Fetch `url` (absolute, or a path under the source's base_url) into a snapshot."""
        spec = self.registry.get(source_id)
        if spec.kind == "local":
            raise SleuthError(f"source {spec.id} is local files: use `sleuth ingest`")
        if not spec.local and not self.contact:
            raise SleuthError(
                f"set {CONTACT_ENV} (an e-mail or URL) before fetching from the network: "
                "sources ask for a contact in the User-Agent")
        action = action or ("scrape" if spec.kind == "html" else "api")
        st = self._state(spec)
        target = httpx.URL(urljoin((spec.base_url or "") + "/", url) if url.startswith("/")
                           else url)
        if params:
            target = target.copy_merge_params(dict(params))
            register_secrets(*(v for k, v in params.items() if k.lower() in spec.secret_params()))
        shown = stored_url(spec, str(target))
        try:
            d = self.check(spec, action)
            if not d.allowed:
                raise SourceBlocked(d.reason)
            try:
                return self._fetch(st, target, shown, dict(headers or {}))
            except FetchError as exc:
                # An OAuth2 token the API rejects is dropped and renewed, once.
                if exc.status != 401 or not self._tokens.renewable(spec):
                    raise
                self._tokens.drop(spec.id)
                return self._fetch(st, target, shown, dict(headers or {}))
        except SleuthError as exc:  # never let a credential ride out on an error message
            if isinstance(exc, RobotsDisallowed | SsrfRefused):
                self._log_refusal(spec, action, shown, exc)
            elif isinstance(exc, RobotsUnavailable):
                self._log_unavailable(spec, action, shown, exc)
            secrets = self._secrets(spec)
            if secrets and any(s in str(exc) for s in secrets):
                raise SleuthError(scrub(str(exc), secrets)) from None
            raise
        except httpx.HTTPError as exc:
            raise FetchError(scrub(f"{type(exc).__name__}: {exc}", self._secrets(spec)),
                             url=shown) from None

    def _secrets(self, spec: SourceSpec) -> list[str]:
        """Every credential value for `spec`, with any access token obtained for it."""
        return self.credentials.secrets(spec) + self._tokens.secrets(spec.id)

    def _log_refusal(self, spec: SourceSpec, action: str, shown: str, exc: Exception) -> None:
        with self.store.transaction() as conn:
            self.store.log(conn, LogEntry(
                agent=Agent.CENSOR, action_type="source_access", rationale=str(exc),
                context={"source": spec.id, "action": action, "url": shown, "allowed": False,
                         "rule": "robots" if isinstance(exc, RobotsDisallowed) else "ssrf"}))

    def _log_unavailable(self, spec: SourceSpec, action: str, shown: str,
                         exc: Exception) -> None:
        """Not a refusal: the source cannot be asked now (RFC 9309 §2.3.1.4)."""
        with self.store.transaction() as conn:
            self.store.log(conn, LogEntry(
                agent=Agent.SCOUT, action_type="source_unavailable", rationale=str(exc),
                context={"source": spec.id, "action": action, "url": shown,
                         "reason": "robots_unavailable"}))

    def _authorise(self, st: _SourceState, url: httpx.URL,
                   headers: dict[str, str]) -> tuple[httpx.URL, dict[str, str]]:
        spec = st.spec
        auth = spec.compliance.auth
        if auth is None or not auth.env:
            return url, headers
        if auth.kind in GRANTS:
            value = self._tokens.token(
                spec, st.client,
                lambda path: st.limiter.acquire(path, self._sleeper(st, "token rate limit")))
        else:
            value = self.credentials.get(spec, auth.env[0])
        if not value:
            return url, headers
        # httpx logs each request's URL, a key in its query too: scrub them there
        register_secrets(value, *self.credentials.secrets(spec))
        if auth.param:
            url = url.copy_merge_params({auth.param: value})
        elif auth.kind in ("bearer", *GRANTS):
            headers.setdefault(auth.header or "Authorization", f"Bearer {value}")
        elif auth.header:
            headers.setdefault(auth.header, value)
        return url, headers

    def _fetch(self, st: _SourceState, target: httpx.URL, shown: str,
               headers: dict[str, str]) -> FetchResult:
        spec, comp = st.spec, st.spec.compliance
        with self.store.engine.connect() as conn:
            cached = lookup(conn, shown)
        now = datetime.fromtimestamp(self.clock(), UTC)
        if cached is not None and cached.fresh(now):
            return self._from_cache(cached, shown, requests=0)
        # Credentials only now: a fresh cache hit needs no request, so no OAuth2 login either.
        url, headers = self._authorise(st, target, headers)
        if cached is not None:
            headers = {**cached.validators(), **headers}
        requests = 0
        attempt = 0
        while True:
            st.breaker.before_request()
            try:
                resp, final, hops = self._send(st, url, headers)
                requests += len(hops)
            except (httpx.TimeoutException, httpx.TransportError) as exc:
                requests += 1
                st.breaker.failure(f"{type(exc).__name__}")
                attempt += 1
                if attempt > comp.max_retries or st.breaker.state == CircuitState.OPEN:
                    raise FetchError(f"{type(exc).__name__} after {attempt} attempt(s)"
                                     + (f": {exc}" if str(exc) else ""), url=shown) from None
                self._backoff(st, attempt)
                continue
            status = resp.status_code
            if status == 304 and cached is not None:
                resp.close()
                st.breaker.success()
                with self.store.transaction() as conn:
                    remember(conn, shown, spec.id, cached.snapshot_id, cached.status,
                             comp.cache_ttl_seconds, resp.headers.get("etag") or cached.etag,
                             resp.headers.get("last-modified") or cached.last_modified,
                             now=datetime.fromtimestamp(self.clock(), UTC))
                return self._from_cache(cached, shown, requests=requests, revalidated=True)
            if status in (429, 503):
                resp.close()
                at = self.clock()
                wait = parse_retry_after(resp.headers.get("retry-after"), at)
                if status == 503:
                    st.breaker.failure("HTTP 503")
                attempt += 1
                cap = min(comp.max_retry_after_seconds, comp.max_wait_seconds)
                if wait is not None and wait > self.waiter.allowance(cap):
                    raise self._set_aside(st, status, wait, at, cap, shown)
                if attempt > comp.max_retries or st.breaker.state == CircuitState.OPEN:
                    raise FetchError(f"HTTP {status} after {attempt} attempt(s)", url=shown,
                                     status=status)
                if wait is not None:
                    st.limiter.hold_until(at + wait)
                else:
                    self._backoff(st, attempt)
                continue
            if status >= 500:
                resp.close()
                st.breaker.failure(f"HTTP {status}")
                attempt += 1
                if attempt > comp.max_retries or st.breaker.state == CircuitState.OPEN:
                    raise FetchError(f"HTTP {status} after {attempt} attempt(s)", url=shown,
                                     status=status)
                self._backoff(st, attempt)
                continue
            if status >= 400:
                resp.close()
                st.breaker.success()  # the server answered: a client error is not an outage
                raise FetchError(f"HTTP {status}", url=shown, status=status)
            try:
                raw = self._read(resp, comp.max_body_bytes, comp.timeout_seconds, shown)
            except FetchError:
                st.breaker.failure("body read failed")
                raise
            st.breaker.success()
            return self._store(st, resp, raw, shown, final, hops, requests)

    def _send(self, st: _SourceState, url: httpx.URL,
              headers: dict[str, str]) -> tuple[httpx.Response, httpx.URL, list[str]]:
        """Send, following redirects by hand: every hop is checked (SSRF, robots, rate)."""
        spec, comp = st.spec, st.spec.compliance
        hops: list[str] = []
        origin_host = url.host
        limit = timeout(comp.timeout_seconds)
        for _ in range(comp.max_redirects + 1):
            if url.scheme not in ("http", "https"):
                raise SourceBlocked(f"refused scheme {url.scheme!r} for source {spec.id}")
            # Refused before robots.txt and the rate limit are spent on it; the door checks
            # again at the socket. A local host has nothing to check.
            if url.host.lower() not in spec.local_hosts():
                try:
                    resolve_checked(url.host, url.port or (443 if url.scheme == "https" else 80),
                                    self.resolver, local_ok=False, connect_to=self.connect_to)
                except httpcore.ConnectError as exc:  # no network, or no such host: retried
                    raise httpx.ConnectError(str(exc)) from exc  # as any transport failure is

            shown = stored_url(spec, str(url))
            if comp.robots_txt and not st.robots.allowed(str(url), "sleuth"):
                raise RobotsDisallowed(f"robots.txt disallows {shown} for sleuth")
            st.limiter.acquire(url.path, self._sleeper(st, "rate limit"))
            hop_headers = headers if url.host == origin_host else {
                k: v for k, v in headers.items()
                if k.lower() not in ("authorization", "cookie", "if-none-match",
                                     "if-modified-since")
            }
            req = st.client.build_request("GET", url, headers=hop_headers, timeout=limit)
            # the status line and headers within the source's timeout in all, however the
            # server drips them (httpx's read timeout is per read); the body has its own
            with total_deadline(comp.timeout_seconds):
                resp = st.client.send(req, stream=True)
            hops.append(shown)
            location = resp.headers.get("location")
            if resp.status_code in _REDIRECTS and location:
                resp.close()
                url = url.join(location)
                continue
            return resp, url, hops
        raise FetchError(f"more than {comp.max_redirects} redirects", url=hops[0])

    def _read(self, resp: httpx.Response, limit: int, seconds: float, shown: str) -> bytes:
        """The body, streamed: abort past `limit` bytes or past the total deadline."""
        try:
            return read_body(resp, limit, seconds)
        except BodyRefused as exc:
            raise FetchError(str(exc), url=shown, status=resp.status_code) from None

    def _backoff(self, st: _SourceState, attempt: int) -> None:
        """Exponential backoff with equal jitter, within the source's cap and the run's time."""
        self._sleeper(st, f"backoff after attempt {attempt}")(backoff_delay(attempt, self.rng))

    def _set_aside(self, st: _SourceState, status: int, wait: float, now: float, cap: float,
                   shown: str) -> RateLimited:
        """A Retry-After longer than may be waited: the circuit opens until the stated time
        (kept in the case) instead of a sleep."""
        left = self.waiter.remaining()
        why = (f"limit {cap:.0f} s" if wait > cap or left is None
               else f"the run has {left:.0f} s left")
        until = datetime.fromtimestamp(now + wait, UTC).isoformat(timespec="seconds")
        st.breaker.hold(now + wait, f"HTTP {status} with Retry-After {wait:.0f} s ({why})")
        return RateLimited(f"HTTP {status}: server asks to wait {wait:.0f} s ({why}); "
                           f"source {st.spec.id} set aside until {until}", url=shown,
                           status=status)

    # -- snapshots ------------------------------------------------------------------------
    def _from_cache(self, entry: CacheEntry, shown: str, *, requests: int,
                    revalidated: bool = False) -> FetchResult:
        snap = self.store.snapshot(entry.snapshot_id)
        raw = self.store.blob(snap.sha256)
        return FetchResult(snap, raw, entry.status, shown, from_cache=not revalidated,
                           revalidated=revalidated, requests=requests)

    def _store(self, st: _SourceState, resp: httpx.Response, raw: bytes, shown: str,
               final: httpx.URL, hops: list[str], requests: int) -> FetchResult:
        spec = st.spec
        ctype = resp.headers.get("content-type", "")
        media = ctype.split(";", 1)[0].strip().lower()
        if media not in spec.compliance.content_types:
            raise FetchError(f"content type {media or '(none)'!r} is not one of "
                             f"{list(spec.compliance.content_types)}", url=shown,
                             status=resp.status_code)
        text = _decode(raw, resp.charset_encoding, shown)
        if media == "application/json" or media.endswith("+json"):
            try:
                json.loads(text)
            except json.JSONDecodeError as exc:
                raise FetchError(f"malformed JSON at line {exc.lineno} column {exc.colno}: "
                                 f"{exc.msg}", url=shown, status=resp.status_code) from None
            # an escaped NUL reaches no record (PostgreSQL's text columns refuse it)
            text = without_control_escapes(text)
        elif "\x00" in text and media not in ("text/html", "application/xhtml+xml"):
            raise FetchError("binary data, not text (a NUL byte)", url=shown,
                             status=resp.status_code)
        elif media in ("text/html", "application/xhtml+xml"):
            try:
                text = html_text(text)
            except InputError as exc:
                raise FetchError(exc.message, url=shown, status=resp.status_code) from None
        if not text.strip():
            raise FetchError("empty body", url=shown, status=resp.status_code)
        meta: dict[str, Any] = {
            "source_id": spec.id,
            "status": resp.status_code,
            "final_url": stored_url(spec, str(final)),
            "redirects": hops[:-1],
            "request_headers": redact_headers({"User-Agent": user_agent(self.contact)}),
            "response_headers": {k: resp.headers[k] for k in _KEEP_HEADERS if k in resp.headers},
        }
        snap = Snapshot(
            sha256=hashlib.sha256(raw).hexdigest(), url=shown, source_name=spec.name,
            tier=Tier(spec.tier), evidence_type=spec.reliability.evidence_type, media_type=media,
            text=text, metadata=meta,
        )
        with self.store.transaction() as conn:
            stored, created = self.store.put_snapshot(conn, raw, snap)
            if created:  # the Censor's PII scan, logged as a compliance decision (no values)
                from sleuth.privacy.scan import log_snapshot_pii

                log_snapshot_pii(self.store, conn, stored)
            remember(conn, shown, spec.id, stored.id, resp.status_code,
                     spec.compliance.cache_ttl_seconds, resp.headers.get("etag"),
                     resp.headers.get("last-modified"),
                     now=datetime.fromtimestamp(self.clock(), UTC))
            self.store.log(conn, LogEntry(
                agent=Agent.SCOUT, action_type="fetch", rationale=f"fetched {shown}",
                context={"source": spec.id, "url": shown, "status": resp.status_code,
                         "snapshot_id": stored.id, "new_snapshot": created,
                         "requests": requests}))
        return FetchResult(stored, raw, resp.status_code, shown, requests=requests,
                           created=created)

    # -- robots.txt -----------------------------------------------------------------------
    def _get_robots(self, source_id: str, robots_url: str) -> tuple[int, bytes]:
        """(status, first 500 KiB) of a robots.txt, all within the source's timeout however
        slowly the server answers; redirects followed (RFC 9309 §2.3.1.2), each hop guarded."""
        st = self._states[source_id]
        url = httpx.URL(robots_url)
        st.limiter.acquire(url.path, self._sleeper(st, "robots.txt rate limit"))
        comp = st.spec.compliance
        with total_deadline(comp.timeout_seconds), st.client.stream(
                "GET", url, timeout=timeout(comp.timeout_seconds), follow_redirects=True,
        ) as resp:
            return resp.status_code, read_body(resp, MAX_ROBOTS_BYTES, comp.timeout_seconds,
                                               truncate=True)


def _decode(raw: bytes, charset: str | None, shown: str) -> str:
    if charset:
        try:
            return raw.decode(charset)
        except (LookupError, UnicodeDecodeError):
            pass
    return decode_text(raw, shown)[0]
