"""is_living / assess_living: each documented rule, with its reason."""

from __future__ import annotations

from datetime import date

from hypothesis import given
from hypothesis import strategies as st

from sleuth.model import Assertion, AssertionStatus, CaseGraph, GenDate, Person
from sleuth.privacy import PrivacyPolicy, assess_living, explain_living, is_living

TODAY = date(2025, 6, 1)
SEED = PrivacyPolicy(rule="seed")


def _claim(field: str, value: str, when: GenDate | None = None, **kw: object) -> Assertion:
    return Assertion(entity_id="p", field_name=field, value=value, date=when, confidence=0.9, **kw)  # type: ignore[arg-type]


def test_explicit_flag_wins_over_everything() -> None:
    p = Person(id="p", is_living=True, death=GenDate.from_parts(1950))
    assert is_living(p, [], today=TODAY) == (True, "explicitly marked living")
    q = Person(id="q", is_living=False, birth=GenDate.from_parts(2000, 1, 1))
    assert is_living(q, [], today=TODAY)[0] is False


def test_death_or_burial_evidence_means_deceased() -> None:
    recent = Person(id="p", birth=GenDate.from_parts(1990, 5, 12))
    living, reason = is_living(recent, [_claim("burial_place", "Oak Ridge")], today=TODAY)
    assert living is False and "burial_place" in reason
    assert is_living(Person(id="p", death=GenDate.from_parts(2020)), [], today=TODAY)[0] is False
    assert is_living(Person(id="p"), [_claim("age_at_death", "75")], today=TODAY)[0] is False


def test_rejected_death_claim_is_ignored() -> None:
    p = Person(id="p", birth=GenDate.from_parts(1990))
    rejected = _claim("death_date", "2001", status=AssertionStatus.REJECTED)
    assert is_living(p, [rejected], today=TODAY)[0] is True


def test_birth_thresholds() -> None:
    def born(year: int) -> bool:
        return is_living(Person(id="p", birth=GenDate.from_parts(year)), [], today=TODAY)[0]

    assert born(1990) is True
    assert born(1930) is True  # < 100 years
    assert born(1920) is True  # 100-110 years: when unsure, living
    assert born(1914) is False  # latest possible birth 1914-12-31 is >= 110 years ago
    assert born(1850) is False


def test_latest_possible_birth_is_used() -> None:
    # "between 1900 and 1925": could be 100 years old, so living
    p = Person(id="p", birth=GenDate(earliest=date(1900, 1, 1), latest=date(1925, 12, 31)))
    assert is_living(p, [], today=TODAY)[0] is True
    open_ended = Person(id="p", birth=GenDate(earliest=date(1850, 1, 1), qualifier="after"))
    assert is_living(open_ended, [], today=TODAY)[0] is True


def test_birth_claims_and_year_in_value() -> None:
    assert is_living(Person(id="p"), [_claim("birth_date", "born in 1988")], today=TODAY)[0]
    old = [_claim("baptism_date", "x", GenDate.from_parts(1801))]
    assert is_living(Person(id="p"), old, today=TODAY)[0] is False


def test_life_event_bounds_birth() -> None:
    married = [_claim("marriage_date", "1880", GenDate.from_parts(1880))]
    living, reason = is_living(Person(id="p"), married, today=TODAY, policy=SEED)
    assert living is False and "1880" in reason
    # every rule agrees: FamilySearch (married > 95 years ago), Gramps (born about 1860)
    living, reason = is_living(Person(id="p"), married, today=TODAY)
    assert living is False and "FamilySearch" in reason and "Gramps" in reason
    recent = [_claim("marriage_date", "2015", GenDate.from_parts(2015))]
    assert is_living(Person(id="p"), recent, today=TODAY)[0] is True


def test_no_dates_default_and_modern_clues() -> None:
    farmer = [_claim("occupation", "farmer")]
    living, reason = is_living(Person(id="p"), farmer, today=TODAY, policy=SEED)
    assert living is False and "no birth" in reason  # the seed's default
    living, reason = is_living(Person(id="p"), farmer, today=TODAY)
    assert living is True and "no evidence" in reason  # Gramps: when unsure, living
    for value in ("reach me at jo@example.com", "tel 217-555-0134", "facebook.com/jo.smith"):
        assert is_living(Person(id="p"), [_claim("note", value)], today=TODAY)[0] is True
    assert is_living(Person(id="p"), [_claim("phone", "n/a")], today=TODAY)[0] is True


def test_reason_never_contains_an_exact_date() -> None:
    p = Person(id="p", birth=GenDate.from_parts(1990, 5, 12))
    _, reason = is_living(p, [], today=TODAY)
    assert "1990" in reason and "05" not in reason and "12" not in reason


def test_relative_of_living_person_without_dates_is_living() -> None:
    kid = Person(id="kid", birth=GenDate.from_parts(1995), parents={"mum"})
    mum = Person(id="mum", children={"kid"}, parents={"gran"})
    gran = Person(id="gran", children={"mum"})
    graph = CaseGraph(persons=[kid, mum, gran])
    status = assess_living(graph, today=TODAY, policy=SEED)
    assert status["kid"][0] is True
    assert status["mum"] == (True, "relative of a living person (kid), no dates")
    assert status["gran"][0] is False  # one hop only, from persons living on their own evidence
    # Gramps infers gran's birth from her grandchild's: about 1955, so probably alive
    verdict = explain_living(graph, today=TODAY)["gran"]
    assert verdict.living and verdict.rule == "gramps" and "descendants" in verdict.reason


def test_leap_day_today() -> None:
    p = Person(id="p", birth=GenDate.from_parts(1924, 2, 29))
    assert is_living(p, [], today=date(2024, 2, 29))[0] is True


def test_years_alone_rules_are_named_policies_of_one_rule() -> None:
    """The research loop's two quick rules (whom to search, whom a model may see)."""
    from sleuth.privacy.living import MODEL_RULE, SEARCH_RULE, living_by_years

    assert living_by_years(1950, None, SEARCH_RULE, 2026)  # 76: probably living, not searched
    assert not living_by_years(1900, None, SEARCH_RULE, 2026)
    assert not living_by_years(1990, 2020, MODEL_RULE, 2026)  # a death year ends it
    assert not living_by_years(None, None, SEARCH_RULE, 2026)  # nothing known: searched for
    assert living_by_years(None, None, MODEL_RULE, 2026)  # ... but not shown to a model


@given(st.one_of(st.none(), st.integers(1500, 2030)),
       st.one_of(st.none(), st.integers(1500, 2030)))
def test_what_a_model_sees_is_never_less_protected_than_what_is_searched(
        born: int | None, died: int | None) -> None:
    from sleuth.privacy.living import MODEL_RULE, SEARCH_RULE, living_by_years

    if living_by_years(born, died, SEARCH_RULE, 2026):
        assert living_by_years(born, died, MODEL_RULE, 2026)
