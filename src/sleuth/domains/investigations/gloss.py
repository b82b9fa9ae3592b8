"""English glosses of the terms of Swedish official prose, for a reader without Swedish.

A proposal is quoted in the inquiry's own words (a translation would be a new claim nobody
checked); after the quote, the summary glosses the terms it uses, from this table, so an
English reader can follow it: "(Terms: tillståndstvång, a licensing requirement; …)". A gloss
is a dictionary's, never evidence, and a term the table lacks is left unglossed, not guessed.

Terms are matched at a word start, with the endings Swedish inflection adds to them
("personregister", "personregistret"; "myndigheten"); the longest term at a place wins
("automatisk databehandling" over "databehandling").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# Swedish stem (lower case) -> its English gloss.
TERMS: dict[str, str] = {
    "allmänna handling": "official documents",
    "adb": "automatic data processing",
    "automatisk databehandling": "automatic data processing",
    "databehandling": "data processing",
    "datainspektion": "the Data Inspection Board",
    "datalag": "a Data Act",
    "dataskydd": "data protection",
    "dataskyddsförordning": "the General Data Protection Regulation",
    "delbetänkande": "interim report",
    "betänkande": "report",
    "direktiv": "terms of reference",
    "förordning": "ordinance",
    "grundlag": "fundamental law",
    "informationsmaterial": "information material",
    "integritet": "privacy",
    "intrång": "intrusion",
    "lagstiftning": "legislation",
    "lagrådsremiss": "referral to the Council on Legislation",
    "myndighet": "authority",
    "offentlighetsprincip": "the principle of public access to official documents",
    "offentlighet": "public access",
    "personregister": "personal register",
    "personuppgift": "personal data",
    "proposition": "government bill",
    "regeringsform": "the Instrument of Government",
    "remiss": "consultation",
    "sekretess": "secrecy",
    "sekretesslag": "the Secrecy Act",
    "tillståndsplikt": "a licensing requirement",
    "tillståndstvång": "a licensing requirement",
    "tryckfrihetsförordning": "the Freedom of the Press Act",
    "utredning": "inquiry",
    "yttrandefrihetsgrundlag": "the Fundamental Law on Freedom of Expression",
}
# What Swedish inflection adds to a stem: definite and plural endings, genitive s.
_ENDING = r"(?:en|et|n|t|na|er|erna|ar|arna|or|orna|ens|ets|s|ret|rets)?"
_TERM = re.compile(
    r"(?<![\wåäöÅÄÖ])(?P<term>" + "|".join(
        re.escape(t).replace(r"\ ", r"\s+") for t in sorted(TERMS, key=len, reverse=True))
    + r")" + _ENDING + r"(?![\wåäöÅÄÖ])", re.I)


@dataclass(frozen=True)
class Gloss:
    printed: str  # the term as the quote prints it ("personregister")
    english: str


def glosses(text: str) -> list[Gloss]:
    """The glossed terms of `text`, in the order they first appear, each once."""
    out: list[Gloss] = []
    seen: set[str] = set()
    for m in _TERM.finditer(text):
        key = " ".join(m.group("term").lower().split())
        english = TERMS[key]
        if key in seen or english in {g.english for g in out}:
            continue
        seen.add(key)
        out.append(Gloss(" ".join(m.group(0).split()), english))
    return out


def glossed(text: str) -> str:
    """"Terms: X, gloss; Y, gloss." for the glossed terms of `text`; "" when it has none."""
    found = glosses(text)
    return f"Terms: {'; '.join(f'{g.printed}, {g.english}' for g in found)}." if found else ""
