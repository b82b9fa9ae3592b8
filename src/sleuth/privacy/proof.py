"""What `sleuth privacy report` proves on the censored view instead of rendering it whole.

Every output path (report, JSON-LD, GEDCOM 5.5.1 and 7.0, GEDCOM X, `sleuth show`) is a
function of the censored view alone (the report also reads the stored snapshots, to
classify its sources). What an output can print is therefore either the view's own data
or what the exporter's code makes of it, and the report checks the two apart, each over
everything it covers:

* the data, whole (`view_findings`): every string anywhere in the view - names, values,
  excerpts, snapshot texts and metadata, conflicts, hypotheses, the redaction log - found
  generically, so a field added to a model is covered without a word here, and each
  distinct string scanned once for what an output must not hold (generic PII, a living
  person's exact birth day, a removed contact value); every date of a living person, and
  no removed field of theirs, checked claim by claim; no year quoted where a span cited
  for a living person is (`quoted_years`: their excerpts are withheld, so another claim's
  quote of the same words, or the source's text shown, must not print them). A
  100,000-person view's strings are a twentieth of the characters of its seven renderings
  (issue 19);
* the code (`exposed_view`): every output path rendered and scanned, as before, from the
  part of the view that holds or names a living person - each living person with every
  claim, conflict and hypothesis about them, and their relatives, whose records link
  them - and, so that each of the exporter's paths runs on the case's own data, the first
  person holding each kind of claim, citing each source, or having each kind of conflict
  or hypothesis. A dead person outside it is written from data proved clean above, by
  code run on the persons inside it.
"""

from __future__ import annotations

from datetime import date, datetime
from enum import Enum
from types import UnionType
from typing import Any, Union, get_args, get_origin

from pydantic import BaseModel

from sleuth.model.citation import Citation
from sleuth.model.dates import GenDate
from sleuth.model.graph import CaseGraph
from sleuth.model.records import Person
from sleuth.privacy.redaction import MENTIONS_LIVING, REDACTED_EXCERPT
from sleuth.privacy.scan import (
    BirthDays,
    Finding,
    exact_dates_of_living,
    first_places,
    scan_strings,
)
from sleuth.privacy.view import CensoredGraph
from sleuth.privacy.withheld import Withheld

LEAK_KINDS = ("ssn", "national_id", "email", "phone")
# Removed values that must appear nowhere. Not residence / residence_date: a living
# person's residence claim is removed, but the same town or day in a source shared with the
# dead (survivors "of Milwaukee" in an obituary, on the death day) is that record's history,
# as the Censor treats places and dates; living persons' exact days are checked separately.
CONTACT_FIELDS = frozenset({"address", "phone", "email", "ssn", "national_id"})
# Fields the Censor removes from a living person's claims (`redaction.SENSITIVE_FIELDS`)
REMOVED_FIELDS = CONTACT_FIELDS | {"residence", "residence_date"}


def view_strings(view: CaseGraph) -> set[str]:
    """Every distinct string the view holds, at any depth, with each date as ISO text (how
    the JSON outputs write it). A date range's bounds are left out: a bound is the whole
    range's, not anyone's day; a living person's are checked as dates, and a day a source
    gave is also in its date's `original` text. A time (when a claim was recorded) is read
    as its day: its time of day is no one's data, and a 100,000-person case has a million
    of them. A value of a type not known here stops the proof rather than being skipped."""
    out: set[str] = set()
    times: set[date] = set()
    seen: set[int] = set()  # frozen models (citations, dates) are shared between claims
    stack: list[Any] = [view]
    add, push, pop, kinds = out.add, stack.append, stack.pop, _KINDS
    while stack:
        x = pop()
        kind = kinds.get(type(x)) or _kind(type(x))
        if kind == _MODEL:
            if type(x).model_config.get("frozen"):
                if id(x) in seen:
                    continue
                seen.add(id(x))
            values = x.__dict__
            for name in _FIELDS[type(x)]:
                v = values[name]
                k = kinds.get(type(v))
                if k == _STR:
                    add(v)
                elif k == _TIME:
                    times.add(v)
                elif k != _SKIP:
                    push(v)
            if x.__pydantic_extra__:
                push(x.__pydantic_extra__)
        elif kind == _STR:
            add(x)
        elif kind == _DICT:
            stack.extend(x)
            stack.extend(x.values())
        elif kind == _SEQ:
            stack.extend(x)
        elif kind == _TIME:
            times.add(x)
    days = {t.date() if isinstance(t, datetime) else t for t in times}
    out.update(day.isoformat() for day in days)
    return out


_STR, _MODEL, _DICT, _SEQ, _TIME, _SKIP = range(1, 7)
_KINDS: dict[type, int] = {str: _STR, dict: _DICT, list: _SEQ, tuple: _SEQ, set: _SEQ,
                           frozenset: _SEQ, date: _TIME, datetime: _TIME, int: _SKIP,
                           float: _SKIP, bool: _SKIP, type(None): _SKIP}
# the fields of a date range left out (see `view_strings`), by class
_BOUNDS: dict[type, tuple[str, ...]] = {GenDate: ("earliest", "latest")}
# the fields `view_strings` reads, by model class
_FIELDS: dict[type, tuple[str, ...]] = {}


def _kind(cls: type) -> int:
    """How `view_strings` reads a value of `cls`, decided once per class: an enum is one of
    a fixed set of words, not data (as are numbers). A model's fields typed as numbers or
    enums are not read at all (a 100,000-person view has a million of each), nor is a
    model of such fields alone (a citation's span)."""
    if issubclass(cls, BaseModel):
        _FIELDS[cls] = tuple(name for name, f in cls.model_fields.items()
                             if name not in _BOUNDS.get(cls, ()) and not _scalar(f.annotation))
        kind = _MODEL if _FIELDS[cls] or cls.model_config.get("extra") else _SKIP
    elif issubclass(cls, Enum):
        kind = _SKIP
    else:
        kind = next((k for base, k in _KINDS.items() if issubclass(cls, base)), 0)
    if not kind:
        raise TypeError(f"the view holds a {cls.__name__}, which the proof cannot read")
    _KINDS[cls] = kind
    return kind


def _scalar(annotation: Any) -> bool:
    """Whether a field so typed holds only numbers, flags, enums or nothing."""
    union = get_origin(annotation) in (Union, UnionType)
    return all(a is type(None) or (isinstance(a, type) and issubclass(a, int | float | Enum))
               for a in (get_args(annotation) if union else (annotation,)))


def view_findings(view: CaseGraph, living: set[str], births: BirthDays,
                  contacts: list[tuple[str, str, str]]) -> list[Finding]:
    """Everything in the censored view that no output may print (see the module
    docstring), as findings at "view"; none is expected."""
    strings = view_strings(view)
    found = scan_strings(strings, "view", births=births, kinds=LEAK_KINDS)
    if contacts:
        low = '"'.join(sorted(strings)).lower()
        places = first_places(low, {v.lower() for _, _, v in contacts})
        found += [Finding("view", field, at, at + len(value), pid)
                  for pid, field, value in contacts
                  if (at := places.get(value.lower())) is not None]
    found += exact_dates_of_living(view, living)
    found += quoted_years(view, living)
    found += [Finding("view", "living_removed_field", 0, 0, person_id=pid)
              for pid in sorted(living) for c in view.assertions.get(pid, [])
              if c.field_name in REMOVED_FIELDS]
    return found


_MARKERS = frozenset({REDACTED_EXCERPT, MENTIONS_LIVING})


def quoted_years(view: CaseGraph, living: set[str]) -> list[Finding]:
    """Every quote in the view - an excerpt shown verbatim, a snapshot's text - of a span
    cited for a living person, or that prints a year inside one: any citation of a living
    person's
    claim, and any the Censor withheld (a couple's event, a hypothesis about them). The
    view alone says which those are: their locators stay when their excerpts go."""
    claims: list[tuple[str | None, Citation]] = [
        (pid, c) for pid, lst in view.assertions.items() for a in lst for c in a.citations]
    claims += [(h.target_person, c) for h in view.hypotheses for c in h.evidence]
    withheld = Withheld.of((c.snapshot_id, c.locator.start, c.locator.end)
                           for pid, c in claims if pid in living or c.excerpt == REDACTED_EXCERPT)
    if not withheld:
        return []
    found = [Finding("view", "living_quote", c.locator.start, c.locator.end, person_id=pid)
             for pid, c in claims
             if c.excerpt not in _MARKERS and withheld.withholds(c)]
    found += [Finding("view", "living_quote", a, b)
              for sid, snap in view.snapshots.items() if sid in withheld.by_snapshot
              for a, b in withheld.years_in(sid, snap.text)]
    return found


def living_contacts(graph: CaseGraph, living: set[str]) -> list[tuple[str, str, str]]:
    """(person, field, value) of each removed contact value of a living person that is
    distinctive enough to look for (`CONTACT_FIELDS`, six characters or more)."""
    return [(pid, claim.field_name, claim.value.strip())
            for pid in sorted(living) for claim in graph.assertions.get(pid, [])
            if claim.field_name in CONTACT_FIELDS and len(claim.value.strip()) >= 6]


def exposed_view(view: CensoredGraph, living: set[str]) -> CensoredGraph:
    """The part of the censored `view` the outputs are rendered from to check their code
    (see the module docstring): the persons it is about, with all their claims, conflicts
    and hypotheses; their relatives, linked but without claims; every snapshot, as the
    JSON-LD and GEDCOM X outputs list each source; the redaction log of those persons.
    The view's own objects, but for relatives whose links are cut to the persons kept."""
    full = _chosen(view, living)
    by_id = {p.id: p for p in view.persons}
    kin = {x for pid in full if (p := by_id.get(pid)) is not None
           for x in p.parents | p.spouses | p.children}
    kin |= {x for pid in full for x in view.extra_parents.get(pid, ())}
    kin |= {h.related_person for h in view.hypotheses
            if h.related_person and (h.target_person is None or h.target_person in full)}
    kept = full | kin
    persons = [p if p.id in full else _linked_within(p, kept)
               for p in view.persons if p.id in kept]
    return view.model_copy(update={
        "persons": persons,
        "assertions": {pid: claims for pid, claims in view.assertions.items() if pid in full},
        "conflicts": [c for c in view.conflicts if c.person_id in full],
        "hypotheses": [h for h in view.hypotheses
                       if h.target_person is None or h.target_person in full],
        "redactions": [r for r in view.redactions
                       if r.get("person_id") is None or r.get("person_id") in full],
        "extra_parents": {pid: v for pid, v in view.extra_parents.items() if pid in full},
    })


def _chosen(view: CaseGraph, living: set[str]) -> set[str]:
    """The persons rendered with everything about them: the living, and the first person
    (in the view's order) to hold each kind of claim, to cite each snapshot, or to have
    each kind of conflict or hypothesis."""
    chosen = {p.id for p in view.persons if p.id in living}
    firsts: dict[tuple[str, str], str] = {}
    for pid, claims in view.assertions.items():
        for c in claims:
            firsts.setdefault(("field", c.field_name), pid)
            for ci in c.citations:
                firsts.setdefault(("snapshot", ci.snapshot_id), pid)
    for conflict in view.conflicts:
        firsts.setdefault(("conflict", conflict.field), conflict.person_id)
    for h in view.hypotheses:
        if h.target_person:
            firsts.setdefault(("hypothesis", h.hypothesis_type), h.target_person)
    known = {p.id for p in view.persons}
    return chosen | (set(firsts.values()) & known)


def _linked_within(p: Person, keep: set[str]) -> Person:
    """`p` with its family links to persons outside `keep` left out (a copy, if any)."""
    if p.parents <= keep and p.spouses <= keep and p.children <= keep:
        return p
    return p.model_copy(update={"parents": p.parents & keep, "spouses": p.spouses & keep,
                                "children": p.children & keep})
