"""A stated age as GEDCOM's AGE in each version, and an AGE read back as the same age."""

from __future__ import annotations

import re
from pathlib import Path
from types import ModuleType

import pytest

from shared_data import shared_path
from sleuth.export import to_gedcom
from sleuth.gedcom.age import age_551, gedcom_age, whole_years
from sleuth.pipeline.ingest import extract_for
from sleuth.sources import load_file
from sleuth.verify import Source, check_candidates

# 5.5.1 AGE_AT_EVENT and 7.0 Age, as the gedcom7code test files (and 7.0's ABNF) read them
_551 = re.compile(r"[<>]?(?:\d+y(?: \d+m)?(?: \d+d)?|\d+m(?: \d+d)?|\d+d|CHILD|INFANT|STILLBORN)")
_7 = re.compile(r"(?:[<>] )?(?:\d+y(?: \d+m)?(?: \d+w)?(?: \d+d)?|\d+m(?: \d+w)?(?: \d+d)?"
                r"|\d+w(?: \d+d)?|\d+d)")


@pytest.mark.parametrize(("value", "v551", "v7"), [
    ("67", "67y", ("67y", "")), ("0", "<1y", ("< 1y", "")), ("0.5", "6m", ("6m", "")),
    ("67.5", "67y 6m", ("67y 6m", "")), (">67", ">67y", ("> 67y", "")),
    ("infant", "INFANT", ("< 1y", "infant")), ("about 67", None, None),
])
def test_an_age_in_each_versions_grammar(value: str, v551: str | None,
                                         v7: tuple[str, str] | None) -> None:
    assert age_551(value) == v551
    assert gedcom_age(value, False) == ((v551, "") if v551 else None)
    assert gedcom_age(value, True) == v7


def _ages(name: str) -> set[str]:
    text = shared_path("gedcom", "gedcom7code", "5", name).read_text(encoding="utf-8")
    return {line.split(" AGE ", 1)[1].strip() for line in text.splitlines() if " AGE " in line}


def test_every_age_written_is_valid_and_reads_back() -> None:
    # 5.5.1 writes a bound without a space (the gedcom7code files: `<0y` valid, `< 0y` not)
    valid, invalid = _ages("age-valid.ged"), _ages("age-invalid.ged")
    assert {"<0y", ">99y", "99y 11m", "INFANT"} <= valid and "< 0y" in invalid
    for n in range(121):
        five, seven = age_551(str(n)), gedcom_age(str(n), True)
        assert five is not None and _551.fullmatch(five) and seven is not None
        assert _7.fullmatch(seven[0]) and whole_years(five) == whole_years(seven[0]) == n


def test_only_whole_years_are_an_age_claim() -> None:
    assert [whole_years(v) for v in ("67", "67y", "67 years", "<1y", "0y", "3m", ">67y",
                                     "INFANT", "42y 6m")] == [67, 67, 67, 0, None, None, None,
                                                              None, None]


@pytest.mark.parametrize("version", ["5.5.1", "7.0"])
def test_an_exported_age_is_read_back_as_the_same_claim(fam: ModuleType, tmp_path: Path,
                                                        version: str) -> None:
    g = fam.build_family()
    obit = g.snapshots["s-obit"]
    grave = fam.snap("s-grave", "Memorial", "Robert Whitfield, aged 76 years.")
    g.snapshots[grave.id] = grave
    g.assertions["robert"] += [
        fam.claim("a-r-age", "robert", "age_at_death", "75", obit, "Robert Whitfield, 75"),
        fam.claim("a-r-age2", "robert", "age_at_death", "76", grave, "aged 76", confidence=0.5)]
    out = tmp_path / "out.ged"
    out.write_text(to_gedcom(g, version=version, today=fam.TODAY), encoding="utf-8")
    loaded = load_file(out)
    cands = extract_for(loaded.snapshot, loaded.raw)
    report = check_candidates(cands, {loaded.snapshot.id: Source.of(loaded.snapshot.text)})
    assert report.rejected == []  # the firewall reads "75" in `2 AGE 75y`
    ages = sorted((c.subject_name, c.value, c.citation.excerpt.splitlines()[-1])  # type: ignore[union-attr]
                  for c in cands if c.field == "age_at_death")
    assert ages == [("Robert Whitfield", "75", "2 AGE 75y"),
                    ("Robert Whitfield", "76", "2 AGE 76y")]
