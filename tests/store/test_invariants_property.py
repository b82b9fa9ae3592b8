"""Property tests: whatever sequence of writes arrives, the Z invariants hold in the store."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError
from sqlalchemy import text

from sleuth.model import Hypothesis, InvariantViolation, LogEntry, Person, Relationship
from sleuth.store import Store, case_graph
from sleuth.store.db import sqlite_url

ops = st.lists(
    st.tuples(st.sampled_from(["parent", "spouse"]), st.integers(0, 5), st.integers(0, 5)),
    max_size=25,
)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(ops)
def test_relationship_writes_never_break_invariants(tmp_path_factory, writes) -> None:
    store = Store.open_url(sqlite_url(Path(tmp_path_factory.mktemp("p")) / "case.sqlite"))
    try:
        ids = []
        with store.transaction() as tx:
            for i in range(6):
                p = Person(canonical_name=f"Person {i}")
                store.add_person(tx, p)
                ids.append(p.id)
        accepted = set()
        for kind, a, b in writes:
            try:
                rel = Relationship(person1_id=ids[a], person2_id=ids[b], relationship_type=kind)
                with store.transaction() as tx:
                    if store.add_relationship(tx, rel):
                        accepted.add((kind, ids[a], ids[b]))
            except (InvariantViolation, ValidationError):
                continue
        graph = case_graph(store)  # Person() re-validates #parents ≤ 2 and no self-relation
        for person in graph.persons:
            assert len(person.parents) <= 2
            assert person.id not in person.parents | person.children | person.spouses
            assert not person.parents & person.children
        with store.engine.connect() as c:
            stored = c.execute(text("SELECT count(*) FROM relationships")).scalar()
        assert stored == len(accepted)
    finally:
        store.close()


@settings(max_examples=30, deadline=None)
@given(
    st.floats(allow_nan=True, allow_infinity=True),
    st.booleans(),
    st.sampled_from(["revisit", "source_access", "decision"]),
    st.one_of(st.none(), st.text(max_size=10)),
)
def test_hypotheses_and_log_entries_enter_only_when_valid(
    priority, is_fact, action, reason
) -> None:
    try:
        h = Hypothesis(hypothesis_type="t", statement="s", priority=priority, is_fact=is_fact)
    except ValidationError:
        assert is_fact or not 0 <= priority <= 1
    else:
        assert h.is_fact is False and 0 <= h.priority <= 1
    try:
        entry = LogEntry(agent="Scout", action_type=action, revisit_reason=reason)
    except ValidationError:
        assert action == "revisit"
    else:
        assert action != "revisit" or entry.revisit_reason
