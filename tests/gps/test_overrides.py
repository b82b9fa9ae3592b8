"""User overrides of the classes: a side table, append-only, latest row wins, audited."""

from __future__ import annotations

import pytest
from sqlalchemy import select, text
from sqlalchemy.exc import DBAPIError

from sleuth.gps import evidence_for, load_overrides, set_override
from sleuth.gps.overrides import citation_ids
from sleuth.model import InputError, NotFound
from sleuth.model.evidence import EvidenceClass, InformationClass, ResearchQuestion, SourceClass
from sleuth.store import Store, case_graph
from sleuth.store import schema as t


def _birth(store: Store) -> tuple[str, str]:
    g = case_graph(store)
    elmer = next(p.id for p in g.persons if p.canonical_name.startswith("Elmer"))
    item = next(e for e in evidence_for(g, elmer, ResearchQuestion.BIRTH)
                if e.assertion.field_name == "birth_date")
    return elmer, item.assertion.id


def test_override_changes_the_classes_and_is_audited(elmer_case: Store) -> None:
    elmer, aid = _birth(elmer_case)
    [cid] = citation_ids(elmer_case, aid)
    set_override(elmer_case, cid, information="primary", reason="the informant was his mother")
    set_override(elmer_case, cid, source=SourceClass.ORIGINAL, reason="checked the image")
    g = case_graph(elmer_case)
    item = next(e for e in evidence_for(g, elmer, ResearchQuestion.BIRTH, load_overrides(
        elmer_case)) if e.assertion.id == aid)
    assert item.classes.information is InformationClass.PRIMARY  # earlier row still holds
    assert item.classes.source is SourceClass.ORIGINAL
    assert item.classes.overridden == ["source", "information"]
    assert any("his mother" in w for w in item.classes.why)
    plain = next(e for e in evidence_for(g, elmer, ResearchQuestion.BIRTH)
                 if e.assertion.id == aid)
    assert item.weight > plain.weight
    with elmer_case.engine.connect() as conn:
        audit = conn.execute(select(t.audit_log.c.reason).where(
            t.audit_log.c.action_type == "evidence_classes_overridden")).scalars().all()
    assert audit == ["the informant was his mother", "checked the image"]


def test_evidence_override_is_per_question(elmer_case: Store) -> None:
    elmer, aid = _birth(elmer_case)
    [cid] = citation_ids(elmer_case, aid)
    set_override(elmer_case, cid, evidence="indirect", question="birth", reason="a range only")
    ov = load_overrides(elmer_case)
    g = case_graph(elmer_case)
    item = next(e for e in evidence_for(g, elmer, ResearchQuestion.BIRTH, ov)
                if e.assertion.id == aid)
    assert item.classes.evidence is EvidenceClass.INDIRECT


def test_bad_overrides_are_refused(elmer_case: Store) -> None:
    _elmer, aid = _birth(elmer_case)
    [cid] = citation_ids(elmer_case, aid)
    with pytest.raises(InputError, match="reason"):
        set_override(elmer_case, cid, information="primary", reason=" ")
    with pytest.raises(InputError):
        set_override(elmer_case, cid, information="first-hand", reason="x")
    with pytest.raises(InputError, match="at least one"):
        set_override(elmer_case, cid, reason="nothing")
    with pytest.raises(NotFound):
        set_override(elmer_case, "nope", information="primary", reason="x")


def test_override_rows_are_append_only(elmer_case: Store) -> None:
    _elmer, aid = _birth(elmer_case)
    [cid] = citation_ids(elmer_case, aid)
    set_override(elmer_case, cid, information="primary", reason="x")
    for stmt in ("UPDATE evidence_overrides SET reason = 'y'", "DELETE FROM evidence_overrides"):
        with pytest.raises(DBAPIError, match="immutable"), elmer_case.engine.begin() as conn:
            conn.execute(text(stmt))
    with pytest.raises(DBAPIError, match=r"ck_evidence_overrides|CHECK"), \
            elmer_case.engine.begin() as conn:
        conn.execute(text(
            "INSERT INTO evidence_overrides (citation_id, source_class, set_by, reason, at)"
            f" VALUES ('{cid}', 'copy', 'x', 'y', CURRENT_TIMESTAMP)"))
