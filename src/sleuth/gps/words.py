"""Plain words for what a client reads: source kinds, evidence classes, dates, field names.

A report, a conflict rationale and a proof argument speak of "the WikiTree profile
Garside-24, a user-contributed tree" and "21 July 1884", never of `wikitree_profile`,
`authored` or `1884-07-21`; and a date is written only as precisely as its evidence
knows it (an age in a census gives "1881–1882", not a day). Everything here is a pure
function of stored data, so the same case always reads the same.
"""

from __future__ import annotations

import calendar
import re
from datetime import date

from sleuth.gps.kinds import SourceInfo, SourceKind, wikitree_profile_at
from sleuth.model.citation import Citation
from sleuth.model.dates import DateQualifier, GenDate
from sleuth.model.evidence import InformationClass, SourceClass
from sleuth.model.records import Snapshot

MONTH_NAMES = tuple(calendar.month_name)[1:]
_COMMAS = re.compile(r"\s*(?:,\s*)+")

KIND_NOUN: dict[SourceKind, str] = {
    SourceKind.WIKITREE_PROFILE: "WikiTree profile",
    SourceKind.WIKIDATA_ENTITY: "Wikidata entry",
    SourceKind.WIKIPEDIA_ARTICLE: "Wikipedia article",
    SourceKind.FAMILYSEARCH_RECORD: "FamilySearch record",
    SourceKind.NEWSPAPER_PAGE: "newspaper page",
    SourceKind.PARISH_REGISTER: "parish register transcription",
    SourceKind.CENSUS: "census transcription",
    SourceKind.GEDCOM_FILE: "GEDCOM file",
    SourceKind.MEMORIAL: "Find a Grave memorial",
    SourceKind.LOCAL_DOCUMENT: "document",
}
_REGISTER_BOOK = {"baptism": "baptism register", "burial": "burial register",
                  "marriage": "marriage register"}

# field name -> how a client calls it (anything else: "birth_surname" -> "Birth surname")
FIELD_LABELS: dict[str, str] = {
    "name": "Name", "given_name": "Given name", "surname": "Surname",
    "birth_surname": "Surname at birth", "married_surname": "Married surname",
    "sex": "Sex", "gender": "Sex", "birth_date": "Birth", "birth_place": "Birthplace",
    "baptism_date": "Baptism", "baptism_place": "Place of baptism",
    "christening_date": "Christening", "christening_place": "Place of christening",
    "death_date": "Death", "death_place": "Place of death", "burial_date": "Burial",
    "burial_place": "Place of burial", "marriage_date": "Marriage",
    "marriage_place": "Place of marriage", "age_at_death": "Age at death",
    "age": "Age", "residence": "Residence", "residence_date": "Residence (date)",
    "occupation": "Occupation", "wikitree_id": "WikiTree ID", "wikidata_qid": "Wikidata ID",
    "familysearch_id": "FamilySearch ID", "deceased": "Died", "marital_status": "Marital status",
    "parent": "Parent", "child": "Child", "spouse": "Spouse", "sibling": "Sibling",
    "father": "Father", "mother": "Mother", "title": "Title", "religion": "Religion",
    "cause_of_death": "Cause of death", "nickname": "Nickname",
}


def field_label(field: str) -> str:
    """`birth_date` -> "Birth"; unknown fields readable, never a code name."""
    return FIELD_LABELS.get(field) or field.replace("_", " ").strip().capitalize()


def fact_value(field: str, value: str, gd: GenDate | None) -> str:
    """The value as the report states it: dates in words at their own precision, a bare
    GEDCOM event tag ("DEAT", "Y": the event happened, date unknown) as "yes", sex spelled."""
    text = " ".join(value.split())
    if gd is not None and (gd.earliest or gd.latest or gd.original):
        words = date_words(gd)
        if words:
            return words
    if field.endswith("_place") or field in ("residence", "place"):
        text = _COMMAS.sub(", ", text).strip(" ,;")  # ", Grayson, Virginia" from an index
    if field in ("sex", "gender"):
        return {"M": "male", "F": "female", "U": "unknown"}.get(text.upper(), text)
    if text.upper() in ("Y", "YES", "DEAT", "BURI", "BIRT", "MARR", "CHR", "BAPM"):
        return "yes (date not stated)"
    return text


def _day(d: date) -> str:
    return f"{d.day} {MONTH_NAMES[d.month - 1]} {d.year}"


def _whole_month(lo: date, hi: date) -> bool:
    return (lo.year == hi.year and lo.month == hi.month and lo.day == 1
            and hi.day == calendar.monthrange(hi.year, hi.month)[1])


def _whole_year(lo: date, hi: date) -> bool:
    return lo.month == 1 and lo.day == 1 and hi.month == 12 and hi.day == 31


def date_words(gd: GenDate | None, fallback: str = "") -> str:
    """A date as precisely as the evidence knows it, in words.

    A day ("21 July 1884"), a month ("July 1884"), a year ("1884"), a span of years
    ("1881–1882", from an age), "about 1850", "before 1850", "between 1850 and 1855"; a
    censored decade stays "1990s". BCE ends keep the model's ISO text.
    """
    if gd is None:
        return fallback
    if gd.original[:1].isdigit() and gd.original.endswith(("0s", "earlier", "later")):
        return gd.original  # the Censor's decade
    if gd.earliest_bce or gd.latest_bce:
        return gd.iso() or gd.original or fallback
    lo, hi = gd.earliest, gd.latest
    if lo is None and hi is None:
        return gd.phrase or gd.original or fallback
    if lo is None:
        assert hi is not None
        return f"before {hi.year if gd.precision == 'year' or hi.month == 1 else _day(hi)}"
    if hi is None:
        return f"after {lo.year if gd.precision == 'year' or lo.month == 12 else _day(lo)}"
    about = gd.qualifier in (DateQualifier.ABOUT, DateQualifier.ESTIMATED)
    if lo == hi:
        text = _day(lo)
    elif _whole_month(lo, hi):
        text = f"{MONTH_NAMES[lo.month - 1]} {lo.year}"
    elif lo.year == hi.year:
        text = str(lo.year)
    elif gd.qualifier is DateQualifier.BETWEEN:
        return f"between {lo.year} and {hi.year}"
    elif gd.qualifier is DateQualifier.PERIOD:
        return f"from {lo.year} to {hi.year}"
    elif about and _whole_year(lo, hi) and (hi.year - lo.year) % 2 == 0:
        return f"about {(lo.year + hi.year) // 2}"
    else:
        text = f"{lo.year}–{hi.year}"
    return f"about {text}" if about else text


def source_noun(info: SourceInfo) -> str:
    """What kind of source, in words: "WikiTree profile", "Find a Grave memorial"..."""
    if info.kind is SourceKind.FAMILYSEARCH_RECORD and info.event == "tree":
        return "FamilySearch Family Tree profile"
    if info.kind is SourceKind.PARISH_REGISTER and info.event in _REGISTER_BOOK:
        return f"{_REGISTER_BOOK[info.event]} transcription"
    return KIND_NOUN.get(info.kind, "document")


def source_name(info: SourceInfo, snap: Snapshot | None, citation: Citation | None = None,
                subject: str = "") -> str:
    """One source, named so a reader can find it again: "the WikiTree profile Garside-24",
    "the Find a Grave memorial 1000234 (Emma Edith Whitfield)", "the St Senara (Zennor)
    baptism register (FreeREG transcription)", "the FamilySearch record “Ohio, Deaths”"."""
    kind = info.kind
    if kind is SourceKind.WIKITREE_PROFILE:
        wid = None
        if snap is not None and citation is not None:
            wid = wikitree_profile_at(snap, citation.locator.start, citation.locator.end)
        wid = wid or info.identifiers.get("wikitree_id")
        return f"the WikiTree profile {wid}" if wid else "a WikiTree profile"
    if kind is SourceKind.MEMORIAL:
        num = info.identifiers.get("memorial")
        who = f" ({info.item})" if info.item else ""
        return f"the Find a Grave memorial {num}{who}" if num else f"a Find a Grave page{who}"
    if kind is SourceKind.PARISH_REGISTER:
        book = _REGISTER_BOOK.get(info.event or "", "parish register")
        where = info.item or "a parish"
        by = (info.publisher or "").split(" (")[0] or "a"
        return f"the {where} {book} ({by} transcription)"
    if kind is SourceKind.FAMILYSEARCH_RECORD:
        if info.event == "tree":
            return "the FamilySearch Family Tree"
        return f"the FamilySearch record “{info.title}”" if info.title else \
            "a FamilySearch record"
    if kind is SourceKind.NEWSPAPER_PAGE:
        title = "" if info.title.startswith("Newspaper LCCN") else info.title
        issue = info.identifiers.get("document_date", "")
        when = ""
        if len(issue) == 10 and issue[4] == "-":
            when = f" of {int(issue[8:])} {MONTH_NAMES[int(issue[5:7]) - 1]} {issue[:4]}"
        lccn = info.identifiers.get("lccn")
        where = f" (Chronicling America, LCCN {lccn})" if lccn else ""
        if info.event == "obituary":
            return f"the obituary in {title or 'a newspaper'}{when}{where}"
        return f"{'the newspaper ' + title if title else 'a newspaper page'}{when}{where}"
    if kind is SourceKind.WIKIDATA_ENTITY:
        qid = info.identifiers.get("qid")
        return f"the Wikidata entry {qid}" if qid else "a Wikidata entry"
    if kind is SourceKind.WIKIPEDIA_ARTICLE:
        return f"the Wikipedia article “{info.item}”" if info.item else "a Wikipedia article"
    if kind is SourceKind.GEDCOM_FILE:
        return f"the GEDCOM file {info.title}" if info.title else "a GEDCOM file"
    if kind is SourceKind.CENSUS:
        return f"the census transcription {info.title}" if info.title else "a census"
    return f"the document “{info.title}”" if info.title else "a document"


def class_words(source: SourceClass, information: InformationClass | None = None,
                info: SourceInfo | None = None) -> str:
    """Evidence Explained classes in words: "an original record, first-hand for this fact"."""
    tree = info is not None and (info.kind in (SourceKind.WIKITREE_PROFILE,
                                               SourceKind.GEDCOM_FILE)
                                 or (info.kind is SourceKind.FAMILYSEARCH_RECORD
                                     and info.event == "tree"))
    head = {
        SourceClass.ORIGINAL: "an original record",
        SourceClass.DERIVATIVE: "a derivative record (an index or transcription)",
        SourceClass.AUTHORED: "a user-contributed tree" if tree else "an authored work",
    }[SourceClass(source)]
    if information is None:
        return head
    tail = {
        InformationClass.PRIMARY: "first-hand for this fact",
        InformationClass.SECONDARY: "second-hand for this fact",
        InformationClass.UNDETERMINED: "informant unknown",
    }[InformationClass(information)]
    return f"{head}, {tail}"


def count_words(n: int, noun: str, plural: str | None = None) -> str:
    """1 source, 2 sources; "one" to "nine" spelled out."""
    spelled = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
    num = spelled[n] if 0 <= n < len(spelled) else str(n)
    return f"{num} {noun if n == 1 else plural or noun + 's'}"
