"""WikiTree profile pages against wikitree-sourcer's `expected/extracted_data` (56 pages).

Oracle: `extracted_data` for every field. It records what the page itself displays
(`"about Oct 1870"`, `"Plymouth, Devon, England, United Kingdom"`, the linked relatives'
names as shown); `generalized_data` re-splits and re-normalises those strings (qualifier
codes, parsed names) and so is one step further from the page, which is what we ground in.

Two datasets. `wikitree`: the display views (read, private, logged-out, 2025 layouts; 48
pages). `wikitree-edit`: the edit and add-family forms (8 pages), whose names, dates and
places live in form boxes (`<input value>`), which the snapshot text shows as a browser draws
them; reported separately. Marriages there are only in a link's tooltip, not visible text,
and count as misses.

Everything is about the profile person (p1), compared as sets of (field, key, value):
- names: (part, value) for the heading name (first line), first names, middle names, last
  name at birth, current last name, nicknames, and variants (preferred first name plus each
  other last name); mapped from our `name`, `given_name`, `middle_name`, `birth_surname`,
  `surname`, `nickname`, `name_variant`. Values equal after collapsing whitespace.
- sex: "M"/"F" from `personGender`.
- dates: birth, death, and one marriage date per spouse (key: the spouse's name). The
  oracle string, prefixed by its status (about/before/after), is parsed with the extractor's
  own date reader; equal when the ISO value *and* the qualifier agree. An oracle marriage
  string keeps a stray "— married" prefix on one page (also mis-decoded as "â€” married");
  that prefix is dropped. Placeholders ("[date unknown]") are no date.
- places: birth, death, marriage per spouse; equal after collapsing whitespace, trimming
  " ,." and case-folding. The oracle's "Unmarried" (a note typed into a place field) names
  no place, so it is dropped on both sides (the extractor refuses it too).
- relationships: ("parent", name) for the oracle father and mother, ("spouse", name) for
  each spouse, against our p1 `parent` / `spouse` candidates. Children and siblings are not
  in the oracle; their counts go in the note, unscored.
tp = in both; fp = ours only; fn = oracle only. Every candidate goes through the firewall;
hypotheses (e.g. father/mother from listing order) are not scored, only checked not to be
emitted as facts.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from pathlib import Path

from extraction_sets import FieldScore
from sleuth.extract.records import wikitree, wikitree_page
from sleuth.model.records import Candidate
from sleuth.sources import load_file
from sleuth.verify import Source, check_candidates

Item = tuple[str, str, str]  # (field, key, value)
FIELDS = ("names", "sex", "dates", "places", "relationships")
EDIT_TYPES = frozenset({"edit", "editFamily"})
_NAME_PART = {"name": "name", "given_name": "first", "middle_name": "middle",
              "birth_surname": "lnab", "surname": "current", "nickname": "nickname",
              "name_variant": "variant"}
# "guess" is what the reference calls an edit form's "uncertain" button; the same dates on
# the read pages (haff-272_read vs haff-272_edit) are "about", as WikiTree displays them.
_STATUS = {"about": "about", "guess": "about", "before": "before", "after": "after"}


def _ws(s: str) -> str:
    return " ".join(s.split())


def _place(s: str) -> str:
    return _ws(s).strip(" ,.").casefold()


def _date_key(text: str) -> str | None:
    gd = wikitree_page.date_of(text)
    return f"{gd.iso()}|{gd.qualifier.value}" if gd else None


def oracle(exp: dict) -> dict[str, set[Item]]:
    """The reference facts of one page, by scored field."""
    out: dict[str, set[Item]] = {f: set() for f in FIELDS}
    names = out["names"]
    heading = (exp.get("name") or "").split("\n")[0].strip()
    for part, value in (("name", heading), ("first", exp.get("firstNames", "")),
                        ("middle", exp.get("middleNames", "")), ("lnab", exp.get("lnab", "")),
                        ("current", exp.get("currentLastName", "")),
                        ("nickname", exp.get("nicknames", "")),
                        ("variant", exp.get("prefNames", ""))):
        if _ws(value or ""):
            names.add((part, "", _ws(value)))
    for other in (exp.get("otherLastNames") or "").split(","):
        if other.strip():
            names.add(("variant", "", _ws(other)))
    sex = {"male": "M", "female": "F"}.get((exp.get("personGender") or "").lower())
    if sex:
        out["sex"].add(("sex", "", sex))
    for event, dkey, skey, pkey in (("birth", "birthDate", "birthDateStatus", "birthLocation"),
                                    ("death", "deathDate", "deathDateStatus", "deathLocation")):
        prefix = _STATUS.get(exp.get(skey, ""), "")
        d = _date_key(f"{prefix} {exp.get(dkey, '')}".strip()) if exp.get(dkey) else None
        if d:
            out["dates"].add((f"{event}_date", "", d))
        p = _place(exp.get(pkey, ""))
        if p and p not in wikitree_page.NOT_PLACES:
            out["places"].add((f"{event}_place", "", p))
    for role in ("father", "mother"):
        parent = (exp.get("parents") or {}).get(role)
        if parent and parent.get("name"):
            out["relationships"].add(("parent", "", _ws(parent["name"])))
    for sp in exp.get("spouses") or []:
        name = _ws(sp.get("name", ""))
        if not name:
            continue
        out["relationships"].add(("spouse", "", name))
        raw = (sp.get("marriageDate") or "").replace("â€”", "—")
        raw = raw.removeprefix("— married").strip()
        d = _date_key(raw) if raw else None
        if d:
            out["dates"].add(("marriage_date", name, d))
        p = _place(sp.get("marriagePlace") or "")
        if p and p not in wikitree_page.NOT_PLACES:
            out["places"].add(("marriage_place", name, p))
    return out


def ours(cands: list[Candidate]) -> dict[str, set[Item]]:
    """Our p1 facts in the oracle's terms."""
    out: dict[str, set[Item]] = {f: set() for f in FIELDS}
    names = {c.subject: c.value for c in cands if c.field == "name"}
    for c in cands:
        if c.subject != "p1" or not c.is_fact:
            continue
        rel = _ws(names.get(c.related or "", "")) if c.related else ""
        if c.field in _NAME_PART:
            out["names"].add((_NAME_PART[c.field], "", _ws(c.value)))
        elif c.field == "sex":
            out["sex"].add(("sex", "", c.value))
        elif c.field in ("birth_date", "death_date", "marriage_date") and c.date is not None:
            out["dates"].add((c.field, rel, f"{c.date.iso()}|{c.date.qualifier.value}"))
        elif c.field in ("birth_place", "death_place", "marriage_place"):
            out["places"].add((c.field, rel, _place(c.value)))
        elif c.field in ("parent", "spouse"):
            out["relationships"].add((c.field, "", _ws(c.value)))
    return out


def pages(root: Path) -> list[tuple[Path, dict]]:
    base = root / "recorded" / "wikitree" / "sourcer"
    out = []
    for page in sorted((base / "saved_pages").iterdir()):
        exp = base / "expected" / "extracted_data" / f"{page.stem}.json"
        if exp.exists():
            out.append((page, json.loads(exp.read_text(encoding="utf-8"))))
    return out


def score(root: Path) -> list[FieldScore]:
    rows = {(ds, f): FieldScore(ds, f) for ds in ("wikitree", "wikitree-edit") for f in FIELDS}
    extra: Counter[str] = Counter()
    docs: Counter[str] = Counter()
    seconds: Counter[str] = Counter()
    fw_pass: Counter[str] = Counter()
    fw_total: Counter[str] = Counter()
    hyp: Counter[str] = Counter()
    for page, exp in pages(root):
        ds = "wikitree-edit" if exp.get("pageType") in EDIT_TYPES else "wikitree"
        loaded = load_file(page)
        snap = loaded.snapshot
        t0 = time.perf_counter()
        cands = wikitree.extract(snap, loaded.raw) if wikitree.detect(snap, loaded.raw) else []
        seconds[ds] += time.perf_counter() - t0
        docs[ds] += 1
        report = check_candidates(cands, {snap.id: Source.of(snap.text, snap.url)})
        fw_pass[ds] += len(report.passed)
        fw_total[ds] += len(cands)
        hyp[ds] += sum(1 for c in cands if c.is_fact and (c.method == "inference"
                                                         or c.rationale.startswith("hypothesis")))
        extra[ds + ":child"] += sum(1 for c in cands if c.subject == "p1" and c.field == "child")
        extra[ds + ":sibling"] += sum(
            1 for c in cands if c.subject == "p1" and c.field == "sibling"
        )
        want, got = oracle(exp), ours(cands)
        for f in FIELDS:
            r = rows[(ds, f)]
            r.tp += len(want[f] & got[f])
            r.fp += len(got[f] - want[f])
            r.fn += len(want[f] - got[f])
    out = []
    for (ds, f), r in rows.items():
        r.docs, r.seconds = docs[ds], seconds[ds]
        r.firewall_pass, r.firewall_total = fw_pass[ds], fw_total[ds]
        r.hypotheses_as_facts = hyp[ds]
        if f == "relationships":
            r.note = (f"parents+spouses vs oracle; unscored (not in oracle): "
                      f"{extra[ds + ':child']} children, {extra[ds + ':sibling']} siblings")
        out.append(r)
    return out


def diff(root: Path) -> list[str]:
    """Per-page misses and extras, for reading the errors (not used by the table)."""
    lines = []
    for page, exp in pages(root):
        loaded = load_file(page)
        cands = wikitree.extract(loaded.snapshot, loaded.raw)
        want, got = oracle(exp), ours(cands)
        for f in FIELDS:
            for item in sorted(want[f] - got[f]):
                lines.append(f"{page.name}\tFN\t{f}\t{item}")
            for item in sorted(got[f] - want[f]):
                lines.append(f"{page.name}\tFP\t{f}\t{item}")
    return lines


if __name__ == "__main__":
    import sys

    data = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).parents[3] / "shared/data"
    print("\n".join(diff(data)))
    for row in score(data):
        print(f"{row.dataset:14} {row.field:14} P={row.precision:.3f} R={row.recall:.3f} "
              f"F1={row.f1:.3f} tp={row.tp} fp={row.fp} fn={row.fn} "
              f"fw={row.firewall_pass}/{row.firewall_total} hyp={row.hypotheses_as_facts}")
