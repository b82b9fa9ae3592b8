"""Coverage and negative evidence from the research log, on real recorded responses."""

from __future__ import annotations

import gps_case
import pytest
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError

from shared_data import shared_path
from sleuth.gps.coverage import (
    PersonCoverage,
    QuestionCoverage,
    coverage,
    record_negative,
    searches,
)
from sleuth.model.evidence import ResearchQuestion
from sleuth.store import Store, case_graph
from sleuth.store.searches import negative_rows

SEARCH = ("recorded", "wikitree", "api_docs", "json_examples", "searchPerson.json")
URL = "https://api.wikitree.com/api.php?action=searchPerson&FirstName=Elmer&LastName=Davis"


def _elmer(store: Store) -> str:
    g = case_graph(store)
    return next(p.id for p in g.persons if p.canonical_name.startswith("Elmer"))


def _row(table: list[PersonCoverage], pid: str, q: ResearchQuestion) -> QuestionCoverage:
    pc = next(p for p in table if p.person_id == pid)
    return next(x for x in pc.questions if x.question is q)


def test_search_with_no_matching_hit_is_negative_evidence(elmer_case: Store) -> None:
    elmer = _elmer(elmer_case)
    # the real WikiTree answer lists ten Samuel Clemenses: none is Elmer Lawrence Davis
    snap = gps_case.log_search(elmer_case, source="wikitree", name="Elmer Lawrence Davis",
                               person_id=elmer, response=shared_path(*SEARCH), url=URL)
    g = case_graph(elmer_case)
    [s] = searches(elmer_case, g)
    assert (s.person_id, s.hits, s.matched, s.negative) == (elmer, 10, 0, True)
    table = coverage(elmer_case, g)
    death = _row(table, elmer, ResearchQuestion.DEATH)
    assert [n.snapshot_id for n in death.negative] == [snap]
    assert death.with_evidence == [
        "Virginia, Death Certificates, 1912-1987 (familysearch_record)"]
    assert record_negative(elmer_case, table) == 4  # WikiTree answers all four questions
    assert record_negative(elmer_case, coverage(elmer_case, case_graph(elmer_case))) == 0
    rows = negative_rows(elmer_case)
    stored = elmer_case.snapshot(snap).text
    for r in rows:
        assert r["person_id"] == elmer and r["hit_count"] == 10 and r["snapshot_id"] == snap
        assert stored[r["char_start"]:r["char_end"]] == r["excerpt"] and r["excerpt"]
        assert "none plausibly Elmer Lawrence Davis" in r["statement"]
    assert {r["question"] for r in rows} == {q.value for q in ResearchQuestion}
    with pytest.raises(DBAPIError, match="immutable"), elmer_case.engine.begin() as conn:
        conn.execute(text("DELETE FROM negative_evidence"))


def test_a_matching_hit_is_not_negative(elmer_case: Store) -> None:
    elmer = _elmer(elmer_case)
    gps_case.log_search(elmer_case, source="wikitree", name="Samuel Clemens", person_id=elmer,
                        response=shared_path(*SEARCH), url=URL.replace("Elmer", "Samuel"))
    [s] = searches(elmer_case, case_graph(elmer_case))
    assert s.hits == 10 and s.matched and s.matched > 0 and s.found and not s.negative
    table = coverage(elmer_case, case_graph(elmer_case))
    assert not _row(table, elmer, ResearchQuestion.BIRTH).negative
    assert record_negative(elmer_case, table) == 0


def test_a_failed_search_is_listed_but_proves_nothing(elmer_case: Store) -> None:
    elmer = _elmer(elmer_case)
    gps_case.log_search(elmer_case, source="wikitree", name="Elmer Lawrence Davis",
                        person_id=elmer, response=None, url=URL, success=False)
    table = coverage(elmer_case, case_graph(elmer_case))
    birth = _row(table, elmer, ResearchQuestion.BIRTH)
    assert len(birth.searched) == 1 and not birth.negative
    assert record_negative(elmer_case, table) == 0


def test_reasonably_exhaustive_rule(elmer_case: Store) -> None:
    elmer = _elmer(elmer_case)
    before = coverage(elmer_case, case_graph(elmer_case))
    death = _row(before, elmer, ResearchQuestion.DEATH)
    assert death.primary_direct == 2 and not death.exhaustive  # one source only
    assert death.missing == ["1 source(s) consulted; at least 2 needed"]
    gps_case.log_search(elmer_case, source="wikitree", name="Elmer Lawrence Davis",
                        person_id=elmer, response=shared_path(*SEARCH), url=URL)
    after = coverage(elmer_case, case_graph(elmer_case))
    assert _row(after, elmer, ResearchQuestion.DEATH).exhaustive
    birth = _row(after, elmer, ResearchQuestion.BIRTH)  # the death record is second-hand here
    assert not birth.exhaustive and birth.primary_direct == 0
    assert "civil birth registration" in birth.next_sets


def test_record_sets_follow_the_persons_years_and_places() -> None:
    """The catalogue: an English baptism in 1790 needs the parish registers; an Ohio birth
    in 1884 does not, but US census and certificates have no built-in source."""
    from sleuth.gps.catalogue import relevant
    from sleuth.model import ResearchQuestion

    english = {rs.name for rs in relevant(ResearchQuestion.BIRTH, [1790], ["Zennor, Cornwall, "
                                                                          "England"])}
    ohio = {rs.name: rs for rs in relevant(ResearchQuestion.BIRTH, [1884],
                                           ["Springfield, Clark County, Ohio"])}
    assert "FreeREG parish registers (baptisms, marriages, burials)" in english
    assert "US federal census" not in english
    assert not any(n.startswith("FreeREG") for n in ohio)
    assert ohio["US federal census"].sources == ()  # the user searches it by hand
    late = relevant(ResearchQuestion.DEATH, [1985], ["Ohio"])
    assert not any(rs.sources == ("chronicling_america",) for rs in late)  # ends 1963


def test_an_html_search_counts_the_results_its_page_shows(store: Store, tmp_path) -> None:
    """A Find a Grave search page's snapshot text is what the page shows; its result count
    comes from the markup, so "1 matching memorial" is never recorded as 0 results."""
    from sleuth.text import html_text
    from sleuth.world import World

    world = World(7, 100)
    seed = world.pop.persons[world.pop.seed_person]
    path = f"/memorial/search?firstname={seed.given.split()[0]}&lastname={seed.surname}"
    page = world.respond(path, "http://world-7.sleuth.test")
    assert "memorial-item" in page.body
    raw = tmp_path / "search.html"
    raw.write_text(page.body, encoding="utf-8")
    with store.transaction() as conn:
        from sleuth.model import Person

        someone = Person(canonical_name="Nobody Known", given_name="Nobody", surname="Known")
        store.add_person(conn, someone)
    snap = gps_case.log_search(store, source="find_a_grave", name="Nobody Known",
                               person_id=someone.id, response=raw,
                               url="http://world-7.sleuth.test" + path,
                               text=html_text(page.body), media_type="text/html")
    [s] = searches(store, case_graph(store))
    assert s.snapshot_id == snap and s.hits == page.body.count('class="memorial-item"') >= 1
    assert s.matched == 0 and s.negative
    record_negative(store, coverage(store, case_graph(store)))
    assert all(r["hit_count"] == s.hits for r in negative_rows(store))
