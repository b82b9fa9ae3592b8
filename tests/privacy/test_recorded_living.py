"""Living-person protection on real recorded data, through the real extractors and stores.

* Wikidata entities of living persons (`recorded/wikidata/dahlia_fixtures`: IU, Shin
  Jung-hyeon, Kangnam): called living, with the reason, and no export of any format carries
  their exact birth dates in any spelling.
* WikiTree private and unlisted profiles (`recorded/wikitree/sourcer`): a private profile
  yields only what the page shows (decades, no hidden birth place, no "[private brother]"
  person), and its subject is living where the page shows no death, deceased where it does.
* FamilySearch records of the 1970s-2000s (`recorded/familysearch`): persons born recently
  with no death information are living, persons with death information are deceased, and
  no export leaks a living person's exact dates.

Each case gets its own SQLite store (one record per case, so persons of unrelated records
are never one family); "today" is the real date, as in every command.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date
from pathlib import Path

import pytest

from shared_data import shared_path
from sleuth.export.privacy_report import leaks, output_texts, privacy_report
from sleuth.model import CaseGraph, Person
from sleuth.pipeline.ingest import extract_for, ingest_path
from sleuth.privacy import Verdict, explain_living
from sleuth.privacy.written_dates import exact_date_pattern
from sleuth.sources import load_file
from sleuth.store import Store, case_graph

TODAY = date.today()
Case = tuple[Store, CaseGraph, dict[str, Verdict]]


@pytest.fixture
def make_case(tmp_path: Path) -> Callable[..., Case]:
    """Ingest files into a fresh case; returns (store, graph, verdicts). Closed at teardown."""
    opened: list[Store] = []

    def make(*files: Path) -> Case:
        store = Store.create_case(tmp_path / f"case{len(opened)}")
        opened.append(store)
        for f in files:
            ingest_path(store, f)
        graph = case_graph(store)
        return store, graph, explain_living(graph, today=TODAY)

    yield make
    for store in opened:
        store.close()


def by_name(graph: CaseGraph, name: str) -> Person:
    found = [p for p in graph.persons if p.canonical_name == name]
    assert len(found) == 1, (name, [p.canonical_name for p in graph.persons])
    return found[0]


def exact_days(graph: CaseGraph, pid: str) -> set[date]:
    """Every day-precise date the case holds for one person (vitals and claims)."""
    dates = [graph.persons[[p.id for p in graph.persons].index(pid)].birth]
    dates += [c.date for c in graph.assertions.get(pid, [])]
    return {d.earliest for d in dates
            if d is not None and d.earliest is not None and d.earliest == d.latest}


def assert_no_leaks(store: Store, graph: CaseGraph, verdicts: dict[str, Verdict]) -> None:
    """No output path holds generic PII, a living person's exact day or removed value."""
    living = {pid for pid, v in verdicts.items() if v.living}
    # a living person's day that is also a deceased person's fact (survivors' residence on
    # the day of an obituary = the death day) is that deceased person's history, not a leak
    public = {day for p in graph.persons if p.id not in living for day in exact_days(graph, p.id)}
    secrets = {day for pid in living for day in exact_days(graph, pid)} - public
    outputs = output_texts(store, graph, TODAY)
    assert set(outputs) >= {"report", "jsonld", "gedcom", "gedcom7", "gedcomx", "show"}
    for where, text in outputs.items():
        assert leaks(text, where, graph, living) == [], where
        for day in secrets:
            hit = exact_date_pattern(day).search(text)
            assert hit is None, (where, day, text[max(0, hit.start() - 80):hit.end() + 40])


# -- Wikidata: living persons -------------------------------------------------------------

DAHLIA = {"Q20145": ("IU", date(1993, 5, 16)),
          "Q494290": ("Shin Jung-hyeon", date(1938, 1, 4)),
          "Q16231742": ("Kangnam", date(1987, 3, 23))}


def test_wikidata_living_persons_are_protected(make_case: Callable[..., Case]) -> None:
    entities = [shared_path("recorded", "wikidata", "dahlia_fixtures", "entities", f"{q}.json")
                for q in DAHLIA]
    store, graph, verdicts = make_case(*entities)
    for name, born in DAHLIA.values():
        person = by_name(graph, name)
        assert person.birth is not None and person.birth.earliest == born  # the raw evidence
        v = verdicts[person.id]
        assert v.living, (name, v)
        # the explanation names the rule and the birth year, never the day
        assert v.rule == "seed" and str(born.year) in v.reason and born.isoformat() not in v.reason
        assert v.votes == {"seed": True, "familysearch": True, "gramps": True}
    assert_no_leaks(store, graph, verdicts)
    report = output_texts(store, graph, TODAY)["report"]
    assert "1990s" in report and "1930s" in report and "1980s" in report  # decades shown
    assert report.count("living — details redacted") == 3


def test_wikidata_raw_snapshot_is_kept_but_reported(make_case: Callable[..., Case]) -> None:
    """The stored bytes keep IU's birth date; the privacy report finds it there and nowhere
    in the outputs, and says why she is treated as living."""
    path = shared_path("recorded", "wikidata", "dahlia_fixtures", "entities", "Q20145.json")
    store, graph, _ = make_case(path)
    (snap,) = graph.snapshots.values()
    assert "+1993-05-16T00:00:00Z" in snap.text
    report = privacy_report(store, today=TODAY)
    (iu,) = report["persons"]
    assert iu["living"] and iu["name"] == "IU" and "1993" in iu["reason"]
    assert report["pii"]["snapshots"][f"snapshot:{snap.id}"]["living_birth_date"] >= 1
    assert all(out["leaks"] == 0 for out in report["redactions"]["by_output"].values())


def test_privacy_report_same_from_worker_processes(make_case: Callable[..., Case]) -> None:
    """The outputs checked in forked workers give the report checked in one process."""
    store, _, _ = make_case(*[
        shared_path("recorded", "wikidata", "dahlia_fixtures", "entities", f"{q}.json")
        for q in DAHLIA])
    here = privacy_report(store, today=TODAY, record=False, workers=0)
    forked = privacy_report(store, today=TODAY, record=False, workers=2)
    assert forked == here
    assert list(here["redactions"]["by_output"]) == [
        "report", "jsonld", "gedcom", "gedcom7", "gedcomx", "show", "review"]
    assert here["living"]["count"] == 3
    assert all(out["chars"] > 0 for out in here["redactions"]["by_output"].values())


# -- WikiTree: private profiles -----------------------------------------------------------

def wikitree(case: str) -> Path:
    return shared_path("recorded", "wikitree", "sourcer", "saved_pages", f"{case}.html")


# case -> (subject, privacy level shown on the page, birth decade, death decade or None)
PRIVATE = {
    "marsh-9608_private_2025": ("Celia Marsh", "Private with Public Biography and Family Tree",
                                1970, None),
    "smith-201914_private_2025": ("John Smith", "Private", 1950, 1950),
    "leich-8_private_2025": ("Ann (Leich) Reardon", "Private with Public Biography", 1910, 2000),
    "harrington-1500_private_with_pub_bio": ("James Conrad Harrington",
                                             "Private with Public Biography", 1920, 2000),
}


@pytest.mark.parametrize("case", PRIVATE)
def test_private_profile_yields_only_what_is_public(case: str) -> None:
    name, level, born, died = PRIVATE[case]
    path = wikitree(case)
    assert f"Privacy Level: {level}".encode() in path.read_bytes()
    loaded = load_file(path, source_name="WikiTree")
    cands = extract_for(loaded.snapshot, loaded.raw)
    subject = {c.subject for c in cands if c.field == "name" and c.value == name}
    assert len(subject) == 1
    mine = [c for c in cands if c.subject in subject]
    fields = {c.field for c in mine}
    # the page hides the exact dates and places from the public: so do we
    assert not fields & {"birth_place", "death_place", "email", "phone", "address"}
    dated = {c.field: c.date for c in mine if c.date is not None}
    assert set(dated) == ({"birth_date", "death_date"} if died else {"birth_date"})
    for field, decade in (("birth_date", born), ("death_date", died)):
        if decade is None:
            continue
        gd = dated[field]
        assert (gd.earliest, gd.latest) == (date(decade, 1, 1), date(decade + 9, 12, 31))
    # every value is quoted from the visible text: nothing is taken from hidden markup
    for c in cands:
        assert c.citation is not None
        span = loaded.snapshot.text[c.citation.locator.start:c.citation.locator.end]
        assert span == c.citation.excerpt
    # the private relatives ("[private brother] (1980s–)") are not invented as persons
    assert not any("private" in c.value.lower() for c in cands if c.field == "name")


def test_private_profiles_living_where_the_page_shows_no_death(
    make_case: Callable[..., Case],
) -> None:
    for case, (name, _, born, died) in PRIVATE.items():
        store, graph, verdicts = make_case(wikitree(case))
        v = verdicts[by_name(graph, name).id]
        if died is None:
            assert v.living and str(born + 9) in v.reason, (case, v)
        else:
            assert not v.living and v.rule == "death" and "death_date" in v.reason, (case, v)
        assert_no_leaks(store, graph, verdicts)


def test_unlisted_profile_and_its_family_are_living(make_case: Callable[..., Case]) -> None:
    """Moore-12982 is Unlisted: born 1968 in Alabama, no death; the page names his parents
    and wife without dates. All are treated as living, and his birthplace becomes the region
    (here the same one word) while his relatives keep their names for tree building."""
    path = wikitree("moore-12982_private")
    assert b"Privacy Level: Unlisted" in path.read_bytes()
    store, graph, verdicts = make_case(path)
    scott = by_name(graph, "Scott Moore")
    assert verdicts[scott.id].living and "1968" in verdicts[scott.id].reason
    family = [by_name(graph, n) for n in ("Bobby Moore", "Janis Moore", "Dawn Moore")]
    for relative in family:
        v = verdicts[relative.id]
        assert v.living and scott.id in v.reason, (relative.canonical_name, v)
    assert {p.id for p in family} <= scott.parents | scott.spouses
    assert_no_leaks(store, graph, verdicts)
    gedcom = output_texts(store, graph, TODAY)["gedcom"]
    assert "1 NAME Bobby /Moore/" in gedcom and gedcom.count("1 RESN privacy") >= 4


# -- FamilySearch: records of the 1970s-2000s --------------------------------------------

def familysearch(case: str) -> Path:
    return shared_path("recorded", "familysearch", "saved_fetch_objects", f"{case}.json")


# record -> persons that must be living (born or married recently, no death information)
LIVING = {
    "us_mn_divorce_1988_elaine_hovland": ("Elaine K Hovland", "Gerald D Hovland"),
    "us_tx_divorce_1976_sarah_pate": ("Sarah E Pate", "John T Pate"),
    "us_nc_marriage_1954_nancy_furr": ("William Franklin Furr", "Wilma Faye Yandle"),
    "us_nv_marriage_1983_billy_scroggins": ("Billy Ray Scroggins", "Joan Frances Rowsey"),
}
# record -> the person whose death the record states
DECEASED = {
    "teresa_fitchie_death_2002": "Teresa Carole Ann Fitchie",  # the record says "Ms"
    "us_ca_death_1974_charles_barker": "Charles F Barker",
    "us_fg_1973_donald_payne": "Donald Richmond Payne",
    "us_mi_death_1978_lula_mickens": "Lula Mickens",
    "us_mn_death_1974_chris_jacobsen": "Chris W. Jacobson",
    "us_obit_2009_florida_moore": "James Clifford Moore",
    "us_or_spouse_death_1989_leland_churchill": "Maxine Velva Churchill",
    "us_spd_1974_imogene_webb": "Imogene Webb",
    "us_ss_death_index_2002_john_smith": "John W Smith",
    "us_ss_death_index_2004_catherine_pavey": "Catherine V Pavey",
    "us_vt_vital_1982_mildred_mattison": "Mildred E Mattison",
}


@pytest.mark.parametrize("case", LIVING)
def test_familysearch_recent_persons_without_death_are_living(
    case: str, make_case: Callable[..., Case]
) -> None:
    store, graph, verdicts = make_case(familysearch(case))
    for name in LIVING[case]:
        person = by_name(graph, name)
        v = verdicts[person.id]
        assert v.living, (name, v)
        assert re.search(r"\b(19[3-9]\d|20\d\d)\b", v.reason), v.reason  # says which year
    # their exact event days (a divorce or marriage day) are in the store, not the outputs
    assert all(exact_days(graph, by_name(graph, n).id) for n in LIVING[case])
    assert_no_leaks(store, graph, verdicts)


@pytest.mark.parametrize("case", DECEASED)
def test_familysearch_persons_with_death_information_are_deceased(
    case: str, make_case: Callable[..., Case]
) -> None:
    store, graph, verdicts = make_case(familysearch(case))
    person = by_name(graph, DECEASED[case])
    v = verdicts[person.id]
    assert not v.living and v.rule == "death", v
    assert re.search(r"death_date|burial", v.reason), v.reason
    assert_no_leaks(store, graph, verdicts)
    # a deceased person's exact death day is history: the GEDCOM export keeps it
    if person.death is not None and person.death.precision == "day":
        assert person.death.earliest is not None
        gedcom = output_texts(store, graph, TODAY)["gedcom"]
        assert exact_date_pattern(person.death.earliest).search(gedcom), gedcom[:2000]
