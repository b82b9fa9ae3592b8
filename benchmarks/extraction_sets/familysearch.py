"""FamilySearch GEDCOM X records against wikitree-sourcer's `generalized_data` references.

Each reference describes the record from one focus person's point of view: the person whose
identifier ends in `wtSearchIds[0]` (our subject whose GEDCOM X identifiers hold that ark id;
the record's first person when none does). Slots and their matches:

- names: `name.name` vs the focus person's `name` candidates, equal after case folding and
  turning punctuation into spaces.
- sex: `personGender` (male/female) vs `sex` (M/F).
- dates: `birthDate`, `deathDate`, `marriageDate` and `eventDate` vs the focus person's
  birth_date / death_date / marriage_date and the event's own field (by `recordType`:
  baptism, birth, death, burial, marriage, census → residence_date; any date field for other
  types), taken from the record's principal person when the reference gives the focus a
  `role` in someone else's event. Match: equal ISO strings after `parse_date` of the
  reference's dateString, or the reference's year when it gives only a year.
- places: `birthPlace`, `deathPlace`, `eventPlace`, `residencePlace` vs the corresponding
  place fields: equal after folding, or the reference's place contained in ours.
- relationships: `parents.father|mother` and `spouses[].name` vs the focus person's
  parent / spouse candidates, matched on the related person's folded name (forenames and
  surname; a reference name with forenames only matches our name's forenames).
- household: each `householdArray` member other than the focus vs any person named in the
  record.

A slot is scored only when the reference fills it: tp when one of our facts for it matches,
fn when none does, and fp for each of our facts in that slot that matches nothing (so
precision says how often what we state for a referenced slot is right). Hypotheses are not
scored; they are counted if emitted as facts.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from pathlib import Path

from extraction_sets import FieldScore
from sleuth.extract.dates import parse_date
from sleuth.extract.records import familysearch
from sleuth.model.records import Candidate
from sleuth.sources import load_file
from sleuth.verify import Source, check_candidates

DATASET = "familysearch"
EVENT_FIELDS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "Baptism": (("baptism_date",), ("baptism_place",)),
    "Birth": (("birth_date",), ("birth_place",)),
    "Death": (("death_date", "burial_date"), ("death_place", "burial_place")),
    "Burial": (("burial_date", "death_date"), ("burial_place", "death_place")),
    "Marriage": (("marriage_date",), ("marriage_place",)),
    "Census": (("residence_date",), ("residence",)),
}
ROWS = ("name", "sex", "birth_date", "death_date", "marriage_date", "event_date", "birth_place",
        "death_place", "event_place", "residence", "parent", "spouse", "household")
GROUPS = {"dates": ("birth_date", "death_date", "marriage_date", "event_date"),
          "places": ("birth_place", "death_place", "event_place", "residence"),
          "relationships": ("parent", "spouse")}
_PUNCT = re.compile(r"[^\w\s]")


def fold(s: str) -> str:
    return " ".join(_PUNCT.sub(" ", s).casefold().split())


def date_match(ref: str, ours: str) -> bool:
    g = parse_date(ref)
    if g is not None and g.iso() == ours:
        return True
    return bool(re.fullmatch(r"\d{4}", ref.strip())) and ours[:4] == ref.strip()


def place_match(ref: str, ours: str) -> bool:
    r, o = fold(ref), fold(ours)
    return bool(r) and (r == o or f" {r} " in f" {o} ")


_HONORIFICS = {"mr", "mrs", "ms", "miss", "dr", "rev", "sir", "jr", "sr", "ii", "iii", "esq"}


def name_match(ref: str, ours: str) -> bool:
    """Forenames and surname equal, ignoring case, punctuation and honorifics."""
    r = [w for w in fold(ref).split() if w not in _HONORIFICS]
    o = [w for w in fold(ours).split() if w not in _HONORIFICS]
    return bool(r) and (r == o or (len(r) == 1 and o[:1] == r))


def focus_key(data: dict, raw: dict, cands: list[Candidate]) -> str:
    """Our local key of the reference's focus person."""
    want = next((i.get("value") for i in data.get("wtSearchIds", [])), None)
    order = [c.subject for c in cands if c.field == "name"]
    if want:
        for i, p in enumerate(_named_persons(raw)):
            ids = [u for v in (p.get("identifiers") or {}).values() for u in v]
            if any(str(u).rstrip("/").endswith(f"1:{want}") or str(u).endswith(f"/{want}")
                   for u in ids) and i < len(order):
                return order[i]
    return order[0] if order else "p1"


def _named_persons(raw: dict) -> list[dict]:
    """Persons in the extractor's order (focus first), those with a name only."""
    focus = str(raw.get("description", "")).lstrip("#").removeprefix("sd_")
    persons = [p for p in raw.get("persons", []) if isinstance(p, dict)]
    persons.sort(key=lambda p: (p.get("id") != focus, p.get("principal") is not True))
    out, seen = [], set()
    for p in persons:
        names = [f.get("fullText") for n in p.get("names", []) for f in n.get("nameForms", [])]
        if any(isinstance(t, str) and t.strip() for t in names) and p.get("id") not in seen:
            seen.add(p.get("id"))
            out.append(p)
    return out


def _slot(row: FieldScore, refs: list[str], ours: list[str], match: Callable[[str, str], bool],
          *, per_value: bool = False) -> None:
    """Score one referenced slot (see the module docstring)."""
    refs = [r for r in refs if r]
    if not refs:
        return
    for r in refs:
        if any(match(r, o) for o in ours):
            row.tp += 1
        else:
            row.fn += 1
    wrong = sum(1 for o in ours if not any(match(r, o) for r in refs))
    row.fp += wrong if per_value else int(bool(ours) and wrong == len(ours))


def score_case(data: dict, raw: dict, cands: list[Candidate], rows: dict[str, FieldScore]) -> None:
    facts = [c for c in cands if c.is_fact]
    key = focus_key(data, raw, cands)

    def vals(subject: str, *fields: str) -> list[str]:
        return [c.date.iso() if c.date else c.value for c in facts
                if c.subject == subject and c.field in fields]

    def rel(subject: str, field: str) -> list[str]:
        return [c.related_name or c.value for c in facts if c.subject == subject
                and c.field == field]

    name = (data.get("name") or {}).get("name", "")
    _slot(rows["name"], [name], vals(key, "name"), name_match)
    sex = {"male": "M", "female": "F"}.get(data.get("personGender", ""), "")
    _slot(rows["sex"], [sex], vals(key, "sex"), str.__eq__)
    for ref_key, fld in (("birthDate", "birth_date"), ("deathDate", "death_date")):
        _slot(rows[fld], [(data.get(ref_key) or {}).get("dateString", "")], vals(key, fld),
              date_match)
    marriage = [c.date.iso() for c in facts if c.subject == key and c.date is not None
                and c.field.startswith("marriage") and c.field.endswith("_date")]
    _slot(rows["marriage_date"], [data.get("marriageDate", "")], marriage, date_match)
    for ref_key, fld in (("birthPlace", "birth_place"), ("deathPlace", "death_place"),
                         ("residencePlace", "residence")):
        _slot(rows[fld], [(data.get(ref_key) or {}).get("placeString", "")], vals(key, fld),
              place_match)
    # The event belongs to the record's principal when the focus only has a role in it.
    event_subject = key
    if data.get("role"):
        event_subject = _principal_key(raw, cands) or key
    dfield, pfield = EVENT_FIELDS.get(data.get("recordType", ""), (None, None))
    dates = vals(event_subject, *dfield) if dfield else []
    places = vals(event_subject, *pfield) if pfield else []
    # When the event's own field is absent (the record tags it e.g. as a registration or a
    # notice), any dated fact / place of the event's subject stands for it.
    dates = dates or [c.date.iso() for c in facts if c.subject == event_subject and c.date]
    places = places or [c.value for c in facts if c.subject == event_subject and (
        c.field.endswith("_place") or c.field == "residence")]
    _slot(rows["event_date"], [(data.get("eventDate") or {}).get("dateString", "")], dates,
          date_match)
    _slot(rows["event_place"], [(data.get("eventPlace") or {}).get("placeString", "")], places,
          place_match)
    parents = data.get("parents") or {}
    refs = [((parents.get(k) or {}).get("name") or {}).get("name", "") for k in ("father",
                                                                                "mother")]
    if any(refs):
        _slot(rows["parent"], refs, rel(key, "parent"), name_match, per_value=True)
    spouses = [((s.get("name") or {}).get("name", "")) for s in data.get("spouses") or []]
    if any(spouses):
        # With a role in someone else's event, the reference lists that person's spouse.
        _slot(rows["spouse"], spouses, rel(event_subject, "spouse"), name_match, per_value=True)
    members = [m.get("name", "") for m in data.get("householdArray") or []
               if not m.get("isSelected")]
    named = [c.value for c in facts if c.field == "name"]
    for m in members:
        if m:
            hit = any(name_match(m, o) for o in named)
            rows["household"].tp += hit
            rows["household"].fn += not hit


def _principal_key(raw: dict, cands: list[Candidate]) -> str | None:
    order = [c.subject for c in cands if c.field == "name"]
    for i, p in enumerate(_named_persons(raw)):
        if p.get("principal") is True and i < len(order):
            return order[i]
    return None


def score(root: Path) -> list[FieldScore]:
    base = root / "recorded" / "familysearch"
    rows = {f: FieldScore(DATASET, f) for f in ROWS}
    total = FieldScore(DATASET, "all candidates")
    for ref_path in sorted((base / "expected" / "generalized_data").glob("*.json")):
        path = base / "saved_fetch_objects" / ref_path.name
        if not path.exists():
            continue
        data = json.loads(ref_path.read_text(encoding="utf-8"))
        t0 = time.perf_counter()
        snap = load_file(path).snapshot
        cands = familysearch.extract(snap, None)
        total.seconds += time.perf_counter() - t0
        total.docs += 1
        report = check_candidates(cands, {snap.id: Source.of(snap.text, None)})
        total.firewall_total += len(cands)
        total.firewall_pass += len(report.passed)
        total.hypotheses_as_facts += sum(1 for c in cands if c.is_fact and c.method == "inference")
        score_case(data, json.loads(snap.text), cands, rows)
    out = [rows[f] for f in ROWS]
    for group, members in GROUPS.items():
        g = FieldScore(DATASET, group)
        for f in members:
            g.tp, g.fp, g.fn = g.tp + rows[f].tp, g.fp + rows[f].fp, g.fn + rows[f].fn
        out.append(g)
    total.note = "firewall and speed over every candidate"
    return [*out, total]
