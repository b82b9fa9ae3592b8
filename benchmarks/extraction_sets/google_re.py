"""Google-RE (LAMA) dev split: birth date, birth place and death place from evidence snippets.

For each record the extractor reads the first evidence snippet. Among the fact candidates
of the asked field whose subject shares a name word with the record's subject (label or
aliases), the one with the highest confidence is the answer ("top candidate"):

- date_of_birth: correct when the answer's ISO value starts with the gold year (`obj`);
- place_of_birth / place_of_death: correct when the gold label or an alias equals the
  answer's first comma component, or is contained in the answer (`place_match`).

tp = correct answers, fp = wrong answers, fn = records without a correct answer, so recall
is the top-candidate accuracy over all records and precision the accuracy when answering.
Only `*.dev.jsonl` is read; the test split's answers are held out.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from urllib.parse import unquote

from extraction_sets import FieldScore
from extraction_sets.chronam import firewall, name_tokens, place_match
from sleuth.extract import extract_text
from sleuth.model.records import Candidate
from sleuth.verify import normalise

DATASET = "google_re (dev)"
FILES = (("google_re_date_of_birth.dev.jsonl", "birth_date"),
         ("google_re_place_of_birth.dev.jsonl", "birth_place"),
         ("google_re_place_of_death.dev.jsonl", "death_place"))


def _subject_words(rec: dict) -> set[str]:
    words: set[str] = set()
    for n in [rec.get("sub_label", ""), *rec.get("sub_aliases", [])]:
        words.update(t for t in name_tokens(n) if len(t) > 1)
    return words


def top_answer(cands: list[Candidate], field: str, subject: set[str]) -> Candidate | None:
    mine = [c for c in cands if c.is_fact and c.field == field
            and subject & set(name_tokens(c.subject_name or ""))]
    return max(mine, key=lambda c: c.confidence, default=None)


def correct(rec: dict, field: str, value: str) -> bool:
    if field == "birth_date":
        return len(value) >= 4 and value.startswith(str(rec["obj_label"]
                                                         if "obj_label" in rec else rec["obj"]))
    golds = [rec.get("obj_label", ""), *rec.get("obj_aliases", [])]
    first = normalise(value).split(",")[0].strip().lower()
    return any(g and (normalise(g).lower() == first or place_match(g, value)) for g in golds)


def score(root: Path) -> list[FieldScore]:
    rows = []
    for name, field in FILES:
        row = FieldScore(DATASET, field, note="top candidate for the record's subject")
        with (root / "text" / "google_re" / name).open(encoding="utf-8") as fh:
            records = [json.loads(line) for line in fh if line.strip()]
        for i, rec in enumerate(records):
            snippet = rec["evidences"][0]["snippet"]
            snap = f"{field}-{i}"
            t0 = time.perf_counter()
            cands = extract_text(snippet, snap, subject_hint=unquote(rec["sub_label"]))
            row.seconds += time.perf_counter() - t0
            row.docs += 1
            p, t, h = firewall(cands, snippet, snap)
            row.firewall_pass += p
            row.firewall_total += t
            row.hypotheses_as_facts += h
            ans = top_answer(cands, field, _subject_words(rec))
            if ans is not None and correct(rec, field, ans.value):
                row.tp += 1
            else:
                row.fn += 1
                if ans is not None:
                    row.fp += 1
        rows.append(row)
    return rows
