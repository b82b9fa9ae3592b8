"""Pedigree (ancestors) and descendant charts of one person, laid out for an SVG drawing.

The layout is plain geometry over the censored graph's parent and child links: the template
draws each box (a link to that person's page) and each connector. Ancestors: generation g
in column g, each of its 2^g slots a share of the height. Descendants: each person without
shown children takes a row, a parent sits beside the middle of its children.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sleuth.model import Person
from sleuth.web.views import shown_date

BOX_W, BOX_H = 200, 44
COL_W = BOX_W + 40
ROW_H = BOX_H + 14
MAX_GENERATIONS = 6
MAX_PEOPLE = 400  # a descendant chart stops growing here (a row each)


@dataclass
class Box:
    person_id: str
    name: str
    years: str
    living: bool
    x: int
    y: int


@dataclass
class Chart:
    kind: str
    generations: int
    boxes: list[Box] = field(default_factory=list)
    lines: list[tuple[int, int, int, int]] = field(default_factory=list)
    width: int = 0
    height: int = 0
    cut: bool = False  # the chart stopped at MAX_PEOPLE


def _years(p: Person) -> str:
    """Years of birth and death as the person's page shows them (a living person's decade
    as the Censor left it, "1990s")."""
    born, died = shown_date(p, "birth"), shown_date(p, "death")
    born = born if born.endswith("s") else born[:4]
    if born and died:
        return f"{born}–{died[:4]}"
    return f"b. {born}" if born else f"d. {died[:4]}" if died else ""


def ancestors(root: Person, people: dict[str, Person], generations: int) -> Chart:
    """`generations` generations of `root`'s ancestors (root is generation 0)."""
    generations = max(1, min(generations, MAX_GENERATIONS))
    height = max(1, 2 ** (generations - 1)) * ROW_H
    chart = Chart("ancestors", generations, width=generations * COL_W, height=height)
    slots: list[Person | None] = [root]
    for g in range(generations):
        span = height / len(slots)
        nxt: list[Person | None] = []
        for i, p in enumerate(slots):
            y = round(span * i + span / 2 - BOX_H / 2)
            if p is not None:
                chart.boxes.append(Box(p.id, p.canonical_name or p.id, _years(p),
                                       bool(p.is_living), g * COL_W, y))
            found = sorted((people[x] for x in (p.parents if p else ()) if x in people),
                           key=lambda q: (q.sex != "M", q.canonical_name))
            parents: list[Person | None] = [*found[:2], None, None][:2]
            if g + 1 < generations:
                child_span = height / (len(slots) * 2)
                for j, q in enumerate(parents):
                    if q is None or p is None:
                        continue
                    qy = round(child_span * (2 * i + j) + child_span / 2)
                    chart.lines.append((g * COL_W + BOX_W, y + BOX_H // 2,
                                        (g + 1) * COL_W, qy))
            nxt.extend(parents)
        slots = nxt
    return chart


def descendants(root: Person, people: dict[str, Person], generations: int) -> Chart:
    """`generations` generations of `root`'s descendants (root is generation 0)."""
    generations = max(1, min(generations, MAX_GENERATIONS))
    chart = Chart("descendants", generations)
    rows = 0

    def place(p: Person, g: int, seen: frozenset[str]) -> int:
        """Lay out p and its descendants; returns p's box's middle y."""
        nonlocal rows
        kids = [] if g + 1 >= generations else sorted(
            (people[c] for c in p.children if c in people and c not in seen),
            key=lambda q: (_years(q) or "9999", q.canonical_name))
        middles = []
        for k in kids:
            if rows >= MAX_PEOPLE:
                chart.cut = True
                break
            middles.append(place(k, g + 1, seen | {k.id}))
        if middles:
            mid = (middles[0] + middles[-1]) // 2
        else:
            mid = rows * ROW_H + BOX_H // 2
            rows += 1
        chart.boxes.append(Box(p.id, p.canonical_name or p.id, _years(p),
                               bool(p.is_living), g * COL_W, mid - BOX_H // 2))
        for m in middles:
            chart.lines.append((g * COL_W + BOX_W, mid, (g + 1) * COL_W, m))
        return mid

    place(root, 0, frozenset({root.id}))
    chart.width = generations * COL_W
    chart.height = max(rows, 1) * ROW_H
    return chart
