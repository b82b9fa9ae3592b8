"""Ground truth export and the research benchmark's scorer.

`export(world, out)` writes `truth.json` (persons, unions, events) and every detail document
with the facts it states. `score(graph, world, seed_person)` maps each case person to the
world person its cited documents speak of (re-deriving each snapshot's document from its URL
with `World.respond`, then matching the assertion's value among that document's stated
facts), and measures facts and relationships against the truth.

What counts as correct, and why: a name as a record spells it ("Gyles" for Giles, "WYAT" for
Wyatt) is true of the person when each word is the true word or sounds like it (Soundex);
a forename alone is a true partial name; a place is compared without the country words a
source may add ("United States", "England"); a date range (a decade, "about", "between") is
true when the real date lies inside it. A sex value alone never identifies whom a person
is (it matches half a register); a value several persons of one document share is decided
by an exact match when one of them has it (two baptisms in 1744, on different days), else by
the other values the same record line gives the same subject (of the two Charles GREENWOODs
in a register, the one married that day); and a
person no document identifies is mapped through a relationship: the parent, of known sex,
of a mapped child is that child's father or mother, and a name shared by several persons
is the one whose parent is the person's mapped parent (mother and daughter both Sarah).
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import jellyfish

from sleuth.model import CaseGraph, GenDate
from sleuth.verify.normalise import fold
from sleuth.world import World
from sleuth.world.population import GAZETTEER, Person
from sleuth.world.render.common import Stated

SCORED = ("name", "sex", "birth_date", "birth_place", "death_date", "death_place",
          "baptism_date", "burial_date", "marriage_date")
TITLES = {"mr", "mrs", "miss", "dr"}
COUNTRY_WORDS = {"county", "co", "england", "usa", "us", "united", "states", "america", "uk",
                 "kingdom"}


def person_json(world: World, p: Person) -> dict[str, Any]:
    place = lambda i: GAZETTEER[i].full if i is not None else None  # noqa: E731
    return {"id": p.id, "name": p.name, "given": p.given, "surname": p.surname,
            "married_surname": p.married_surname or None, "sex": p.sex,
            "birth": p.birth.isoformat(), "birth_place": place(p.birth_place),
            "baptism": p.baptism.isoformat() if p.baptism else None,
            "death": p.death.isoformat() if p.death else None,
            "death_place": place(p.death_place),
            "burial": p.burial.isoformat() if p.burial else None,
            "burial_place": place(p.burial_place), "cemetery": p.cemetery,
            "father": p.father, "mother": p.mother, "living": p.living,
            "ancestor": p.ancestor, "descendant": p.descendant, "notable": p.notable,
            "occupation": p.occupation or None}


def truth_json(world: World) -> dict[str, Any]:
    pop = world.pop
    return {"seed": world.seed, "size": world.size, "seed_person": pop.seed_person,
            "persons": [person_json(world, p) for p in pop.persons],
            "unions": [{"id": u.id, "husband": u.husband, "wife": u.wife,
                        "date": u.date.isoformat(), "place": GAZETTEER[u.place].full,
                        "children": u.children} for u in pop.unions]}


def export(world: World, out: Path) -> int:
    """Write truth.json, documents/ and stated.jsonl under `out`; returns documents written."""
    out.mkdir(parents=True, exist_ok=True)
    (out / "truth.json").write_text(json.dumps(truth_json(world), indent=1), encoding="utf-8")
    docs = out / "documents"
    docs.mkdir(exist_ok=True)
    n = 0
    with (out / "stated.jsonl").open("w", encoding="utf-8") as fh:
        for path, doc in world.documents():
            ext = {"application/json": "json", "text/html": "html", "text/csv": "csv"}.get(
                doc.content_type, "json" if "json" in doc.content_type else "txt")
            name = f"{n:06d}_{doc.kind}.{ext}"
            (docs / name).write_text(doc.body, encoding="utf-8")
            fh.write(json.dumps({"file": name, "path": path, "stated": [
                s.__dict__ for s in doc.stated]}) + "\n")
            n += 1
    return n


# -- scoring ----------------------------------------------------------------------------
def _sounds(word: str, true: set[str]) -> bool:
    return word in true or any(
        w[:1] == word[:1] and jellyfish.soundex(w) == jellyfish.soundex(word) for w in true)


def _name_ok(value: str, p: Person, world: World) -> bool:
    """Her name under any husband is hers: a widow who remarried was a Cole before she was
    a Strugnell, and the registers of those years call her so."""
    words = [w for w in fold(value).split() if w not in TITLES]
    wed = " ".join(world.pop.persons[world.pop.unions[u].husband].surname
                   for u in p.unions) if p.sex == "F" else ""
    true = set(fold(f"{p.given} {p.surname} {p.married_surname} {wed}").split())
    return (bool(words) and all(_sounds(w, true) for w in words)
            and _sounds(p.first.lower(), set(words)))


def _date_ok(value: str, truth: str | None, date: GenDate | None = None) -> bool:
    if not truth or not value:
        return False
    if date is not None and date.earliest and date.latest and date.earliest != date.latest:
        return str(date.earliest) <= truth[:10] <= str(date.latest)
    return truth.startswith(value[:10])


def _place_ok(value: str, truth: str | None, extra: str | None = None) -> bool:
    words = set(fold(value).split()) - COUNTRY_WORDS
    have = set(fold(f"{truth or ''} {extra or ''}").split())
    return bool(words) and words <= have


def fact_ok(p: Person, field: str, value: str, world: World,
            date: GenDate | None = None) -> bool:
    place = lambda i: GAZETTEER[i].full if i is not None else None  # noqa: E731
    iso = lambda d: d.isoformat() if d else None  # noqa: E731
    if field == "name":
        return _name_ok(value, p, world)
    if field == "sex":
        return value == p.sex
    if field in ("birth_date", "death_date", "baptism_date", "burial_date"):
        return _date_ok(value, iso(getattr(p, field.removesuffix("_date"))), date)
    if field == "marriage_date":
        return any(_date_ok(value, world.pop.unions[u].date.isoformat(), date)
                   for u in p.unions)
    if field in ("birth_place", "death_place"):
        return _place_ok(value, place(getattr(p, field)))
    if field == "burial_place":
        return _place_ok(value, place(p.burial_place), p.cemetery)
    return False


def _matches(s: Stated, field: str, value: str) -> bool:
    if s.field != field:
        return False
    if field == "name":
        return fold(s.value).split()[-1:] == [w for w in fold(value).split()][-1:] and (
            set(fold(s.value).split()) >= set(fold(value).split()) - TITLES)
    return fold(s.value) == fold(value) or (s.value[:4] == value[:4] and field.endswith("date"))


def attribute(graph: CaseGraph, world: World,
              ambiguous: dict[str, set[int]] | None = None) -> dict[str, Counter[int]]:
    """Case person -> votes for world persons, from cited values in re-derived documents.
    `ambiguous` collects, per case person, the world persons a cited name fits when it fits
    several (a mother and daughter both Sarah Golden in one census household)."""
    docs: dict[str, list[Stated]] = {}
    votes: dict[str, Counter[int]] = {}
    for pid, claims in graph.assertions.items():
        v: Counter[int] = Counter()
        lines: dict[tuple[str, str], list[set[int]]] = {}  # one record line's fits per claim
        decided: set[tuple[str, str]] = set()
        for a in claims:
            for c in a.citations:
                snap = graph.snapshots.get(c.snapshot_id)
                if snap is None or not snap.url or a.field_name not in SCORED:
                    continue
                if snap.url not in docs:
                    docs[snap.url] = world.respond(snap.url).stated
                who = {s.person for s in docs[snap.url] if _matches(s, a.field_name, a.value)}
                exact = {s.person for s in docs[snap.url]
                         if s.field == a.field_name and fold(s.value) == fold(a.value)}
                if len(who) > 1 and len(exact) == 1:  # two baptisms in 1744: the day decides
                    who = exact
                line = (snap.url, c.excerpt)
                if who:
                    lines.setdefault(line, []).append(set(who))
                if len(who) == 1 and a.field_name != "sex":
                    v[who.pop()] += 1
                    decided.add(line)
                elif len(who) > 1 and a.field_name == "name" and ambiguous is not None:
                    ambiguous.setdefault(pid, set()).update(who)
        for line, fits in lines.items():
            both = set.intersection(*fits)
            if line not in decided and len(fits) > 1 and len(both) == 1:
                v[both.pop()] += 1  # a register's marriage: the groom's name and date
        votes[pid] = v
    return votes


def _map_parents(graph: CaseGraph, world: World, mapping: dict[str, int]) -> None:
    """An unidentified person who is the parent of a mapped child, with a known sex, is that
    child's father or mother (a register names a mother by her forename alone)."""
    sexes = {pid: next((a.value for a in claims if a.field_name == "sex"), None)
             for pid, claims in graph.assertions.items()}
    for person in graph.persons:
        child = mapping.get(person.id)
        if child is None:
            continue
        for par in person.parents:
            if par in mapping:
                continue
            true = world.pop.persons[child]
            sex = sexes.get(par)
            w = true.father if sex == "M" else true.mother if sex == "F" else None
            if w is not None:
                mapping[par] = w


def _map_spouses(graph: CaseGraph, world: World, mapping: dict[str, int]) -> None:
    """An unidentified spouse of a mapped person, whose name fits exactly one of that
    person's true spouses, is that spouse ("He married Nancy Strugnell in 1929", where OCR
    broke the line inside her name and the page no longer states it legibly)."""
    names = {pid: [a.value for a in claims if a.field_name == "name"]
             for pid, claims in graph.assertions.items()}
    for person in graph.persons:
        w = mapping.get(person.id)
        if w is None:
            continue
        true = [world.pop.unions[u] for u in world.pop.persons[w].unions]
        partners = {u.wife if u.husband == w else u.husband for u in true}
        for sp in person.spouses:
            said = names.get(sp, [])
            if sp in mapping or not said:
                continue
            fits = [x for x in partners
                    if all(_name_ok(n, world.pop.persons[x], world) for n in said)]
            if len(fits) == 1:
                mapping[sp] = fits[0]


def _map_children(graph: CaseGraph, world: World, mapping: dict[str, int],
                  ambiguous: dict[str, set[int]]) -> None:
    """An unidentified person whose name fits several world persons is the one of them whose
    parent their mapped case parent is (the daughter, not the mother, of the same name)."""
    for person in graph.persons:
        fits = ambiguous.get(person.id)
        if person.id in mapping or not fits:
            continue
        parents = {mapping[p] for p in person.parents if p in mapping}
        hits = {w for w in fits if {world.pop.persons[w].father,
                                    world.pop.persons[w].mother} & parents}
        if len(hits) == 1:
            mapping[person.id] = hits.pop()


def score(graph: CaseGraph, world: World, seed_person: int | None = None,
          generations: int = 4) -> dict[str, float]:
    """Fact and relationship precision/recall, wrong merges and living leaks (see module)."""
    pop = world.pop
    seed = pop.seed_person if seed_person is None else seed_person
    targets = pop.ancestors(seed, generations)
    ambiguous: dict[str, set[int]] = {}
    votes = attribute(graph, world, ambiguous)
    mapping: dict[str, int] = {}
    wrong_merges = 0
    for pid, v in votes.items():
        if not v:
            continue
        total = sum(v.values())
        strong = [w for w, n in v.items() if n >= max(2, 0.2 * total)]
        wrong_merges += len(strong) >= 2
        mapping[pid] = v.most_common(1)[0][0]
    _map_parents(graph, world, mapping)
    _map_spouses(graph, world, mapping)
    _map_children(graph, world, mapping, ambiguous)
    promoted = {"promoted", "verified"}
    checked = correct = 0
    found: set[tuple[int, str]] = set()
    leaks = 0
    for pid, claims in graph.assertions.items():
        w = mapping.get(pid)
        for a in claims:
            if str(a.status) not in promoted or a.field_name not in SCORED:
                continue
            checked += 1
            if w is not None and fact_ok(pop.persons[w], a.field_name, a.value, world,
                                         a.date):
                correct += 1
                found.add((w, a.field_name))
    from sleuth.privacy import censor  # what every output shows: the store keeps originals

    for person in censor(graph).persons:
        w = mapping.get(person.id)
        if w is not None and pop.persons[w].living and person.birth is not None and (
                person.birth.precision in ("day", "month")):
            leaks += 1
    stated: set[tuple[int, str]] = set()
    stated_rels: set[tuple[int, int]] = set()
    for _, doc in world.documents():
        for s in doc.stated:
            if s.person in targets and s.correct and s.field in SCORED:
                stated.add((s.person, s.field))
            if s.field == "parent" and s.related is not None and s.person in targets:
                stated_rels.add((s.related, s.person))
    rel_checked = rel_ok = 0
    rel_found: set[tuple[int, int]] = set()
    for person in graph.persons:
        c = mapping.get(person.id)
        for par in person.parents:
            pw = mapping.get(par)
            rel_checked += 1
            if c is not None and pw is not None and pw in (pop.persons[c].father,
                                                           pop.persons[c].mother):
                rel_ok += 1
                rel_found.add((pw, c))
    return {
        "fact_precision": correct / checked if checked else 1.0,
        "fact_recall": len(found & stated) / len(stated) if stated else 1.0,
        "rel_precision": rel_ok / rel_checked if rel_checked else 1.0,
        "rel_recall": len(rel_found & stated_rels) / len(stated_rels) if stated_rels else 1.0,
        "wrong_merges": float(wrong_merges),
        "living_leaks": float(leaks),
        "facts_checked": float(checked),
        "facts_stated": float(len(stated)),
    }


# -- conflict choices -----------------------------------------------------------------------
def _mapped(graph: CaseGraph, world: World) -> dict[str, int]:
    """Case person -> world person, as `score` maps them (votes, then parents, spouses and
    same-named children)."""
    ambiguous: dict[str, set[int]] = {}
    votes = attribute(graph, world, ambiguous)
    mapping = {pid: v.most_common(1)[0][0] for pid, v in votes.items() if v}
    _map_parents(graph, world, mapping)
    _map_spouses(graph, world, mapping)
    _map_children(graph, world, mapping, ambiguous)
    return mapping


def conflict_choices(graph: CaseGraph, world: World) -> dict[str, Any]:
    """How many of the case's conflicts recommend the true value (issue 19: at least 95%).

    A conflict counts when its person maps to a world person and its field is one the
    scorer can check (`SCORED`); it is **right** when the recommended value is true of that
    person (`fact_ok`: the same tolerance as fact precision), **wrong** when it is not
    although one of the competing values is true, and **undecidable** when no competing
    value is true (nothing to choose). Returns the counts, the accuracy over right + wrong
    (1.0 when there is nothing to check) and one line per wrong choice.
    """
    mapping = _mapped(graph, world)
    claims = {a.id: a for lst in graph.assertions.values() for a in lst}
    out: dict[str, Any] = {"conflicts": len(graph.conflicts), "right": 0, "wrong": 0,
                           "undecidable": 0, "unmapped": 0, "unscored": 0, "wrong_choices": []}
    for c in sorted(graph.conflicts, key=lambda c: (c.person_id, c.field)):
        w = mapping.get(c.person_id)
        if c.field not in SCORED:
            out["unscored"] += 1
            continue
        if w is None:
            out["unmapped"] += 1
            continue
        person = world.pop.persons[w]

        def true(aid: str, value: str, p: Person = person, field: str = c.field) -> bool:
            a = claims.get(aid)
            return fact_ok(p, field, value, world, a.date if a is not None else None)

        if not any(true(rc.assertion_id, rc.value) for rc in c.competing):
            out["undecidable"] += 1
        elif true(c.recommended_assertion_id, c.recommended_value):
            out["right"] += 1
        else:
            out["wrong"] += 1
            out["wrong_choices"].append(f"{person.name} {c.field}: chose {c.recommended_value}")
    checked = out["right"] + out["wrong"]
    out["accuracy"] = out["right"] / checked if checked else 1.0
    return out
