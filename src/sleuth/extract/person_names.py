"""A personal name taken apart: given names, surname, titles, suffixes, initials, nicknames
and maiden names (`parse_name`), the key persons are linked by (`person_key`), and
given-name equivalence ("Wm." is William, Polly is Mary)."""


from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from sleuth.extract import nicknames as _nick
from sleuth.verify.normalise import normalise

TITLES = {
    "mr": "M", "mrs": "F", "miss": "F", "ms": "F", "messrs": None, "dr": None, "rev": None,
    "prof": None, "capt": "M", "col": "M", "gen": "M", "maj": "M", "lieut": "M", "lt": "M",
    "sgt": "M", "hon": None, "judge": None, "elder": None, "mme": "F", "mlle": "F",
    "madame": "F", "sir": "M", "dame": "F", "lady": "F", "lord": "M", "mother": "F",
    "father": "M", "sister": "F", "brother": "M", "uncle": "M", "aunt": "F", "grandma": "F",
    "grandpa": "M", "squire": "M", "esq": "M", "widow": "F",
}


def token_key(tok: str) -> str:
    """A token as names are compared: lower case, without a trailing stop or comma."""
    return tok.rstrip(".,").lower()


def strip_title(name: str) -> str:
    """The name without a leading title ("Mrs. John Smith" -> "John Smith")."""
    parts = name.split(None, 1)
    if len(parts) == 2 and token_key(parts[0]) in TITLES:
        return parts[1]
    return name


def surname(name: str) -> str:
    """Last word that is not a generational suffix."""
    words = [w for w in strip_title(normalise(name)).replace(",", " ").split()
             if token_key(w) not in ("jr", "sr")]
    return words[-1] if words else ""


def person_key(name: str) -> str:
    """Identity key within one document: folded, case-folded, 'Mr.' dropped, 'Mrs.' kept."""
    f = normalise(name).replace(",", "").lower().replace(".", "")
    for t in ("mr ", "dr ", "rev ", "miss ", "capt ", "col ", "hon ", "prof "):
        if f.startswith(t):
            f = f[len(t):]
            break
    return f


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


def is_initial(tok: str) -> bool:
    """"J." (and "II." as written for a second son)."""
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
    if is_initial(last):
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
