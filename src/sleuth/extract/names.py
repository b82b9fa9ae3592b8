"""Person-name spotting and splitting for title-case prose (newspapers, obituaries).

Names are found as runs of capitalised tokens, then cut at words that are never part of a
personal name (weekdays, months, church words, pronouns). The spotter over-generates on
purpose: only names that fill a role in a sentence pattern become people, so "Grand Rapids"
is harmless until something says Grand Rapids was born.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from sleuth.extract import nicknames as _nick
from sleuth.extract.given import is_given
from sleuth.verify.normalise import normalise

_EXT = [chr(i) for i in range(0x100, 0x250)]
# Letter classes for names beyond Latin-1 ("Šilinskis", "Łódź", "Coșcodan"): Latin
# Extended-A/B capitals and small letters, listed explicitly since `re` has no \p{Lu}.
UPPER = "A-ZÀ-ÖØ-Þ" + "".join(c for c in _EXT if c.isupper())
LOWER = "a-zß-öø-ÿ" + "".join(c for c in _EXT if c.islower())


def uni(pattern: str) -> str:
    """`pattern` with its Latin-1 letter ranges widened to `UPPER` / `LOWER`."""
    return pattern.replace("a-zà-ÿ", LOWER).replace("à-ÿ", LOWER[3:]).replace(
        "A-ZÀ-Þ", UPPER).replace("À-Þ", UPPER[3:])


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


def _key(tok: str) -> str:
    return tok.rstrip(".,").lower()


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
        k = _key(tok[2])
        if k in _MONTH_GIVEN and not seg and _is_initial(padded[i + 1][2]) and i + 2 < len(
                padded) and padded[i + 2][2][:1].isupper():
            seg.append(tok)  # "August H. Henke": a month's name as a given name
            continue
        is_title = k in _TITLE_ONLY and (tok[2].endswith(".") or k in ("miss", "mrs", "mr"))
        if is_title and seg:  # a title opens a new name ("Mr. Smith Mrs. Jones")
            _emit(text, seg, offset, out)
            seg = []
        initial = _is_initial(tok[2])
        if len(tok[2]) == 1:  # a capital without a period is OCR debris, not an initial
            _emit(text, seg, offset, out)
            seg = []
            continue
        if not tok[2] or (k in STOP and not is_title and not initial and k not in ("jr", "sr")):
            if k in _GIVEN_WORDS and len(seg) == 1 and _key(seg[0][2]) in _TITLE_ONLY and (
                    padded[i + 1][2][:1].isupper() and _key(padded[i + 1][2]) not in STOP):
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
    return None


_MONTH_GIVEN = frozenset({"august", "june", "april", "may"})
# Words `STOP` keeps out of names that are common surnames too: after a title and given
# names or initials ("Mrs. John Young", "J. W. Day") nothing else can be meant.
_SURNAME_WORDS = frozenset({"young", "little", "lake", "day", "west", "north", "south", "east",
                            "hall", "king", "church", "house", "street", "court", "lord"})


# Words `STOP` keeps out of names that are given names too ("Will" for William): right
# after a title and before a surname nothing else can be meant.
_GIVEN_WORDS = frozenset({"will", "may"})


def _wants_surname(seg: list[tuple[int, int, str]]) -> bool:
    """Is `seg` a title or given names and initials still waiting for its surname?"""
    titled = bool(seg) and _key(seg[0][2]) in _TITLE_ONLY
    body = seg[1:] if titled else seg
    if not body:
        return titled  # "Mrs. Young was"
    return all(_is_initial(t[2]) or is_given(t[2]) for t in body)


def _new_name(seg: list[tuple[int, int, str]], word: str, initial: bool, text: str | None = None,
              pos: int = 0) -> bool:
    """'K. G. Trout C. E. Simons', 'Robert T. Phillips Alexander Keon': names listed without
    commas. A new name starts at an initial, or at a given name after "X. Surname", that
    follows a surname; after a given name an initial is a middle initial ("Mary Ann T.")."""
    body = seg[1:] if seg and _key(seg[0][2]) in TITLES else seg
    if (len(body) >= 2 and body is seg and all(_is_initial(t[2]) for t in body)
            and is_given(word) and not initial and text is not None
            and ("\n" in text[body[-1][1]:pos]
                 or text[max(0, body[0][0] - 2):body[0][0]].startswith(","))):
        return True  # "Redfield, S. D.\nBen N. Benson", "Silver City, N. M. Susan E. Fox": a state
    if len(body) < 2 or not (_is_initial(body[0][2]) or is_given(body[0][2])):
        return False  # "Prosecuting Attorney B. A. Myers": what comes before is no name
    last = body[-1][2]
    if len(last.rstrip(".")) < 2 or _is_initial(last) or not last[:1].isupper() or is_given(last):
        return False
    if initial:
        return True
    return _is_initial(body[-2][2]) and is_given(word)


def _emit(text: str, seg: list[tuple[int, int, str]], offset: int, out: list[Name]) -> None:
    if not seg:
        return
    title = None
    k0 = _key(seg[0][2])
    if k0 in ("misses", "messrs"):  # "Misses Grace, Oma and Virginia Garrett": the title
        seg = seg[1:]  # of the whole list, not a part of its first name
        if not seg:
            return
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
    if title is None and any(w.isupper() and len(w) > 2 and w != "II." for w in words):
        return  # ALL-CAPS headline words are not reliable names
    last = body[-1][2]
    if _key(last) in _GIVEN_ABBR:
        return
    start = seg[0][0]
    end = body[-1][1]
    dl = _DATELINE.match(text, end)
    if dl and (dl.group("state") or not text[max(0, start - 40):start].rstrip(" \t").endswith(
            ("to", "of", "by", "and", "with", "married", "wed"))):
        return  # "Battle Creek, Mich., Jan. 5" is a dateline place; "married to J. H.
        # Stanley, July 21, 1875" names a person
    brk = _BROKEN.match(text, end)
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


# --- Structured name parsing -----------------------------------------------------------------
# A written name is split into title, given names, nickname, surname, suffix and maiden name,
# keeping what was written beside its normalised reading: "Wm." stays "Wm." and reads
# "William". Nothing is guessed: "Mary Jones Smith" keeps Jones as a middle name, because
# it may as well be one.

_MAX_NAME = 200  # longer strings are not names; parsing is bounded to this prefix

_TITLE_CANON = {
    "mr": "Mr.", "mrs": "Mrs.", "miss": "Miss", "ms": "Ms.", "messrs": "Messrs.", "dr": "Dr.",
    "doctor": "Dr.", "rev": "Rev.", "revd": "Rev.", "reverend": "Rev.", "prof": "Prof.",
    "professor": "Prof.", "capt": "Capt.", "captain": "Capt.", "col": "Col.",
    "colonel": "Col.", "gen": "Gen.", "general": "Gen.", "maj": "Maj.", "major": "Maj.",
    "lieut": "Lieut.", "lt": "Lieut.", "lieutenant": "Lieut.", "sgt": "Sgt.",
    "sergeant": "Sgt.", "corp": "Corp.", "cpl": "Corp.", "pvt": "Pvt.", "private": "Pvt.",
    "hon": "Hon.", "honorable": "Hon.", "honourable": "Hon.", "judge": "Judge",
    "elder": "Elder", "deacon": "Deacon", "dea": "Deacon", "gov": "Gov.", "governor": "Gov.",
    "sen": "Sen.", "senator": "Sen.", "bishop": "Bishop", "sir": "Sir", "dame": "Dame",
    "lady": "Lady", "lord": "Lord", "squire": "Squire", "mme": "Mme.", "madame": "Mme.",
    "mlle": "Mlle.", "father": "Father", "sister": "Sister", "brother": "Brother",
    "mother": "Mother", "aunt": "Aunt", "uncle": "Uncle", "widow": "Widow", "wid": "Widow",
    "master": "Master", "grandma": "Grandma", "grandpa": "Grandpa", "mister": "Mr.",
}
_TITLE_SEX = {"Mr.": "M", "Mrs.": "F", "Miss": "F", "Ms.": "F", "Mme.": "F", "Mlle.": "F",
              "Sir": "M", "Dame": "F", "Lady": "F", "Lord": "M", "Father": "M", "Sister": "F",
              "Brother": "M", "Mother": "F", "Aunt": "F", "Uncle": "M", "Widow": "F",
              "Master": "M", "Grandma": "F", "Grandpa": "M", "Squire": "M"}
# Titles often followed by a bare given name ("Aunt Mary", "Sister Agnes").
_GIVEN_TITLES = frozenset({"Miss", "Sister", "Brother", "Aunt", "Uncle", "Mother", "Father",
                           "Master", "Grandma", "Grandpa", "Sir", "Dame", "Lady"})
_SUFFIX_CANON = {
    "jr": "Jr.", "jun": "Jr.", "junr": "Jr.", "junior": "Jr.", "sr": "Sr.", "sen": "Sr.",
    "senr": "Sr.", "senior": "Sr.", "ii": "II", "iii": "III", "iv": "IV", "vi": "VI",
    "2nd": "II", "2d": "II", "3rd": "III", "3d": "III", "4th": "IV", "esq": "Esq.",
    "esqr": "Esq.", "esquire": "Esq.", "md": "M.D.", "dd": "D.D.", "phd": "Ph.D.",
    "gent": "Gent.", "jp": "J.P.",
}
_PARTICLES = frozenset({"van", "von", "de", "del", "della", "di", "da", "du", "der", "den",
                        "la", "le", "ten", "ter", "dos", "das", "st", "ste", "af", "zu", "vom",
                        "y", "bin", "ibn", "al", "ap", "fitz", "d'", "d’", "l'", "des", "dei",
                        "op", "het", "verch", "ferch"})
_MARRIED_TITLES = frozenset({"Mrs.", "Mme.", "Widow"})
_QUOTED = re.compile(r"[\"“”„']([^\"“”„']{1,40})[\"“”„']|‘([^’]{1,40})’")
_PAREN = re.compile(r"\(([^()]{1,60})\)|\[([^\[\]]{1,60})\]")
_MAIDEN = re.compile(
    r"(?:,\s*)?\b(?:n[ée]e|geb\.?|geborene|born|formerly(?:\s+(?:Miss|Mrs\.?))?|maiden\s+name)"
    r"\s+((?:[A-ZÀ-Þ][\w'’-]{0,30}\.?\s*){1,3})",
    re.IGNORECASE,
)
_SLASH = re.compile(r"^([^/]*)/([^/]*)/(.*)$")
_TOKEN = re.compile(r"[^\s,]+")


@dataclass(frozen=True, slots=True)
class PersonName:
    """One written personal name, parsed; `text` is exactly what was given."""

    text: str
    titles: tuple[str, ...] = ()  # canonical ("Rev.", "Dr.")
    given: tuple[str, ...] = ()  # as written ("Wm.", "H.")
    given_normalised: tuple[str, ...] = ()  # abbreviations expanded ("William", "H.")
    surname: str | None = None  # case-normalised, particles included ("van Buren")
    surname_verbatim: str | None = None
    suffix: str | None = None  # canonical ("Jr.", "III", "Esq.")
    maiden: str | None = None  # birth surname when the text states it
    nicknames: tuple[str, ...] = ()
    husband_given: tuple[str, ...] = ()  # "Mrs. John Smith": the husband's given names

    @property
    def surname_core(self) -> str | None:
        """The surname without leading particles ("van Buren" -> "Buren"), for indexing."""
        if not self.surname:
            return None
        words = self.surname.split()
        while len(words) > 1 and words[0].rstrip(".").lower() in _PARTICLES:
            words = words[1:]
        return " ".join(words)

    @property
    def title(self) -> str | None:
        return self.titles[0] if self.titles else None

    @property
    def is_married_reference(self) -> bool:
        """True for "Mrs. John Smith": the given names are the husband's, not hers."""
        return bool(self.husband_given)

    @property
    def husband_name(self) -> str | None:
        if not self.husband_given:
            return None
        return " ".join([*self.husband_given, *([self.surname] if self.surname else [])])

    @property
    def initials(self) -> str:
        return "".join(g[0].upper() for g in self.given_normalised if g)

    @property
    def is_couple(self) -> bool:
        """True for "Mr. and Mrs. John Smith": the name stands for a husband and wife."""
        return "Mr." in self.titles and "Mrs." in self.titles

    @property
    def sex(self) -> str | None:
        """Sex implied by the title, a married reference, a maiden name or the first given."""
        if self.is_couple:
            return None
        for t in self.titles:
            if t in _TITLE_SEX:
                return _TITLE_SEX[t]
        if self.husband_given or self.maiden:
            return "F"
        if self.given_normalised:
            return _nick.SEX.get(self.given_normalised[0].rstrip(".").lower())
        return None

    @property
    def display(self) -> str:
        """Normalised reading without titles: "William H. Smith Jr." (or "Mrs. John Smith")."""
        if self.husband_given:
            return " ".join(["Mrs.", self.husband_name or ""]).strip()
        parts = [*self.given_normalised, *([self.surname] if self.surname else [])]
        if self.suffix:
            parts.append(self.suffix)
        return " ".join(parts)


def _fix_case(word: str) -> str:
    """Title-case an ALL-CAPS or all-lower word, keeping Mc/Mac/O' and hyphen capitals."""
    if word[:2] == "Mc" and len(word) > 3 and word[2:].isupper():
        word = word.upper()
    if not (word.isupper() or word.islower()) or len(word) < 2:
        return word
    out = "-".join(p[:1].upper() + p[1:].lower() for p in word.split("-"))
    if out.startswith("Mc") and len(out) > 2:
        out = "Mc" + out[2].upper() + out[3:]
    elif len(out) > 2 and out[1] in "'’":
        out = out[:2] + out[2].upper() + out[3:]
    return out


_ROMAN = re.compile(r"[IVX]+\.?")


def display_case(name: str) -> str:
    """A name as a reader writes it: "Susannah WHITTICK" (a register's capitals) reads
    "Susannah Whittick"; regnal numbers ("Henry VIII") and mixed-case words stay."""
    return " ".join(w if _ROMAN.fullmatch(w) else _fix_case(w) for w in name.split(" "))


def normalise_given(token: str) -> str:
    """A given-name token read in full: "Wm." -> "William", "J." -> "J.", "JOHN" -> "John"."""
    bare = token.rstrip(".").strip("'’")
    k = bare.lower()
    if len(bare) == 1 and bare.isalpha():
        return bare.upper() + "."
    written_short = token.endswith(".") or "'" in bare or "’" in bare
    full = _nick.ABBREVIATIONS.get(k.replace("’", "'"))
    if full and (written_short or k.replace("’", "'") in _nick.CLERICAL):
        return full
    return _fix_case(bare if token.endswith(".") and len(bare) > 1 else token)


def _is_initial(tok: str) -> bool:
    return (len(tok) == 2 and tok[0].isalpha() and tok[1] == ".") or tok == "II."


def _suffix(tok: str) -> str | None:
    return _SUFFIX_CANON.get(tok.replace(".", "").lower())


def _title(tok: str) -> str | None:
    return _TITLE_CANON.get(tok.rstrip(".").lower())


@lru_cache(maxsize=65536)
def parse_name(text: str) -> PersonName:
    """Parse one personal name as written in a record, tree or newspaper.

    Handles titles, suffixes, initials, clerks' abbreviations, quoted or bracketed
    nicknames, "née"/"formerly Miss" and "(Jones)" maiden names, GEDCOM "John /Smith/" and
    surname-first "SMITH, John" forms, and "Mrs. John Smith" married references.
    """
    s = " ".join(text[:_MAX_NAME].split())
    nicknames: list[str] = []
    maiden: str | None = None
    # Quoted nicknames: William "Bill" Lee.
    for m in _QUOTED.finditer(s):
        nick = (m.group(1) or m.group(2) or "").strip()
        if nick and nick[0].isupper():
            nicknames.append(nick)
    s = _QUOTED.sub(" ", s)
    # Maiden-name markers: "née Jones", "formerly Miss Jones".
    marker = _MAIDEN.search(s)
    if marker:
        maiden = _fix_case(marker.group(1).split()[-1].rstrip(".,"))
        s = s[: marker.start()] + " " + s[marker.end():]
    # Parentheses: a known given name is a nickname, a single other word a maiden name.
    for m in _PAREN.finditer(s):
        inner = (m.group(1) or m.group(2) or "").strip()
        words = inner.split()
        if not words:
            continue
        if all(w.rstrip(".").lower() in _nick.GROUPS for w in words) and len(words) == 1:
            nicknames.append(inner)
        elif len(words) == 1 and maiden is None and words[0][:1].isupper():
            maiden = _fix_case(words[0].rstrip(".,"))
        else:
            nicknames.append(inner)
    s = _PAREN.sub(" ", s)
    s = " ".join(s.split())

    surname_tok: str | None = None
    given_part, tail_part = s, ""
    gm = _SLASH.match(s)
    if gm:  # GEDCOM: "John /Smith/ Jr."
        given_part, surname_tok, tail_part = gm.group(1), gm.group(2).strip() or None, gm.group(3)
    elif "," in s:
        head, _, rest = s.partition(",")
        rest_toks = _TOKEN.findall(rest)
        if rest_toks and all(_suffix(t) for t in rest_toks):
            given_part, tail_part = head, rest  # "John Smith, Jr."
        elif rest_toks and head.strip() and len(head.split()) <= 3:
            # Surname first: "SMITH, John" / "Smith, John W., Jr."
            surname_tok = head.strip()
            given_part = rest.replace(",", " ")
    toks = _TOKEN.findall(given_part)
    tail = _TOKEN.findall(tail_part)

    titles: list[str] = []
    while toks and (t := _title(toks[0])) and (len(toks) > 1 or surname_tok):
        titles.append(t)
        toks = toks[1:]
        if toks and toks[0].lower() in ("and", "&") and len(toks) > 1 and _title(toks[1]):
            toks = toks[1:]  # "Mr. and Mrs." names a couple under the husband's name
    suffix: str | None = None
    for bucket in (tail, toks):
        while bucket and _suffix(bucket[-1]) and (bucket is tail or len(bucket) > 1):
            suffix = suffix or _suffix(bucket[-1])
            bucket.pop()
    if surname_tok is None and toks:
        # "John SMITH" or "SMITH John": an all-caps word among mixed case marks the surname.
        caps = [i for i, t in enumerate(toks) if t.isupper() and len(t.rstrip(".")) > 1]
        mixed = [t for t in toks if not t.isupper()]
        if len(caps) == 1 and mixed and caps[0] in (0, len(toks) - 1):
            surname_tok = toks.pop(caps[0])
        elif _ends_without_surname(toks, titles):
            pass
        else:
            start = len(toks) - 1
            while start > 1 and toks[start - 1].rstrip(".").lower() in _PARTICLES:
                start -= 1
            surname_tok = " ".join(toks[start:])
            toks = toks[:start]
    given = tuple(toks)
    given_norm = tuple(normalise_given(t) for t in given)
    surname = " ".join(_fix_case(w) if w.rstrip(".").lower() not in _PARTICLES else w
                       for w in surname_tok.split()) if surname_tok else None
    husband: tuple[str, ...] = ()
    if (set(titles) & _MARRIED_TITLES and "Mr." not in titles and given_norm and surname
            and _nick.SEX.get(given_norm[0].lower()) == "M"):
        husband, given, given_norm = given_norm, (), ()
    return PersonName(
        text=text, titles=tuple(titles), given=given, given_normalised=given_norm,
        surname=surname, surname_verbatim=surname_tok, suffix=suffix, maiden=maiden,
        nicknames=tuple(nicknames), husband_given=husband,
    )


def _ends_without_surname(toks: list[str], titles: list[str]) -> bool:
    """True when no token can be a surname: "Wm. H.", or "Aunt Mary" / a lone given name."""
    last = toks[-1]
    if _is_initial(last):
        return True
    k = last.rstrip(".").lower()
    if last.endswith(".") and k in _nick.ABBREVIATIONS:
        return True
    if len(toks) == 1:
        known_given = k in _nick.GROUPS or k in _nick.SEX
        if titles:
            return known_given and any(t in _GIVEN_TITLES for t in titles)
        return known_given
    return False


def given_name_equivalent(a: str, b: str) -> bool:
    """True when two given names can denote the same person: equal after expanding clerks'
    abbreviations, or listed together as formal name / diminutive ("Wm." ~ "Bill", "Peggy" ~
    "Margaret"). Initials match any name with that first letter ("J." ~ "John").
    """
    x, y = normalise_given(a.strip()).rstrip(".").lower(), normalise_given(b.strip()).rstrip(".")
    y = y.lower()
    if not x or not y:
        return False
    if x == y:
        return True
    if len(x) == 1 or len(y) == 1:
        return x[0] == y[0]
    gx, gy = _nick.GROUPS.get(x), _nick.GROUPS.get(y)
    return bool(gx and gy and gx & gy)
