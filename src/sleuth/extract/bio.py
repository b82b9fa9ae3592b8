"""Encyclopedia-style lead sentences: "Name (born DATE in PLACE) is a ..." and "(DATE – DATE)".

Wikipedia and WikiBio leads put the vital dates in the first parenthesis after the name;
WikiBio text is lower-cased and tokenised ("-lrb-", " , "), so the name there is simply the
text before the parenthesis rather than a capitalised run.
"""

from __future__ import annotations

import re

from sleuth.extract.dates import LEAD_DATE_FIND, MONTH_RE, parse_date
from sleuth.extract.emit import Doc
from sleuth.extract.names import STOP, uni
from sleuth.extract.person_names import strip_title
from sleuth.extract.places import read_lower_place, read_place
from sleuth.extract.prose import birth_name
from sleuth.extract.sentence import PRONOUN_START, Sentence
from sleuth.extract.window import emit_date, emit_place

Span = tuple[int, int]

# One nested parenthesis is allowed: "(b. in Wijnegem (Antwerp), 25 April 1831; d. ...)".
_PAREN = re.compile(r"(?:\(|-lrb-)(?P<inner>(?:-lrb-[^()]{0,60}?-rrb-|\([^()]{0,60}\)|[^()])"
                    r"{0,250}?)(?:\)|-rrb-)")
_SPLIT = re.compile(r"\s+(?:--|–|—|-)\s+|\s*[;,]\s*(?=(?:d\.|died|dead)\s)"
                    r"|(?<=\d)\s*[–—]\s*(?=\w)|(?<=\d{4})-(?=\d)"
                    # "1759/17605 september 1837": the dash was lost between year and day
                    rf"|(?<=\D\d{{4}})(?=\d{{1,2}}\s+(?:{MONTH_RE})\b)", re.I)
# "*" and "†" are the German/Scandinavian born/died signs ("(* 15. August 1940 in Kschellowitz)").
_KIND = re.compile(r"\s*[;,:]?\s*(?P<k>born|b\.|\*|died|dead|d\.|†|n[ée]e)?\.?\s*(?:on\s+)?",
                   re.I)
_INNER_BORN = re.compile(r"[;,]\s*(?:born|b\.)\s+(?:on\s+)?", re.I)
_YEARISH_START = re.compile(r"\s*(?:c\.\s*|ca\.\s*)?\d")
# "(c. 1949)" alone after a name is an approximate birth year, as in "(born c. 1949)".
_ABOUT_YEAR = re.compile(r"\s*(?:c\.|ca\.|circa)\s*\d{3,4}\s*\??\s*$", re.I)
_IN = re.compile(r"\b(?:in|at)\s+")
_AFTER_COMMA = re.compile(r"\s*,\s*(?=[^\d\s])")
# "sir andrew clarke , gcmg , cb -lrb-": honours after the name are comma-separated tails.
_LOWER_NAME = re.compile(r"\s*(?P<n>[^\s(),;:\d][^(),;:\d]{1,200}?)\s*(?:,[^(),;]{1,40}?)"
                         r"{0,6}?\s*(?:,\s*)?(?=\(|-lrb-)")
# A name longer than nine words is a royal style ("prince `` gabriele '' maria giuseppe ...
# of bourbon-two sicilies"); a clause with a verb is not a name, whatever its length.
_LOWER_VERB = re.compile(r"\b(?:is|was|were|are|has|had|have|be|been|which|who|that|in|at"
                         r"|on|for|with)\b")
# "arshak sarkissian -lrb- -rrb- , is an armenian painter": an emptied parenthesis, then
# the copula; the lead is who a later "born on ..." in the sentence is about.
_LOWER_COPULA = re.compile(r"\s*(?:-lrb-[^()]{0,160}?-rrb-)?\s*,?\s*(?:is|was)\s+(?:an?|the)\s")
_OCCUPATION = re.compile(
    r"\s*,?\s*(?:[^.]{0,80}?)\b(?:is|was)\s+(?:an?|the)\s+(?P<o>[^,.;()]{3,80}?)"
    r"(?=\s+(?:who|from|with|for|in|at|of|and|best|known|whose|during|between|since)\b|\s*[,.;(]|"
    r"\s*-lrb-|$)")
_FULL_DATE = re.compile(r"\d{1,2}\s*,?\s*\d{4}|\d{1,2}\s+[A-Za-z]+\.?\s+\d{4}")
_NOT_OCCUPATION = frozenset({"member", "number", "former", "other", "order"})
_AGENT = re.compile(r"(?:er|or|ist|ian|man|woman|ant|ent|ess|smith|wright|maker|player|"
                    r"actor|actress|footballer|cricketer|politician|writer|priest|monk|"
                    r"officer|soldier|judge|bishop|king|queen|prince|princess)$")


_COPULA_LEAD = re.compile(r"(?:[ \t]*\([^()]{0,160}\))?[ \t]*,?[ \t]*(?:who\s+)?(?:is|was)\s+"
                          r"(?:an?|the|one)\s")
# The lead's subject and its copula; a period inside is an abbreviation ("W.T.", "A.M., M.D.").
_LEAD_HINT = re.compile(uni(r"[\s\"']*[A-ZÀ-Þ](?:[^.!?]|\.(?=[A-Z,]|\s[A-Z]\.)){0,200}?\b(?:is|was)"
                            r"\s+(?:an?|the|one)\s"))
_NOT_SOLO = frozenset({"this", "it", "there", "which", "what", "nothing", "everyone", "each",
                       "much", "little", "one", "none", "such", "later", "afterwards", "soon",
                       "then", "now", "today", "everything", "something", "here", "who"})
_ONE_WORD = re.compile(uni(r"[A-ZÀ-Þ][a-zà-ÿ]+[ \t]+"))
_LEAD_RUN = re.compile(uni(
    r"[\s\"'-]*(?P<n>(?:Mc|Mac|O')?[A-ZÀ-Þ][a-zà-ÿ'’-]+(?:[ \t]+(?:(?:Mc|Mac|O'|D')?"
    r"[A-ZÀ-Þ][a-zà-ÿ'’-]+|[A-Z]\.|(?:van|von|de|da|del|der|di|du|la|le|bin|ibn)(?=[ \t]+[A-Z])))"
    r"{0,4})[ \t]*(?:\(\)[ \t]*)?,?[ \t]*(?=\((?:born|b\.|\*|c\.|ca\.|circa|\d)|-lrb-)"))
_NOT_LEAD = frozenset({"the", "a", "an", "in", "on", "at", "he", "she", "it", "his", "her",
                       "this", "these", "those", "after", "before", "during", "when", "while",
                       "from", "for", "by", "with", "as", "since", "until", "following", "born"})


def _lead_name(doc: Doc, sent: Sentence) -> Span | None:
    """Span of the name that opens the sentence ("Jan A. Kregel", whose "Jan" the spotter
    reads as a month), or None."""
    first = sent.names[0] if sent.names else None
    run = _LEAD_RUN.match(doc.text, sent.s, min(sent.e, sent.s + 120))
    if run and run.group("n").split()[0].lower() not in _NOT_LEAD and (
            first is None or first.start >= run.end("n")):
        # "Christian Geist (", "Surono (", "Mary Lord (": the spotter drops names that
        # start with a common word or have one word, but a capitalised run opening the
        # sentence right before the lead parenthesis is the article's subject.
        return (run.start("n"), run.end("n"))
    if first is None:
        return None
    pre = doc.text[sent.s : first.start]
    if not pre.strip():
        return (first.start, first.end)
    m = _ONE_WORD.fullmatch(pre.lstrip())
    if m and first.title is None:
        return (first.start - len(pre.lstrip()), first.end)
    return None


# "Robie was elected ...", "Durando became ...": a lone surname opening a sentence, followed
# by a verb of a life story, is who the next "He died ..." is about.
_SOLO_LEAD = re.compile(uni(
    r"[\s\"']*(?P<n>(?:Mc|Mac|O')?[A-ZÀ-Þ][a-zà-ÿ]{2,20})\s+(?:(?:again|later|then|also|soon"
    r"|subsequently|finally|eventually)\s+)?(?:was|is|had|has|became|returned|moved|went"
    r"|resigned|retired|served|continued|resumed|left|entered|joined|graduated|attended"
    r"|studied|worked|lived|received|won|began|spent|settled|emigrated|removed)\b"))


_WAS = re.compile(r"[ \t\n]*,?[ \t\n]*(?:was|is)[ \t\n]+")


def lead_focus(doc: Doc, sent: Sentence) -> None:
    """'Philip Sington is an English novelist.': the sentence's subject is who the following
    "He was born ..." sentences are about."""
    if sent.lower_mode:
        return
    solo = _SOLO_LEAD.match(doc.text, sent.s, sent.e)
    if solo and solo.group("n").lower() not in STOP and solo.group("n").lower() not in _NOT_SOLO \
            and not PRONOUN_START.match(doc.text, solo.start("n"), sent.e):  # OCR's "Mie was"
        focus = doc.focus_at(sent.s)
        words = strip_title(doc.display[focus]).split() if focus is not None else []
        if len(words) > 1 and words[0].lower() == solo.group("n").lower():
            return  # "Harry was a son of ..." in the item about Harry H. Horton: still his
        sp = (solo.start("n"), solo.end("n"))
        key = doc.person(solo.group("n"), sp, sent.span, 0.75, stated=False)
        doc.set_focus(key, sent.s)
        return
    if _LEAD_HINT.match(doc.text, sent.s, sent.e) is None:
        return
    nsp = _lead_name(doc, sent)
    if nsp is None or _COPULA_LEAD.match(doc.text, nsp[1], sent.e) is None:
        return
    was = _WAS.match(doc.text, nsp[1], sent.e)
    if was is not None and birth_name(doc, sent, was.end()) is not None:
        return  # "Catherine O'Connor was a native of Ireland" in Mrs. Clyne's obituary
    key = doc.person(doc.text[nsp[0] : nsp[1]], nsp, sent.span)
    doc.set_focus(key, sent.s)


def bio_lead(doc: Doc, sent: Sentence) -> Span:
    """Handle a lead sentence; returns the parenthesis span consumed (or an empty span)."""
    t = doc.text
    head = t[sent.s : min(sent.e, sent.s + 300)]
    if "(" not in head and "-lrb-" not in head:
        lead_focus(doc, sent)
        return (0, 0)
    if sent.lower_mode:
        m = _LOWER_NAME.match(t, sent.s, min(sent.e, sent.s + 260))
        if m is None or (len(m.group("n").split()) > 9 and (
                len(m.group("n").split()) > 30 or _LOWER_VERB.search(m.group("n")))):
            return (0, 0)
        nsp = (m.start("n"), m.end("n"))
    else:
        lead = _lead_name(doc, sent)
        if lead is None:
            return (0, 0)
        gap = t[lead[1] : lead[1] + 160]
        if not re.match(r"\s*(?:,\s*)?(?:\(|-lrb-)", gap) and not re.match(
            r"(?:[^().]|\.(?=[A-Z,]|\s[A-Z(]))*?(?:\(|-lrb-)", gap[:80]
        ):
            lead_focus(doc, sent)
            return (0, 0)
        nsp = lead
    groups = [g for g in _PAREN.finditer(t, nsp[1], min(sent.e, sent.s + 400))]
    chosen = next((g for g in groups[:3] if re.search(r"\d{3,4}", g.group("inner"))), None)
    if chosen is None:
        if sent.lower_mode:
            if len(t[nsp[0]:nsp[1]].split()) <= 9 and _LOWER_COPULA.match(t, nsp[1], sent.e):
                doc.set_focus(doc.person(t[nsp[0]:nsp[1]], nsp, sent.span, trusted=True),
                              sent.s)
        else:
            lead_focus(doc, sent)  # "X was a journalist (and columnist) who ...": still the lead
        return (0, 0)
    # A name right before a parenthesis of life dates reads as a person's, whatever its words
    # ("Surono (born 1950)"): no lexicon of given names covers every language.
    key = doc.person(t[nsp[0] : nsp[1]], nsp, sent.span, trusted=True)
    doc.set_focus(key, sent.s)
    a, b = chosen.start("inner"), chosen.end("inner")
    parts: list[Span] = []
    pos = a
    for sm in _SPLIT.finditer(t, a, b):
        parts.append((pos, sm.start()))
        pos = sm.end()
    parts.append((pos, b))
    for i, (ps, pe) in enumerate(parts[:2]):
        km = _KIND.match(t, ps, pe)
        kind = (km.group("k") or "").lower() if km else ""
        if kind in ("", "née", "nee") and not _YEARISH_START.match(t, ps, pe):
            # "(known as Gaba Kulka, born 1979 in Warsaw)", "(née Lipson; born ...)"
            inner = _INNER_BORN.search(t, ps, pe)
            if inner is not None:
                km, kind = inner, "born"
        if kind in ("born", "b.", "*"):
            field = "birth"
        elif kind in ("died", "dead", "d.", "†"):
            field = "death"
        elif kind.startswith("n"):
            continue
        elif len(parts) >= 2:
            field = "birth" if i == 0 else "death"
        elif _FULL_DATE.search(t, ps, pe) or _ABOUT_YEAR.match(t, ps, pe):
            field = "birth"  # "Name (June 6, 1945) is ...": a lone full date is a birth date
        else:
            continue
        _part(doc, sent, key, nsp, field, km.end() if km else ps, pe)
    _occupation(doc, sent, key, nsp, chosen.end())
    return (chosen.start(), chosen.end())


def _part(doc: Doc, sent: Sentence, key: str, nsp: Span, field: str, ps: int, pe: int) -> None:
    t = doc.text
    # Searched on the part alone: a part cut from "17605 september" starts after a digit,
    # which the pattern's look-behind would otherwise refuse.
    dm = LEAD_DATE_FIND.search(t[ps:pe])
    if dm:
        g = parse_date(dm.group())
        if g is not None:
            emit_date(doc, key, f"{field}_date", (g, (ps + dm.start(), ps + dm.end())), sent,
                      nsp, 0.9, f"{field} date in the lead parenthesis")
    reader = read_lower_place if sent.lower_mode else read_place
    place = None
    ins = list(_IN.finditer(t, ps, pe))
    for im in ins:  # "born in 1965 in Yorkshire": the place follows the second "in"
        place = reader(t, im.end(), pe)
        if place:
            break
    if not ins and dm:
        cm = _AFTER_COMMA.match(t, ps + dm.end(), pe)
        place = reader(t, cm.end() if cm else ps + dm.end(), pe)
    if place:
        emit_place(doc, key, f"{field}_place", place, sent, nsp, 0.85,
                   f"{field} place in the lead parenthesis")


def _occupation(doc: Doc, sent: Sentence, key: str, nsp: Span, pos: int) -> None:
    m = _OCCUPATION.match(doc.text, pos, sent.e)
    if m is None:
        return
    occ = m.group("o").strip()
    words = occ.split()
    if (not words or len(words) > 7 or not _AGENT.search(words[-1].lower())
            or words[-1].lower() in _NOT_OCCUPATION):
        return
    doc.emit(key, "occupation", " ".join(words), sent.span, [nsp, (m.start("o"), m.end("o"))],
             0.7, "'is/was a ...' in the lead sentence")
