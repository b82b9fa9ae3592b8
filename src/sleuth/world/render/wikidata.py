"""Wikidata `wbgetentities` / `wbsearchentities` JSON for the world's few notable people.

Entities carry P31 (Q5), P21, P569/P570 (day precision, or year precision with the date's
month and day zeroed as Wikidata writes it), P19/P20 (place items, which have their own
entities with labels) and P22/P25/P26/P40 links between notable relatives.
"""

from __future__ import annotations

import json
from datetime import date
from typing import Any

from sleuth.world.population import GAZETTEER, Population
from sleuth.world.render.common import Document, Stated, rng

PERSON_BASE = 100_000
PLACE_BASE = 900
SEX = {"M": "Q6581097", "F": "Q6581072"}


def qid_person(pid: int) -> str:
    return f"Q{PERSON_BASE + pid}"


def lookup(pop: Population, qid: str) -> tuple[str, int] | None:
    """("person", pid) or ("place", index) for a Q-id of this world."""
    if qid[:1] not in ("Q", "q") or not qid[1:].isdigit():
        return None
    n = int(qid[1:])
    if n >= PERSON_BASE and n - PERSON_BASE < len(pop.persons) and pop.persons[
            n - PERSON_BASE].notable:
        return ("person", n - PERSON_BASE)
    if PLACE_BASE <= n < PLACE_BASE + len(GAZETTEER):
        return ("place", n - PLACE_BASE)
    return None


def _snak(prop: str, value: dict[str, Any], dtype: str) -> dict[str, Any]:
    return {"mainsnak": {"snaktype": "value", "property": prop,
                         "datavalue": {"value": value, "type": dtype},
                         "datatype": dtype}, "type": "statement", "rank": "normal"}


def _item(prop: str, qid: str) -> dict[str, Any]:
    return _snak(prop, {"entity-type": "item", "numeric-id": int(qid[1:]), "id": qid},
                 "wikibase-item")


def _time(prop: str, d: date, precise: bool) -> dict[str, Any]:
    t = f"+{d.isoformat()}T00:00:00Z" if precise else f"+{d.year:04d}-00-00T00:00:00Z"
    return _snak(prop, {"time": t, "timezone": 0, "before": 0, "after": 0,
                        "precision": 11 if precise else 9,
                        "calendarmodel": "http://www.wikidata.org/entity/Q1985727"}, "time")


def person_entity(pop: Population, pid: int, stated: list[Stated]) -> dict[str, Any]:
    p = pop.persons[pid]
    r = rng(pop.seed, "wd", pid)
    qid = qid_person(pid)
    claims: dict[str, list[Any]] = {"P31": [_item("P31", "Q5")], "P21": [_item("P21",
                                                                               SEX[p.sex])]}
    stated += [Stated(pid, "name", p.name), Stated(pid, "sex", p.sex)]
    for prop, when, fld in (("P569", p.birth, "birth_date"), ("P570", p.death, "death_date")):
        if when is None:
            continue
        precise = r.random() < 0.7
        claims[prop] = [_time(prop, when, precise)]
        stated.append(Stated(pid, fld, when.isoformat() if precise else str(when.year)))
    for prop, where, fld in (("P19", p.birth_place, "birth_place"),
                             ("P20", p.death_place, "death_place")):
        if where is not None:
            claims[prop] = [_item(prop, f"Q{PLACE_BASE + where}")]
            stated.append(Stated(pid, fld, GAZETTEER[where].locality))
    for prop, rel in (("P22", p.father), ("P25", p.mother)):
        if rel is not None and pop.persons[rel].notable:
            claims[prop] = [_item(prop, qid_person(rel))]
    spouses = [s for s in pop.spouses(pid) if pop.persons[s].notable]
    if spouses:
        claims["P26"] = [_item("P26", qid_person(s)) for s in spouses]
    kids = [c for c in pop.children(pid) if pop.persons[c].notable]
    if kids:
        claims["P40"] = [_item("P40", qid_person(c)) for c in kids]
    years = f"{p.birth.year}-{p.death.year}" if p.death else str(p.birth.year)
    return {"type": "item", "id": qid,
            "labels": {"en": {"language": "en", "value": p.name}},
            "descriptions": {"en": {"language": "en",
                                    "value": f"{p.occupation or 'person'} ({years})"}},
            "aliases": {}, "claims": claims}


def place_entity(idx: int) -> dict[str, Any]:
    pl = GAZETTEER[idx]
    return {"type": "item", "id": f"Q{PLACE_BASE + idx}",
            "labels": {"en": {"language": "en", "value": pl.locality}},
            "descriptions": {"en": {"language": "en", "value": pl.full}},
            "claims": {"P31": [_item("P31", "Q532")]}}


def get_entities(pop: Population, ids: list[str]) -> Document:
    stated: list[Stated] = []
    ents: dict[str, Any] = {}
    for qid in ids:
        what = lookup(pop, qid)
        if what is None:
            ents[qid] = {"id": qid, "missing": ""}
        elif what[0] == "person":
            ents[qid] = person_entity(pop, what[1], stated)
        else:
            ents[qid] = place_entity(what[1])
    body = json.dumps({"entities": ents, "success": 1}, indent=1, ensure_ascii=False)
    # A place label only names a place when the response holds it; keep what is stated.
    held = {k for k in ents if lookup(pop, k) and lookup(pop, k)[0] == "place"}  # type: ignore[index]
    stated = [s for s in stated if not s.field.endswith("_place") or any(
        GAZETTEER[int(h[1:]) - PLACE_BASE].locality == s.value for h in held)]
    return Document("wikidata", "wbgetentities:" + "|".join(ids), "application/json", body,
                    stated)


def search_entities(pop: Population, query: str) -> Document:
    words = query.lower().split()
    hits = [p for p in pop.persons if p.notable
            and all(w in p.name.lower().split() for w in words)]
    out = [{"id": qid_person(p.id), "title": qid_person(p.id), "label": p.name,
            "description": f"{p.occupation or 'person'} ({p.birth.year})",
            "match": {"type": "label", "language": "en", "text": p.name}} for p in hits[:7]]
    body = json.dumps({"searchinfo": {"search": query}, "search": out, "success": 1},
                      indent=1, ensure_ascii=False)
    return Document("wikidata", f"wbsearchentities:{query}", "application/json", body, [])
