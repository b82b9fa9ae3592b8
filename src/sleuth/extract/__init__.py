"""The deterministic default extractor: text in, grounded `Candidate`s out, no model calls.

Every candidate's excerpt is a verbatim slice of the input (`text[start:end]`), so the
hallucination firewall can check it byte for byte; inferences (a birth year from an age, a
father from "Jr.") are emitted as hypotheses with `is_fact=False`, never as facts.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from functools import lru_cache

from sleuth.extract import burial, family, kin, notices, passing, prose, residence
from sleuth.extract.bio import bio_lead, lead_focus
from sleuth.extract.dates import parse_date
from sleuth.extract.emit import MAX_EXCERPT, Doc, split_sentences, trim
from sleuth.extract.gate import Gate, lowered
from sleuth.extract.names import LOWER, UPPER
from sleuth.extract.person_names import TITLES
from sleuth.extract.reading import reading_view
from sleuth.extract.sentence import Sentence
from sleuth.model.citation import Citation, EvidenceType, Locator
from sleuth.model.dates import GenDate
from sleuth.model.limits import checkpoint
from sleuth.model.records import Candidate, new_id
from sleuth.verify.normalise import normalise

__all__ = ["extract_text", "parse_date", "refine"]

_OCCUPATIONS = (
    "farmer|merchant|blacksmith|carpenter|teacher|school teacher|physician|doctor|lawyer|"
    "attorney|minister|pastor|preacher|clergyman|priest|banker|miner|coal miner|clerk|druggist|"
    "grocer|baker|butcher|shoemaker|tailor|stone mason|mason|printer|editor|publisher|"
    "journalist|engineer|machinist|laborer|soldier|sailor|seaman|fisherman|postmaster|sheriff|"
    "policeman|nurse|dressmaker|milliner|housekeeper|musician|architect|surgeon|dentist|"
    "manufacturer|contractor|salesman|stockman|rancher|planter|cooper|wheelwright|miller|"
    "weaver|railroad man|conductor|brakeman|undertaker|jeweler|harness maker|storekeeper|"
    "hotel keeper|saloon keeper|livery man|veterinarian|telegrapher|teamster|barber|"
    "missionary|quarryman|granite ?cutter|stone ?cutter|stone ?mason|(?:rural )?mail carrier|"
    "insurance (?:agent|representative|man)|city engineer|civil engineer"
)
# (a calling's words may be broken over a line: "insurance repres\nentative")
_CALLING = _OCCUPATIONS.replace(" ?", r"\s*").replace(" ", r"\s+")
# "a well known school teacher", "a Maryland farmer" (a place's name before the calling)
_OCC = re.compile(
    rf"\b(?:was|is|a|an|as)\s+(?:an?\s+)?(?:(?:well[- ]known|widely\s+known|prominent|retired"
    rf"|successful|local|leading|pioneer|(?-i:[A-Z][a-z]+))\s+)?(?P<o>{_CALLING})\b"
    rf"(?:\s+by\s+(?:trade|occupation))?",
    re.I,
)
# (a calling's words, for a first test of every sentence: `_OCC` only where one is written)
_CALLINGS = Gate(rf"\b(?:{_CALLING})\b", starts="a-z")
_HE = re.compile(r"\s*(?:He|She|Deceased|The\s+deceased)\s+(?:was|had\s+been|became)\b")
_UPPER = re.compile(f"[{UPPER}]")
_LOWER = re.compile(f"[{LOWER}]")
_CTRL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def extract_text(
    text: str,
    snapshot_id: str,
    *,
    page_starts: tuple[int, ...] = (),
    document_date: GenDate | None = None,
    evidence_type: EvidenceType | None = None,
    source_reliability: float = 0.5,
    subject_hint: str | None = None,
) -> list[Candidate]:
    """All candidates the deterministic patterns can ground in `text`.

    `subject_hint` names who the document is about (a page fetched for that person). It only
    seeds the paragraph focus, so "He was born in 1905." before anyone is named is read as
    about them, and only when their name (whole, or the surname or given name on its own) is
    written in the text: every subject name stays grounded in the snapshot.
    """
    if not isinstance(text, str) or not text.strip():
        return []
    doc = Doc(text, snapshot_id, tuple(page_starts), document_date, evidence_type,
              source_reliability)
    text = doc.text  # the reading view (same length): every pattern reads it
    sample = text[:8000]
    uppers = len(_UPPER.findall(sample))
    letters = uppers + len(_LOWER.findall(sample))
    # WikiBio-style lower-cased, tokenised text; a few capitals survive there in accented
    # names ("Ölper"), so its tokens ("-lrb-", " , ") allow a slightly higher share.
    lower_mode = letters > 20 and (uppers < letters * 0.01 or (
        uppers < letters * 0.03 and ("-lrb-" in sample or " , " in sample)))
    sentences = split_sentences(text)
    low = lowered(text)
    heads = [] if lower_mode else notices.caps_headings(text)
    if heads:
        sentences = _cut_at_headings(text, sentences, heads)
    head_lines = {h[0] for h in heads}  # (a capitals heading is read by `caps_heading`)
    past = [] if lower_mode else _years_ago_columns(text, heads)
    dated = document_date
    if subject_hint and not lower_mode:
        doc.set_hint(subject_hint)
        _seed_focus(doc, subject_hint, sentences)
    for s, e in sentences:
        checkpoint()
        while heads and heads[0][0] < e:
            notices.caps_heading(doc, heads.pop(0))
        doc.at = s
        if e - s < 8:
            continue
        if past:
            doc.document_date = None if any(a <= s < b for a, b in past) else dated
        _keep_focus(doc, s)
        if _CTRL.search(text, s, e) and len(_CTRL.findall(text, s, e)) > (e - s) // 10:
            continue  # binary junk
        if doc.pending_list is not None and family.announced_list(
                doc, Sentence(doc, s, e, lower_mode)):
            continue
        if not prose.TRIGGER.search(text, low, s, e) and not (
                _CALLINGS.search(text, low, s, e) and _OCC.search(text, s, e)):
            if not lower_mode:
                sent = Sentence(doc, s, e, lower_mode)
                if e - s <= 70 and s not in head_lines:
                    notices.heading(doc, sent)
                    prose.dateline(doc, sent)
                lead_focus(doc, sent)
                residence.subject_residence(doc, sent)
            continue
        sent = Sentence(doc, s, e, lower_mode)
        notices.known_as(doc, sent)
        notices.marriage_notice(doc, sent)
        skip = bio_lead(doc, sent)
        prose.death(doc, sent, skip)
        passing.children_died(doc, sent)
        passing.wife_died(doc, sent)
        passing.death_came(doc, sent)
        prose.native(doc, sent)  # (before "born": "a native of Ireland, born July 1831")
        prose.born(doc, sent, skip)
        kin.marriage(doc, sent)
        kin.relation_of(doc, sent)
        family.survivors(doc, sent)
        residence.subject_residence(doc, sent)
        family.child_lists(doc, sent)
        family.role_lists(doc, sent)
        family.those_surviving(doc, sent)
        family.parent_of(doc, sent)
        burial.burial(doc, sent)
        burial.junior(doc, sent)
        notices.remains(doc, sent)
        notices.parents(doc, sent)
        notices.their_child(doc, sent)
        notices.kin_opening(doc, sent)
        notices.anniversary(doc, sent)
        notices.couples(doc, sent)
        notices.age_of_subject(doc, sent)
        _occupations(doc, sent)
    notices.married_names(doc)
    return doc.out


# "TWENTYFIVE YEARS AGO", "30 Years Ago.": a column of items reprinted from the paper's old
# files. Its "last Thursday" and "January 17th" are of that year, not of this issue's.
_YEARS_AGO = re.compile(r"(?m)^[ \t\"'*]*(?:\d{1,3}|[A-Z][A-Za-z]{1,15}(?:[- ][A-Za-z]{1,15})?)"
                        r"[ \t]+(?:Years|YEARS)[ \t]+(?:Ago|AGO)[ \t.]*$")
_COLUMN_REACH = 3000  # such a column's length, about


def _years_ago_columns(text: str, heads: list[notices.Heading]) -> list[tuple[int, int]]:
    """Spans of "N years ago" columns: from the heading to the next capitals heading, or
    about a column's length; the issue's date resolves no relative date inside them."""
    out = []
    for m in _YEARS_AGO.finditer(text):
        end = min((h[0] for h in heads if h[0] > m.end()), default=len(text))
        out.append((m.start(), min(end, m.end() + _COLUMN_REACH)))
    return out


def _cut_at_headings(text: str, sentences: list[tuple[int, int]],
                     heads: list[notices.Heading]) -> list[tuple[int, int]]:
    """A heading in capitals is a line of its own, no part of a sentence: "Her husband died
    in Toledo last Thursday" (its full stop lost) does not run on through "THE GRIM REAPER"
    into the next item's "Franklin Light, aged 75 years, ..., died last Tuesday"."""
    cuts = sorted({p for a, b, *_ in heads
                   for p in (a, b + 1 if text[b:b + 1] == "\n" else b)})
    out: list[tuple[int, int]] = []
    i = 0
    for s, e in sentences:
        while i < len(cuts) and cuts[i] <= s:
            i += 1
        while i < len(cuts) and cuts[i] < e:
            if text[s:cuts[i]].strip():
                out.append((s, cuts[i]))
            s = cuts[i]
            i += 1
        out.append((s, e))
    return out


# "Mr. Sloan was very widely known ...", "The deceased was ...": the item goes on about its
# subject, however long it is
_NAMES_FOCUS = re.compile(r"[ \t\n\"'(]*(?:(?:Mr|Mrs|Miss|Dr)\.?[ \t\n]+(?P<s>[A-Z][\w'-]+)"
                          r"|(?:The[ \t\n]+)?[Dd]e[ \t\n-]*ceased\b)")


def _keep_focus(doc: Doc, s: int) -> None:
    """A sentence that names the current subject as "Mr. <surname>" (or "the deceased")
    keeps that subject current (`Doc.focus_at` forgets a subject 1,500 characters on; one
    named again a little later is still the one the item is about)."""
    f = doc.focus
    if f is None or s - f[2] > 2 * 1500 or s <= f[2]:
        return
    m = _NAMES_FOCUS.match(doc.text, s)
    if m is None or (m.group("s") and m.group("s").lower() != f[1].split()[-1].lower()):
        return
    doc.focus = (f[0], f[1], s)


_HINT_WORD = re.compile(r"[^\W\d_][\w'’.-]*")
_CAP_WORD_BEFORE = re.compile(r"(?<![.!?:;])[ \t]+(?P<w>[A-ZÀ-ÖØ-Þ][\w'’-]*)\.?[ \t]*$")
_HINT_TITLES = frozenset({
    *TITLES, "general", "captain", "colonel", "admiral", "major", "lieutenant", "cardinal",
    "bishop", "archbishop", "pope", "saint", "st", "king", "queen", "prince", "princess",
    "emperor", "empress", "duke", "duchess", "count", "countess", "baron", "baroness",
    "president", "senator", "governor", "professor", "prof", "judge", "chief", "abbot",
    "father", "reverend", "rev", "dr", "doctor", "mr", "mrs", "ms", "miss", "sultan"})
_CAP_WORD_AFTER = re.compile(r"[ \t]+(?:[A-ZÀ-ÖØ-Þ][\w'’-]+|[A-Z]\.)")


def _seed_focus(doc: Doc, hint: str, sentences: list[tuple[int, int]]) -> None:
    """Make the hinted person the initial focus, under the name as the text writes it."""
    words = [w for w in _HINT_WORD.findall(normalise(hint)[:200]) if w[0].isupper()
             and len(w.rstrip(".")) > 1]
    if not words:
        return
    tries = [" ".join(words)]
    if len(words) > 2:
        tries.append(f"{words[0]} {words[-1]}")
    if len(words) > 1:
        tries += [words[-1], words[0]]
    head = doc.text[:20000]
    for t in tries:
        single = " " not in t
        for m in re.finditer(rf"(?<![\w'’.-]){re.escape(t)}(?![\w-])", head):
            a, b = m.span()
            cap = _CAP_WORD_BEFORE.search(head, max(0, a - 30), a) if single else None
            if single and ((cap and cap.group("w").lower() not in _HINT_TITLES)
                           or _CAP_WORD_AFTER.match(head, b)):
                continue  # part of someone else's name ("Lewis Llewelyn Dillwyn")
            sent = next(((s, e) for s, e in sentences if s <= a < e), (a, b))
            key = doc.person(t, (a, b), sent, trusted=True)
            if key in doc.named:
                doc.set_focus(key, 0)
            return


def _occupations(doc: Doc, sent: Sentence) -> None:
    """Occupation words next to a person this sentence already made a subject."""
    registered = [n for n in sent.names if doc.resolve(n.text) is not None]
    focus = doc.focus_at(sent.s) if _HE.match(doc.text, sent.s) else None
    if not registered and focus is None:
        return
    for m in _OCC.finditer(doc.text, sent.s, sent.e):
        before = [n for n in registered if n.end <= m.start() and m.start() - n.end < 60]
        osp = (m.start("o"), m.end("o"))
        if before:
            n = before[-1]
            key = doc.person(n.text, (n.start, n.end), sent.span)
            doc.emit(key, "occupation", " ".join(m.group("o").lower().split()), sent.span,
                     [(n.start, n.end), osp], 0.7, "occupation named with")
        elif focus is not None and m.start() - sent.s < 40:
            # "He was a miner by occupation." in an item about one person
            doc.emit(focus, "occupation", " ".join(m.group("o").lower().split()), sent.span,
                     [osp], 0.65, "occupation of the item's subject")


_WIDEN = re.compile(r"widen|full sentence|whole sentence|too short|more context|enclosing|expand",
                    re.I)


@lru_cache(maxsize=2)
def _sentences(text: str) -> tuple[list[tuple[int, int]], str]:
    """A snapshot's sentences and reading view, read once for all of its refinements.

    A tree's validator may ask for a hundred wider excerpts of one 4 MB file; reading the
    whole file for each took most of its import.
    """
    return split_sentences(text), reading_view(text).text


def refine(candidate: Candidate, request: str, text: str) -> Candidate | None:
    """Second attempt after a validator's request: widen the excerpt to its whole sentence.

    Only widening is something a deterministic extractor can honestly do; any other request
    (re-reading, a different source) returns None.
    """
    cit = candidate.citation
    if cit is None or not _WIDEN.search(request or ""):
        return None
    start, end = cit.locator.start, cit.locator.end
    if end > len(text) or text[start:end] != cit.excerpt:
        return None
    sentences, reading = _sentences(text)
    for i in range(max(0, bisect_right(sentences, (start, len(text) + 1)) - 1), len(sentences)):
        s, e = sentences[i]
        if s <= start < e or (s < end <= e):
            break
        if s >= end:
            return None
    else:
        return None
    s, e = trim(reading, min(s, start), max(e, end))
    if e - s > MAX_EXCERPT * 2:
        s, e = max(s, start - 200), min(e, end + 200)
    if (s, e) == (start, end):
        # Already the whole sentence: take the neighbouring sentences as well.
        s, e = trim(reading, max(0, start - 200), min(len(text), end + 200))
        if (s, e) == (start, end):
            return None
    citation = Citation(
        snapshot_id=cit.snapshot_id,
        excerpt=text[s:e],
        # the statement is still the one on that line (a tree's `1 OCCU`): keep its line
        locator=Locator(start=s, end=e, page=cit.locator.page, line=cit.locator.line),
        extraction_method=cit.extraction_method,
        source_reliability=cit.source_reliability,
        rationale=cit.rationale,
    )
    return candidate.model_copy(update={"citation": citation, "id": new_id()})
