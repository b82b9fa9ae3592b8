"""GEDCOM 5.5.1 and 7.0 export: the case as a tree genealogy programs can open, sources intact.

Every exported fact carries a source citation: `SOUR @Sn@` (one SOUR record per snapshot,
with its hash, origin and access time), `PAGE` (the character span and page) and `DATA` /
`TEXT` holding the verbatim excerpt. Dates are written in GEDCOM's own grammar from the stored
range (ABT, BEF, AFT, BET … AND, FROM … TO), never with more precision than the evidence has.
Conflicting claims are all kept: the preferred one is the first structure, alternatives
follow as further structures of the same tag with a NOTE saying so, as GEDCOM intends.
Hypotheses are never facts: they go out as NOTEs labelled as such. The graph is censored
first, like every output path, and living people carry `RESN privacy`.
"""

from __future__ import annotations

import calendar
import re
from collections import defaultdict
from datetime import date

from sleuth.export.common import (
    EVENT_FIELDS,
    REDACTION_MARKERS,
    claims,
    display_name,
    position,
    preferred,
)
from sleuth.extract.records.gedcom import FAMILY_EVENTS, INDI_EVENTS
from sleuth.model.citation import Citation
from sleuth.model.dates import DateQualifier, GenDate
from sleuth.model.graph import CaseGraph
from sleuth.model.records import Assertion, Person
from sleuth.privacy.redaction import censor

_END_TAGS = frozenset({"DEAT", "BURI", "CREM"})
VERSIONS = ("5.5.1", "7.0")
_MONTHS = ("JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC")
_EVENT_TAG = {"birth": "BIRT", "baptism": "CHR", "death": "DEAT", "burial": "BURI"}
_ABOUT = {DateQualifier.ABOUT: "ABT", DateQualifier.CALCULATED: "CAL",
          DateQualifier.ESTIMATED: "EST"}
# Events beyond the four vital ones, by the kind the GEDCOM importer names them with; a
# user-defined `_XXX` event comes back as its own tag.
_EXTRA_TAG = {kind: tag for tag, kind in INDI_EVENTS.items() if kind not in _EVENT_TAG}
_FAMILY_TAG = {kind: tag for tag, kind in FAMILY_EVENTS.items()}
_MAX_551 = 200  # value characters per physical line before CONC (5.5.1 lines stop at 255)


def _point(d: date, precision: str) -> str:
    if precision == "year":
        return f"{d.year}"
    if precision == "month":
        return f"{_MONTHS[d.month - 1]} {d.year}"
    return f"{d.day} {_MONTHS[d.month - 1]} {d.year}"


def _month_end(d: date) -> int:
    return calendar.monthrange(d.year, d.month)[1]


def _unit(lo: date, hi: date) -> str | None:
    """The precision at which [lo, hi] is exactly one unit: a day, a month or a year."""
    if lo == hi:
        return "day"
    if lo.year == hi.year and (lo.month, lo.day, hi.month, hi.day) == (1, 1, 12, 31):
        return "year"
    if (lo.year, lo.month, lo.day) == (hi.year, hi.month, 1) and hi.day == _month_end(hi):
        return "month"
    return None


def _bound(d: date, precision: str | None, end: bool) -> str:
    """One end of a range, only as coarse as its precision allows and the day supports."""
    if precision == "year" and (d.month, d.day) == ((12, 31) if end else (1, 1)):
        return _point(d, "year")
    if precision in ("year", "month") and d.day == (_month_end(d) if end else 1):
        return _point(d, "month")
    return _point(d, "day")


def gedcom_date(gd: GenDate | None) -> str | None:
    """A GenDate in GEDCOM date grammar, as precise as its range and no more."""
    if gd is None:
        return None
    lo, hi, q = gd.earliest, gd.latest, gd.qualifier
    if lo is None and hi is None:
        return f"({gd.original})" if gd.original else None
    if q == DateQualifier.BEFORE and hi is not None:
        return f"BEF {_bound(hi, gd.precision, False)}"
    if q == DateQualifier.AFTER and lo is not None:
        return f"AFT {_bound(lo, gd.precision, True)}"
    if hi is not None and lo is None:
        return f"BEF {_bound(hi, gd.precision, True)}"
    if lo is not None and hi is None:
        return f"AFT {_bound(lo, gd.precision, False)}"
    assert lo is not None and hi is not None
    unit = _unit(lo, hi)
    if q == DateQualifier.PERIOD:
        return f"FROM {_bound(lo, gd.precision, False)} TO {_bound(hi, gd.precision, True)}"
    if unit is not None:
        text = _point(lo, unit)
        return f"{_ABOUT[q]} {text}" if q in _ABOUT else text
    # An "about" range over several years ("ABT 1103/1104", an age-derived window) keeps
    # its bounds as BET ... AND: GEDCOM has no "about between", and a midpoint would narrow it.
    return f"BET {_bound(lo, gd.precision, False)} AND {_bound(hi, gd.precision, True)}"


class _Writer:
    def __init__(self, version: str) -> None:
        self.v7 = version.startswith("7")
        self.lines: list[str] = []

    def add(self, level: int, tag: str, value: str | None = None, xref: str | None = None) -> None:
        head = f"{level} {xref + ' ' if xref else ''}{tag}"
        if value is None or value == "":
            self.lines.append(head)
            return
        parts = self._escape(value).replace("\r\n", "\n").replace("\r", "\n").split("\n")
        self._physical(head, parts[0], level)
        for part in parts[1:]:
            self._physical(f"{level + 1} CONT", part, level)

    def ptr(self, level: int, tag: str, xref: str) -> None:
        """A pointer line: an xref is never escaped."""
        self.lines.append(f"{level} {tag} {xref}")

    def _escape(self, value: str) -> str:
        if self.v7:
            return "@" + value if value.startswith("@") else value
        return value.replace("@", "@@")

    def _physical(self, head: str, value: str, level: int) -> None:
        if self.v7 or len(value) <= _MAX_551:
            self.lines.append(f"{head} {value}" if value else head)
            return
        chunks = [value[i : i + _MAX_551] for i in range(0, len(value), _MAX_551)]
        for i in range(1, len(chunks)):  # CONC must not split next to a space (5.5.1)
            while chunks[i - 1].endswith(" ") or chunks[i].startswith(" "):
                chunks[i] = chunks[i - 1][-1] + chunks[i]
                chunks[i - 1] = chunks[i - 1][:-1]
        self.lines.append(f"{head} {chunks[0]}")
        for chunk in chunks[1:]:
            self.lines.append(f"{level + 1} CONC {chunk}")


class _Exporter:
    def __init__(self, graph: CaseGraph, version: str, today: date) -> None:
        self.g = graph
        self.w = _Writer(version)
        self.today = today
        self.indi = {p.id: f"@I{i}@" for i, p in enumerate(graph.persons, 1)}
        self.sour: dict[str, str] = {}
        for items in graph.assertions.values():
            for a in items:
                for c in a.citations:
                    self.sour.setdefault(c.snapshot_id, f"@S{len(self.sour) + 1}@")
        self.people = {p.id: p for p in graph.persons}
        self.claims = {p.id: claims(graph, p.id) for p in graph.persons}
        self.families = self._families()
        self.fams_of: dict[str, list[frozenset[str]]] = defaultdict(list)
        self.famc_of: dict[str, list[frozenset[str]]] = defaultdict(list)
        for key, fam in self.families.items():
            for pid in key:
                self.fams_of[pid].append(key)
            for child in fam["children"]:
                self.famc_of[child].append(key)
        self.in_family: set[str] = set()  # assertion ids written under a FAM
        self.family_events = self._family_events()

    # -- structure ---------------------------------------------------------------------
    def _families(self) -> dict[frozenset[str], dict[str, list[str]]]:
        fams: dict[frozenset[str], dict[str, list[str]]] = {}
        for p in self.g.persons:
            parents = frozenset(x for x in p.parents if x in self.indi)
            if parents:
                fams.setdefault(parents, {"children": []})["children"].append(p.id)
            for s in p.spouses:
                if s in self.indi:
                    fams.setdefault(frozenset({p.id, s}), {"children": []})
        return fams

    def build(self) -> str:
        w = self.w
        w.add(0, "HEAD")
        w.add(1, "GEDC")
        w.add(2, "VERS", "7.0" if w.v7 else "5.5.1")
        if not w.v7:
            w.add(2, "FORM", "LINEAGE-LINKED")
            w.add(1, "CHAR", "UTF-8")
        w.add(1, "SOUR", "SLEUTH")
        w.add(2, "NAME", "sleuth")
        w.add(1, "DATE", _point(self.today, "day"))
        w.add(1, "NOTE", "Exported by sleuth. Every fact cites a stored snapshot (PAGE = "
              "character span) with its verbatim excerpt in DATA/TEXT. Living people are "
              "redacted by sleuth's privacy Censor.")
        if not w.v7:
            w.ptr(1, "SUBM", "@U1@")
            w.add(0, "SUBM", xref="@U1@")
            w.add(1, "NAME", "sleuth")
        fam_ids = {key: f"@F{i}@" for i, key in enumerate(self.families, 1)}
        for p in self.g.persons:
            self._person(p, fam_ids)
        for key, fam in self.families.items():
            self._family(fam_ids[key], key, fam["children"])
        for sid, xref in self.sour.items():
            self._source(sid, xref)
        w.add(0, "TRLR")
        return "\n".join(w.lines) + "\n"

    def _person(self, p: Person, fam_ids: dict[frozenset[str], str]) -> None:
        w = self.w
        w.add(0, "INDI", xref=self.indi[p.id])
        if p.is_living:
            w.add(1, "RESN", "PRIVACY" if w.v7 else "privacy")
        names = [a for a in self.claims[p.id] if a.field_name == "name"]
        main = _name(p)
        alternates = [a for a in names if a.value != display_name(p)]
        w.add(1, "NAME", main)
        self._cite_all(2, [a for a in names if a not in alternates])
        for a in alternates:  # aliases, married and birth names: each its own NAME
            w.add(1, "NAME", a.value)
            self._cite(2, a)
        if p.sex in ("M", "F"):
            w.add(1, "SEX", p.sex)
        by_event: dict[str, list[Assertion]] = defaultdict(list)
        extra: list[Assertion] = []
        other: list[Assertion] = []
        for a in self.claims[p.id]:
            kind = EVENT_FIELDS.get(a.field_name, ("", ""))[0]
            if kind in _EVENT_TAG:
                by_event[kind].append(a)
            elif not a.citations or a.field_name in ("name", "sex", "parent", "child", "spouse",
                                                     "sibling") or a.id in self.in_family:
                continue
            elif _event_kind(a.field_name, _EXTRA_TAG) is not None:
                extra.append(a)
            else:
                other.append(a)
        for kind, tag in _EVENT_TAG.items():
            if by_event.get(kind):
                self._event(1, tag, p.id, kind, by_event[kind])
        self._events(1, extra, _EXTRA_TAG)
        for a in other:
            if a.field_name == "occupation":
                w.add(1, "OCCU", a.value)
                self._cite(2, a)
            elif a.field_name == "deceased" and a.value.split(" ", 1)[0] in _END_TAGS:
                tag, _, rest = a.value.partition(" ")  # "DEAT Y": died, date and place unknown
                w.add(1, tag, rest or None)
                self._cite(2, a)
            else:
                w.add(1, "NOTE", f"{a.field_name.replace('_', ' ')}: {a.value}")
                self._cite(2, a)
        for key in self.famc_of[p.id]:
            w.ptr(1, "FAMC", fam_ids[key])
        for key in self.fams_of[p.id]:
            w.ptr(1, "FAMS", fam_ids[key])
        for h in self.g.hypotheses:
            if h.target_person == p.id:
                w.add(1, "NOTE", f"Hypothesis (not a fact): {h.statement}")

    def _event(self, level: int, tag: str, pid: str, kind: str, items: list[Assertion]) -> None:
        """The preferred date and place first; every other claim as an alternative."""
        w = self.w
        best = [x for x in (preferred(self.g, pid, f"{kind}_date"),
                            preferred(self.g, pid, f"{kind}_place")) if x in items]
        others = [a for a in items if a not in best and a.citations]
        if best:
            w.add(level, tag)
            self._event_body(level + 1, best)
        for a in others:
            w.add(level, tag)
            self._event_body(level + 1, [a])
            w.add(level + 1, "NOTE", "Alternative claim: the evidence conflicts; see the first "
                  f"{tag} for the preferred one.")

    def _event_body(self, level: int, items: list[Assertion]) -> None:
        for a in items:
            if a.field_name.endswith("_date") and (text := gedcom_date(a.date)):
                self.w.add(level, "DATE", text)
            elif a.field_name.endswith("_place") or a.field_name == "residence":
                self.w.add(level, "PLAC", a.value)
        self._cite_all(level, items)

    def _family(self, xref: str, key: frozenset[str], children: list[str]) -> None:
        w = self.w
        w.add(0, "FAM", xref=xref)
        members = sorted(key, key=lambda pid: (self._sex(pid) != "M", self.indi[pid]))
        if len(members) == 2 and self._sex(members[0]) == self._sex(members[1]) == "F":
            members.reverse()
        for i, pid in enumerate(members):
            role = "HUSB" if (self._sex(pid) == "M" or (i == 0 and self._sex(pid) != "F")) \
                else "WIFE"
            w.ptr(1, role, self.indi[pid])
        for c in sorted(children, key=lambda pid: self.indi[pid]):
            w.ptr(1, "CHIL", self.indi[c])
        if key in self.family_events:  # after CHIL: an importer cites a link by those lines
            self._events(1, self.family_events[key], _FAMILY_TAG)

    def _events(self, level: int, items: list[Assertion], tags: dict[str, str]) -> None:
        """One structure per stated event: a date and a place cited by the same event line
        (the GEDCOM importer's locator) belong together; a repeated kind (three censuses)
        stays three events."""
        groups: dict[tuple[str, str, int | None], list[Assertion]] = {}
        for a in items:
            kind = _event_kind(a.field_name, tags)
            assert kind is not None
            c = a.citations[0]
            where = c.locator.line if c.locator.line is not None else c.locator.start
            groups.setdefault((kind, c.snapshot_id, where), []).append(a)
        for (kind, _, _), group in groups.items():
            self.w.add(level, tags[kind] if kind in tags else kind.upper())
            seen: set[tuple[str, str]] = set()
            # both partners' copies of one FAM line: where the Censor redacted either, the
            # redacted one goes out
            group.sort(key=lambda a: a.citations[0].excerpt not in REDACTION_MARKERS)
            for a in group:
                if (a.field_name, a.value) not in seen:
                    seen.add((a.field_name, a.value))
                    self._event_body(level + 1, [a])

    def _family_events(self) -> dict[frozenset[str], list[Assertion]]:
        """Each couple's MARR, DIV, ... claims, matched to the right marriage.

        A tree states a family event once and the importer gives it to both partners with the
        same excerpt, so a claim that both partners hold belongs to their family; someone with
        one spouse owns all theirs. If either partner is living, only the living partner's
        (censored) claims are used, so the other partner's copy cannot leak what the Censor
        hid.
        """
        out: dict[frozenset[str], list[Assertion]] = {}
        for key in self.families:
            if len(key) != 2:
                continue
            a, b = sorted(key)
            living = [pid for pid in key if self.people[pid].is_living]
            mine = {pid: [x for x in self.claims[pid] if x.citations
                          and _event_kind(x.field_name, _FAMILY_TAG) is not None]
                    for pid in key}
            if living:
                pid = living[0]
                chosen = mine[pid] if len(self.people[pid].spouses) == 1 else []
                for other in key:
                    self.in_family.update(x.id for x in mine[other])
            else:
                keys_b = {_claim_key(x) for x in mine[b]}
                chosen = [x for x in mine[a] if _claim_key(x) in keys_b]
                for pid in key:  # a custom _XXX claim held by one partner is their own
                    if len(self.people[pid].spouses) == 1:
                        chosen += [x for x in mine[pid] if x not in chosen
                                   and not x.field_name.startswith("_")
                                   and not _solo_family_line(x)
                                   and _claim_key(x) not in {_claim_key(y) for y in chosen}]
                taken = {_claim_key(x) for x in chosen}
                for pid in key:
                    self.in_family.update(x.id for x in mine[pid] if _claim_key(x) in taken)
            out[key] = chosen
        # A tree's FAM with one partner only ("1 WIFE @I9@ / 1 MARR 1497"): its events are
        # that person's marriage to someone unknown, so they get a one-partner FAM again.
        for pid, items in self.claims.items():
            solo = [x for x in items if x.citations and x.id not in self.in_family
                    and _event_kind(x.field_name, _FAMILY_TAG) is not None
                    and _solo_family_line(x)]
            if solo and not self.people[pid].is_living:
                key = frozenset({pid})
                if key not in self.families:
                    self.families[key] = {"children": []}
                    self.fams_of[pid].append(key)
                out[key] = solo
                self.in_family.update(x.id for x in solo)
        return out

    def _sex(self, pid: str) -> str:
        p = self.people.get(pid)
        return p.sex if p else "U"

    # -- citations ---------------------------------------------------------------------
    def _cite_all(self, level: int, items: list[Assertion]) -> None:
        """One SOUR citation per distinct excerpt, noting every claim it supports."""
        by_excerpt: dict[tuple[str, int, int], tuple[Citation, list[Assertion]]] = {}
        for a in items:
            for c in a.citations:
                key = (c.snapshot_id, c.locator.start, c.locator.end)
                by_excerpt.setdefault(key, (c, []))[1].append(a)
        w = self.w
        for c, supported in by_excerpt.values():
            w.ptr(level, "SOUR", self.sour[c.snapshot_id])
            w.add(level + 1, "PAGE", position(c, self.g.snapshots.get(c.snapshot_id)))
            w.add(level + 1, "DATA")
            w.add(level + 2, "TEXT", c.excerpt)
            for a in supported:
                w.add(level + 1, "NOTE", f"sleuth {a.field_name.replace('_', ' ')} = {a.value}; "
                      f"status {a.status}; confidence {a.confidence:.2f}")

    def _cite(self, level: int, a: Assertion) -> None:
        self._cite_all(level, [a])

    def _source(self, sid: str, xref: str) -> None:
        w = self.w
        snap = self.g.snapshots.get(sid)
        w.add(0, "SOUR", xref=xref)
        w.add(1, "TITL", snap.source_name if snap else f"snapshot {sid}")
        if snap is not None:
            origin = snap.url or snap.path
            if origin:
                w.add(1, "PUBL", origin)
            w.add(1, "NOTE", f"sleuth snapshot {sid}; sha256 {snap.sha256}; accessed "
                  f"{snap.accessed_at:%Y-%m-%d}; {snap.evidence_type} evidence")


def _event_kind(field: str, tags: dict[str, str]) -> str | None:
    """`emigration_date` -> `emigration` when that kind has a tag (or is a custom `_x`)."""
    if field == "residence" and "residence" in tags:
        return "residence"
    for suffix in ("_date", "_place"):
        if field.endswith(suffix):
            kind = field[: -len(suffix)]
            if kind in tags or (kind.startswith("_") and len(kind) > 1):
                return kind
    return None


_ONE_PARTNER_FAM = re.compile(r"0 @[^@]+@ FAM\r?\n?\r?1 (?:HUSB|WIFE) @[^@]+@\s+1 (?!HUSB|WIFE)")


def _solo_family_line(a: Assertion) -> bool:
    """Whether a family-event claim cites a GEDCOM FAM record that names one partner only."""
    return bool(_ONE_PARTNER_FAM.match(a.citations[0].excerpt))


def _claim_key(a: Assertion) -> tuple[str, str, str, int, int]:
    c = a.citations[0]
    return a.field_name, a.value, c.snapshot_id, c.locator.start, c.locator.end


def _name(p: Person) -> str:
    given, surname = p.given_name.strip(), p.surname.strip()
    if not (given or surname):
        parts = display_name(p).split()
        given, surname = " ".join(parts[:-1]), (parts[-1] if parts else "")
    return f"{given} /{surname}/".strip()


def to_gedcom(
    graph: CaseGraph,
    *,
    version: str = "5.5.1",
    today: date | None = None,
    mask_names: bool = False,
) -> str:
    """The case as GEDCOM text (5.5.1 or 7.0), censored first."""
    if version not in VERSIONS:
        raise ValueError(f"GEDCOM version must be one of {VERSIONS}, not {version!r}")
    safe = censor(graph, today=today, mask_names=mask_names)
    return _Exporter(safe, version, today or date.today()).build()
