"""The Censor: the one redaction point every export, report and screen goes through.

`censor` returns a redacted *copy* of a CaseGraph; the input is never touched, so the store's
evidence stays complete and the redaction can be re-run with other settings. Who is living is
decided by `sleuth.privacy.living` (when unsure, living). For each living person:

* every date (birth, baptism, marriage... and any date on any claim) becomes its decade
  (`GenDate` 1 Jan 1990 - 31 Dec 1999, qualifier ESTIMATED, precision "year", original
  "1990s"; the model has no "decade" precision, so `GenDate.iso()` on it reads "1990");
* every place keeps only its last comma-separated component (state or country), less any
  postal code; its street and postal code become secrets (below);
* a couple's events (marriage, divorce...) of a dead person whose spouse is living are
  censored as the living spouse's are (the event is theirs too), unless dated more than
  the policy's `max_age` years ago;
* claims of field address, residence, residence_date, phone, email, ssn, national_id and
  age_at_death are removed, and conflicts over those fields are dropped;
* every citation excerpt becomes "[redacted: living person]" (excerpts quote exact dates),
  and snapshots cited only for living persons lose their text; the same span quoted for
  anyone else is withheld too where it shows a year, and a shown snapshot text has the
  years in it masked (`withheld`: an obituary's "She married Steven Joseph Golden in 1932."
  is the dead wife's spouse claim and the living husband's name claim alike);
* in a GEDCOM file's text, the addresses, phone numbers, e-mail addresses and streets of
  every record not known to be about the dead only are masked (`gedcom_text`): the
  extractor makes no claim of them, so no claim's value would;
* names and relationships stay, unless `mask_names` makes the name "[Living]".

Defence in depth, for data about a living person that other records quote (a grandmother's
obituary naming a grandchild's birthday): the living persons' exact dates - in all usual
spellings - and removed values become "secrets". Any other excerpt that mentions a secret or
generic PII (SSN, e-mail, phone) is replaced whole (never cut, so that what remains is still
verbatim), and secrets and PII are masked in place everywhere else: snapshot texts (with
same-length masks so every locator stays valid), values, conflict rationales, hypotheses.
Every action is logged in `graph.redactions` as {person_id, field, action, reason}.

Cost stays linear in the case: each text is read once for all secrets (`DateSecrets` for
days and months, one trie-shaped `Literals` pattern for the distinctive literals, a cheap
gate before the generic PII patterns), and copies share frozen leaves (`_copy`).
"""

from __future__ import annotations

import gc
import re
from collections.abc import Collection, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date
from functools import cache, partial
from itertools import chain
from types import UnionType
from typing import Any, TypeVar, Union, get_args, get_origin

from pydantic import BaseModel

from sleuth.model.citation import Citation
from sleuth.model.dates import DateQualifier, GenDate
from sleuth.model.graph import CaseGraph, Conflict
from sleuth.model.records import (
    DATE_FIELDS,
    NAME_FIELDS,
    NAME_PART_FIELDS,
    PLACE_FIELDS,
    RELATIONSHIP_FIELDS,
    Assertion,
    Hypothesis,
    Person,
    Snapshot,
)
from sleuth.model.trusted import instance
from sleuth.privacy.gedcom_text import mask_contacts
from sleuth.privacy.living import Verdict, explain_living
from sleuth.privacy.pii import (
    ADDRESS_RE,
    PII_PATTERNS,
    Literals,
    has_pii,
    pii_patterns_in,
    sub_pii,
)
from sleuth.privacy.places import REDACTED, address_literals, last_component
from sleuth.privacy.policy import PrivacyPolicy, active_policy
from sleuth.privacy.view import CensoredGraph
from sleuth.privacy.withheld import Span, Withheld
from sleuth.privacy.written_dates import DateSecrets

REDACTED_EXCERPT = "[redacted: living person]"
MENTIONS_LIVING = "[redacted: mentions a living person or personal data]"
LIVING_NAME = "[Living]"
SENSITIVE_FIELDS = frozenset(
    {"address", "residence", "residence_date", "phone", "email", "ssn", "national_id"}
)
# An age at death dates a birth to the year, finer than the decade a living person's dates
# are shown at: a living person's (a wrongly merged record) is withheld, not a secret (an
# "80" elsewhere is no one's)
AGE_FIELDS = frozenset({"age_at_death"})
NAME_LIKE_FIELDS = NAME_FIELDS | NAME_PART_FIELDS
# A couple's events (the claims' fields start so): a dead person's marriage to a living one
# is censored as the living spouse's is (issue 26: "5 June 2005" and the street were shown)
COUPLE_EVENTS = ("marriage", "divorce", "engagement", "annulment")
_PII_PATTERNS = PII_PATTERNS
_YEAR_RE = re.compile(r"(?<!\d)(1[0-9]{3}|20[0-9]{2})(?!\d)")
_SECRET_CHAR = re.compile(r"[\d@]")


M = TypeVar("M", bound=BaseModel)


def _copy(model: M, update: dict[str, Any]) -> M:
    """A copy of `model` with `update`, sharing no mutable container with the input.

    Lists, sets and dicts left out of `update` are copied one level deep: their items are
    strings or frozen models (Citation, GenDate, Locator). Pydantic's `deep=True` copied
    every frozen leaf too, which was most of the Censor's time on a large case.
    """
    fresh = dict(update)
    values = model.__dict__
    for name in _containers(type(model)):
        if name not in fresh and (value := values[name]) is not None:
            fresh[name] = value.copy()
    if model.__pydantic_extra__ is not None or model.__pydantic_private__ is not None \
            or model.model_config.get("extra") == "allow":
        return model.model_copy(update=fresh)
    # `model_copy(update=fresh)` as pydantic does it, without its generic steps: a case
    # copies every person, claim and citation, and those steps were a third of censoring
    return _shallow(model, {**values, **fresh},
                    model.__pydantic_fields_set__ | fresh.keys())


def _shallow(model: M, values: dict[str, Any], fields_set: set[str]) -> M:
    """A new instance of `model`'s class holding `values` (already the model's own)."""
    return instance(type(model), values, fields_set)


@cache
def _containers(cls: type[BaseModel]) -> tuple[str, ...]:
    """The fields of `cls` that hold a list, set or dict (optional or not)."""
    def holds(tp: Any) -> bool:
        origin = get_origin(tp)
        if origin in (Union, UnionType):
            return any(holds(arg) for arg in get_args(tp))
        return (origin or tp) in (list, set, dict)

    return tuple(name for name, f in cls.model_fields.items() if holds(f.annotation))


# -- coarsening helpers ------------------------------------------------------------------
def decade_of(gd: GenDate) -> GenDate:
    """Widen a date to whole decades at each known end; an open end stays open."""
    # decade starts as plain years: the first decade AD starts at year 0, which `date` lacks
    d_lo = gd.earliest.year // 10 * 10 if gd.earliest else None
    d_hi = gd.latest.year // 10 * 10 if gd.latest else None
    lo = date(max(d_lo, 1), 1, 1) if d_lo is not None else None
    hi = date(d_hi + 9, 12, 31) if d_hi is not None else None
    if lo and hi:
        label = f"{d_lo}s" if d_lo == d_hi else f"{d_lo}s-{d_hi}s"
        qualifier = DateQualifier.ESTIMATED
    elif lo:
        label, qualifier = f"{d_lo}s or later", DateQualifier.AFTER
    elif hi:
        label, qualifier = f"{d_hi}s or earlier", DateQualifier.BEFORE
    else:
        return GenDate(qualifier=DateQualifier.PHRASE, original=REDACTED)
    return GenDate(earliest=lo, latest=hi, qualifier=qualifier, precision="year", original=label)


def decade_label(value: str, gd: GenDate | None) -> str:
    if gd is not None and (gd.earliest or gd.latest):
        return decade_of(gd).original
    years = _YEAR_RE.findall(value)
    return f"{int(years[0]) // 10 * 10}s" if years else REDACTED


def _is_day(gd: GenDate) -> bool:
    return gd.precision == "day" or (gd.precision is None and gd.is_point)


Contribution = tuple[frozenset[str], frozenset[str], frozenset[date], frozenset[tuple[int, int]]]


def person_secrets(person: Person, claims: list[Assertion], mask: bool) -> Contribution:
    """What one living person adds to the Censor's secrets: (literals, names, days, months)."""
    literals: set[str] = set()
    names: set[str] = set()
    days: set[date] = set()
    months: set[tuple[int, int]] = set()
    dates = [person.birth, person.death]
    if mask and len(person.canonical_name.strip()) >= 4:
        names.add(person.canonical_name.strip())
    for claim in claims:
        dates.append(claim.date)
        if claim.date is not None and claim.date.original:
            literals.add(claim.date.original)
        if claim.field_name in SENSITIVE_FIELDS or claim.field_name in DATE_FIELDS:
            literals.add(claim.value)
        elif claim.field_name in PLACE_FIELDS:  # its street and postal code, always masked
            names.update(_distinctive(address_literals(claim.value)))
        # A street address in what is cited for them ("survived by his widow, Ruth, of 48
        # Quarry Lane, Springfield, IL 62704"): theirs too, though no claim holds it, and a
        # dead husband's excerpt quoting it must not show it (issue 26).
        for cited in claim.citations:
            for m in ADDRESS_RE.finditer(cited.excerpt):
                if _GEDCOM_LINE.match(cited.excerpt, m.start()):
                    continue  # "2 ADDR St." is a GEDCOM line's level and tag, not an address
                sentence = _SENTENCE_END.split(cited.excerpt[m.start():], maxsplit=1)[0]
                names.update(_distinctive(address_literals(sentence)))
    for gd in dates:
        if gd is None or gd.earliest is None:
            continue
        if _is_day(gd):
            days.add(gd.earliest)
        elif gd.precision == "month":
            months.add((gd.earliest.year, gd.earliest.month))
    return frozenset(literals), frozenset(names), frozenset(days), frozenset(months)


_SENTENCE_END = re.compile(r"[.;](?=\s|$)|\n")  # a record's line ends its address too
_GEDCOM_LINE = re.compile(r"\d{1,2} (?:@[^@]+@ )?[A-Z_][A-Z0-9_]+(?: |$)")


def _distinctive(literals: Iterable[str]) -> set[str]:
    """The address literals worth a secret (a five-character postal code is distinctive
    enough: "62704", "10115")."""
    return {t for t in literals if len(t) >= 6 or (len(t) == 5 and _SECRET_CHAR.search(t))}


def _union(parts: Iterable[Contribution]) -> tuple[set[str], set[str], set[date],
                                                  set[tuple[int, int]]]:
    literals: set[str] = set()
    names: set[str] = set()
    days: set[date] = set()
    months: set[tuple[int, int]] = set()
    for lit, nam, day, mon in parts:
        literals |= lit
        names |= nam
        days |= day
        months |= mon
    return literals, names, days, months


@dataclass(frozen=True)
class Secrets:
    """The Censor's secrets: days and months (`DateSecrets`), the distinctive literals
    (`Literals`) and the key the memo of what each text mentions is kept under."""

    dates: DateSecrets
    words: Literals
    key: tuple[Any, ...]


def make_secrets(literals: set[str], names: set[str], days: set[date],
                 months: set[tuple[int, int]], *, mask: bool) -> Secrets:
    dates = DateSecrets(days, months)
    found: list[str] = []
    for text in sorted(literals):
        text = text.strip()
        # Only distinctive strings: a bare "Illinois" or "1990" would wipe unrelated facts;
        # one the date finder or the generic PII patterns already catch needs no entry.
        if len(text) < 6 or not _SECRET_CHAR.search(text):
            continue
        if dates.search(text) or any(p.fullmatch(text) for p in _PII_PATTERNS):
            continue
        found.append(text)
    words = found + sorted(names)
    key = (frozenset(dates.days), frozenset(dates.months), tuple(words), mask)
    return Secrets(dates, Literals(words), key)


class _Censor:
    """One censoring run; holds the living set, the secrets and the redaction log."""

    def __init__(
        self, graph: CaseGraph, today: date | None, mask_names: bool, policy: PrivacyPolicy,
        verdicts: dict[str, Verdict] | None = None, secrets: Secrets | None = None,
        living: set[str] | None = None, withheld: Withheld | None = None,
    ) -> None:
        self.src = graph
        self.mask = mask_names or policy.mask_names
        self.verdicts = (living_verdicts(graph, today=today, policy=policy)
                         if verdicts is None else verdicts)
        self.status = {pid: (v.living, v.reason) for pid, v in self.verdicts.items()}
        # `living`: who of `verdicts` is living, where the caller keeps it (`LiveCensor`)
        self.living = ({pid for pid, (alive, _) in self.status.items() if alive}
                       if living is None else living)
        # the dead with a living spouse: their marriage is the living spouse's too
        self.couples = {p.id for p in graph.persons
                        if p.id not in self.living and p.spouses & self.living}
        self.cutoff = (today or date.today()).year - policy.max_age  # no one living wed before
        # the spans cited for the living, withheld wherever quoted (`withheld`); `parts`:
        # each person's share and the hypotheses', where made here (`LiveCensor` keeps them)
        self.parts: dict[str, frozenset[Span]] | None = None
        if withheld is None:
            self.parts = {pid: got for pid, claims in graph.assertions.items()
                          if (got := self.withheld_spans(pid, claims))}
            withheld = Withheld.of(chain(*self.parts.values(), self.hypothesis_spans()))
        self.withheld = withheld
        self.log: list[dict[str, Any]] = [dict(r) for r in graph.redactions]
        self.values: dict[str, str | None] = {}  # assertion id -> value after redaction
        self.secrets = self._secrets(secrets)
        self._mentions, self._scrubbed = _memo(self._secret_key)
        # names and ids a relationship claim may give a living person by (masked names):
        # one set, not a loop over every person per claim
        self._masked = {x for p in graph.persons if p.id in self.living
                        for x in (p.canonical_name, p.id)} if self.mask else set()

    # -- bookkeeping ------------------------------------------------------------------
    def note(
        self, person_id: str | None, field: str, action: str, reason: str, **extra: str
    ) -> None:
        self.log.append(
            {"person_id": person_id, "field": field, "action": action, "reason": reason, **extra}
        )

    def _secrets(self, given: Secrets | None) -> Literals:
        """The living persons' distinctive literals as one `Literals` index (one pass per
        text, whatever their number); exact days and months go to `self.dates`
        (`DateSecrets`), also one pass per text. `given`: made before (`LiveCensor`)."""
        if given is None:
            given = make_secrets(*_union(
                person_secrets(p, self.src.assertions.get(p.id, []), self.mask)
                for p in self.src.persons if p.id in self.living), mask=self.mask)
        self.dates = given.dates
        self._secret_key = given.key
        return given.words

    def _clean(self, text: str) -> bool:
        """True when no secret can be in `text`: every date, literal and PII pattern needs a
        digit or an "@" (masked names aside). Most names and places end here."""
        return not self.mask and _SECRET_CHAR.search(text) is None

    def mentions(self, text: str) -> bool:
        if self._clean(text):
            return False
        known = self._mentions.get(text)
        if known is None:
            known = self._mentions[text] = bool(
                self.dates.search(text)
                or self.secrets.search(text)
                or has_pii(text)
            )
        return known

    def scrub(self, text: str, *, keep_length: bool = False) -> str:
        if self._clean(text):
            return text
        done = self._scrubbed.get((text, keep_length))
        if done is None:
            done = self._scrubbed[(text, keep_length)] = self._scrub(text, keep_length)
        return done

    def _scrub(self, text: str, keep_length: bool) -> str:
        def mask(m: re.Match[str]) -> str:
            return "█" * len(m.group(0)) if keep_length else REDACTED
        if self.dates:
            text = self.dates.sub(mask, text)
        if self.secrets:
            text = self.secrets.sub(lambda s: "█" * len(s) if keep_length else REDACTED, text)
        return sub_pii((pattern for pattern, _ in pii_patterns_in(text)), mask, text)

    # -- persons ----------------------------------------------------------------------
    def person(self, p: Person) -> Person:
        verdict = self.verdicts[p.id]
        if not verdict.living:
            return _copy(p, {"is_living": False})
        self.note(p.id, "*", "classified_living", verdict.reason, rule=verdict.rule)
        update: dict[str, Any] = {"is_living": True}
        for field in ("birth", "death"):
            gd: GenDate | None = getattr(p, field)
            if gd is not None:
                update[field] = decade_of(gd)
                self.note(p.id, field, "coarsened_to_decade", "exact dates of the living")
        for field in ("birth_place", "death_place"):
            place: str | None = getattr(p, field)
            if place:
                update[field] = last_component(place)
                self.note(p.id, field, "truncated_place", "places of the living: region only")
        if self.mask:
            update.update(canonical_name=LIVING_NAME, given_name="", surname="", name_variants=[])
            self.note(p.id, "name", "name_masked", "mask_names requested")
        return _copy(p, update)

    def _shared_events(self, pid: str, claims: list[Assertion]) -> set[str]:
        """Ids of the couple-event claims of `pid` (not living, a spouse living) that may be
        the living spouse's: dated within `max_age` years, or undated beside such a date
        (or beside none at all). A marriage in 1328 is no living person's."""
        events = [a for a in claims if a.field_name.startswith(COUPLE_EVENTS)]
        dated = [a.date for a in events if a.date is not None]
        recent = not dated or any(self._recent(d) for d in dated)
        return {a.id for a in events
                if (self._recent(a.date) if a.date is not None else recent)}

    def _recent(self, gd: GenDate) -> bool:
        return gd.latest is None or gd.latest.year >= self.cutoff

    def withheld_spans(self, pid: str, claims: list[Assertion]) -> frozenset[Span]:
        """The spans `pid`'s claims cite whose excerpts are withheld: every one of a living
        person's, those of a couple's events shared with a living spouse."""
        if pid in self.living:
            chosen = claims
        elif pid in self.couples:
            shared = self._shared_events(pid, claims)
            chosen = [a for a in claims if a.id in shared]
        else:
            return frozenset()
        return frozenset((c.snapshot_id, c.locator.start, c.locator.end)
                         for a in chosen for c in a.citations)

    def hypothesis_spans(self) -> frozenset[Span]:
        """The spans cited as evidence of hypotheses about a living person."""
        return frozenset((c.snapshot_id, c.locator.start, c.locator.end)
                         for h in self.src.hypotheses if h.target_person in self.living
                         for c in h.evidence)

    # -- assertions -------------------------------------------------------------------
    def living_claim(self, pid: str, a: Assertion) -> Assertion | None:
        field = a.field_name
        if field in SENSITIVE_FIELDS or field in AGE_FIELDS:
            self.values[a.id] = None
            self.note(pid, field, "removed", "contact/identity data of a living person"
                      if field in SENSITIVE_FIELDS else "an age dates a living person's birth")
            return None
        update: dict[str, Any] = {}
        value = a.value
        if field in DATE_FIELDS or a.date is not None:
            if field in DATE_FIELDS:
                value = decade_label(a.value, a.date)
            if a.date is not None:
                update["date"] = decade_of(a.date)
            self.note(pid, field, "coarsened_to_decade", "exact dates of the living")
        if field in PLACE_FIELDS:
            value = last_component(value)
            self.note(pid, field, "truncated_place", "places of the living: region only")
        if self.mask and field in NAME_LIKE_FIELDS:
            value = LIVING_NAME
            self.note(pid, field, "name_masked", "mask_names requested")
        scrubbed = self.scrub(value)
        if scrubbed != value:
            self.note(pid, field, "pii_scrubbed", "personal data pattern in a living claim")
        update["value"] = scrubbed
        if a.citations:
            update["citations"] = [
                c.model_copy(update={"excerpt": REDACTED_EXCERPT}) for c in a.citations
            ]
            self.note(pid, field, "excerpt_redacted", "excerpts can quote exact dates")
        self.values[a.id] = scrubbed
        return _copy(a, update)

    def claims(self, pid: str, claims: list[Assertion]) -> list[Assertion]:
        """One person's (or entity's) claims as they may be shown."""
        kept: list[Assertion] = []
        shared = self._shared_events(pid, claims) if pid in self.couples else set()
        for a in claims:
            alive = pid in self.living or a.id in shared
            new = self.living_claim(pid, a) if alive else self.other_claim(pid, a)
            if new is not None:
                kept.append(new)
        return kept

    def other_claim(self, pid: str, a: Assertion) -> Assertion:
        value = a.value
        if self.mask and a.field_name in RELATIONSHIP_FIELDS and value.strip() in self._masked:
            value = LIVING_NAME
        if a.field_name not in DATE_FIELDS:
            value = self.scrub(value)
        if value != a.value:
            self.note(pid, a.field_name, "pii_scrubbed", "value mentions a living person or PII")
        self.values[a.id] = value
        citations = [self.cited(pid, a.field_name, c) for c in a.citations]
        return _copy(a, {"value": value, "citations": citations})

    def cited(self, pid: str | None, field: str, c: Citation) -> Citation:
        if self.mentions(c.excerpt):
            self.note(pid, field, "excerpt_redacted", "excerpt mentions a living person or PII")
            return c.model_copy(update={"excerpt": MENTIONS_LIVING})
        if self.withheld and self.withheld.withholds(c):
            self.note(pid, field, "excerpt_redacted", "quotes a span withheld for the living")
            return c.model_copy(update={"excerpt": REDACTED_EXCERPT})
        return c

    # -- conflicts, hypotheses, snapshots -----------------------------------------------
    def conflict(self, c: Conflict) -> Conflict | None:
        alive = c.person_id in self.living
        if alive and (c.field in SENSITIVE_FIELDS or c.field in AGE_FIELDS):
            self.note(c.person_id, c.field, "conflict_dropped", "field removed for the living")
            return None
        competing = []
        for rc in c.competing:
            value = self.values.get(rc.assertion_id, rc.value)
            if value is None:
                continue
            if alive and rc.assertion_id not in self.values:
                value = self._coarse(c.field, rc.value)
            competing.append(rc.model_copy(update={"value": value}))
        rec = self.values.get(c.recommended_assertion_id, c.recommended_value)
        if rec is None or (alive and c.recommended_assertion_id not in self.values):
            rec = self._coarse(c.field, c.recommended_value)
        update = {
            "competing": competing,
            "recommended_value": rec,
            "rationale": self.scrub(c.rationale),
            "next_actions": [self.scrub(x) for x in c.next_actions],
        }
        return _copy(c, update)

    def _coarse(self, field: str, value: str) -> str:
        if field in DATE_FIELDS:
            return decade_label(value, None)
        if field in PLACE_FIELDS:
            return last_component(value)
        return self.scrub(value)

    def hypothesis(self, h: Hypothesis) -> Hypothesis:
        if h.target_person in self.living:
            evidence = [c.model_copy(update={"excerpt": REDACTED_EXCERPT}) for c in h.evidence]
        else:
            evidence = [self.cited(h.target_person, "hypothesis", c) for c in h.evidence]
        update = {
            "statement": self.scrub(h.statement),
            "suggested_queries": [self.scrub(q) for q in h.suggested_queries],
            "suggested_sources": [self.scrub(s) for s in h.suggested_sources],
            "evidence": evidence,
        }
        return _copy(h, update)

    def citers(self) -> dict[str, set[str]]:
        """snapshot id -> ids of persons (or "" for untargeted hypotheses) citing it."""
        out: dict[str, set[str]] = {}
        for pid, claims in self.src.assertions.items():
            for claim in claims:
                for c in claim.citations:
                    out.setdefault(c.snapshot_id, set()).add(pid)
        for h in self.src.hypotheses:
            for c in h.evidence:
                out.setdefault(c.snapshot_id, set()).add(h.target_person or "")
        return out

    def snapshots(self) -> dict[str, Snapshot]:
        citers = self.citers()
        return {sid: self.snapshot(snap, citers.get(sid, set()))
                for sid, snap in self.src.snapshots.items()}

    def snapshot(self, snap: Snapshot, who: set[str]) -> Snapshot:
        """One snapshot, `who` citing it."""
        if who and who <= self.living:
            text = ""
            self.note(None, f"snapshot:{snap.id}", "snapshot_text_dropped",
                      "cited only for living")
        else:
            text = self.scrub(snap.text, keep_length=True)
            if snap.media_type == "text/x-gedcom":  # contact data no claim holds
                masked = mask_contacts(text, partial(self._cited_in, snap.id))
                if masked != text:
                    text = masked
                    self.note(None, f"snapshot:{snap.id}", "contacts_masked",
                              "addresses and contacts in records of the living")
            masked = self.withheld.mask(snap.id, text)
            if masked != text:
                text = masked
                self.note(None, f"snapshot:{snap.id}", "years_masked",
                          "years in the spans cited for the living")
        meta = self._scrub_value(snap.metadata)
        update: dict[str, Any] = {"text": text, "metadata": meta}
        update["url"] = self.scrub(snap.url) if snap.url else snap.url
        update["path"] = self.scrub(snap.path) if snap.path else snap.path
        update["source_name"] = self.scrub(snap.source_name)
        return _copy(snap, update)

    def _cited_in(self, sid: str) -> Iterator[tuple[int, bool]]:
        """(offset, by a living person) of every citation of snapshot `sid`."""
        for pid, claims in self.src.assertions.items():
            alive = pid in self.living
            for claim in claims:
                for c in claim.citations:
                    if c.snapshot_id == sid:
                        yield c.locator.start, alive
        for h in self.src.hypotheses:
            alive = h.target_person is None or h.target_person in self.living
            for c in h.evidence:
                if c.snapshot_id == sid:
                    yield c.locator.start, alive

    def _scrub_value(self, value: Any) -> Any:
        """`scrub` of every string in a JSON-like value, nested ones included: a fetch's
        request headers name the user's contact address (`User-Agent`)."""
        if isinstance(value, str):
            return self.scrub(value)
        if isinstance(value, dict):
            return {k: self._scrub_value(v) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return [self._scrub_value(v) for v in value]
        return value

    def _source_only(self, snap: Snapshot) -> Snapshot:
        """A snapshot as a source's name and address, its text and metadata left out."""
        return _copy(snap, {"text": "", "metadata": {}, "page_starts": (),
                            "url": self.scrub(snap.url) if snap.url else snap.url,
                            "path": self.scrub(snap.path) if snap.path else snap.path,
                            "source_name": self.scrub(snap.source_name)})

    # -- the run ------------------------------------------------------------------------
    def run(self, only: Collection[str] | None = None) -> CensoredGraph:
        persons = [self.person(p) for p in self.src.persons]
        assertions: dict[str, list[Assertion]] = {}
        for pid, claims in self.src.assertions.items():
            if only is not None and pid not in only:
                continue
            assertions[pid] = self.claims(pid, claims)
        if only is None:
            conflicts = [c for c in map(self.conflict, self.src.conflicts) if c is not None]
            hypotheses = [self.hypothesis(h) for h in self.src.hypotheses]
            snapshots = self.snapshots()
        else:  # one screen's view: their claims' conflicts and sources' names, no texts
            conflicts = [c for c in map(self.conflict, self.src.conflicts)
                         if c is not None and c.person_id in only]
            hypotheses = []
            cited = {c.snapshot_id for lst in assertions.values() for a in lst
                     for c in a.citations}
            snapshots = {sid: self._source_only(s) for sid, s in self.src.snapshots.items()
                         if sid in cited}
        return CensoredGraph(
            title=self.scrub(self.src.title),
            persons=persons,
            assertions=assertions,
            snapshots=snapshots,
            conflicts=conflicts,
            hypotheses=hypotheses,
            review_open=self.src.review_open,
            redactions=self.log,
            extra_parents=self.src.extra_parents,
        )


# What a text mentions and how it is scrubbed depend only on the secrets (the living
# persons' dates and literals, and whether names are masked). One process often censors the
# same case many times - `sleuth privacy report` renders seven outputs, each exporter
# censoring on its own - so the answers are kept per set of secrets, for the last few sets.
_MEMOS: dict[tuple[Any, ...], tuple[dict[str, bool], dict[tuple[str, bool], str]]] = {}
_MEMO_SETS = 2


def _memo(key: tuple[Any, ...]) -> tuple[dict[str, bool], dict[tuple[str, bool], str]]:
    got = _MEMOS.pop(key, None)
    if got is None:
        got = ({}, {})
    _MEMOS[key] = got  # most recently used last
    while len(_MEMOS) > _MEMO_SETS:
        del _MEMOS[next(iter(_MEMOS))]
    return got


def censor(
    graph: CaseGraph,
    *,
    today: date | None = None,
    mask_names: bool = False,
    policy: PrivacyPolicy | None = None,
    only: Collection[str] | None = None,
) -> CensoredGraph:
    """A redacted copy of `graph` that is safe to print, export or show (input untouched).

    Each output person carries the Censor's verdict in `is_living`; each action taken is
    appended to the copy's `redactions`. See the module docstring for what is redacted.
    `policy` defaults to the one `use_policy` installed, else `PrivacyPolicy()`; names are
    masked when either `mask_names` or the policy asks. With `only`, a view for one screen
    (`sleuth show CASE person ID`): every person, but only these persons' claims and
    conflicts, no hypotheses, and the snapshots they cite without their texts. Who is
    living is still judged on the whole graph.
    """
    pol = active_policy(policy)
    if _SHARED is None:
        with paused_gc():
            return _Censor(graph, today, mask_names, pol).run(only)
    key = (id(graph), today, mask_names, pol, None if only is None else frozenset(only))
    hit = _SHARED.get(key)
    if hit is None or hit[0] is not graph:
        with paused_gc():
            hit = _SHARED[key] = (graph, _Censor(graph, today, mask_names, pol).run(only))
    return hit[1]


def unredacted(graph: CaseGraph) -> CensoredGraph:
    """The case as stored, for its owner on their own machine with redaction turned off
    (`sleuth serve CASE --no-redaction`, loopback only, every page under a banner): the
    one way to a shown graph that does not go through the Censor, explicit and logged."""
    fields = {name: getattr(graph, name) for name in CaseGraph.model_fields}
    fields["redactions"] = [{"person_id": None, "field": "*", "action": "redaction_off",
                             "reason": "the case's owner turned redaction off for local use"}]
    return CensoredGraph.model_construct(**fields)


def living_verdicts(graph: CaseGraph, *, today: date | None = None,
                    policy: PrivacyPolicy | None = None) -> dict[str, Verdict]:
    """`explain_living`, judged once per graph and settings inside `one_view`: the
    privacy report shows the verdicts the Censor redacts by, and judging a case twice
    was a tenth of censoring it. Callers treat the verdicts as read-only."""
    pol = active_policy(policy)
    if _SHARED is None:
        return explain_living(graph, today=today, policy=pol)
    key = ("living", id(graph), today, pol)
    hit = _SHARED.get(key)
    if hit is None or hit[0] is not graph:
        hit = _SHARED[key] = (graph, explain_living(graph, today=today, policy=pol))
    return hit[1]


# graph id and settings -> (the graph, its censored copy or verdicts), in `one_view` only
_SHARED: dict[tuple[Any, ...], tuple[CaseGraph, Any]] | None = None


@contextmanager
def one_view() -> Iterator[None]:
    """Inside: `censor` of one graph object with the same settings gives the copy it made
    the first time. `sleuth privacy report` renders seven outputs of one case and every
    exporter censors on its own; one copy, not six, keeps its cost down. Only for callers
    whose outputs treat the copy as read-only (every exporter does) and that do not change
    the graph in between; outside, every call makes a fresh copy."""
    global _SHARED
    outer = _SHARED
    _SHARED = {} if outer is None else outer
    try:
        yield
    finally:
        _SHARED = outer


@contextmanager
def paused_gc() -> Iterator[None]:
    """Pause the cyclic garbage collector: censoring (and checking) a case copies every
    model and makes no reference cycle, and beside a large case graph each collection it
    would trigger walks millions of objects - time growing faster than the case."""
    paused = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if paused:
            gc.enable()
