"""Data-quality checks on real trees: findings verified by reading the GEDCOM lines."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest

from shared_data import shared_path
from sleuth.extract.dates import parse_date
from sleuth.model.dates import GenDate
from sleuth.model.graph import CaseGraph
from sleuth.quality import Finding, Span, check_gedcom, check_graph, finding_to_hypothesis
from sleuth.quality.rules import RULES, before, gap_over

TODAY = date(2026, 11, 22)


def _gedcom(*parts: str) -> Path:
    return shared_path("gedcom", *parts)


@pytest.fixture(scope="module")
def royal() -> list[Finding]:
    return check_gedcom(_gedcom("samples", "royal92.ged"), today=TODAY)[1]


def _find(findings: list[Finding], rule: str, person: str) -> list[Finding]:
    return [f for f in findings if f.rule == rule and person in f.people]


def span(text: str) -> Span:
    s = Span.of(parse_date(text))
    assert s is not None
    return s


def test_ranges_give_certain_possible_or_nothing() -> None:
    assert before(span("1906"), span("1941")) == "certain"
    # 27 MAR 1819 lies inside "1819": never certain, and the middle of 1819 is no estimate
    # of a day the other date already places in that year, so not even possible (issue 19)
    assert before(span("27 MAR 1819"), span("1819")) is None
    assert before(span("1819"), span("27 MAR 1819")) is None
    assert before(span("1818"), span("27 MAR 1819")) == "certain"
    # "abt" widens the certain bounds: two years apart is not proof ...
    assert before(span("1849"), span("ABT 1851")) == "possible"
    # ... but twenty years is
    assert before(span("1830"), span("ABT 1851")) == "certain"
    # an open end proves through its one bound, never suggests
    assert before(span("BEF 1800"), span("1850")) == "certain"
    assert before(span("AFT 1800"), span("1850")) is None
    assert gap_over(span("1 JAN 1800"), span("2 JAN 1891"), 90 * 365.2425) == "certain"


def test_royal92_death_before_birth_is_certain(royal: list[Finding]) -> None:
    # 0 @I2948@ INDI / 1 NAME Henry /Brand/ / BIRT DATE 1941 / DEAT DATE 1906
    [f] = _find(royal, "death_before_birth", "I2948")
    assert f.severity == "error" and f.source == "gramps"
    values = {e["field"]: e["value"] for e in f.evidence}
    assert values == {"death": "1906", "birth": "1941"}
    # the same typo makes him his father's ... son born when the father was 127
    assert _find(royal, "father_over_100", "I2948")[0].severity == "error"


def test_uncertain_dates_do_not_give_certain_findings(royal: list[Finding]) -> None:
    # @I220@ Charlotte Augusta Louisa: BIRT DATE 1819, DEAT DATE 27 MAR 1819 -> could be fine,
    # and the death day lies inside the birth year: no finding either way
    assert not _find(royal, "death_before_birth", "I220")
    assert all(f.severity == "possible" for f in royal if "I220" in f.people
               and RULES[f.rule].severity == "error")
    # @I1414@ Isabella of France: DEAT 13 SEP 1409, BURI ABT 1624 - late for every value
    [late] = _find(royal, "burial_too_late", "I1414")
    assert late.severity == "warning"


def test_royal92_matches_gramps_where_the_rule_is_the_same(royal: list[Finding]) -> None:
    # Gramps 6.0.8 verify on royal92: 17 "Birth date equals death date", 13 "Unknown gender",
    # 6 "Married often", 3 "Disconnected individual", 3 same-surname couples
    counts: dict[str, int] = {}
    for f in royal:
        counts[f.rule] = counts.get(f.rule, 0) + 1
    assert counts["birth_equals_death"] == 17
    assert counts["unknown_gender"] == 13
    assert counts["married_often"] == 6
    assert counts["disconnected"] == 3
    assert counts["same_surname_family"] == 3


def test_living_people_show_decades_only(royal: list[Finding]) -> None:
    # @I52@ Elizabeth II, BIRT DATE 21 APR 1926, no death in the 1992 file: living for us;
    # her dates are shown as the Censor shows a living person's everywhere (issue 26)
    [f] = _find(royal, "old_age_no_death", "I52")
    assert f.evidence[0]["value"] == "1920s"
    text = json.dumps([x.to_json() for x in royal])
    assert "21 APR 1926" not in text


def test_pres2020_death_before_baptism() -> None:
    # @I362@ John Bowne: DEAT 1683, BAPM 25 APR 1685
    _, found = check_gedcom(_gedcom("samples", "pres2020.ged"), today=TODAY, only=["gramps"])
    [f] = _find(found, "death_before_baptism", "I362")
    assert f.severity == "error"
    assert {e["value"] for e in f.evidence} == {"1683", "25 APR 1685"}


def test_kennedy_record_order_is_a_note_not_an_error() -> None:
    # kennedy.ged lists Georgeanne Skakel (b. before 1928) after Ethel (b. 1928), and many
    # a DEAT before the CHR: the order a file writes its records in is no error (issue 19)
    _, found = check_gedcom(_gedcom("samples", "kennedy.ged"), today=TODAY)
    [f] = [x for x in found if x.rule == "children_out_of_order"]
    assert f.family == "F66" and f.people == ("I185", "I187") and f.severity == "note"
    order = [x for x in found if x.rule.endswith("_out_of_order")]
    assert len(order) > 20 and {x.severity for x in order} == {"note"}
    assert not [x for x in found if x.severity == "error"]


def test_gramps_example_has_its_deliberate_errors() -> None:
    _, found = check_gedcom(_gedcom("gramps", "example.ged"), today=TODAY)
    # I0093 Alfred Franklin (Frank) Marín: BURI 27 DEC 1860, DEAT 25 DEC 1864
    [f] = _find(found, "burial_before_death", "I0093")
    assert {e["value"] for e in f.evidence} == {"27 DEC 1860", "25 DEC 1864"}
    assert _find(found, "burial_before_death", "I1344")
    assert {"familysearch", "wikitree", "gramps"} <= {x.source for x in found}


def test_findings_are_json_and_become_hypotheses(royal: list[Finding]) -> None:
    f = _find(royal, "death_before_birth", "I2948")[0]
    row = json.loads(json.dumps(f.to_json()))
    assert {"rule", "severity", "people", "message", "source", "evidence", "threshold"} <= set(row)
    h = finding_to_hypothesis(f)
    assert h.is_fact is False and h.target_person == "I2948"
    assert h.hypothesis_type == "data_quality:death_before_birth"
    assert any("Henry Brand" in q for q in h.suggested_queries)
    lead = finding_to_hypothesis(Finding("unknown_gender", "possible", ("I1",), "x"))
    assert h.priority > lead.priority and lead.suggested_queries


def test_case_findings_go_through_the_censor(family: CaseGraph) -> None:
    g = family.model_copy(deep=True)
    thomas, emma = g.person("thomas"), g.person("emma")
    assert thomas and emma
    thomas.death = GenDate.from_parts(1901, 1, 5)
    emma.birth = GenDate.from_parts(1940, 5, 12)  # her father Robert was born 1935
    for a in g.assertions.get("emma", []):
        if a.field_name == "birth_date":
            a.date = emma.birth
    _, found = check_graph(g, today=TODAY)
    assert _find(found, "death_before_birth", "thomas")[0].severity == "error"
    young = _find(found, "young_father", "robert")
    # the Censor leaves her the (estimated) decade 1940s: a lead, no longer a proof
    assert young and young[0].severity == "possible"
    text = json.dumps([f.to_json() for f in found])
    assert "1940-05" not in text and "12 May 1940" not in text and '"1940s"' in text


# -- the command line ------------------------------------------------------------------------
def test_cli_check_gedcom_json_and_errors(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from sleuth.cli.app import app

    runner = CliRunner()
    res = runner.invoke(app, ["check", "--help"])
    assert res.exit_code == 0 and "Usage" in res.stdout
    ged = _gedcom("samples", "kennedy.ged")
    res = runner.invoke(app, ["check", str(ged), "--format", "json"])
    assert res.exit_code == 0
    rows = [json.loads(line) for line in res.stdout.splitlines()]
    assert rows and all({"rule", "severity", "people", "message"} <= set(r) for r in rows)
    assert not any(r["rule"] == "children_out_of_order" for r in rows)  # a note: hidden
    res = runner.invoke(app, ["check", str(ged), "--format", "json", "--min-severity", "note"])
    rows = [json.loads(line) for line in res.stdout.splitlines()]
    assert any(r["rule"] == "children_out_of_order" and r["people"] == ["I185", "I187"]
               and r["severity"] == "note" for r in rows)
    res = runner.invoke(app, ["check", str(ged), "--min-severity", "error"])
    assert res.exit_code == 0 and "children_out_of_order" not in res.stdout
    res = runner.invoke(app, ["check", str(tmp_path / "nope.ged")])
    assert res.exit_code == 2 and "nope.ged" in res.stderr and "no such file" in res.stderr
    bad = tmp_path / "bad.ged"
    bad.write_text("hello\n")
    res = runner.invoke(app, ["check", str(bad)])
    assert res.exit_code == 2 and "bad.ged:1" in res.stderr
    res = runner.invoke(app, ["check", str(ged), "--rules", "nosuch"])
    assert res.exit_code == 2 and "--rules" in res.stderr


def test_cli_check_case(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from sleuth.cli.app import app

    runner = CliRunner()
    case = tmp_path / "case"
    assert runner.invoke(app, ["init", str(case)]).exit_code == 0
    ged = _gedcom("samples", "bronte.ged")
    assert runner.invoke(app, ["ingest", str(case), str(ged)]).exit_code == 0
    res = runner.invoke(app, ["check", str(case), "--format", "json"])
    assert res.exit_code == 0
    for line in res.stdout.splitlines():
        assert json.loads(line)["severity"] in ("error", "warning", "possible")


# -- rough edges of issue 19 -------------------------------------------------------------------
_TREE = """0 HEAD
1 CHAR UTF-8
0 @I1@ INDI
1 NAME Albert /Drable/
1 SEX M
1 DEAT
2 DATE {death}
1 BURI
2 DATE {burial}
0 TRLR
"""


@pytest.mark.parametrize(("death", "burial", "expected"), [
    ("1847", "1 SEP 1847", None),  # any day of 1847 up to 18 Aug fits: nothing to say
    ("1847", "20 JAN 1847", None),
    ("1 JAN 1847", "1 SEP 1847", "warning"),  # late for every value
    ("1846", "1 SEP 1847", "warning"),
    ("1847", "JAN 1848", "possible"),  # late unless he died in the last days of 1847
])
def test_burial_too_late_only_when_the_dates_say_so(tmp_path: Path, death: str, burial: str,
                                                     expected: str | None) -> None:
    ged = tmp_path / "t.ged"
    ged.write_text(_TREE.format(death=death, burial=burial), encoding="utf-8")
    _, found = check_gedcom(ged, today=TODAY)
    late = _find(found, "burial_too_late", "I1")
    assert [f.severity for f in late] == ([expected] if expected else [])


def test_a_sex_the_case_states_is_not_unknown(family: CaseGraph) -> None:
    # A merged person's row may say "U" while the records merged into them state the sex:
    # the report shows it, so the check must not call it unknown (issue 19).
    g = family.model_copy(deep=True)
    emma = g.person("emma")
    assert emma is not None
    emma.sex = "U"
    claims = g.assertions.setdefault("emma", [])
    cited = next(a for a in claims if a.citations)
    _, found = check_graph(g, today=TODAY)
    assert _find(found, "unknown_gender", "emma")
    claims.append(cited.model_copy(update={"id": "emma-sex", "field_name": "sex", "value": "F",
                                           "date": None}))
    _, found = check_graph(g, today=TODAY)
    assert not _find(found, "unknown_gender", "emma")
    claims.append(cited.model_copy(update={"id": "emma-sex2", "field_name": "sex",
                                           "value": "M", "date": None}))
    _, found = check_graph(g, today=TODAY)  # records that disagree leave it unknown
    assert _find(found, "unknown_gender", "emma")


_COUPLE = """0 HEAD
1 GEDC
2 VERS 5.5.1
1 CHAR UTF-8
0 @I1@ INDI
1 NAME Stephen /Stroud/
1 SEX M
1 FAMS @F1@
0 @I2@ INDI
1 NAME Harriet /Stroud/
{names}1 SEX F
1 FAMS @F1@
0 @F1@ FAM
1 HUSB @I1@
1 WIFE @I2@
0 TRLR
"""


@pytest.mark.parametrize(("names", "flagged"), [
    ("", True),  # one NAME, of no type: Gramps' rule as it was
    ("2 TYPE married\n1 NAME Harriet /Pell/\n2 TYPE birth\n", False),  # née Pell
    ("2 TYPE married\n", False),  # a married name, her birth surname unknown
    ("1 NAME Harriet /Stroud/\n2 TYPE maiden\n", True),  # born a Stroud: cousins, say
])
def test_same_surname_compares_birth_surnames(tmp_path: Path, names: str,
                                              flagged: bool) -> None:
    # our export wrote "Harriet /Stroud/ TYPE married, Harriet /Pell/ TYPE birth" and check
    # warned "Husband and wife with the same surname: Stephen Stroud, Harriet Stroud"
    ged = tmp_path / "t.ged"
    ged.write_text(_COUPLE.format(names=names), encoding="utf-8")
    _, found = check_gedcom(ged, today=TODAY)
    assert bool(_find(found, "same_surname_family", "I1")) is flagged
