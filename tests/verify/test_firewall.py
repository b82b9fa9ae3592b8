"""The ten checks of seed 000 §6, each caught by name, on a real-looking obituary."""

from __future__ import annotations

import pytest

from sleuth.model import Candidate, Citation, GenDate, Locator, MatchStatus
from sleuth.verify import CHECKS, Source, check_candidate, check_candidates

TEXT = (
    "Samuel Hollis died at his home in Buck\nValley on Thursday, aged 78 years. He was born "
    "March 3, 1838, in Buck Valley, Fulton County, a son of Jacob Hollis. See "
    "http://example.org/hollis for more."
)
SOURCES = {"s1": Source.of(TEXT, "http://example.org/page")}


def cite(excerpt: str, snapshot_id: str = "s1") -> Citation:
    start = TEXT.find(excerpt)
    start = max(start, 0)
    return Citation(
        snapshot_id=snapshot_id,
        excerpt=excerpt,
        locator=Locator(start=start, end=start + len(excerpt)),
    )


def cand(field: str, value: str, excerpt: str | None, **kw) -> Candidate:
    base = dict(
        subject="p1",
        subject_name="Samuel Hollis",
        field=field,
        value=value,
        confidence=0.9,
        citation=cite(excerpt) if excerpt else None,
    )
    base.update(kw)
    return Candidate(**base)


def checks_failed(c: Candidate) -> set[str]:
    return {v.check for v in check_candidate(c, SOURCES)}


BORN = "He was born March 3, 1838, in Buck Valley, Fulton County"


def test_there_are_exactly_ten_named_checks() -> None:
    assert len(CHECKS) == 10 and len({n for n, _ in CHECKS}) == 10


def test_a_good_candidate_passes_with_exact_match() -> None:
    c = cand("birth_date", "1838-03-03", BORN, date=GenDate.from_parts(1838, 3, 3))
    report = check_candidates([c], SOURCES)
    assert not report.rejected
    assert report.passed[0].citation.match_status is MatchStatus.EXACT


def test_1_citation_required() -> None:
    assert "citation_required" in checks_failed(cand("birth_place", "Buck Valley", None))


def test_2_citation_must_be_in_the_source_and_locator_must_resolve() -> None:
    assert "citation_in_source" in checks_failed(
        cand("name", "Samuel Hollis", "Samuel Hollis died in Ohio")
    )
    c = cand("name", "Samuel Hollis", "Samuel Hollis died")
    shifted = c.model_copy(
        update={"citation": c.citation.model_copy(update={"locator": Locator(start=5, end=23)})}
    )
    [v] = [v for v in check_candidate(shifted, SOURCES) if v.check == "citation_in_source"]
    assert "does not resolve" in v.message and "[0, 18)" in v.message
    missing = cand("name", "Samuel Hollis", "Samuel Hollis died").model_copy(
        update={"citation": cite("Samuel Hollis died", snapshot_id="nope")}
    )
    assert any("does not exist" in v.message for v in check_candidate(missing, SOURCES))


def test_2_normalised_match_across_a_line_break() -> None:
    excerpt = "his home in Buck Valley on Thursday"
    start = TEXT.find("his home")
    end = TEXT.find("Thursday") + len("Thursday")
    c = cand("death_place", "Buck Valley", None).model_copy(
        update={
            "citation": Citation(
                snapshot_id="s1", excerpt=excerpt, locator=Locator(start=start, end=end)
            )
        }
    )
    report = check_candidates([c], SOURCES)
    assert not report.rejected
    assert report.passed[0].citation.match_status is MatchStatus.NORMALISED


def test_3_no_invented_dates() -> None:
    bad = cand("birth_date", "1839-03-03", BORN, date=GenDate.from_parts(1839, 3, 3))
    assert "no_invented_dates" in checks_failed(bad)
    no_range = cand("birth_date", "1838", BORN)
    assert "no_invented_dates" in checks_failed(no_range)


def test_4_no_invented_names() -> None:
    assert "no_invented_names" in checks_failed(cand("name", "Samuel Hollins", BORN))
    assert "no_invented_names" in checks_failed(
        cand("birth_place", "Buck Valley", BORN, subject_name="Samuel Miller")
    )


def test_5_no_invented_places() -> None:
    assert "no_invented_places" in checks_failed(cand("birth_place", "Bedford County", BORN))
    assert "no_invented_places" not in checks_failed(
        cand("birth_place", "Buck Valley, Fulton County", BORN)
    )


def test_6_inferences_must_be_labelled_hypotheses() -> None:
    bad = cand(
        "birth_date", "1838", "aged 78 years", method="inference", date=GenDate.from_parts(1838)
    )
    assert "hypothesis_labeling" in checks_failed(bad)
    ok = bad.model_copy(update={"is_fact": False})
    assert check_candidate(ok, SOURCES) == []


@pytest.mark.parametrize("conf", [-0.1, 1.01, float("nan")])
def test_7_confidence_bounds(conf: float) -> None:
    assert "confidence_bounds" in checks_failed(
        cand("name", "Samuel Hollis", "Samuel Hollis died", confidence=conf)
    )


def test_8_no_fabricated_urls() -> None:
    ok = cand(
        "name", "Samuel Hollis", "Samuel Hollis died", rationale="see http://example.org/hollis"
    )
    assert "no_fabricated_urls" not in checks_failed(ok)
    bad = ok.model_copy(update={"rationale": "see https://invented.example/x"})
    assert "no_fabricated_urls" in checks_failed(bad)


def test_9_relationship_grounding() -> None:
    ok = cand(
        "parent", "Jacob Hollis", "a son of Jacob Hollis", related="p2", related_name="Jacob Hollis"
    )
    assert check_candidate(ok, SOURCES) == []
    bad = cand("parent", "Jacob Hollis", BORN, related="p2", related_name="Jacob Hollis")
    assert "relationship_grounding" in checks_failed(bad)


def test_10_conflicts_are_never_overwritten() -> None:
    c = cand(
        "birth_date",
        "1838-03-03",
        BORN,
        date=GenDate.from_parts(1838, 3, 3),
        replaces="assertion-123",
    )
    assert "conflict_preservation" in checks_failed(c)


def test_conflicting_candidates_both_pass_side_by_side() -> None:
    a = cand("death_place", "Buck Valley", "died at his home in Buck\nValley")
    b = cand("death_place", "Fulton County", BORN)
    report = check_candidates([a, b], SOURCES)
    assert len(report.passed) == 2


def test_free_text_values_must_be_grounded_too() -> None:
    assert "no_invented_names" in checks_failed(cand("occupation", "blacksmith", BORN))
    assert "no_invented_names" in checks_failed(cand("age_at_death", "79", "aged 78 years"))
    assert check_candidate(cand("age_at_death", "78", "aged 78 years"), SOURCES) == []


def test_check_citation_reports_status_and_true_position() -> None:
    from sleuth.verify import SourceText, check_citation

    src = SourceText(TEXT)
    assert check_citation(cite("Samuel Hollis died"), src).status is MatchStatus.EXACT
    wrong = Citation(snapshot_id="s1", excerpt="Buck Valley on Thursday",
                     locator=Locator(start=0, end=23))
    result = check_citation(wrong, src)
    assert result.status is MatchStatus.NOT_FOUND
    a, b = result.found_at
    assert TEXT[a:b] == "Buck\nValley on Thursday"
    missing = Citation(snapshot_id="s1", excerpt="died in Ohio", locator=Locator(start=0, end=12))
    assert check_citation(missing, src).found_at is None


def test_9_a_record_link_is_grounded_by_its_identifier() -> None:
    text = "0 @I1@ INDI\n1 NAME Jacob /Hollis/\n0 @I2@ INDI\n1 NAME Samuel /Hollis/\n" \
           "0 @F1@ FAM\n1 HUSB @I1@\n1 CHIL @I2@\n"
    sources = {"g": Source.of(text, None)}
    link = "0 @F1@ FAM\n1 HUSB @I1@\n1 CHIL @I2@"
    start = text.index(link)

    def parent(value: str, related_name: str) -> Candidate:
        return Candidate(
            subject="@I2@", subject_name="Samuel Hollis", field="parent", value=value,
            related="@I1@", related_name=related_name, confidence=0.9,
            citation=Citation(snapshot_id="g", excerpt=link,
                              locator=Locator(start=start, end=start + len(link))),
        )

    assert check_candidate(parent("@I1@", "Jacob Hollis"), sources) == []
    # the identifier must be in the excerpt, and the name it stands for in the snapshot
    assert {v.check for v in check_candidate(parent("@I9@", "Jacob Hollis"), sources)} == {
        "relationship_grounding"
    }
    assert "no_invented_names" in {
        v.check for v in check_candidate(parent("@I1@", "Jacob Smith"), sources)
    }
    # a plain word is not an identifier: the relative's name itself must be in the excerpt
    assert "relationship_grounding" in {
        v.check for v in check_candidate(parent("HUSB", "Jacob Hollis"), sources)
    }


@pytest.mark.parametrize(
    "written", ["1100 B.C.", "44 B.C.", "@#DFRENCH R@ 1 VEND 2", "@#DHEBREW@ 1 TSH 5600",
                "@#DJULIAN@ 1 JAN 1700"],
)
def test_3_dates_in_other_calendars_and_bce_are_grounded_by_what_is_written(written) -> None:
    from sleuth.extract.dates import parse_date

    gd = parse_date(written)
    assert gd is not None
    text = f"1 BIRT\n2 DATE {written}\n"
    start = text.index("1 BIRT")
    ok = Candidate(subject="p1", subject_name=None, field="birth_date", value=gd.iso(),
                   date=gd, confidence=0.9,
                   citation=Citation(snapshot_id="g", excerpt=text.strip(),
                                     locator=Locator(start=start, end=len(text.strip()))))
    assert check_candidate(ok, {"g": Source.of(text, None)}) == []
    elsewhere = "1 BIRT\n2 DATE 1 JAN 1790\n"
    moved = ok.model_copy(update={"citation": Citation(
        snapshot_id="h", excerpt=elsewhere.strip(),
        locator=Locator(start=0, end=len(elsewhere.strip())))})
    assert "no_invented_dates" in {
        v.check for v in check_candidate(moved, {"h": Source.of(elsewhere, None)})
    }
