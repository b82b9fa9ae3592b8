"""Ranking competing values: one value with several citations, copies counted once, an
original record over a user tree, corroboration across events, and the reasons in words.

The witnesses are what `gps.adjudicate.pooled_claims` builds from stored citations; the case
is world 7's Emma Edith Whitfield (born 14 August 1835, baptised 9 September 1835), whose
WikiTree profile, copied into five API responses, says 1845.
"""

from __future__ import annotations

from sleuth.gps.adjudicate import adjudicate, statuses_of
from sleuth.gps.ranking import Claim, Witness, rank
from sleuth.model import AssertionStatus, EvidenceType, GenDate, Tier
from sleuth.model.evidence import InformationClass, SourceClass

TREE = Witness(0.288, SourceClass.AUTHORED, InformationClass.UNDETERMINED,
               frozenset({"wikitree:Whitfield-35", "compiled"}),
               "the WikiTree profile Whitfield-35")
MEMORIAL = Witness(0.4536, SourceClass.DERIVATIVE, InformationClass.SECONDARY,
                   frozenset({"memorial:1000234"}), "the Find a Grave memorial 1000234")
REGISTER = Witness(0.72, SourceClass.DERIVATIVE, InformationClass.PRIMARY,
                   frozenset({"snapshot:freereg-1"}),
                   "the St Senara (Zennor) baptism register (FreeREG transcription)")


def _day(aid: str, y: int, m: int, d: int, *ws: Witness) -> Claim:
    return Claim(aid, f"{y}-{m:02d}-{d:02d}", GenDate.from_parts(y, m, d),
                 EvidenceType.SECONDARY, Tier.TIER0, 0.9, ws)


def _tree_copies(value: tuple[int, int, int]) -> list[Claim]:
    """Five API responses, each carrying the same profile: five claims, one source."""
    return [_day(f"wt{i}", *value, TREE) for i in range(5)]


def test_an_original_record_outweighs_any_number_of_tree_copies() -> None:
    claims = [*_tree_copies((1845, 8, 14)), _day("fag", 1835, 8, 14, MEMORIAL)]
    r = rank("birth_date", claims)
    assert r is not None and r.winner.words == "14 August 1835" and not r.tentative
    [tree] = r.rivals
    assert len(tree.claims) == 5 and len(tree.own) == 1  # five copies, one witness
    assert "14 August 1845 comes only from the WikiTree profile Whitfield-35 (5 copies, " \
           "counted once), a user-contributed tree" in r.rationale
    assert "carries the highest weight" not in r.rationale


def test_identical_values_are_ranked_once_and_agreeing_values_are_not_conflicting() -> None:
    claims = [_day("a", 1926, 5, 23, REGISTER), _day("b", 1926, 5, 23, MEMORIAL),
              Claim("y", "1926", GenDate.from_parts(1926), EvidenceType.AUTHORED, Tier.TIER0,
                    0.9, (TREE,)),
              _day("c", 1927, 5, 23, TREE)]
    c = adjudicate("p", "Ann Rebecca Stroud", "death_date", claims)
    assert c is not None
    values = [rc.value for rc in c.competing]
    assert sorted(values) == ["1926", "1926-05-23", "1927-05-23"]  # each value once
    day = next(rc for rc in c.competing if rc.value == "1926-05-23")
    assert day.rank == 1 and day.assertion_ids == ["a", "b"]
    status = statuses_of(c)
    assert status["a"] == status["b"] == status["y"] == AssertionStatus.PROMOTED
    assert status["c"] is AssertionStatus.CONFLICTING
    year = next(rc for rc in c.competing if rc.value == "1926")
    assert year.agrees


def test_a_tie_is_broken_by_the_baptism_and_a_birth_after_it_is_impossible() -> None:
    # equal weight: the same kind of source on both sides
    other = Witness(MEMORIAL.weight, MEMORIAL.source, MEMORIAL.information,
                    frozenset({"memorial:999"}), "the Find a Grave memorial 999")
    claims = [_day("x", 1845, 8, 14, other), _day("y", 1835, 8, 14, MEMORIAL)]
    baptism = [Claim("bap", "1835-09-09", GenDate.from_parts(1835, 9, 9), EvidenceType.PRIMARY,
                     Tier.TIER0, 0.95, (REGISTER,))]
    assert rank("birth_date", claims).tentative  # without the baptism: a coin toss
    r = rank("birth_date", claims, {"baptism_date": baptism})
    assert r is not None and r.winner.words == "14 August 1835" and not r.tentative
    assert "it fits the baptism of 9 September 1835 recorded in the St Senara (Zennor) " \
           "baptism register" in r.rationale
    assert "falls after the baptism of 9 September 1835" in r.rationale
    assert "which is impossible" in r.rationale


def test_places_that_name_each_other_do_not_conflict() -> None:
    a = Claim("a", "Zennor, Cornwall, Cornwall", None, EvidenceType.SECONDARY, Tier.TIER0, 0.9,
              (MEMORIAL,))
    b = Claim("b", "Zennor, Cornwall, England", None, EvidenceType.AUTHORED, Tier.TIER0, 0.9,
              (TREE,))
    c = Claim("c", "Madron, Cornwall", None, EvidenceType.AUTHORED, Tier.TIER0, 0.9, (TREE,))
    assert rank("death_place", [a, b]) is None
    r = rank("death_place", [a, b, c])
    assert r is not None and r.winner.text.startswith("Zennor")


def test_only_trees_on_both_sides_is_tentative_and_says_so() -> None:
    fs = Witness(0.36, SourceClass.AUTHORED, InformationClass.UNDETERMINED,
                 frozenset({"ark:1:1:X", "compiled"}), "the FamilySearch Family Tree")
    r = rank("birth_date", [_day("a", 1846, 1, 22, fs), _day("b", 1847, 1, 22, TREE)])
    assert r is not None and r.tentative
    assert "No record supports either value yet" in r.rationale


def test_ranking_does_not_depend_on_input_order() -> None:
    claims = [*_tree_copies((1845, 8, 14)), _day("fag", 1835, 8, 14, MEMORIAL),
              _day("z", 1835, 8, 14, TREE)]
    first = adjudicate("p", "Emma", "birth_date", claims)
    again = adjudicate("p", "Emma", "birth_date", list(reversed(claims)))
    assert first == again


def test_a_lone_birth_after_a_recorded_baptism_is_an_unresolved_conflict() -> None:
    """World 7 when the memorial is not yet found: the tree's 1845 is the only birth date,
    and the register baptised her in 1835. Not a silent fact: a tentative conflict."""
    baptism = [Claim("bap", "1835-09-09", GenDate.from_parts(1835, 9, 9), EvidenceType.PRIMARY,
                     Tier.TIER0, 0.95, (REGISTER,))]
    c = adjudicate("p", "Emma Edith Garside", "birth_date", _tree_copies((1845, 8, 14)),
                   {"baptism_date": baptism})
    assert c is not None and c.is_tentative and len(c.competing) == 1
    assert "14 August 1845 is the only value on file" in c.rationale
    assert "falls after the baptism of 9 September 1835" in c.rationale
    assert set(statuses_of(c).values()) == {AssertionStatus.TENTATIVE}
    # a baptism a month after the birth raises nothing
    assert adjudicate("p", "Emma", "birth_date", [_day("ok", 1835, 8, 14, TREE)],
                      {"baptism_date": baptism}) is None


def test_a_burial_place_named_by_its_church_or_its_parish_is_one_place() -> None:
    """"St Senara Churchyard" (a memorial) and "St Senara, Zennor" (the register) agree;
    two cemeteries of one town do not."""
    from sleuth.gps.ranking import Value, compatible, value_key

    def value(text: str) -> Value:
        key, tokens = value_key("burial_place", text, None)
        return Value(key, [], None, tokens, text)

    assert compatible(value("St Senara Churchyard"), value("St Senara, Zennor"))
    assert compatible(value("Greenlawn Cemetery"), value("Greenlawn Cemetery, Springfield"))
    assert not compatible(value("Greenlawn Cemetery"), value("Woodland Cemetery"))


BURIAL_REG = Witness(0.45, SourceClass.DERIVATIVE, InformationClass.SECONDARY,
                     frozenset({"snapshot:freereg-2"}),
                     "the St Senara (Zennor) burial register (FreeREG transcription)")


def _age(years: int) -> list[Claim]:
    return [Claim("age", str(years), None, EvidenceType.SECONDARY, Tier.TIER0, 0.85,
                  (BURIAL_REG,))]


def test_an_age_at_death_the_dates_do_not_give_is_a_conflict() -> None:
    """World 7's Alfred Pell: born 10 Nov 1745 and died 5 Dec 1812 (his tree), buried
    "aged 68" (the register): he was 67. The age used to fit births silently or not at all."""
    death = [_day("d", 1812, 12, 5, TREE)]
    c = adjudicate("p", "Alfred Pell", "birth_date", [_day("b", 1745, 11, 10, TREE)],
                   {"age_at_death": _age(68), "death_date": death})
    assert c is not None and c.is_tentative and len(c.competing) == 1
    assert ("the age at death, 68, in the St Senara (Zennor) burial register (FreeREG "
            "transcription), with the death on 5 December 1812, puts the birth between "
            "6 December 1743 and 5 December 1744") in c.rationale
    assert "10 November 1745 is the only value on file" in c.rationale
    # the age the dates give fits, silently; a year-only birth leaves the age its tolerance
    for born, age in (((1745, 11, 10), 67), ((1744, 12, 5), 68), ((1743, 12, 6), 68)):
        assert adjudicate("p", "Alfred Pell", "birth_date", [_day("b", *born, TREE)],
                          {"age_at_death": _age(age), "death_date": death}) is None
    year = Claim("b", "1745", GenDate.from_parts(1745), EvidenceType.AUTHORED, Tier.TIER0, 0.9,
                 (TREE,))
    assert adjudicate("p", "Alfred Pell", "birth_date", [year],
                      {"age_at_death": _age(66), "death_date": death}) is None
    # with a rival, the winner that the age does not fit says so
    r = rank("birth_date", [_day("b", 1745, 11, 10, REGISTER), _day("x", 1760, 1, 1, TREE)],
             {"age_at_death": _age(68), "death_date": death})
    assert r is not None and r.winner.words == "10 November 1745"
    assert "; but the age at death, 68," in r.rationale
