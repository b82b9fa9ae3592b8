"""The document's own process as dated events (seed 004 Timeline agent, deterministic).

Every date phrase (`documents.dates`) is read with the clause around it; a small grammar of
trigger phrases, Swedish and English, says which step of the process it dates:

- directive_issued: "Beslut vid regeringssammanträde den …" in a directive, "Genom beslut
  den … bemyndigade … att tillkalla", "antog regeringen nya direktiv", "ändrades … direktiv";
- member_appointed: "tillkallades den … som sakkunniga", "förordnades den …";
- committee_formed: "tillsattes", "inledde sitt arbete";
- report_submitted: "överlämnade … betänkandet", "får härmed överlämna … Stockholm i juni 1972";
- proposition_submitted: "utdrag ur regeringsprotokollet den …" in a proposition;
- remiss_started: "remitterades den …";
- law_enacted: "Done at Brussels, 27 April 2016", "REGULATION … of 27 April 2016";
- other, with its description: report deadline ("Uppdraget ska redovisas senast …"), entry
  into force ("träder i kraft den …", "shall apply from", "Effective date"), lagrådsremiss,
  position adopted, comment deadline, signed ("Issued on", "Dated:"), published.

A date no trigger claims is not an event (a law cited by its date is not this process).
One event per (type, date) per document, cited where it is first stated; the other pages
that state it are kept (`also_pages`), and another appointment that day adds its people to
the event's actors ("Som experter förordnades samma dag …"). An appointment's actors are
the appointed, not the minister who appoints ("förordnade Annika Strandhäll … Sören Öman").
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from sleuth.domains.documents.cite import Pages, citation
from sleuth.domains.documents.dates import DateHit, find_dates
from sleuth.domains.documents.eventspan import event_span
from sleuth.domains.documents.fold import unaccented
from sleuth.extract.given import is_given
from sleuth.model import Candidate, Citation, GenDate, Snapshot

EVENT_TYPES = ("directive_issued", "committee_formed", "member_appointed", "report_submitted",
               "sou_published", "remiss_started", "proposition_submitted", "law_enacted",
               "other")
EVENT_FIELDS = frozenset(f"{t}_date" for t in EVENT_TYPES)
_F = re.IGNORECASE


@dataclass(frozen=True)
class Trigger:
    """A phrase that, in the same clause as a date, says what the date is of."""

    event: str
    description: str
    before: re.Pattern[str] | None = None  # must occur in the clause before the date
    after: re.Pattern[str] | None = None  # must occur in the clause after the date
    kinds: frozenset[str] = frozenset()  # document kinds it applies to (empty: all)
    not_kinds: frozenset[str] = frozenset()  # document kinds it never applies to
    years: bool = False  # it also dates a bare year ("tillsattes 1979")
    window: int = 300  # characters of the clause after the date it reads


def _re(p: str, flags: int = _F) -> re.Pattern[str]:
    return re.compile(p, flags)


_K = frozenset
# The verbs of an appointment, passive and active ("tillkallades", "förordnade X"), and of
# a secretary's engagement ("anställdes"), a replacement ("X ersattes den … av Y").
_APPOINTED = (r"tillkallades|förordnades|förordnats|tillkallats|utsågs|utnämndes|anställdes|"
              r"ersattes|appointed")
_APPOINTING = r"tillkallades|förordnades|förordnade|tillkallade|utsågs|utsåg|utnämndes|anställdes"
# In order: the first trigger that fits a date decides. A kind "dir_main" is a directive
# that is not a supplementary one: its only directive is its own decision (its header); a
# supplementary directive ("Tilläggsdirektiv", "dir_supplementary") also dates the
# inquiry's first one, and any other directive it names belongs to another inquiry.
TRIGGERS: tuple[Trigger, ...] = (
    Trigger("other", "lagrådsremiss",
            before=_re(r"regeringssammanträde\s+den\s*$"),
            after=_re(r"^\W*\s*Lagrådsremiss|^[^.]{0,220}inhämta\s+lag\W{0,3}\s*rådets|"
                      r"^(?:(?!\n\s*(Proposition|\d+\s+[A-ZÅÄÖ]))[\s\S]){0,450}?\n\s*"
                      r"Lagrådsremiss\b"), window=600),
    Trigger("other", "the Council on Legislation's opinion",
            before=_re(r"Lagrådet[\s\S]{0,80}Utdrag\s+ur\s+protokoll\s+vid\s+sammanträde\s*"
                       r"(den\s*)?$")),
    Trigger("directive_issued", "directive decided at a government meeting",
            before=_re(r"Beslut\s+vid\s+regeringssammanträde\s+den\s*$"), kinds=_K({"dir"})),
    Trigger("proposition_submitted", "proposition decided at a government meeting",
            before=_re(r"(protokoll\s+vid\s+regeringssammanträde|regeringsprotokollet)\s+den\s*$"),
            kinds=_K({"prop"})),
    Trigger("other", "lagrådsremiss",
            before=_re(r"beslutade\s+(den\s*)?$"),
            after=_re(r"^\s*att\s+inhämta\s+lag\W{0,3}\s*rådets")),
    Trigger("directive_issued", "directive decided",
            before=_re(r"(Genom\s+beslut|bemyndigade|beslutade|antog\s+regeringen|"
                       r"regeringssammanträdet)[^.]{0,60}$"),
            after=_re(r"^[^.]{0,160}(tillkalla|direktiv|utredare\s+i\s+uppdrag|utredning)|"
                      r"^\s*(bemyndigade|beslutade)\s+(regeringen|Kungl)"),
            not_kinds=_K({"dir_main"})),
    Trigger("directive_issued", "directive decided",
            before=_re(r"(^|\.\s*)\W?(Den\s+)?$"),
            after=_re(r"^\s*(antog|beslutade)\s+regeringen[^.]{0,40}direktiv"),
            not_kinds=_K({"dir_main"})),
    Trigger("directive_issued", "supplementary directive",
            before=_re(r"\bfick\s+(den\s*)?$"), after=_re(r"^[^.]{0,40}tilläggsdirektiv"),
            not_kinds=_K({"dir_main"})),
    Trigger("directive_issued", "directive amended",
            before=_re(r"beslut[^.]{0,40}$"), after=_re(r"^[^.]{0,40}ändrades[^.]{0,30}direktiv"),
            not_kinds=_K({"dir_main"})),
    Trigger("other", "decision",
            before=_re(r"Genom\s+beslut\s+(av\s+[^.]{0,30})?den\s*$")),
    Trigger("member_appointed", "secretary engaged",
            before=_re(r"Som\s+(biträdande\s+)?sekreterar\w*[^.]{0,80}(har\s+(arbetat|tjänstgjort|"
                       r"varit\s+anställd)|anställdes)[^.]{0,200}?(från\s+och\s+med\s+)?den\s*$")),
    Trigger("member_appointed", "appointed",
            before=_re(rf"({_APPOINTED})([^.]{{0,220}}(den\s*|\bon\s*)|\s+)$")),
    Trigger("member_appointed", "appointed",
            before=_re(r"(^|[.,]\s*)(den\s*)?$"),
            after=_re(r"^[^.]{0,40}(tillkallades|förordnades|utsågs)")),
    Trigger("member_appointed", "appointed",
            after=_re(rf"^\W{{0,3}}({_APPOINTING})\b")),
    Trigger("committee_formed", "committee set up",
            before=_re(r"(tillsattes|inrättades|inledde\s+sitt\s+arbete|påbörjade\s+sitt\s+"
                       r"arbete|was\s+established)[^.]{0,60}$")),
    Trigger("committee_formed", "committee set up",
            before=_re(r"\b(tillsattes|inrättades)\s+$"), years=True),
    Trigger("report_submitted", "report handed over",
            before=_re(r"(^|\.\s*|\n\s*)(Den\s+)?$"),
            after=_re(r"^[^.]{0,80}(överlämnade|avlämnade)[^.]{0,120}(betänk|SOU\s)")),
    Trigger("report_submitted", "report handed over",
            before=_re(r"\b(överlämnade|avlämnade|överlämnat|avlämnat)\s+$"),
            after=_re(r"^[^.]{0,60}(betänk|SOU\s|rapport)")),
    Trigger("report_submitted", "report handed over",
            before=_re(r"härmed\s+överlämna[\s\S]{0,400}Stockholm\s*$")),
    Trigger("sou_published", "published (the report's cover)",
            before=_re(r"(Del|Slut)?betänkande\s+(av|från)\b[^\n]*(\n[^\n]*){0,2}\n\s*"
                       r"Stockholm\s*$"),
            after=_re(r"^\s*SOU\s+\d{4}\s*:\s*\d+"), kinds=_K({"sou"}), years=True),
    Trigger("other", "report deadline",
            before=_re(r"(\bredovisas|slutredovisas|redovisa\s+uppdraget)[^.]{0,80}senast\s+"
                       r"(den\s*)?$")),
    Trigger("remiss_started", "sent out for consultation",
            before=_re(r"(remitterades|sändes\s+på\s+remiss|remissbehandlades)[^.]{0,40}$")),
    Trigger("other", "entry into force",
            before=_re(r"(träder|träda)\s+i\s+kraft\s+(den\s*)?$|shall\s+apply\s+from\s*$|"
                       r"enter\s+into\s+force\s+on\s*$|effective\s+date[:\s]+$|"
                       r"DATES:\s*(This\s+rule\s+is\s+)?effective\s+(on\s+)?$|"
                       r"(träder|träda)\s+i\s+kraft[^.]{0,150}?\bi\s+övrigt\s+den\s*$")),
    Trigger("law_enacted", "adopted",
            before=_re(r"Done\s+at\s+[A-Z][a-z]+,\s*$", 0)),
    Trigger("law_enacted", "adopted",
            before=_re(r"^\s*(REGULATION|DIRECTIVE|DECISION)\s+\(EU\)[^\n]{0,100}\n?\s*of\s+$",
                       re.MULTILINE)),
    Trigger("law_enacted", "adopted",
            before=_re(r"(föreskrifter|författning|förordning|lag)\b[^.]{0,200}\n\s*beslutade\s+"
                       r"(den\s*)?$|\butfärdad\s+(den\s*)?$"), kinds=_K({"fs"})),
    Trigger("other", "published",
            before=_re(r"Utkom\s+från\s+trycket[\s\S]{0,80}?\bden\s*$")),
    Trigger("other", "position adopted",
            before=_re(r"(Position\s+of\s+the\s+European\s+Parliament|position\s+of\s+the\s+"
                       r"Council\s+at\s+first\s+reading)\s+of\s*$")),
    Trigger("other", "comment deadline",
            before=_re(r"must\s+receive\s+comments[^.]{0,60}\bby\s*$")),
    Trigger("other", "signed",
            before=_re(r"(^|\n)\s*(Issued\s+(on|in\s+[A-Z][\w ,.]{0,40}on)|Dated:?|Signed)\s*$",
                       0)),
    Trigger("other", "published",
            before=_re(r"No\W\s*\d+\s*\n\s*(Monday|Tuesday|Wednesday|Thursday|Friday),?\s*$")),
)
_YEAR_TRIGGERS = tuple(t for t in TRIGGERS if t.years)
# A consolidated regulation's "Ändringar införda t.o.m. 13 juni 2017": read before the rule
# that a date after "t.o.m." / "fr.o.m." / "med verkan från" dates no event.
CONSOLIDATED = Trigger("other", "amendments included up to",
                       before=_re(r"Ändringar\s+införda\s+t\.\s?o\.\s?m\.?\s*(den\s*)?$"))
# "samma dag" (the same day): the date last written before it on the page, within this
# many characters ("förordnades den 19 september 2016 ... Som experter förordnades samma dag").
_SAME_DAY = _re(r"\bsamma\s+dag\b")
_SAME_DAY_WORDS = "samma dag"
_SAME_DAY_REACH = 700
_CLAUSE = 300  # characters read each side of a date
# Abbreviations whose full stop ends no clause ("Kungl. Maj:t", "bl. a.", "fr.o.m.").
_ABBREV = re.compile(r"\b(Kungl|bl\. ?a|m\. ?m|t\. ?f|t\. ?ex|fr\. ?o\. ?m|t\. ?o\. ?m|dir|prop|"
                     r"Prop|Dir|s|nr|Nr|No|St|Mr|Dr|e\. ?g|i\. ?e|U\. ?S)\.")


def _mask(s: str) -> str:
    """`s` with the full stops of abbreviations replaced (same length), so that a clause
    pattern's [^.] reads through "Kungl. Maj:t"."""
    return _ABBREV.sub(lambda m: m.group(0).replace(".", "\u00b7"), s)
_PAST_FORCE = _re(r"trädde\s+i\s+kraft")
_PROPOSED = _re(r"föreslås|föreslår|föreslagna|föreslog|\bproposed?\b|\bproposes\b")


@dataclass
class Event:
    """A dated step of the document's process, cited to a page."""

    event_type: str
    description: str
    date: GenDate
    start: int  # the date phrase in the snapshot text
    end: int
    citation: Citation
    page: int
    page_label: str
    actors: list[str] = field(default_factory=list)
    also_pages: list[int] = field(default_factory=list)

    @property
    def excerpt(self) -> str:
        return self.citation.excerpt


def _head(snap: Snapshot) -> str:
    return snap.text[: (snap.page_starts[1] if len(snap.page_starts) > 1 else 3000) + 3000]


def document_kind(snap: Snapshot) -> str:
    """'dir', 'prop', 'sou', 'fs' (a Swedish statute book's regulation: "AFS 2011:19"),
    'eu', 'fr' or '' from the first page's own words."""
    head = _head(snap)
    if re.search(r"Kommittédirektiv|Tilläggsdirektiv", head):
        return "dir"
    if re.search(r"(?i)proposition|Prop\.\s*1\d\d\d", head):
        return "prop"
    if re.search(r"SOU\s*\d{4}\s*:\s*\d+", head):
        return "sou"
    if re.search(r"\b[A-Z]{1,5}FS\s*\d{4}\s*:\s*\d+", head[:600]):
        return "fs"
    if re.search(r"Official Journal of the European Union|\(EU\)\s*\d{4}/\d+", head):
        return "eu"
    if re.search(r"Federal Register", head):
        return "fr"
    return ""


def document_kinds(snap: Snapshot) -> frozenset[str]:
    """The kind (`document_kind`) and, for a directive, whether it is a supplementary one
    ('dir_supplementary') or not ('dir_main'): what the triggers' `kinds` are read against."""
    kind = document_kind(snap)
    if kind != "dir":
        return frozenset({kind})
    supplementary = re.search(r"Tilläggsdirektiv", _head(snap))
    return frozenset({kind, "dir_supplementary" if supplementary else "dir_main"})


_EFFECTIVE = _re(r"(med\s+verkan\s+från|fr\.\s?o\.\s?m\.|t\.\s?o\.\s?m\.)\s*(den\s*)?$", 0)


def _classify(text: str, hit: DateHit, lo: int, hi: int,
              kinds: frozenset[str]) -> Trigger | None:
    triggers = _YEAR_TRIGGERS if hit.year_only else TRIGGERS
    if hit.year_only and not any(_kind_fits(t, kinds) for t in triggers):
        return None
    raw_before = text[max(lo, hit.start - _CLAUSE):hit.start]
    before = _mask(raw_before)
    if not hit.year_only and CONSOLIDATED.before and CONSOLIDATED.before.search(before):
        return CONSOLIDATED
    if _EFFECTIVE.search(raw_before):
        return None  # "med verkan fr.o.m. den 1 augusti 1969": when it took effect, not when
    after = ""
    for trig in triggers:
        if not _kind_fits(trig, kinds):
            continue
        if trig.before is not None and not trig.before.search(before):
            continue
        if trig.after is not None:
            if len(after) < trig.window:  # read as far as a trigger asks, once
                after = _mask(text[hit.end:min(hi, hit.end + max(trig.window, _CLAUSE))])
            if not trig.after.search(after[:trig.window]):
                continue
        return trig
    return None


def _kind_fits(trig: Trigger, kinds: frozenset[str]) -> bool:
    return not ((trig.kinds and not trig.kinds & kinds) or trig.not_kinds & kinds)


_ACTOR = re.compile(r"\b(?:[A-ZÀ-ÖØ-Þ][a-zß-öø-ÿ]+(?:-[A-ZÀ-ÖØ-Þ][a-zß-öø-ÿ]+)?[ \t]){1,2}"
                    r"[A-ZÀ-ÖØ-Þ][a-zß-öø-ÿ]{2,}\b|\b[A-ZÅÄÖ][a-zåäö]+(?:departementet|utredningen|"
                    r"kommittén)\b|\bKungl\. Maj\s?:t|\bregeringen\b|\bFAA\b|\bthe European "
                    r"Parliament\b|\bthe Council\b")
_BRACKETED = re.compile(r"\(\w+\)")
_BROKEN_NAME = re.compile(r"\b([A-ZÀ-ÖØ-Þ][\w-]*)\n(?=[A-ZÀ-ÖØ-Þ])")
_NOT_ACTOR = re.compile(r"^(Genom|Med|Till|Den|Att|Beslut|Stockholm|Uppdraget|Done|Issued|"
                        r"Official|Regeringen|Enligt|Lagråd\w*|Prop|Proposition|Utdrag)\b")


# A Swedish authority's or court's name, one definite-form compound ("Arbetsdomstolen",
# "Skatteverket", "Socialstyrelsen", "Datainspektionen"): no given name.
_BODY_BEFORE_NAME = re.compile(r"\b(?P<body>[A-ZÅÄÖ][a-zåäö]*(?:domstolen|rätten|verket|"
                               r"styrelsen|departementet|inspektionen|myndigheten|nämnden|"
                               r"kassan|ämbetet|institutet|kollegiet|banken|rådet|kommittén|"
                               r"utredningen|delegationen|kommissionen|byrån))[ \t]+"
                               r"(?=[A-ZÅÄÖ])")


def _given(word: str) -> bool:
    """A given name, as written or without its accents ("Hélène" is "Helene")."""
    return is_given(word) or is_given(unaccented(word))


# A title in Swedish definite form and a given name before a surname ("chefsjuristen
# Catarina Eklundh"): a name that goes on over the line break (a one-word name after a
# title may end there: "statsrådet Leijon / Lagrådsremiss").
_TITLE_BEFORE = re.compile(r"\b[a-zß-öø-ÿ]{3,}(?:en|et|rn)[ \t]+[A-ZÀ-ÖØ-Þ][\w-]*[ \t]+$")


def _name_over_lines(m: re.Match[str]) -> str:
    """The line break after a given name ("Hans-Olov / Stark"), or inside a name after a
    title ("chefsjuristen Catarina Eklundh / Ahlgren"), is a space."""
    word = m.group(1)
    titled = _TITLE_BEFORE.search(m.string, max(0, m.start() - 60), m.start())
    given = titled or any(_given(part) for part in word.split("-"))
    return word + (" " if given else "\n")


def _actors(excerpt: str) -> list[str]:
    """Names in `excerpt`, one broken over two lines after a given name included ("Hans-Olov
    / Stark", not "Thalén / Föredragande"); a one-word affiliation in brackets ("Nilsson
    (Socialdepartementet)") is not an actor of its own."""
    seen: list[str] = []
    plain = _BRACKETED.sub(" ", _BROKEN_NAME.sub(_name_over_lines, excerpt.replace("-\n", "")))
    # "ordföranden i Arbetsdomstolen Sören Öman": the court is where he sits, no first name
    plain = _BODY_BEFORE_NAME.sub(r"\g<body>, ", plain)
    for m in _ACTOR.finditer(plain):
        name = " ".join(m.group(0).split())
        if not _NOT_ACTOR.match(name) and name not in seen:
            seen.append(name)
    return seen


# A sentence's end before a date: after a bracket, a year or a word of five letters or more
# ("(Pensionsmyndigheten). Som sekreterare ..."), never after "t. f." or "Kungl.".
_SENTENCE_END = re.compile(r"(?:(?<=\))|(?<=\d{4})|(?<=[a-zß-öø-ÿ]{5}))[.!?]\s+(?=[A-ZÀ-ÖØ-Þ])")
_FROM_DATE = re.compile(r"(?:med\s+verkan\s+från|från\s+och\s+med|fr\.\s?o\.\s?m\.|"
                        r"t\.\s?o\.\s?m\.)\s*(?:den\s*)?$")


def actors_at(text: str, start: int, end: int, date_start: int, date_end: int) -> list[str]:
    """The names a dated event governs, read in text[start:end]: those after its date up to
    the next date that opens a clause of its own, else those between the date before it and
    it in the same sentence. In an enumeration ("den 18 juni 1969 X och Y, den 6 mars 1970
    med verkan från den 1 i samma månad Z") Z is 6 March's, never X's; a date saying from
    when ("Y från och med den 1 september 2016") belongs to the name before it."""
    dates = find_dates(text, start, end)

    def from_when(pos: int) -> bool:
        return bool(_FROM_DATE.search(text[max(start, pos - 40):pos]))

    since = max((h.end for h in dates if h.end <= date_start), default=start)
    since = max((m.end() for m in _SENTENCE_END.finditer(text, since, date_start)), default=since)
    before = _actors(text[since:date_start])
    if from_when(date_start):
        return before
    later = next((h.start for h in dates if h.start >= date_end and not from_when(h.start)), end)
    return _actors(text[date_end:later]) or before


def _sentence_of(text: str, lo: int, hi: int, hit: DateHit) -> tuple[int, int]:
    """The sentence around a date within its page text[lo:hi] (an excerpt of 200 characters
    may stop before the names the date governs)."""
    start = max((m.end() for m in _SENTENCE_END.finditer(text, max(lo, hit.start - 2000),
                                                          hit.start)), default=lo)
    stop = next((m.start() + 1 for m in _SENTENCE_END.finditer(text, hit.end, hi)), hi)
    return start, stop


def extract_events(snap: Snapshot) -> list[Event]:
    """The document's process events, one per (type, date), cited where first stated."""
    pages = Pages.of(snap)
    kinds = document_kinds(snap)
    text = snap.text
    by_key: dict[tuple[str, str], Event] = {}
    for hit in _with_same_day(text, pages, find_dates(text, years=True)):
        lo, hi = pages.bounds(hit.start)
        trig = _classify(text, hit, lo, hi, kinds)
        if trig is None or (trig.description == "entry into force"
                            and _PAST_FORCE.search(text[max(lo, hit.start - 40):hit.start])):
            continue
        key = (trig.event, hit.date.iso())
        page = pages.index(hit.start) + 1
        if key in by_key:
            known = by_key[key]
            if page != known.page and page not in known.also_pages:
                known.also_pages.append(page)
            if trig.event == "member_appointed":  # "Som experter förordnades samma dag …":
                # another appointment that day, whose people are the event's too
                known.actors += [a for a in _appointed(text, lo, hi, hit)
                                 if a not in known.actors]
            continue
        sentence = _sentence_of(text, lo, hi, hit)
        actors = (_appointed(text, lo, hi, hit) if trig.event == "member_appointed"
                  else actors_at(text, *sentence, hit.start, hit.end))
        start, end, actors = event_span(text, sentence, (hit.start, hit.end),
                                        _trigger_start(text, hit, lo, trig), actors)
        cit, page, label = citation(snap, pages, start, end, exact=True)
        description = trig.description
        if description == "entry into force" and _PROPOSED.search(
                text[max(lo, hit.start - 150):hit.start]):
            description = "proposed entry into force"  # "föreslås träda i kraft den ..."
        if hit.phrase.startswith(_SAME_DAY_WORDS):
            description += f" ({hit.phrase})"
        by_key[key] = Event(trig.event, description, hit.date, hit.start, hit.end, cit,
                            page, label, actors)
    return sorted(by_key.values(), key=lambda e: e.start)


# An active appointing verb: the name after it appoints ("förordnade Annika Strandhäll
# ordföranden i Arbetsdomstolen Sören Öman som särskild utredare"), it is not appointed.
_APPOINTER = re.compile(r"\b(?:förordnade|tillkallade|utsåg|utnämnde)\s+(?:statsrådet\s+)?"
                        r"(?P<name>[^\s,]+\s+[^\s,]+)", re.IGNORECASE)


def appointers(text: str, start: int, stop: int) -> set[str]:
    """The names in text[start:stop] that appoint ("förordnade Annika Strandhäll …"): in an
    appointment they are not among the appointed."""
    return {" ".join(m.group("name").split()) for m in _APPOINTER.finditer(text, start, stop)}


def _appointed(text: str, lo: int, hi: int, hit: DateHit) -> list[str]:
    """The people an appointment date governs in its sentence, not the one who appoints."""
    start, stop = _sentence_of(text, lo, hi, hit)
    names = actors_at(text, start, stop, hit.start, hit.end)
    appointer = appointers(text, start, stop)
    return [n for n in names if n not in appointer]


def _with_same_day(text: str, pages: Pages, hits: list[DateHit]) -> list[DateHit]:
    """`hits` and each "samma dag" as a hit of the full date last written before it on the
    same page (within `_SAME_DAY_REACH` characters); its phrase says which."""
    dated = [h for h in hits if not h.year_only and h.date.precision == "day"]
    out = list(hits)
    for m in _SAME_DAY.finditer(text):
        lo, _ = pages.bounds(m.start())
        prev = [h for h in dated if max(lo, m.start() - _SAME_DAY_REACH) <= h.start < m.start()]
        if prev:
            d = prev[-1].date
            out.append(DateHit(m.start(), m.end(), d.model_copy(
                update={"original": f"{_SAME_DAY_WORDS}: {' '.join(prev[-1].phrase.split())}"})))
    return sorted(out, key=lambda h: h.start)


def _trigger_start(text: str, hit: DateHit, lo: int, trig: Trigger) -> int:
    """Where the excerpt should begin: at the trigger phrase when it precedes the date and
    is near enough for one 200-character excerpt, else at the date."""
    if trig.before is None:
        return hit.start
    window_start = max(lo, hit.start - _CLAUSE)
    m = trig.before.search(_mask(text[window_start:hit.start]))
    if m is None:
        return hit.start
    begin = window_start + m.start()
    return begin if hit.end - begin <= 190 else hit.start


def _as_printed(date: GenDate) -> GenDate:
    """The date as its excerpt prints it: "samma dag" (the firewall grounds a relative date
    by its words in the excerpt and its year in the document; the full date it refers to
    may stand further back than one excerpt reaches)."""
    if date.original.startswith(f"{_SAME_DAY_WORDS}:"):
        return date.model_copy(update={"original": _SAME_DAY_WORDS})
    return date


def event_candidates(snap: Snapshot, events: list[Event] | None = None,
                     subject_name: str | None = None) -> list[Candidate]:
    """Each event as a firewall-ready candidate: field `<event_type>_date`, the ISO value of
    its date range, the page-cited excerpt; the description and actors in the rationale."""
    evs = extract_events(snap) if events is None else events
    return [Candidate(subject="document", subject_name=subject_name, field=f"{e.event_type}_date",
                      value=e.date.iso(), date=_as_printed(e.date), confidence=0.9,
                      citation=e.citation,
                      rationale=f"{e.description}; page {e.page_label}"
                                + (f"; actors: {', '.join(e.actors)}" if e.actors else ""))
            for e in evs]
