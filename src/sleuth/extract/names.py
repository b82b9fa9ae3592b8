"""Person-name spotting in title-case prose (newspapers, obituaries); `person_names` takes a
name apart.

Names are found as runs of capitalised tokens, then cut at words that are never part of a
personal name (weekdays, months, church words, pronouns). The spotter over-generates on
purpose: only names that fill a role in a sentence pattern become people, so "Grand Rapids"
is harmless until something says Grand Rapids was born.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from sleuth.extract.given import PLACE_PREFIXES, SAINT_GIVEN, is_given, possessive_owner
from sleuth.extract.person_names import TITLES, is_initial, token_key

_EXT = [chr(i) for i in range(0x100, 0x250)]


# Letter classes for names beyond Latin-1 ("Šilinskis", "Łódź", "Coșcodan"): Latin
# Extended-A/B capitals and small letters, listed explicitly since `re` has no \p{Lu}.
UPPER = "A-ZÀ-ÖØ-Þ" + "".join(c for c in _EXT if c.isupper())


LOWER = "a-zß-öø-ÿ" + "".join(c for c in _EXT if c.islower())


def uni(pattern: str) -> str:
    """`pattern` with its Latin-1 letter ranges widened to `UPPER` / `LOWER`."""
    return pattern.replace("a-zà-ÿ", LOWER).replace("à-ÿ", LOWER[3:]).replace(
        "A-ZÀ-Þ", UPPER).replace("À-Þ", UPPER[3:])


# Titles that precede a name only when written as a title (never as a plain word).
_TITLE_ONLY = {"mr", "mrs", "miss", "ms", "messrs", "dr", "rev", "prof", "capt", "col", "gen",
               "maj", "lieut", "lt", "sgt", "hon", "mme", "mlle", "madame", "sir", "dame"}


# ("tho": the OCR's "The" at a sentence's start, "X. H.\nTho deceased was bom")
STOP = frozenset(
    [
        "the", "tho", "a", "an", "he", "she", "his", "her", "him", "it", "its", "they", "them",
        "their",
        "we", "our", "i", "you", "in", "on", "at", "of", "and", "for", "to", "by", "with", "from",
        "as", "but", "or", "nor", "not", "this", "that", "these", "those", "there", "here", "when",
        "where", "who", "whom", "which", "what", "while", "after", "before", "during", "since",
        "until", "upon", "into", "about", "than", "then", "was", "were", "is", "are", "be", "been",
        "had", "has", "have", "will", "would", "shall", "should", "may", "might", "can", "could",
        "did", "do", "does", "died", "born", "married", "funeral", "burial", "interment",
        "deceased", "late", "death", "obituary", "besides", "among", "monday", "tuesday",
        "wednesday", "thursday",
        "friday", "saturday", "sunday", "january", "february", "march", "april", "june", "july",
        "august", "september", "october", "november", "december", "jan", "feb", "mar", "apr",
        "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec", "church", "chapel", "cemetery",
        "county", "co", "street", "st", "avenue", "ave", "road", "township", "city", "town",
        "village", "state", "states", "river", "lake", "company", "hotel", "hall", "school",
        "college", "university", "hospital", "home", "farm", "station", "baptist", "methodist",
        "presbyterian", "catholic", "lutheran", "episcopal", "christian", "congregational",
        "society", "lodge", "club", "bank", "court", "house", "senate", "congress", "department",
        "association", "union", "railroad", "railway", "north", "south", "east", "west", "new",
        "national", "american", "republican",
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
        "lived", "resided", "being", "so", "says", "said",
        # a headline's verb after the name ("Newell T. Wilcoxon Injured.")
        "injured", "killed", "drowned", "weds", "dies", "arrested", "elected", "missing",
        # offices written before a name ("Treasurer John W. Malonoy"): not part of it
        "treasurer", "manager", "editor", "pianist", "organist", "chorister", "soloist",
        "emperor", "empress", "king", "queen", "kaiser", "czar", "tsar", "chairman",
        "superintendent", "supt",
        # newspapers' names ("Dayton News", "Rockford Press")
        "news", "times", "herald", "tribune", "journal", "gazette", "chronicle", "bulletin",
        "advocate", "reporter", "courier", "dispatch",
        # the English first words of places' names ("Fort Wayne", "St. Louis")
        *(PLACE_PREFIXES - SAINT_GIVEN),
    ]
)


# The rest of a name word: hyphenated parts, and a part OCR broke at a line end with a
# hyphen ("Matt-\nhew"), which the firewall reads as one word.
_TAIL = r"(?:[-'’][A-ZÀ-Þ]?[a-zà-ÿ]+|-[ \t]*\n[ \t]*[a-zà-ÿ]+)*\.?"


# A run of candidate tokens separated by at most one line break.
_RUN = re.compile(uni(
    r"(?=[A-ZÀ-Þvdlt])"  # (what a run can start with: lets `re` skip the rest quickly)
    r"(?:(?:Mc|Mac|O['’]|D['’])?[A-ZÀ-Þ][a-zà-ÿ]*(?:[A-Z][a-z]{2,})?" + _TAIL +
    r"|(?<![\w'’])(?:van|von|de|du|der|la|le|den|ten|ter)(?=[ \t]+[A-Z]))"
    # ("R. II. Dudley": the OCR's "II." for a middle initial "H.")
    r"(?:(?:[ \t]{1,3}\n?[ \t]*|\n[ \t]*)(?:II\.(?=[ \t]{1,3}\n?[ \t]*[A-Z])"
    r"|(?:Mc|Mac|O['’]|D['’])?[A-ZÀ-Þ][a-zà-ÿ]*"
    r"(?:[A-Z][a-z]{2,})?" + _TAIL +
    r"|(?:van|von|de|du|der|la|le|den|ten|ter)(?=[ \t]+[A-Z])))"
    r"{0,7}(?:,?[ \t]+(?:Jr|Sr)\b\.?)?"
))


_WORD = re.compile(r"\S+?-[ \t]*\n[ \t]*[a-zà-ÿ]\S*|\S+")  # "Matt-\nhew" is one word


_BROKEN = re.compile(r"-?[ \t]*\n[ \t]*([a-z]+)")


_DATELINE = re.compile(
    r",\s*(?:(?P<state>Mass|Mich|Pa|Mo|N\.\s?Y|Ill|Ind|Ohio|Iowa|Kan|Kans|Neb|Tenn|Ky|Va|Vt|Me"
    r"|Conn|Md|Cal|Colo|Wis|Minn|Tex|Ark|Ala|Ga|Miss|La|Fla|Okla|Ore|Wash|N\.\s?[HJCD]|S\.\s?[CD]"
    r"|R\.\s?I|Del|W\.\s?Va|Mont|Wyo|Ida|Utah|Nev|Ariz|N\.\s?M)\.|(?:Jan|Feb|Mar|Apr|May|June"
    r"|July|Aug|Sept?|Oct|Nov|Dec)[a-z]*\.?\s+\d)"
)


_GIVEN_ABBR = frozenset(
    [
        "geo", "chas", "wm", "jas", "jno", "thos", "jos", "benj", "saml", "robt", "edw", "alex",
        "fred", "danl", "wm.", "hy", "theo"
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


def find_names(text: str, offset: int = 0) -> list[Name]:
    """Every plausible personal name in `text`, spans shifted by `offset`."""
    out: list[Name] = []
    for run in _RUN.finditer(text):
        if not _SPACE.search(run.group()):
            continue  # one word: no name without a title, and a title alone is none
        toks = [(m.start() + run.start(), m.end() + run.start(), m.group())
                for m in _WORD.finditer(run.group())]
        _split_run(text, toks, offset, out)
    for i, n in enumerate(out):
        s = n.start - offset
        if n.title is None and _INITIAL_START.match(n.text) and _COMMA_INITIAL.search(
                text, max(0, s - 4), s):
            # "F, M. Day, an old resident": the OCR read the first initial's period as a
            # comma (a lone capital and a comma is no word)
            out[i] = Name(n.start - 3, n.end, text[s - 3:n.end - offset], None, None)
    return out


_SPACE = re.compile(r"\s")


_INITIAL_START = re.compile(r"[A-Z]\.[ \t]")


_COMMA_INITIAL = re.compile(r"(?:^|(?<=[\s\"'(]))[A-Z],[ \t]$")


def _split_run(text: str, toks: list[tuple[int, int, str]], offset: int, out: list[Name]) -> None:
    seg: list[tuple[int, int, str]] = []
    padded = [*toks, (0, 0, "")]
    for i, tok in enumerate(padded):
        k = token_key(tok[2])
        if k in _MONTH_GIVEN and not seg and is_initial(padded[i + 1][2]) and i + 2 < len(
                padded) and padded[i + 2][2][:1].isupper():
            seg.append(tok)  # "August H. Henke": a month's name as a given name
            continue
        if k == "irs" and not seg and tok[2] == "Irs.":
            continue  # "Irs. Marv Catherine Lynch": "Mrs." whose "M" the OCR lost, no name
        if k in _WORD_GIVEN and not seg and _given_here(text, toks, i):
            seg.append(tok)  # "ills, Young\nEwing, a prominent member": a given name here
            continue
        is_title = k in _TITLE_ONLY and (tok[2].endswith(".") or k in ("miss", "mrs", "mr"))
        if is_title and seg:  # a title opens a new name ("Mr. Smith Mrs. Jones")
            _emit(text, seg, offset, out)
            seg = []
        initial = is_initial(tok[2])
        if len(tok[2]) == 1:  # a capital without a period is OCR debris, not an initial
            _emit(text, seg, offset, out)
            seg = []
            continue
        if not tok[2] or (k in STOP and not is_title and not initial and k not in ("jr", "sr")):
            if k in _GIVEN_WORDS and len(seg) == 1 and token_key(seg[0][2]) in _TITLE_ONLY and (
                    padded[i + 1][2][:1].isupper() and token_key(padded[i + 1][2]) not in STOP):
                seg.append(tok)  # "Mrs. Will Lock", "Mrs. May Wilson": a given name here
                continue
            if k in _SURNAME_WORDS and _wants_surname(seg):
                seg.append(tok)  # "Mrs. John Young", "Mrs. Sarah W. Lake": a surname here
                _emit(text, seg, offset, out)
                seg = []
                continue
            _emit(text, seg, offset, out)
            seg = []
            continue
        if _new_name(seg, tok[2], initial, text, tok[0]):
            _emit(text, seg, offset, out)
            seg = []
        seg.append(tok)
        if possessive_owner(tok[2]) is not None:  # a name ends at its possessive
            _emit(text, seg, offset, out)  # ("Mrs. Brookhart's husband"; "Joseph's Church")
            seg = []
    return None


_MONTH_GIVEN = frozenset({"august", "june", "april", "may"})


# Words `STOP` keeps out of names that are given names too ("Young Ewing"): one in capitals
# inside a sentence (not where a sentence or line of a heading starts), before one more
# capitalised word that ends the name at a comma, names a person ("ills, Young\nEwing, a
# prominent member"); "young Smith" in prose is written in small letters.
_WORD_GIVEN = frozenset({"young"})
_MID = re.compile(r"[a-z0-9][,;]?[ \t]*\n?[ \t]*$")


def _given_here(text: str, toks: list[tuple[int, int, str]], i: int) -> bool:
    if i + 2 != len(toks) or i != 0:
        return False
    nxt = toks[i + 1][2]
    s = toks[i][0]
    return (nxt[:1].isupper() and nxt[1:].islower() and token_key(nxt) not in STOP
            and text.startswith(",", toks[i + 1][1])
            and _MID.search(text, max(0, s - 4), s) is not None)


# Words `STOP` keeps out of names that are common surnames too: after a title and given
# names or initials ("Mrs. John Young", "J. W. Day") nothing else can be meant.
_SURNAME_WORDS = frozenset({"young", "little", "lake", "day", "west", "north", "south", "east",
                            "hall", "king", "church", "house", "street", "court", "lord"})


# Words `STOP` keeps out of names that are given names too ("Will" for William): right
# after a title and before a surname nothing else can be meant.
_GIVEN_WORDS = frozenset({"will", "may"})


def _wants_surname(seg: list[tuple[int, int, str]]) -> bool:
    """Is `seg` a title or given names and initials still waiting for its surname?"""
    titled = bool(seg) and token_key(seg[0][2]) in _TITLE_ONLY
    body = seg[1:] if titled else seg
    if not body:
        return titled  # "Mrs. Young was"
    return all(is_initial(t[2]) or is_given(t[2]) for t in body)


def _new_name(seg: list[tuple[int, int, str]], word: str, initial: bool, text: str | None = None,
              pos: int = 0) -> bool:
    """'K. G. Trout C. E. Simons', 'Robert T. Phillips Alexander Keon': names listed without
    commas. A new name starts at an initial, or at a given name after "X. Surname", that
    follows a surname; after a given name an initial is a middle initial ("Mary Ann T.")."""
    body = seg[1:] if seg and token_key(seg[0][2]) in TITLES else seg
    if (len(body) >= 2 and body is seg and all(is_initial(t[2]) for t in body)
            and is_given(word) and not initial and text is not None
            and ("\n" in text[body[-1][1]:pos]
                 or text[max(0, body[0][0] - 2):body[0][0]].startswith(","))):
        return True  # "Redfield, S. D.\nBen N. Benson", "Silver City, N. M. Susan E. Fox": a state
    if len(body) < 2 or not (is_initial(body[0][2]) or is_given(body[0][2])):
        return False  # "Prosecuting Attorney B. A. Myers": what comes before is no name
    last = body[-1][2]
    if len(last.rstrip(".")) < 2 or is_initial(last) or not last[:1].isupper() or is_given(last):
        return False
    if initial:
        return True
    return is_initial(body[-2][2]) and is_given(word)


def _emit(text: str, seg: list[tuple[int, int, str]], offset: int, out: list[Name]) -> None:
    if not seg:
        return
    title = None
    k0 = token_key(seg[0][2])
    if k0 in ("misses", "messrs"):  # "Misses Grace, Oma and Virginia Garrett": the title
        seg = seg[1:]  # of the whole list, not a part of its first name
        if not seg:
            return
        k0 = token_key(seg[0][2])
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
    if title is None and any(w.isupper() and len(w) > 2 and w != "II." for w in words):
        return  # ALL-CAPS headline words are not reliable names
    last = body[-1][2]
    if token_key(last) in _GIVEN_ABBR:
        return
    start = seg[0][0]
    end = body[-1][1]
    dl = _DATELINE.match(text, end)
    if dl and (dl.group("state") or not text[max(0, start - 40):start].rstrip(" \t").endswith(
            ("to", "of", "by", "and", "with", "married", "wed"))):
        return  # "Battle Creek, Mich., Jan. 5" is a dateline place; "married to J. H.
        # Stanley, July 21, 1875" names a person
    # (a possessive ends the word: "Brookhart's\nhusband" is no word the line end broke)
    brk = None if possessive_owner(last) is not None else _BROKEN.match(text, end)
    if brk and brk.group()[0] == "-":
        # "Hix-\non": a hyphen at the line end joins the word (as the firewall reads it too),
        # so the name runs on to the next line and ends there.
        end = brk.end()
    elif brk and brk.group(1) not in STOP and brk.group()[0] not in " \t":
        # (not "Mrs. William Clyne \noccurred": the reading view's joined "oc|curred" after
        # a blank; a word the line end broke has no blank before the break)
        # "Rib\nblet": broken with no hyphen. Read as written it would be two words the
        # firewall cannot join, so the name is left out rather than cut short.
        return
    raw = text[start:end]
    owner = possessive_owner(raw)
    if owner is not None:  # the person, not the possessive: "Mrs. Brookhart"
        end -= 2
        raw = owner
    elif raw.endswith(".") and token_key(last) not in ("jr", "sr") and len(last) > 3:
        end -= 1  # sentence-final period, not part of the name
        raw = raw[:-1]
    out.append(Name(start + offset, end + offset, raw, title, TITLES.get(title) if title else None))
