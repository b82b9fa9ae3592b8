"""FamilySearch historical records as GEDCOM X JSON (persons, facts, fields, relationships):
US and England census households, US marriage and death records.

Census ages come from the enumerator (now and then a year or five out), so birth years can
only be derived; names are misspelled about one time in twelve; birthplaces are as the census
asked for them (a state, or a parish and county).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date
from typing import Any

from sleuth.world.population import GAZETTEER, Population
from sleuth.world.render.common import (
    Document,
    Stated,
    gx_date,
    iso,
    misspell,
    rng,
    shift_year,
)

GX = "http://gedcomx.org/"
US_CENSUS = {1850: (6, 1), 1860: (6, 1), 1870: (6, 1), 1880: (6, 1), 1900: (6, 1),
             1910: (4, 15), 1920: (1, 1), 1930: (4, 1), 1940: (4, 1)}
UK_CENSUS = {1841: (6, 6), 1851: (3, 30), 1861: (4, 7), 1871: (4, 2), 1881: (4, 3),
             1891: (4, 5), 1901: (3, 31), 1911: (4, 2)}
_ALPHA = "BCDFGHJKLMNPQRSTVWXZ23456789"


@dataclass(frozen=True)
class Record:
    kind: str  # census | marriage | death
    ident: int  # union id (census, marriage) or person id (death)
    year: int = 0

    @property
    def rid(self) -> str:
        return f"{self.kind}-{self.ident}-{self.year}"


def persona_id(rec: Record, k: int) -> str:
    n = abs(hash((rec.kind, rec.ident, rec.year))) if False else (
        (ord(rec.kind[0]) * 1_000_003 + rec.ident * 7919 + rec.year) * 31 + k)
    chars = []
    for _ in range(8):
        n, d = divmod(n, len(_ALPHA))
        chars.append(_ALPHA[d])
    s = "".join(chars)
    return f"{s[:4]}-{s[4:]}"


def household(pop: Population, uid: int, year: int) -> list[tuple[int, str]]:
    """(person, relationship to head) on census night, or [] when nobody is at home."""
    u = pop.unions[uid]
    country = GAZETTEER[u.place].country
    md = (US_CENSUS if country == "USA" else UK_CENSUS).get(year)
    if md is None or u.date.year >= year:
        return []
    night = date(year, *md)
    alive = [x for x in (u.husband, u.wife)
             if pop.persons[x].birth < night and (pop.persons[x].death or date.max) > night]
    if not alive:
        return []
    head = alive[0]
    if any(len(pop.persons[x].unions) > 1 and pop.persons[x].unions[-1] != uid for x in alive):
        return []  # a later marriage: that household is counted instead
    out = [(head, "Head")] + [(x, "Wife") for x in alive[1:]]
    for c in u.children:
        p = pop.persons[c]
        if p.birth < night and (p.death or date.max) > night and (night - p.birth).days < 21 * 365 \
                and not any(pop.unions[v].date < night for v in p.unions):
            out.append((c, "Son" if p.sex == "M" else "Daughter"))
    return out


def catalogue(pop: Population) -> dict[str, Record]:
    recs: dict[str, Record] = {}
    for u in pop.unions:
        table = US_CENSUS if GAZETTEER[u.place].country == "USA" else UK_CENSUS
        for year in table:
            if household(pop, u.id, year) and rng(pop.seed, "census", (u.id, year)).random() < 0.6:
                rec = Record("census", u.id, year)
                recs[rec.rid] = rec
        if GAZETTEER[u.place].country == "USA" and rng(pop.seed, "fs-marr", u.id).random() < 0.4:
            rec = Record("marriage", u.id)
            recs[rec.rid] = rec
    for p in pop.persons:
        if (p.death and p.death.year >= 1900 and p.death_place is not None
                and GAZETTEER[p.death_place].country == "USA"
                and rng(pop.seed, "fs-death", p.id).random() < 0.6):
            rec = Record("death", p.id)
            recs[rec.rid] = rec
    return recs


class _Out:
    def __init__(self, pop: Population, rec: Record) -> None:
        self.pop, self.rec = pop, rec
        self.r = rng(pop.seed, "fs", rec.rid)
        self.persons: list[dict[str, Any]] = []
        self.rels: list[dict[str, Any]] = []
        self.ids: dict[int, str] = {}
        self.stated: list[Stated] = []

    def person(self, pid: int, *, principal: bool, surname: str | None = None,
               facts: list[dict[str, Any]] | None = None,
               fields: list[dict[str, Any]] | None = None) -> str:
        p = self.pop.persons[pid]
        sur = surname or p.surname
        ok = True
        if self.r.random() < 0.08:
            sur, ok = misspell(sur, self.r), False
        name = f"{p.given} {sur}"
        self.stated.append(Stated(pid, "name", name, ok))
        xid = f"p_{persona_id(self.rec, len(self.persons)).replace('-', '')}"
        self.ids[pid] = xid
        obj: dict[str, Any] = {"id": xid, "principal": principal,
                               "gender": {"type": GX + ("Male" if p.sex == "M" else "Female")},
                               "names": [{"nameForms": [{"fullText": name}]}],
                               "facts": facts or []}
        self.stated.append(Stated(pid, "sex", p.sex))
        if fields:
            obj["fields"] = fields
        self.persons.append(obj)
        return xid

    def rel(self, kind: str, a: int, b: int) -> None:
        self.rels.append({"id": f"r_{len(self.rels) + 1}", "type": GX + kind,
                          "person1": {"resource": "#" + self.ids[a], "resourceId": self.ids[a]},
                          "person2": {"resource": "#" + self.ids[b], "resourceId": self.ids[b]}})
        if kind == "Couple":
            self.stated += [Stated(a, "spouse", "", related=b), Stated(b, "spouse", "", related=a)]
        else:
            self.stated.append(Stated(b, "parent", "", related=a))

    def doc(self, title: str, coverage: dict[str, Any]) -> Document:
        focus = self.persons[0]["id"]
        body = {"description": f"#sd_{focus}", "persons": self.persons,
                "relationships": self.rels,
                "sourceDescriptions": [
                    {"id": f"sd_{focus}", "about": f"#{focus}",
                     "resourceType": GX + "Record", "coverage": [coverage],
                     "titles": [{"lang": "en", "value": title}]}]}
        return Document("familysearch", self.rec.rid, "application/x-gedcomx-v1+json",
                        json.dumps(body, indent=1, ensure_ascii=False), self.stated)


def _fact(kind: str, when: str | None, where: str | None) -> dict[str, Any]:
    f: dict[str, Any] = {"type": GX + kind}
    if when:
        f["date"] = {"original": when}
    if where:
        f["place"] = {"original": where}
    return f


def _census_place(idx: int) -> str:
    pl = GAZETTEER[idx]
    return (f"{pl.locality}, {pl.county}, {pl.state}, United States" if pl.country == "USA"
            else f"{pl.locality}, {pl.county}, England")


def _birthplace(idx: int) -> str:
    pl = GAZETTEER[idx]
    return pl.state if pl.country == "USA" else f"{pl.locality}, {pl.county}, England"


def render(pop: Population, rec: Record) -> Document:
    out = _Out(pop, rec)
    r = out.r
    if rec.kind == "census":
        u = pop.unions[rec.ident]
        members = household(pop, u.id, rec.year)
        table = US_CENSUS if GAZETTEER[u.place].country == "USA" else UK_CENSUS
        night = date(rec.year, *table[rec.year])
        where = _census_place(u.place)
        for pid, role in members:
            p = pop.persons[pid]
            age = (night - p.birth).days // 365
            u_ = r.random()
            shown = age + (r.choice((-1, 1)) if u_ < 0.1 else r.choice((-5, 5)) if u_ < 0.13
                           else 0)
            sur = (p.married_surname if role == "Wife" or (p.sex == "F" and role == "Head"
                                                           and p.married_surname)
                   else p.surname)
            facts = [_fact("Census", str(rec.year), where),
                     _fact("Birth", None, _birthplace(p.birth_place))]
            out.stated.append(Stated(pid, "birth_place", _birthplace(p.birth_place)))
            fields = [{"type": GX + "Age", "values": [{"type": GX + "Original",
                                                      "text": str(max(0, shown))}]},
                      {"type": GX + "RelationshipToHead", "values": [{"text": role}]}]
            out.person(pid, principal=role == "Head", surname=sur, facts=facts, fields=fields)
        head = members[0][0]
        for pid, role in members[1:]:
            if role == "Wife":
                out.stated += [Stated(pid, "spouse", "", related=head),
                               Stated(head, "spouse", "", related=pid)]
            else:
                out.stated.append(Stated(pid, "parent", "", related=head))
        country = "United States" if GAZETTEER[u.place].country == "USA" else "England and Wales"
        return out.doc(f"Household of {pop.persons[head].name}, \"{country} Census, "
                       f"{rec.year}\"", {"temporal": {"original": str(rec.year)},
                                         "spatial": {"original": where},
                                         "recordType": GX + "Census"})
    if rec.kind == "marriage":
        u = pop.unions[rec.ident]
        h, w = pop.persons[u.husband], pop.persons[u.wife]
        when, where = gx_date(u.date), _census_place(u.place)
        for p in (h, w):
            out.person(p.id, principal=True, facts=[_fact("Marriage", when, where)])
            out.stated += [Stated(p.id, "marriage_date", iso(u.date)),
                           Stated(p.id, "marriage_place", where)]
        out.rel("Couple", h.id, w.id)
        for child in (h, w):
            if child.father is not None:
                out.person(child.father, principal=False)
                out.rel("ParentChild", child.father, child.id)
        return out.doc(f"Marriage of {h.name} and {w.name}", {
            "temporal": {"original": when}, "spatial": {"original": where},
            "recordType": GX + "Marriage"})
    p = pop.persons[rec.ident]
    assert p.death is not None and p.death_place is not None
    born, ok = p.birth, True
    if r.random() < 0.05:
        born, ok = shift_year(born, r.choice((-1, 1))), False
    facts = [_fact("Death", gx_date(p.death), _census_place(p.death_place)),
             _fact("Birth", gx_date(born), _birthplace(p.birth_place))]
    if p.burial and p.cemetery:
        facts.append(_fact("Burial", gx_date(p.burial), p.cemetery))
        out.stated.append(Stated(p.id, "burial_date", iso(p.burial)))
    out.stated += [Stated(p.id, "death_date", iso(p.death)),
                   Stated(p.id, "death_place", _census_place(p.death_place)),
                   Stated(p.id, "birth_date", iso(born), ok),
                   Stated(p.id, "birth_place", _birthplace(p.birth_place))]
    sur = p.married_surname if p.sex == "F" and p.married_surname else p.surname
    out.person(p.id, principal=True, surname=sur, facts=facts)
    for par in (p.father, p.mother):
        if par is not None:
            out.person(par, principal=False)
            out.rel("ParentChild", par, p.id)
    return out.doc(f"Death certificate of {p.name}", {
        "temporal": {"original": gx_date(p.death)},
        "spatial": {"original": _census_place(p.death_place)}, "recordType": GX + "Death"})


def persona_index(pop: Population, recs: dict[str, Record]) -> dict[str, tuple[str, int]]:
    """Persona id -> (record id, person id), for the persona endpoint and search."""
    out: dict[str, tuple[str, int]] = {}
    for rid, rec in recs.items():
        doc = render(pop, rec)
        body = json.loads(doc.body)
        pids = []
        seen: set[int] = set()
        for s in doc.stated:
            if s.field == "name" and s.person not in seen:
                seen.add(s.person)
                pids.append(s.person)
        for k, (pobj, pid) in enumerate(zip(body["persons"], pids, strict=False)):
            out[persona_id(rec, k)] = (rid, pid)
            assert pobj["id"].endswith(persona_id(rec, k).replace("-", ""))
    return out
