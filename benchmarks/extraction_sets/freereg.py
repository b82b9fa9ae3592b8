"""FreeREG1 parish-register CSVs: every row's facts against a second reading of the same CSV.

A consistency check, not an accuracy figure: both sides read the same cells, so a column
both map wrongly scores 1.000 all the same. There are no hand-made labels for these files;
the table says so on every row ("consistency, not accuracy").

Reference: each data row read with the `csv` module and mapped column by column (FreeREG1
layout, MyopicVicar `freereg_csv_processor.rb`) to facts (subject name, field, value, related
name); "?" and "-" cells are blank. Match: exact equality of that 4-tuple, dates compared as
ISO strings of `parse_date` (a dual-dated year "1699/00" read as its first year). Per field:
tp = facts both sides, fp = extracted facts the row does not state, fn = stated facts missed.
Hypotheses (birth ranges from ages) are not scored; they are counted if marked as facts.
"""

from __future__ import annotations

import csv
import io
import re
import time
from collections import defaultdict
from pathlib import Path

from extraction_sets import FieldScore
from sleuth.extract.dates import parse_date
from sleuth.extract.records import freereg
from sleuth.sources import load_file
from sleuth.verify import Source, check_candidates

Fact = tuple[str, str, str, str | None]
DATASET = "freereg (consistency)"
NOTE = "consistency, not accuracy"
_KIND = {"BA.": "BA", "BU.": "BU", "MA.": "MA"}


def _name(*parts: str) -> str:
    return " ".join(p for p in parts if p)


def _parent(forename: str, surname: str) -> str:
    """No forename, no parent: a bare surname column is the family's, not a person's."""
    return _name(forename, surname) if forename else ""


def _day(text: str) -> str:
    g = parse_date(text) or parse_date(re.sub(r"(\d{4})/\d{1,2}$", r"\1", text))
    return g.iso() if g else ""


def oracle(kind: str, row: list[str]) -> set[Fact]:
    """The facts one row states, by column position."""
    out: set[Fact] = set()

    def add(who: str, field: str, value: str, rel: str | None = None) -> None:
        if who and value:
            out.add((who, field, value, rel))

    place = ", ".join(p for p in (re.sub(r" (?:PR|AT)$", "", row[2]), row[1]) if p)
    if kind == "BA":
        child = _name(row[6], row[10] or row[11])
        father, mother = _parent(row[8], row[10]), _parent(row[9], row[11])
        for f, v in (("name", child), ("sex", {"m": "M", "f": "F"}.get(row[7].lower(), "")),
                     ("baptism_date", _day(row[5])), ("baptism_place", place),
                     ("birth_date", _day(row[4])), ("residence", row[12]), ("note", row[14])):
            add(child, f, v)
        for who, sex in ((father, "M"), (mother, "F")):
            add(who, "name", who)
            add(who, "sex", sex)
            add(child, "parent", who, who)
        add(father, "occupation", row[13])
    elif kind == "BU":
        dead = _name(row[5], row[10] or row[9])
        for f, v in (("name", dead), ("burial_date", _day(row[4])), ("burial_place", place),
                     ("residence", row[12]), ("note", row[13]),
                     ("age_at_death", row[11] if row[11].isdigit() else "")):
            add(dead, f, v)
        rel, surname = row[6].lower(), row[9] or row[10]
        male = _name(row[7], surname) if row[7] else ""
        female = _name(row[8], surname) if row[8] else ""
        if rel.startswith(("son", "dau", "child")):
            add(dead, "sex", "M" if rel.startswith("son") else "F" if rel.startswith("dau") else "")
            for who, sex in ((male, "M"), (female, "F")):
                add(who, "name", who)
                add(who, "sex", sex)
                add(dead, "parent", who, who)
        elif rel.startswith(("wife", "widow", "relict")):
            add(dead, "sex", "F")
            add(male, "name", male)
            add(male, "sex", "M")
            add(dead, "spouse", male, male)
        else:
            add(male, "name", male)
            add(female, "name", female)
    else:
        groom, bride = _name(row[5], row[6]), _name(row[12], row[13])
        for who, sex, b in ((groom, "M", 7), (bride, "F", 14)):
            for f, v in (("name", who), ("sex", sex), ("marriage_date", _day(row[4])),
                         ("marriage_place", place), ("residence", row[b + 1]),
                         ("marital_status", row[b + 2]), ("occupation", row[b + 3]),
                         ("residence", row[b + 4])):
                add(who, f, v)
        add(groom, "spouse", bride, bride)
        add(bride, "spouse", groom, groom)
        for child, b in ((groom, 19), (bride, 22)):
            father = _parent(row[b], row[b + 1])
            add(father, "name", father)
            add(father, "sex", "M")
            add(father, "occupation", row[b + 2])
            add(child, "parent", father, father)
        for b in (25, 27):
            witness = _name(row[b], row[b + 1])
            add(witness, "name", witness)
            add(witness, "witness", ", ".join(p for p in (groom, bride) if p), groom)
        add(groom, "note", row[29])
    return out


def rows(path: Path) -> list[tuple[str, list[str]]]:
    out = []
    for line in path.read_bytes().decode("utf-8").splitlines():
        line = line.strip()
        if not line or line[0] in "+#":
            continue
        cells = ["" if c.strip() in ("?", "-") else c.strip()
                 for c in next(csv.reader(io.StringIO(line)))]
        if any(cells):
            out.append((line, cells))
    return out


def score(root: Path) -> list[FieldScore]:
    files = sorted((root / "text" / "freeukgen").glob("freereg1_csvs__*"))
    scores: dict[str, FieldScore] = {}
    total = FieldScore(DATASET, "all facts")
    for path in files:
        kind = next((k for s, k in _KIND.items() if path.name.upper().endswith(s + "CSV")), None)
        if kind is None:
            continue
        t0 = time.perf_counter()
        snap = load_file(path).snapshot
        cands = freereg.extract(snap, None)
        total.seconds += time.perf_counter() - t0
        report = check_candidates(cands, {snap.id: Source.of(snap.text, None)})
        total.firewall_total += len(cands)
        total.firewall_pass += len(report.passed)
        got: dict[str, set[Fact]] = defaultdict(set)
        for c in cands:
            if c.is_fact and c.method == "inference":
                total.hypotheses_as_facts += 1
            if c.is_fact and c.citation is not None:
                got[c.citation.excerpt].add((c.subject_name or "", c.field, c.value,
                                             c.related_name))
        for line, cells in rows(path):
            total.docs += 1
            want, have = oracle(kind, cells), got.get(line, set())
            for fact in want | have:
                s = scores.setdefault(fact[1], FieldScore(DATASET, fact[1], note=NOTE))
                if fact in want and fact in have:
                    s.tp += 1
                elif fact in have:
                    s.fp += 1
                else:
                    s.fn += 1
    for s in scores.values():
        total.tp, total.fp, total.fn = total.tp + s.tp, total.fp + s.fp, total.fn + s.fn
    total.note = ("docs = register rows; " + NOTE + ": our extractor vs our own second "
                  "reading of the same rows (csv module, column by column)")
    return [*sorted(scores.values(), key=lambda s: s.field), total]
