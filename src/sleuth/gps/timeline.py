"""A person's timeline: every dated claim in order, with impossible or suspicious gaps flagged.

Events are the person's own dated claims (birth, baptism, marriage, residence, death,
burial...) and the family events that bound a life: each child's birth or baptism, each
spouse's and parent's death. Flags come from two places:

* `sleuth.quality` (Gramps / WikiTree / FamilySearch rules, certain for every date the
  ranges allow or marked "possible"): baptism before birth, baptism long after birth, a child
  born after the mother's death (or over 294 days after the father's), old or young parents,
  events out of order...;
* the timeline's own checks: an age over `MAX_AGE` at any dated event, a baptism more than
  `LATE_BAPTISM_YEARS` after the birth (when no sibling rule fired), a stated age at death
  the birth and death dates cannot give, and a stretch of more than `SILENT_YEARS` with no
  record of a living person (a "gap": where to search next).

One event is one line: the claims of one kind and date, however each source spells the
date, are one event citing them all.

Built on the censored graph when printed (a living person's dates are decades there, so
their checks only say what the decades allow).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from itertools import pairwise

from sleuth.gps.words import date_words
from sleuth.model.ages import ages_given, fits, stated_years
from sleuth.model.citation import Citation
from sleuth.model.dates import GenDate
from sleuth.model.graph import CaseGraph
from sleuth.model.records import AssertionStatus
from sleuth.privacy.view import CensoredGraph
from sleuth.quality import check_tree, tree_from_graph

MAX_AGE = 110
SILENT_YEARS = 30
LATE_BAPTISM_YEARS = 1  # infant baptism was the norm; Gramps' sibling rule needs siblings
_FAMILY: tuple[tuple[str, tuple[str, ...], str], ...] = (
    ("children", ("birth_date", "baptism_date"), "child {name}: {field}"),
    ("spouses", ("death_date",), "spouse {name}: death"),
    ("parents", ("death_date",), "parent {name}: death"),
)


@dataclass
class Event:
    start: date | None
    end: date | None
    label: str  # "birth", "child Mary Smith: birth"...
    value: str  # the claim's value as stated
    person_id: str  # whose claim it is
    citations: list[Citation] = field(default_factory=list)

    @property
    def when(self) -> str:
        if self.start is None and self.end is None:
            return "?"
        if self.start == self.end or self.end is None:
            return str(self.start)
        return f"{self.start or '?'}..{self.end or '?'}"


@dataclass
class Flag:
    severity: str  # error (impossible), warning (suspicious), possible, gap
    message: str
    rule: str


@dataclass
class Timeline:
    person_id: str
    name: str
    events: list[Event]
    flags: list[Flag]


def _field_label(fname: str) -> str:
    return fname.removesuffix("_date").replace("_", " ")


def _events_of(graph: CaseGraph, pid: str, fields: tuple[str, ...] | None) -> list[Event]:
    """One event per kind and date: the claims of one death on 4 November 1953 ("November 4,
    1953", "1953-11-04", from three sources) are one line citing all three."""
    out: dict[tuple[str, date | None, date | None, str], Event] = {}
    for a in graph.assertions.get(pid, []):
        if a.status is AssertionStatus.REJECTED or a.date is None:
            continue
        if fields is not None and a.field_name not in fields:
            continue
        d: GenDate = a.date
        if d.earliest_bce or d.latest_bce or (d.earliest is None and d.latest is None):
            continue
        label = _field_label(a.field_name)
        key = (label, d.earliest, d.latest, str(d.qualifier))
        if key not in out:
            words = date_words(d, d.original or a.value)
            out[key] = Event(d.earliest, d.latest, label, " ".join(words.split()), pid)
        out[key].citations += [c for c in a.citations if c not in out[key].citations]
    return list(out.values())


def _years(a: date, b: date) -> float:
    return (b.toordinal() - a.toordinal()) / 365.25


def timeline(graph: CensoredGraph, person_id: str, *, today: date | None = None) -> Timeline:
    """The person's events in date order and the flags on them (see the module docstring)."""
    persons = {p.id: p for p in graph.persons}
    p = persons.get(person_id)
    if p is None:
        raise KeyError(f"person {person_id} is not in this case")
    events = _events_of(graph, person_id, None)
    for rel, fields, text in _FAMILY:
        for other in sorted(getattr(p, rel)):
            name = persons[other].canonical_name if other in persons else other
            for e in _events_of(graph, other, fields):
                e.label = text.format(name=name, field=e.label)
                events.append(e)
    events.sort(key=lambda e: (e.start or e.end or date.max, e.label))
    flags: list[Flag] = []
    tree = tree_from_graph(graph)
    for f in check_tree(tree, today=today):
        if person_id in f.people:
            flags.append(Flag(f.severity, f.message, f"{f.source}:{f.rule}"))
    births = [e for e in events if e.person_id == person_id and e.label in ("birth", "baptism")]
    born = min((d for d in (e.end or e.start for e in births) if d is not None), default=None)
    own = [e for e in events if e.person_id == person_id]
    if born is not None:
        for e in own:
            at = e.start or e.end
            if at is not None and _years(born, at) > MAX_AGE:
                flags.append(Flag("error" if _years(born, at) > 120 else "warning",
                                  f"{e.label} ({e.when}) at an age over {MAX_AGE} "
                                  f"({_years(born, at):.0f} years after {born})",
                                  "timeline:age_over_110"))
    bapt = [e for e in own if e.label in ("baptism", "christening")]
    birth = [e for e in own if e.label == "birth"]
    if bapt and birth and not any(f.rule.endswith("baptism_too_late") for f in flags):
        b0, p0 = birth[0].end or birth[0].start, bapt[0].start or bapt[0].end
        if b0 and p0 and _years(b0, p0) > LATE_BAPTISM_YEARS:
            flags.append(Flag("warning", f"baptism ({bapt[0].when}) {_years(b0, p0):.1f} years "
                                         f"after birth ({birth[0].when}): an adult or late "
                                         "baptism, or two different persons",
                              "timeline:late_baptism"))
    flags += _age_at_death(graph, person_id, own)
    dated = [e for e in own if e.start or e.end]
    for a, b in pairwise(dated):
        x, y = a.end or a.start, b.start or b.end
        if x and y and _years(x, y) > SILENT_YEARS:
            flags.append(Flag("gap", f"no record for {_years(x, y):.0f} years between "
                                     f"{a.label} ({a.when}) and {b.label} ({b.when})",
                              "timeline:silent_years"))
    return Timeline(person_id, p.canonical_name or person_id, events, flags)


def _age_at_death(graph: CensoredGraph, pid: str, own: list[Event]) -> list[Flag]:
    """A stated age at death that the birth and death dates cannot give ("aged 68" for a
    man born 10 Nov 1745 who died 5 Dec 1812, at 67; `model.ages`)."""
    births = [(e.start, e.end, e.value) for e in own
              if e.label == "birth" and e.start is not None and e.end is not None]
    deaths = [(e.start, e.end, e.value) for e in own
              if e.label == "death" and e.start is not None and e.end is not None]
    out = []
    stated = sorted({age for a in graph.assertions.get(pid, [])
                     if a.field_name == "age_at_death" and a.status is not AssertionStatus.REJECTED
                     and (age := stated_years(a.value)) is not None})
    for age in stated if births and deaths else ():
        if any(fits(age, (b[0], b[1]), (d[0], d[1])) for b in births for d in deaths):
            continue
        (b0, b1, born), (d0, d1, died) = births[0], deaths[0]
        low, high = ages_given((b0, b1), (d0, d1))
        gives = str(low) if low == high else f"{low} to {high}"
        out.append(Flag("warning", f"age at death stated as {age}, but birth ({born}) and "
                                   f"death ({died}) give {gives}", "timeline:age_at_death"))
    return out


def render(t: Timeline) -> str:
    """Plain text for `sleuth timeline`."""
    lines = [f"Timeline of {t.name} ({t.person_id})", ""]
    for e in t.events:
        lines.append(f"  {e.when:<24} {e.label}: {e.value}  [{len(e.citations)} citation(s)]")
    if not t.events:
        lines.append("  no dated claims on file")
    lines += ["", "Flags:" if t.flags else "Flags: none"]
    lines += [f"  [{f.severity}] {f.message} ({f.rule})" for f in t.flags]
    return "\n".join(lines)
