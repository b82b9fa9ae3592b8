"""OCR misreadings in names and places, mended against words known from elsewhere.

A newspaper's OCR misreads letters: "Hannab Maxey", "Xenia, Greeue County, Ohio",
"Marion Connty, Indiann". The excerpt stays as printed (the firewall quotes the page, never a
guess), but the value read from it is already an interpretation, as "March 3d" read as
1850-03-03 is. So a word of a name or place is read as a known word when

* no lexicon knows the word itself (a real rare name is left alone when it is known),
* it is at least four letters long (short words have too many neighbours), and
* exactly one known word lies one common OCR confusion away ("b" for "h", "u" for "n",
  "c" for "e", "0" for "o", "rn" for "m", ...). Two known neighbours: left as printed.

The words known are what the case itself knows from sources that are not OCR (a WikiTree profile's
"Greene County", a register's HARTLEY; `pipeline.staging` reads those), and in places the
gazetteer's jurisdiction labels and, in a place's last part, its states and countries. Every
mended value says so in its candidate's rationale, with the printed word.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from sleuth.extract import gazetteer as g
from sleuth.model import Candidate, Snapshot

# Letters OCR takes for one another, both ways (lower case, as the lexicon is kept).
# (Not "a"/"o": Landon, Loudon, Cope and Word are real words one such swap from London,
# Cape and Ward.)
_PAIRS = ("ce", "nu", "hb", "o0", "l1", "il", "i1", "an", "ft", "yv", "s5", "s8", "b6", "z2")
_SWAP: dict[str, set[str]] = {}
for _pair in _PAIRS:
    _a, _b = _pair[0], _pair[1]
    _SWAP.setdefault(_a, set()).add(_b)
    _SWAP.setdefault(_b, set()).add(_a)
_GROUPS = (("rn", "m"), ("m", "rn"), ("cl", "d"), ("d", "cl"), ("li", "h"), ("vv", "w"))
_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)?")
MIN_LEN = 4
NAME_FIELDS = frozenset({"name", "given_name", "surname", "birth_surname", "married_surname",
                         "spouse", "parent", "child", "sibling"})
OCR_MEDIA = frozenset({"text/x-chronam-ocr", "text/x-alto"})
OCR_PATHS = ("/ocr", "/fulltext", "/full-text")  # a page's OCR text, as its address says


def is_ocr(snap: Snapshot) -> bool:
    """A page read by OCR: chronam's media types, or a page's `/ocr.txt` address."""
    url = (snap.url or "").lower()
    return snap.media_type in OCR_MEDIA or any(p in url for p in OCR_PATHS)


@lru_cache(maxsize=1)
def jurisdictions() -> frozenset[str]:
    """Words no case needs to teach, for where a place names its state or country (its last
    part): states, provinces, countries, British counties."""
    names = [*g.US_STATES.values(), *(p for p, _ in g.PROVINCES.values()),
             *g.COUNTRIES.values(), *(c for c, _, _ in g.UK_COUNTIES.values())]
    return frozenset(words_of(" ".join(names)))


@lru_cache(maxsize=1)
def labels() -> frozenset[str]:
    """Jurisdiction labels ("County", "Township"), for anywhere in a place."""
    return frozenset(words_of(" ".join(w for w, _ in g.LABELS.values())))


def words_of(text: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(text)}


def _neighbours(w: str) -> set[str]:
    out: set[str] = set()
    for i, ch in enumerate(w):
        for alt in _SWAP.get(ch, ()):
            out.add(w[:i] + alt + w[i + 1:])
    for seen, meant in _GROUPS:
        start = w.find(seen)
        while start >= 0:
            out.add(w[:start] + meant + w[start + len(seen):])
            start = w.find(seen, start + 1)
    out.discard(w)
    return out


def _cased(meant: str, printed: str) -> str:
    if printed.isupper() and len(printed) > 1:
        return meant.upper()
    if printed[:1].isupper() or printed[:1].isdigit():
        return meant[:1].upper() + meant[1:]
    return meant


def mend_word(word: str, lexicon: frozenset[str] | set[str]) -> str:
    """`word` as the lexicon knows it, when one OCR confusion away from exactly one known
    word and not itself known; else `word` unchanged."""
    w = word.lower()
    if len(w) < MIN_LEN or w in lexicon:
        return word
    hits = _neighbours(w) & lexicon
    return _cased(hits.pop(), word) if len(hits) == 1 else word


def mend(text: str, lexicon: frozenset[str] | set[str]) -> str:
    """Every word of a name or place mended (`mend_word`); the rest of the text kept."""
    return _WORD.sub(lambda m: mend_word(m.group(), lexicon), text)


def mend_value(field: str, value: str, known: frozenset[str] | set[str]) -> str:
    """A name read against what the case knows; a place also against jurisdiction labels,
    and its last part against the gazetteer's jurisdictions ("Loudon County" stays Loudon:
    London is a jurisdiction only where a state or country is written)."""
    if not field.endswith("_place"):
        return mend(value, known)
    head, sep, last = value.rpartition(",")
    anywhere = known | labels()
    if not sep:
        return mend(value, anywhere | jurisdictions())
    return f"{mend(head, anywhere)},{mend(last, anywhere | jurisdictions())}"


def mend_candidates(cands: Iterable[Candidate], known: frozenset[str] | set[str]
                    ) -> list[Candidate]:
    """Names and places of OCR candidates read against the words `known` from the case's
    other sources (values, subject and related names alike, so a subject keeps one name)."""
    out: list[Candidate] = []
    for c in cands:
        update: dict[str, str] = {}
        if (c.field in NAME_FIELDS or c.field.endswith("_place")) and (
                v := mend_value(c.field, c.value, known)) != c.value:
            update["value"] = v
        for attr in ("subject_name", "related_name"):
            if (old := getattr(c, attr)) and (new := mend(old, known)) != old:
                update[attr] = new
        if "value" in update:
            update["rationale"] = (f"{c.rationale}; " if c.rationale else "") + (
                f"OCR {c.value!r} read as {update['value']!r} (words known from the "
                "case's other sources)")
        out.append(c.model_copy(update=update) if update else c)
    return out
