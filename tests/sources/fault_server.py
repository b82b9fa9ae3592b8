"""A hostile HTTP server on 127.0.0.1 for the fetcher's fault tests (issue 26, item 8).

pytest-httpserver answers with well-formed HTTP; the faults that matter here are not: a
status line dripped a byte at a time, a Content-Length that lies, a gzip bomb, an endless
robots.txt. `FaultServer` is a real server on a socket, one thread per connection, that
answers each path with a scripted `Fault`: raw bytes as they are (no framing added), sent
at once or dripped, optionally followed by an endless tail. It counts connections and
keeps the paths asked for, so a test can prove a request was never sent.

Nothing here touches the internet; every server listens on a loopback address.
"""

from __future__ import annotations

import socket
import struct
import threading
import zlib
from dataclasses import dataclass


@dataclass
class Fault:
    """One scripted answer. `data` is sent as it is: `head` bytes at once, the rest one
    byte every `interval` seconds (all at once when None); then, when `tail` is given, that
    chunk again and again until the client hangs up or `tail_bytes` are sent. The
    connection closes after (`hold` seconds later: a lying Content-Length that never
    comes)."""

    data: bytes
    head: int | None = None
    interval: float | None = None
    tail: bytes | None = None
    tail_bytes: int = 1 << 40
    hold: float = 0.0


def response(status: str = "200 OK", body: bytes = b"", *, headers: dict[str, str] | None = None,
             length: int | None = None) -> bytes:
    """An HTTP/1.1 answer's bytes; `length` the Content-Length to declare (lies allowed),
    None for the body's own; a negative `length` declares none."""
    lines = [f"HTTP/1.1 {status}"]
    hdrs = {"Content-Type": "text/plain", "Connection": "close", **(headers or {})}
    declared = len(body) if length is None else length
    if declared >= 0:
        hdrs["Content-Length"] = str(declared)
    lines += [f"{k}: {v}" for k, v in hdrs.items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body


def redirect(location: str, status: str = "302 Found") -> Fault:
    return Fault(response(status, headers={"Location": location}))


class FaultServer:
    """Serves `faults` (path -> Fault; "*" for any other path) on `host`, a free port."""

    def __init__(self, faults: dict[str, Fault], host: str = "127.0.0.1") -> None:
        self.faults = faults
        self.stopping = threading.Event()
        self.sock = socket.create_server((host, 0))
        self.sock.settimeout(0.1)
        self.host = host
        self.port = self.sock.getsockname()[1]
        self.connections = 0
        self.paths: list[str] = []
        self.requests: list[bytes] = []  # each request's line and headers, as received
        self.sent = 0  # body bytes sent, all connections
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def url_for(self, path: str) -> str:  # (as pytest-httpserver's, for `spec_data`)
        return self.url + path

    def _serve(self) -> None:
        while not self.stopping.is_set():
            try:
                conn, _ = self.sock.accept()
            except (TimeoutError, OSError):
                continue
            self.connections += 1
            threading.Thread(target=self._answer, args=(conn,), daemon=True).start()

    def _answer(self, conn: socket.socket) -> None:
        try:
            conn.settimeout(5.0)
            request = b""
            while b"\r\n\r\n" not in request and len(request) < 65536:
                got = conn.recv(65536)
                if not got:
                    return
                request += got
            path = request.split(b" ", 2)[1].decode("latin-1") if b" " in request else "?"
            self.paths.append(path)
            self.requests.append(request)
            fault = self.faults.get(path) or self.faults.get("*")
            if fault is None:
                conn.sendall(response("404 Not Found", b"no"))
                return
            self._send(conn, fault)
        except OSError:
            pass  # the client hung up: what a refusing client does
        finally:
            conn.close()

    def _send(self, conn: socket.socket, f: Fault) -> None:
        if f.interval is None:
            conn.sendall(f.data)
        else:
            head = f.head or 0
            conn.sendall(f.data[:head])
            for b in f.data[head:]:
                if self.stopping.wait(f.interval):
                    return
                conn.sendall(bytes([b]))
        if f.tail is not None:
            sent = 0
            while sent < f.tail_bytes and not self.stopping.is_set():
                conn.sendall(f.tail)
                sent += len(f.tail)
                self.sent += len(f.tail)
        if f.hold:
            self.stopping.wait(f.hold)

    def stop(self) -> None:
        self.stopping.set()
        self.sock.close()


def gzip_bomb(inflated: int, block: int = 1 << 20) -> bytes:
    """A valid gzip member of `inflated` zero bytes (a multiple of `block`), made without
    compressing them all: after a full flush, deflate compresses the same block to the same
    bytes, so one block's output is repeated (1 GiB of zeros: about 1 MB)."""
    zeros = bytes(block)
    c = zlib.compressobj(9, zlib.DEFLATED, -zlib.MAX_WBITS)
    first = c.compress(zeros) + c.flush(zlib.Z_FULL_FLUSH)
    again = c.compress(zeros) + c.flush(zlib.Z_FULL_FLUSH)
    end = c.flush()
    n = inflated // block
    crc = 0
    for _ in range(n):
        crc = zlib.crc32(zeros, crc)
    header = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\xff"
    return (header + first + again * (n - 1) + end
            + struct.pack("<II", crc & 0xFFFFFFFF, (n * block) & 0xFFFFFFFF))


def deflate_bomb(inflated: int, block: int = 1 << 20) -> bytes:
    """`gzip_bomb`'s zeros as a zlib stream (Content-Encoding: deflate)."""
    zeros = bytes(block)
    c = zlib.compressobj(9, zlib.DEFLATED, zlib.MAX_WBITS)
    first = c.compress(zeros) + c.flush(zlib.Z_FULL_FLUSH)
    again = c.compress(zeros) + c.flush(zlib.Z_FULL_FLUSH)
    n = inflated // block
    adler = 1
    for _ in range(n):
        adler = zlib.adler32(zeros, adler)
    return first + again * (n - 1) + c.flush()[:-4] + struct.pack(">I", adler)


class PeakRss:
    """The growth of this process's peak resident memory over a block, in bytes (Linux:
    the peak is reset on entry through /proc/self/clear_refs). `available` is False where
    it cannot be measured."""

    def __init__(self) -> None:
        self.available = True
        self.growth = 0

    @staticmethod
    def _status(field: str) -> int:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) * 1024
        raise OSError(field)

    def __enter__(self) -> PeakRss:
        try:
            with open("/proc/self/clear_refs", "w") as f:
                f.write("5")  # reset the peak (VmHWM) to the current size
            self._start = self._status("VmRSS")
        except OSError:
            self.available = False
        return self

    def __exit__(self, *exc: object) -> None:
        if self.available:
            self.growth = self._status("VmHWM") - self._start
