"""The curation tables (migration 0011) and seed 002's agent permissions, enforced by the
database on SQLite (triggers asking `sleuth_role()`) and on PostgreSQL (a role per agent
with GRANTs) when SLEUTH_TEST_PG_URL is set: every forbidden write fails, even when issued
as raw SQL on the connection the agent's handle acts on; the allowed ones succeed."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator

import pytest
from sqlalchemy import inspect, text
from sqlalchemy.exc import DBAPIError

from sleuth.model import ImmutableError, InvariantViolation, Snapshot
from sleuth.store import Store
from sleuth.store import curation as cur
from sleuth.store.curation_roles import ForbiddenWrite, drop_agent_roles
from sleuth.store.db import make_engine, migrate

TEXT = "module Svc {\n  active component TlmChan {\n    async input port Run: Svc.Sched\n  }\n}\n"


@pytest.fixture
def cstore(store: Store) -> Iterator[Store]:
    yield store
    drop_agent_roles(store.engine)


def _snap(store: Store, conn) -> str:  # type: ignore[no-untyped-def]
    raw = TEXT.encode()
    snap = Snapshot(sha256=hashlib.sha256(raw).hexdigest(), path="Svc__TlmChan__TlmChan.fpp",
                    source_name="fprime", text=TEXT)
    with cur.as_extractor(store, conn) as ex:
        stored, _ = ex.put_snapshot(raw, snap)
    return stored.id


def _new(sid: str, **more: object) -> cur.NewExtraction:
    base: dict[str, object] = dict(
        snapshot_id=sid, candidate_type="port", candidate_key="fprime:Svc:TlmChan:port:Run",
        candidate_payload={"name": "Run", "component": "Svc.TlmChan"}, confidence_score=0.95,
        confidence_reason="Formal FPP port definition", evidence_text=
        "async input port Run: Svc.Sched", evidence_doc="Svc__TlmChan__TlmChan.fpp",
        lines=(3, 3), span=(TEXT.index("async"), TEXT.index("Sched") + 5),
        evidence_type="interface_contract")
    base.update(more)
    return cur.NewExtraction(**base)  # type: ignore[arg-type]


def _staged(store: Store) -> tuple[str, str]:
    with store.transaction() as conn:
        sid = _snap(store, conn)
        with cur.as_extractor(store, conn) as ex:
            x = ex.stage(_new(sid))
    return sid, x.id


def test_tables_exist_and_the_migration_matches_the_schema_module(cstore: Store) -> None:
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    from sleuth.store import schema

    names = {"staging_extractions", "validation_decisions", "core_entities",
             "core_equivalences", "core_conflicts", "curation_review"}
    assert names <= set(inspect(cstore.engine).get_table_names())
    with cstore.engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), schema.metadata)
    assert [d for d in diff if any(n in repr(d) for n in names)] == []


def test_the_allowed_path_extract_validate_promote_link_review(cstore: Store) -> None:
    sid, xid = _staged(cstore)
    with cstore.transaction() as conn:
        with cur.as_validator(cstore, conn) as va:
            va.set_status(xid, "acceptable")
            va.record(xid, "acceptable", "Evidence supports confidence level")
        with cur.as_decision_maker(cstore, conn) as dm:
            x = dm.extraction(xid)
            entity = dm.promote(x, name="Run", module="Svc", component="Svc.TlmChan",
                                reason="High confidence (0.95) with complete fields")
            dm.set_status(xid, "accepted")
            dm.record(xid, "accept", "High confidence", canonical_id=entity.id, confidence=0.95)
        with cur.as_extractor(cstore, conn) as ex:
            prose = ex.stage(_new(sid, candidate_key="fprime:Svc:TlmChan:port:RunX",
                                  confidence_score=0.65, evidence_type="design_table"))
        with cur.as_decision_maker(cstore, conn) as dm:
            dm.link(prose, entity, relation="renamed", method="test", reason="same port",
                    confidence=0.85, disagreements=[("kind", "async", "sync")])
            dm.queue_review(prose.id, priority="normal", reason="Medium confidence (0.65)")
    with cstore.engine.connect() as conn:
        assert [e.candidate_key for e in cur.core_entities(conn)] == [
            "fprime:Svc:TlmChan:port:Run"]
        (eq,) = cur.equivalences(conn)
        assert eq.definition_citation["lines"] == [3, 3]
        assert eq.other_citation["text"] == "async input port Run: Svc.Sched"
        (cf,) = cur.conflicts(conn)
        assert (cf.field, cf.definition_value, cf.other_value) == ("kind", "async", "sync")
        assert [r.reason for r in cur.review_items(conn)] == ["Medium confidence (0.65)"]
        assert [d.decision for d in cur.decisions(conn, xid)] == ["acceptable", "accept"]
        assert cur.extraction(conn, xid).status == "accepted"


def test_only_an_entity_of_the_same_type_is_equivalent(cstore: Store) -> None:
    """A requirement that names a component is not that component (issue: 34 "shall"
    statements were stored as equivalences of their components)."""
    sid, xid = _staged(cstore)
    with cstore.transaction() as conn:
        with cur.as_decision_maker(cstore, conn) as dm:
            entity = dm.promote(dm.extraction(xid), name="Run", module="Svc",
                                component="Svc.TlmChan", reason="formal")
        with cur.as_extractor(cstore, conn) as ex:
            req = ex.stage(_new(sid, candidate_type="requirement",
                                candidate_key="fprime:Svc:TlmChan:requirement:TC-001",
                                confidence_score=0.4, evidence_type="requirement"))
        with cur.as_decision_maker(cstore, conn) as dm, pytest.raises(ValueError, match="type"):
            dm.link(req, entity, relation="same_name", method="test", reason="r",
                    confidence=0.9)
    with cstore.engine.connect() as conn:
        assert cur.equivalences(conn) == []


def _entity_sql(sid: str, xid: str) -> str:
    return ("INSERT INTO core_entities (id, entity_type, candidate_key, name, payload, "
            "confidence, ecosystem, snapshot_id, extraction_id, evidence_text, evidence_doc, "
            "line_start, line_end, evidence_type, reason, promoted_by, promoted_at) VALUES "
            f"('e1', 'port', 'k', 'Run', '{{}}', 0.9, 'fprime', '{sid}', '{xid}', 'x', 'd', "
            "1, 1, 'formal_definition', 'r', 'me', CURRENT_TIMESTAMP)")


# (who acts, what it tries as raw SQL): each of seed 002's Forbidden Operations
FORBIDDEN: list[tuple[str, str, Callable[[str, str], str]]] = [
    ("extractor writes core_entities", "extractor", _entity_sql),
    ("validator writes core_entities", "validator", _entity_sql),
    ("extractor sets status accepted", "extractor",
     lambda s, x: f"UPDATE staging_extractions SET status = 'accepted' WHERE id = '{x}'"),
    ("validator modifies extraction content", "validator",
     lambda s, x: "UPDATE staging_extractions SET confidence_score = 0.99 "
                  f"WHERE id = '{x}'"),
    ("validator accepts", "validator",
     lambda s, x: f"UPDATE staging_extractions SET status = 'accepted' WHERE id = '{x}'"),
    ("decision maker modifies extraction content", "decision_maker",
     lambda s, x: f"UPDATE staging_extractions SET candidate_key = 'other' WHERE id = '{x}'"),
    ("extractor stages a non-pending extraction", "extractor",
     lambda s, x: "INSERT INTO staging_extractions (id, seq, snapshot_id, attempt, "
                  "candidate_type, candidate_key, candidate_payload, confidence_score, "
                  "confidence_reason, evidence_text, evidence_doc, line_start, line_end, "
                  "char_start, char_end, evidence_type, status, created_by, created_at) "
                  f"VALUES ('x2', 99, '{s}', 0, 'port', 'k', '{{}}', 0.9, 'r', 'e', 'd', 1, 1, "
                  "0, 1, 'formal_definition', 'accepted', 'me', CURRENT_TIMESTAMP)"),
    ("extractor records a decision", "extractor",
     lambda s, x: "INSERT INTO validation_decisions (id, extraction_id, stage, decided_by, "
                  "decision, reason, missing_fields, decided_at) VALUES ('d1', "
                  f"'{x}', 'validator', 'me', 'acceptable', 'r', '[]', CURRENT_TIMESTAMP)"),
    ("validator queues for review", "validator",
     lambda s, x: "INSERT INTO curation_review (id, extraction_id, priority, reason, "
                  "missing_fields, origin, status, created_by, created_at) VALUES "
                  f"('r1', '{x}', 'high', 'r', '[]', 'decision', 'open', 'me', "
                  "CURRENT_TIMESTAMP)"),
    ("validator writes an equivalence", "validator",
     lambda s, x: "INSERT INTO core_equivalences (id, entity_id, extraction_id, "
                  "definition_key, other_key, relation, method, reason, confidence, "
                  "definition_citation, other_citation, created_by, created_at) VALUES "
                  f"('q1', 'e1', '{x}', 'a', 'b', 'renamed', 'm', 'r', 0.9, '{{}}', '{{}}', "
                  "'me', CURRENT_TIMESTAMP)"),
    ("decision maker deletes an extraction", "decision_maker",
     lambda s, x: f"DELETE FROM staging_extractions WHERE id = '{x}'"),
]


@pytest.mark.parametrize(("what", "agent", "sql"), FORBIDDEN, ids=[f[0] for f in FORBIDDEN])
def test_a_forbidden_write_fails_in_the_database(cstore: Store, what: str, agent: str,
                                                 sql: Callable[[str, str], str]) -> None:
    sid, xid = _staged(cstore)
    enter = {"extractor": cur.as_extractor, "validator": cur.as_validator,
             "decision_maker": cur.as_decision_maker}[agent]
    with pytest.raises((DBAPIError, InvariantViolation, ImmutableError)) as caught, \
            cstore.transaction() as conn, enter(cstore, conn) as handle:
        handle._conn.execute(text(sql(sid, xid)))  # past the handle: the database says no
    msg = str(getattr(caught.value, "orig", caught.value))
    assert any(w in msg for w in ("forbidden:", "permission denied", "invariant:",
                                  "immutable:")), msg
    with cstore.engine.connect() as conn:
        assert cur.extraction(conn, xid).status == "pending"
        assert cur.core_entities(conn) == []


def test_the_handles_expose_only_their_operations(cstore: Store) -> None:
    assert not hasattr(cur.ExtractorHandle, "promote")
    assert not hasattr(cur.ExtractorHandle, "set_status")
    assert not hasattr(cur.ValidatorHandle, "promote")
    assert not hasattr(cur.ValidatorHandle, "stage")
    assert not hasattr(cur.ValidatorHandle, "link")
    assert not hasattr(cur.DecisionHandle, "stage")


def test_a_handle_refused_by_the_database_raises_one_line(cstore: Store) -> None:
    _sid, xid = _staged(cstore)
    with pytest.raises(ForbiddenWrite, match="validator_agent"), \
            cstore.transaction() as conn, cur.as_validator(cstore, conn) as va:
        va.set_status(xid, "accepted")


def test_writing_outside_any_agent_is_refused(cstore: Store) -> None:
    sid, xid = _staged(cstore)
    if cstore.engine.dialect.name == "postgresql":
        pytest.skip("on PostgreSQL the case's own user owns the tables (the agents do not)")
    with pytest.raises(DBAPIError, match="forbidden"), cstore.transaction() as conn:
        conn.execute(text(_entity_sql(sid, xid)))


def test_roles_are_created_once_per_database(db_url: str) -> None:
    if not db_url.startswith("postgresql"):
        pytest.skip("PostgreSQL roles")
    engine = make_engine(db_url)
    try:
        migrate(engine)
        from sleuth.store.curation_roles import ensure_agent_roles

        with engine.begin() as conn:
            first = ensure_agent_roles(conn)
        with engine.begin() as conn:
            assert ensure_agent_roles(conn) == first  # idempotent
            got = conn.execute(text("SELECT rolname, rolcanlogin FROM pg_roles WHERE rolname "
                                    "= ANY(:n)"), {"n": list(first.values())}).all()
        assert sorted(got) == sorted((n, False) for n in first.values())
    finally:
        drop_agent_roles(engine)
        engine.dispose()
