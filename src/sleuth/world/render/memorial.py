"""Memorial pages (Find a Grave-like HTML): the selectors of the built-in spec
(`h1#bio-name`, `#birthDateLabel`, `#deathDateLabel`, `#cemeteryNameLabel`) and a short
biography paragraph, which is what the prose extractor reads. Volunteers get a birth year
wrong now and then.
"""

from __future__ import annotations

from html import escape

from sleuth.world.population import GAZETTEER, Population
from sleuth.world.render.common import (
    Document,
    Stated,
    iso,
    long_date,
    reg_date,
    rng,
    shift_year,
)

BASE = 1_000_000


def catalogue(pop: Population) -> dict[int, int]:
    """Memorial id -> person id."""
    out: dict[int, int] = {}
    for p in pop.persons:
        if p.burial is None or p.burial_place is None:
            continue
        share = 0.55 if GAZETTEER[p.burial_place].country == "USA" else 0.15
        if rng(pop.seed, "mem-cover", p.id).random() < share:
            out[BASE + p.id * 13] = p.id
    return out


def slug(pop: Population, pid: int) -> str:
    return pop.persons[pid].name.lower().replace(" ", "-")


def render(pop: Population, mid: int, pid: int) -> Document:
    p = pop.persons[pid]
    assert p.death is not None and p.burial_place is not None
    r = rng(pop.seed, "memorial", mid)
    sur = p.married_surname if p.sex == "F" and p.married_surname else p.surname
    name = f"{p.given} {sur}"
    born, ok = p.birth, True
    if r.random() < 0.05:
        born, ok = shift_year(born, r.choice((-1, 1))), False
    he, his = ("He", "his") if p.sex == "M" else ("She", "her")
    dpl = GAZETTEER[p.death_place if p.death_place is not None else p.burial_place]
    bpl = GAZETTEER[p.birth_place]
    where = f"{dpl.locality}, {dpl.county}, {dpl.state or dpl.county}"
    cemetery = p.cemetery or f"{GAZETTEER[p.burial_place].church} Churchyard"
    bio = (f"{name} died at {his} home in {where}, on {long_date(p.death)}. "
           f"{he} was born in {bpl.full}, on {long_date(born)}")
    stated = [Stated(pid, "name", name), Stated(pid, "death_date", iso(p.death)),
              Stated(pid, "death_place", where), Stated(pid, "birth_place", bpl.full),
              Stated(pid, "birth_date", iso(born), ok)]
    if p.father is not None and p.mother is not None:
        f, m = pop.persons[p.father], pop.persons[p.mother]
        bio += f", a {'son' if p.sex == 'M' else 'daughter'} of {f.name} and {m.name}"
        stated += [Stated(f.id, "name", f.name), Stated(m.id, "name", m.name),
                   Stated(pid, "parent", "", related=f.id), Stated(pid, "parent", "",
                                                                related=m.id)]
    bio += f". {he} was buried in {cemetery}."
    stated.append(Stated(pid, "burial_place", cemetery))
    years = f"{born.year}&ndash;{p.death.year}"
    html = f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>{escape(name)} ({years}) - Memorial</title></head>
<body>
<h1 id="bio-name">{escape(name)}</h1>
<dl>
<dt>Birth</dt><dd id="birthDateLabel">{reg_date(born)}</dd>
<dd id="birthLocationLabel">{escape(bpl.full)}</dd>
<dt>Death</dt><dd id="deathDateLabel">{reg_date(p.death)}</dd>
<dd id="deathLocationLabel">{escape(where)}</dd>
<dt>Burial</dt><dd id="cemeteryNameLabel">{escape(cemetery)}</dd>
</dl>
<div id="bio"><p>{escape(bio)}</p></div>
<p class="memorial-id">Memorial ID {mid}</p>
</body></html>
"""
    return Document("find_a_grave", f"memorial:{mid}", "text/html", html, stated)


def search(pop: Population, mems: dict[int, int], first: str, last: str, birth: str,
           death: str) -> Document:
    hits = []
    for mid, pid in sorted(mems.items()):
        p = pop.persons[pid]
        surs = {p.surname.lower(), p.married_surname.lower()}
        if last and last.lower() not in surs:
            continue
        if first and not p.given.lower().startswith(first.lower()):
            continue
        if birth.isdigit() and abs(p.birth.year - int(birth)) > 2:
            continue
        if death.isdigit() and p.death and abs(p.death.year - int(death)) > 2:
            continue
        hits.append((mid, pid))
    items = "\n".join(
        f'<div class="memorial-item"><a href="/memorial/{mid}/{slug(pop, pid)}">'
        f"{escape(pop.persons[pid].name)}</a></div>" for mid, pid in hits[:20])
    html = (f"<!DOCTYPE html>\n<html><head><title>Memorial search</title></head><body>\n"
            f"<h1>Search results</h1>\n<p>{len(hits)} matching memorials</p>\n{items}\n"
            "</body></html>\n")
    return Document("find_a_grave", f"search:{first}:{last}:{birth}:{death}", "text/html",
                    html, [])
