"""The world's website on 127.0.0.1: every source's endpoints on one threaded server.

Around `World.respond` it adds what real sources do to a crawler: a robots.txt, a token-
bucket limit per source (429 with Retry-After when exceeded), injected faults drawn from the
seed (bursts of 500s, slow answers), a FamilySearch bearer-token check (401 without), and a
request log. `sources_dir` holds override YAMLs (the built-in specs pointed at this server,
`local: true`, limits under the server's) so `load_registry(extra_dirs=(sources_dir,))` - or
`SLEUTH_SOURCES_DIR` - gives the real plugins a registry that crawls the world unchanged.
"""

from __future__ import annotations

import math
import random
import shutil
import tempfile
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import yaml

from sleuth.sources.registry import load_registry
from sleuth.world import World

SERVED = ("wikitree", "wikidata", "chronicling_america", "familysearch", "find_a_grave",
          "freereg")
FS_TOKEN_ENV = "FAMILYSEARCH_ACCESS_TOKEN"


@dataclass
class Limits:
    """Server-side manners: requests a minute and burst per source; faults by seed."""

    requests_per_minute: float = 1200.0
    burst: int = 100
    fault_rate: float = 0.0  # chance a request starts a burst of 500s
    fault_burst: tuple[int, int] = (1, 3)
    slow_rate: float = 0.0  # chance of a slow answer
    slow_seconds: float = 0.2
    retry_after: int = 1


@dataclass
class LogLine:
    t: float
    source: str
    path: str
    status: int


@dataclass
class _Bucket:
    rate: float
    burst: int
    tokens: float = 0.0
    at: float = field(default_factory=time.monotonic)

    def take(self) -> float:
        """0 when a token was taken, else seconds until one is free."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate / 60.0)
        self.at = now
        if self.tokens >= 1:
            self.tokens -= 1
            return 0.0
        return (1 - self.tokens) * 60.0 / self.rate


class _QuietServer(ThreadingHTTPServer):
    """A client that hangs up (a timeout, the end of a run) is normal here, not a traceback."""

    def handle_error(self, request: Any, client_address: Any) -> None:
        import sys

        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


class WorldServer:
    """A running world server; a context manager; `stop()` shuts it down."""

    def __init__(self, world: World, port: int = 0, limits: Limits | None = None,
                 client_rpm: float | None = None, host: str | None = None) -> None:
        self.world = world
        self.limits = limits or Limits()
        self.log: list[LogLine] = []
        self._lock = threading.Lock()
        self._buckets: dict[str, _Bucket] = {}
        self._counts: dict[str, int] = {}
        self._failing: dict[str, int] = {}
        self._httpd = _QuietServer(("127.0.0.1", port), _handler(self))
        self._httpd.daemon_threads = True
        self.port = self._httpd.server_address[1]
        # Under a stable `host` name the world's URLs are the same whatever port was free;
        # a client reaches it through `connect_to` (the fetcher's curl-style mapping).
        self.base_url = f"http://{host}" if host else f"http://127.0.0.1:{self.port}"
        self.connect_to = {f"{host.lower()}:80": ("127.0.0.1", self.port)} if host else {}
        self.base_urls = {s: self.base_url for s in SERVED}
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)
        self._thread.start()
        self._tmp = Path(tempfile.mkdtemp(prefix="sleuth-world-sources-"))
        self.sources_dir = self._tmp
        write_sources(self.sources_dir, self.base_url,
                      client_rpm or self.limits.requests_per_minute * 0.9,
                      max(1, self.limits.burst // 2))

    @property
    def request_count(self) -> int:
        with self._lock:
            return sum(1 for x in self.log if x.source != "robots")

    def counts(self) -> dict[str, int]:
        with self._lock:
            out: dict[str, int] = {}
            for x in self.log:
                out[x.source] = out.get(x.source, 0) + 1
            return out

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
        shutil.rmtree(self._tmp, ignore_errors=True)

    def __enter__(self) -> WorldServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- one request ----------------------------------------------------------------------
    def decide(self, source: str) -> tuple[int, dict[str, str]] | None:
        """A 429 or 500 to answer instead of the document, or None; the slow-down sleeps."""
        lim = self.limits
        with self._lock:
            n = self._counts.get(source, 0)
            self._counts[source] = n + 1
            bucket = self._buckets.setdefault(
                source, _Bucket(lim.requests_per_minute, lim.burst, float(lim.burst)))
            wait = bucket.take() if source != "robots" else 0.0
            if wait:
                return 429, {"Retry-After": str(max(lim.retry_after, math.ceil(wait)))}
            r = random.Random(f"{self.world.seed}:fault:{source}:{n}")
            if self._failing.get(source, 0) > 0:
                self._failing[source] -= 1
                return 500, {}
            if source != "robots" and r.random() < lim.fault_rate:
                self._failing[source] = r.randint(*lim.fault_burst) - 1
                return 500, {}
            slow = source != "robots" and r.random() < lim.slow_rate
        if slow:
            time.sleep(lim.slow_seconds)
        return None

    def record(self, source: str, path: str, status: int) -> None:
        with self._lock:
            self.log.append(LogLine(time.time(), source, path, status))


def _handler(server: WorldServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            return  # the request log is `server.log`, not stderr

        def _send(self, status: int, ctype: str, body: bytes,
                  headers: dict[str, str] | None = None) -> None:
            self.send_response(status)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
            for k, v in (headers or {}).items():
                self.send_header(k, v)
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self) -> None:
            world = server.world
            path = self.path.split("?", 1)[0]
            source = world.source_of(path)
            verdict = server.decide(source)
            if verdict is not None:
                status, headers = verdict
                server.record(source, self.path, status)
                self._send(status, "application/json", b'{"error": "try later"}', headers)
                return
            if source == "familysearch" and not self.headers.get(
                    "Authorization", "").startswith("Bearer "):
                server.record(source, self.path, 401)
                self._send(401, "application/json", b'{"error": "unauthorized"}')
                return
            doc = world.respond(self.path, server.base_url)
            server.record(source, self.path, doc.status)
            ctype = doc.content_type + "; charset=utf-8"
            self._send(doc.status, ctype, doc.body.encode("utf-8"))

    return Handler


def write_sources(folder: Path, base_url: str, rpm: float, burst: int) -> None:
    """Override YAMLs: each built-in network source at `base_url`, `local: true`, with
    limits the server will not refuse; plus `freereg`, which has no built-in spec."""
    folder.mkdir(parents=True, exist_ok=True)
    for spec in load_registry():
        if spec.kind == "local":
            continue
        data = spec.model_dump(mode="json", exclude_none=True)
        data["base_url"] = base_url
        data["local"] = True
        comp = data["compliance"]
        comp["requests_per_minute"] = rpm
        comp["burst"] = burst
        comp["path_limits"] = [{**pl, "requests_per_minute": rpm, "burst": burst}
                               for pl in comp.get("path_limits", [])]
        comp["max_retry_after_seconds"] = 30
        if spec.id == "find_a_grave":  # a simulated site: no terms forbid reading it
            comp["prohibited_actions"] = []
            comp["allowed_actions"] = ["search", "fetch", "scrape", "store"]
        if spec.id == "chronicling_america":
            comp["content_types"] = [*comp["content_types"], "text/plain"]
        data["notes"] = f"sleuth world at {base_url} (simulated; limits are the world's)"
        (folder / f"{spec.id}.yaml").write_text(yaml.safe_dump(data, sort_keys=False),
                                                encoding="utf-8")
    freereg = {
        "id": "freereg", "name": "FreeREG (simulated world)", "tier": 0, "kind": "json",
        "base_url": base_url, "local": True,
        "compliance": {"robots_txt": True, "requests_per_minute": rpm, "burst": burst,
                       "cache_ttl_seconds": 86400, "requires_auth": False,
                       "allowed_actions": ["search", "fetch", "api", "store"],
                       "content_types": ["text/csv", "text/plain"],
                       "max_retry_after_seconds": 30},
        "reliability": {"evidence_type": "secondary", "base_weight": 0.7,
                        "user_contributed": False},
        "endpoints": {"register": "/freereg/{key}.csv"},
        "search": {"endpoint": "/freereg/search",
                   "params": {"surname": "{surname}", "forename": "{given}"}},
        "notes": "Parish-register transcriptions (FreeREG1 CSV), simulated world only.",
    }
    (folder / "freereg.yaml").write_text(yaml.safe_dump(freereg, sort_keys=False),
                                         encoding="utf-8")


def serve(world: World, port: int = 0, limits: Limits | None = None,
          client_rpm: float | None = None, host: str | None = None) -> WorldServer:
    """Start serving `world` on 127.0.0.1 (`port` 0: a free one) in background threads;
    with `host`, its URLs name that host (reach it through `WorldServer.connect_to`)."""
    return WorldServer(world, port, limits, client_rpm, host)
