"""robots.txt, fetched once per host and cached for a TTL (RFC 9309 semantics).

A 2xx file is parsed with protego (its first 500 KiB: RFC 9309 §2.5 asks a crawler to parse
at least that much, and nothing past it is read); a 4xx (no file) allows everything. A 5xx,
a 429, an unreachable host or a file not read within the source's timeout leaves the rules
unknown: RFC 9309 §2.3.1.4 asks the crawler to assume complete disallow, so nothing is
fetched from that host, but the source is *unavailable for now* (`RobotsUnavailable`, tried
again after a short while), never "robots.txt disallows".
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import urlsplit

from protego import Protego

from sleuth.sources.waiting import SourceUnavailable, WaitCancelled

# Fetches a robots.txt URL: returns (status, body) or raises OSError-like errors.
RobotsGetter = Callable[[str], tuple[int, bytes]]
MAX_ROBOTS_BYTES = 500 * 1024  # RFC 9309: parse at least 500 KiB
RETRY_UNAVAILABLE = 600.0  # seconds before an unreadable robots.txt is asked for again


class RobotsUnavailable(SourceUnavailable):
    """robots.txt could not be read (5xx, 429, unreachable, too slow): the host's rules are
    unknown, so nothing is fetched from it for now."""


@dataclass
class _Entry:
    parser: Protego | None  # None: allow all
    unavailable: str | None  # why the rules are unknown; None when they are known
    expires: float


class RobotsCache:
    """robots.txt rules per scheme+host, fetched through `getter` and kept `ttl` seconds."""

    def __init__(self, getter: RobotsGetter, *, ttl: float = 86400.0,
                 clock: Callable[[], float] = time.time) -> None:
        self._get = getter
        self._ttl = ttl
        self._clock = clock
        self._hosts: dict[str, _Entry] = {}
        self.fetches = 0

    @staticmethod
    def robots_url(url: str) -> str:
        parts = urlsplit(url)
        return f"{parts.scheme}://{parts.netloc}/robots.txt"

    def _entry(self, url: str) -> _Entry:
        key = self.robots_url(url)
        now = self._clock()
        entry = self._hosts.get(key)
        if entry is not None and entry.expires > now:
            return entry
        self.fetches += 1
        retry = now + min(self._ttl, RETRY_UNAVAILABLE)
        try:
            status, body = self._get(key)
        except (SourceUnavailable, WaitCancelled):  # a wait refused or cancelled: not an
            raise  # answer about the file; asked again next time
        except Exception as exc:  # unreachable or too slow: unknown rules, for a while
            entry = _Entry(None, f"{type(exc).__name__}: {exc}" if str(exc)
                           else type(exc).__name__, retry)
        else:
            if 200 <= status < 300:
                text = body[:MAX_ROBOTS_BYTES].decode("utf-8", errors="replace")
                entry = _Entry(Protego.parse(text), None, now + self._ttl)
            elif 400 <= status < 500 and status != 429:
                entry = _Entry(None, None, now + self._ttl)
            else:
                entry = _Entry(None, f"HTTP {status}", retry)
        self._hosts[key] = entry
        return entry

    def allowed(self, url: str, user_agent: str) -> bool:
        """Whether the host's rules let `user_agent` fetch `url`; RobotsUnavailable when
        they cannot be known now."""
        entry = self._entry(url)
        if entry.unavailable is not None:
            raise RobotsUnavailable(f"robots.txt of {self.robots_url(url)} unavailable "
                                    f"({entry.unavailable}): source unavailable for now")
        if entry.parser is None:
            return True
        return bool(entry.parser.can_fetch(url, user_agent))

    def crawl_delay(self, url: str, user_agent: str) -> float | None:
        entry = self._entry(url)
        if entry.parser is None:
            return None
        delay = entry.parser.crawl_delay(user_agent)
        return float(delay) if delay is not None else None
