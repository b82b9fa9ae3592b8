"""Property: whatever the family, no export (report, JSON-LD, GEDCOM 5.5.1 and 7.0, GEDCOM X)
nor the censored case the workbench shows (source texts included) prints a living person's
exact birth date, address, phone or e-mail, the street or postal code of their birthplace,
or - when either spouse is living - a couple's exact wedding day, street or postal code
(issue 26: a dead spouse's marriage printed the living one's); and death evidence without an
explicit living flag always means not living.

`SLEUTH_PRIVACY_EXAMPLES` sets the number of generated cases (default 60 for the everyday
run; CI runs the acceptance figure: `SLEUTH_PRIVACY_EXAMPLES=10000 pytest
tests/export/test_export_property.py`, about 3 minutes on one core).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from datetime import UTC, date, datetime, timedelta

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sleuth.export import to_gedcom, to_gedcomx, to_jsonld, to_report
from sleuth.gps.words import date_words
from sleuth.model import Assertion, CaseGraph, Citation, GenDate, Locator, Person, Snapshot
from sleuth.privacy import PrivacyPolicy, assess_living, censor, is_living, use_policy

EXAMPLES = int(os.environ.get("SLEUTH_PRIVACY_EXAMPLES", "60"))
RULES = ("strictest", "gramps", "familysearch", "seed")

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
    st.booleans(),  # has contact claims (address, phone, e-mail) from a directory
    st.sampled_from([None, None, 1905, 1916, 1930, 1990]),  # the source is a newspaper of
    # that year (issue 20: its date bounds the births of those it names)
    st.booleans(),  # the birthplace is a street address with a postal code
    st.sampled_from([None, None, False, True]),  # married (a wedding notice names both):
    # None not married, else whether the spouse has died
)
Spec = tuple[bool, bool, bool | None, str, bool, int | None, bool, bool | None]
PHONES = ("(217) 555-01{:02d}", "020 7946 09{:02d}", "08-123 456 {:02d}", "01 23 45 67 {:02d}",
          "030 123456{:02d}", "+44 20 7946 09{:02d}")


def forms(d: date) -> list[str]:
    return [d.strftime(f) for f in FORMATS]


def contacts(i: int) -> tuple[str, str, str]:
    """Person i's address, phone and e-mail, distinct per person."""
    return (f"{100 + i} Maple Avenue", PHONES[i % len(PHONES)].format(i % 100),
            f"person{i}@example.org")


def birthplace(i: int) -> tuple[str, str, str]:
    """Person i's birthplace written as an address: (place, street, postal code)."""
    street, code = f"{200 + i} Quarry Lane", f"627{i:02d}"
    return f"{street}, Springfield, IL {code}, USA", street, code


def wedding(i: int, day: date) -> tuple[str, str, str, str]:
    """Person i's wedding notice: (text, place, street, postal code)."""
    street, code = f"{300 + i} Chapel Row", f"628{i:02d}"
    place = f"{street}, Dayton, OH {code}"
    return (f"Person {i} and Spouse {i} were married {day.strftime('%B %-d, %Y')} at "
            f"{place}.", place, street, code)


def build(
    specs: list[Spec], dates: list[date]
) -> CaseGraph:
    persons: list[Person] = []
    assertions: dict[str, list[Assertion]] = {}
    snapshots: dict[str, Snapshot] = {}
    spouses: list[Person] = []
    # a wedding day on no other date of the case: two persons' days that meet by chance (a
    # dead couple's shown wedding on a living couple's day) are not a leak of either
    used = set(dates)
    for i, (has_birth, has_death, flag, fmt, has_contact, paper, street, married) in enumerate(
            specs):
        pid = f"p{i}"
        birth_day, death_day = sorted(dates[2 * i : 2 * i + 2])
        written = birth_day.strftime(fmt)
        died = death_day.strftime("%d %B %Y")
        address, phone, email = contacts(i)
        text = f"Record of person {i}."
        if has_birth:
            text += f" Born {written}."
        if has_death:
            text += f" Died {died}."
        if has_contact:
            text += f" Lives at {address}. Phone {phone}. Email {email}."
        place = birthplace(i)[0] if street else "Springfield, Illinois"
        if has_birth:
            text += f" Born at {place}."
        sha = hashlib.sha256(text.encode()).hexdigest()
        snapshots[f"s{i}"] = Snapshot(
            id=f"s{i}",
            sha256=sha,
            source_name=f"Register {i}",
            text=text,
            accessed_at=datetime.combine(ACCESSED, datetime.min.time(), tzinfo=UTC),
            metadata={"document_date": f"{paper}-06-01", "document_kind": "newspaper"}
            if paper else {},
        )
        claims: list[Assertion] = []
        for field, value, excerpt, day, present in (
            ("birth_date", written, f"Born {written}", birth_day, has_birth),
            ("death_date", died, f"Died {died}", death_day, has_death),
            ("address", address, f"Lives at {address}", None, has_contact),
            ("phone", phone, f"Phone {phone}", None, has_contact),
            ("email", email, f"Email {email}", None, has_contact),
            ("birth_place", place, f"Born at {place}", None, has_birth),
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
                    date=GenDate.from_parts(day.year, day.month, day.day) if day else None,
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
                spouses={f"q{i}"} if married is not None else set(),
            )
        )
        assertions[pid] = claims
        if married is not None:  # a wedding notice cited by both, the spouse maybe dead
            day = min(max(birth_day, date(1960, 1, 1)) + timedelta(days=7000 + i),
                      TODAY - timedelta(days=30 + i))
            while day in used:
                day -= timedelta(days=1)
            used.add(day)
            note, wplace, _, _ = wedding(i, day)
            if married:
                note += f" Spouse {i} died {death_day.strftime('%d %B %Y')}."
            sid = f"w{i}"
            snapshots[sid] = Snapshot(
                id=sid, sha256=hashlib.sha256(note.encode()).hexdigest(),
                source_name=f"Wedding notice {i}", text=note,
                accessed_at=datetime.combine(ACCESSED, datetime.min.time(), tzinfo=UTC))
            for who in (pid, f"q{i}"):
                for field, value, excerpt, when in (
                    ("marriage_date", day.isoformat(), day.strftime("%B %-d, %Y"), day),
                    ("marriage_place", wplace, wplace, None),
                    ("death_date", death_day.isoformat(), death_day.strftime("%d %B %Y"),
                     death_day),
                ):
                    if field == "death_date" and (who == pid or not married):
                        continue
                    start = note.index(excerpt)
                    assertions.setdefault(who, []).append(Assertion(
                        entity_id=who, field_name=field, value=value, confidence=0.8,
                        date=GenDate.from_parts(when.year, when.month, when.day)
                        if when else None,
                        citations=[Citation(snapshot_id=sid, excerpt=excerpt, locator=Locator(
                            start=start, end=start + len(excerpt)))]))
            spouses.append(Person(id=f"q{i}", canonical_name=f"Spouse {i}", spouses={pid}))
    for i, p in enumerate(persons[:-1]):
        p.children.add(f"p{i + 1}")
    return CaseGraph(title="random", persons=persons + spouses, assertions=assertions,
                     snapshots=snapshots)


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=st.data(),
    specs=st.lists(person_spec, min_size=1, max_size=4),
    rule=st.sampled_from(RULES),
)
def test_no_export_leaks_a_living_persons_data(
    data: st.DataObject, specs: list[Spec], rule: str
) -> None:
    dates = data.draw(st.lists(days, min_size=2 * len(specs), max_size=2 * len(specs), unique=True))
    graph = build(specs, dates)
    policy = PrivacyPolicy(rule=rule)  # type: ignore[arg-type]
    with use_policy(policy):  # exporters take the case's policy from the context
        outputs = (
            json.dumps(to_jsonld(graph, today=TODAY), ensure_ascii=False),
            to_report(graph, today=TODAY),
            to_gedcom(graph, today=TODAY),
            to_gedcom(graph, version="7.0", today=TODAY),
            json.dumps(to_gedcomx(graph, today=TODAY), ensure_ascii=False),
        )
        # what the workbench shows: the censored sources' texts, values and quotes (the
        # model's decade bounds, "2000-01-01" for the 2000s, are not printed as dates)
        safe = censor(graph, today=TODAY)
        view = "\n".join([*(s.text for s in safe.snapshots.values()),
                          *(f"{a.value} {c.excerpt}" for claims in safe.assertions.values()
                            for a in claims for c in a.citations)])
    outputs = (*outputs, view)
    status = assess_living(graph, today=TODAY, policy=policy)
    for i, (person, (has_birth, has_death, flag, _, has_contact, _, street, married)) in enumerate(
        zip(graph.persons[: len(specs)], specs, strict=True)
    ):
        alone, _ = is_living(person, graph.assertions[person.id], today=TODAY, policy=policy)
        if has_death:  # death evidence: never living unless flagged, alone or in the family
            assert alone is (flag is True)
            assert status[person.id][0] is (flag is True)
        living = status[person.id][0]
        secrets = list(contacts(i)) if has_contact else []
        if person.birth is not None and person.birth.earliest is not None:
            secrets += forms(person.birth.earliest)
        if has_birth and street:
            secrets += birthplace(i)[1:]
        if not living:
            secrets = []
        if married is not None and (living or status[f"q{i}"][0]):
            wed = next(a for a in graph.assertions[person.id] if a.field_name == "marriage_date")
            assert wed.date is not None and wed.date.earliest is not None
            secrets += [*forms(wed.date.earliest), *wedding(i, wed.date.earliest)[2:]]
        for out in outputs:
            low = out.lower()
            for secret in secrets:
                # as a whole token: "1 january 2000" inside another person's
                # "11 january 2000" is not a leak
                found = re.search(rf"(?<![\w]){re.escape(secret.lower())}(?![\w])", low)
                assert found is None, (person.id, secret)
        if not living and person.birth is not None and person.birth.earliest is not None:
            assert person.birth.earliest.isoformat() in outputs[0]
            # the report writes dates in words, as precisely as known ("1 January 1999")
            assert date_words(person.birth) in outputs[1]
