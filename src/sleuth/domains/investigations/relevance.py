"""Whether an inquiry's papers answer the question asked.

The inquiry composer (`statements.Composer`) states an inquiry's decisions and members from
any captured source that names a body. A corpus may hold such a paper beside sources on
quite another subject: its statements then verify against their own paper, and a question
about German submarines or the GDPR would be "answered" with a 1969 inquiry's members. So
the inquiry's papers answer only a question about that inquiry:

- the question names the body (its name or abbreviation), or asks about an inquiry
  (inquiry, committee, commission) whose subject its other words name: at least half of
  them are met in the inquiry's papers, an English word through the corpus glossary's
  Swedish (`corpus.GLOSSARY`: "secrecy" in "sekretess"), or one where the question's year
  is the inquiry's (the glossary is small: "protection" is not found in "dataskydd");
- and every year it names is a year of the inquiry's own dated acts (its directive, the
  appointments, its report): "the 1975 inquiry" is not one whose acts are all of 1969-72.
"""

from __future__ import annotations

import re

from sleuth.domains.investigations.corpus import GLOSSARY, query_terms
from sleuth.domains.investigations.extraction import Extraction
from sleuth.domains.investigations.prose import join_split_words

_BODY = re.compile(r"\b(?:inquir(?:y|ies)|committees?|commissions?|utredning\w*|kommitt\w*)\b",
                   re.I)
# Words that ask about an inquiry's acts or people, not about its subject.
_ACTS_TEXT = ("inquiry inquiries committee committees commission commissions decide decided "
              "decision decisions propose proposed proposal proposals recommend recommended "
              "recommendation recommendations sat sit members member chair chaired chairs "
              "secretary secretaries experts expert report reports appointed appoint directive "
              "government")
ACTS = frozenset(_ACTS_TEXT.split())
_YEAR = re.compile(r"^(?:1[5-9]\d\d|20\d\d)$")


def subject_words(question: str) -> list[str]:
    """The question's words that name its subject: not years, not its asking about an
    inquiry's acts ("decide", "who sat on it")."""
    return [w for w in query_terms(question, glossary=False)
            if w not in ACTS and not _YEAR.match(w)]


def inquiry_years(x: Extraction, sids: list[str]) -> set[str]:
    """The years of the inquiry's dated acts in its papers `sids`."""
    acts = [*x.events, *x.appointments]
    return {str(a["date"])[:4] for a in acts if a["source"] in sids and a.get("date")}


def about_inquiry(question: str, x: Extraction, sids: list[str], texts: dict[str, str]) -> bool:
    """Whether the inquiry whose papers are `sids` is what the question asks about."""
    years = {w for w in query_terms(question, glossary=False) if _YEAR.match(w)}
    if years - inquiry_years(x, sids):
        return False
    bodies = [c for c in x.committees if c["source"] in sids]
    low = question.lower()
    if any(c["name"].lower() in low or (c["abbreviation"] and re.search(
            rf"\b{re.escape(c['abbreviation'])}\b", question)) for c in bodies):
        return True
    if not _BODY.search(question):
        return False
    words = subject_words(question)
    folded = " ".join(join_split_words(texts.get(s, "")).lower() for s in sids)
    met = [w for w in words if any(t in folded for t in (w, *GLOSSARY.get(w, ())))]
    return len(met) >= (1 if years and words else (len(words) + 1) // 2)
