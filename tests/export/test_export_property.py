"""Property: whatever the family, no export prints a living person's exact birth date, and
death evidence without an explicit living flag always means not living."""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, date, datetime, timedelta

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sleuth.export import to_gedcom, to_jsonld, to_report
from sleuth.model import Assertion, CaseGraph, Citation, GenDate, Locator, Person, Snapshot
from sleuth.privacy import assess_living, is_living

TODAY = date(2025, 6, 1)
ACCESSED = date(2024, 3, 1)
FORMATS = ("%Y-%m-%d", "%B %-d, %Y", "%-d %B %Y")

days = st.dates(min_value=date(1880, 1, 1), max_value=TODAY - timedelta(days=1)).filter(
    lambda d: d != ACCESSED
)
person_spec = st.tuples(
    st.booleans(),  # has a birth date
    st.booleans(),  # has a death date
    st.sampled_from([None, None, True, False]),  # explicit is_living flag
    st.sampled_from(FORMATS),  # how the source wrote the birth date
)


def forms(d: date) -> list[str]:
    return [d.strftime(f) for f in FORMATS]


def build(specs: list[tuple[bool, bool, bool | None, str]], dates: list[date]) -> CaseGraph:
    persons: list[Person] = []
    assertions: dict[str, list[Assertion]] = {}
    snapshots: dict[str, Snapshot] = {}
    for i, (has_birth, has_death, flag, fmt) in enumerate(specs):
        pid = f"p{i}"
        birth_day, death_day = sorted(dates[2 * i : 2 * i + 2])
        written = birth_day.strftime(fmt)
        died = death_day.strftime("%d %B %Y")
        text = f"Record of person {i}."
        if has_birth:
            text += f" Born {written}."
        if has_death:
            text += f" Died {died}."
        sha = hashlib.sha256(text.encode()).hexdigest()
        snapshots[f"s{i}"] = Snapshot(
            id=f"s{i}",
            sha256=sha,
            source_name=f"Register {i}",
            text=text,
            accessed_at=datetime.combine(ACCESSED, datetime.min.time(), tzinfo=UTC),
        )
        claims: list[Assertion] = []
        for field, value, excerpt, day, present in (
            ("birth_date", written, f"Born {written}", birth_day, has_birth),
            ("death_date", died, f"Died {died}", death_day, has_death),
        ):
            if not present:
                continue
            start = text.index(excerpt)
            loc = Locator(start=start, end=start + len(excerpt))
            claims.append(
                Assertion(
                    entity_id=pid,
                    field_name=field,
                    value=value,
                    date=GenDate.from_parts(day.year, day.month, day.day),
                    confidence=0.8,
                    citations=[Citation(snapshot_id=f"s{i}", excerpt=excerpt, locator=loc)],
                )
            )
        parents = {f"p{i - 1}"} if i else set()
        persons.append(
            Person(
                id=pid,
                canonical_name=f"Person {i}",
                birth=GenDate.from_parts(birth_day.year, birth_day.month, birth_day.day)
                if has_birth
                else None,
                is_living=flag,
                parents=parents,
            )
        )
        assertions[pid] = claims
    for i, p in enumerate(persons[:-1]):
        p.children.add(f"p{i + 1}")
    return CaseGraph(title="random", persons=persons, assertions=assertions, snapshots=snapshots)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), specs=st.lists(person_spec, min_size=1, max_size=4))
def test_no_export_leaks_a_living_birth_date(
    data: st.DataObject, specs: list[tuple[bool, bool, bool | None, str]]
) -> None:
    dates = data.draw(st.lists(days, min_size=2 * len(specs), max_size=2 * len(specs), unique=True))
    graph = build(specs, dates)
    outputs = (
        json.dumps(to_jsonld(graph, today=TODAY)),
        to_report(graph, today=TODAY),
        to_gedcom(graph, today=TODAY),
        to_gedcom(graph, version="7.0", today=TODAY),
    )
    status = assess_living(graph, today=TODAY)
    for person, (_, has_death, flag, _) in zip(graph.persons, specs, strict=True):
        alone, _ = is_living(person, graph.assertions[person.id], today=TODAY)
        if has_death:
            assert alone is (flag is True)  # death evidence: never living unless flagged
        assert status[person.id][0] or not alone  # the graph rule only adds living persons
        if person.birth is None or person.birth.earliest is None:
            continue
        exact = forms(person.birth.earliest)
        if status[person.id][0]:
            for out in outputs:
                for form in exact:
                    assert form not in out, (person.id, form)
        else:
            assert person.birth.earliest.isoformat() in outputs[0]
            assert person.birth.earliest.isoformat() in outputs[1]
