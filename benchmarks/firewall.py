"""Benchmark: the hallucination firewall's citation check against a raw `str.find` peer.

For snapshot texts of about 10 KB, 100 KB and 1 MB (real 1916 newspaper OCR from
/work/shared/data/text/chronam_1916_front_pages, or a generated obituary-like text when that
folder is missing), N random excerpts of 40-200 characters are cited and checked:

  (a) `check_candidate` with a correct locator: the firewall compares the locator's slice only,
      so the cost does not depend on the size of the text;
  (b) `check_candidate` with a wrong locator: the firewall must search the normalised text
      (`SourceText.find`, which also looks past the first hit for the one nearest the hint);
  (c) the peer: `hay.find(normalise(excerpt))` over the same pre-normalised text;
  (d) the one-off cost of building the normalised index, `SourceText(text).normalised`.

Each measurement is warmed up, then repeated (default 3x) with the best time kept; the garbage
collector is paused while timing. Nothing is written to disk.

    .venv/bin/python benchmarks/firewall.py            # N=1000 excerpts per size
    .venv/bin/python benchmarks/firewall.py --quick    # N=200, for a ~20 s run
"""

from __future__ import annotations

import argparse
import gc
import platform
import random
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path

from sleuth.model import Candidate, Citation, Locator
from sleuth.verify import Source, SourceText, check_candidate, normalise

PAGES = Path("/work/shared/data/text/chronam_1916_front_pages/pages")
SIZES = ((10_000, "10 KB"), (100_000, "100 KB"), (1_000_000, "1 MB"))
TARGET_RATIO = 3.0
SNAPSHOT_ID = "bench-snapshot"
_WORD = re.compile(r"[A-Za-z]{3,}")


# -- corpus ----------------------------------------------------------------------------------

def load_corpus(min_chars: int, rng: random.Random) -> tuple[str, str]:
    """Real OCR pages concatenated (page breaks as blank lines), or a generated fallback."""
    files = sorted(PAGES.glob("*.txt")) if PAGES.is_dir() else []
    if files:
        parts: list[str] = []
        total = 0
        while total < min_chars:  # repeat the corpus if it is ever shorter than needed
            for f in files:
                page = f.read_text(encoding="utf-8", errors="replace")
                parts.append(page)
                total += len(page) + 2
        return "\n\n".join(parts), f"{len(files)} Chronicling America OCR pages ({PAGES})"
    return generated_text(min_chars, rng), "generated obituary-like text (OCR folder missing)"


def generated_text(min_chars: int, rng: random.Random) -> str:
    given = ["John", "Mary", "William", "Elizabeth", "James", "Sarah", "George", "Anna",
             "Thomas", "Margaret", "Charles", "Martha", "Henry", "Ellen", "Joseph", "Catherine"]
    surnames = ["Smith", "Johnson", "Brown", "Miller", "Davis", "Wilson", "Anderson", "Taylor",
                "Moore", "Jackson", "Martin", "Thompson", "White", "Harris", "Clark", "Lewis"]
    towns = ["Barre", "Montpelier", "Burlington", "Rutland", "Springfield", "Albany", "Dover",
             "Concord", "Salem", "Portland", "Hartford", "Newport"]
    months = ["January", "February", "March", "April", "May", "June", "July", "August",
              "September", "October", "November", "December"]
    out: list[str] = []
    total = 0
    while total < min_chars:
        name = f"{rng.choice(given)} {rng.choice(surnames)}"
        spouse = f"{rng.choice(given)} {rng.choice(surnames)}"
        born = rng.randint(1830, 1890)
        para = (
            f"DEATH OF {name.upper()}.\n{name}, a well-known resident of {rng.choice(towns)}, "
            f"died at his home on {rng.choice(months)} {rng.randint(1, 28)}, 1916, after an ill-\n"
            f"ness of some weeks. He was born in {rng.choice(towns)} on {rng.choice(months)} "
            f"{rng.randint(1, 28)}, {born}, the son of {rng.choice(given)} and "
            f"{rng.choice(given)} {rng.choice(surnames)}. He married {spouse} in "
            f"{born + rng.randint(18, 35)}, who survives him, with {rng.randint(1, 9)} chil-\n"
            f"dren. The funeral will be held at the {rng.choice(surnames)} church on "
            f"{rng.choice(['Monday', 'Tuesday', 'Friday', 'Sunday'])} at {rng.randint(1, 4)} "
            f"o’clock; burial in the {rng.choice(towns)} cemetery.\n\n"
        )
        out.append(para)
        total += len(para)
    return "".join(out)


def pick_excerpts(text: str, n: int, rng: random.Random) -> list[tuple[int, int, str]]:
    """n sentence-ish slices: 40-200 chars, word-aligned, each holding a usable name word."""
    out: list[tuple[int, int, str]] = []
    limit = len(text) - 260
    while len(out) < n:
        s = rng.randrange(0, limit)
        while s < limit and not text[s].isspace():  # start on a word boundary
            s += 1
        while s < limit and text[s].isspace():
            s += 1
        e = s + rng.randint(40, 200)
        while e < len(text) and not text[e].isspace() and e - s < 220:
            e += 1
        excerpt = text[s:e]
        words = _WORD.findall(normalise(excerpt))
        if len(excerpt.strip()) >= 40 and words:
            out.append((s, e, excerpt))
    return out


def name_word(excerpt: str, rng: random.Random) -> str:
    """A name-ish word from the excerpt as the firewall will read it (after normalisation)."""
    return rng.choice(_WORD.findall(normalise(excerpt)))


def make_candidates(
    text: str, spans: list[tuple[int, int, str]], rng: random.Random, *, wrong: bool
) -> list[Candidate]:
    out = []
    for s, e, excerpt in spans:
        if wrong:  # a locator half the text away, so its slice cannot be the excerpt
            length = e - s
            s = (s + len(text) // 2) % (len(text) - length)
            while text[s : s + length] == excerpt:
                s = (s + 997) % (len(text) - length)
            e = s + length
        out.append(
            Candidate(
                subject="p1",
                subject_name=None,
                field="name",
                value=name_word(excerpt, rng),
                confidence=0.9,
                citation=Citation(
                    snapshot_id=SNAPSHOT_ID, excerpt=excerpt, locator=Locator(start=s, end=e)
                ),
            )
        )
    return out


# -- timing ----------------------------------------------------------------------------------

def best_time(fn: Callable[[], object], repeat: int) -> float:
    """Best wall time of `repeat` calls after one warm-up call, GC paused."""
    fn()
    best = float("inf")
    gc_was = gc.isenabled()
    gc.disable()
    try:
        for _ in range(repeat):
            t0 = time.perf_counter()
            fn()
            best = min(best, time.perf_counter() - t0)
    finally:
        if gc_was:
            gc.enable()
    return best


def run_size(
    text: str, n: int, repeat: int, rng: random.Random
) -> dict[str, float | int]:
    spans = pick_excerpts(text, n, rng)
    good = make_candidates(text, spans, rng, wrong=False)
    bad = make_candidates(text, spans, rng, wrong=True)
    sources = {SNAPSHOT_ID: Source.of(text)}
    hay = sources[SNAPSHOT_ID].text.normalised  # builds the index once, before any timing
    excerpts = [x for _, _, x in spans]

    # Sanity: correct locators pass; wrong ones fail only on the locator, and are found.
    ok_pass = sum(not check_candidate(c, sources) for c in good)
    bad_viol = [check_candidate(c, sources) for c in bad]
    bad_found = sum(
        len(v) == 1 and v[0].check == "citation_in_source" and "does not resolve" in v[0].message
        for v in bad_viol
    )
    raw_found = sum(hay.find(normalise(x)) >= 0 for x in excerpts)

    def run_good() -> None:
        for c in good:
            check_candidate(c, sources)

    def run_bad() -> None:
        for c in bad:
            check_candidate(c, sources)

    def run_raw() -> None:
        for x in excerpts:
            hay.find(normalise(x))

    loops = max(1, 2_000_000 // len(text))  # ~2 MB of text per timed build batch

    def run_build() -> None:
        for _ in range(loops):
            SourceText(text).normalised  # noqa: B018 - the property builds the index

    t_good = best_time(run_good, repeat)
    t_bad = best_time(run_bad, repeat)
    t_raw = best_time(run_raw, repeat)
    t_build = best_time(run_build, repeat) / loops
    return {
        "n": len(spans),
        "good_s": t_good / len(good),
        "bad_s": t_bad / len(bad),
        "raw_s": t_raw / len(excerpts),
        "build_s": t_build,
        "ok_pass": ok_pass,
        "bad_found": bad_found,
        "raw_found": raw_found,
        "norm_len": len(hay),
    }


# -- report ----------------------------------------------------------------------------------

def fmt_rate(per_s: float) -> str:
    return f"{per_s:,.0f}"


def verdict(ratio: float, size_ratio: float) -> str:
    if ratio > 1.25 * size_ratio:
        return "super-linear"
    if ratio >= 0.6 * size_ratio:
        return "~linear"
    return "sub-linear (fixed per-check cost still dominates)"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="N=200 excerpts per size (~20 s)")
    ap.add_argument("-n", type=int, default=None, help="excerpts per size (default 1000)")
    ap.add_argument("--repeat", type=int, default=3, help="timed repetitions, best kept")
    ap.add_argument("--seed", type=int, default=1916)
    args = ap.parse_args(argv)
    n = args.n or (200 if args.quick else 1000)
    rng = random.Random(args.seed)

    t_start = time.perf_counter()
    corpus, origin = load_corpus(max(s for s, _ in SIZES), rng)
    print("sleuth firewall benchmark")
    print(f"python {platform.python_version()} on {platform.machine()}, "
          f"{n} excerpts per size (40-200 chars), best of {args.repeat} after warm-up")
    print(f"text: {origin}")
    print()

    results = []
    for size, label in SIZES:
        text = corpus[:size]
        results.append((size, label, run_size(text, n, args.repeat, rng)))

    head = (f"{'size':>7} | {'checks/s (locator ok)':>21} | {'checks/s (search)':>17} | "
            f"{'raw str.find/s':>14} | {'search vs raw':>13} | {'index build ms':>14} | "
            f"{'index MB/s':>10}")
    print(head)
    print("-" * len(head))
    for size, label, r in results:
        ratio = r["bad_s"] / r["raw_s"]
        mark = "ok" if ratio <= TARGET_RATIO else "MISS"
        print(
            f"{label:>7} | {fmt_rate(1 / r['good_s']):>21} | {fmt_rate(1 / r['bad_s']):>17} | "
            f"{fmt_rate(1 / r['raw_s']):>14} | {f'{ratio:.2f}x {mark}':>13} | "
            f"{r['build_s'] * 1e3:>14.2f} | {size / 1e6 / r['build_s']:>10.1f}"
        )
    print()
    print(f"target: search vs raw <= {TARGET_RATIO:.0f}x (per-check time of (b) over per-find "
          "time of (c); (c) includes normalise(excerpt)).")

    per = {label: r for _, label, r in results}
    print("per-check time, microseconds: " + "; ".join(
        f"{label}: ok {r['good_s'] * 1e6:.1f}, search {r['bad_s'] * 1e6:.1f}, "
        f"raw {r['raw_s'] * 1e6:.1f}" for label, r in per.items()
    ))
    parts = []
    for (s0, l0, r0), (s1, l1, r1) in zip(results, results[1:], strict=False):
        size_ratio = s1 / s0
        t_ratio = r1["bad_s"] / r0["bad_s"]
        parts.append(
            f"{l1}/{l0}: time x{t_ratio:.1f} for size x{size_ratio:.0f} "
            f"({verdict(t_ratio, size_ratio)})"
        )
    worst = max(
        (r1["bad_s"] / r0["bad_s"]) / (s1 / s0)
        for (s0, _, r0), (s1, _, r1) in zip(results, results[1:], strict=False)
    )
    overall = "at most linear" if worst <= 1.25 else "WORSE than linear"
    print(f"scaling of (b) with text size: {'; '.join(parts)} -> {overall} in text size.")
    print("(a) is constant-time in text size: with a correct locator the firewall only "
          "compares the locator's slice with the excerpt; it never scans the text.")
    print("sanity: " + "; ".join(
        f"{label}: {r['ok_pass']}/{r['n']} pass with ok locator, "
        f"{r['bad_found']}/{r['n']} wrong locators rejected and re-found, "
        f"{r['raw_found']}/{r['n']} found by str.find"
        for label, r in per.items()
    ))
    print(f"total run time {time.perf_counter() - t_start:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
