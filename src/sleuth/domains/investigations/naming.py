"""How English prose names a person: the forms, the office before a name, the apposition
after it, and who a "said" sentence quotes.

A newspaper names one man as "Chas E. Hughes, Republican candidate for president", then
"Mr. Hughes", and a President as "President Wilson" (no given name: `find_names` does not
take it for a person). The extraction records each form where it stands, with what the
sentence itself says the person is, so `cast` can group the forms of one person and cite
the role; nothing here guesses a role the text does not state.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from sleuth.extract.given import is_personal_name
from sleuth.extract.names import STOP, find_names
from sleuth.extract.nicknames import ABBREVIATIONS
from sleuth.extract.person_names import TITLES

# Offices a paper writes before a surname ("President Wilson", "Police Captain Tunney").
OFFICES = ("President", "Vice President", "Governor", "Gov.", "Senator", "Sen.", "Congressman",
           "Secretary", "Colonel", "Col.", "General", "Gen.", "Captain", "Capt.",
           "Police Captain", "Judge", "Justice", "Mayor", "Ambassador", "Commissioner",
           "Sheriff", "Admiral", "Chairman")
_OFFICE = "|".join(re.escape(o) for o in sorted(OFFICES, key=len, reverse=True))
_TITLED = re.compile(rf"\b({_OFFICE})[ \t]*\n?[ \t]*"
                     r"((?:[A-Z]\.\s?)*[A-Z][a-z]+(?:['’][A-Z]?[a-z]+)?)\b(?![-'’])")
OFFICE_HEAD = re.compile(rf"^(?:{_OFFICE})\s+")
_NOT_SURNAME_WORDS = """January February March April May June July August September
October November December Monday Tuesday Wednesday Thursday Friday Saturday Sunday The And
Of In On At To For But It He She They This That There Here When Who Which"""
_NOT_SURNAME = frozenset(_NOT_SURNAME_WORDS.split())
# Nouns that make an apposition a role ("the Socialist candidate", "chairman of ...").
_ROLE_NOUN = re.compile(r"\b(?:candidate|nominee|chairman|president|secretary|governor|senator|"
                        r"congressman|representative|leader|manager|editor|minister|"
                        r"commissioner|judge|mayor|captain|colonel|general|chief|head|member|"
                        r"treasurer|director|superintendent|attorney|speaker|ambassador|"
                        r"sheriff|justice|spokesman|commander|owner|publisher|president-elect)"
                        r"s?\b", re.I)
_ROLE_STOP_WORDS = ("in iii at on to who which with and was is has had will would that when "
                    "where by from")
_ROLE_STOP = frozenset(_ROLE_STOP_WORDS.split())
_APPOSITION = re.compile(r"\A[ \t]*,\s*(?:(?:the|a|an)\s+)?"
                         r"([^,.;:!?\"“”()\[\]]{3,90}?)\s*[,.;]")
_SAID_VERB = re.compile(r"\bsaid\b|\bstated\b|\bannounced\b|\bdeclared\b|\bsays\b", re.I)


@dataclass(frozen=True)
class Form:
    """One name as the text writes it; `office` when an office stands before it."""

    text: str
    start: int
    end: int
    office: str = ""


def _break_at(tok: str) -> bool:
    """A word ending a sentence inside what read as one name ("Mrs. Saxe. Report"): a word
    of three letters or more with a period, not an abbreviation nor a title."""
    word = tok.rstrip(".").lower()
    return (tok.endswith(".") and len(word) >= 3 and word.isalpha() and word not in ABBREVIATIONS
            and word not in TITLES and word not in {"jr", "sr", "esq", "rev", "hon"})


def split_breaks(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The spans of a found name, cut where a sentence ends inside it; the pieces that are
    still a person's name are kept ("Hughes. Allan Benson" -> "Allan Benson")."""
    pieces: list[tuple[int, int]] = []
    a = start
    for m in re.finditer(r"\S+", text[start:end]):
        if _break_at(m.group(0)) and start + m.end() < end:
            pieces.append((a, start + m.end() - 1))
            a = start + m.end()
            while a < end and text[a].isspace():
                a += 1
    pieces.append((a, end))
    if len(pieces) == 1:
        return pieces
    return [(x, y) for x, y in pieces if y > x and len(text[x:y].split()) >= 2
            and is_personal_name(" ".join(text[x:y].split()))]


def office_forms(text: str) -> list[Form]:
    """"President Wilson", "Police Captain Tunney": an office and a surname (a word with
    no capitalised word after it: "General Ignacio Ra mos" is no "General Ignacio")."""
    out = []
    for m in _TITLED.finditer(text):
        if m.group(2) in _NOT_SURNAME or len(m.group(2)) < 3 or m.group(2).lower() in STOP:
            continue  # "Justice Department", "Captain Of": find_names' own non-name words
        if re.match(r"[ \t]*\n?[ \t]*[A-Z][a-z]", text[m.end():m.end() + 6]):
            continue  # "General Ignacio Ra mos": a given name, and a name find_names missed
        out.append(Form(" ".join(m.group(0).split()), m.start(), m.end(), m.group(1)))
    return out


def name_forms(text: str) -> list[Form]:
    """Every person's name in an English text, in text order: `find_names`' names (cut at a
    sentence break inside them), each with the office written before it, and the offices
    with a bare surname that `find_names` does not take."""
    offices = office_forms(text)
    out: list[Form] = []
    for found in find_names(text):
        for a, b in split_breaks(text, found.start, found.end):
            name = " ".join(text[a:b].split())
            head = OFFICE_HEAD.match(name)
            before = next((o.office for o in offices if o.start < a and a <= o.start
                           + len(o.office) + 2), "")
            out.append(Form(name, a, b, head.group(0).strip() if head else before))
    taken = [(f.start, f.end) for f in out]
    for o in offices:
        name_at = o.start + len(o.office)
        if not any(a <= name_at < b or a <= o.start < b for a, b in taken):
            out.append(o)
    return sorted(out, key=lambda f: (f.start, f.end))


def apposition(text: str, end: int) -> str:
    """The role an apposition right after a name states ("Chas E. Hughes, Republican
    candidate for president iii the recent election, ..." -> "Republican candidate for
    president"): its words up to the role noun and an "of"/"for" phrase after it."""
    m = _APPOSITION.match(text[end:end + 120])
    if not m:
        return ""
    words = m.group(1).split()
    noun = next((i for i, w in enumerate(words) if _ROLE_NOUN.fullmatch(w.strip("'’"))), None)
    if noun is None or noun > 4 or any(not re.fullmatch(r"[A-Za-z][\w'’-]*", w)
                                       for w in words[:noun + 1]):
        return ""
    role = words[:noun + 1]
    rest = words[noun + 1:]
    if rest and rest[0].lower() in ("of", "for"):
        for w in rest:
            if w.lower() in _ROLE_STOP or not re.fullmatch(r"[A-Za-z][\w'’-]*", w):
                break
            role.append(w)
        while role[-1].lower() in ("of", "for", "the"):
            role.pop()
    return " ".join(role[:10])


def said_by(text: str, a: int, b: int, verb_start: int, verb_end: int,
            forms: list[Form]) -> str:
    """Who a sentence says said it: the name right before the verb ("Mr. Hughes said",
    "Police Captain Tunney of the bomb squad said") or right after it ("said Mr. Hughes");
    "" when the sentence names no one there ("he said", "the war office announced")."""
    inside = [f for f in forms if a <= f.start and f.end <= b]
    before = [f for f in inside if f.end <= verb_start
              and re.fullmatch(r"[\s,]*(?:(?:of|from|at|for|in)\s+(?:the\s+)?"
                               r"[a-z][\w'\s-]{0,30}?)?[\s,]*(?:has\s+|had\s+|also\s+)?",
                               text[f.end:verb_start])]
    if before:
        f = before[-1]
        return f.text if not f.office or f.text.startswith(f.office) else f"{f.office} {f.text}"
    after = [f for f in inside if verb_end <= f.start and re.fullmatch(r"[\s,]*",
                                                                       text[verb_end:f.start])]
    return after[0].text if after else ""


def said_verbs(text: str, a: int, b: int) -> list[tuple[int, int]]:
    return [(m.start(), m.end()) for m in _SAID_VERB.finditer(text, a, b)]
