"""Benchmark: the hallucination firewall's citation check against a raw `str.find` peer.

For snapshot texts of about 10 KB, 100 KB and 1 MB (real 1916 newspaper OCR from
/work/shared/data/text/chronam_1916_front_pages, or a generated obituary-like text when that
folder is missing), N random excerpts of 40-200 characters are cited and checked:

  (a) `check_candidate` with a correct locator: the firewall compares the locator's slice only,
      so the cost does not depend on the size of the text;
  (b) `check_candidate` with a wrong locator: the firewall must search the normalised text
      (`SourceText.find`, which also looks past the first hit for the one nearest the hint);
  (c) the peer: `hay.find(normalise(excerpt))` over the same pre-normalised text;
  (e) the citation check alone (`check_citation`, check 2 of the ten) with a wrong locator:
      locator slice compared, then the normalised text searched for the nearest hit;
  (d) the one-off cost of building the normalised index, `SourceText(text).normalised`.

Each measurement is warmed up, then repeated (default 3x) with the best time kept; the garbage
collector is paused while timing. Nothing is written to disk.

    .venv/bin/python benchmarks/firewall.py            # N=1000 excerpts per size
    .venv/bin/python benchmarks/firewall.py --quick    # N=200, for a ~20 s run
"""

from __future__ import annotations

import argparse
import gc
import itertools
import platform
import random
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from sleuth.model import Candidate, Citation, Locator
from sleuth.verify import Source, SourceText, check_candidate, check_citation, normalise

PAGES = Path("/work/shared/data/text/chronam_1916_front_pages/pages")
SIZES = ((10_000, "10 KB"), (100_000, "100 KB"), (1_000_000, "1 MB"))
TARGET_RATIO = 3.0
SNAPSHOT_ID = "bench-snapshot"
MIN_CHECKS = 20
T = TypeVar("T")
_PUNCT = re.compile(r"[^\w\s]")


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
    given = [
        "John",
        "Mary",
        "William",
        "Elizabeth",
        "James",
        "Sarah",
        "George",
        "Anna",
        "Thomas",
        "Margaret",
        "Charles",
        "Martha",
        "Henry",
        "Ellen",
        "Joseph",
        "Catherine",
    ]
    surnames = [
        "Smith",
        "Johnson",
        "Brown",
        "Miller",
        "Davis",
        "Wilson",
        "Anderson",
        "Taylor",
        "Moore",
        "Jackson",
        "Martin",
        "Thompson",
        "White",
        "Harris",
        "Clark",
        "Lewis",
    ]
    towns = [
        "Barre",
        "Montpelier",
        "Burlington",
        "Rutland",
        "Springfield",
        "Albany",
        "Dover",
        "Concord",
        "Salem",
        "Portland",
        "Hartford",
        "Newport",
    ]
    months = [
        "January",
        "February",
        "March",
        "April",
        "May",
        "June",
        "July",
        "August",
        "September",
        "October",
        "November",
        "December",
    ]
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


def pick_excerpts(
    text: str, hay: str, n: int, rng: random.Random
) -> tuple[list[tuple[int, int, str]], int]:
    """n sentence-ish slices: 40-200 chars, word-aligned, each holding a usable name word.

    A slice whose normalised form is not in the normalised text (it ends on a line-end hyphen
    that the whole text joins but the excerpt alone keeps) is redrawn; the count is returned.
    """
    out: list[tuple[int, int, str]] = []
    dropped = 0
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
        norm = normalise(excerpt)
        if len(excerpt.strip()) < 40 or not words_of(norm):
            continue
        if norm not in hay:
            dropped += 1
            continue
        out.append((s, e, excerpt))
    return out, dropped


def words_of(norm: str) -> list[str]:
    """Whole alphabetic words (3+ letters) as the firewall tokenises a normalised excerpt."""
    return [w for w in _PUNCT.sub(" ", norm).split() if len(w) >= 3 and w.isalpha()]


def name_word(excerpt: str, rng: random.Random) -> str:
    """A name-ish word from the excerpt as the firewall will read it (after normalisation)."""
    return rng.choice(words_of(normalise(excerpt)))


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
    """Best wall time of `repeat` calls (the caller has warmed up), GC paused."""
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


def calibrate(items: list[T], per_item: Callable[[T], object], budget: float) -> list[T]:
    """The prefix of `items` one timed repetition can get through in about `budget` seconds."""
    probe = items[:5]
    t0 = time.perf_counter()
    for it in probe:
        per_item(it)
    per = (time.perf_counter() - t0) / len(probe)
    return items[: max(MIN_CHECKS, min(len(items), int(budget / per)))]


def run_size(
    text: str, n: int, repeat: int, budget: float, rng: random.Random
) -> dict[str, float | int]:
    sources = {SNAPSHOT_ID: Source.of(text)}
    st = sources[SNAPSHOT_ID].text
    hay = st.normalised  # builds the index once, before any timing
    spans, dropped = pick_excerpts(text, hay, n, rng)
    excerpts = [x for _, _, x in spans]
    good_all = make_candidates(text, spans, rng, wrong=False)
    bad_all = make_candidates(text, spans, rng, wrong=True)

    def one(c: Candidate) -> object:
        return check_candidate(c, sources)

    # Library cost per check decides how many candidates fit the time budget; the warm-up
    # pass over that subset doubles as the sanity check of what the firewall says.
    good = calibrate(good_all, one, budget)
    bad = calibrate(bad_all, one, budget)
    ok_pass = sum(not one(c) for c in good)
    bad_found = 0
    for c in bad:
        v = check_candidate(c, sources)
        bad_found += (
            len(v) == 1
            and v[0].check == "citation_in_source"
            and "does not resolve" in v[0].message
        )
    hints = [c.citation for c in bad_all if c.citation]
    find_ok = sum(check_citation(x, st).found_at is not None for x in hints)
    raw_ok = sum(hay.find(normalise(x)) >= 0 for x in excerpts)

    def run_good() -> None:
        for c in good:
            check_candidate(c, sources)

    def run_bad() -> None:
        for c in bad:
            check_candidate(c, sources)

    def run_find() -> None:
        for x in hints:
            check_citation(x, st)

    def run_raw() -> None:
        for x in excerpts:
            hay.find(normalise(x))

    loops = max(1, int(budget * 1_000_000) // len(text))  # ~budget MB of text per batch

    def run_build() -> None:
        for _ in range(loops):
            SourceText(text).normalised  # noqa: B018 - the property builds the index

    run_build()  # warm-up
    return {
        "n": len(spans),
        "dropped": dropped,
        "n_good": len(good),
        "n_bad": len(bad),
        "good_s": best_time(run_good, repeat) / len(good),
        "bad_s": best_time(run_bad, repeat) / len(bad),
        "find_s": best_time(run_find, repeat) / len(hints),
        "raw_s": best_time(run_raw, repeat) / len(excerpts),
        "build_s": best_time(run_build, repeat) / loops,
        "ok_pass": ok_pass,
        "bad_found": bad_found,
        "find_ok": find_ok,
        "raw_ok": raw_ok,
    }


# -- report ----------------------------------------------------------------------------------


def fmt_rate(per_s: float) -> str:
    return f"{per_s:,.0f}"


def verdict(ratio: float, size_ratio: float) -> str:
    if ratio > 1.25 * size_ratio:
        return "super-linear"
    if ratio >= 0.6 * size_ratio:
        return "~linear"
    return "sub-linear: fixed per-check cost still dominates"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="N=200 and a short time budget (~20 s)")
    ap.add_argument("-n", type=int, default=None, help="excerpts per size (default 1000)")
    ap.add_argument("--repeat", type=int, default=3, help="timed repetitions, best kept")
    ap.add_argument(
        "--budget",
        type=float,
        default=None,
        help="seconds per timed repetition of a check loop (default 2.0, quick 0.3)",
    )
    ap.add_argument("--seed", type=int, default=1916)
    args = ap.parse_args(argv)
    n = args.n or (200 if args.quick else 1000)
    budget = args.budget or (0.3 if args.quick else 2.0)
    rng = random.Random(args.seed)

    t_start = time.perf_counter()
    corpus, origin = load_corpus(max(s for s, _ in SIZES), rng)
    print("sleuth firewall benchmark")
    print(
        f"python {platform.python_version()} on {platform.machine()}; {n} excerpts per size "
        f"(40-200 chars, random positions); best of {args.repeat} after a warm-up; "
        f"check loops capped at ~{budget:g} s per repetition"
    )
    print(f"text: {origin}")
    print()

    results = []
    for size, label in SIZES:
        results.append((size, label, run_size(corpus[:size], n, args.repeat, budget, rng)))

    head = (
        f"{'size':>6} | {'checks/s (locator ok)':>21} | {'checks/s (search)':>17} | "
        f"{'raw str.find/s':>14} | {'search vs raw (<=3x)':>20} | {'index build ms':>14}"
    )
    print(head)
    print("-" * len(head))
    for _, label, r in results:
        ratio = r["bad_s"] / r["raw_s"]
        mark = "ok" if ratio <= TARGET_RATIO else "MISS"
        print(
            f"{label:>6} | {fmt_rate(1 / r['good_s']):>21} | {fmt_rate(1 / r['bad_s']):>17} | "
            f"{fmt_rate(1 / r['raw_s']):>14} | {f'{ratio:,.1f}x {mark}':>20} | "
            f"{r['build_s'] * 1e3:>14.2f}"
        )
    print()
    print("(a) checks/s (locator ok), (b) checks/s (search): full check_candidate, name candidate;")
    print("(c) raw: hay.find(normalise(excerpt)) on the pre-normalised text; ratio = time (b)/(c).")
    print()
    head2 = (
        f"{'size':>6} | {'citation check/s':>17} | {'vs raw (<=3x)':>13} | "
        f"{'index MB/s':>10} | {'checks timed (a)/(b)':>20} | "
        f"{'per check us (a)/(b)/(c)':>26}"
    )
    print("(e) citation check: check_citation (the firewall's check 2) with a wrong locator, so it")
    print("    compares the slice, then searches the normalised text; ratio = time (e)/(c).")
    print(head2)
    print("-" * len(head2))
    for size, label, r in results:
        per = f"{r['good_s'] * 1e6:,.0f} / {r['bad_s'] * 1e6:,.0f} / {r['raw_s'] * 1e6:,.1f}"
        find_ratio = f"{r['find_s'] / r['raw_s']:.2f}x"
        timed = f"{r['n_good']} / {r['n_bad']}"
        print(
            f"{label:>6} | {fmt_rate(1 / r['find_s']):>17} | {find_ratio:>13} | "
            f"{size / 1e6 / r['build_s']:>10.1f} | {timed:>20} | {per:>26}"
        )
    print()

    parts = []
    worst = 0.0
    for (s0, l0, r0), (s1, l1, r1) in itertools.pairwise(results):
        t_ratio = r1["bad_s"] / r0["bad_s"]
        worst = max(worst, t_ratio / (s1 / s0))
        parts.append(
            f"{l1}/{l0}: time x{t_ratio:.1f} for size x{s1 / s0:.0f} ({verdict(t_ratio, s1 / s0)})"
        )
    overall = "at most linear" if worst <= 1.25 else "WORSE than linear"
    print(f"scaling of (b) per check: {'; '.join(parts)} -> {overall} in text size.")
    (s_lo, l_lo, r_lo), (s_hi, l_hi, r_hi) = results[0], results[-1]
    growth = r_hi["good_s"] / r_lo["good_s"]
    if growth < 2.0:
        print(
            f"(a) is constant-time in text size (x{growth:.1f} from {l_lo} to {l_hi}): with a "
            "correct locator the firewall compares only the locator's slice with the excerpt."
        )
    else:
        print(
            f"(a) should be constant-time in text size (a correct locator needs only a slice "
            f"comparison) but grows x{growth:.0f} from {l_lo} to {l_hi} (size x"
            f"{s_hi / s_lo:.0f}): some check scans the whole snapshot on every candidate "
            "(profile check_candidate to find which)."
        )
    print(
        "sanity: "
        + "; ".join(
            f"{label}: {r['ok_pass']}/{r['n_good']} pass with ok locator, "
            f"{r['bad_found']}/{r['n_bad']} wrong locators rejected as not resolving, "
            f"find {r['find_ok']}/{r['n']}, raw {r['raw_ok']}/{r['n']}"
            + (f" (redrawn {r['dropped']}: ending on a line-end hyphen)" if r["dropped"] else "")
            for _, label, r in results
        )
    )
    print(f"total run time {time.perf_counter() - t_start:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
