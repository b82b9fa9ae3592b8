"""FreeREG parish-register transcriptions (FreeREG1 CSV: baptisms, burials, marriages).

One file per parish and register type, as FreeREG's volunteers upload them. Transcribers
misspell names (about one entry in twelve), give ages at burial (so a birth year can only be
derived) and write surnames in capitals.
"""

from __future__ import annotations

import csv
import io
import random
from dataclasses import dataclass, field
from datetime import date

from sleuth.world.population import GAZETTEER, N_ENGLAND, Population
from sleuth.world.render.common import Document, Stated, iso, misspell, reg_date, rng

TYPES = {"BA": "BAPTISMS", "BU": "BURIALS", "MA": "MARRIAGES"}


@dataclass
class Register:
    place: int
    kind: str  # BA | BU | MA
    entries: list[int] = field(default_factory=list)  # person ids (BA, BU) or union ids (MA)

    @property
    def key(self) -> str:
        pl = GAZETTEER[self.place]
        return f"{pl.chapman}{pl.locality[:3].upper()}{self.kind}"


def catalogue(pop: Population) -> dict[str, Register]:
    regs: dict[str, Register] = {}

    def put(place: int, kind: str, ident: int) -> None:
        reg = Register(place, kind)
        regs.setdefault(reg.key, reg).entries.append(ident)

    for p in pop.persons:
        r = rng(pop.seed, "reg-cover", p.id)
        if p.baptism and p.birth_place < N_ENGLAND and r.random() < 0.85:
            put(p.birth_place, "BA", p.id)
        if (p.burial and p.burial_place is not None and p.burial_place < N_ENGLAND
                and r.random() < 0.8):
            put(p.burial_place, "BU", p.id)
    for u in pop.unions:
        if u.place < N_ENGLAND and rng(pop.seed, "reg-marr", u.id).random() < 0.85:
            put(u.place, "MA", u.id)
    return regs


def _row(cells: list[str]) -> str:
    buf = io.StringIO()
    csv.writer(buf, lineterminator="").writerow(cells)
    return buf.getvalue()


def _name(pop: Population, pid: int, r: random.Random, stated: list[Stated], given: str,
          surname: str) -> tuple[str, str]:
    """Forename and SURNAME as transcribed (sometimes misspelled), stated as written."""
    ok = True
    if r.random() < 0.08:
        surname, ok = misspell(surname, r), False
    stated.append(Stated(pid, "name", f"{given} {surname.upper()}", ok))
    return given, surname.upper()


def render(pop: Population, reg: Register, rows: list[int] | None = None) -> Document:
    """The register file (or only the given entries: a search answer)."""
    pl = GAZETTEER[reg.place]
    head = [f"+INFO,sleuth-world@example.invalid,password,SEQUENCED,{TYPES[reg.kind]},utf8",
            f"#,CCCC,World transcriber,{pl.county},{reg.key.lower()}.csv,01-Jan-25"]
    lines: list[str] = []
    stated: list[Stated] = []
    wanted = set(rows) if rows is not None else None
    ordered = sorted(reg.entries, key=lambda i: _when(pop, reg.kind, i))
    for n, ident in enumerate(ordered, 1):
        if wanted is not None and ident not in wanted:
            continue
        r = rng(pop.seed, f"reg-{reg.kind}", ident)
        base = [pl.chapman, pl.locality, f"{pl.church} PR", str(n)]
        if reg.kind == "BA":
            p = pop.persons[ident]
            assert p.baptism is not None
            given, sur = _name(pop, ident, r, stated, p.given, p.surname)
            born = reg_date(p.birth) if p.birth.year >= 1813 and r.random() < 0.5 else ""
            f = pop.persons[p.father] if p.father is not None else None
            m = pop.persons[p.mother] if p.mother is not None else None
            cells = [*base, born, reg_date(p.baptism), given, p.sex,
                            f.first if f else "", m.first if m else "", sur, "",
                            "", f.occupation if f else "", ""]
            stated += [Stated(ident, "baptism_date", iso(p.baptism)), Stated(ident, "sex", p.sex)]
            if born:
                stated.append(Stated(ident, "birth_date", iso(p.birth)))
            for par in (f, m):
                if par is not None:
                    stated.append(Stated(ident, "parent", "", related=par.id))
        elif reg.kind == "BU":
            p = pop.persons[ident]
            assert p.burial is not None and p.death is not None
            given, sur = _name(pop, ident, r, stated, p.given.split()[0],
                               p.married_surname if p.sex == "F" and p.married_surname
                               else p.surname)
            age = (p.death - p.birth).days // 365
            shown = str(age) if age >= 1 else f"{max(1, (p.death - p.birth).days // 30)}m"
            if age >= 1 and r.random() < 0.1:
                shown = str(age + r.choice((-2, -1, 1)))
            rel, male, female, rsur = "", "", "", ""
            if age < 16 and p.father is not None:
                rel = "son of" if p.sex == "M" else "dau of"
                male = pop.persons[p.father].first
                female = pop.persons[p.mother].first if p.mother is not None else ""
                rsur = pop.persons[p.father].surname.upper()
                stated.append(Stated(ident, "parent", "", related=p.father))
            cells = [*base, reg_date(p.burial), given, rel, male, female, rsur, sur, shown,
                            "", ""]
            stated.append(Stated(ident, "burial_date", iso(p.burial)))
        else:
            u = pop.unions[ident]
            h, w = pop.persons[u.husband], pop.persons[u.wife]
            hg, hs = _name(pop, h.id, r, stated, h.first, h.surname)
            wg, ws = _name(pop, w.id, r, stated, w.first, w.surname)
            hf = pop.persons[h.father] if h.father is not None else None
            wf = pop.persons[w.father] if w.father is not None else None
            cells = [*base, reg_date(u.date), hg, hs, "", "", "bachelor", h.occupation, "",
                            wg, ws, "", "", "spinster", "", "",
                            hf.first if hf else "", hf.surname.upper() if hf else "",
                            hf.occupation if hf else "", wf.first if wf else "",
                            wf.surname.upper() if wf else "", wf.occupation if wf else "",
                            "", "", "", "", ""]
            for a, b in ((h.id, w.id), (w.id, h.id)):
                stated += [Stated(a, "marriage_date", iso(u.date)),
                           Stated(a, "spouse", "", related=b)]
            for child, fa in ((h.id, hf), (w.id, wf)):
                if fa is not None:
                    stated.append(Stated(child, "parent", "", related=fa.id))
        lines.append(_row(cells))
    body = "\n".join(head + lines) + "\n"
    key = reg.key if rows is None else f"{reg.key}?{','.join(map(str, sorted(rows)))}"
    return Document("freereg", key, "text/csv", body, stated)


def _when(pop: Population, kind: str, ident: int) -> date:
    if kind == "MA":
        return pop.unions[ident].date
    p = pop.persons[ident]
    when = p.baptism if kind == "BA" else p.burial
    assert when is not None, "catalogue() lists only the baptised and the buried"
    return when
