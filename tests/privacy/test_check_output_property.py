"""Property (issue 26, privacy gaps): whatever the family tree, `sleuth check FILE.ged` prints
no year of a living person's life (birth, their marriages) in any finding - only its decade -
and none of their address, postal code, phone or e-mail; nor does `sleuth check CASE` once
the file is stored. Was: `sleuth check living.ged` printed living people's birth years
(1952, 1935) and a 2005 marriage year.

The trees mix the certainly living (born since 1960, no death recorded) with the certainly
dead (a death recorded), and their dates are drawn so that findings fire (births after
deaths, marriages before births, parents of nine). `SLEUTH_PRIVACY_EXAMPLES` sets the number
of trees (default 40).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from sleuth.cli.app import app
from sleuth.pipeline.ingest import ingest_path
from sleuth.store import Store

EXAMPLES = int(os.environ.get("SLEUTH_PRIVACY_EXAMPLES", "40"))
MONTHS = ("JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC")
runner = CliRunner()

day = st.tuples(st.integers(1, 28), st.sampled_from(MONTHS))
living_person = st.fixed_dictionaries({"born": st.integers(1960, 2020), "day": day,
                                       "contact": st.booleans()})
dead_person = st.fixed_dictionaries({"born": st.integers(1780, 1990), "day": day,
                                     "died": st.integers(1780, 2024)})


def _date(d: tuple[int, str], year: int) -> str:
    return f"{d[0]} {d[1]} {year}"


@st.composite
def trees(draw: st.DrawFn) -> tuple[str, dict[int, list[str]], set[str]]:
    """(GEDCOM text, person -> their secrets when living, every year printed for the dead)."""
    people = draw(st.lists(st.one_of(living_person, dead_person), min_size=2, max_size=6))
    lines = ["0 HEAD", "1 GEDC", "2 VERS 5.5.1", "1 CHAR UTF-8"]
    secrets: dict[int, list[str]] = {}
    public: set[str] = set()
    for i, p in enumerate(people):
        living = "died" not in p
        lines += [f"0 @I{i}@ INDI", f"1 NAME Person{i} /Fam/", "1 BIRT",
                  f"2 DATE {_date(p['day'], p['born'])}"]
        if living:
            secrets[i] = [_date(p["day"], p["born"]), str(p["born"])]
            if p["contact"]:
                lines += ["1 RESI", f"2 ADDR {100 + i} Quarry Lane", f"3 POST 627{i:02d}",
                          f"2 PHON 555-01{i:02d}", f"2 EMAIL person{i}@example.org"]
                secrets[i] += [f"{100 + i} Quarry Lane", f"627{i:02d}", f"555-01{i:02d}",
                               f"person{i}@example.org"]
        else:
            lines += ["1 DEAT", f"2 DATE {_date(p['day'], p['died'])}"]
            public |= {str(p["born"]), str(p["died"]), _date(p["day"], p["born"]),
                       _date(p["day"], p["died"])}
    for f, (a, b) in enumerate(draw(st.lists(st.tuples(st.integers(0, len(people) - 1),
                                                       st.integers(0, len(people) - 1)),
                                             max_size=3))):
        if a == b:
            continue
        year, when = draw(st.integers(1790, 2024)), draw(day)
        lines += [f"0 @F{f}@ FAM", f"1 HUSB @I{a}@", f"1 WIFE @I{b}@", "1 MARR",
                  f"2 DATE {_date(when, year)}"]
        lines += [f"1 CHIL @I{c}@" for c in draw(st.lists(st.integers(0, len(people) - 1),
                                                          max_size=9)) if c not in (a, b)]
        couple = [x for x in (a, b) if x in secrets]
        for x in couple:
            secrets[x] += [str(year), _date(when, year)]
        if not couple:
            public |= {str(year), _date(when, year)}
    lines.append("0 TRLR")
    return "\n".join(lines) + "\n", secrets, public


def _leaks(output: str, secrets: dict[int, list[str]], public: set[str]) -> list[str]:
    out = []
    for who, items in secrets.items():
        for s in items:
            if s in public:  # the same year is also a dead person's: printed for them
                continue
            if re.search(rf"(?<![\w-]){re.escape(s)}(?![\w-])", output):
                out.append(f"I{who}: {s}")
    return out


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("check-property")


@settings(max_examples=EXAMPLES, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(tree=trees())
def test_check_on_a_file_prints_no_year_of_the_living(
    folder: Path, tree: tuple[str, dict[int, list[str]], set[str]]
) -> None:
    text, secrets, public = tree
    path = folder / "tree.ged"
    path.write_text(text)
    for fmt in ("json", "text"):
        res = runner.invoke(app, ["check", str(path), "--format", fmt, "--min-severity",
                                  "note"], env={"COLUMNS": "400"})
        assert res.exit_code == 0, res.output
        assert _leaks(res.output, secrets, public) == [], res.output


def test_check_on_a_case_prints_no_year_of_the_living(tmp_path: Path) -> None:
    """The issue's own file, stored: a living couple married in 2005, born 1952 and 1935."""
    tree = tmp_path / "living.ged"
    tree.write_text("0 HEAD\n1 GEDC\n2 VERS 5.5.1\n1 CHAR UTF-8\n"
                    "0 @I1@ INDI\n1 NAME John /Living/\n1 BIRT\n2 DATE 12 MAR 1952\n1 FAMS @F1@\n"
                    "1 RESI\n2 ADDR 12 Quarry Lane\n3 POST IL 62704\n"
                    "0 @I2@ INDI\n1 NAME Ruth /Living/\n1 BIRT\n2 DATE 3 APR 1935\n1 FAMS @F1@\n"
                    "0 @I3@ INDI\n1 NAME Amy /Living/\n1 BIRT\n2 DATE 1 JAN 1930\n1 FAMC @F1@\n"
                    "0 @F1@ FAM\n1 HUSB @I1@\n1 WIFE @I2@\n1 CHIL @I3@\n1 MARR\n"
                    "2 DATE 5 JUN 2005\n2 PLAC 12 Quarry Lane, Springfield, IL 62704\n0 TRLR\n")
    secrets = {1: ["1952", "2005", "Quarry", "62704"], 2: ["1935", "2005"], 3: ["1930"]}
    res = runner.invoke(app, ["check", str(tree), "--min-severity", "note"],
                        env={"COLUMNS": "400"})
    assert res.exit_code == 0 and "birth" in res.output  # findings, with dates in them
    assert _leaks(res.output, secrets, set()) == [], res.output
    store = Store.create_case(tmp_path / "case")
    try:
        ingest_path(store, tree)
    finally:
        store.close()
    for fmt in ("json", "text"):
        res = runner.invoke(app, ["check", str(tmp_path / "case"), "--format", fmt,
                                  "--min-severity", "note"], env={"COLUMNS": "400"})
        assert res.exit_code == 0, res.output
        assert _leaks(res.output, secrets, set()) == [], res.output
