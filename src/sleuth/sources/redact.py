"""Credentials out of everything stored or shown: URLs, headers, error messages."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

SECRET_HEADERS = frozenset(
    {"authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key",
     "x-auth-token", "api-key"}
)
MASK = "REDACTED"


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
