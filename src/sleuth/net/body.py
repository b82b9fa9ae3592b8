"""Reading a response body under a size cap and a total deadline.

httpx's read timeout is per read: a server that drips a byte at a time, or streams without
end, never trips it. Every body that crosses the door is read here, streamed, and dropped
once it passes its limit - before it is held in memory whole.
"""

from __future__ import annotations

import time

import httpx

from sleuth.net.guard import NetError


class BodyRefused(NetError):
    """A response body too large, too slow or broken off."""


class BodyTooLarge(BodyRefused):
    """Past the size limit: asking again would get the same answer."""


def read_body(resp: httpx.Response, limit: int, seconds: float, *,
              truncate: bool = False) -> bytes:
    """The body of a streamed response; BodyRefused past `limit` bytes or `seconds` in all.

    `truncate` keeps the first `limit` bytes instead (robots.txt: parse the first 500 KiB).
    Counted after content decoding, so a compressed body cannot unpack past the limit."""
    declared = resp.headers.get("content-length")
    if not truncate and declared and declared.isdigit() and int(declared) > limit:
        resp.close()
        raise BodyTooLarge(f"body of {declared} bytes exceeds the limit of {limit}")
    deadline = time.monotonic() + seconds
    chunks: list[bytes] = []
    size = 0
    try:
        for chunk in resp.iter_bytes():
            size += len(chunk)
            if size > limit and truncate:
                chunks.append(chunk[: limit - size + len(chunk)])
                break
            if size > limit:
                raise BodyTooLarge(f"body exceeds the limit of {limit} bytes")
            if time.monotonic() > deadline:
                raise BodyRefused(f"body not complete within {seconds:g} s")
            chunks.append(chunk)
    except httpx.HTTPError as exc:
        raise BodyRefused(f"reading body: {type(exc).__name__}") from None
    finally:
        resp.close()
    return b"".join(chunks)
