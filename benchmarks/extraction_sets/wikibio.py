"""WikiBio sample: the lower-cased, tokenised first sentence against its infobox.

Splits read: `train` and `valid` (200 biographies); `test` is left alone, as a held-out
split. Gold facts come from the infobox fields `birth_date`, `birth_place`, `death_date`,
`death_place` (tokens joined by spaces, cut at the first `-lrb-`, e.g. "30 november 1977").

Matching is defined explicitly:

- a gold fact **counts** (can be a false negative) only when the sentence states it: for a
  date, the gold year appears as a token of the sentence; for a place, the first comma
  component of the gold place appears in the sentence. Infobox facts the sentence never
  mentions are not the extractor's to find;
- dates: the gold date (cut after its first year when the infobox template flattened more
  arguments into it, see `first_date`) is parsed with sleuth's `parse_date`; a prediction is
  correct when its ISO value equals the gold ISO value, or when the gold has only a year and
  the prediction's year equals it (a prediction more precise than the infobox is not
  punished), or when the sentence states only the year (the gold's month is not in it,
  e.g. "(1881 -- 1968)") and the prediction is that year: the gold is counted at the
  precision the sentence states, as it is counted only when the sentence states it;
- places: `place_match` (first comma components agree);
- one prediction per field and biography: the highest-confidence fact candidate for the
  lead's subject (the first person the extractor names). A prediction for a gold fact that
  does not count is not scored.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

from extraction_sets import FieldScore
from extraction_sets.chronam import firewall, place_match
from sleuth.extract import extract_text, parse_date
from sleuth.model.records import Candidate

DATASET = "wikibio (train+valid sample)"
FIELDS = ("birth_date", "birth_place", "death_date", "death_place")
_YEAR = re.compile(r"\b\d{3,4}\b")


def infobox(line: str) -> dict[str, str]:
    """Field -> space-joined tokens, for the four fields we score."""
    parts: dict[str, list[tuple[int, str]]] = {}
    for item in line.rstrip("\n").split("\t"):
        key, _, tok = item.partition(":")
        if tok == "<none>" or not tok:
            continue
        m = re.fullmatch(r"(.+?)_(\d+)", key)
        base, idx = (m.group(1), int(m.group(2))) if m else (key, 1)
        if base in FIELDS:
            parts.setdefault(base, []).append((idx, tok))
    out = {}
    for k, toks in parts.items():
        text = " ".join(t for _, t in sorted(toks))
        out[k] = text.split(" -lrb-")[0].strip()
    return out


def first_date(gold: str) -> str:
    """The infobox date itself. Templates are flattened with their other arguments:
    `{{death date and age|1993|6|1|1941|2|27|df=yes}}` reads "1 june 1993 27 february 1941
    yes" (death date, then birth date), so an unparseable value is cut after its first year."""
    if parse_date(gold) is not None:
        return gold
    m = _YEAR.search(gold)
    return gold[: m.end()] if m else gold


def stated(field: str, gold: str, sentence: str) -> bool:
    if field.endswith("_date"):
        years = _YEAR.findall(first_date(gold))
        return bool(years) and years[-1] in sentence.split()
    first = gold.split(",")[0].strip()
    return bool(first) and f" {first} " in f" {sentence} "


_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august",
           "september", "october", "november", "december")


def date_correct(gold: str, pred: str, sentence: str = "") -> bool:
    gold = first_date(gold)
    g = parse_date(gold)
    if g is None:
        years = _YEAR.findall(gold)
        return bool(years) and pred[:4] == years[-1].zfill(4)
    iso = g.iso()
    if pred == iso or (len(iso) == 4 and pred[:4] == iso):
        return True
    words = sentence.split()
    month_stated = len(iso) >= 7 and (_MONTHS[int(iso[5:7]) - 1] in words
                                      or _MONTHS[int(iso[5:7]) - 1][:3] in words)
    return len(pred) == 4 and pred == iso[:4] and not month_stated


def _answer(cands: list[Candidate], field: str) -> Candidate | None:
    facts = [c for c in cands if c.is_fact]
    if not facts:
        return None
    lead = facts[0].subject
    mine = [c for c in facts if c.field == field and c.subject == lead]
    return max(mine, key=lambda c: c.confidence, default=None)


def score(root: Path) -> list[FieldScore]:
    folder = root / "text" / "wikibio_sample"
    rows = {f: FieldScore(DATASET, f, note="gold counted only when the sentence states it")
            for f in FIELDS}
    seconds = 0.0
    docs = fw_pass = fw_total = hyp = 0
    for split in ("train", "valid"):
        boxes = (folder / f"{split}.box").read_text(encoding="utf-8").splitlines()
        sents = (folder / f"{split}.summary").read_text(encoding="utf-8").splitlines()
        for i, (box, sent) in enumerate(zip(boxes, sents, strict=True)):
            snap = f"{split}-{i}"
            t0 = time.perf_counter()
            cands = extract_text(sent, snap)
            seconds += time.perf_counter() - t0
            docs += 1
            p, t, h = firewall(cands, sent, snap)
            fw_pass, fw_total, hyp = fw_pass + p, fw_total + t, hyp + h
            gold = infobox(box)
            for field in FIELDS:
                g = gold.get(field)
                if g is None or not stated(field, g, sent):
                    continue
                ans = _answer(cands, field)
                ok = ans is not None and (
                    date_correct(g, ans.value, sent) if field.endswith("_date")
                    else place_match(g, ans.value))
                row = rows[field]
                row.tp += ok
                row.fn += not ok
                row.fp += ans is not None and not ok
    for r in rows.values():
        r.docs, r.seconds = docs, seconds
        r.firewall_pass, r.firewall_total, r.hypotheses_as_facts = fw_pass, fw_total, hyp
    return list(rows.values())
