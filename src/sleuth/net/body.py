"""Reading a response body under a size cap and a total deadline.

httpx's read timeout is per read: a server that drips a byte at a time, or streams without
end, never trips it. Every body that crosses the door is read here, streamed, and dropped
once it passes its limit - before it is held in memory whole.

Compressed bodies are inflated here too, not by httpx: httpx inflates each chunk it
receives whole, and a 64 KiB chunk of a gzip bomb inflates to 64 MB at once (issue 26: a
bomb refused at 1 MB peaked at 237 MB first). Here each chunk is inflated at most
`_STEP` bytes at a time, and reading stops as soon as the inflated size passes the limit.
Only the encodings the door asks for (`ACCEPT_ENCODING`: gzip, deflate) are read; a body
in any other is refused.
"""

from __future__ import annotations

import time
import zlib
from collections.abc import Iterator

import httpx

from sleuth.net.guard import NetError

ACCEPT_ENCODING = "gzip, deflate"  # what every client of the door asks for
_STEP = 64 * 1024  # bytes inflated at a time


class BodyRefused(NetError):
    """A response body too large, too slow or broken off."""


class BodyTooLarge(BodyRefused):
    """Past the size limit: asking again would get the same answer."""


class _Inflater:
    """One Content-Encoding (gzip or deflate), inflated a step at a time."""

    def __init__(self, encoding: str) -> None:
        self.encoding = encoding
        self.first = True
        self.received = 0
        wbits = zlib.MAX_WBITS | 16 if encoding in ("gzip", "x-gzip") else zlib.MAX_WBITS
        self.z = zlib.decompressobj(wbits)

    def inflate(self, data: bytes) -> Iterator[bytes]:
        """The inflated bytes of `data`, `_STEP` at most at a time."""
        self.received += len(data)
        while data:
            try:
                out = self.z.decompress(data, _STEP)
            except zlib.error:
                if self.first and self.encoding == "deflate":  # raw deflate, no zlib header
                    self.first = False
                    self.z = zlib.decompressobj(-zlib.MAX_WBITS)
                    continue
                raise BodyRefused(f"body is not valid {self.encoding} data") from None
            self.first = False
            data = self.z.unconsumed_tail
            if out:
                yield out
            if self.z.eof:
                return

    def finish(self) -> None:
        if self.received and not self.z.eof:  # (an empty body is empty, whatever its coding)
            raise BodyRefused(f"{self.encoding} body ends before its end (truncated)")


def _inflater(resp: httpx.Response) -> _Inflater | None:
    coding = resp.headers.get("content-encoding", "").strip().lower()
    if coding in ("", "identity"):
        return None
    if coding in ("gzip", "x-gzip", "deflate"):
        return _Inflater(coding)
    raise BodyRefused(f"body in content encoding {coding!r}, which was not asked for")


def read_body(resp: httpx.Response, limit: int, seconds: float, *,
              truncate: bool = False) -> bytes:
    """The body of a streamed response; BodyRefused past `limit` bytes or `seconds` in all.

    `truncate` keeps the first `limit` bytes instead (robots.txt: parse the first 500 KiB).
    Counted after content decoding, and inflated a step at a time, so a compressed body
    can neither unpack past the limit nor hold more than a step past it in memory."""
    declared = resp.headers.get("content-length")
    coded = resp.headers.get("content-encoding", "").strip().lower() not in ("", "identity")
    if not truncate and not coded and declared and declared.isdigit() and int(declared) > limit:
        resp.close()
        raise BodyTooLarge(f"body of {declared} bytes exceeds the limit of {limit}")
    deadline = time.monotonic() + seconds
    chunks: list[bytes] = []
    size = 0
    try:
        if hasattr(resp, "_content"):  # in memory already, decoded (a test's transport)
            inflater, stream = None, iter([resp.content])
        else:
            inflater, stream = _inflater(resp), resp.iter_raw()
        for raw in stream:
            if time.monotonic() > deadline:
                raise BodyRefused(f"body not complete within {seconds:g} s")
            for chunk in ([raw] if inflater is None else inflater.inflate(raw)):
                size += len(chunk)
                if size > limit:
                    if truncate:
                        chunks.append(chunk[: limit - size + len(chunk)])
                        return b"".join(chunks)
                    raise BodyTooLarge(f"body exceeds the limit of {limit} bytes")
                chunks.append(chunk)
        if inflater is not None:
            inflater.finish()
    except httpx.HTTPError as exc:
        raise BodyRefused(f"reading body: {type(exc).__name__}") from None
    finally:
        resp.close()
    return b"".join(chunks)
