"""Analysis aids: a flagged timeline, the relationship path, the FAN club as hypotheses."""

from __future__ import annotations

import hashlib
from datetime import date
from pathlib import Path

import typer
from typer.testing import CliRunner

from shared_data import shared_path
from sleuth.cli import gps
from sleuth.gps.fan import associates, clusters, fan_hypotheses
from sleuth.gps.paths import describe_path, relationship_path
from sleuth.gps.timeline import timeline
from sleuth.model import Citation, GenDate, Locator, Person, Snapshot
from sleuth.model.graph import CaseGraph
from sleuth.model.records import Assertion, AssertionStatus
from sleuth.pipeline.ingest import ingest_path
from sleuth.store import Store, case_graph

MARRIAGES = ("text", "freeukgen", "freereg1_csvs__Chd__HRTCALMA.csv")
TODAY = date(2026, 1, 1)


def _day(y: int, m: int = 1, d: int = 1) -> GenDate:
    return GenDate(earliest=date(y, m, d), latest=date(y, m, d), original=f"{d} {m} {y}")


def _family() -> CaseGraph:
    text = ("Ann Lee born 1 Jan 1800. Ann Lee died 1 Jan 1850. Tom Lee born 1 Jan 1853. "
            "Tom Lee baptised 1 Jan 1860. Tom Lee resident 1 Jan 1970. Bob Lee born 1820.")
    snap = Snapshot(sha256=hashlib.sha256(text.encode()).hexdigest(), text=text,
                    source_name="notes")
    ann = Person(canonical_name="Ann Lee", sex="F", is_living=False)
    tom = Person(canonical_name="Tom Lee", sex="M", is_living=False, parents={ann.id})
    bob = Person(canonical_name="Bob Lee", sex="M", is_living=False, spouses={ann.id})
    loner = Person(canonical_name="Nobody Else", is_living=False)
    ann.children, ann.spouses = {tom.id}, {bob.id}

    def claim(pid: str, field: str, when: GenDate, excerpt: str) -> Assertion:
        at = text.index(excerpt)
        return Assertion(entity_id=pid, field_name=field, value=when.original, date=when,
                         confidence=0.9, status=AssertionStatus.VERIFIED,
                         citations=[Citation(snapshot_id=snap.id, excerpt=excerpt,
                                             locator=Locator(start=at, end=at + len(excerpt)))])

    assertions = {
        ann.id: [claim(ann.id, "birth_date", _day(1800), "Ann Lee born 1 Jan 1800"),
                 claim(ann.id, "death_date", _day(1850), "Ann Lee died 1 Jan 1850")],
        tom.id: [claim(tom.id, "birth_date", _day(1853), "Tom Lee born 1 Jan 1853"),
                 claim(tom.id, "baptism_date", _day(1860), "Tom Lee baptised 1 Jan 1860"),
                 claim(tom.id, "residence_date", _day(1970), "Tom Lee resident 1 Jan 1970")],
        bob.id: [claim(bob.id, "birth_date", _day(1820), "Bob Lee born 1820")],
    }
    return CaseGraph(persons=[ann, tom, bob, loner], assertions=assertions,
                     snapshots={snap.id: snap})


def test_timeline_flags_impossible_and_suspicious_gaps() -> None:
    g = _family()
    tom = next(p.id for p in g.persons if p.canonical_name == "Tom Lee")
    t = timeline(g, tom, today=TODAY)
    assert [e.label for e in t.events] == ["parent Ann Lee: death", "birth", "baptism",
                                           "residence"]
    rules = {f.rule: f.severity for f in t.flags}
    assert rules["gramps:dead_mother"] == "error"  # born three years after the mother died
    assert rules["timeline:late_baptism"] == "warning"  # baptised seven years after birth
    assert rules["timeline:age_over_110"] == "warning"  # "resident" at 117
    assert rules["timeline:silent_years"] == "gap"  # nothing between 1860 and 1970
    ann = next(p.id for p in g.persons if p.canonical_name == "Ann Lee")
    assert "child Tom Lee: birth" in [e.label for e in timeline(g, ann, today=TODAY).events]


def test_relationship_path_walks_cited_links() -> None:
    g = _family()
    ids = {p.canonical_name: p.id for p in g.persons}
    steps = relationship_path(g, ids["Tom Lee"], ids["Bob Lee"])
    assert steps is not None and [s.kind for s in steps] == ["parent", "spouse"]
    text = describe_path(g, steps)
    assert text.startswith("Tom Lee → (mother, no citation on file) Ann Lee → (husband")
    assert relationship_path(g, ids["Tom Lee"], ids["Nobody Else"]) is None
    assert relationship_path(g, ids["Tom Lee"], ids["Tom Lee"]) == []


def test_fan_club_from_a_real_marriage_register(store: Store) -> None:
    ingest_path(store, shared_path(*MARRIAGES))
    g = case_graph(store)
    james = next(p for p in g.persons if p.canonical_name == "James FLINT")
    found = {a.name: a for a in associates(g, james.id)}
    # the two marriage witnesses, and not James's own bride (family is not FAN)
    assert set(found) == {"John FLINT", "Thos STREET"}
    assert found["Thos STREET"].roles == {"witness"}
    assert not any(p.canonical_name == "Elizabeth WAND" for p in g.persons
                   if p.id in {a.person_id for a in associates(g, james.id)})
    assert [len(c) for c in clusters(g, james.id)] == [2]
    (h,) = fan_hypotheses(g, james.id)
    assert h.is_fact is False and h.hypothesis_type == "fan_club"
    assert "Thos STREET (witness" in h.statement and h.evidence
    for c in h.evidence:  # every lead cites verbatim text
        assert g.snapshots[c.snapshot_id].text[c.locator.start:c.locator.end] == c.excerpt
    # entries on other lines of the same register are not associates
    everyone = {a.person_id for p in g.persons for a in associates(g, p.id)}
    assert len(everyone) < len(g.persons)


def test_timeline_command(tmp_path: Path) -> None:
    app = typer.Typer()
    app.command("timeline")(gps.timeline_cmd)
    case = tmp_path / "case"
    Store.create_case(case).close()
    store = Store.open_case(case)
    try:
        ingest_path(store, shared_path(*MARRIAGES))
        g = case_graph(store)
        james = next(p.id for p in g.persons if p.canonical_name == "James FLINT")
        bride = next(p.id for p in g.persons if p.canonical_name == "Elizabeth WAND")
    finally:
        store.close()
    out = CliRunner().invoke(app, [str(case), "--person", james, "--to", bride],
                             catch_exceptions=False)
    assert out.exit_code == 0, out.output
    assert "Timeline of James FLINT" in out.output and "marriage" in out.output
    assert "FAN club (hypotheses, not facts):" in out.output
    assert "Relationship path: James FLINT → (wife" in out.output


def _golden(birth_surname: bool) -> tuple[CaseGraph, str]:
    """World 7's Sarah Golden (née Giles): one death in three spellings from three sources,
    "aged 42" though born 28 July 1910 and dead 4 November 1953 (43), married to a Golden."""
    text = ("Sarah Golden born 28 July 1910. Sarah Golden died November 4, 1953, aged 42. "
            "Death: 1953-11-04. Died 4 Nov 1953. LastNameAtBirth Giles.")
    snap = Snapshot(sha256=hashlib.sha256(text.encode()).hexdigest(), text=text,
                    source_name="notes")
    sarah = Person(canonical_name="Sarah Golden", surname="Golden", sex="F", is_living=False)
    steven = Person(canonical_name="Steven Golden", surname="Golden", sex="M",
                    is_living=False, spouses={sarah.id})
    sarah.spouses = {steven.id}

    def claim(field: str, value: str, excerpt: str, when: GenDate | None = None) -> Assertion:
        at = text.index(excerpt)
        return Assertion(entity_id=sarah.id, field_name=field, value=value, date=when,
                         confidence=0.9, status=AssertionStatus.PROMOTED,
                         citations=[Citation(snapshot_id=snap.id, excerpt=excerpt,
                                             locator=Locator(start=at, end=at + len(excerpt)))])

    death = GenDate(earliest=date(1953, 11, 4), latest=date(1953, 11, 4))
    claims = [claim("birth_date", "28 July 1910", "born 28 July 1910",
                    GenDate(earliest=date(1910, 7, 28), latest=date(1910, 7, 28))),
              claim("death_date", "November 4, 1953", "died November 4, 1953",
                    death.model_copy(update={"original": "November 4, 1953"})),
              claim("death_date", "1953-11-04", "Death: 1953-11-04",
                    death.model_copy(update={"original": "1953-11-04"})),
              claim("death_date", "4 Nov 1953", "Died 4 Nov 1953",
                    death.model_copy(update={"original": "4 Nov 1953"})),
              claim("age_at_death", "42", "aged 42")]
    if birth_surname:
        claims.append(claim("birth_surname", "Giles", "Giles"))
    graph = CaseGraph(persons=[sarah, steven], assertions={sarah.id: claims},
                      snapshots={snap.id: snap})
    return graph, sarah.id


def test_one_event_is_one_line_and_a_wrong_age_at_death_is_flagged() -> None:
    g, sarah = _golden(birth_surname=True)
    t = timeline(g, sarah, today=TODAY)
    assert [(e.label, e.value, len(e.citations)) for e in t.events] == [
        ("birth", "28 July 1910", 1), ("death", "4 November 1953", 3)]
    flags = {f.rule: f.message for f in t.flags}
    assert flags["timeline:age_at_death"] == ("age at death stated as 42, but birth (28 July "
                                              "1910) and death (4 November 1953) give 43")
    # her birth surname is Giles: Golden is her married name, no "same surname" warning
    assert "gramps:same_surname_family" not in flags
    g, sarah = _golden(birth_surname=False)
    assert "gramps:same_surname_family" in {f.rule for f in timeline(g, sarah).flags}
