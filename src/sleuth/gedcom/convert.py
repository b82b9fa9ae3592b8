"""Fitting a tree's own structures to the GEDCOM version being written (5.5.1 or 7.0).

An export writes back what the imported tree said beyond the facts (citations, notes, media,
custom tags). The two versions say some of it differently; these are the conversions the
7.0 specification and its 5.5.1-to-7.0 test files describe:

* 5.5.1 -> 7.0: a NOTE pointer is an SNOTE (and a NOTE record an SNOTE record); an inline
  `SOUR text` becomes a SOUR record holding the text as a NOTE, its TEXT going under the
  citation's DATA; an inline OBJE becomes an OBJE record (FILE, FORM as a media type, TITL);
  ASSO's RELA is a ROLE; enumerations are upper case (unknown ones OTHER with a PHRASE);
  dates use 7.0's calendar and epoch words, ages their units, and a date or age 7.0 cannot
  read keeps its text as a PHRASE.
* 7.0 -> 5.5.1: SNOTE is NOTE, ROLE is RELA, a date PHRASE is `INT date (phrase)`, 5.5.1's
  lower-case enumerations, and tags 5.5.1 lacks become `_TAG`.

Anything else 7.0 has no place for (a standard tag under a structure that may not hold it)
becomes an extension `_TAG` with its data and substructures intact: validators accept it and
no text is dropped. Pointers have already been renamed by the caller.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from sleuth.gedcom.g7 import (
    DATES,
    ENUM_LISTS,
    ENUMS,
    FLAG,
    NO_PAYLOAD,
    POINTS_TO,
    RECORD_TYPES,
    V7_ONLY,
    child_type,
)
from sleuth.gedcom.tree import VOID, Item

NewRecord = Callable[[Item], str]  # adds a record, returns its xref

_MONTHS = {"JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"}
_CAL_551_TO_7 = {"@#DGREGORIAN@": "GREGORIAN", "@#DJULIAN@": "JULIAN", "@#DHEBREW@": "HEBREW",
                 "@#DFRENCH R@": "FRENCH_R"}
_CAL_7_TO_551 = {v: k for k, v in _CAL_551_TO_7.items()}
_CAL = r"(?:GREGORIAN|JULIAN|FRENCH_R|HEBREW|_[A-Z0-9_]+)"
_D7 = (rf"(?:{_CAL} )?(?:(?:\d+ )?(?!FROM|TO|BET|AND|BEF|AFT|ABT|CAL|EST)[A-Z_][A-Z0-9_]* )?"
       r"\d+(?: BCE)?")
_PERIOD7 = rf"(?:TO {_D7}|FROM {_D7}(?: TO {_D7})?)"
_DATE7 = re.compile(rf"(?:{_D7}|{_PERIOD7}|BET {_D7} AND {_D7}|AFT {_D7}|BEF {_D7}|"
                    rf"(?:ABT|CAL|EST) {_D7})?")
_EXACT7 = re.compile(r"\d{1,2} (?:JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|OCT|NOV|DEC) \d+")
_PERIOD7_RE = re.compile(rf"(?:{_PERIOD7})?")
_AGE7 = re.compile(r"(?:[<>] )?(?:\d+y(?: \d+m)?(?: \d+w)?(?: \d+d)?|\d+m(?: \d+w)?(?: \d+d)?"
                   r"|\d+w(?: \d+d)?|\d+d)")
_AGE551 = re.compile(r"(?:(?P<b>[<>])\s*)?(?:(?P<y>\d+)\s*(?:y|yrs?|years?)?)?\s*"
                     r"(?:(?P<m>\d+)\s*(?:m|mos?|months?))?\s*(?:(?P<w>\d+)\s*(?:w|wks?|weeks?))?"
                     r"\s*(?:(?P<d>\d+)\s*(?:d|dys?|days?))?", re.IGNORECASE)
_AGE_WORDS = {"CHILD": "< 8y", "INFANT": "< 1y", "STILLBORN": "0y"}
_INT = re.compile(r"INT\s+(?P<date>.*?)\s*\((?P<phrase>.*)\)\s*$", re.IGNORECASE | re.DOTALL)
_MEDIA = {"JPG": "image/jpeg", "JPEG": "image/jpeg", "GIF": "image/gif", "TIF": "image/tiff",
          "TIFF": "image/tiff", "BMP": "image/bmp", "PNG": "image/png", "PCX": "image/x-pcx",
          "PDF": "application/pdf", "WAV": "audio/wav", "MP3": "audio/mpeg",
          "MP4": "video/mp4", "AVI": "video/x-msvideo", "MOV": "video/quicktime",
          "TXT": "text/plain", "HTM": "text/html", "HTML": "text/html", "RTF": "text/rtf",
          "OLE": "application/x-ole", "DOC": "application/msword"}
_MEDIA_TYPE = re.compile(r"[A-Za-z0-9][\w!#$&\-^.+]*/[A-Za-z0-9][\w!#$&\-^.+]*")
_LOWER_551 = frozenset({"PEDI", "RESN", "MEDI"})


# -- values ----------------------------------------------------------------------------------
def date_to_v7(value: str) -> tuple[str, str]:
    """(7.0 date text, phrase): the phrase keeps what 7.0's grammar cannot say."""
    text = value.strip()
    phrase = ""
    if (m := _INT.match(text)) is not None:
        text, phrase = m.group("date").strip(), m.group("phrase").strip()
    elif text.startswith("(") and text.endswith(")"):
        return "", text[1:-1].strip()
    for old, new in _CAL_551_TO_7.items():
        text = re.sub(re.escape(old), new, text, flags=re.IGNORECASE)
    text = re.sub(r"\s*\b(?:B\.C\.|BC|B\.C)(?=\s|$)", " BCE", text, flags=re.IGNORECASE)
    text = " ".join(text.upper().split())
    if _DATE7.fullmatch(text) and _months_known(text):
        return text, phrase
    return "", phrase or value.strip()


def _months_known(text: str) -> bool:
    """Gregorian and Julian dates must use the twelve month names (other calendars have
    their own, which pass)."""
    if text.split(" ", 1)[0] in ("HEBREW", "FRENCH_R") or " HEBREW " in f" {text} " or \
            " FRENCH_R " in f" {text} ":
        return True
    words = [w for w in text.split() if w.isalpha() and w not in (
        "FROM", "TO", "BET", "AND", "BEF", "AFT", "ABT", "CAL", "EST", "BCE", "GREGORIAN",
        "JULIAN")]
    return all(w in _MONTHS for w in words)


def date_to_v551(value: str, phrase: str) -> str:
    text = value.strip()
    for new, old in _CAL_7_TO_551.items():
        text = re.sub(rf"\b{new}\b", old, text)
    text = re.sub(r"\bBCE\b", "B.C.", text)
    if phrase:
        return f"INT {text} ({phrase})" if text else f"({phrase})"
    return text


def age_to_v7(value: str) -> tuple[str, str]:
    text = value.strip()
    if text.upper() in _AGE_WORDS:
        return _AGE_WORDS[text.upper()], ""
    m = _AGE551.fullmatch(text)
    if m is not None and any(m.group(k) for k in "ymwd"):
        parts = [f"{int(m.group(k))}{k}" for k in "ymwd" if m.group(k)]
        out = (f"{m.group('b')} " if m.group("b") else "") + " ".join(parts)
        if _AGE7.fullmatch(out):
            return out, ""
    return "", text


def media_type(form: str) -> str | None:
    """A 5.5.1 multimedia format (`jpeg`) as a 7.0 media type (`image/jpeg`)."""
    form = form.strip()
    if _MEDIA_TYPE.fullmatch(form):
        return form
    return _MEDIA.get(form.upper().lstrip("."))


# -- 5.5.1 -> 7.0 ----------------------------------------------------------------------------
def to_v7(item: Item, parent: str | None, new_record: NewRecord) -> list[Item]:
    """`item` as 7.0 allows it under a structure of type `parent` (None: an extension's)."""
    if parent is None:  # inside an extension anything goes; only pointers must resolve
        return [item]
    tag = item.tag
    if tag == "NOTE" and item.pointer:
        item.tag = tag = "SNOTE"
    elif tag == "RELA" and parent == "ASSO":
        item.tag = tag = "ROLE"
        item.value = item.value.strip().strip("()")
    elif tag == "SOUR" and item.pointer is None and child_type(parent, "SOUR") == "SOUR":
        item = _inline_source(item, new_record)
    elif tag == "OBJE" and item.pointer is None and child_type(parent, "OBJE") == "OBJE":
        item = _inline_media(item, new_record)
    kind = child_type(parent, tag)
    if kind is None:
        return [_extension(item)]
    if not _payload_v7(item, kind):
        return [_extension(item)]
    item.children = [x for c in item.children for x in to_v7(c, kind, new_record)]
    return [item]


def record_to_v7(item: Item, new_record: NewRecord) -> Item:
    """A whole record (SOUR, REPO, OBJE, NOTE/SNOTE, or an extension record) for 7.0."""
    if item.tag == "NOTE":
        item.tag = "SNOTE"
    kind = RECORD_TYPES.get(item.tag)
    if kind is None:  # an extension record
        return item
    if item.tag == "OBJE":
        _media_record_v7(item)
    item.children = [x for c in item.children for x in to_v7(c, kind, new_record)]
    return item


def _extension(item: Item) -> Item:
    if not item.tag.startswith("_"):
        item.tag = "_" + item.tag
    return item


def _payload_v7(item: Item, kind: str) -> bool:
    """Fit the payload to what `kind` carries in 7.0; False when it cannot be done."""
    target = POINTS_TO.get(kind)
    if target is not None:
        return item.pointer is not None
    if item.pointer is not None:
        return False
    value = item.value
    if kind in NO_PAYLOAD:
        return not value.strip()
    if kind in FLAG:
        if value.strip() and value.strip().upper() != "Y":
            item.children.insert(0, Item("NOTE", value.strip()))
        item.value = "Y" if value.strip() else ""
        return True
    if kind in ENUMS:
        allowed = ENUMS[kind]
        word = value.strip().strip("()").upper()
        if word in allowed:
            item.value = word
            return True
        if "OTHER" in allowed and child_type(kind, "PHRASE"):
            item.value = "OTHER"
            item.children.insert(0, Item("PHRASE", value.strip()))
            return True
        return False
    if kind in ENUM_LISTS:
        words = [w.strip().upper() for w in value.split(",") if w.strip()]
        if words and all(w in ENUM_LISTS[kind] for w in words):
            item.value = ", ".join(words)
            return True
        return not words
    if kind in DATES:
        return _date_v7(item, kind)
    if kind == "AGE":
        item.value, phrase = age_to_v7(value)
        if phrase:
            item.children.insert(0, Item("PHRASE", phrase))
        return True
    if kind in ("FORM", "MIME"):
        mt = media_type(value)
        if mt is None:
            return False
        item.value = mt
        return True
    if kind in ("LATI", "LONG", "TIME", "HEIGHT", "LEFT", "TOP", "WIDTH", "FAM-NCHI",
                "INDI-NCHI", "NMR"):
        return _simple_v7(item.value.strip(), kind)
    return True


def _simple_v7(value: str, kind: str) -> bool:
    if kind == "LATI":
        return re.fullmatch(r"[NS]\d{1,2}(?:\.\d+)?", value) is not None
    if kind == "LONG":
        return re.fullmatch(r"[EW]\d{1,3}(?:\.\d+)?", value) is not None
    if kind == "TIME":
        return re.fullmatch(r"(?:[01]?\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d+)?)?Z?",
                            value) is not None
    return value.isdigit()


def _date_v7(item: Item, kind: str) -> bool:
    text, phrase = date_to_v7(item.value)
    if kind == "DATE-exact":
        if not _EXACT7.fullmatch(text):
            return False
    elif kind in ("DATA-EVEN-DATE", "NO-DATE") and not _PERIOD7_RE.fullmatch(text):
        text, phrase = "", phrase or item.value.strip()
    item.value = text
    if phrase:
        if not child_type(kind, "PHRASE"):
            return False
        item.children.insert(0, Item("PHRASE", phrase))
    return True


def _inline_source(item: Item, new_record: NewRecord) -> Item:
    """5.5.1 `SOUR text` (no record) -> a SOUR record holding the text, and a citation of it.

    As the 5.5.1-to-7.0 test files do: the description becomes the record's NOTE, the
    citation's TEXT goes under DATA, everything else stays with the citation.
    """
    record = Item("SOUR", children=[Item("NOTE", item.value)] if item.value.strip() else [])
    cite = Item("SOUR", pointer=new_record(record))
    data = Item("DATA")
    for c in item.children:
        if c.tag == "TEXT":
            data.children.append(c)
        else:
            cite.children.append(c)
    if data.children:
        cite.children.insert(0, data)
    return cite


def _inline_media(item: Item, new_record: NewRecord) -> Item:
    """5.5.1 inline OBJE (FILE, FORM, TITL) -> an OBJE record and a link to it."""
    record = Item("OBJE", children=[c for c in item.children])
    _media_record_v7(record)
    return Item("OBJE", pointer=new_record(record_to_v7(record, new_record)))


def _media_record_v7(record: Item) -> None:
    """5.5 / 5.5.1 OBJE records keep FORM and TITL beside FILE; 7.0 puts them under FILE."""
    loose = [c for c in record.children if c.tag in ("FORM", "TITL")]
    files = [c for c in record.children if c.tag == "FILE"]
    if not files or not loose:
        return
    record.children = [c for c in record.children if c not in loose]
    for c in loose:
        if files[0].first(c.tag) is None:
            files[0].children.append(c)


# -- 7.0 -> 5.5.1 ----------------------------------------------------------------------------
def to_v551(item: Item, parent: str | None) -> list[Item]:
    """`item` as 5.5.1 writes it: 7.0-only tags as `_TAG`, SNOTE as NOTE, no void pointers."""
    tag = item.tag
    if item.pointer == VOID:
        if tag != "SOUR":
            return []
        item.pointer, item.value = None, "unidentified source"
    if tag == "SNOTE":
        item.tag = "NOTE"
    elif tag == "ROLE" and parent == "ASSO":
        phrase = item.first("PHRASE")
        item.tag, item.value = "RELA", phrase.value if phrase is not None else item.value
        item.children = [c for c in item.children if c.tag != "PHRASE"]
    elif tag == "DATE":
        phrase = item.first("PHRASE")
        item.value = date_to_v551(item.value, phrase.value if phrase is not None else "")
        item.children = [c for c in item.children if c.tag != "PHRASE"]
    elif tag in _LOWER_551 or (tag == "TYPE" and parent == "NAME"):
        phrase = item.first("PHRASE")
        if item.value == "OTHER" and phrase is not None:
            item.value = phrase.value
            item.children = [c for c in item.children if c is not phrase]
        else:
            item.value = item.value.lower()
    elif tag in V7_ONLY:
        item.tag = "_" + tag
    parent_tag = item.tag
    item.children = [x for c in item.children for x in to_v551(c, parent_tag)]
    return [item]


def record_to_v551(item: Item) -> Item:
    if item.tag == "SNOTE":
        item.tag = "NOTE"
    item.children = [x for c in item.children for x in to_v551(c, item.tag)]
    return item
