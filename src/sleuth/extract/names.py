"""Person-name spotting and splitting for title-case prose (newspapers, obituaries).

Names are found as runs of capitalised tokens, then cut at words that are never part of a
personal name (weekdays, months, church words, pronouns). The spotter over-generates on
purpose: only names that fill a role in a sentence pattern become people, so "Grand Rapids"
is harmless until something says Grand Rapids was born.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from sleuth.verify.normalise import normalise

TITLES = {
    "mr": "M", "mrs": "F", "miss": "F", "ms": "F", "messrs": None, "dr": None, "rev": None,
    "prof": None, "capt": "M", "col": "M", "gen": "M", "maj": "M", "lieut": "M", "lt": "M",
    "sgt": "M", "hon": None, "judge": None, "elder": None, "mme": "F", "mlle": "F",
    "madame": "F", "sir": "M", "dame": "F", "lady": "F", "lord": "M", "mother": "F",
    "father": "M", "sister": "F", "brother": "M", "uncle": "M", "aunt": "F", "grandma": "F",
    "grandpa": "M", "squire": "M", "esq": "M", "widow": "F",
}
# Titles that precede a name only when written as a title (never as a plain word).
_TITLE_ONLY = {"mr", "mrs", "miss", "ms", "messrs", "dr", "rev", "prof", "capt", "col", "gen",
               "maj", "lieut", "lt", "sgt", "hon", "mme", "mlle", "madame", "sir", "dame"}
STOP = frozenset(
    [
        "the", "a", "an", "he", "she", "his", "her", "him", "it", "its", "they", "them", "their",
        "we", "our", "i", "you", "in", "on", "at", "of", "and", "for", "to", "by", "with", "from",
        "as", "but", "or", "nor", "not", "this", "that", "these", "those", "there", "here", "when",
        "where", "who", "whom", "which", "what", "while", "after", "before", "during", "since",
        "until", "upon", "into", "about", "than", "then", "was", "were", "is", "are", "be", "been",
        "had", "has", "have", "will", "would", "shall", "should", "may", "might", "can", "could",
        "did", "do", "does", "died", "born", "married", "funeral", "burial", "interment",
        "deceased", "late", "death", "obituary", "monday", "tuesday", "wednesday", "thursday",
        "friday", "saturday", "sunday", "january", "february", "march", "april", "june", "july",
        "august", "september", "october", "november", "december", "jan", "feb", "mar", "apr",
        "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec", "church", "chapel", "cemetery",
        "county", "co", "street", "st", "avenue", "ave", "road", "township", "city", "town",
        "village", "state", "states", "river", "lake", "company", "hotel", "hall", "school",
        "college", "university", "hospital", "home", "farm", "station", "baptist", "methodist",
        "presbyterian", "catholic", "lutheran", "episcopal", "christian", "congregational",
        "society", "lodge", "club", "bank", "court", "house", "senate", "congress", "department",
        "association", "union", "railroad", "railway", "north", "south", "east", "west", "new",
        "mount", "mt", "fort", "ft", "port", "saint", "national", "american", "republican",
        "democrat", "democratic", "president", "governor", "mayor", "sheriff", "secretary",
        "general", "judge", "professor", "captain", "pastor", "reverend", "doctor", "also", "mrs",
        "mr", "miss", "dr", "rev", "sr", "jr", "one", "two", "three", "four", "five", "six",
        "seven", "eight", "nine", "ten", "christmas", "easter", "god", "lord", "jesus", "grand",
        "little", "big", "old", "young", "last", "first", "second", "third", "year", "years",
        "day", "days", "week", "month", "survived", "surviving", "leaves", "left", "mourn",
        "services", "service", "remains", "brothers", "sisters", "sons", "daughters", "children",
        "wife", "husband", "widow", "son", "daughter", "brother", "sister", "father", "mother",
        "no", "well", "known", "highly", "respected", "dead", "death", "born", "aged", "estate",
        "administrator", "executor", "notice", "who", "whose", "was", "were", "has", "had", "is",
        "are", "will", "shall", "died", "passed", "leaves", "left", "received", "went", "came",
        "lived", "resided", "being", "so", "says", "said"
    ]
)
# A run of candidate tokens separated by at most one line break.
_RUN = re.compile(
    r"(?:(?:Mc|Mac|O['’]|D['’])?[A-ZÀ-Þ][a-zà-ÿ]*(?:[A-Z][a-z]{2,})?(?:[-'’][A-ZÀ-Þ]?[a-zà-ÿ]+)*\.?"
    r"|(?:van|von|de|du|der|la|le|den|ten|ter)(?=[ \t]+[A-Z]))"
    r"(?:(?:[ \t]{1,3}\n?[ \t]*|\n[ \t]*)(?:(?:Mc|Mac|O['’]|D['’])?[A-ZÀ-Þ][a-zà-ÿ]*"
    r"(?:[A-Z][a-z]{2,})?(?:[-'’][A-ZÀ-Þ]?[a-zà-ÿ]+)*\.?"
    r"|(?:van|von|de|du|der|la|le|den|ten|ter)(?=[ \t]+[A-Z])))"
    r"{0,7}(?:,?[ \t]+(?:Jr|Sr)\b\.?)?"
)
_WORD = re.compile(r"\S+")
_BROKEN = re.compile(r"-?[ \t]*\n[ \t]*([a-z]+)")
_DATELINE = re.compile(
    r",\s*(?:(?:Mass|Mich|Pa|Mo|N\.\s?Y|Ill|Ind|Ohio|Iowa|Kan|Kans|Neb|Tenn|Ky|Va|Vt|Me|Conn|Md"
    r"|Cal|Colo|Wis|Minn|Tex|Ark|Ala|Ga|Miss|La|Fla|Okla|Ore|Wash|N\.\s?[HJCD]|S\.\s?[CD]"
    r"|R\.\s?I|Del|W\.\s?Va|Mont|Wyo|Ida|Utah|Nev|Ariz|N\.\s?M)\.|(?:Jan|Feb|Mar|Apr|May|June"
    r"|July|Aug|Sept?|Oct|Nov|Dec)[a-z]*\.?\s+\d)"
)
_GIVEN_ABBR = frozenset(
    [
        "geo", "chas", "wm", "jas", "jno", "thos", "jos", "benj", "saml", "robt", "edw", "alex",
        "fred", "danl", "wm.", "hy"
    ]
)


@dataclass(frozen=True, slots=True)
class Name:
    """A name found in a text: span relative to the scanned string, text as written."""

    start: int
    end: int
    text: str
    title: str | None  # lower-case title without its period ("mrs"), if any
    sex: str | None  # sex implied by the title alone

    @property
    def words(self) -> list[str]:
        return self.text.split()


def _key(tok: str) -> str:
    return tok.rstrip(".,").lower()


def find_names(text: str, offset: int = 0) -> list[Name]:
    """Every plausible personal name in `text`, spans shifted by `offset`."""
    out: list[Name] = []
    for run in _RUN.finditer(text):
        toks = [(m.start() + run.start(), m.end() + run.start(), m.group())
                for m in _WORD.finditer(run.group())]
        _split_run(text, toks, offset, out)
    return out


def _split_run(text: str, toks: list[tuple[int, int, str]], offset: int, out: list[Name]) -> None:
    seg: list[tuple[int, int, str]] = []
    for tok in [*toks, (0, 0, "")]:
        k = _key(tok[2])
        is_title = k in _TITLE_ONLY and (tok[2].endswith(".") or k in ("miss", "mrs", "mr"))
        if is_title and seg:  # a title opens a new name ("Mr. Smith Mrs. Jones")
            _emit(text, seg, offset, out)
            seg = []
        initial = len(tok[2]) == 2 and tok[2][1] == "."
        if len(tok[2]) == 1:  # a capital without a period is OCR debris, not an initial
            _emit(text, seg, offset, out)
            seg = []
            continue
        if not tok[2] or (k in STOP and not is_title and not initial and k not in ("jr", "sr")):
            _emit(text, seg, offset, out)
            seg = []
            continue
        seg.append(tok)
    return None


def _emit(text: str, seg: list[tuple[int, int, str]], offset: int, out: list[Name]) -> None:
    if not seg:
        return
    title = None
    k0 = _key(seg[0][2])
    if k0 in _TITLE_ONLY or k0 in ("mother", "father", "sister", "brother", "widow"):
        title = k0
    body = seg[1:] if title else seg
    # Trailing initials or particles cannot end a name.
    while body and (len(body[-1][2].rstrip(".")) == 1 or body[-1][2].islower()):
        body = body[:-1]
    if not body:
        return
    words = [t[2] for t in body]
    real = [w for w in words if len(w.rstrip(".")) > 1 and w[0].isupper()]
    if not real:
        return
    if title is None and (len(body) < 2 or not real):
        return
    if title is None and any(w.isupper() and len(w) > 2 for w in words):
        return  # ALL-CAPS headline words are not reliable names
    last = body[-1][2]
    if _key(last) in _GIVEN_ABBR:
        return
    start = seg[0][0]
    end = body[-1][1]
    if _DATELINE.match(text, end):
        return  # "Battle Creek, Mich., Jan. 5" is a dateline place
    brk = _BROKEN.match(text, end)
    if brk and (brk.group()[0] == "-" or brk.group(1) not in STOP):
        return  # the last word runs on to the next line: a broken word, so a partial name
    raw = text[start:end]
    if raw.endswith(".") and _key(last) not in ("jr", "sr") and len(last) > 3:
        end -= 1  # sentence-final period, not part of the name
        raw = raw[:-1]
    out.append(Name(start + offset, end + offset, raw, title, TITLES.get(title) if title else None))


def strip_title(name: str) -> str:
    """The name without a leading title ("Mrs. John Smith" -> "John Smith")."""
    parts = name.split(None, 1)
    if len(parts) == 2 and _key(parts[0]) in TITLES:
        return parts[1]
    return name


def surname(name: str) -> str:
    """Last word that is not a generational suffix."""
    words = [w for w in strip_title(normalise(name)).replace(",", " ").split()
             if _key(w) not in ("jr", "sr")]
    return words[-1] if words else ""


def person_key(name: str) -> str:
    """Identity key within one document: folded, case-folded, 'Mr.' dropped, 'Mrs.' kept."""
    f = normalise(name).replace(",", "").lower().replace(".", "")
    for t in ("mr ", "dr ", "rev ", "miss ", "capt ", "col ", "hon ", "prof "):
        if f.startswith(t):
            f = f[len(t):]
            break
    return f
