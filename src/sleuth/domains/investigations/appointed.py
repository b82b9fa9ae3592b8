"""When a person was appointed to an inquiry, read from the sentence that appoints them.

Swedish reports state it in a few fixed ways, which this module reads in this order:

- the person's own "från och med den D" after the name ("har arbetat verksjuristen Hélène
  Runsten från och med den 8 augusti 2016 och hovrättsassessorn Jonna Wiborn från och med
  den 1 september 2016": each secretary has a date of their own);
- the last date before the name in its sentence ("förordnades den 19 september 2016 X";
  "den 18 juni 1969 X och Y, den 6 mars 1970 med verkan från den 1 i samma månad Z": Z's is
  6 March); a date saying from when the appointment took effect ("med verkan fr.o.m.") only
  where it opens the sentence ("Från och med samma dag förordnade …");
- "samma dag" (the same day) as the full date written last before it, within a passage
  ("förordnades den 19 september 2016 … Som experter förordnades samma dag …").

The process events (`documents.timeline`) are one per date, so a second appointment on a
date already seen has no event of its own: the sentence, not the nearest event, dates it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from sleuth.domains.documents.dates import DateHit, find_dates

_SINCE_AFTER_NAME = re.compile(r"\s*(?:\([^()]{0,160}\)\s*)?,?\s*(?P<words>från\s+och\s+med|"
                               r"fr\.\s?o\.\s?m\.?|with\s+effect\s+from|as\s+of)\s+"
                               r"(?:den\s+)?", re.IGNORECASE)
_SINCE_BEFORE = re.compile(r"(?:från\s+och\s+med|fr\.\s?o\.\s?m\.?|med\s+verkan\s+från|"
                           r"t\.\s?o\.\s?m\.?|with\s+effect\s+from)\s*(?:den\s*)?$",
                           re.IGNORECASE)
_SAME_DAY = re.compile(r"\bsamma\s+dag\b", re.IGNORECASE)
_VERB = re.compile(r"tillkallades|förordnades|förordnade|förordnats|tillkallats|utsågs|"
                   r"utnämndes|anställdes|har\s+arbetat|har\s+tjänstgjort|\bappointed\b",
                   re.IGNORECASE)
SAME_DAY_REACH = 700  # characters before "samma dag" its date is read in


@dataclass(frozen=True)
class Dated:
    """An appointment's date: ISO day, the words printed for it ("den 19 september 2016",
    "samma dag", "från och med den 8 augusti 2016"), where those words are, where the date
    itself is written (for "samma dag": the sentence before), and whether it says from when
    the person served."""

    iso: str
    original: str
    phrase: str
    start: int
    date_start: int
    since: bool = False


def _day(hit: DateHit) -> str:
    return hit.date.earliest.isoformat() if hit.date.earliest else ""


def _den(text: str, hit: DateHit) -> str:
    den = re.search(r"\bden\s*$", text[max(0, hit.start - 6):hit.start])
    return f"den {' '.join(hit.phrase.split())}" if den else " ".join(hit.phrase.split())


def appointment_date(text: str, sentence_start: int, start: int, end: int) -> Dated | None:
    """The date of the appointment of the person named at text[start:end], whose sentence
    begins at `sentence_start`; None when the sentence gives none."""
    since = _SINCE_AFTER_NAME.match(text, end)
    if since:
        hits = [h for h in find_dates(text, since.end(), min(len(text), since.end() + 40))
                if h.start == since.end() and not h.year_only]
        if hits and _day(hits[0]):
            words = " ".join(text[since.start("words"):hits[0].end].split())
            return Dated(_day(hits[0]), " ".join(hits[0].phrase.split()), words,
                         since.start("words"), hits[0].start, since=True)
    verb = _VERB.search(text, sentence_start, start)
    opening = verb.start() if verb else sentence_start
    found: list[tuple[int, Dated]] = []
    for hit in find_dates(text, sentence_start, end):  # a year may be read as the title
        if hit.start >= start or hit.year_only or not _day(hit):
            continue
        effective = _SINCE_BEFORE.search(text[max(sentence_start, hit.start - 40):hit.start])
        if effective and hit.start > opening:
            continue  # "förordnades den 27 juni 1969 med verkan fr.o.m. den 1 augusti 1969"
        found.append((hit.start, Dated(_day(hit), " ".join(hit.phrase.split()),
                                       _den(text, hit), hit.start, hit.start)))
    for m in _SAME_DAY.finditer(text, sentence_start, end):
        if m.start() >= start:
            break
        effective = _SINCE_BEFORE.search(text[max(sentence_start, m.start() - 40):m.start()])
        if effective and m.start() > opening:
            continue
        before = [h for h in find_dates(text, max(0, m.start() - SAME_DAY_REACH), m.start())
                  if not h.year_only and h.date.precision == "day"]
        if before:
            found.append((m.start(), Dated(_day(before[-1]), "samma dag", "samma dag",
                                           m.start(), before[-1].start)))
    return max(found, key=lambda f: f[0])[1] if found else None
