"""Per-document state: sentence spans, local person keys, and grounded candidate building.

Every candidate leaves through `Doc.emit`, which slices its excerpt from the input text, so
the firewall invariant `excerpt == text[start:end]` holds by construction rather than by care,
and then runs the real firewall (`sleuth.verify.check_candidate`) on it: a rule the firewall
would reject is never emitted, and there is no second copy of its rules here to drift.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from difflib import SequenceMatcher

from sleuth.extract.given import is_personal_name
from sleuth.extract.person_names import TITLES, person_key, strip_title
from sleuth.extract.reading import reading_view
from sleuth.model.citation import Citation, EvidenceType, Locator
from sleuth.model.dates import GenDate
from sleuth.model.records import Candidate
from sleuth.verify.firewall import Source, Violation, check_candidate
from sleuth.verify.normalise import fold, normalise

MAX_SENTENCE = 600
MAX_EXCERPT = 400
_BOUNDARY = re.compile(r"[.!?]['\")\]]*[ \t]*\n?\s+|\n[ \t]*\n\s*| \.\s+")
_NO_SPLIT = frozenset(
    [
        "mr", "mrs", "ms", "messrs", "dr", "rev", "st", "mt", "ft", "prof", "capt", "col", "gen",
        "maj", "lieut", "lt", "sgt", "hon", "jr", "sr", "co", "no", "vs", "esq", "geo", "chas",
        "wm", "jas", "jno", "thos", "jos", "benj", "saml", "robt", "edw", "alex", "danl", "jan",
        "feb", "mar", "apr", "aug", "sep", "sept", "oct", "nov", "dec", "twp", "inst", "ult",
        "prox", "bro", "bros", "messrs", "mme", "mlle", "gov", "sen", "rep", "supt", "theo"
    ]
)
_CLAUSE = re.compile(r"[,;:\n]")
_HINT_WORD = re.compile(r"[^\W\d_][\w'’-]*")
_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*")
_SMALL = frozenset({"of", "the", "and", "a", "an", "in", "on", "at", "to", "for", "by", "who",
                    "with", "from"})


def headline(text: str, s: int, e: int) -> bool:
    """A headline in title case ("Short Sketches of the Lives of Persons Who Have Recently
    Passed Away."): its capitalised words are not names the sentence states, so the name
    gate asks for a given name there (issue 20: "Short Sketches" died)."""
    words = [w for w in _WORD.findall(text, s, min(e, s + 400)) if w.lower() not in _SMALL]
    if len(words) < 5:
        return False
    capital = sum(1 for w in words if w[0].isupper())
    return capital >= 0.8 * len(words) and any(w[1:].islower() for w in words if len(w) > 1)


_STREET = re.compile(r"[ \t]*\n?[ \t]*(?:street|st\.|avenue|ave\.|road|boulevard|lane)\b", re.I)
_DOTTED = re.compile(r"(?:[a-z]{1,2}\.)+[a-z]{1,2}")
_MONTH_WORDS = frozenset({"january", "february", "march", "april", "may", "june", "july",
                          "august", "september", "october", "november", "december", "sept"})
_TITLE_ABBR = frozenset({"mr", "mrs", "dr", "rev"})
_MONTH_DAY = re.compile(r"(?<![A-Za-z])(?:Jan|Feb|Mar|Apr|May|June?|July?|Aug|Sept?|Oct|Nov|Dec)"
                        r"[a-z]*\.?[ \t\n]{1,2}\d{1,2}$")
_MONTH_NEXT = re.compile(r"(?:Jan|Feb|M[aä]r|Apr|Ma[iy]|Jun|Jul|Aug|Sep|O[ck]t|Nov|De[cz])"
                         r"[a-zä]*\.?\s+\d")


# A state's abbreviation and a comma ("Pa.,", "N. Y.,") opens no sentence: the full stop
# before it was a comma (an address goes on)
_STATE_COMMA = re.compile(r"(?:[A-Z][a-z]{0,3}|[A-Z]\.[ \t]?[A-Z])\.,")


# A word no sentence ends with: a full stop after it is OCR debris ("wife of . Martin").
_OPEN_WORD = re.compile(r"(?<![\w'])(?:of|the|and|to|by|with|a|an)[\"'”]?[ \t]*$")


_RUN_ON = 40  # characters of a sentence before a "?" read as a misread letter
# A sentence that asks: a question word or an auxiliary first, or a quotation in it
_ASKS = re.compile(r"[\s\"'(]*(?:(?:who|whom|whose|what|which|when|where|why|how|is|are|was"
                   r"|were|do|does|did|will|would|can|could|shall|should|has|have|had|may|might"
                   r"|must|am|isn't|aren't|won't|don't|didn't)\b|[^\"]*\")", re.I)


def split_sentences(text: str) -> list[tuple[int, int]]:
    """Sentence spans, bounded in length; abbreviations and initials do not end a sentence."""
    spans: list[tuple[int, int]] = []
    start = 0
    for m in _BOUNDARY.finditer(text):
        p = m.start()
        if text[p] == "?" and (text[p - 1:p].isalpha() or text[p - 1:p] in (" ", "\t", "?")
                               ) and p - start >= _RUN_ON and not _ASKS.match(text, start, p):
            continue  # "..., so badly that he was taken to the hospital at Roar\nin? Spring
            # where he died": the OCR's "?" for a letter it could not read, well inside a
            # sentence that asks nothing (or a speck on its own: "widow of William B. Lynch,
            # W. ,.f It, a nl.lnr r? ? <, I,, ... who died")
        if text[p] == ".":
            j = p
            while j > start and j > p - 12 and not text[j - 1].isspace():
                j -= 1
            # ".Jan. 4": OCR debris glued before an abbreviation does not make it a word
            word = text[j:p].lstrip("\"'(.,:;-").lower()
            if (len(word) == 1 and word.isalpha()) or word in _NO_SPLIT:
                continue
            if word.rpartition(".")[2] in _TITLE_ABBR:
                continue  # "leaves two children.Mrs. J. W. Smith": the OCR's lost blank
            nxt = text[m.end() : m.end() + 1]
            if word == "irs" and nxt.isupper():
                continue  # "over the body of\nIrs. Marv Catherine Lynch": "Mrs." whose "M"
                # the OCR lost (a column's cut left edge; "Irs" is no word)
            if word in ("win", "ii") and text[p - len(word)].isupper() and nxt.isupper():
                continue  # "Mary, Mrs. Win. Holland", "R. II. Dudley": the OCR's "Wm.", "H."
            if nxt and nxt.islower() and m.group()[0:2] != " .":
                continue
            if (word.isdigit() and len(word) <= 2 and _MONTH_NEXT.match(text, m.end())) or (
                    nxt.isdigit() and (word == "born" or word in _MONTH_WORDS)):
                continue  # "15. August 1940" (German style), "(born. 3 June 1940)", "March.\n2"
            if word.isdigit() and len(word) <= 2 and nxt.isdigit() and _MONTH_DAY.search(
                    text, max(0, j - 14), p):
                continue  # "born Sept. 2. 1855", "married March 24. 1888": the OCR's comma
            if nxt == "(" and _DOTTED.fullmatch(word):
                continue  # "Albert Warren Ferris, A.M., M.D. (December 1856-..."
            if _STATE_COMMA.match(text, m.end()):
                continue  # "both of Brockwayville. Pa., brothers": the OCR's comma
        if _OPEN_WORD.search(text, max(start, p - 8), p):
            continue  # "Lena, wife of . Martin Finhorn": no sentence ends with "of"
        if text[p] != "." and text[m.end():m.end() + 1].islower():
            continue  # "and interment . was made": a speck, and the sentence goes on
        _add(text, spans, start, m.end())
        start = m.end()
    _add(text, spans, start, len(text))
    return spans


def _add(text: str, spans: list[tuple[int, int]], s: int, e: int) -> None:
    """Append [s, e), cutting over-long stretches at a line break or space."""
    while e - s > MAX_SENTENCE:
        hi = s + MAX_SENTENCE
        cut = text.rfind("\n", s + MAX_SENTENCE // 2, hi)
        if cut < 0:
            cut = text.rfind(" ", s + MAX_SENTENCE // 2, hi)
        cut = hi if cut < 0 else cut + 1
        spans.append((s, cut))
        s = cut
    if e > s:
        spans.append((s, e))


_INITIAL = re.compile(r"[A-Z]\.?")
_WOMAN = re.compile(r"(?:Mrs|Miss|Mme|Madame|Mis)\b", re.I)
_HEADING_REACH = 400  # how far below its heading the item's first sentence may start


def _ocr_variant(name: str, heading: str) -> bool:
    """'Burton Bontwell Gal' under the heading 'BURTON B. GALE.', 'Thomas Tfouediton' under
    'DEATH OF THOMAS HOUGHTON.': the item's opening name with the heading's given name (and
    middle initial), its surname one the OCR misread (half its letters in order agree)."""
    words = strip_title(normalise(name)).split()
    head = strip_title(heading).split()
    if len(head) == 1 and 2 <= len(words) <= 4:
        # "Mrs. Minnie G. Andcr" under "MRS. ANDERSON DEAD": the heading's title and a
        # surname that is the heading's, its end misread (its first three letters kept)
        # (or parted at a line end, its rest misread too: "Andcr\nBon")
        title, htitle = normalise(name).split()[0].lower(), heading.split()[0].lower()
        b = head[0].lower()
        tails = [words[-1]] + ([words[-2] + words[-1]] if "\n" in name.strip() else [])
        return title == htitle and title.rstrip(".") in ("mr", "mrs", "miss") and any(
            a.lower()[:3] == b[:3] and a.lower() != b and SequenceMatcher(
                None, a.lower(), b).ratio() >= 0.6 for a in tails)
    if len(words) < 2 or len(head) < 2 or len(words) > 4 or words[0].lower() != head[0].lower():
        return False
    if len(words) > 2 and len(head) > 2 and words[1][0].lower() != head[1][0].lower():
        return False
    a, b = words[-1].lower(), head[-1].lower()
    return a != b and SequenceMatcher(None, a, b).ratio() >= 0.5


# Capitals the OCR reads one for another
_LOOKALIKE = (frozenset("VW"), frozenset("IJLT"), frozenset("CGO"), frozenset("EF"),
              frozenset("BRH"), frozenset("MN"))


def _misread_initial(words: list[str], subject: list[str]) -> bool:
    """'V. C. Sodeman' for 'W. C. Sodeman': the subject's initials and surname, one initial
    a capital the OCR reads for another."""
    if len(words) != len(subject) or len(words) < 3 or words[-1] != subject[-1]:
        return False
    diff = [(a, b) for a, b in zip(words[:-1], subject[:-1], strict=True) if a != b]
    return len(diff) == 1 and all(_INITIAL.fullmatch(w) for w in diff[0]) and any(
        {diff[0][0][0], diff[0][1][0]} <= pair for pair in _LOOKALIKE)


def _misread_surname(word: str, surname: str) -> bool:
    """'MeNultv' for 'McNulty' ("Mr. MeNultv was born" in his item): the subject's surname
    with a letter or two misread, its first letter and length kept."""
    return (len(word) == len(surname) >= 5 and word[0] == surname[0] and word != surname
            and sum(a != b for a, b in zip(word, surname, strict=True)) <= 2)


def trim(text: str, s: int, e: int) -> tuple[int, int]:
    """The span `s:e` of `text` without the whitespace at either end."""
    while s < e and text[s].isspace():
        s += 1
    while e > s and text[e - 1].isspace():
        e -= 1
    return s, e


class Doc:
    """Everything one `extract_text` call shares: text, person keys and the output list.

    `text` is the reading view (`extract.reading`: OCR's line-broken words joined, same
    length); every pattern reads it. `source` is the text as stored: excerpts and locators
    are sliced from it alone.
    """

    def __init__(
        self,
        text: str,
        snapshot_id: str,
        page_starts: tuple[int, ...],
        document_date: GenDate | None,
        evidence_type: EvidenceType | None,
        source_reliability: float,
    ) -> None:
        self.source = text
        self.reading = reading_view(text, columns=True)
        self.text = self.reading.text
        self.snapshot_id = snapshot_id
        self.page_starts = page_starts
        self.document_date = document_date
        self.evidence_type = evidence_type
        self.reliability = min(1.0, max(0.0, source_reliability))
        self.keys: dict[str, str] = {}
        self.display: dict[str, str] = {}
        self.out: list[Candidate] = []
        self.seen: set[tuple[str, str, str]] = set()
        self.sex_of: dict[str, str] = {}
        self.death: dict[str, tuple[GenDate, int, int]] = {}
        self.died: set[str] = set()  # keys a sentence says died, dated or not
        self.celebrated: set[str] = set()  # husbands of couples an anniversary item is about
        self.focus: tuple[str, str, int] | None = None  # (key, name, position)
        self.heading: tuple[str, int] | None = None  # a capitals heading's person, where
        self.at = 0  # where the sentence being read starts
        self.named: set[str] = set()  # keys whose name candidate passed the guard
        self.any_name: set[str] = set()  # keys with a name candidate, fact or hypothesis
        self.not_named: set[str] = set()  # keys whose name did not read as a person's
        self.hint_words: frozenset[str] = frozenset()  # words of the page subject's name
        # A list announced at a sentence's end ("she leaves the following children.") whose
        # names are the next sentence: (subject key, its span, role word, field, where).
        self.pending_list: tuple[str, tuple[int, int], str, str, int] | None = None
        # The last dateline read ("Rutland, Jan. 3."): where it starts and its town's span.
        self.dateline: tuple[int, int, int] | None = None
        # The real firewall judges every candidate before it leaves (one source per document).
        dated = document_date.earliest if document_date is not None and (
            document_date.precision == "day") else None
        self.sources = {snapshot_id: Source.of(text, dated=dated)}

    # -- spans ----------------------------------------------------------------------
    def trim(self, s: int, e: int) -> tuple[int, int]:
        return trim(self.text, s, e)

    def excerpt(self, sent: tuple[int, int], *spans: tuple[int, int]) -> tuple[int, int]:
        """The sentence if short enough, else the clause window around the needed spans."""
        s, e = self.trim(*sent)
        if not spans or (e - s <= MAX_EXCERPT and (self.reading.order is None or (
                # (a sentence read across side-by-side columns is printed with the other
                # column's words between its pieces: only its clause window, if too long)
                (b := self.reading.to_source(s, e))[1] - b[0] <= 2 * MAX_EXCERPT))):
            return s, e
        lo = min(sp[0] for sp in spans)
        hi = max(sp[1] for sp in spans)
        lo2 = max(s, lo - 80)
        cuts = [c.end() for c in _CLAUSE.finditer(self.text, lo2, lo)]
        lo = cuts[-1] if cuts else lo2
        hi_lim = min(e, hi + 80)
        m2 = _CLAUSE.search(self.text, hi, hi_lim)
        hi = m2.start() if m2 else hi_lim
        return self.trim(lo, hi)

    def page(self, offset: int) -> int | None:
        if not self.page_starts:
            return None
        return max(1, bisect_right(self.page_starts, offset))

    # -- people ---------------------------------------------------------------------
    def person(self, name: str, span: tuple[int, int], sent: tuple[int, int],
               confidence: float = 0.9, *, inferred: bool = False, listed: bool = False,
               stated: bool = True, trusted: bool = False) -> str:
        """Local key for a name, emitting its `name` candidate the first time it is seen.

        A name that does not read as a personal name (`given.is_personal_name`: "Neither",
        "Household Goods") still gets a key, so a sentence about it stays about it, but no
        name candidate: `emit` then drops every fact about that key. `listed` marks a name
        in a list of relatives ("sons, Will and Harry"); `stated` (the default) a name the
        sentence makes a person's, as the subject of "was born" or a spouse in a notice,
        which a heading or an "X is ..." lead does not; `trusted` a name the context has
        already shown to be a person's (a biography's lead, the person a page was fetched
        for).
        """
        tail = self._own_line(name, span, listed=listed)
        if tail is not None:  # "St Dunstan Churchyard\nJacob Greenwood": the name's own line
            return self.person(tail, (span[1] - len(tail), span[1]), sent, confidence,
                               inferred=inferred, listed=listed, stated=stated,
                               trusted=trusted)
        pk = person_key(name)
        key = self.resolve(name)
        if key is None or (key in self.not_named and self.keys.get(pk) == key):
            if key is None:
                key = f"p{len(self.display) + 1}"
                self.keys[pk] = key
                self.display[key] = self.as_printed(name, span)
            trusted = trusted or normalise(name).strip() in self.hint_words
            stated = stated and not headline(self.text, *sent)
            if not trusted and (_STREET.match(self.text, span[1]) or not is_personal_name(
                    normalise(name), listed=listed, stated=stated)):
                self.not_named.add(key)
                return key
            self.not_named.discard(key)  # "Harry" alone first, then listed as a brother
            why = "name as written" if not inferred else "name implied by Jr."
            written = self.as_printed(name, span)
            if self.emit(key, "name", written, sent, [span], confidence, why,
                         is_fact=not inferred) is None:
                self.emit(key, "name", written, sent, [span], confidence, why,
                          is_fact=not inferred, exact_span=self.trim(*span))
            title = name.split(None, 1)[0].rstrip(".").lower() if name.strip() else ""
            if not inferred and title in ("mr", "mrs", "miss", "ms", "mme", "mlle", "madame"):
                self.sex(key, TITLES[title], sent, span, 0.85, f"title {title.capitalize()}.")
        return key

    def as_printed(self, name: str, span: tuple[int, int]) -> str:
        """A name's value as the page prints it where the reading view read a stop for its
        comma ("Attie M, Acers": `reading._NAME_COMMA`); else as read."""
        if "." not in name or self.text[span[0]:span[1]] != name:
            return normalise(name)
        printed = self.source[slice(*self.reading.printed(*span))]
        if len(printed) == len(name) and all(a == b or (a, b) == (",", ".")
                                             for a, b in zip(printed, name, strict=True)):
            return normalise(printed)
        return normalise(name)

    def _own_line(self, name: str, span: tuple[int, int], *, listed: bool) -> str | None:
        """The last line of a run the spotter joined across lines, when the whole does not
        read as a name and that line does ("St Dunstan Churchyard\nJacob Greenwood" on a
        memorial page); None otherwise (OCR breaks real names across lines too)."""
        if "\n" not in name or self.text[span[0]:span[1]] != name:
            return None
        tail = name.rsplit("\n", 1)[1].strip()
        if len(tail.split()) < 2 or is_personal_name(normalise(name), listed=listed):
            return None
        return tail if is_personal_name(tail, listed=listed) and name.endswith(tail) else None

    def set_hint(self, hint: str) -> None:
        """The page was fetched for `hint` ("Sir Edward Wilmot, 1st Baronet"): a lone word of
        that name ("Wilmot died at ...") is that person's, not a capitalised word."""
        words = _HINT_WORD.findall(normalise(hint).split(",")[0][:200])
        self.hint_words = frozenset(w for w in words if w[:1].isupper() and len(w) > 1
                                    and w.lower() not in TITLES)

    def resolve(self, name: str) -> str | None:
        """Key of an already-known person: same full name, or "Mr. Smith" for the subject Smith."""
        key = self.keys.get(person_key(name))
        if key is None:
            key = self._by_initials(name)
        if key is not None or self.focus is None:
            return key
        if self.heading is not None and self.heading[0] == self.focus[0] and (
                0 <= self.at - self.heading[1] <= _HEADING_REACH) and _ocr_variant(
                name, self.focus[1]):
            self.keys[person_key(name)] = self.focus[0]
            return self.focus[0]
        words = normalise(name).split()
        fw = self.focus[1].split()
        if _misread_initial(words, fw):
            return self.focus[0]  # "V. C. Sodeman, ..., died" under "Death of W. C. Sodeman."
        if fw[-1].isupper():  # a capitals heading's name ("BURTON B. GALE"): "Mr. Gale"
            words = [w.upper() for w in words]
        if len(words) > len(fw) >= 3 and words[-1] == fw[-1] and words[:len(fw) - 1] == fw[:-1]:
            return self.focus[0]  # "Mrs. Maggie E. Deshong Ribblet" under "Mrs. Maggie E.
            # Ribblet.": the heading's name with her maiden name added
        if len(words) == 1 and words[0] == self.focus[1].split()[-1]:
            return self.focus[0]  # "Sullivan was born ..." after "John Sullivan (born ...)"
        last = self.focus[1].split()[-1]
        if len(words) != 2 or (words[1] != last and not _misread_surname(words[1], last)):
            return None
        title = words[0].rstrip(".").lower()
        sex = self.sex_of.get(self.focus[0])
        if (title in ("mr", "dr", "rev", "capt", "col", "judge") and sex != "F") or (
            title in ("mrs", "miss") and sex == "F"
        ):
            return self.focus[0]
        return self._husband(words[1]) if title == "mr" and sex == "F" else None

    def _husband(self, surname: str) -> str | None:
        """'Mr. Lake' in the item of Mrs. Sarah W. Lake: the one man of her surname the item
        has named in full ("the deceased husband, Joseph Lake"); None if none or several."""
        found = [k for k in self.named if k != (self.focus and self.focus[0])
                 and self.sex_of.get(k) != "F" and not _WOMAN.match(self.display[k])
                 and len(words := strip_title(self.display[k]).split()) >= 2
                 and words[-1] == surname and not _INITIAL.fullmatch(words[0])]
        return found[0] if len(found) == 1 else None

    def _by_initials(self, name: str) -> str | None:
        """'Mr. C. E. Sager' after 'Chancey E. Sager' in one item: the initials of a name
        already read, with its surname (two initials at least, so "J. Smith" is no one's)."""
        if _WOMAN.match(normalise(name)):
            return None  # "Mrs. C. E. Sager" is his wife, not "Chancey E. Sager"
        words = strip_title(normalise(name)).split()
        if len(words) < 3 or not all(_INITIAL.fullmatch(w) for w in words[:-1]):
            return None
        found = None
        for pk, key in self.keys.items():
            other = strip_title(self.display.get(key, "")).split()
            if (len(other) == len(words) and other[-1].lower() == words[-1].lower()
                    and not _WOMAN.match(self.display.get(key, ""))
                    and pk != person_key(name) and key in self.named
                    and not all(_INITIAL.fullmatch(w) for w in other[:-1])
                    and all(o[0].upper() == w[0] for o, w in zip(other, words[:-1],
                                                                 strict=False))):
                if found not in (None, key):
                    return None  # two people it could be
                found = key
        return found

    def set_focus(self, key: str, pos: int) -> None:
        self.focus = (key, self.display[key], pos)

    def focus_at(self, pos: int) -> str | None:
        if self.focus and 0 <= pos - self.focus[2] <= 1500:
            return self.focus[0]
        return None

    # -- candidates -----------------------------------------------------------------
    def emit(
        self,
        subject: str,
        field: str,
        value: str,
        sent: tuple[int, int],
        spans: list[tuple[int, int]],
        confidence: float,
        rationale: str,
        *,
        date: GenDate | None = None,
        related: str | None = None,
        is_fact: bool = True,
        exact_span: tuple[int, int] | None = None,
    ) -> Candidate | None:
        if not value:
            return None
        dedupe = (subject, field, value)
        if dedupe in self.seen:
            return None
        s, e = exact_span if exact_span else self.excerpt(sent, *spans)
        if e <= s:
            return None
        if field != "name" and (subject not in self.any_name or (
                related is not None and related not in self.any_name) or (
                is_fact and (subject not in self.named
                             or (related is not None and related not in self.named)))):
            return None  # the person's own name was not grounded, so nothing about them is
        cand = self._build(subject, field, value, date, related, confidence, rationale,
                           is_fact, s, e)
        violations = check_candidate(cand, self.sources)
        if violations and is_fact and self._relative_only(cand, violations):
            # A relative date ("last Tuesday") whose year the text never prints: the year
            # comes from the document's date, so it is an inference, not a fact.
            cand = self._build(subject, field, value, date, related, confidence,
                               rationale + " (year from the document's date, not printed in"
                               " the text)", False, s, e)
            violations = check_candidate(cand, self.sources)
        if violations:
            return None
        if field == "name":
            self.any_name.add(subject)
            if cand.is_fact:
                self.named.add(subject)
        self.seen.add(dedupe)
        self.out.append(cand)
        return cand

    def _build(self, subject: str, field: str, value: str, date: GenDate | None,
               related: str | None, confidence: float, rationale: str, is_fact: bool,
               s: int, e: int) -> Candidate:
        method = "deterministic" if is_fact else "inference"
        s, e = trim(self.source, *self.reading.to_source(s, e))
        return Candidate(
            subject=subject,
            subject_name=self.display.get(subject),
            field=field,
            value=value,
            date=date,
            related=related,
            related_name=self.display.get(related) if related else None,
            confidence=round(min(confidence, 0.6) if not is_fact else confidence, 3),
            citation=Citation(
                snapshot_id=self.snapshot_id,
                excerpt=self.source[s:e],
                locator=Locator(start=s, end=e, page=self.page(s)),
                extraction_method=method,
                source_reliability=self.reliability,
                rationale=rationale,
            ),
            is_fact=is_fact,
            method=method,
            evidence_type=self.evidence_type,
            rationale=rationale,
        )

    @staticmethod
    def _relative_only(cand: Candidate, violations: list[Violation]) -> bool:
        """Rejected only because a date's year is not printed, while its phrase is quoted."""
        g = cand.date
        if g is None or cand.citation is None or not g.original:
            return False
        if any(v.check != "no_invented_dates" for v in violations):
            return False
        return fold(g.original).strip() in fold(normalise(cand.citation.excerpt))

    def sex(self, key: str, value: str | None, sent: tuple[int, int], span: tuple[int, int],
            confidence: float, why: str) -> None:
        if value in ("M", "F") and key not in self.sex_of:
            self.sex_of[key] = value
            self.emit(key, "sex", value, sent, [span], confidence, why)
