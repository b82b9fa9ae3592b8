"""Chronicling America 1916 OCR: our hand-labelled obituary/wedding facts, and throughput.

Labels: `benchmarks/data/chronam_dev.jsonl` (see `benchmarks/data/README.md`). Scoring:

- each labelled page is extracted whole, with the issue date (from the file name) as the
  document date, so "died last Saturday" can resolve (the firewall is given the same date,
  as the ingest path gives it a snapshot's issue date);
- a prediction counts only when it is a fact (`is_fact`), its field is one we label, and its
  excerpt starts inside a labelled region of that page;
- relationships are compared direction-free: `child(A, B)` is `parent(B, A)` (reported on
  the `parent` row), `spouse` and `sibling` are unordered pairs;
- a prediction matches a label one-to-one (exact matches first) when the subjects' names
  match (`name_match`), and the values match: dates as equal ISO strings, ages as equal
  numbers, places and occupations by `place_match`, relationships by `name_match`.

Besides one row per field, summary rows add up groups of fields: "relatives with relation"
(parent, spouse, sibling; a `child` label or prediction counts on `parent`), "dates" (every
`*_date`), "places" (every `*_place` and `residence`). "deceased facts" counts the facts about
an item's principal person: each region row names its deceased (or the couple of a wedding)
in `principal`; a label counts there when its subject is one of those names as written, or
when it is a relationship with one of them at either end. A matched prediction goes with its
label; an unmatched one counts as a false positive there when its subject (or, for a
relationship, either end) matches (`name_match`) a principal of a region its excerpt starts in.

Throughput: every page is also cut into obituary-length chunks (~2 KB, at line breaks) and
`extract_text` is timed over all of them on one core, after one untimed warm-up chunk (what a
process loads once, such as the reading view's word list, is not a per-document cost);
`docs`/`seconds` report that run.
"""

from __future__ import annotations

import json
import re
import time
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path

from extraction_sets import FieldScore
from sleuth.extract import extract_text
from sleuth.model.dates import DateQualifier, GenDate
from sleuth.model.records import Candidate
from sleuth.verify import Source, check_candidates, normalise

DATASET = "chronam (hand-labelled)"
LABELS = Path(__file__).resolve().parents[1] / "data" / "chronam_dev.jsonl"
FIELDS = ("birth_date", "birth_place", "death_date", "death_place", "burial_date",
          "burial_place", "marriage_date", "marriage_place", "residence", "occupation",
          "age_at_death", "parent", "spouse", "sibling")
_TITLES = frozenset({"mr", "mrs", "miss", "ms", "dr", "rev", "capt", "col", "judge", "hon",
                     "prof", "attorney", "elder", "eld", "the", "late"})
_TOKEN = re.compile(r"[a-z0-9']+")
_CHUNK = 2000
_RELATIONS = ("parent", "spouse", "sibling")
SUMMARIES = {  # summary row -> the fields it adds up ("deceased facts" is built apart)
    "relatives with relation": _RELATIONS,
    "dates": ("birth_date", "death_date", "burial_date", "marriage_date"),
    "places": ("birth_place", "death_place", "burial_place", "marriage_place", "residence"),
}
DECEASED = "deceased facts"


# -- shared helpers (also used by the Google-RE and WikiBio scorers) -----------------------
def firewall(cands: list[Candidate], text: str, snap: str,
             dated: GenDate | None = None) -> tuple[int, int, int]:
    """(passed, total, hypotheses emitted as facts) for one document's candidates; `dated`:
    the document's own date from its metadata (a page's issue date)."""
    report = check_candidates(cands, {snap: Source.of(
        text, dated=dated.earliest if dated is not None else None)})
    bad = sum(1 for c in cands if c.is_fact and (
        c.method == "inference"
        or (c.citation is not None and c.citation.extraction_method == "inference")
        or (c.date is not None and c.date.qualifier is DateQualifier.CALCULATED)))
    return len(report.passed), len(cands), bad


def name_tokens(name: str) -> list[str]:
    return [t for t in _TOKEN.findall(normalise(name).lower()) if t not in _TITLES]


def name_match(a: str, b: str) -> bool:
    """Same person as written: same surname and compatible first given name or initial;
    a lone given name ("Goldie") matches a full name starting with it."""
    ta, tb = name_tokens(a), name_tokens(b)
    if not ta or not tb:
        return normalise(a) == normalise(b)
    if len(ta) == 1 or len(tb) == 1:
        one, other = (ta, tb) if len(ta) == 1 else (tb, ta)
        return one[0] in (other[0], other[-1])
    return ta[-1] == tb[-1] and ta[0][0] == tb[0][0]


def place_match(gold: str, pred: str) -> bool:
    """The gold place's first component and the prediction's agree (one contains the other,
    the shorter at least half the longer), e.g. "Huntingdon, Pa." ~ "Huntingdon"."""
    g = normalise(gold).split(",")[0].strip()
    p = normalise(pred)
    if not g or not p:
        return False
    if g.replace(" ", "").lower() == p.split(",")[0].replace(" ", "").lower():
        return True  # OCR broke the word at a line end: "Thompson town\nship"
    if g in p.split(",")[0] or p.split(",")[0].strip() in g:
        short, long_ = sorted((g, p.split(",")[0].strip()), key=len)
        return len(short) * 2 >= len(long_) or g in p
    return False


def issue_date(page: str) -> GenDate:
    ymd = page[:8]
    return GenDate.from_parts(int(ymd[:4]), int(ymd[4:6]), int(ymd[6:8]))


# -- labels and matching -----------------------------------------------------------------
Fact = tuple[str, str, str]  # (subject, field, value)


def _canon(subject: str, field: str, value: str) -> Fact:
    if field == "child":
        return (value, "parent", subject)
    return (subject, field, value)


def _value_match(field: str, gold: str, pred: str) -> bool:
    if field in ("parent", "spouse", "sibling"):
        return name_match(gold, pred)
    if field.endswith("_date") or field == "age_at_death":
        return gold == pred
    return place_match(gold, pred)


def _score_one(gold: Fact, pred: Fact) -> int:
    """2 exact, 1 fuzzy, 0 no match (relationships may match either way round)."""
    gs, field, gv = gold
    ps, _, pv = pred
    pairs = [(ps, pv)]
    if field in ("spouse", "sibling"):
        pairs.append((pv, ps))
    best = 0
    for s, v in pairs:
        if name_match(gs, s) and _value_match(field, gv, v):
            exact = normalise(gs) == normalise(s) and normalise(gv) == normalise(v)
            best = max(best, 2 if exact else 1)
    return best


def pairs(golds: list[Fact], preds: list[Fact]) -> list[tuple[int, int]]:
    """Greedy one-to-one matching, exact pairs first: (gold index, prediction index)."""
    scored = sorted(((_score_one(g, p), i, j) for i, g in enumerate(golds)
                     for j, p in enumerate(preds)), reverse=True)
    used_g: set[int] = set()
    used_p: set[int] = set()
    out = []
    for sc, i, j in scored:
        if sc == 0:
            break
        if i in used_g or j in used_p:
            continue
        used_g.add(i)
        used_p.add(j)
        out.append((i, j))
    return out


def match(golds: list[Fact], preds: list[Fact]) -> tuple[int, int, int]:
    """Greedy one-to-one matching, exact pairs first: (tp, fp, fn)."""
    tp = len(pairs(golds, preds))
    return tp, len(preds) - tp, len(golds) - tp


def about_principal(fact: Fact, names: Iterable[str], fuzzy: bool = False) -> bool:
    """Is a (canonical) fact about one of an item's principal persons: its subject, or either
    end of a relationship? Labels compare names as written, predictions by `name_match`."""
    subject, field, value = fact
    ends = [subject, value] if field in _RELATIONS else [subject]
    if fuzzy:
        return any(name_match(e, n) for e in ends if e for n in names)
    wanted = {normalise(n) for n in names}
    return any(normalise(e) in wanted for e in ends)


def load(path: Path = LABELS) -> tuple[dict[str, list[tuple[int, int]]], list[dict]]:
    regions: dict[str, list[tuple[int, int]]] = defaultdict(list)
    facts: list[dict] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        row = json.loads(line)
        if "region" in row:
            regions[row["page"]].append((row["region"][0], row["region"][1]))
        else:
            facts.append(row)
    return regions, facts


Item = tuple[int, int, tuple[str, ...]]  # first line, last line, principal names


def load_items(path: Path = LABELS) -> dict[str, list[Item]]:
    """Each page's region rows with their `principal` names (a name or a list of names)."""
    items: dict[str, list[Item]] = defaultdict(list)
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        row = json.loads(line)
        if "region" in row:
            who = row.get("principal") or []
            names = (who,) if isinstance(who, str) else tuple(who)
            items[row["page"]].append((row["region"][0], row["region"][1], names))
    return items


def _line_starts(text: str) -> list[int]:
    starts = [0]
    starts.extend(m.end() for m in re.finditer("\n", text))
    return starts


def _spans(text: str, regions: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    """Character spans of 1-based inclusive line ranges."""
    starts = _line_starts(text)
    return [(starts[a - 1], starts[b] if b < len(starts) else len(text)) for a, b in regions]


def predicted(cands: Iterable[Candidate], text: str,
              regions: list[tuple[int, int]]) -> list[tuple[str, Fact]]:
    """(field, canonical fact) for scored candidates whose excerpt starts in a region."""
    return [(field, fact) for field, fact, _ in predicted_at(cands, text, regions)]


def predicted_at(cands: Iterable[Candidate], text: str,
                 regions: list[tuple[int, int]]) -> list[tuple[str, Fact, int]]:
    """As `predicted`, with the offset where each excerpt starts."""
    spans = _spans(text, regions)
    out = []
    for c in cands:
        if not c.is_fact or c.citation is None:
            continue
        field = c.field
        if field not in FIELDS and field != "child":
            continue
        pos = c.citation.locator.start
        if not any(s <= pos < e for s, e in spans):
            continue
        rel = field in ("parent", "child", "spouse", "sibling")
        value = (c.related_name or c.value) if rel else c.value
        fact = _canon(c.subject_name or "", field, value)
        out.append((fact[1], fact, pos))
    return out


def chunks(text: str, size: int = _CHUNK) -> list[str]:
    """Obituary-length pieces of a page, cut at line breaks."""
    out = []
    pos = 0
    while pos < len(text):
        end = text.find("\n", pos + size)
        end = len(text) if end < 0 else end + 1
        out.append(text[pos:end])
        pos = end
    return out


def evaluate(pages_dir: Path, labels: Path = LABELS) -> list[FieldScore]:
    """Per-field counts on the labelled pages (no timing), then the summary rows
    (`SUMMARIES`, "deceased facts"); the last row sums the per-field rows."""
    regions, facts = load(labels)
    items = load_items(labels)
    rows = {f: FieldScore(DATASET, f) for f in FIELDS}
    deceased = FieldScore(DATASET, DECEASED)
    total = FieldScore(DATASET, "all scored fields")
    for page, regs in sorted(regions.items()):
        text = (pages_dir / page).read_text(encoding="utf-8", errors="replace")
        cands = extract_text(text, page, document_date=issue_date(page))
        p, t, h = firewall(cands, text, page, issue_date(page))
        total.firewall_pass += p
        total.firewall_total += t
        total.hypotheses_as_facts += h
        total.docs += 1
        preds = predicted_at(cands, text, regs)
        golds = [_canon(r["subject"], r["field"], r["value"]) for r in facts if r["page"] == page]
        page_items = items.get(page, [])
        everyone = [n for _, _, names in page_items for n in names]
        item_spans = list(zip(_spans(text, [(a, b) for a, b, _ in page_items]),
                              (names for _, _, names in page_items), strict=True))
        for field in FIELDS:
            g = [x for x in golds if x[1] == field]
            pr = [(f, pos) for fld, f, pos in preds if fld == field]
            got = pairs(g, [f for f, _ in pr])
            tp = len(got)
            rows[field].tp += tp
            rows[field].fp += len(pr) - tp
            rows[field].fn += len(g) - tp
            matched_g = {i for i, _ in got}
            matched_p = {j for _, j in got}
            for i, gf in enumerate(g):
                if about_principal(gf, everyone):
                    if i in matched_g:
                        deceased.tp += 1
                    else:
                        deceased.fn += 1
            for j, (pf, pos) in enumerate(pr):
                if j in matched_p:
                    continue
                here = [n for (s, e), names in item_spans if s <= pos < e for n in names]
                if about_principal(pf, here, fuzzy=True):
                    deceased.fp += 1
    summaries = [deceased]
    for name, fields in SUMMARIES.items():
        row = FieldScore(DATASET, name)
        for f in fields:
            row.tp, row.fp, row.fn = row.tp + rows[f].tp, row.fp + rows[f].fp, row.fn + rows[f].fn
        summaries.append(row)
    for r in rows.values():
        total.tp, total.fp, total.fn = total.tp + r.tp, total.fp + r.fp, total.fn + r.fn
    for r in [*rows.values(), *summaries]:
        r.firewall_pass, r.firewall_total = total.firewall_pass, total.firewall_total
        r.hypotheses_as_facts, r.docs = total.hypotheses_as_facts, total.docs
    return [*rows.values(), *summaries, total]


def throughput(pages_dir: Path) -> tuple[int, float]:
    """(documents, seconds) for `extract_text` over ~2 KB chunks of every page, one core."""
    docs: list[tuple[str, GenDate]] = []
    for p in sorted(pages_dir.glob("*.txt")):
        text = p.read_text(encoding="utf-8", errors="replace")
        docs.extend((c, issue_date(p.name)) for c in chunks(text))
    extract_text(docs[0][0], "warm-up", document_date=docs[0][1])  # lazy loads (word list)
    t0 = time.perf_counter()
    for i, (c, ref) in enumerate(docs):
        extract_text(c, f"c{i}", document_date=ref)
    return len(docs), time.perf_counter() - t0


def score(root: Path) -> list[FieldScore]:
    pages_dir = root / "text" / "chronam_1916_front_pages" / "pages"
    rows = evaluate(pages_dir)
    n, seconds = throughput(pages_dir)
    for r in rows:
        r.docs, r.seconds = n, seconds
    rows[-1].note = f"{n} page chunks of ~2 KB timed; {len(load()[1])} labelled facts"
    return rows
