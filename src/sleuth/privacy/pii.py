"""Pattern scrubbers for personal data that must never reach an output, a log or an error.

Two kinds of scrubbing live here:

* generic PII patterns (US SSN, e-mail address, phone number) that are wrong to print whatever
  person they belong to, used by `redact_text` for logs and error messages and by the Censor;
* exact-date patterns built for one calendar day, so that the Censor can find a living
  person's birth date however a source happened to write it ("1990-05-12", "May 12, 1990",
  "12 May 1990", "12th of May 1990", "05/12/1990", "12.05.90"...).

Every pattern is precompiled or bounded, with no nested quantifiers, so scrubbing a long
snapshot text stays linear.
"""

from __future__ import annotations

import re
from datetime import date

SSN_RE = re.compile(r"(?<![\d-])\d{3}-\d{2}-\d{4}(?![\d-])")
EMAIL_RE = re.compile(r"[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}")
# North American numbers need separators (so years, ranges and ids do not match);
# international numbers need a leading "+".
PHONE_RE = re.compile(
    r"(?<![\w-])(?:\+?1[\s.-]?)?(?:\(\d{3}\)\s?|\d{3}[\s.-])\d{3}[\s.-]\d{4}(?![\d-])"
    r"|(?<![\w+])\+\d{1,3}(?:[\s.-]?\(?\d{1,4}\)?){2,5}(?!\d)"
)
SOCIAL_RE = re.compile(
    r"\b(?:facebook|instagram|twitter|linkedin|tiktok|snapchat|myspace|youtube)\.com\b"
    r"|\bx\.com/",
    re.IGNORECASE,
)

_PII: tuple[tuple[re.Pattern[str], str], ...] = (
    (SSN_RE, "[redacted: ssn]"),
    (EMAIL_RE, "[redacted: email]"),
    (PHONE_RE, "[redacted: phone]"),
)

_MONTHS = (
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
)


def redact_text(text: str) -> str:
    """Replace SSNs, e-mail addresses and phone numbers with a labelled marker.

    Meant for anything that leaves the process without going through the Censor: log lines,
    exception messages, CLI errors. It is pattern-based, so it cannot know whose data it is;
    it errs on the side of removing.
    """
    for pattern, marker in _PII:
        text = pattern.sub(marker, text)
    return text


def has_pii(text: str) -> bool:
    return any(pattern.search(text) for pattern, _ in _PII)


def has_modern_clue(text: str) -> bool:
    """An e-mail, phone number or social-media URL: evidence the person lived recently."""
    return has_pii(text) or bool(SOCIAL_RE.search(text))


def _month_names(month: int) -> str:
    full = _MONTHS[month - 1]
    names = {full, full[:3]}
    if month == 9:
        names.add("sept")
    return "|".join(sorted(names, key=len, reverse=True))


def exact_date_pattern(day: date) -> re.Pattern[str]:
    """A regex matching the usual ways of writing one calendar day (case-insensitive).

    Covers ISO (1990-05-12, 1990/5/12), month-first ("May 12, 1990", "May 12th 1990"),
    day-first ("12 May 1990", "12th of May, 1990", GEDCOM "12 MAY 1990"), and numeric
    day/month/year in either order with -, / or . and a 2- or 4-digit year.
    """
    y, m, d = f"{day.year:04d}", day.month, day.day
    yy = f"{day.year % 100:02d}"
    mn = f"(?:{_month_names(m)})\\.?"
    dn = f"0?{d}(?:st|nd|rd|th)?"
    m2, d2 = f"0?{m}", f"0?{d}"
    sep = r"[\s,.\-/]{1,3}"
    alternatives = [
        rf"(?<!\d){y}[-/.]{m2}[-/.]{d2}(?!\d)",
        rf"\b{mn}{sep}{dn}{sep}{y}(?!\d)",
        rf"(?<!\d){dn}{sep}(?:of\s+)?{mn}{sep}{y}(?!\d)",
        rf"(?<!\d){d2}[-/.]{m2}[-/.](?:{y}|{yy})(?!\d)",
        rf"(?<!\d){m2}[-/.]{d2}[-/.](?:{y}|{yy})(?!\d)",
    ]
    return re.compile("|".join(alternatives), re.IGNORECASE)


def month_pattern(year: int, month: int) -> re.Pattern[str]:
    """A regex for "May 1990", "May, 1990" and "1990-05" (a month-precision date)."""
    mn = f"(?:{_month_names(month)})\\.?"
    return re.compile(
        rf"\b{mn}[\s,]{{1,3}}{year:04d}(?!\d)|(?<!\d){year:04d}-{month:02d}(?!\d)",
        re.IGNORECASE,
    )
