"""GEDCOM 5.5.1 and 7.0 export: the case as a tree genealogy programs can open, sources intact.

Every exported fact carries a source citation: `SOUR @Sn@` (one SOUR record per snapshot,
titled by its source, or by the file name for a user's own file, never a path on their
machine), `PAGE` (the character span and page) and `DATA` / `TEXT` holding the verbatim
excerpt; family links are cited on their FAM. A fact read from an imported GEDCOM also gets
back everything that tree said about it (`gedcom_tree`): its own SOUR records, citations
with PAGE / QUAY / DATA / TEXT, notes, media and custom tags.

One fact, one event: claims that agree (the same date, the same place, or the same said
less precisely) from any number of sources form one event with all their citations. Only
claims that differ become further structures of the same tag, after the preferred one (the
adjudicated claim where there is a conflict), each with a NOTE saying what it is. Dates
are written in GEDCOM's grammar from the stored range, never more precise than the
evidence; a stated age at death is the DEAT's `AGE` in each version's grammar (`67y`,
`<1y`; `gedcom.age`), cited there, a differing one under a further DEAT. Honorifics go in
NPFX, a married name is `TYPE married`, a birth surname no name bears a NAME of `TYPE
birth`. Hypotheses are never facts: they go out as NOTEs labelled as such. The graph is
censored first, like every output path, and living people carry `RESN privacy`.
"""

from __future__ import annotations

import gc
import re
from collections import defaultdict
from collections.abc import Callable, Sequence
from datetime import date

from sleuth.export.common import EVENT_FIELDS, REDACTION_MARKERS, claims, display_name, position
from sleuth.export.gedcom_claims import (
    event_kind,
    family_events,
    is_date,
    place_ages,
    place_key,
    signature,
    split_event,
)
from sleuth.export.gedcom_lines import Writer, gedcom_date, point
from sleuth.export.gedcom_tree import Carrier, Source
from sleuth.export.names import name_type, split_honorific
from sleuth.extract.person_names import parse_name
from sleuth.extract.records.gedcom import FAMILY_EVENTS, INDI_EVENTS
from sleuth.gedcom.age import gedcom_age
from sleuth.gedcom.g7 import child_type
from sleuth.gedcom.tree import Item
from sleuth.model.citation import Citation
from sleuth.model.graph import CaseGraph
from sleuth.model.records import Assertion, Person
from sleuth.privacy.redaction import LIVING_NAME, censor
from sleuth.privacy.view import CensoredGraph

__all__ = ["VERSIONS", "gedcom_date", "gedcom_of_view", "to_gedcom"]

_END_TAGS = frozenset({"DEAT", "BURI", "CREM"})
VERSIONS = ("5.5.1", "7.0")
_EVENT_TAG = {"birth": "BIRT", "baptism": "CHR", "death": "DEAT", "burial": "BURI"}
# Events beyond the four vital ones, by the kind the GEDCOM importer names them with; a
# user-defined `_TAG` event comes back as its own tag.
_EXTRA_TAG = {kind: tag for tag, kind in INDI_EVENTS.items() if kind not in _EVENT_TAG}
_FAMILY_TAG = {kind: tag for tag, kind in FAMILY_EVENTS.items()}
_RELATIONS = frozenset({"name", "sex", "parent", "child", "spouse", "sibling"})
# Tree structures an INDI / FAM record gets from us, not copied from the tree.
_INDI_OWN = frozenset({"NAME", "SEX", "FAMC", "FAMS", "CHAN", "SUBM", "ANCI", "DESI"})
_FAM_OWN = frozenset({"HUSB", "WIFE", "CHIL", "CHAN", "SUBM"})
_EVENT_OWN = frozenset({"DATE", "PLAC"})
_SPACES = re.compile(r"\s+")


class _Exporter:
    def __init__(self, graph: CaseGraph, version: str, today: date) -> None:
        self.g = graph
        self.w = Writer(version)
        self.today = today
        self.indi = {p.id: f"@I{i}@" for i, p in enumerate(graph.persons, 1)}
        self.sour: dict[str, str] = {}
        for items in graph.assertions.values():
            for a in items:
                for c in a.citations:
                    self.sour.setdefault(c.snapshot_id, f"@S{len(self.sour) + 1}@")
        self.people = {p.id: p for p in graph.persons}
        self.claims = {p.id: [a for a in claims(graph, p.id) if a.citations]
                       for p in graph.persons}
        self.recommended = {(c.person_id, c.field): c.recommended_assertion_id
                            for c in graph.conflicts}
        self.hypotheses: dict[str, list[str]] = defaultdict(list)
        for h in graph.hypotheses:
            if h.target_person:
                self.hypotheses[h.target_person].append(h.statement)
        self.families = self._families()
        self.fams_of: dict[str, list[frozenset[str]]] = defaultdict(list)
        self.famc_of: dict[str, list[frozenset[str]]] = defaultdict(list)
        for key, fam in self.families.items():
            for pid in key:
                self.fams_of[pid].append(key)
            for child in fam["children"]:
                self.famc_of[child].append(key)
        self.family_events, self.in_family = family_events(
            self.families, self.people, self.claims, self.fams_of)
        self.fam_ids = {key: f"@F{i}@" for i, key in enumerate(self.families, 1)}
        self.tree = Carrier(graph, self.w.v7, self._emit, len(self.sour) + 1, self.indi)
        self.fam_sources = self.tree.families(self.families, self.fam_ids)

    # -- structure ---------------------------------------------------------------------
    def _families(self) -> dict[frozenset[str], dict[str, list[str]]]:
        fams: dict[frozenset[str], dict[str, list[str]]] = {}
        for p in self.g.persons:
            parents = frozenset(x for x in p.parents if x in self.indi)
            if parents:
                fams.setdefault(parents, {"children": []})["children"].append(p.id)
            for s in sorted(p.spouses):  # a set: its order would follow the hash seed
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
        elif schema := self.tree.schema():
            w.add(1, "SCHMA")
            for tag, uri in schema:
                w.add(2, "TAG", f"{tag} {uri}")
        w.add(1, "SOUR", "SLEUTH")
        w.add(2, "NAME", "sleuth")
        w.add(1, "DATE", point(self.today, "day"))
        w.add(1, "NOTE", "Exported by sleuth. Every fact cites a stored snapshot (PAGE = "
              "character span) with its verbatim excerpt in DATA/TEXT; facts from an "
              "imported tree also keep that tree's own citations. Living people are "
              "redacted by sleuth's privacy Censor.")
        if not w.v7:
            w.ptr(1, "SUBM", "@U1@")
            w.add(0, "SUBM", xref="@U1@")
            w.add(1, "NAME", "sleuth")
        for p in self.g.persons:
            self._person(p)
        for key, fam in self.families.items():
            self._family(self.fam_ids[key], key, fam["children"])
        for sid, xref in self.sour.items():
            self._source(sid, xref)
        for xref, item in self.tree.records():
            w.add(0, item.tag, item.value or None, xref=xref)
            self.tree.write(1, item.children)
        w.add(0, "TRLR")
        return "\n".join(w.lines) + "\n"

    def _emit(self, level: int, item: Item) -> None:
        if item.pointer is not None:
            self.w.ptr(level, item.tag, item.pointer)
        else:
            self.w.add(level, item.tag, item.value or None)
        for c in item.children:
            self._emit(level + 1, c)

    def _person(self, p: Person) -> None:
        w = self.w
        living = bool(p.is_living)
        w.add(0, "INDI", xref=self.indi[p.id])
        if living:
            w.add(1, "RESN", "PRIVACY" if w.v7 else "privacy")
        mine = self.claims[p.id]
        named = self._names(p, [a for a in mine if a.field_name == "name"],
                            [a for a in mine if a.field_name == "birth_surname"], living)
        if p.sex in ("M", "F"):
            w.add(1, "SEX", p.sex)
            sources = self.tree.nodes([a for a in mine if a.field_name == "sex"], ["SEX"])
            self.tree.carry(2, ("SEX", "SEX"), sources, living=living)
        by_event: dict[str, list[Assertion]] = defaultdict(list)
        extra: list[Assertion] = []
        other: list[Assertion] = []
        ages = [a for a in mine if a.field_name == "age_at_death" and self._age(a)]
        done = named | {a.id for a in ages}  # (ages go under the DEAT)
        for a in mine:
            kind = EVENT_FIELDS.get(a.field_name, ("", ""))[0]
            if kind in _EVENT_TAG:
                by_event[kind].append(a)
            elif a.field_name in _RELATIONS or a.id in self.in_family or a.id in done:
                continue
            elif event_kind(a.field_name, _EXTRA_TAG) is not None:
                extra.append(a)
            else:
                other.append(a)
        # an age at death goes under the DEAT (a bare `DEAT Y` one when no date or place says it)
        died = [] if by_event.get("death") or not ages else [
            a for a in other if a.field_name == "deceased" and a.value.startswith("DEAT")]
        gone = {a.id for a in died}
        other = [a for a in other if a.id not in gone]
        for kind, tag in _EVENT_TAG.items():
            if by_event.get(kind) or (kind == "death" and ages):
                self._event(tag, p.id, by_event[kind], living,
                            (ages, died) if kind == "death" else ([], []))
        self._events(1, "record-INDI", extra, _EXTRA_TAG, living)
        for a in other:
            self._other(a, living)
        for tag, keys in (("FAMC", self.famc_of[p.id]), ("FAMS", self.fams_of[p.id])):
            for key in keys:
                xref = self.fam_ids[key]
                w.ptr(1, tag, xref)
                kind = "INDI-FAMC" if tag == "FAMC" else "FAMS"
                self.tree.carry(2, (tag, kind), self.tree.family_links(p.id, tag, xref),
                                living=living)
        skip = _INDI_OWN | ({"RESN"} if living else set())
        self.tree.carry(1, ("INDI", "record-INDI"), self.tree.records_of.get(p.id, []),
                        skip=skip, living=living)
        for statement in self.hypotheses.get(p.id, []):
            w.add(1, "NOTE", f"Hypothesis (not a fact): {statement}")

    def _other(self, a: Assertion, living: bool) -> None:
        w = self.w
        if a.field_name == "occupation":
            w.add(1, "OCCU", a.value)
            self.tree.carry(2, ("OCCU", "OCCU"), self.tree.nodes([a], ["OCCU"]), living=living)
            self._cite(2, [a])
        elif a.field_name == "deceased" and a.value.split(" ", 1)[0] in _END_TAGS:
            tag, _, rest = a.value.partition(" ")  # "DEAT Y": died, date and place unknown
            w.add(1, tag, rest or None)
            self.tree.carry(2, (tag, tag), self.tree.nodes([a], [tag]), living=living)
            self._cite(2, [a])
        else:
            w.add(1, "NOTE", f"{a.field_name.replace('_', ' ')}: {a.value}")
            self._cite(2, [a])

    # -- names -------------------------------------------------------------------------
    def _names(self, p: Person, names: list[Assertion], births: list[Assertion],
               living: bool) -> set[str]:
        """The preferred name first, then each other name once with all its citations, then
        a birth surname no name bears as a NAME of TYPE birth ("Sarah /Giles/" for Sarah
        Golden née Giles, where it was a NOTE a reader's checks never saw). Returns the ids
        of the birth-surname claims so written."""
        def bare(value: str) -> str:  # "Dr. James Lee" is the name "James Lee"
            return " ".join(split_honorific(value)[1].split()).casefold()

        shown = bare(display_name(p))
        main = [a for a in names if bare(a.value) == shown]
        others: dict[str, list[Assertion]] = {}
        for a in names:
            if bare(a.value) != shown:
                others.setdefault(bare(a.value), []).append(a)
        given, surname = p.given_name.strip(), p.surname.strip()
        if not (given or surname):
            parts = display_name(p).split()
            given, surname = " ".join(parts[:-1]), (parts[-1] if parts else "")
        several = bool(others)
        # the tree's own NAME when it wrote one ("Joseph Patrick /Kennedy/ Jr."): the pieces
        # it holds (a suffix, a nickname) are not in the person's given names and surname
        surnames = {self._name(p, given, surname, self._written(main), main, living, several)}
        for items in others.values():  # aliases, married and birth names
            written = self._written(items) or _slashed(items[0].value)
            surnames.add(self._name(p, "", "", written, items, living, several))
        unnamed: dict[str, list[Assertion]] = {}
        for a in births:
            born = " ".join(a.value.split())
            if born and born != LIVING_NAME and born.casefold() not in {
                    x.casefold() for x in surnames}:
                unnamed.setdefault(born, []).append(a)
        for born, items in unnamed.items():
            self.w.add(1, "NAME", f"{split_honorific(given)[1]} /{born}/".strip())
            self.w.add(2, "TYPE", "BIRTH" if self.w.v7 else "birth")
            self._cite(2, items)
        return {a.id for items in unnamed.values() for a in items}

    def _written(self, items: list[Assertion]) -> str | None:
        """The NAME text as the tree wrote it (slashes and all), when a tree states it."""
        for sid, node in self.tree.nodes(items, ["NAME"]):
            del sid
            if node.value.strip():
                return node.value.strip()
        return None

    def _name(self, p: Person, given: str, surname: str, written: str | None,
              items: list[Assertion], living: bool, several: bool) -> str:
        """One NAME: the honorific in NPFX, `TYPE married` for a married name (and `TYPE
        birth` beside one), then the tree's own pieces, notes and citations. Returns the
        surname written."""
        w = self.w
        if written is None:
            prefix, given = split_honorific(given)
            # a title is no given name (issue 20): it is read from the name as written
            prefix = prefix or next((t for a in items if (t := split_honorific(a.value)[0])),
                                    "")
            if prefix and not given:  # "Mrs. Geo. R. Cook": her husband's names, not hers
                prefix = next((a.value[: -len(surname)].strip() for a in items
                               if surname and a.value.endswith(" " + surname)), prefix)
            text = f"{given or prefix} /{surname}/".strip()
        else:
            prefix, text = split_honorific(written)
            given, _, rest = text.partition("/")
            given, surname = given.strip(), rest.partition("/")[0].strip()
        w.add(1, "NAME", text or "//")
        carried = self.tree.items(("NAME", "INDI-NAME"), self.tree.nodes(items, ["NAME"]),
                                  living=living)
        has = {c.tag for c in carried}
        kind = ""
        if several or prefix or (p.sex == "F" and p.spouses):  # else it cannot be "married"
            kind = name_type(self.g, self.people, p, f"{prefix} {given} {surname}")
        if (kind == "married" or (kind and several)) and "TYPE" not in has:
            w.add(2, "TYPE", kind.upper() if w.v7 else kind)
        if prefix:
            for tag, value in (("NPFX", prefix), ("GIVN", given), ("SURN", surname)):
                if value and tag not in has:
                    w.add(2, tag, value)
        self.tree.write(2, carried)
        self._cite(2, items)
        return surname

    # -- events ------------------------------------------------------------------------
    def _preferred(self, pid: str, items: list[Assertion]) -> Assertion | None:
        """The adjudicated claim of a conflict, else the most confident (on a tie the
        narrower date, then the text: never the order claims were read in)."""
        recommended = {self.recommended.get((pid, f)) for f in {a.field_name for a in items}}
        for a in items:
            if a.id in recommended:
                return a

        def rank(a: Assertion) -> tuple[float, int, str]:
            d = a.date
            width = (d.latest - d.earliest).days if d and d.earliest and d.latest else 1 << 30
            return a.confidence, -width, a.value

        return max(items, key=rank) if items else None

    def _event(self, tag: str, pid: str, items: list[Assertion], living: bool,
               ages: tuple[list[Assertion], list[Assertion]]) -> None:
        """One event of the agreeing claims, the preferred values first; each differing
        claim (or set of claims saying the same) as a further event, noted as such. A DEAT
        also holds the ages at death (`place_ages`) and the claims it died (`DEAT Y`)."""
        best_date = self._preferred(pid, [a for a in items if is_date(a)])
        best_place = self._preferred(pid, [a for a in items if not is_date(a)])
        main, alternatives, best_place, _ = split_event(items, best_date, best_place)
        kind = child_type("record-INDI", tag)
        own, paired, alone = place_ages(ages[0], self._preferred(pid, ages[0]), alternatives,
                                        lambda a: (self._age(a) or ("", ""))[0])
        self.w.add(1, tag, None if main else "Y")
        self._event_body(2, tag, kind, main, best_date, best_place, living, own + ages[1])
        if alternatives or alone:
            self.w.add(2, "NOTE", f"Preferred claim of {len(alternatives) + len(alone) + 1} "
                       f"that differ; the others follow as alternative {tag} structures.")
        for group, age in [*zip(alternatives, paired, strict=True), *(([], a) for a in alone)]:
            self.w.add(1, tag, None if group else "Y")
            self._event_body(2, tag, kind, group, None, None, living, age)
            self.w.add(2, "NOTE", f"Alternative claim: the evidence conflicts; the first {tag} "
                       "is the preferred one.")

    def _event_body(self, level: int, tag: str, kind: str | None, items: list[Assertion],
                    best_date: Assertion | None, best_place: Assertion | None,
                    living: bool, also: Sequence[Assertion] = ()) -> None:
        """An event's DATE, PLAC and AGE (of the ages at death in `also`), the tree's own
        substructures and every claim's citation."""
        w = self.w
        dates = [a for a in items if is_date(a)]
        places = [a for a in items if not is_date(a)]
        date_claim = best_date if best_date in dates else (dates[0] if dates else None)
        place_claim = best_place if best_place in places else (places[0] if places else None)
        sources = self.tree.nodes([*items, *also])
        if date_claim is not None and (text := gedcom_date(date_claim.date)):
            if w.v7 and text.startswith("("):  # a date kept as written: 7.0's PHRASE
                w.add(level, "DATE")
                w.add(level + 1, "PHRASE", text[1:-1])
            else:
                w.add(level, "DATE", text)
        if place_claim is not None:
            w.add(level, "PLAC", place_claim.value)
            self._place_details(level + 1, place_claim, sources, living)
        age = next((self._age(a) for a in also if a.field_name == "age_at_death"), None)
        if age is not None:
            w.add(level, "AGE", age[0] or None)
            if age[1]:
                w.add(level + 1, "PHRASE", age[1])
        skip = _EVENT_OWN | ({"AGE"} if age is not None else set())
        self.tree.carry(level, (tag, kind), sources, skip=skip, living=living)
        self._cite(level, [*items, *also])

    def _age(self, a: Assertion) -> tuple[str, str] | None:
        """The AGE payload and 7.0 PHRASE of an age at death, None where GEDCOM has none."""
        return gedcom_age(a.value, self.w.v7)

    def _place_details(self, level: int, place: Assertion, sources: list[Source],
                       living: bool) -> None:
        """The tree's PLAC substructures (FORM, MAP, NOTE...) where its place is ours."""
        key = place_key(place)
        same = [(sid, plac) for sid, node in sources
                if (plac := node.first("PLAC")) is not None
                and _SPACES.sub(" ", plac.value).strip().casefold() == key]
        if same and not living:
            self.tree.carry(level, ("PLAC", "PLAC"), same)

    def _events(self, level: int, record: str, items: list[Assertion], tags: dict[str, str],
                living: bool) -> None:
        """One structure per stated event: a date and a place cited by the same event line
        belong together; a repeated kind (three censuses) stays three events unless they
        say the same (the same date and place), which is one event with all its citations."""
        by_line: dict[tuple[str, str, int | None], list[Assertion]] = {}
        for a in items:
            kind = event_kind(a.field_name, tags)
            assert kind is not None
            c = a.citations[0]
            where = c.locator.line if c.locator.line is not None else c.locator.start
            by_line.setdefault((kind, c.snapshot_id, where), []).append(a)
        events: dict[tuple[str, str | None, str | None], list[Assertion]] = {}
        for (kind, _, _), group in by_line.items():
            events.setdefault((kind, *signature(group)), []).extend(group)
        for (kind, _, _), group in events.items():
            tag = tags[kind] if kind in tags else kind.upper()
            self.w.add(level, tag)
            # both partners' copies of one FAM line: where the Censor redacted either, the
            # redacted one goes out
            group.sort(key=lambda a: a.citations[0].excerpt not in REDACTION_MARKERS)
            seen: dict[tuple[str, str], Assertion] = {}
            for a in group:
                seen.setdefault((a.field_name, a.value), a)
            firsts = list(seen.values())
            best_date = next((a for a in firsts if is_date(a)), None)
            best_place = next((a for a in firsts if not is_date(a)), None)
            self._event_body(level + 1, tag, child_type(record, tag), group, best_date,
                             best_place, living)

    def _family(self, xref: str, key: frozenset[str], children: list[str]) -> None:
        w = self.w
        w.add(0, "FAM", xref=xref)
        living = any(self.people[pid].is_living for pid in key)
        sources = self.fam_sources.get(key, [])
        roles = partner_roles(sorted(key, key=self.indi.__getitem__), self._sex)
        for pid, role in roles:
            w.ptr(1, role, self.indi[pid])
            self.tree.carry(2, (role, f"FAM-{role}"), self.tree.members(xref, False, pid),
                            living=living)
        for pid in sorted(key - {pid for pid, _ in roles}, key=self.indi.__getitem__):
            w.add(1, "NOTE", f"Also recorded as a partner or parent in this family: "
                  f"individual {self.indi[pid].strip('@')} (GEDCOM has room for two)")
        for c in sorted(children, key=lambda pid: self.indi[pid]):
            w.ptr(1, "CHIL", self.indi[c])
            self.tree.carry(2, ("CHIL", "CHIL"), self.tree.members(xref, True, c),
                            living=living or bool(self.people[c].is_living))
        if key in self.family_events:  # after CHIL: an importer cites a link by those lines
            self._events(1, "record-FAM", self.family_events[key], _FAMILY_TAG, living)
        self.tree.carry(1, ("FAM", "record-FAM"), sources, skip=_FAM_OWN, living=living)
        self._cite_links(1, self._link_claims(key, children))

    def _link_claims(self, key: frozenset[str], children: list[str]) -> list[Assertion]:
        """The claims that state this family's links: partners' spouse claims naming each
        other, children's parent claims naming a partner (and the inverse child claims)."""
        out: list[Assertion] = []
        for pid in sorted(key):  # a set's order follows the hash seed
            for a in self.claims.get(pid, []):
                if (a.field_name == "spouse" and a.related_id in key) or (
                        a.field_name == "child" and a.related_id in children):
                    out.append(a)
        for c in children:
            out += [a for a in self.claims.get(c, [])
                    if a.field_name == "parent" and a.related_id in key]
        return out

    def _sex(self, pid: str) -> str:
        p = self.people.get(pid)
        return p.sex if p else "U"

    # -- citations ---------------------------------------------------------------------
    def _cite(self, level: int, items: list[Assertion]) -> None:
        """One SOUR citation per distinct excerpt, noting every claim it supports."""
        by_excerpt: dict[tuple[str, int, int], tuple[Citation, list[Assertion]]] = {}
        for a in items:
            for c in a.citations:
                key = (c.snapshot_id, c.locator.start, c.locator.end)
                by_excerpt.setdefault(key, (c, []))[1].append(a)
        for c, supported in by_excerpt.values():
            self._citation(level, c)
            seen: set[tuple[str, str]] = set()
            for a in supported:
                if (a.field_name, a.value) not in seen:
                    seen.add((a.field_name, a.value))
                    self.w.add(level + 1, "NOTE", f"sleuth {a.field_name.replace('_', ' ')} = "
                               f"{a.value}; status {a.status}; confidence {a.confidence:.2f}")

    def _citation(self, level: int, c: Citation) -> None:
        w = self.w
        w.ptr(level, "SOUR", self.sour[c.snapshot_id])
        w.add(level + 1, "PAGE", position(c, self.g.snapshots.get(c.snapshot_id)))
        w.add(level + 1, "DATA")
        w.add(level + 2, "TEXT", c.excerpt)

    def _cite_links(self, level: int, items: list[Assertion]) -> None:
        """A family's links by the fewest excerpts: the widest readable one first, then any
        it misses (a link to a living child is cited by the Censor's marker)."""
        cites = sorted({(c.snapshot_id, c.locator.start, c.locator.end): c
                        for a in items for c in a.citations}.values(),
                       key=lambda c: (int(self.sour[c.snapshot_id][2:-1]),
                                      c.excerpt in REDACTION_MARKERS,
                                      c.locator.start - c.locator.end, c.locator.start))
        kept: list[Citation] = []
        for c in cites:
            if not any(k.snapshot_id == c.snapshot_id and k.locator.start <= c.locator.start
                       and c.locator.end <= k.locator.end for k in kept):
                kept.append(c)
        for c in kept:
            self._citation(level, c)

    def _source(self, sid: str, xref: str) -> None:
        w = self.w
        snap = self.g.snapshots.get(sid)
        w.add(0, "SOUR", xref=xref)
        if snap is None:
            w.add(1, "TITL", f"snapshot {sid}")
            return
        if snap.url:
            w.add(1, "TITL", snap.source_name)
            w.add(1, "PUBL", snap.url)
        else:  # a user's own file: its name, never where it sits on their machine
            name = str(snap.metadata.get("filename") or "") or \
                re.split(r"[\\/]", snap.path or "")[-1] or snap.source_name
            w.add(1, "TITL", name)
            w.add(1, "PUBL", f"{snap.source_name}: {name}")
        w.add(1, "NOTE", f"sleuth snapshot {sid}; sha256 {snap.sha256}; accessed "
              f"{snap.accessed_at:%Y-%m-%d}; {snap.evidence_type} evidence")


def partner_roles(members: list[str], sex: Callable[[str], str]) -> list[tuple[str, str]]:
    """The HUSB and WIFE of a family's partners (in the order given), at most one each:
    GEDCOM 5.5.1 and 7.0 both allow one of each (7.0's FAM-HUSB and FAM-WIFE are {0:1}).
    A man is HUSB and a woman WIFE; a partner of unrecorded sex takes the role the other
    does not hold; a same-sex couple is HUSB and WIFE, as 7.0's `same-sex-marriage.ged`
    writes it (7.0: roles say nothing of sex). A third parent gets no role (the caller
    notes it)."""
    if len(members) < 2:
        return [(pid, "WIFE" if sex(pid) == "F" else "HUSB") for pid in members]
    rank = {"M": 0, "F": 2}
    ordered = sorted(members, key=lambda pid: rank.get(sex(pid), 1))
    return [(ordered[0], "HUSB"), (ordered[-1], "WIFE")]


def _slashed(value: str) -> str:
    """"Sarah Giles" as GEDCOM writes a name, "Sarah /Giles/", when its surname is plain."""
    prefix, rest = split_honorific(value)
    surname = parse_name(rest).surname_verbatim
    if "/" in rest or not surname or not (rest == surname or rest.endswith(" " + surname)):
        return value
    return f"{prefix} {rest[: len(rest) - len(surname)]}/{surname}/".strip()


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
    return gedcom_of_view(censor(graph, today=today, mask_names=mask_names), version, today)


def gedcom_of_view(view: CensoredGraph, version: str = "5.5.1", today: date | None = None) -> str:
    """`to_gedcom` of a case the caller has censored already (`censor`'s copy)."""
    if version not in VERSIONS:
        raise ValueError(f"GEDCOM version must be one of {VERSIONS}, not {version!r}")
    # Writing allocates much and makes no reference cycle, while the case graph beside it is
    # large: the collections it would trigger walk that heap and doubled the time (royal92).
    paused = gc.isenabled()
    gc.disable()
    try:
        return _Exporter(view, version, today or date.today()).build()
    finally:
        if paused:
            gc.enable()
