"""A tiny deterministic family served as a WikiTree-shaped API on 127.0.0.1 (test helper).

Until the simulated world package lands this is the loop's ground truth: a few generations
of a family with same-name cousins and a living great-grandchild, rendered into the JSON
shapes of the real WikiTree API (searchPerson, getRelatives) that `sleuth.extract.records.
wikitree_api` reads. Everything is decided by the seed.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

import yaml
from werkzeug import Request, Response

GIVEN_M = ["John", "William", "James", "George", "Thomas", "Henry", "Samuel", "Edward"]
GIVEN_F = ["Mary", "Anna", "Elizabeth", "Sarah", "Martha", "Alice", "Ellen", "Jane"]
SURNAMES = ["Whitfield", "Ashby", "Corbett", "Dunmore", "Farrow", "Hollis", "Pryce", "Lund"]
PLACES = ["Buck Valley, Fulton, Pennsylvania, USA", "Hancock, Washington, Maryland, USA",
          "Bedford, Bedford, Pennsylvania, USA", "Cumberland, Allegany, Maryland, USA"]


@dataclass
class P:
    id: int
    key: str
    given: str
    surname: str
    sex: str
    born: int
    died: int | None
    place: str
    father: int | None = None
    mother: int | None = None
    spouses: list[int] = field(default_factory=list)
    children: list[int] = field(default_factory=list)


@dataclass
class World:
    people: dict[int, P]
    seed: P
    requests: Counter[str] = field(default_factory=Counter)

    def by_key(self, key: str) -> P | None:
        return next((p for p in self.people.values() if p.key == key), None)

    def ancestors(self, pid: int, depth: int) -> set[int]:
        out: set[int] = set()
        todo = [(pid, 0)]
        while todo:
            x, d = todo.pop()
            p = self.people[x]
            for par in (p.father, p.mother):
                if par and d < depth:
                    out.add(par)
                    todo.append((par, d + 1))
        return out


def build(seed: int = 1, generations: int = 3) -> World:
    """The seed person, `generations` of ancestors, siblings, one living descendant line."""
    rng = random.Random(seed)
    people: dict[int, P] = {}
    counts: Counter[str] = Counter()

    def new(sex: str, surname: str, born: int, given: str | None = None) -> P:
        pid = 1000 + len(people)
        counts[surname] += 1
        g = given or rng.choice(GIVEN_M if sex == "M" else GIVEN_F)
        died = born + rng.randint(45, 85)
        p = P(pid, f"{surname}-{counts[surname]}", g, surname, sex, born,
              died if died < 2020 else None, rng.choice(PLACES))
        people[pid] = p
        return p

    def couple(child: P, depth: int) -> None:
        if depth == 0:
            return
        fy = child.born - rng.randint(22, 35)
        f = new("M", child.surname, fy)
        m = new("F", rng.choice([s for s in SURNAMES if s != child.surname]),
                fy + rng.randint(-3, 4))
        f.spouses.append(m.id)
        m.spouses.append(f.id)
        for par in (f, m):
            par.children.append(child.id)
        child.father, child.mother = f.id, m.id
        if rng.random() < 0.6:  # a sibling, sometimes a same-name cousin-maker
            sib = new(rng.choice("MF"), child.surname, child.born + rng.randint(2, 6),
                      given=child.given if rng.random() < 0.3 else None)
            sib.father, sib.mother = f.id, m.id
            f.children.append(sib.id)
            m.children.append(sib.id)
        couple(f, depth - 1)
        couple(m, depth - 1)

    root = new("M", rng.choice(SURNAMES), 1880 + rng.randint(0, 20))
    couple(root, generations)
    spouse = new("F", rng.choice(SURNAMES), root.born + rng.randint(-3, 3))
    root.spouses.append(spouse.id)
    spouse.spouses.append(root.id)
    child = new("F", root.surname, root.born + 28)
    child.father, child.mother = root.id, spouse.id
    root.children.append(child.id)
    spouse.children.append(child.id)
    living = new("M", rng.choice(SURNAMES), 1975)  # a living grandchild (no death)
    living.died = None
    living.mother = child.id
    child.children.append(living.id)
    return World(people, root)


def profile(p: P) -> dict[str, Any]:
    d: dict[str, Any] = {
        "Id": p.id, "Name": p.key, "FirstName": p.given, "LastNameAtBirth": p.surname,
        "BirthDate": f"{p.born}-0{1 + p.id % 9}-1{p.id % 9}", "BirthLocation": p.place,
        "Gender": "Male" if p.sex == "M" else "Female", "Privacy": 60,
        "Father": p.father or 0, "Mother": p.mother or 0}
    if p.died:
        d["DeathDate"] = f"{p.died}-00-00"
    return d


def handler(world: World) -> Any:
    def respond(request: Request) -> Response:
        q = {k: v[0] for k, v in parse_qs(request.query_string.decode()).items()}
        world.requests[request.full_path] += 1
        action = q.get("action")
        if action == "searchPerson":
            first, last = q.get("FirstName", "").lower(), q.get("LastName", "").lower()
            born = q.get("BirthDate")
            hits = [p for p in sorted(world.people.values(), key=lambda p: p.id)
                    if p.given.lower() == first and p.surname.lower() == last
                    and (not born or abs(p.born - int(born[:4])) <= 2)]
            body: Any = [{"status": 0, "total": len(hits), "start": 0, "limit": 10,
                          "matches": [{"Id": p.id, "Name": p.key, "FirstName": p.given,
                                       "LastNameAtBirth": p.surname,
                                       "BirthDate": f"{p.born}-00-00"} for p in hits]}]
        elif action == "getRelatives":
            p = world.by_key(q.get("keys", ""))
            if p is None:
                body = [{"status": "Illegal WikiTree ID", "page_name": q.get("keys", "")}]
            else:
                person = profile(p)
                person["Parents"] = {str(x): profile(world.people[x])
                                     for x in (p.father, p.mother) if x}
                person["Spouses"] = {str(x): profile(world.people[x]) for x in p.spouses}
                person["Children"] = {str(x): profile(world.people[x]) for x in p.children}
                body = [{"status": 0, "items": [{"key": p.key, "user_id": p.id,
                                                 "person": person}]}]
        else:
            return Response("unknown action", status=400)
        return Response(json.dumps(body, indent=1), content_type="application/json")

    return respond


def spec(base_url: str, source_id: str = "wikitree") -> dict[str, Any]:
    """An override spec for the built-in WikiTree plugin, pointed at the local server."""
    return {
        "id": source_id, "name": "WikiTree API (local)", "tier": 0, "kind": "json",
        "base_url": base_url, "local": True,
        "plugin": "sleuth.sources.plugins.wikitree:WikiTreePlugin",
        "compliance": {"robots_txt": False, "requests_per_minute": 60000, "burst": 1000,
                       "cache_ttl_seconds": 86400, "content_types": ["application/json"],
                       "timeout_seconds": 5, "max_retries": 1},
        "reliability": {"evidence_type": "secondary", "base_weight": 0.6},
        "endpoints": {"getRelatives": "/api.php?action=getRelatives&keys={key}&getParents=1"
                      "&getSpouses=1&getChildren=1"},
        "search": {"endpoint": "/api.php", "params": {
            "action": "searchPerson", "FirstName": "{given}", "LastName": "{surname}",
            "BirthDate": "{birth_year}"}, "result_path": "0.matches"},
    }


def install(case_dir: Path, base_url: str) -> None:
    (case_dir / "sources").mkdir(parents=True, exist_ok=True)
    (case_dir / "sources" / "wikitree.yaml").write_text(yaml.safe_dump(spec(base_url)))
