"""Deaths an obituary tells in passing (issue 20, dates recall): children listed with the
years they died, and the subject's wife told by her role. Sentences as the Barre Daily Times
(1916-12-01) and the Denison Review (1916-10-18) print them; every extraction passes the
firewall (`prose_facts`)."""

from __future__ import annotations

from prose_facts import prose_facts

from sleuth.model.dates import GenDate

REF = GenDate.from_parts(1916, 12, 1)

_GALE = ("Burton Bontwell Gale died at his home, 5 Edward street, in Montpelier yesterday, "
         "after a long illness. Four children survive, as follows: Pliny X. Gale, Kenneth B. "
         "Gale and Julian Gale of Montpelier, and Allan Gale of Barre. ")


def test_children_listed_with_the_years_they_died() -> None:
    f = prose_facts(_GALE + "Two children died. Adeline in 1912. and\nEllin in 1908. "
                    "Surviving also are three sisters.", REF, related=True)
    assert {("Adeline", "1912"), ("Ellin", "1908")} <= f["death_date"]
    assert {("Burton Bontwell Gale", "Adeline"), ("Burton Bontwell Gale", "Ellin")} <= f["child"]


def test_a_list_of_the_living_gives_no_death() -> None:
    f = prose_facts(_GALE + "Two children survive. Adeline in Barre and Ellin in Boston.", REF)
    assert "death_date" not in f or not any(s in ("Adeline", "Ellin") for s, _ in f["death_date"])


_BENSON = ("Ben N. Benson, our townsman, died on Friday, October 6th. Ben N. Benson was born "
           "June 10, 1838, in Onestad, Sweden. At the age of 21 he was married to Celia Hanson. ")


def test_a_son_named_after_those_who_passed_away() -> None:
    f = prose_facts(_BENSON + "To this union seven children were born, two passing away in "
                    "infancy in Sweden, and a son, Frank, in Kiron in 1885.", REF, related=True)
    assert ("Frank", "1885") in f["death_date"]
    assert ("Ben N. Benson", "Frank") in f["child"]


def test_the_mother_of_this_family_is_his_wife_named_before() -> None:
    f = prose_facts(_BENSON + "The mother of this family passed away in January, 1875. In "
                    "1876 Mr. Benson married Mrs. William Linquist.", REF)
    assert ("Celia Hanson", "1875-01") in f["death_date"]
    assert not any(s == "Ben N. Benson" and v == "1875-01" for s, v in f["death_date"])


def test_her_mother_is_no_wife_of_his() -> None:
    f = prose_facts(_BENSON + "Her mother died in January, 1875.", REF)
    assert ("Celia Hanson", "1875-01") not in f.get("death_date", set())
