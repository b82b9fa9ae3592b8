"""Source independence: an index, its image and a tree copy of one record count once."""

from __future__ import annotations

import hashlib

from shared_data import shared_path
from sleuth.gps.coverage import coverage
from sleuth.gps.evidence import evidence_for
from sleuth.gps.independence import copied_keys, derivations, independent_count
from sleuth.gps.proof import ProofInputs, write_proofs
from sleuth.model import Citation, Locator, Person, Snapshot
from sleuth.model.evidence import ResearchQuestion
from sleuth.model.graph import CaseGraph
from sleuth.model.records import Assertion, AssertionStatus
from sleuth.sources import load_file

FS = ("recorded", "familysearch", "saved_fetch_objects", "us_va_death_1955_elmer_davis.json")
IMAGE_ARK = "3:1:3Q9M-C95D-78NZ"  # the image the Virginia index entry points at
PERSON_ARK = "1:1:QVRD-74QJ"


def _snap(text: str, **kw: object) -> Snapshot:
    return Snapshot(sha256=hashlib.sha256(text.encode()).hexdigest(), text=text,
                    source_name=str(kw.pop("source_name", "test")), **kw)  # type: ignore[arg-type]


def _claim(pid: str, snap: Snapshot, excerpt: str, field: str = "death_date") -> Assertion:
    at = snap.text.index(excerpt)
    return Assertion(entity_id=pid, field_name=field, value="3 Feb 1955", confidence=0.9,
                     status=AssertionStatus.PROMOTED,
                     citations=[Citation(snapshot_id=snap.id, excerpt=excerpt,
                                         locator=Locator(start=at, end=at + len(excerpt)))])


def _graph(*, with_obituary: bool = False) -> tuple[CaseGraph, str]:
    elmer = Person(canonical_name="Elmer Lawrence Davis", is_living=False)
    index = load_file(shared_path(*FS)).snapshot
    image = _snap("COMMONWEALTH OF VIRGINIA CERTIFICATE OF DEATH\nName Elmer Lawrence Davis\n"
                  "Date of death February 3, 1955\n", media_type="image/jpeg",
                  url=f"https://www.familysearch.org/ark:/61903/{IMAGE_ARK}",
                  source_name="FamilySearch image")
    tree = _snap("0 HEAD\n1 CHAR UTF-8\n0 @I1@ INDI\n1 NAME Elmer Lawrence /Davis/\n1 DEAT\n"
                 "2 DATE 3 FEB 1955\n2 SOUR @S1@\n3 PAGE https://www.familysearch.org/ark:/61903/"
                 f"{PERSON_ARK}\n0 @I2@ INDI\n1 NAME Someone /Else/\n0 TRLR\n",
                 media_type="text/x-gedcom", path="davis-tree.ged", source_name="davis-tree.ged")
    claims = [_claim(elmer.id, index, "03 Feb 1955"),
              _claim(elmer.id, image, "February 3, 1955"),
              _claim(elmer.id, tree, "3 FEB 1955")]
    snaps = {s.id: s for s in (index, image, tree)}
    if with_obituary:
        obit = _snap("Elmer L. Davis died at his home on Feb. 3, 1955, aged 61 years.",
                     source_name="Richmond Times obituary")
        claims.append(_claim(elmer.id, obit, "Feb. 3, 1955"))
        snaps[obit.id] = obit
    return CaseGraph(persons=[elmer], assertions={elmer.id: claims}, snapshots=snaps), elmer.id


def test_index_image_and_tree_copy_count_once() -> None:
    g, pid = _graph()
    items = evidence_for(g, pid, ResearchQuestion.DEATH)
    assert len({e.citation.snapshot_id for e in items}) == 3
    assert independent_count(items) == 1
    (d,) = derivations(items)
    text = d.describe()
    assert f"ARK {IMAGE_ARK}" in text and f"cites ARK {PERSON_ARK}" in text


def test_an_unrelated_source_stays_independent() -> None:
    g, pid = _graph(with_obituary=True)
    items = evidence_for(g, pid, ResearchQuestion.DEATH)
    assert independent_count(items) == 2
    # a copy adds nothing: the group weighs what its best copy weighs
    groups = derivations(items)
    assert sorted(len(d.snapshots) for d in groups) == [1, 3]


def test_proof_and_coverage_count_the_original_once() -> None:
    g, _ = _graph()
    lines: list[list[Citation]] = []

    def mark(cs: list[Citation]) -> str:
        lines.append(cs)
        return f"[^{len(lines)}]"

    text = "\n".join(write_proofs(g, ProofInputs(searches=[]), mark))
    assert "from 1 independent source(s)" in text
    assert "Not independent:" in text and "counted once" in text
    qc = next(q for q in coverage(None, g, log=[])[0].questions
              if q.question is ResearchQuestion.DEATH)
    assert "1 source(s) consulted; at least 2 needed" in qc.missing


def test_the_same_register_line_in_two_responses_is_one_witness() -> None:
    line = "1786 Apr 6, Barbara d. of William Cooper & Barbara Cooper, Liberton"
    a = _snap(f"search 1\n{line}\nother\n", source_name="FreeREG search 1")
    b = _snap(f"page 2 of results\n{line}\n", source_name="FreeREG search 2")
    p = Person(canonical_name="Barbara Cooper", is_living=False)
    claims = [_claim(p.id, s, line, field="baptism_date") for s in (a, b)]
    g = CaseGraph(persons=[p], assertions={p.id: claims}, snapshots={a.id: a, b.id: b})
    items = evidence_for(g, p.id, ResearchQuestion.BIRTH)
    assert len(items) == 2 and independent_count(items) == 1
    # but two short identical excerpts ("Barbara Cooper") are a coincidence, not a copy
    short = [_claim(p.id, s, "Barbara Cooper", field="baptism_date") for s in (a, b)]
    g2 = CaseGraph(persons=[p], assertions={p.id: short}, snapshots={a.id: a, b.id: b})
    assert independent_count(evidence_for(g2, p.id, ResearchQuestion.BIRTH)) == 2


def test_a_tree_copy_is_tied_only_through_its_own_persons_block() -> None:
    g, _ = _graph()
    tree = next(s for s in g.snapshots.values() if s.path == "davis-tree.ged")
    other = Person(canonical_name="Someone Else", is_living=False)
    at = tree.text.index("Someone /Else/")
    g.persons.append(other)
    g.assertions[other.id] = [Assertion(
        entity_id=other.id, field_name="death_date", value="1955", confidence=0.9,
        status=AssertionStatus.PROMOTED,
        citations=[Citation(snapshot_id=tree.id, excerpt="Someone /Else/",
                            locator=Locator(start=at, end=at + 14))])]
    (item,) = evidence_for(g, other.id, ResearchQuestion.DEATH)
    # the ARK sits in @I1@'s block: @I2@'s claim does not copy Elmer's record
    assert not any(k.startswith("ark:") for k in copied_keys(item, {}))
    (elmer_tree,) = [e for e in evidence_for(g, g.persons[0].id, ResearchQuestion.DEATH)
                     if e.citation.snapshot_id == tree.id]
    assert f"ark:{PERSON_ARK}" in copied_keys(elmer_tree, {})
