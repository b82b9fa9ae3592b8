"""Ingest end to end on real text: snapshot → extract → firewall → validate → decide → core."""

from __future__ import annotations

import itertools
from importlib import resources
from pathlib import Path

import pytest
from sqlalchemy import text

from shared_data import shared_path
from sleuth.model import EvidenceType, InputError
from sleuth.pipeline import ingest_path
from sleuth.pipeline import review as ops
from sleuth.store import Store, case_graph, counts, review_items
from sleuth.verify import SourceText, normalise

SAMPLE = Path(str(resources.files("sleuth") / "data" / "sample"))


def ingest_sample(store: Store) -> None:
    ingest_path(
        store,
        SAMPLE / "1916-03-14_obituary_hollis.txt",
        evidence_type=EvidenceType.SECONDARY,
        source_name="obituary",
    )
    ingest_path(
        store,
        SAMPLE / "register_buck_valley_1838.txt",
        evidence_type=EvidenceType.PRIMARY,
        source_name="register",
    )


def assert_every_citation_resolves(store: Store) -> None:
    graph = case_graph(store)
    assert graph.assertions, "nothing was promoted"
    for claims in graph.assertions.values():
        for a in claims:
            assert a.citations, f"{a.field_name} has no citation"
            for c in a.citations:
                snap = graph.snapshots[c.snapshot_id]
                piece = snap.text[c.locator.start : c.locator.end]
                assert normalise(piece) == normalise(c.excerpt)


def test_sample_ingest_promotes_cited_facts_and_links_family(store: Store) -> None:
    ingest_sample(store)
    assert_every_citation_resolves(store)
    graph = case_graph(store)
    by_name = {p.canonical_name: p for p in graph.persons}
    samuel = by_name["Samuel Hollis"]
    parents = {graph.person(i).canonical_name for i in samuel.parents}
    assert parents == {"Jacob Hollis", "Margaret Hollis"}
    assert {graph.person(i).canonical_name for i in samuel.children} >= {"Daniel Hollis"}


def test_register_and_obituary_disagree_and_both_claims_stay(store: Store) -> None:
    ingest_sample(store)
    graph = case_graph(store)
    samuel = next(p for p in graph.persons if p.canonical_name == "Samuel Hollis")
    births = [a for a in graph.assertions[samuel.id] if a.field_name == "birth_date"]
    assert {a.value for a in births} == {"1837-03-03", "1838-03-03"}
    conflict = next(c for c in graph.conflicts if c.field == "birth_date")
    assert conflict.person_id == samuel.id
    assert conflict.recommended_value == "1837-03-03"  # the primary register wins
    assert {r.value for r in conflict.competing} == {"1837-03-03", "1838-03-03"}
    assert any("birth certificate" in h.statement for h in graph.hypotheses)


def test_hypotheses_are_never_promoted(store: Store) -> None:
    ingest_sample(store)
    with store.engine.connect() as c:
        leaked = c.execute(
            text(
                "SELECT count(*) FROM assertions a JOIN candidates k ON k.id = a.candidate_id"
                " WHERE k.is_fact = false"
            )
        ).scalar()
        hyps = c.execute(text("SELECT count(*) FROM hypotheses")).scalar()
    assert leaked == 0 and hyps >= 1


def test_reingest_is_a_no_op(store: Store) -> None:
    ingest_sample(store)
    before = counts(store)
    res = ingest_path(store, SAMPLE / "register_buck_valley_1838.txt")
    assert res.already_stored and counts(store) == before


def test_a_files_ids_repeat_and_ascend_as_its_rows_are_written(tmp_path: Path) -> None:
    """The same file into two new cases gives the same ids; within one ingest they ascend
    in the order rows are written, so they append to their indexes (a candidate refined
    after it was read is staged with a later id: a handful step back), and a second
    file's ids start elsewhere."""
    tree = shared_path("gedcom", "samples", "kennedy.ged")
    tables = ("candidates", "assertions", "citations", "persons", "relationships")

    def ids(case: str) -> dict[str, list[str]]:
        store = Store.create_case(tmp_path / case)
        ingest_path(store, tree)
        ingest_sample(store)
        with store.engine.connect() as conn:
            got = {name: list(conn.execute(text(f"SELECT id FROM {name} ORDER BY rowid"))
                              .scalars()) for name in tables}
        store.close()
        return got

    first = ids("a")
    assert first == ids("b")
    for name, got in first.items():
        tree_ids = [i for i in got if i[:4] == got[0][:4]]
        assert len(tree_ids) > 100 and got[:len(tree_ids)] == tree_ids, name
        steps_back = sum(a > b for a, b in itertools.pairwise(tree_ids))
        assert steps_back <= (len(tree_ids) // 100 if name == "candidates" else 0), name
        if name == "candidates":  # the sample's candidates: another stream's ids
            assert len(got) > len(tree_ids)


def test_review_reject_and_edit_are_audited(store: Store) -> None:
    ingest_sample(store)
    items = review_items(store)
    assert items
    ops.reject(store, items[0]["id"], reason="misread", by="tester")
    with pytest.raises(InputError, match="already rejected"):
        ops.accept(store, items[0]["id"], reason="changed my mind")
    with pytest.raises(InputError, match="needs a reason"):
        ops.reject(store, items[1]["id"], reason=" ")
    with store.engine.connect() as c:
        audit = c.execute(
            text("SELECT agent_name, reason FROM audit_log WHERE action_type = 'review_rejected'")
        ).all()
    assert audit == [("tester", "misread")]


def test_edit_cannot_smuggle_in_an_ungrounded_value(store: Store) -> None:
    ingest_sample(store)
    items = {i["field"]: i for i in review_items(store)}
    before = counts(store)
    with pytest.raises(InputError, match="not in its excerpt"):
        ops.edit(store, items["occupation"]["id"], value="blacksmith", reason="I think so")
    with pytest.raises(InputError, match="M, F or U"):
        ops.edit(store, items["sex"]["id"], value="Zebulon", reason="typo")
    assert counts(store) == before
    with pytest.raises(InputError, match="not a date"):
        ops.edit(store, items["burial_date"]["id"], value="the spring", reason="typo")
    with pytest.raises(InputError, match="no_invented_dates"):
        ops.edit(store, items["burial_date"]["id"], value="March 11, 1917", reason="typo")
    assert counts(store) == before
    ops.edit(store, items["burial_date"]["id"], value="March 11, 1916", reason="ok")
    ops.edit(store, items["occupation"]["id"], value="farmer", reason="confirmed")
    assert counts(store)["review_open"] == before["review_open"] - 2


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "empty"),
        (b"\x00\x01\x02binary\x00", "binary"),
        (b"caf\xe9 au lait \xff\xfe\xfd \x81\x8d", "UTF-8"),
    ],
)
def test_bad_files_fail_clearly_and_change_nothing(
    store: Store, tmp_path: Path, content: bytes, message: str
) -> None:
    ingest_sample(store)
    before = counts(store)
    bad = tmp_path / "bad.txt"
    bad.write_bytes(content)
    with pytest.raises(InputError, match=message) as exc:
        ingest_path(store, bad)
    assert "bad.txt" in str(exc.value)
    assert counts(store) == before


def test_real_1916_ocr_front_pages_ingest_with_grounded_citations(store: Store) -> None:
    pages = sorted(shared_path("text", "chronam_1916_front_pages", "pages").glob("*.txt"))[:4]
    for page in pages:
        res = ingest_path(store, page, source_name="Chronicling America")
        assert res.report is not None and res.report.candidates > 0
    assert_every_citation_resolves(store)
    graph = case_graph(store)
    for snap in graph.snapshots.values():
        assert SourceText(snap.text).normalised  # stored text is the decoded page
    assert counts(store)["persons"] > 0


def test_review_queue_is_censored_for_living_people(store: Store) -> None:
    """A reviewer's screen is an output path too: a living person's exact birth date and
    the excerpt quoting it never appear there."""
    import hashlib

    from sleuth.model import Candidate, Citation, GenDate, Locator, Snapshot
    from sleuth.pipeline import process_snapshot

    raw = (SAMPLE / "letter_hollis_family_2024.txt").read_bytes()
    text = raw.decode()
    snap = Snapshot(sha256=hashlib.sha256(raw).hexdigest(), path="/letter.txt",
                    source_name="letter", text=text)
    excerpt = "Emma Hollis was born May 12, 1991, in Needmore"
    start = text.index(excerpt)
    cand = Candidate(subject="p1", subject_name="Emma Hollis", field="birth_date",
                     value="1991-05-12", date=GenDate.from_parts(1991, 5, 12), confidence=0.6,
                     citation=Citation(snapshot_id=snap.id, excerpt=excerpt,
                                       locator=Locator(start=start, end=start + len(excerpt))))
    with store.transaction() as tx:
        store.put_snapshot(tx, raw, snap)
        report = process_snapshot(store, tx, snap, [cand])
    assert report.review == 1
    [raw_item] = review_items(store)
    assert raw_item["value"] == "1991-05-12"  # the store keeps the truth
    [shown] = ops.censored_items(store)
    assert shown["value"] == "1990s"
    assert "1991" not in (shown["excerpt"] or "")
