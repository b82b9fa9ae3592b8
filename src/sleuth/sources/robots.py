"""robots.txt, fetched once per host and cached for a TTL (RFC 9309 semantics).

A 2xx file is parsed with protego; a 4xx (no file) allows everything; a 5xx or an
unreachable host disallows everything until the next try, as RFC 9309 §2.3.1.3-4 asks.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import urlsplit

from protego import Protego

# Fetches a robots.txt URL: returns (status, body) or raises OSError-like errors.
RobotsGetter = Callable[[str], tuple[int, bytes]]
MAX_ROBOTS_BYTES = 500 * 1024  # RFC 9309: parse at least 500 KiB


@dataclass
class _Entry:
    parser: Protego | None  # None: allow all
    disallow_all: bool
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
        try:
            status, body = self._get(key)
        except Exception:  # unreachable: assume complete disallow, retry after a short while
            entry = _Entry(None, True, now + min(self._ttl, 600.0))
        else:
            if 200 <= status < 300:
                text = body[:MAX_ROBOTS_BYTES].decode("utf-8", errors="replace")
                entry = _Entry(Protego.parse(text), False, now + self._ttl)
            elif 400 <= status < 500:
                entry = _Entry(None, False, now + self._ttl)
            else:
                entry = _Entry(None, True, now + min(self._ttl, 600.0))
        self._hosts[key] = entry
        return entry

    def allowed(self, url: str, user_agent: str) -> bool:
        entry = self._entry(url)
        if entry.disallow_all:
            return False
        if entry.parser is None:
            return True
        return bool(entry.parser.can_fetch(url, user_agent))

    def crawl_delay(self, url: str, user_agent: str) -> float | None:
        entry = self._entry(url)
        if entry.parser is None:
            return None
        delay = entry.parser.crawl_delay(user_agent)
        return float(delay) if delay is not None else None
