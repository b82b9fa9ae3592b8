"""Newspaper pages (Chronicling America on loc.gov): obituaries and marriage notices as
1916-style prose with OCR noise, plus the loc.gov search, item and OCR-text shapes.

A page is one issue's page of a state's paper; it carries every notice dated to that issue.
Noise (letter substitutions, broken lines, line-end hyphenation) is drawn per page; a fact
whose words the noise touched is no longer listed as stated (it is not legible as written).
Obituaries make their own mistakes too: an age a year out, now and then a wrong birth year.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

from sleuth.verify.normalise import fold
from sleuth.world.population import GAZETTEER, Population
from sleuth.world.render.common import Document, Stated, iso, long_date, ocr_noise, rng, shift_year

PAPERS = {  # state -> (LCCN, title, town)
    "New York": ("sn83030214", "New-York Tribune", "New York"),
    "Pennsylvania": ("sn83032041", "Lancaster Intelligencer", "Lancaster"),
    "Ohio": ("sn84028490", "Springfield Daily Republic", "Springfield"),
    "Indiana": ("sn82015313", "Indianapolis News", "Indianapolis"),
    "Michigan": ("sn85033781", "Ann Arbor Argus", "Ann Arbor"),
    "Illinois": ("sn84025858", "Illinois State Register", "Springfield"),
    "Wisconsin": ("sn84025839", "Wisconsin State Journal", "Madison"),
    "Iowa": ("sn85049804", "Des Moines Register", "Des Moines"),
    "Kansas": ("sn82015080", "Olathe Mirror", "Olathe"),
}
FIRST, LAST = 1836, 1963
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
FILLER = ("LOCAL AND PERSONAL.", "The county commissioners met on Tuesday and allowed bills.",
          "Wheat is quoted at ninety cents at the mill this week.",
          "The ladies of the church will hold a social on Friday evening.",
          "A new bridge is to be built over the creek below town.")


@dataclass
class Page:
    lccn: str
    day: date
    items: list[tuple[str, int]] = field(default_factory=list)  # ("obit", pid) | ("marr", uid)

    @property
    def key(self) -> str:
        return f"{self.lccn}/{self.day.isoformat()}/ed-1"


def catalogue(pop: Population) -> dict[str, Page]:
    pages: dict[str, Page] = {}

    def put(state: str, when: date, item: tuple[str, int], r: Any) -> None:
        lccn = PAPERS[state][0]
        day = when + timedelta(days=r.randint(1, 6))
        pg = pages.setdefault(f"{lccn}/{day.isoformat()}/ed-1", Page(lccn, day))
        pg.items.append(item)

    for p in pop.persons:
        if p.death is None or p.death_place is None or not FIRST <= p.death.year <= LAST:
            continue
        pl = GAZETTEER[p.death_place]
        r = rng(pop.seed, "obit-cover", p.id)
        if pl.country == "USA" and r.random() < (0.8 if p.ancestor else 0.55):
            put(pl.state, p.death, ("obit", p.id), r)
    for u in pop.unions:
        pl = GAZETTEER[u.place]
        r = rng(pop.seed, "marr-cover", u.id)
        if pl.country == "USA" and FIRST <= u.date.year <= LAST and r.random() < 0.45:
            put(pl.state, u.date, ("marr", u.id), r)
    return pages


class _Writer:
    """Builds clean prose and remembers the span of each fact's words."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.n = 0
        self.facts: list[tuple[Stated, tuple[int, int]]] = []

    def w(self, text: str, *facts: Stated) -> None:
        for f in facts:
            self.facts.append((f, (self.n, self.n + len(text))))
        self.parts.append(text)
        self.n += len(text)

    @property
    def text(self) -> str:
        return "".join(self.parts)


def _place(idx: int) -> str:
    pl = GAZETTEER[idx]
    if pl.country == "England":
        return f"{pl.locality}, {pl.county}, England"
    return f"{pl.county.replace('County', 'county')}, {pl.state}"


def _obituary(pop: Population, pid: int, w: _Writer, r: Any) -> None:
    p = pop.persons[pid]
    assert p.death is not None and p.death_place is not None
    he, his = ("He", "his") if p.sex == "M" else ("She", "her")
    surname = p.married_surname if p.sex == "F" and p.married_surname else p.surname
    name = f"{p.given} {surname}"
    w.w(f"DEATH OF {name.upper()}.\n\n")
    w.w(name, Stated(pid, "name", name))
    age = (p.death - p.birth).days // 365
    shown = age + (r.choice((-1, 1)) if r.random() < 0.08 else 0)
    dpl = GAZETTEER[p.death_place]
    w.w(", an old resident of this county, died at " + his + " home in ")
    where = f"{dpl.locality}, {dpl.county}, {dpl.state}"
    w.w(where, Stated(pid, "death_place", where))
    w.w(", on ")
    w.w(long_date(p.death), Stated(pid, "death_date", iso(p.death)))
    w.w(f", aged {shown} years. ")
    if age >= 1:
        born = p.birth
        ok = True
        if r.random() < 0.04:
            born, ok = shift_year(born, r.choice((-1, 1))), False
        w.w(f"{he} was born in ")
        bp = _place(p.birth_place)
        w.w(bp, Stated(pid, "birth_place", bp, True))
        w.w(", on ")
        w.w(long_date(born), Stated(pid, "birth_date", iso(born), ok))
        if p.father is not None and p.mother is not None:
            f, m = pop.persons[p.father], pop.persons[p.mother]
            w.w(f", a {'son' if p.sex == 'M' else 'daughter'} of ")
            w.w(f.name, Stated(f.id, "name", f.name), Stated(pid, "parent", "", related=f.id))
            w.w(" and ")
            w.w(m.name, Stated(m.id, "name", m.name), Stated(pid, "parent", "", related=m.id))
        w.w(". ")
    for uid in p.unions:
        u = pop.unions[uid]
        sp = pop.persons[u.wife if p.sex == "M" else u.husband]
        spname = sp.name if sp.sex == "M" else f"{sp.given} {sp.surname}"
        w.w(f"{he} married ")
        w.w(spname, Stated(sp.id, "name", spname), Stated(pid, "spouse", "", related=sp.id))
        w.w(" in ")
        w.w(str(u.date.year), Stated(pid, "marriage_date", str(u.date.year)))
        w.w(". ")
    kids = [c for c in pop.children(pid) if (pop.persons[c].death or date.max) > p.death]
    if kids:
        w.w(f"{he} is survived by {len(kids)} children. ")
    if p.cemetery and p.burial:
        w.w(f"The funeral was held {WEEKDAYS[p.burial.weekday()]} and burial was in ")
        w.w(p.cemetery, Stated(pid, "burial_place", p.cemetery))
        w.w(".")
    w.w("\n\n")


def _marriage(pop: Population, uid: int, w: _Writer, r: Any) -> None:
    u = pop.unions[uid]
    h, b = pop.persons[u.husband], pop.persons[u.wife]
    w.w("MARRIED.\n\nMarried, at the residence of the bride's parents, on ")
    w.w(long_date(u.date), Stated(h.id, "marriage_date", iso(u.date)),
        Stated(b.id, "marriage_date", iso(u.date)))
    w.w(", Mr. ")
    w.w(h.name, Stated(h.id, "name", h.name), Stated(h.id, "spouse", "", related=b.id))
    w.w(" and Miss ")
    w.w(b.name, Stated(b.id, "name", b.name), Stated(b.id, "spouse", "", related=h.id))
    w.w(f", both of {GAZETTEER[u.place].locality}.\n\n")


def ocr_page(pop: Population, page: Page, level: float = 0.03) -> Document:
    r = rng(pop.seed, "page", page.key)
    title = next(t for lccn, t, _ in PAPERS.values() if lccn == page.lccn)
    w = _Writer()
    w.w(f"{title.upper()}\n{long_date(page.day).upper()}\n\n")
    for kind, ident in page.items:
        if r.random() < 0.5:
            w.w(r.choice(FILLER) + "\n\n")
        (_obituary if kind == "obit" else _marriage)(pop, ident, w, r)
    w.w(r.choice(FILLER) + "\n")
    text, spans = ocr_noise(w.text, r, level, [s for _, s in w.facts])
    stated = [f for (f, _), s in zip(w.facts, spans, strict=True) if s[0] >= 0]
    return Document("chronicling_america", f"ocr:{page.key}", "text/plain", text, stated)


def item_json(base: str, page: Page) -> Document:
    title = next(t for lccn, t, _ in PAPERS.values() if lccn == page.lccn)
    day = page.day.isoformat()
    body = {"item": {"id": f"{base}/item/{page.key}/", "title": title, "date": day,
                     "number_lccn": [page.lccn], "type": ["newspaper"]},
            "page": [{"id": f"{base}/resource/{page.key}/?sp=1", "sequence": 1}],
            "resources": [{"url": f"{base}/resource/{page.key}/?sp=1",
                           "fulltext_file": f"{base}/resource/{page.key}/seq-1/ocr.txt"}]}
    return Document("chronicling_america", f"item:{page.key}", "application/json",
                    json.dumps(body, indent=1), [])


def search(pop: Population, pages: dict[str, Page], base: str, query: str, page_no: int,
           texts: Any) -> Document:
    """Pages whose OCR text holds every query word (so OCR noise can hide a hit)."""
    words = fold(query).split()
    hits = []
    for key in sorted(pages):
        folded = fold(texts(key))
        if words and all(f" {w} " in folded for w in words):
            hits.append(pages[key])
    per = 50
    chunk = hits[(page_no - 1) * per: page_no * per]
    results = []
    for pg in chunk:
        title = next(t for lccn, t, _ in PAPERS.values() if lccn == pg.lccn)
        results.append({"id": f"{base}/item/{pg.key}/", "url": f"{base}/item/{pg.key}/",
                        "title": f"{title} ({pg.day.isoformat()})", "date": pg.day.isoformat(),
                        "number_lccn": [pg.lccn], "item_key": pg.key,
                        "fulltext_file": f"{base}/resource/{pg.key}/seq-1/ocr.txt"})
    body = {"results": results, "pagination": {"current": page_no, "of": len(hits),
                                               "perpage": per,
                                               "total": (len(hits) + per - 1) // per}}
    return Document("chronicling_america", f"search:{query}:{page_no}", "application/json",
                    json.dumps(body, indent=1), [])
