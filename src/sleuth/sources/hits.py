"""Where a record leads: search hits worth opening, identifiers worth following.

A search response is not evidence about anyone yet (a list of namesakes); the Analyst reads
its hits, scores each against the person searched for (name similarity with rapidfuzz, birth
year agreement), and only the plausible ones become tasks. Identifiers that promoted facts
carry (a WikiTree ID, a Wikidata QID of a person or of their father...) become direct calls.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from rapidfuzz import fuzz

from sleuth.model.source_spec import SourceSpec
from sleuth.verify.normalise import fold

MIN_HIT_SCORE = 70.0
FULLTEXT_SCORE = 60.0  # a page that merely mentions the words searched for
MAX_HITS = 3
_YEAR = re.compile(r"\b(1[0-9]{3}|20[0-9]{2})\b")
_LOC_ID = re.compile(r"/item/([^/?#]+)/?")

# Words too general to tell two places apart (and the country words the world's sources add).
_GENERAL = frozenset({"county", "co", "parish", "township", "twp", "city", "town", "of", "the",
                      "in", "near", "and", "united", "states", "usa", "us", "america",
                      "england", "uk", "great", "britain"})


def place_words(place: str | None) -> set[str]:
    """The distinctive words of a place as written ("Xenia, Greene County, Ohio" -> xenia,
    greene, ohio), for telling whether two places can be the same."""
    return {w for w in re.split(r"[^\w]+", fold(place or "")) if len(w) > 1 and w not in _GENERAL}


@dataclass(frozen=True)
class Hit:
    ident: str
    label: str
    year: int | None
    score: float
    url: str | None = None  # open this document directly (a fetch, not an endpoint call)
    action: str = "fetch"
    endpoint: str | None = None  # the hit's own link's endpoint, else `follow.hits`'s


# GEDCOM X search entries say what they are by their links: a record persona or a tree person.
_GEDCOMX_LINKS = (("persona", "record"), ("person", "person"))


def _linked_endpoint(hit: dict[str, Any]) -> str | None:
    links = hit.get("links")
    if isinstance(links, dict):
        for rel, endpoint in _GEDCOMX_LINKS:
            if rel in links:
                return endpoint
    return None


def has_hits(spec: SourceSpec) -> bool:
    """Whether this source's search answers with a list of hits to open (not with records)."""
    if spec.search is None:
        return False
    return spec.follow.hits is not None or spec.follow.urls is not None or bool(
        spec.kind == "html" and spec.search.result_selector)


def _html_hits(spec: SourceSpec, text: str, target: dict[str, Any]) -> list[Hit]:
    from urllib.parse import urljoin

    from selectolax.lexbor import LexborHTMLParser

    assert spec.search is not None and spec.search.result_selector
    out = []
    for node in LexborHTMLParser(text).css(spec.search.result_selector):
        a = node.css_first("a[href]")
        if a is None:
            continue
        href = a.attributes.get("href") or ""
        label = " ".join(a.text().split())
        score = score_hit(label, _year_in(node.text()), target)
        if href and score >= MIN_HIT_SCORE:
            url = urljoin((spec.base_url or "") + "/", href)
            out.append(Hit(href, label, None, score, url=url, action="fetch"))
    return out


def _year_in(text: str) -> int | None:
    m = _YEAR.search(text)
    return int(m.group()) if m else None


def _path(data: Any, path: str | None) -> Any:
    if not path:
        return data
    for part in path.split("."):
        if isinstance(data, list) and part.isdigit() and int(part) < len(data):
            data = data[int(part)]
        elif isinstance(data, dict):
            data = data.get(part)
        else:
            return None
    return data


def _label(hit: dict[str, Any]) -> str:
    if "FirstName" in hit or "LastNameAtBirth" in hit or "LastNameCurrent" in hit:
        keys = ("FirstName", "MiddleName", "LastNameAtBirth", "LastNameCurrent")
        parts: list[str] = []
        for k in keys:  # birth and married surnames both: either may be the one searched
            v = str(hit.get(k) or "").strip()
            if v and v not in parts:
                parts.append(v)
        return " ".join(parts)
    for key in ("label", "title", "name", "display"):
        got = hit.get(key)
        if isinstance(got, dict):
            got = got.get("name") or got.get("value")
        if isinstance(got, str) and got.strip():
            return got.strip()
    return ""


def _hit_year(hit: dict[str, Any]) -> int | None:
    for key in ("BirthDate", "birth_year", "birthDate", "description", "date"):
        v = hit.get(key)
        if isinstance(v, str | int) and (m := _YEAR.search(str(v))):
            return int(m.group())
    return None


def _hit_place(hit: dict[str, Any]) -> str | None:
    for key in ("BirthLocation", "birthPlace", "birth_place"):
        v = hit.get(key)
        if isinstance(v, str) and v.strip():
            return v
    return None


def _ident(source: str, hit: dict[str, Any], keys: tuple[str, ...]) -> str | None:
    for key in keys:
        v = hit.get(key)
        if isinstance(v, str | int) and str(v).strip():
            v = str(v).strip()
            if source == "chronicling_america" and (m := _LOC_ID.search(v)):
                return m.group(1)
            return v
    return None


def score_hit(label: str, year: int | None, target: dict[str, Any],
              place: str | None = None) -> float:
    """0–100: how plausibly this hit is the target person (name, birth year, and birthplace
    when both the hit and the target have one)."""
    name = str(target.get("name") or "")
    if not label or not name:
        return 0.0
    s = float(fuzz.token_set_ratio(label.lower(), name.lower()))
    given = str(target.get("given") or name.split()[0]).lower()
    if given and label.lower().split() and label.lower().split()[0] != given.split()[0]:
        s -= 10  # another given name is another person, usually
    born = target.get("birth_year")
    if born and year:
        gap = abs(int(born) - year)
        s += 10 if gap <= 1 else (0 if gap <= 3 else -40)
    where = place_words(target.get("place"))
    if where and place and place_words(place) and not where & place_words(place):
        s -= 45  # born somewhere else entirely: a namesake, usually (below MIN_HIT_SCORE)
    return max(0.0, min(100.0, s))


def search_hits(spec: SourceSpec, text: str, target: dict[str, Any]) -> list[Hit]:
    """The plausible hits of a search response, best first (at most MAX_HITS)."""
    if spec.search is None or not has_hits(spec):
        return []
    if spec.kind == "html" and spec.follow.hits is None:
        hits = _html_hits(spec, text, target)
        hits.sort(key=lambda h: (-h.score, h.ident))
        return hits[:MAX_HITS]
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        return []
    items = _path(data, spec.search.result_path)
    if not isinstance(items, list):
        return []
    out: list[Hit] = []
    if spec.follow.urls is not None:
        # full-text hits match the query text itself, so they are opened without a name
        # score (newspaper titles name no one)
        key, action = spec.follow.urls.key, spec.follow.urls.action
        for item in items[:MAX_HITS]:
            if isinstance(item, dict) and isinstance(item.get(key), str):
                out.append(Hit(item[key], _label(item), _hit_year(item), FULLTEXT_SCORE,
                               url=item[key], action=action))
        return out
    follow = spec.follow.hits
    assert follow is not None, "has_hits: a JSON search's hits are followed"
    for item in items:
        if not isinstance(item, dict):
            continue
        ident = _ident(spec.id, item, follow.id_keys)
        if not ident:
            continue
        label, year = _label(item), _hit_year(item)
        score = score_hit(label, year, target, _hit_place(item))
        if score >= MIN_HIT_SCORE:
            out.append(Hit(ident, label, year, score, endpoint=_linked_endpoint(item)))
    out.sort(key=lambda h: (-h.score, h.ident))
    return out[:MAX_HITS]


def hit_count(spec: SourceSpec, text: str) -> int:
    if spec.search is None:
        return 0
    if spec.kind == "html" and spec.search.result_selector:
        from selectolax.lexbor import LexborHTMLParser

        return len(LexborHTMLParser(text).css(spec.search.result_selector))
    try:
        items = _path(json.loads(text), spec.search.result_path)
    except json.JSONDecodeError:
        return 0
    return len(items) if isinstance(items, list) else 0


# A FreeREG file names itself in its header ("#,CCC,transcriber,county,WILLACBA.csv,..."): the
# same parish's burial and marriage registers hold the rest of a baptised person's life.
_REGISTER_FILE = re.compile(r"^#,[^\n]*?,([A-Za-z]{3}[A-Za-z0-9]{3,5})(BA|BU|MA)\.csv\b",
                            re.M | re.I)
REGISTER_TYPES = ("BA", "BU", "MA")


def sibling_registers(text: str) -> list[str]:
    """The other registers (keys like `WILLACBU`) of the parish a register extract comes from."""
    m = _REGISTER_FILE.search(text[:2000])
    if m is None:
        return []
    parish, kind = m.group(1).upper(), m.group(2).upper()
    return [parish + k for k in REGISTER_TYPES if k != kind]


def id_follows(specs: Iterable[SourceSpec]) -> dict[str, tuple[str, str, str]]:
    """Assertion field -> (source id, endpoint, placeholder): the identifiers promoted facts
    carry that a direct call follows (each source's `follow.ids`; the first declared wins)."""
    out: dict[str, tuple[str, str, str]] = {}
    for spec in specs:
        for fld, call in spec.follow.ids.items():
            out.setdefault(fld, (spec.id, call.endpoint, call.placeholder))
    return out
