"""WikiTree API responses (getProfile/getPerson, getPeople, getAncestors, getDescendants,
getRelatives, searchPerson) in the shapes of the API documentation's examples.

User-contributed errors: a wrong birth or death year, birth and death places swapped, a date
cut to its year ("1844-00-00", flagged "guess" in DataStatus). Privacy: living people's
profiles are mostly Private (20): the API gives their names and birth decade only; some are
Unlisted (10): nothing at all, as WikiTree does; and a few are Public (50), full dates and
all, because a profile manager chose so (WikiTree allows it, IsLiving stays 1): the case
where the Censor, not the source, has to protect them.
"""

from __future__ import annotations

import json
from typing import Any

from sleuth.verify.normalise import fold
from sleuth.world.population import GAZETTEER, Person, Population
from sleuth.world.render.common import Document, Stated, iso, rng

ID_BASE = 10_000
PAGE_BASE = 2_000_000


class WikiTree:
    """Who has a profile, their WikiTree IDs, and the profile blocks as the API writes them."""

    def __init__(self, pop: Population) -> None:
        self.pop = pop
        self.keys: dict[int, str] = {}
        self.by_key: dict[str, int] = {}
        counters: dict[str, int] = {}
        for p in pop.persons:
            r = rng(pop.seed, "wt-cover", p.id)
            share = 0.9 if p.ancestor else 0.45 if p.living else 0.65
            if r.random() >= share:
                continue
            n = counters.get(p.surname, 0) + 1 + r.randint(0, 40)
            counters[p.surname] = n
            key = f"{p.surname}-{n}"
            self.keys[p.id] = key
            self.by_key[key.lower()] = p.id

    def find(self, key: str) -> int | None:
        """A person by WikiTree ID or numeric Id / PageId."""
        k = key.strip()
        if k.isdigit():
            n = int(k)
            for base in (ID_BASE, PAGE_BASE):
                pid = n - base
                if pid in self.keys:
                    return pid
            return None
        return self.by_key.get(k.lower())

    def privacy(self, p: Person) -> int:
        if not p.living:
            return 60
        u = rng(self.pop.seed, "wt-priv", p.id).random()
        return 10 if u < 0.2 else 50 if u > 0.9 else 20

    def profile(self, pid: int, stated: list[Stated], *, relatives: bool = False,
                fields: str = "") -> dict[str, Any] | None:
        """One profile block (None: Unlisted), with the facts it states appended."""
        p = self.pop.persons[pid]
        priv = self.privacy(p)
        if priv <= 10:
            return None
        key = self.keys[pid]
        out: dict[str, Any] = {"Id": ID_BASE + pid, "PageId": PAGE_BASE + pid,
                               "Name": key, "IsPerson": 1}
        given = p.given.split()
        out["FirstName"] = given[0]
        if len(given) > 1 and priv >= 50:
            out["MiddleName"] = " ".join(given[1:])
        out["LastNameAtBirth"] = p.surname
        if p.married_surname and p.sex == "F":
            out["LastNameCurrent"] = p.married_surname
        name = " ".join([given[0], *(given[1:] if priv >= 50 else [])])
        full = f"{name} {p.married_surname if 'LastNameCurrent' in out else p.surname}"
        stated.append(Stated(pid, "name", full))
        if priv < 50:
            out["BirthDateDecade"] = f"{p.birth.year // 10 * 10}s"
            out["Privacy"] = priv
            out["IsLiving"] = 1
            stated.append(Stated(pid, "birth_date", f"{p.birth.year // 10}0s"))
            return out
        r = rng(self.pop.seed, "wt-err", pid)
        status: dict[str, str] = {}
        for ev, when, where in (("Birth", p.birth, p.birth_place),
                                ("Death", p.death, p.death_place)):
            if when is None:
                out[f"{ev}Date"] = "0000-00-00"
                continue
            year, value, ok = when.year, when.isoformat(), True
            u = r.random()
            if u < 0.06:
                year += r.choice((-10, -2, -1, 1, 2, 10))
                value, ok = f"{year:04d}{value[4:]}", False
            elif u < 0.16:
                value = f"{year:04d}-00-00"
                status[f"{ev}Date"] = "guess"
            out[f"{ev}Date"] = value
            stated.append(Stated(pid, f"{ev.lower()}_date", value.replace("-00", ""), ok))
            if where is not None:
                out[f"{ev}Location"] = GAZETTEER[where].full
        if (p.death_place is not None and p.death_place != p.birth_place
                and r.random() < 0.04):  # swapped places
            out["BirthLocation"], out["DeathLocation"] = (out["DeathLocation"],
                                                          out["BirthLocation"])
        for ev, where in (("Birth", p.birth_place), ("Death", p.death_place)):
            if f"{ev}Location" in out and where is not None:
                stated.append(Stated(pid, f"{ev.lower()}_place", out[f"{ev}Location"],
                                     out[f"{ev}Location"] == GAZETTEER[where].full))
        out["BirthDateDecade"] = f"{p.birth.year // 10 * 10}s"
        if p.death:
            out["DeathDateDecade"] = f"{p.death.year // 10 * 10}s"
        out["Gender"] = "Male" if p.sex == "M" else "Female"
        stated.append(Stated(pid, "sex", p.sex))
        out["IsLiving"] = int(p.living)
        out["Privacy"] = priv
        out["Father"] = self.link(p.father)
        out["Mother"] = self.link(p.mother)
        out["DataStatus"] = {"BirthDate": status.get("BirthDate", "certain"),
                             "DeathDate": status.get("DeathDate", "certain")}
        if relatives:
            self.relatives(pid, out, stated)
        return out

    def link(self, pid: int | None) -> int:
        return ID_BASE + pid if pid is not None and pid in self.keys else 0

    def relatives(self, pid: int, out: dict[str, Any], stated: list[Stated]) -> None:
        pop = self.pop
        p = pop.persons[pid]
        groups = {"Parents": [x for x in (p.father, p.mother) if x is not None],
                  "Spouses": pop.spouses(pid), "Children": pop.children(pid),
                  "Siblings": pop.siblings(pid)}
        field = {"Parents": "parent", "Spouses": "spouse", "Children": "child",
                 "Siblings": "sibling"}
        for block, ids in groups.items():
            entries: dict[str, Any] = {}
            for rel in ids:
                if rel not in self.keys:
                    continue
                sub: list[Stated] = []
                prof = self.profile(rel, sub)
                if prof is None or self.privacy(pop.persons[rel]) < 50:
                    continue
                stated.extend(sub)
                if block == "Spouses":
                    u = next(pop.unions[x] for x in p.unions
                             if rel in (pop.unions[x].husband, pop.unions[x].wife))
                    prof["marriage_date"] = u.date.isoformat()
                    prof["marriage_location"] = GAZETTEER[u.place].full
                    prof["do_not_display"] = "0"
                    for who in (pid, rel):
                        stated.append(Stated(who, "marriage_date", iso(u.date)))
                        stated.append(Stated(who, "marriage_place", GAZETTEER[u.place].full))
                entries[str(ID_BASE + rel)] = prof
                stated.append(Stated(pid, field[block], "", related=rel))
            out[block] = entries


def _dump(obj: Any) -> str:
    return json.dumps(obj, indent=2, ensure_ascii=False)


def get_profile(wt: WikiTree, key: str, action: str = "getProfile") -> Document:
    pid = wt.find(key)
    stated: list[Stated] = []
    body: list[dict[str, Any]]  # JSON: a status is a word or 0
    if pid is None:
        body = [{"page_name": key, "status": "Illegal WikiTree ID"}]
    else:
        prof = wt.profile(pid, stated)
        body = ([{"page_name": wt.keys[pid], "status": "Permission Denied"}] if prof is None
                else [{"page_name": wt.keys[pid], "profile": prof, "status": 0}])
    return Document("wikitree", f"{action}:{key}", "application/json", _dump(body), stated)


def get_people(wt: WikiTree, keys: list[str]) -> Document:
    stated: list[Stated] = []
    by_key: dict[str, Any] = {}
    people: dict[str, Any] = {}
    for k in keys:
        pid = wt.find(k)
        prof = wt.profile(pid, stated) if pid is not None else None
        if prof is None:
            by_key[k] = {"status": "Invalid page name"}
            continue
        by_key[k] = {"Id": prof["Id"]}
        people[str(prof["Id"])] = prof
    body = [{"status": "", "resultByKey": by_key, "people": people}]
    return Document("wikitree", "getPeople:" + ",".join(keys), "application/json", _dump(body),
                    stated)


def get_lineage(wt: WikiTree, key: str, depth: int, up: bool) -> Document:
    """getAncestors / getDescendants: the profiles `depth` generations up or down."""
    action = "getAncestors" if up else "getDescendants"
    pid = wt.find(key)
    stated: list[Stated] = []
    if pid is None:
        return Document("wikitree", f"{action}:{key}", "application/json",
                        _dump([{"page_name": key, "status": "Illegal WikiTree ID"}]), stated)
    seen = [pid]
    frontier = [pid]
    for _ in range(max(0, min(depth, 10))):
        nxt: list[int] = []
        for q in frontier:
            p = wt.pop.persons[q]
            rels = [p.father, p.mother] if up else wt.pop.children(q)
            nxt.extend(x for x in rels if x is not None and x in wt.keys and x not in seen)
        seen.extend(nxt)
        frontier = nxt
    profiles = [prof for q in seen if (prof := wt.profile(q, stated)) is not None]
    key_name = "ancestors" if up else "descendants"
    body = [{"user_id": str(ID_BASE + pid), key_name: profiles, "status": 0}]
    return Document("wikitree", f"{action}:{key}:{depth}", "application/json", _dump(body),
                    stated)


def get_relatives(wt: WikiTree, keys: list[str]) -> Document:
    stated: list[Stated] = []
    items = []
    for k in keys:
        pid = wt.find(k)
        prof = wt.profile(pid, stated, relatives=True) if pid is not None else None
        if prof is not None and pid is not None:
            items.append({"key": k, "user_id": str(ID_BASE + pid), "person": prof})
    body = [{"items": items, "status": 0}]
    return Document("wikitree", "getRelatives:" + ",".join(keys), "application/json",
                    _dump(body), stated)


def search_person(wt: WikiTree, first: str, last: str, birth: str, death: str,
                  start: int, limit: int) -> Document:
    """Matches on surname (at birth or current), first-name prefix and years within 2."""
    pop = wt.pop
    f, la = fold(first).strip(), fold(last).strip()
    hits = []
    for pid in wt.keys:
        p = pop.persons[pid]
        if la and la not in (p.surname.lower(), p.married_surname.lower()):
            continue
        if f and not p.given.lower().startswith(f):
            continue
        if birth[:4].isdigit() and abs(p.birth.year - int(birth[:4])) > 2:
            continue
        if death[:4].isdigit() and (p.death is None or abs(p.death.year - int(death[:4])) > 2):
            continue
        hits.append(pid)
    hits.sort(key=lambda q: (pop.persons[q].birth, q))
    stated: list[Stated] = []
    matches = []
    for i, pid in enumerate(hits[start:start + limit]):
        prof = wt.profile(pid, stated)
        if prof is None:
            matches.append({"Id": ID_BASE + pid, "index": start + i})
            continue
        prof["index"] = start + i
        matches.append(prof)
    body = [{"status": 0, "matches": matches, "total": len(hits), "start": start,
             "limit": limit}]
    return Document("wikitree", f"searchPerson:{first}:{last}:{birth}:{death}:{start}",
                    "application/json", _dump(body), stated)
