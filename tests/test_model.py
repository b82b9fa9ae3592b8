"""Model invariants hold at construction (seed 001 Z schemas)."""

from __future__ import annotations

from datetime import date

import pytest
from pydantic import ValidationError

from sleuth.model import (
    REVISIT_REASONS,
    Agent,
    GenDate,
    Hypothesis,
    Locator,
    LogEntry,
    Person,
    Relationship,
    Snapshot,
)


def test_gendate_widens_partial_dates_to_ranges() -> None:
    assert GenDate.from_parts(1850).earliest == date(1850, 1, 1)
    assert GenDate.from_parts(1850).latest == date(1850, 12, 31)
    feb = GenDate.from_parts(1852, 2)
    assert (feb.earliest, feb.latest) == (date(1852, 2, 1), date(1852, 2, 29))
    assert feb.iso() == "1852-02"
    assert GenDate.from_parts(1890, 5, 12).iso() == "1890-05-12"


def test_gendate_rejects_reversed_range() -> None:
    with pytest.raises(ValidationError, match="reversed"):
        GenDate(earliest=date(1900, 1, 1), latest=date(1800, 1, 1))


def test_gendate_overlap_treats_open_ends_as_unbounded() -> None:
    before_1900 = GenDate(latest=date(1899, 12, 31))
    assert before_1900.overlaps(GenDate.from_parts(1850))
    assert not before_1900.overlaps(GenDate.from_parts(1901))


def test_person_cannot_be_own_relative_or_have_three_parents() -> None:
    with pytest.raises(ValidationError, match="own relative"):
        Person(id="a", parents={"a"})
    with pytest.raises(ValidationError, match="at most 2"):
        Person(id="a", parents={"b", "c", "d"})
    with pytest.raises(ValidationError, match="own parent"):
        Relationship(person1_id="x", person2_id="x", relationship_type="parent")


def test_hypothesis_is_never_a_fact_and_only_from_the_analyst() -> None:
    h = Hypothesis(hypothesis_type="parental", statement="Jr. implies a father", priority=0.8)
    assert h.is_fact is False and h.generated_by == Agent.ANALYST
    with pytest.raises(ValidationError):
        Hypothesis(hypothesis_type="x", statement="y", priority=0.5, is_fact=True)
    with pytest.raises(ValidationError):
        Hypothesis(hypothesis_type="x", statement="y", priority=0.5, generated_by=Agent.SCOUT)
    with pytest.raises(ValidationError):
        Hypothesis(hypothesis_type="x", statement="y", priority=1.5)


def test_revisit_log_entry_needs_an_allowed_reason() -> None:
    with pytest.raises(ValidationError, match="revisit_reason"):
        LogEntry(agent=Agent.SCOUT, action_type="revisit")
    with pytest.raises(ValidationError, match="not one of"):
        LogEntry(agent=Agent.SCOUT, action_type="revisit", revisit_reason="felt like it")
    ok = LogEntry(agent=Agent.SCOUT, action_type="revisit", revisit_reason=REVISIT_REASONS[1])
    assert ok.revisit_reason == "Previous search parameters too narrow"


def test_locator_and_snapshot_pages() -> None:
    with pytest.raises(ValidationError):
        Locator(start=10, end=5)
    snap = Snapshot(sha256="0" * 64, source_name="x", text="a" * 30, page_starts=(0, 10, 20))
    assert [snap.page_of(i) for i in (0, 9, 10, 25)] == [1, 1, 2, 3]
    assert Snapshot(sha256="0" * 64, source_name="x", text="abc").page_of(1) is None


def test_stream_ids_repeat_and_ordered_ones_ascend() -> None:
    """Same namespace, same ids; an ordered stream's ids ascend as drawn (a file's rows
    append to their indexes), differ from the tenth character on, and two namespaces
    never share one; a plain stream's are the namespace's hashes, as they always were."""
    import hashlib

    from sleuth.model import id_stream, new_id

    def draw(namespace: str, ordered: bool = True) -> list[str]:
        with id_stream(namespace, ordered=ordered), id_stream("inner"):  # the outer is kept
            return [new_id() for _ in range(300)]

    first = draw("ingest:1.2.3")
    assert first == draw("ingest:1.2.3")
    assert first == sorted(first) and len(set(first)) == 300
    assert all(len(i) == 32 and int(i, 16) >= 0 for i in first)
    assert len({i[10:] for i in first}) == 300
    assert not set(first) & set(draw("ingest:1.2.4"))
    plain = draw("research:r1", ordered=False)
    assert plain[7] == hashlib.sha256(b"research:r1\x1f7").hexdigest()[:32]
    assert plain != sorted(plain)
    assert new_id() not in first  # outside a stream: a random UUID
