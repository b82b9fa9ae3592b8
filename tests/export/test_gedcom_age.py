"""An age at death goes out as GEDCOM's own `DEAT` / `AGE`, cited, in 5.5.1 and 7.0.

Robert Whitfield's obituary says "Robert Whitfield, 75, of Springfield died January 9,
2011": his age at death was a `NOTE age at death: 75` beside his DEAT, which no genealogy
program reads as an age. Now it is `2 AGE 75y` under that DEAT, with the obituary's
citation (SOUR, PAGE, DATA/TEXT) beneath; a second, differing age keeps its own DEAT and
source; a living person's stated age is withheld by the Censor and appears nowhere.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path
from types import ModuleType

import pytest

from case_builder import ingested_graph
from shared_data import shared_path
from sleuth.export import to_gedcom
from sleuth.gedcom import Node, parse_gedcom
from sleuth.model import CaseGraph

GRAVE = "Robert Whitfield 1935-2011, aged 76 years."


def _with_ages(fam: ModuleType, *, second: bool = False, living_age: bool = False) -> CaseGraph:
    g: CaseGraph = fam.build_family()
    obit = g.snapshots["s-obit"]
    g.assertions["robert"].append(fam.claim("a-r-age", "robert", "age_at_death", "75", obit,
                                            "Robert Whitfield, 75", confidence=0.9))
    if second:
        grave = fam.snap("s-grave", "Memorial", GRAVE, url="https://example.org/m/2011")
        g.snapshots[grave.id] = grave
        g.assertions["robert"].append(fam.claim("a-r-age2", "robert", "age_at_death", "76",
                                                grave, "aged 76", confidence=0.6))
    if living_age:  # a record wrongly merged into a person known to be living
        emma = next(p for p in g.persons if p.id == "emma")
        emma.is_living = True
        g.assertions["emma"].append(fam.claim("a-e-age", "emma", "age_at_death", "34", obit,
                                              "Robert Whitfield, 75"))
    return g


def _indi(text: str, name: str) -> Node:
    ged = parse_gedcom(text)
    assert ged.problems == []
    return next(r for r in ged.of_tag("INDI") if name in (r.value_of("NAME") or ""))


def _validate7(text: str) -> None:
    gedcom7 = pytest.importorskip("gedcom7", reason="pip install gedcom7==1.2.0 (bench extra)")
    errors = gedcom7.validate(gedcom7.loads(text))
    assert errors == [], [(e.category, e.path, e.message) for e in errors[:5]]


@pytest.mark.parametrize("version", ["5.5.1", "7.0"])
def test_a_stated_age_is_an_age_under_the_death_with_its_citation(fam: ModuleType,
                                                                  version: str) -> None:
    text = to_gedcom(_with_ages(fam), version=version, today=fam.TODAY)
    robert = _indi(text, "Robert")
    (death,) = robert.all("DEAT")
    assert (death.value_of("DATE"), death.value_of("AGE")) == ("9 JAN 2011", "75y")
    cited = {c.first("DATA").value_of("TEXT"): c for c in death.all("SOUR")}  # type: ignore[union-attr]
    assert set(cited) == {"died January 9, 2011", "Robert Whitfield, 75"}
    of_age = cited["Robert Whitfield, 75"]
    assert of_age.value_of("PAGE").startswith("chars ")  # type: ignore[union-attr]
    assert any(n.value.startswith("sleuth age at death = 75;") for n in of_age.all("NOTE"))
    assert not any("age at death" in n.value for n in robert.all("NOTE"))
    if version == "7.0":
        _validate7(text)


@pytest.mark.parametrize("version", ["5.5.1", "7.0"])
def test_two_differing_ages_are_two_deaths_each_with_its_source(fam: ModuleType,
                                                                version: str) -> None:
    text = to_gedcom(_with_ages(fam, second=True), version=version, today=fam.TODAY)
    first, other = _indi(text, "Robert").all("DEAT")
    assert (first.value_of("DATE"), first.value_of("AGE")) == ("9 JAN 2011", "75y")
    assert (other.value, other.value_of("DATE"), other.value_of("AGE")) == ("Y", None, "76y")
    (cite,) = other.all("SOUR")
    assert cite.first("DATA").value_of("TEXT") == "aged 76"  # type: ignore[union-attr]
    assert any("Alternative claim" in n.value for n in other.all("NOTE"))
    if version == "7.0":
        _validate7(text)


@pytest.mark.parametrize("version", ["5.5.1", "7.0"])
def test_a_living_persons_age_is_withheld(fam: ModuleType, version: str) -> None:
    text = to_gedcom(_with_ages(fam, living_age=True), version=version, today=fam.TODAY)
    emma = _indi(text, "Emma")
    assert emma.value_of("RESN") in ("privacy", "PRIVACY")
    assert not emma.all("DEAT") and "34" not in "\n".join(
        f"{n.tag} {n.value}" for n in emma.walk())
    assert _indi(text, "Robert").first("DEAT").value_of("AGE") == "75y"  # type: ignore[union-attr]


def test_a_burial_registers_age_is_a_death_age_in_the_export(tmp_path: Path) -> None:
    """Real rows of the Landcross burial register (FreeREG): "CRANG, 80" buried 1807."""
    rows = shared_path("text", "freeukgen", "freereg1_csvs__Devonian__DEVLANBU.CSV")
    lines = rows.read_text(encoding="utf-8").splitlines()
    cut = tmp_path / "DEVLANBU.CSV"  # its header and Michael Crang's and a John Frost's rows
    cut.write_text("\n".join(lines[:4] + [ln for ln in lines if ",CRANG,80," in ln
                                          or ",FROST,45," in ln]) + "\n", encoding="utf-8")
    graph = ingested_graph(tmp_path / "case", cut)
    for version in ("5.5.1", "7.0"):
        text = to_gedcom(graph, version=version, today=date(2026, 11, 22))
        michael = _indi(text, "Michael /CRANG/")
        (death,) = michael.all("DEAT")
        assert (death.value, death.value_of("AGE")) == ("Y", "80y")
        (cite,) = death.all("SOUR")
        assert cite.first("DATA").value_of("TEXT") == (  # type: ignore[union-attr]
            "DEV,Landcross,Holy Trinity PR,,1 Sep 1807,Michael,,,,,CRANG,80,,")
        assert michael.first("BURI").value_of("DATE") == "1 SEP 1807"  # type: ignore[union-attr]
        if version == "7.0":
            _validate7(text)
