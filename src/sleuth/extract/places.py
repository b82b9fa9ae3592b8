"""Place phrases after a locative preposition ("in Buck Valley, Fulton Co., Pa.").

A place is read only where a pattern has already said "a place comes here" (after "born in",
"died at", "interment in"); the reader then takes capitalised words joined by commas, up to a
county/state/country tail, and stops at anything that looks like a date or a new clause.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from sleuth.extract import gazetteer as _gaz
from sleuth.extract.dates import MONTHS, WEEKDAYS
from sleuth.extract.given import is_given
from sleuth.extract.names import uni

_NOT_PLACE_START = frozenset(
    {"the", "his", "her", "their", "a", "an", "mr", "mrs", "miss", "dr", "rev", "said", "this",
     "that", "which", "who", "he", "she", "it", "they", "early", "late", "infancy", "childhood",
     "age", "years", "year", "company", "order", "time", "all", "one", "some", *MONTHS, *WEEKDAYS}
)
_WORD = uni(
    r"(?:[A-ZÀ-Þ](?:[\w'’.]|-(?:[ \t]*\n[ \t]*)?)*"
    r"|(?:of|on|upon|de|la|le|du|del|der|sur|am|an|im|van)(?=[ \t]+[A-Z]))"
)
_BRK = r"(?:-?[ \t]*\n[ \t]*)?"


def _bw(word: str) -> str:
    """`word` also when OCR broke it across a line ("town\nship", "ceme-\ntery")."""
    return _BRK.join(re.escape(ch) for ch in word)


_KEYWORDS = "|".join(_bw(w) for w in ("cemetery", "county", "township", "parish", "church",
                                       "parsonage", "chapel", "hospital", "home", "hall",
                                       "mansion"))
# Between two words of a place: blanks or a line break, or both where the reading view
# joined a word the line end broke ("Eden town\nship" reads "Eden \ntownship")
_SEP = r"(?:[ \t]+\n?|\n)"
_PLACE = re.compile(
    rf"(?:(?:near|the|city\s+of|town\s+of|village\s+of|county\s+of)\s+)?"
    rf"{_WORD}(?:{_SEP}(?:{_WORD}|(?:{_KEYWORDS}|co\.|twp\.)\b"
    # "Elm wood cemetery": a cemetery's compound name that the type or the OCR split
    rf"|[a-z]{{3,5}}(?=[ \t\n]+{_bw('cemetery')}\b))){{0,5}}"
    rf"(?:[ \t]*,[ \t]*\n?[ \t]*{_WORD}(?:{_SEP}{_WORD}){{0,3}}){{0,3}}"
)
_LOWER_PLACE = re.compile(r"[^\s,;()]{2,40}(?:[ ]+[^\s,;()]{2,40}){0,4}(?:[ ]*,[ ]*[^\s,;()]{2,40}"
                          r"(?:[ ]+[^\s,;()]{2,40}){0,3}){0,3}")
_LOWER_STOP = re.compile(
    r"\s(?:-rrb-|-lrb-|--|–|—|on|and|to|where|who|when|at the age|as|is|was"
    r"|,\s*(?:on|and|since|from|in))(?:\s|$)|\s,\s*\d"
)
_ABBR_KEEP = re.compile(r"(?:\b[A-Z][a-z]{0,3}\.|\b[A-Z]\.[A-Z]\.)$")
_TAIL_JUNK = re.compile(r"[\s,;:]+$")
_TAIL_CONNECTOR = re.compile(
    r"(?:[\s,]+(?:of|on|upon|de|la|le|du|del|der|sur|am|an|im|van))+[\s,]*$")
_TOK = re.compile(r"[\w'’.]+")


def read_place(text: str, pos: int, end: int) -> tuple[int, int] | None:
    """Span of a title-case place starting at `pos` (after whitespace), bounded by `end`."""
    while pos < end and text[pos] in " \t\n":
        pos += 1
    m = _PLACE.match(text, pos, min(end, pos + 160))
    if m is None:
        return None
    s, e = m.start(), m.end()
    words = text[s:e].split()
    first = words[0].rstrip(".,").lower() if words else ""
    if first in ("near", "the"):
        if len(words) < 2:
            return None
        first = words[1].rstrip(".,").lower()
    if first in _NOT_PLACE_START:
        return None
    # Cut the phrase at a month or weekday ("in Boston May 3") or at a title ("in Ohio Mrs.").
    cut = _cut_at_stopwords(text, s, e)
    if cut is None:
        return None
    e = _cut_after_state(text, s, cut)
    nl = _NEXT_LINE_PERSON.search(text, s, e)
    if nl is not None and is_given(nl.group("g")):
        e = nl.start()  # "of Denison\nAnna Kulberg, of Cherokee": OCR lost the comma
    frag = _TAIL_CONNECTOR.sub("", text[s:e])
    frag = _TAIL_JUNK.sub("", frag).rstrip("-")
    if frag.endswith(".") and not _ABBR_KEEP.search(frag):
        frag = frag[:-1]
    e = s + len(frag)
    if e - s < 3 or not any(ch.isalpha() for ch in frag):
        return None
    cont = _CONTINUED.match(text, e, min(len(text), e + 14)) if text[e - 1].isalpha() else None
    if cont and cont.group(1) not in _NOT_CONTINUATION:
        e = cont.end()  # "Key\nstone, Okla.": OCR broke the last word at a line end
    return s, e


_COMMA = re.compile(r"[ \t]*,[ \t\n]*")


def is_us_state(part: str) -> bool:
    """Is one comma-separated part of a place an American state ("Okla.", "N. J.", "Iowa")?"""
    part = part.strip(" \t\n,")
    return len(part.rstrip(".")) >= 2 and _gaz.US_STATES.get(_gaz.key(part)) is not None


def _cut_after_state(text: str, s: int, e: int) -> int:
    """An American place ends with its state (or a country after it): "Keystone, Okla.,
    Herbert Stanley" is a town, its state and the next survivor in the list; "Elizabeth,
    N. J. She is" a town, its state and the next sentence."""
    starts = [s] + [m.end() for m in _COMMA.finditer(text, s, e)]
    for i in range(1, len(starts)):
        comp = text[starts[i]:e].split(",", 1)[0].rstrip(" \t\n")
        if is_us_state(comp):
            if i + 1 < len(starts):
                nxt = text[starts[i + 1]:e].split(",", 1)[0].strip()
                if _gaz.key(nxt) not in _gaz.COUNTRIES:
                    return starts[i] + len(comp)
            continue
        words = comp.split()
        lead = _state_lead(comp)
        if lead:
            # "Tacoma, Washington Arthur M. Muckler", "Temvick, North Dakota\nEarl and
            # Floyd": a list's state, then the next survivor, its separator lost by the OCR
            return starts[i] + lead
        if len(words) >= 2 and words[0][:1].isupper() and words[1][:1].isupper() and is_given(
                words[0].rstrip(".")) and not _PLACE_WORD.search(comp):
            # "Graniteville, Michael Houghton of Butte": the next person in a list
            return starts[i - 1] + len(text[starts[i - 1]:e].split(",", 1)[0].rstrip(" \t\n"))
        for dot in _DOT_THEN_CAPITAL.finditer(comp):
            head = comp[:dot.start() + 1]
            if is_us_state(head) or _INITIALS.fullmatch(head):
                return starts[i] + len(head)  # "N. J. She is", OCR's "X. H. Tho deceased"
    return e


# A state's name (one or two words), then a name: a given name or an initial.
_STATE_THEN_NAME = (
    re.compile(r"(?P<st>[A-Z][a-z]+\.?[ \t\n]+[A-Z][a-z]+\.?)[ \t\n]+(?P<g>[A-Z][a-z]+|[A-Z]\.)"
               r"(?=[ \t\n,]|$)"),
    re.compile(r"(?P<st>[A-Z][a-z]+\.?)[ \t\n]+(?P<g>[A-Z][a-z]+|[A-Z]\.)(?=[ \t\n,]|$)"))


def _state_lead(comp: str) -> int:
    """Length of a state's name opening `comp` when a personal name follows it ("Washington
    Arthur M. Muckler", "North Dakota\nEarl", "Iowa C. E. Muckler"); 0 otherwise."""
    for rx in _STATE_THEN_NAME:
        m = rx.match(comp)
        if m is not None and is_us_state(m.group("st")):
            g = m.group("g")
            return m.end("st") if g.endswith(".") or is_given(g) else 0
    return 0


_NEXT_LINE_PERSON = re.compile(r"[ \t]*\n[ \t]*(?P<g>[A-Z][a-z]+)"
                               r"(?=[ \t]+(?:[A-Z]\.[ \t]*)*[A-Z][a-z])")
_PLACE_WORD = re.compile(r"\b(?:County|Co\.|Township|Twp\.|Parish|City|Falls|Springs|Mills"
                         r"|Junction|Center|Centre|Corners|Station|Ferry|Point|Creek)\b")
_INITIALS = re.compile(r"(?:[A-Z]\.[ \t\n]?){2,3}")


_DOT_THEN_CAPITAL = re.compile(r"\.(?=[ \t\n]+[A-Z][a-z])")


# The rest of a word broken at a line end without a hyphen, ending at punctuation.
_CONTINUED = re.compile(r"[ \t]*\n[ \t]*([a-z]{2,9})(?=[,.;:])")
# Words that say what kind of place or which country, not which place: two values that
# differ only in them name one place ("Zennor, Cornwall, England" and "Zennor, Cornwall";
# a memorial's "St Senara Churchyard" and the register's "St Senara, Zennor").
PLACE_NOISE = frozenset({"county", "co", "england", "wales", "scotland", "usa", "us", "united",
                         "states", "america", "uk", "kingdom", "of", "the", "parish",
                         "st", "saint", "church", "churchyard", "cemetery", "graveyard"})
_NOT_CONTINUATION = frozenset({"is", "was", "are", "were", "and", "or", "but", "the", "of", "in",
                               "at", "to", "on", "it", "he", "she", "him", "her", "them", "too",
                               "also", "there", "here", "again", "later", "today", "since"})


_LINE_REST = re.compile(r"-?[ \t]*\n[ \t]*([a-z]{2,9})\b")


def _cut_at_stopwords(text: str, s: int, e: int) -> int | None:
    for m in _TOK.finditer(text[s:e]):
        k = m.group().rstrip(".").lower()
        rest = _LINE_REST.match(text, s + m.end()) if not m.group().endswith(".") else None
        if rest and (k + rest.group(1)) in _STOP_WORDS:
            k += rest.group(1)  # "Sun\nday", "Wednes-\nday": a weekday broken by OCR
        if m.start() > 0 and (k in _STOP_WORDS or _ocr_month(k)):
            cut = s + m.start()
            return cut if cut > s else None
    return e


_STOP_WORDS = frozenset({*MONTHS, *WEEKDAYS, "mr", "mrs", "miss", "and"})
_LONG_MONTHS = ("january", "february", "september", "october", "november", "december")


def _ocr_month(word: str) -> bool:
    """A long month name with one letter misread ("Novcmber", "Decernber"): OCR, not a place
    word ("Indiana, on Novcmber 22" ends at Indiana). Same length only: "Augusta" is a place."""
    word = word.replace("rn", "m")
    return len(word) >= 7 and any(
        len(word) == len(m) and sum(a != b for a, b in zip(word, m, strict=True)) <= 1
        for m in _LONG_MONTHS)


def read_lower_place(text: str, pos: int, end: int) -> tuple[int, int] | None:
    """Span of a place in lower-cased tokenised text (WikiBio), bounded by clause markers."""
    while pos < end and text[pos] == " ":
        pos += 1
    window = text[pos : min(end, pos + 120)]
    stop = _LOWER_STOP.search(" " + window)
    if stop:
        window = window[: max(0, stop.start() - 0)]
    m = _LOWER_PLACE.match(window)
    if m is None:
        return None
    frag = _TAIL_JUNK.sub("", m.group())
    if not frag or frag[0].isdigit() or frag.split()[0] in _NOT_PLACE_START or len(frag) < 2:
        return None
    if not any(ch.isalpha() for ch in frag):
        return None
    return pos, pos + len(frag)


# --- Structured place parsing ----------------------------------------------------------------
# A written place ("Buck Valley, Fulton Co., Pa.") is read right to left: country, then
# state/province, then county, then the narrower parts. Levels are recognised by name
# (countries, states, provinces, British counties), by label ("Co.", "Twp."), or by the
# comma position conventions of US genealogy ("Town, County, State"). Anything not
# recognised is kept verbatim; levels implied but not written (the country of "Pa.") are
# filled and listed in `inferred`, so a reader can tell them from what the text says.

_MAX_PLACE = 300
_LEVELS = ("country", "state", "county", "township", "locality")
_PARENS = re.compile(r"\s*\([^()]{0,80}\)")
_GLOSS = re.compile(r"[^\s,\[\]]+\s*\[([^\[\]]{1,40})\]")  # "O. [Ohio]": cataloguer's gloss
_PREFIX = re.compile(r"^(?:(?:in|at|of|near|from)\s+)+", re.IGNORECASE)
_NEAR = re.compile(r"\bnear\b", re.IGNORECASE)
_RELATIVE = {
    "this county": "county", "this city": "locality", "this place": "locality",
    "here": "locality", "this town": "locality", "this village": "locality",
    "this vicinity": "locality", "this community": "locality", "this township": "township",
    "this state": "state", "the city": "locality", "this parish": "township",
}
_US_POSTAL_RE = re.compile(r"[A-Z]{2}")
_CHAPMAN_RE = re.compile(r"[A-Z]{3}")


@dataclass(frozen=True, slots=True)
class Place:
    """A parsed place; `text` is exactly what was given, the level fields are normalised."""

    text: str
    locality: str | None = None
    township: str | None = None  # township, district, hundred, borough, (non-Louisiana) parish
    county: str | None = None
    state: str | None = None  # state, province, territory or UK nation (England, Scotland)
    country: str | None = None
    detail: tuple[str, ...] = ()  # narrower than the locality: cemetery, street, ward
    region: tuple[str, ...] = ()  # written levels that could not be classified, broadest first
    inferred: frozenset[str] = frozenset()  # levels implied, not written ("country" of "Pa.")
    qualifier: str | None = None  # "near"
    relative: str | None = None  # "this county" when it could not be resolved
    resolved_from: str | None = None  # the publication place a relative phrase resolved to

    @property
    def parts(self) -> tuple[str, ...]:
        """Normalised parts from broadest to narrowest."""
        out: list[str] = [v for v in (self.country, self.state) if v]
        out += self.region
        out += [v for v in (self.county, self.township, self.locality) if v]
        out += reversed(self.detail)
        return tuple(out)

    @property
    def normalised(self) -> str:
        """Display form, narrowest first: "Buck Valley, Fulton County, Pennsylvania, ..."."""
        return ", ".join(reversed(self.parts))

    @property
    def levels(self) -> dict[str, str]:
        """The recognised levels that have a value (country, state, county, ...)."""
        return {lv: v for lv in _LEVELS if (v := getattr(self, lv))}

    @property
    def is_empty(self) -> bool:
        return not self.parts


@dataclass(slots=True)
class _Comp:
    raw: str
    base: str  # without label or parenthetical notes
    label: str | None = None  # "county", "township", ...
    norm: str = ""


def _component(raw: str) -> _Comp:
    text = _PARENS.sub("", raw).strip(" .;:") if "(" in raw else raw.strip(" ;:")
    words = text.split()
    if len(words) >= 2:
        last = _gaz.key(words[-1])
        first = _gaz.key(words[0])
        if last in _gaz.LABELS:
            word, level = _gaz.LABELS[last]
            base = " ".join(words[:-1])
            return _Comp(raw, base, level, f"{base} {word}")
        if first in ("co", "county", "cnty") and len(words) <= 4:
            base = " ".join(words[1:])
            return _Comp(raw, base, "county", f"County {base}")
    return _Comp(raw, text, None, text)


def _us_state(c: _Comp) -> str | None:
    b = c.base.strip()
    if _US_POSTAL_RE.fullmatch(b):
        return _gaz.US_POSTAL.get(b)
    k = _gaz.key(b)
    if len(k) == 1 and not b.endswith("."):
        return None  # a bare letter is an initial or debris, not "O." for Ohio
    return _gaz.US_STATES.get(k)


def _uk_county(c: _Comp, nation_known: bool) -> tuple[str, str] | None:
    b = c.base.strip()
    if _CHAPMAN_RE.fullmatch(b):
        hit = _gaz.UK_COUNTIES.get(b.lower())
        return (hit[0], hit[1]) if hit else None
    k = _gaz.key(b)
    hit = _gaz.UK_COUNTIES.get(k)
    if hit is None:
        return None
    if k in _gaz.AMBIGUOUS_COUNTIES and not nation_known and not (
        c.label == "county" and hit[1] == "Ireland"
    ):
        return None
    return hit[0], hit[1]


@lru_cache(maxsize=65536)
def parse_place(text: str, *, publication_place: str | None = None) -> Place:
    """Parse a written place into country / state / county / township / locality.

    "this county", "this city", "here" ... are resolved against `publication_place` (where
    the newspaper was printed) when given, and otherwise left unresolved in `relative`.
    """
    s = " ".join(text[:_MAX_PLACE].split())
    s = _GLOSS.sub(lambda m: m.group(1), s)
    qualifier = None
    pm = _PREFIX.match(s)
    if pm:
        if _NEAR.search(pm.group()):
            qualifier = "near"
        s = s[pm.end():]
    rel = _RELATIVE.get(s.strip(" .,").lower())
    if rel is not None:
        return _resolve_relative(text, s.strip(" .,").lower(), rel, publication_place, qualifier)
    raw = [p.strip() for p in s.replace(";", ",").split(",")]
    while raw and not raw[-1]:
        raw.pop()
    positional = any(not p for p in raw)
    comps = [_component(p) for p in raw]
    # A state abbreviation run on without a comma: "Wheeling W. Va.", "Denver CO".
    if comps and len(comps[-1].base.split()) > 1 and _us_state(comps[-1]) is None:
        split = _split_state(comps[-1].base)
        if split:
            comps[-1:] = [_component(split[0]), _component(split[1])]
    lv: dict[str, str | None] = dict.fromkeys(_LEVELS)
    inferred: set[str] = set()
    i = len(comps) - 1
    # Country.
    if i >= 0 and (c := _gaz.COUNTRIES.get(_gaz.key(comps[i].base))):
        lv["country"] = c
        i -= 1
    # State, province or UK nation.
    if i >= 0 and comps[i].label is None:
        c0 = comps[i]
        if lv["country"] in (None, _gaz.US, _gaz.COLONIAL) and (st := _us_state(c0)):
            lv["state"] = st
            i -= 1
        elif (pv := _gaz.PROVINCES.get(_gaz.key(c0.base))) and (
            lv["country"] == pv[1]
            or (lv["country"] is None and _gaz.key(c0.base) not in _gaz.AMBIGUOUS_PROVINCES)
        ):
            lv["state"] = pv[0]
            if lv["country"] is None:
                lv["country"] = pv[1]
                inferred.add("country")
            i -= 1
    if lv["state"] in _gaz.US_STATE_NAMES and lv["country"] is None:
        lv["country"] = _gaz.US
        inferred.add("country")
    # County by name (British and Irish) or label.
    us_like = lv["country"] in (_gaz.US, "Canada", "Australia")
    while not us_like and i >= 0 and not comps[i].base:
        i -= 1  # empty GEDCOM slots carry no position outside the US convention
    if i >= 0 and comps[i].base:
        c0 = comps[i]
        nation_known = lv["country"] in (_gaz.UK, "Ireland") or lv["state"] in (
            "England", "Scotland", "Wales", "Northern Ireland")
        hit = None if us_like else _uk_county(c0, nation_known)
        town = _gaz.COUNTY_TOWNS.get(_gaz.key(c0.base)) if nation_known and i > 0 else None
        if hit is None and town and lv["state"] == "England":
            hit = (town, "England")
        if hit:
            lv["county"] = hit[0]
            if hit[1] == "Ireland":
                if lv["country"] is None:
                    lv["country"] = "Ireland"
                    inferred.add("country")
            else:
                if lv["state"] is None:
                    lv["state"] = hit[1]
                    inferred.add("state")
                if lv["country"] is None:
                    lv["country"] = _gaz.UK
                    inferred.add("country")
            i -= 1
        elif c0.label == "county" or (c0.label == "parish" and lv["state"] == "Louisiana"):
            lv["county"] = c0.norm
            i -= 1
    if lv["state"] in ("England", "Scotland", "Wales", "Northern Ireland") and not lv["country"]:
        lv["country"] = _gaz.UK
        inferred.add("country")
    rest = comps[: i + 1]
    detail, region = _narrow(rest, lv, positional, anchored=bool(lv["state"] or lv["county"]))
    return Place(
        text=text, locality=lv["locality"], township=lv["township"], county=lv["county"],
        state=lv["state"], country=lv["country"], detail=tuple(detail), region=tuple(region),
        inferred=frozenset(inferred), qualifier=qualifier,
    )


def _split_state(base: str) -> tuple[str, str] | None:
    words = base.split()
    for n in (2, 1):
        if len(words) > n:
            tail = " ".join(words[-n:])
            if (tail.endswith(".") or _US_POSTAL_RE.fullmatch(tail)) and _us_state(
                _Comp(tail, tail)
            ):
                return " ".join(words[:-n]), tail
    return None


def _narrow(rest: list[_Comp], lv: dict[str, str | None], positional: bool,
            anchored: bool) -> tuple[list[str], list[str]]:
    """Fill county / township / locality from the parts below the recognised levels."""
    detail: list[str] = []
    region: list[str] = []
    if positional and lv["state"] in _gaz.US_STATE_NAMES:
        # GEDCOM jurisdiction slots with empties kept: locality, [township,] county.
        n = len(rest) + (1 if lv["county"] else 0)
        slots = ["county", "township", "locality"] if n >= 3 else ["county", "locality"]
        if lv["county"]:
            slots = slots[1:]
        for j, c in enumerate(reversed(rest)):
            if j < len(slots):
                if c.base:
                    lv[slots[j]] = c.norm
            elif c.base:
                detail.insert(0, c.norm)
        return detail, region
    items = [c for c in rest if c.base]
    us_like = lv["country"] in (_gaz.US, "Canada", "Australia")
    if (anchored and not lv["county"] and len(items) >= 2 and items[-1].label is None
            and (us_like or lv["state"])):
        lv["county"] = items.pop().norm  # "Town, County, State": the county by position
    seen_labelled = False
    unknown: list[str] = []
    for c in reversed(items):
        if c.label == "county" and not lv["county"]:
            lv["county"] = c.norm
            seen_labelled = True
        elif c.label in ("township", "district", "hundred", "borough", "parish") and not (
            lv["township"]
        ):
            lv["township"] = c.norm
            seen_labelled = True
        elif c.label is not None:
            detail.insert(0, c.norm)
        elif anchored or seen_labelled:
            if lv["locality"] is None:
                lv["locality"] = c.norm
            else:
                detail.insert(0, c.norm)
        else:
            unknown.append(c.norm)  # broad to narrow, nothing to anchor it yet
    if unknown and seen_labelled:
        region.extend(unknown)  # right of a labelled township or county: broader than it
    elif unknown:
        lv["locality"] = unknown.pop()  # the narrowest unclassified part is the place itself
        region.extend(unknown)
    return detail, region


def _resolve_relative(text: str, phrase: str, level: str, publication_place: str | None,
                      qualifier: str | None) -> Place:
    """"this county" etc.: the publication place's levels from `level` up, never invented."""
    if not publication_place:
        return Place(text=text, relative=phrase, qualifier=qualifier)
    pub = parse_place(publication_place)
    keep = _LEVELS[: _LEVELS.index(level) + 1]
    vals = {lv: getattr(pub, lv) for lv in keep}
    unresolved = vals[level] is None
    return Place(
        text=text, **vals, inferred=frozenset(k for k in pub.inferred if k in keep),
        qualifier=qualifier, relative=phrase if unresolved else None,
        resolved_from=None if unresolved else publication_place,
    )


def parse_lc_place(heading: str) -> Place:
    """A Library of Congress geographic heading, "Missouri--Wright--Mansfield"."""
    parts = [p.strip() for p in heading.split("--") if p.strip()]
    if not parts:
        return Place(text=heading)
    head = parse_place(parts[0])
    county = parts[1] if len(parts) >= 3 else None
    locality = parts[-1] if len(parts) >= 2 else None
    return Place(text=heading, state=head.state, country=head.country, county=county,
                 locality=locality, inferred=head.inferred)


_KEY_WORDS = re.compile(r"\b(?:county|co|parish|shire|township|twp|city|of|the)\b")
_SAINT = re.compile(r"\bst\b")
_NONWORD = re.compile(r"[^\w\s]+")


@lru_cache(maxsize=65536)
def _level_key(value: str) -> str:
    k = _NONWORD.sub(" ", unicodedata.normalize("NFKD", value).lower())
    k = _SAINT.sub("saint", k)
    k = _KEY_WORDS.sub(" ", k)
    return "".join(k.split())


def place_contains(outer: Place, inner: Place) -> bool:
    """True when every level `outer` names is named the same in `inner` (Fulton County,
    Pennsylvania contains Buck Valley, Fulton Co., Pa.). An empty place contains nothing."""
    lo = outer.levels
    if not lo:
        return False
    li = inner.levels
    return all(k in li and _level_key(v) == _level_key(li[k]) for k, v in lo.items())


def place_overlap(a: Place, b: Place) -> float:
    """Share of levels two places agree on, 0.0 as soon as a level both name differs.

    1.0: the same levels with the same names; 0.5: "Pennsylvania" against "Buck Valley,
    Fulton Co., Pa." (two of four levels). Unrecognised `region` parts are not compared.
    """
    la, lb = a.levels, b.levels
    if not la or not lb:
        return 0.0
    shared = 0
    for k in la.keys() & lb.keys():
        if _level_key(la[k]) != _level_key(lb[k]):
            return 0.0
        shared += 1
    return shared / max(len(la), len(lb))


def same_place(a: Place, b: Place) -> bool:
    """True when one place contains the other: compatible at every level both name."""
    return place_contains(a, b) or place_contains(b, a)
