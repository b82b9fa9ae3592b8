"""What every renderer shares: stated facts, the document record, and the error models.

A renderer writes what a source would say about the world, mistakes included, and lists
what its document states (`Stated`): the value as written and whether it is true. Recall is
then measured against facts some document really states, and precision against the truth.
Each document draws its errors from its own `random.Random(f"{seed}:{kind}:{key}")`, so
documents can be rendered lazily, in any order, with identical bytes.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from datetime import date

MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December")


@dataclass(frozen=True)
class Stated:
    """One fact a document states: `value` as written (dates ISO), true or not."""

    person: int
    field: str
    value: str
    correct: bool = True
    related: int | None = None


@dataclass
class Document:
    """One response body with its media type and the facts it states."""

    kind: str
    key: str
    content_type: str
    body: str
    stated: list[Stated] = field(default_factory=list)
    status: int = 200


def rng(seed: int, kind: str, key: object) -> random.Random:
    return random.Random(f"{seed}:{kind}:{key}")


def iso(d: date, precision: str = "day") -> str:
    if precision == "year":
        return f"{d.year:04d}"
    if precision == "month":
        return f"{d.year:04d}-{d.month:02d}"
    return d.isoformat()


def long_date(d: date) -> str:
    """"June 12, 1844" (the newspapers' form)."""
    return f"{MONTHS[d.month - 1]} {d.day}, {d.year}"


def reg_date(d: date) -> str:
    """"12 Jun 1844" (FreeREG's form)."""
    return f"{d.day:02d} {MONTHS[d.month - 1][:3]} {d.year}"


def gx_date(d: date) -> str:
    """"12 June 1844" (FamilySearch's original form)."""
    return f"{d.day} {MONTHS[d.month - 1]} {d.year}"


_SWAPS = (("ey", "y"), ("ie", "y"), ("ll", "l"), ("tt", "t"), ("ph", "f"), ("ck", "k"),
          ("ou", "ow"), ("ai", "ay"), ("ee", "ea"), ("i", "y"), ("c", "k"))


def misspell(name: str, r: random.Random) -> str:
    """A transcriber's plausible variant of a name (a spelling, not a typo soup)."""
    low = name.lower()
    options = [(a, b) for a, b in _SWAPS if a in low[1:]]
    if options:
        a, b = r.choice(options)
        i = low.index(a, 1)
        out = name[:i] + b + name[i + len(a):]
    elif len(name) > 3:
        out = name[:-1] + name[-1] * 2
    else:
        return name
    return out[0].upper() + out[1:]


_OCR_SUBS = {"e": "c", "c": "e", "h": "b", "l": "1", "i": "l", "o": "0", "n": "u", "u": "n",
             "m": "rn", "a": "n", "t": "f", "s": "a", "S": "8", "B": "R", "O": "0", "I": "l"}
_WORD = re.compile(r"\S+")


def ocr_noise(text: str, r: random.Random, level: float,
              protect: list[tuple[int, int]]) -> tuple[str, list[tuple[int, int]]]:
    """Character substitutions, broken lines and line-end hyphenation, as OCR makes them.

    Returns the noisy text and, for each `protect` span, its span in the new text or
    (-1, -1) when noise touched it (the fact is then no longer stated legibly). Line breaks
    and hyphenation inside a span count as touching it, conservatively.
    """
    out: list[str] = []
    starts: dict[int, int] = {}
    ends: dict[int, int] = {}
    touched: set[int] = set()
    bounds = [(s, e) for s, e in protect]
    pos = 0
    col = 0
    for m in _WORD.finditer(text):
        gap = text[pos:m.start()]
        word = m.group()
        if col > 48 + r.randint(0, 20) and gap == " ":
            gap, col = "\n", 0
        out.append(gap)
        col += len(gap)
        new = word
        u = r.random()
        if u < level and len(word) > 2:
            i = r.randrange(len(word))
            sub = _OCR_SUBS.get(word[i])
            if sub:
                new = word[:i] + sub + word[i + 1:]
        elif u < level * 1.5 and len(word) > 6 and col > 40:
            cut = r.randint(3, len(word) - 3)
            new = word[:cut] + "-\n" + word[cut:]
            col = len(word) - cut
        if new != word:
            for k, (s, e) in enumerate(bounds):
                if s < m.end() and m.start() < e:
                    touched.add(k)
        here = sum(len(x) for x in out)
        for k, (s, e) in enumerate(bounds):
            if s == m.start() or (m.start() < s < m.end()):
                starts[k] = here + (s - m.start())
            if m.start() < e <= m.end():
                ends[k] = here + (e - m.start()) + (len(new) - len(word))
        for k, (s, e) in enumerate(bounds):
            if s < m.start() < e and "\n" in gap:
                touched.add(k)
        out.append(new)
        col += len(new)
        pos = m.end()
    out.append(text[pos:])
    spans = [(-1, -1) if k in touched or k not in starts or k not in ends
             else (starts[k], ends[k]) for k in range(len(bounds))]
    return "".join(out), spans


def shift_year(d: date, years: int) -> date:
    """The same day `years` later (an injected error); 29 February falls back to the 28th."""
    day = min(d.day, 28) if d.month == 2 else d.day
    return d.replace(year=d.year + years, day=day)
