"""The firewall's verdicts on whole real trees, and on near-misses built from them.

The snapshot-wide name lookup ("does this subject name appear in the snapshot?") is answered
from a set of the snapshot's folded words instead of a substring scan of the folded text per
candidate; these tests pin that the verdicts are exactly what the scan gave.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from shared_data import shared_path
from sleuth.model import Candidate, MatchStatus
from sleuth.pipeline.ingest import extract_for
from sleuth.sources import load_file
from sleuth.verify import Source, check_candidate, check_candidates
from sleuth.verify.firewall import _name_tokens
from sleuth.verify.normalise import fold

SNAPSHOT_ONLY = "does not appear in the snapshot"
TREES = ["kennedy.ged", pytest.param("royal92.ged", marks=pytest.mark.slow)]


def _tree(name: str) -> tuple[dict[str, Source], list[Candidate], str]:
    snap = load_file(shared_path("gedcom", "samples", name)).snapshot
    return {snap.id: Source.of(snap.text)}, extract_for(snap), snap.text


def _scan_says_missing(name: str | None, folded: str) -> bool:
    """The lookup as it was: each token as " token " in the whole folded snapshot."""
    return bool(name) and any(f" {t} " not in folded for t in _name_tokens(name or ""))


def _near_misses(cands: list[Candidate], text: str, seed: int = 7) -> list[Candidate]:
    """Candidates one edit away from real ones: word fragments, a stranger's name, ..."""
    rng = random.Random(seed)
    words = text.split()
    out = []
    for i, c in enumerate(cands[::7]):
        w = rng.choice(words).strip("/@,.")
        frag = w[: max(1, len(w) - 2)]  # a prefix: inside a word, never a word of its own
        edit = [
            {"subject_name": f"{c.subject_name or ''} {frag}"},
            {"related_name": f"{frag} {w}"},
            {"value": f"{c.value} {frag}"},
            {"subject_name": w.upper()},
            {"value": c.value[:-1] if len(c.value) > 2 else c.value + "x"},
            {"subject_name": f"Xyzzy {c.subject_name or ''}"},
        ][i % 6]
        out.append(c.model_copy(update=edit))
    return out


@pytest.mark.parametrize("name", TREES)
def test_every_fact_of_a_real_tree_passes_with_an_exact_citation(name):
    sources, cands, _ = _tree(name)
    report = check_candidates(cands, sources)
    assert not report.rejected
    assert len(report.passed) == len(cands) > 1000
    assert {c.citation.match_status for c in report.passed} == {MatchStatus.EXACT}


@pytest.mark.parametrize("name", TREES)
def test_snapshot_name_verdicts_match_the_substring_scan(name):
    sources, cands, text = _tree(name)
    misses = _near_misses(cands, text)
    folded = fold(next(iter(sources.values())).text.normalised)
    checks: Counter[str] = Counter()
    for c in cands + misses:
        found = check_candidate(c, sources)
        checks.update(v.check for v in found)
        flagged = {v.message.split(" ", 2)[0] for v in found if SNAPSHOT_ONLY in v.message}
        assert ("subject" in flagged) == _scan_says_missing(c.subject_name, folded), c
        assert ("related" in flagged) == _scan_says_missing(c.related_name, folded), c
    # every kind of near miss is caught by the check that owns it
    assert {"no_invented_names", "no_invented_dates", "no_invented_places",
            "relationship_grounding"} <= set(checks)


def test_hand_built_failures_keep_their_verdicts():
    sources, cands, _ = _tree("kennedy.ged")
    name = next(c for c in cands if c.field == "name" and "Kennedy" in c.value)
    link = next(c for c in cands if c.field == "spouse" and c.related_name)

    def failed(c: Candidate) -> list[str]:
        return sorted(str(v) for v in check_candidate(c, sources))

    assert failed(name) == []
    assert failed(name.model_copy(update={"subject_name": "Kennedy"})) == []
    # a prefix of a word in the file is not a word in the file
    assert failed(name.model_copy(update={"subject_name": "Kenned"})) == [
        "no_invented_names: name: subject name 'Kenned' does not appear in the snapshot"
    ]
    assert failed(link.model_copy(update={"related_name": "Zbigniew Kennedy"})) == [
        "no_invented_names: spouse: related name 'Zbigniew Kennedy' does not appear in the "
        "snapshot"
    ]
    # case and punctuation fold, as they always did
    assert failed(name.model_copy(update={"subject_name": "KENNEDY, john"})) == []
    # the excerpt, not the snapshot, grounds the value itself
    assert [v.split(":")[0] for v in failed(name.model_copy(update={"value": "Joseph Stalin"}))
            ] == ["no_invented_names"]
