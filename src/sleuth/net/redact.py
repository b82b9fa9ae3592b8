"""Credentials out of everything stored, shown or logged: URLs, headers, messages, log records.

The HTTP stack logs on its own: httpx writes every request's URL at INFO (a source's API
key may ride in its query string) and httpcore its connection traces at DEBUG. Whoever puts
a credential on a request registers it here (`register_secrets`), and a filter on those
loggers replaces every registered value before any handler sees the record - whatever
logging the user or a test has switched on.
"""

from __future__ import annotations

import logging
import threading
import traceback
from collections.abc import Iterable, Mapping
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

SECRET_HEADERS = frozenset(
    {"authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key",
     "x-auth-token", "api-key"}
)
MASK = "REDACTED"
# The loggers of the HTTP stack (a logger's filters do not apply to its children's records).
HTTP_LOGGERS = ("httpx", "httpcore.connection", "httpcore.http11", "httpcore.http2",
                "httpcore.proxy", "httpcore.socks")

_secrets: set[str] = set()
_lock = threading.Lock()


def redact_url(url: str, secret_params: Iterable[str]) -> str:
    """The URL with credential-bearing query values (and any userinfo) replaced."""
    names = {p.lower() for p in secret_params}
    parts = urlsplit(url)
    netloc = parts.netloc.rsplit("@", 1)[-1]
    pairs = parse_qsl(parts.query, keep_blank_values=True)
    if netloc == parts.netloc and not any(k.lower() in names for k, _ in pairs):
        return url  # nothing secret: keep the URL byte for byte
    query = urlencode(
        [(k, MASK if k.lower() in names else v)
         for k, v in pairs],
        safe="|,:",
    ) if parts.query else ""
    return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))


def redact_headers(headers: Mapping[str, str]) -> dict[str, str]:
    return {k: (MASK if k.lower() in SECRET_HEADERS else v) for k, v in headers.items()}


def scrub(text: str, secrets: Iterable[str]) -> str:
    """Remove every known secret value from a message (longest first)."""
    for s in sorted((s for s in secrets if s and len(s) >= 4), key=len, reverse=True):
        text = text.replace(s, MASK)
    return text


def register_secrets(*values: str | None) -> None:
    """Credentials this process sends: the HTTP stack's log records are scrubbed of them."""
    fresh = {v for v in values if v and len(v) >= 4}
    if fresh - _secrets:
        with _lock:
            _secrets.update(fresh)
    _install()


def known_secrets() -> tuple[str, ...]:
    with _lock:
        return tuple(_secrets)


class SecretsFilter(logging.Filter):
    """Replace registered credentials in a record's message and exception text."""

    def filter(self, record: logging.LogRecord) -> bool:
        secrets = known_secrets()
        if not secrets:
            return True
        try:
            message = record.getMessage()
        except Exception:  # a bad format string must not make logging itself fail
            message = f"{record.msg!s} {record.args!r}"
        clean = scrub(message, secrets)
        if clean != message:
            record.msg, record.args = clean, ()
        if record.exc_info and not record.exc_text:
            record.exc_text = "".join(traceback.format_exception(*record.exc_info)).rstrip("\n")
        if record.exc_text:
            record.exc_text = scrub(record.exc_text, secrets)
        return True


_FILTER = SecretsFilter()


def _install() -> None:
    for name in HTTP_LOGGERS:
        logger = logging.getLogger(name)
        if _FILTER not in logger.filters:
            logger.addFilter(_FILTER)
