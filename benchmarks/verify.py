"""Claim verification (`sleuth.verify.claims.verify_claim`) on labelled claims, beside peers.

Data (only the labelled dev splits are scored; the test splits are never looked at unless
`--predict-test` writes unscored predictions for them):

- WiCE claims (`citations/wice/entailment_retrieval__claim__dev.jsonl`): a Wikipedia
  sentence, the cited web page as sentences, and a label `supported`,
  `partially_supported` or `not_supported`;
- WiCE non-supported tokens (`non_supported_tokens__dev.jsonl`): partially supported
  sub-claims with the tokens the page does not support;
- Wikipedia citation checker (`citations/wiki_citation_checker/dataset_dev.json`): claim text
  and the cited source's text, labelled Supported / Partially supported / Not supported
  (rows whose source is unavailable or failed to fetch are left out).

Our five verdicts read as the datasets' three: `contradicted` and `not_found` are
`not_supported`. Binary accuracy (`binary`, the issue's target column) is supported against
everything else, which is WiCE's claim-level binary task. `bin(own)` is binary accuracy as
each data set defines its own: for WiCE the same; for the citation checker its benchmark's
"Binary Accuracy" (`benchmark/analyze_results.js`, `calculateMetrics`), supported or
partially supported against not supported, a different and easier task than the target's.

Peers, on the same items in the same run: lexical overlap (the share of the claim's content
words found in its best evidence sentence) and BM25 (rank-bm25's Okapi score of the best
sentence, divided by the claim's own score against itself), each read with two thresholds:
`supported` above the upper, `partially_supported` above the lower. Their thresholds are
chosen on half A of dev (claims split by a hash of their id) to maximise binary accuracy with
precision of `supported` >= 0.90, and reported on both halves; sleuth's verifier has no
thresholds fitted to this data (its one option, `unshown_words`, is shown at 0, the default,
and at 1).

With `--model` (off by default; the `verifier` role configured as for `sleuth verify
--model`: SLEUTH_LLM_* or `--llm-case DIR`'s llm.toml), two more rows on the same items
(`benchmarks/verify_model.py`): "plain model prompt", one "is this claim supported by this
text?" prompt per claim, its answer taken without any check (no usable answer counts as
not supported and as a model error); and "sleuth verify + model" (and "sleuth + paraphrase
+ model" when the paraphrase rows are on), `verify_claim` then `judge_claim` as `sleuth
verify --model` runs them. Both show the model the claim's top `TOP_K` (20) evidence
sentences by BM25, in the page's order; the deterministic check reads every sentence. A
line per model row gives requests, tokens, cost and errors; `--model-cache FILE` keeps the
replies so a rerun sends nothing twice.

Targets (issue 24, without a model): precision of `supported` >= 0.90 and binary accuracy
>= 0.75 on dev.

    .venv/bin/python benchmarks/verify.py [--data DIR] [--limit N] [--predict-test FILE]
    .venv/bin/python benchmarks/verify.py --model [--llm-case DIR] [--model-cache FILE]
    .venv/bin/python benchmarks/verify.py --misses   # the misses by category
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import json
import re
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from sleuth.verify.claims import Paraphrase, claim_atoms, split_sentences, verify_claim

sys.path.insert(0, str(Path(__file__).resolve().parent))
from verify_model import (
    TOP_K,
    CachedClient,
    Usage,
    load_client,
    plain_verdict,
    sleuth_model_verdict,
)

DEFAULT = Path(__file__).resolve().parents[2] / "shared" / "data" / "citations"
LABELS = ("supported", "partially_supported", "not_supported")
TARGETS = {"precision of supported": 0.90, "binary accuracy": 0.75}
_READ = {
    "supported": "supported",
    "partially_supported": "partially_supported",
    "not_supported": "not_supported",
    "contradicted": "not_supported",
    "not_found": "not_supported",
}


@dataclass
class Item:
    id: str
    claim: str
    evidence: list[str]
    label: str
    tokens: list[str] | None = None  # WiCE token task: the claim's tokens
    unsupported: list[bool] | None = None  # and which of them are not supported

    @property
    def half(self) -> str:
        """A or B, by a hash of the id: thresholds are chosen on A and shown on both."""
        return "A" if hashlib.sha256(self.id.encode()).digest()[0] % 2 == 0 else "B"


def load_wice(path: Path) -> list[Item]:
    out = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines()):
        row = json.loads(line)
        out.append(
            Item(
                str(row.get("meta", {}).get("id") or f"{path.stem}:{n}"),
                row["claim"],
                list(row["evidence"]),
                row.get("label", ""),
                row.get("claim_tokens"),
                row.get("non_supported_spans"),
            )
        )
    return out


_CHECKER = {
    "Supported": "supported",
    "Partially supported": "partially_supported",
    "Not supported": "not_supported",
}


def load_checker(path: Path, *, labelled: bool = True) -> list[Item]:
    rows = json.loads(path.read_text(encoding="utf-8"))["rows"]
    out = []
    for row in rows:
        label = _CHECKER.get(row.get("ground_truth") or "", "")
        if labelled and not label:
            continue  # "Source unavailable"
        if not row.get("source_text") or row.get("extraction_status") != "complete":
            continue
        out.append(
            Item(str(row["id"]), row["claim_text"], split_sentences(row["source_text"]), label)
        )
    return out


# -- peers -------------------------------------------------------------------------------------

_WORD = re.compile(r"\w+")
_STOP_WORDS = (
    "a an the of in on at to for by with from and or but is are was were be been has have "
    "had it its this that these those as he she they his her their which who also "
)
_STOP = frozenset(_STOP_WORDS.split())


def _words(text: str) -> list[str]:
    return [w for w in _WORD.findall(text.lower()) if w not in _STOP]


def overlap_score(item: Item) -> float:
    """The best sentence's share of the claim's content words."""
    claim = set(_words(item.claim))
    if not claim:
        return 0.0
    return max((len(claim & set(_words(s))) / len(claim) for s in item.evidence), default=0.0)


def bm25_score(item: Item) -> float:
    """rank-bm25 Okapi score of the best evidence sentence for the claim, over the claim's
    score against itself added to the corpus (so 1.0 is a sentence as good as the claim)."""
    from rank_bm25 import BM25Okapi

    docs = [_words(s) or ["_"] for s in item.evidence]
    query = _words(item.claim)
    if not query:
        return 0.0
    bm = BM25Okapi([*docs, query])
    scores = bm.get_scores(query)
    top = float(max(scores[:-1], default=0.0))
    own = float(scores[-1]) or 1.0
    return top / own


def top_sentences(item: Item, k: int) -> list[str]:
    """The evidence a model is shown: the `k` sentences BM25 ranks highest for the claim,
    in the page's order (all of them when there are no more than `k`; ties by position)."""
    if len(item.evidence) <= k:
        return list(item.evidence)
    from rank_bm25 import BM25Okapi

    query = _words(item.claim)
    if not query:
        return item.evidence[:k]
    scores = BM25Okapi([_words(s) or ["_"] for s in item.evidence]).get_scores(query)
    ranked = sorted(range(len(item.evidence)), key=lambda i: (-float(scores[i]), i))[:k]
    return [item.evidence[i] for i in sorted(ranked)]


def thresholds(scores: Sequence[float], items: Sequence[Item]) -> tuple[float, float]:
    """Upper threshold: the best binary accuracy whose `supported` precision is >= 0.90 (the
    highest score when none is); lower: the best 3-way accuracy below it."""
    cands = sorted(set(scores))
    if not cands:  # no claim in half A (a tiny --limit)
        return 0.0, float("inf")
    best_hi, best_acc = max(cands) + 1e-9, -1.0
    for hi in cands:
        pred = [s >= hi for s in scores]
        tp = sum(p and it.label == "supported" for p, it in zip(pred, items, strict=True))
        npred = sum(pred)
        if npred == 0 or tp / npred < 0.90:
            continue
        acc = sum(p == (it.label == "supported") for p, it in zip(pred, items, strict=True))
        if acc > best_acc:
            best_hi, best_acc = hi, acc
    best_lo, best3 = 0.0, -1.0
    for lo in cands:
        if lo >= best_hi:
            break
        acc3 = sum(
            _three(s, lo, best_hi) == it.label for s, it in zip(scores, items, strict=True)
        )
        if acc3 > best3:
            best_lo, best3 = lo, acc3
    return best_lo, best_hi


def _three(score: float, lo: float, hi: float) -> str:
    if score >= hi:
        return "supported"
    return "partially_supported" if score >= lo else "not_supported"


# -- scoring ------------------------------------------------------------------------------------


WICE_POSITIVE = frozenset({"supported"})
CHECKER_POSITIVE = frozenset({"supported", "partially_supported"})


def scores(pred: Sequence[str], gold: Sequence[str],
           positive: frozenset[str] = WICE_POSITIVE) -> dict[str, float]:  # fmt: skip
    """The table's figures; `positive` is what the data set's own binary task calls support
    (WiCE: supported; the citation checker: supported or partially supported)."""
    n = len(gold) or 1
    acc = sum(p == g for p, g in zip(pred, gold, strict=True)) / n
    f1s = []
    for lab in LABELS:
        tp = sum(p == lab and g == lab for p, g in zip(pred, gold, strict=True))
        fp = sum(p == lab and g != lab for p, g in zip(pred, gold, strict=True))
        fn = sum(p != lab and g == lab for p, g in zip(pred, gold, strict=True))
        f1s.append(2 * tp / (2 * tp + fp + fn) if tp else 0.0)
    tp = sum(p == "supported" == g for p, g in zip(pred, gold, strict=True))
    npred = sum(p == "supported" for p in pred)
    ngold = sum(g == "supported" for g in gold)
    binary = sum(
        (p == "supported") == (g == "supported") for p, g in zip(pred, gold, strict=True)
    )
    return {
        "n": float(len(gold)),
        "accuracy": acc,
        "macro-F1": sum(f1s) / len(f1s),
        "P(supported)": tp / npred if npred else float("nan"),
        "R(supported)": tp / ngold if ngold else float("nan"),
        "called supported": float(npred),
        "binary accuracy": binary / n,
        "binary (set's own)": sum(
            (p in positive) == (g in positive) for p, g in zip(pred, gold, strict=True)
        ) / n,
    }


def token_labels(item: Item, spans: Sequence[tuple[int, int]]) -> list[bool]:
    """Which of the item's claim tokens fall in one of `spans` (claim character offsets); a
    token that is a stop word takes the label of the next content token (WiCE marks whole
    phrases: "is the only one dedicated")."""
    assert item.tokens is not None
    offsets: list[tuple[int, int]] = []
    pos = 0
    for tok in item.tokens:
        at = item.claim.find(tok, pos)
        if at < 0:
            at = pos
        offsets.append((at, at + len(tok)))
        pos = at + len(tok)
    raw = [any(a < e and s < b for s, e in spans) for a, b in offsets]
    out = list(raw)
    nxt: bool | None = None
    for i in range(len(item.tokens) - 1, -1, -1):
        tok = item.tokens[i].lower()
        if tok in _STOP or not any(c.isalnum() for c in tok):
            if nxt is not None and any(c.isalnum() for c in tok):
                out[i] = nxt
        else:
            nxt = raw[i]
    return out


def span_f1(items: Sequence[Item], labels: Sequence[Sequence[bool]]) -> tuple[float, float, float]:
    tp = fp = fn = 0
    for item, lab in zip(items, labels, strict=True):
        assert item.unsupported is not None
        for p, g in zip(lab, item.unsupported, strict=True):
            tp += p and g
            fp += p and not g
            fn += g and not p
    prec = tp / (tp + fp) if tp + fp else 0.0
    rec = tp / (tp + fn) if tp + fn else 0.0
    return prec, rec, 2 * prec * rec / (prec + rec) if prec + rec else 0.0


# -- runs ---------------------------------------------------------------------------------------


def timed(fn: Callable[[Item], object], items: Sequence[Item]) -> tuple[list[object], float]:
    """Results and seconds per item (one pass, the garbage collector paused)."""
    gc.collect()
    gc.disable()
    try:
        start = time.perf_counter()
        out = [fn(item) for item in items]
        elapsed = time.perf_counter() - start
    finally:
        gc.enable()
    return out, elapsed / max(1, len(items))


def sleuth_verdict(item: Item) -> str:
    return verify_claim(item.claim, item.evidence, claim_id=item.id).verdict


def run_dataset(
    name: str,
    items: list[Item],
    model: CachedClient | None,
    paraphrase: Paraphrase | None = None,
    positive: frozenset[str] = WICE_POSITIVE,
) -> list[str]:
    lines = [f"## {name}: {len(items)} labelled dev claims"]
    # warm-up (lazy imports, caches)
    verify_claim(items[0].claim, items[0].evidence)
    raw, t_sleuth = timed(sleuth_verdict, items)
    verdicts = [str(v) for v in raw]
    systems: dict[str, tuple[list[str], float]] = {
        "sleuth verify": ([_READ[v] for v in verdicts], t_sleuth)
    }
    tolerant, t_tol = timed(
        lambda it: verify_claim(it.claim, it.evidence, unshown_words=1).verdict, items
    )
    systems["sleuth verify, 1 word unshown"] = ([_READ[str(v)] for v in tolerant], t_tol)
    if paraphrase is not None:
        para, t_para = timed(
            lambda it: verify_claim(it.claim, it.evidence, paraphrase=paraphrase).verdict, items
        )
        label = (f"sleuth + paraphrase [{paraphrase.max_unshown}/{paraphrase.share:.2f}/"
                 f"{paraphrase.threshold:.2f}]")  # fmt: skip
        systems[label] = ([_READ[str(v)] for v in para], t_para)
    half_a = [i for i, it in enumerate(items) if it.half == "A"]
    for peer, fn in (("lexical overlap", overlap_score), ("BM25 (rank-bm25)", bm25_score)):
        vals, t = timed(fn, items)
        sc = [float(str(v)) for v in vals]
        lo, hi = thresholds([sc[i] for i in half_a], [items[i] for i in half_a])
        systems[f"{peer} [{lo:.2f}/{hi:.2f}]"] = ([_three(s, lo, hi) for s in sc], t)
    usage_lines = run_models(model, items, systems, paraphrase) if model is not None else []
    gold = [it.label for it in items]
    cols = ["accuracy", "macro-F1", "P(supported)", "R(supported)", "called supported",
            "binary accuracy", "binary (set's own)"]  # fmt: skip
    head = f"{'system':32} {'half':>4} {'n':>4} " + " ".join(f"{c:>10}" for c in
                                                             ["acc", "macroF1", "P(sup)",
                                                              "R(sup)", "#sup", "binary",
                                                              "bin(own)"])
    head += f" {'ms/claim':>9}"
    lines += [head, "-" * len(head)]
    for sys_name, (pred, t) in systems.items():
        for half in ("all", "A", "B"):
            idx = [i for i, it in enumerate(items) if half == "all" or it.half == half]
            s = scores([pred[i] for i in idx], [gold[i] for i in idx], positive)
            row = f"{sys_name:32} {half:>4} {int(s['n']):>4} "
            row += " ".join(
                f"{int(s[c]):>10}" if c == "called supported" else f"{s[c]:>10.3f}" for c in cols
            )
            row += f" {t * 1000:>9.2f}" if half == "all" else f" {'':>9}"
            lines.append(row)
    counts: dict[str, int] = {}
    for v in verdicts:
        counts[v] = counts.get(v, 0) + 1
    lines.append("sleuth verdicts: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    lines += usage_lines
    s = scores(systems["sleuth verify"][0], gold)
    met = []
    for k, target in TARGETS.items():
        got = s["P(supported)" if k.startswith("precision") else "binary accuracy"]
        met.append(f"{k} {got:.3f} {'>=' if got >= target else '<'} {target:.2f}")
    lines.append("targets (sleuth verify, all dev): " + "; ".join(met))
    for sys_name, (pred, _) in systems.items():
        if sys_name.startswith("sleuth + paraphrase"):
            s = scores(pred, gold)
            lines.append(f"targets ({sys_name}, all dev): precision of supported "
                         f"{s['P(supported)']:.3f}; binary accuracy {s['binary accuracy']:.3f}")
    return lines


def run_models(client: CachedClient, items: Sequence[Item],
               systems: dict[str, tuple[list[str], float]],
               paraphrase: Paraphrase | None) -> list[str]:  # fmt: skip
    """The model rows (`benchmarks/verify_model.py`): the plain prompt, and sleuth's check
    with the model's judgement on top (lexical; with paraphrase too when that row is on),
    each shown the claim's top `TOP_K` sentences; and a line of usage per row."""
    lines = []
    before = Usage.now(client)
    vals, t = timed(lambda it: plain_verdict(client, it.claim, top_sentences(it, TOP_K)),
                    items)  # fmt: skip
    systems["plain model prompt"] = ([str(v) for v in vals], t)
    after = Usage.now(client)
    lines.append(after.since(before).line("plain model prompt", len(items)))
    runs: list[tuple[str, Paraphrase | None]] = [("sleuth verify + model", None)]
    if paraphrase is not None:
        runs.append(("sleuth + paraphrase + model", paraphrase))
    for label, para in runs:
        aside: Counter[str] = Counter()

        def judged(it: Item, para: Paraphrase | None = para, aside: Counter[str] = aside) -> str:
            check = verify_claim(it.claim, it.evidence, claim_id=it.id, paraphrase=para)
            return sleuth_model_verdict(client, check, top_sentences(it, TOP_K), aside)

        before = Usage.now(client)
        vals, t = timed(judged, items)
        systems[label] = ([_READ[str(v)] for v in vals], t)
        use = Usage.now(client).since(before)
        lines.append(use.line(label, len(items),
                              f"; not asked (contradicted) {len(items) - use.tally['asked']}; "
                              f"answers set aside by the firewall {aside['set aside']}"))
    return lines


# -- fitting the paraphrase rule on half A -----------------------------------------------------

GRID_UNSHOWN = (1, 2, 3)
GRID_SHARE = (0.2, 0.25, 0.34, 0.5)
GRID_THRESHOLD = tuple(x / 100 for x in range(30, 96, 2))
FIT_PRECISION = 0.95  # on half A: a margin over the 0.90 target


def fit_paraphrase(sets: Sequence[Sequence[Item]], similarity: Callable[[str, Sequence[str]],
                   float]) -> list[str]:  # fmt: skip
    """The grid over `Paraphrase`'s limits, scored on half A of all sets pooled: for each
    (max_unshown, share) one pass records the similarities the rule would compare (a
    threshold above any similarity, so nothing is accepted), and a claim is supported at
    threshold t when the lexical check supports it or every recorded similarity is >= t."""
    items = [it for group in sets for it in group]
    base = [verify_claim(it.claim, it.evidence).verdict for it in items]
    seen: dict[tuple[int, float], list[list[float]]] = {}
    for k in GRID_UNSHOWN:
        for share in GRID_SHARE:
            rows: list[list[float]] = []
            for it in items:
                got: list[float] = []

                def record(claim: str, sents: Sequence[str], got: list[float] = got) -> float:
                    got.append(similarity(claim, sents))
                    return -2.0

                verify_claim(it.claim, it.evidence,
                             paraphrase=Paraphrase(record, 9.0, k, share))  # fmt: skip
                rows.append(got)
            seen[(k, share)] = rows
    results = []
    for (k, share), rows in seen.items():
        for t in GRID_THRESHOLD:
            pred = [b == "supported" or (b != "contradicted" and bool(r) and min(r) >= t)
                    for b, r in zip(base, rows, strict=True)]  # fmt: skip
            row = {}
            for half in ("A", "B"):
                idx = [i for i, it in enumerate(items) if it.half == half]
                tp = sum(pred[i] and items[i].label == "supported" for i in idx)
                called = sum(pred[i] for i in idx)
                acc = sum(pred[i] == (items[i].label == "supported") for i in idx) / len(idx)
                row[half] = (tp, called, acc)
            tp_a, called_a, acc_a = row["A"]
            if called_a and tp_a / called_a >= FIT_PRECISION:
                results.append((acc_a, -k, -t, k, share, t, row))
    results.sort(reverse=True)
    lines = [f"## paraphrase rule fitted on half A (precision of supported >= {FIT_PRECISION})",
             f"{'max_unshown':>11} {'share':>6} {'threshold':>9} | {'A P(sup)':>10} "
             f"{'A binary':>8} | {'B P(sup)':>10} {'B binary':>8}"]  # fmt: skip
    for *_, k, share, t, row in results[:5]:
        (tpa, ca, aa), (tpb, cb, ab) = row["A"], row["B"]
        lines.append(f"{k:>11} {share:>6.2f} {t:>9.2f} | {tpa:>4}/{ca:<5} {aa:>8.3f} | "
                     f"{tpb:>4}/{cb:<5} {ab:>8.3f}")  # fmt: skip
    return lines


# -- the misses, by category (benchmarks/data/verify_misses.md) -----------------------------------

_HARD_ORDER = ("date", "number", "name")


def miss_category(item: Item, verdict: str, unsupported: Sequence[tuple[int, int]]) -> str:
    """Why a claim was not called supported: contradicted, the first kind of name, number or
    date it leaves unshown, else how many content words it leaves unshown."""
    if verdict == "contradicted":
        return "contradicted (a value read as stated differently)"
    unshown = [k for k, a, _ in claim_atoms(item.claim)
               if any(s <= a < e for s, e in unsupported)]  # fmt: skip
    for kind in _HARD_ORDER:
        if kind in unshown:
            return f"a {kind} unshown"
    n = unshown.count("content")
    return "1-3 content words unshown, all else shown" if n <= 3 else "4+ content words unshown"


def run_misses(name: str, items: Sequence[Item], paraphrase: Paraphrase | None) -> list[str]:
    """Supported-labelled claims not called supported, by category, with how many the
    paraphrase rule recovers; and, for the category a wider rule would open (every name,
    number and date shown, 1-3 content words not), how many of those claims are labelled
    supported: the precision such a rule could at best have."""
    cats: dict[str, list[int]] = {}
    bucket = {True: 0, False: 0}
    wrong: dict[str, int] = {}
    for it in items:
        check = verify_claim(it.claim, it.evidence)
        spans = [(a, b) for a, b, _ in check.unsupported_spans]
        para = (verify_claim(it.claim, it.evidence, paraphrase=paraphrase).verdict
                if paraphrase is not None else check.verdict)  # fmt: skip
        gold = it.label == "supported"
        if check.verdict != "supported":
            cat = miss_category(it, check.verdict, spans)
            if cat.startswith("1-3"):
                bucket[gold] += 1
            if gold:
                row = cats.setdefault(cat, [0, 0, 0])
                row[0] += 1
                row[1] += para == "supported"
                row[2] += len(split_sentences(it.claim)) > 1
        if not gold and para == "supported":
            key = f"{'lexical' if check.verdict == 'supported' else 'paraphrase'}, gold {it.label}"
            wrong[key] = wrong.get(key, 0) + 1
    n_gold = sum(it.label == "supported" for it in items)
    lines = [f"### {name}: {n_gold} claims labelled supported, "
             f"{sum(r[0] for r in cats.values())} not called supported by the lexical default",
             "", "| category | claims | recovered by paraphrase | of several sentences |",
             "|---|---:|---:|---:|"]  # fmt: skip
    for cat, (n, rec, multi) in sorted(cats.items(), key=lambda kv: -kv[1][0]):
        lines.append(f"| {cat} | {n} | {rec} | {multi} |")
    total = bucket[True] + bucket[False]
    lines += ["", f"Every name, number and date shown, 1-3 content words not: {total} claims, "
              f"{bucket[True]} labelled supported ({bucket[True] / max(1, total):.2f}: the "
              f"precision of a rule that passed them all). Wrongly called supported: "
              + (", ".join(f"{v} ({k})" for k, v in sorted(wrong.items())) or "none") + "."]
    return lines


def run_tokens(items: list[Item]) -> list[str]:
    lines = [f"## WiCE non-supported tokens: {len(items)} partially supported dev sub-claims"]
    checks, t = timed(lambda it: verify_claim(it.claim, it.evidence, claim_id=it.id), items)
    ours = [
        token_labels(it, [(a, b) for a, b, _ in c.unsupported_spans])  # type: ignore[attr-defined]
        for it, c in zip(items, checks, strict=True)
    ]
    # peer: every content word of the claim absent from the best overlap sentence
    peer = []
    for it in items:
        best = max(it.evidence, key=lambda s: len(set(_words(it.claim)) & set(_words(s))))
        have = set(_words(best))
        spans = [
            (m.start(), m.end())
            for m in _WORD.finditer(it.claim)
            if m.group(0).lower() not in _STOP and m.group(0).lower() not in have
        ]
        peer.append(token_labels(it, spans))
    allf = [[True] * len(it.unsupported or []) for it in items]
    head = f"{'system':40} {'P':>6} {'R':>6} {'F1':>6} {'ms/claim':>9}"
    lines += [head, "-" * len(head)]
    for name, lab, tt in (
        ("sleuth verify unsupported_spans", ours, t),
        ("lexical: words missing from best sentence", peer, None),
        ("every token unsupported", allf, None),
    ):
        p, r, f = span_f1(items, lab)
        lines.append(f"{name:40} {p:>6.3f} {r:>6.3f} {f:>6.3f} "
                     + (f"{tt * 1000:>9.2f}" if tt is not None else f"{'':>9}"))  # fmt: skip
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--data", type=Path, default=DEFAULT, help="the shared data's citations/")
    ap.add_argument("--limit", type=int, default=0, help="only the first N items of each set")
    ap.add_argument("--predict-test", type=Path, default=None,
                    help="also write sleuth's verdicts on the unlabelled test splits (JSONL; "
                         "nothing is scored)")  # fmt: skip
    ap.add_argument("--no-paraphrase", action="store_true",
                    help="leave out the WordLlama paraphrase rows")
    ap.add_argument("--misses", action="store_true",
                    help="only print the misses by category (benchmarks/data/verify_misses.md)")
    ap.add_argument("--fit-paraphrase", action="store_true",
                    help="only print the grid that chose Paraphrase's defaults on half A")
    ap.add_argument("--model", action="store_true",
                    help="add the model rows: a plain prompt, and sleuth verify with the "
                         "model's judgement on top (the verifier role of SLEUTH_LLM_* or "
                         "--llm-case DIR's llm.toml)")
    ap.add_argument("--llm-case", type=Path, default=None, metavar="DIR",
                    help="a folder whose llm.toml configures the model (as `sleuth verify "
                         "--case`); the environment's SLEUTH_LLM_* still win")
    ap.add_argument("--model-cache", type=Path, default=None, metavar="PATH",
                    help="a JSON file of the model's replies by (model, prompt hash): a "
                         "rerun sends only prompts it has not sent before")
    args = ap.parse_args(argv)
    wice = args.data / "wice" / "entailment_retrieval__claim__dev.jsonl"
    tokens = args.data / "wice" / "non_supported_tokens__dev.jsonl"
    checker = args.data / "wiki_citation_checker" / "dataset_dev.json"
    for p in (wice, tokens, checker):
        if not p.exists():
            print(f"benchmarks/verify.py: no data at {p}", file=sys.stderr)
            return 2
    model = None
    if args.model:
        got = load_client(args.llm_case, args.model_cache)
        if isinstance(got, str):
            print(f"benchmarks/verify.py: {got}", file=sys.stderr)
            return 2
        model = got
    try:
        return _run(args, wice, tokens, checker, model)
    finally:
        if model is not None:
            model.close()


def _run(args: argparse.Namespace, wice: Path, tokens: Path, checker: Path,
         model: CachedClient | None) -> int:  # fmt: skip
    paraphrase = None
    if not args.no_paraphrase:
        try:
            from sleuth.verify.soft import load_paraphrase

            paraphrase = load_paraphrase()
        except ImportError as exc:
            print(f"(no paraphrase rows: {exc}; pip install -e '.[embed]')", file=sys.stderr)

    def cut(items: list[Item]) -> list[Item]:
        return items[: args.limit] if args.limit else items

    out: list[str] = []
    if args.fit_paraphrase:
        if paraphrase is None:
            print("benchmarks/verify.py: --fit-paraphrase needs wordllama", file=sys.stderr)
            return 2
        print("\n".join(fit_paraphrase([cut(load_wice(wice)), cut(load_checker(checker))],
                                        paraphrase.similarity)))  # fmt: skip
        return 0
    if args.misses:
        out += run_misses("WiCE claims (dev)", cut(load_wice(wice)), paraphrase)
        out.append("")
        out += run_misses("Wikipedia citation checker (dev)", cut(load_checker(checker)),
                          paraphrase)  # fmt: skip
        print("\n".join(out))
        return 0
    out += run_dataset("WiCE claims (dev)", cut(load_wice(wice)), model, paraphrase)
    out.append("")
    out += run_dataset("Wikipedia citation checker (dev)", cut(load_checker(checker)), model,
                       paraphrase, CHECKER_POSITIVE)  # fmt: skip
    out.append("")
    out += run_tokens(cut(load_wice(tokens)))
    print("\n".join(out))
    if args.predict_test:
        with args.predict_test.open("w", encoding="utf-8") as fh:
            for split, items in (
                ("wice", load_wice(args.data / "wice" /
                                   "entailment_retrieval__claim__test_unlabeled.jsonl")),
                ("wiki_citation_checker", load_checker(
                    args.data / "wiki_citation_checker" / "dataset_test_unlabeled.json",
                    labelled=False)),
            ):  # fmt: skip
                for it in items:
                    check = verify_claim(it.claim, it.evidence, claim_id=it.id)
                    fh.write(json.dumps({"split": split, **check.to_json()}) + "\n")
        print(f"\nunscored test predictions written to {args.predict_test}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
