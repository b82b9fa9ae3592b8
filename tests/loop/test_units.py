"""Priority, novelty, revisits and stop conditions, one at a time."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from sleuth.loop.priority import calculate_priority, information_gain
from sleuth.loop.queues import NoveltyGuard, Revisit, TaskSpec, normalise_query
from sleuth.loop.state import Budget
from sleuth.loop.stop import CONDITIONS, Metrics, fired
from sleuth.model import REVISIT_REASONS


def test_calculate_priority_is_seed_001s_formula() -> None:
    assert calculate_priority(0) == 1.0
    assert calculate_priority(1) == 0.5
    assert calculate_priority(3) == pytest.approx(0.25)


@given(st.integers(0, 1000), st.one_of(st.none(), st.integers(-5, 12)), st.integers(0, 8),
       st.integers(0, 2), st.booleans())
def test_information_gain_is_a_priority(e: int, gen: int | None, target: int, tier: int,
                                        search: bool) -> None:
    p = information_gain(e, gen, target, tier, search=search)
    assert 0.0 <= p <= 1.0
    assert information_gain(e + 1, gen, target, tier, search=search) <= p


def test_nearer_generations_and_tier_0_come_first() -> None:
    assert information_gain(0, 1, 4) > information_gain(0, 3, 4) > information_gain(0, 6, 4)
    assert information_gain(0, 1, 4) > information_gain(0, None, 4)
    assert information_gain(0, 1, 4, tier=0) > information_gain(0, 1, 4, tier=2)
    # an ancestry goal: a grandparent's open branch before the seed's children and theirs
    assert (information_gain(1, 2, 4, search=True) > information_gain(0, -1, 4, direct=False)
            > information_gain(0, -2, 4, direct=False))


def _search(name: str, born: int | None = None, source: str = "wikitree") -> TaskSpec:
    values = {"name": name, "given": name.split()[0], "surname": name.split()[-1]}
    if born:
        values["birth_year"] = born
    return TaskSpec(action="search", source=source, values=values, query=name)


def test_novelty_guard_exact_and_near_duplicates() -> None:
    g = NoveltyGuard()
    first = _search("Ada Whitfield", 1850)
    assert g.check(first) is None
    g.add(first)
    assert g.check(_search("ada  WHITFIELD", 1850)) == "exact duplicate of an earlier query"
    assert "near duplicate" in (g.check(_search("Ada Whitfeld", 1851)) or "")
    assert g.check(_search("Ada Whitfield", 1890)) is None  # another generation
    assert g.check(_search("Ada Whitfield", 1850, source="wikidata")) is None
    assert g.check(_search("Mary Whitfield", 1850)) is None


def test_identifier_calls_are_never_near_duplicates() -> None:
    g = NoveltyGuard()
    a = TaskSpec(action="call", source="wikitree", endpoint="getRelatives",
                 values={"key": "Adams-38"})
    g.add(a)
    assert g.check(a) is not None
    assert g.check(a.model_copy(update={"values": {"key": "Adams-39"}})) is None
    assert normalise_query(a) != normalise_query(a.model_copy(update={"page": 1}))


def test_revisits_need_an_allowed_reason() -> None:
    ok = Revisit(original_query="a", improved_query="b", reason=REVISIT_REASONS[1],
                 original_source_id="s")
    assert ok.reason in REVISIT_REASONS
    with pytest.raises(ValidationError):
        Revisit(original_query="a", improved_query="b", reason="felt like it",
                original_source_id="s")
    with pytest.raises(ValidationError):
        TaskSpec(action="search", source="s", queue="revisit")


@pytest.mark.parametrize(("name", "metrics", "budget"), [
    ("budget_requests", Metrics(requests=10, frontier=1), Budget(max_requests=10)),
    ("budget_wall_time", Metrics(elapsed=61, frontier=1), Budget(max_minutes=1)),
    ("budget_llm_cost", Metrics(llm_cost=2.5, frontier=1), Budget(max_llm_cost=2)),
    ("confidence_achieved", Metrics(seed_confidence=0.95, generation_depth=4, frontier=1),
     Budget()),
    ("diminishing_returns", Metrics(since_discovery=11, recent=[0] * 20, frontier=1), Budget()),
    ("frontier_exhausted", Metrics(), Budget()),
    ("max_iterations", Metrics(iteration=5, frontier=1), Budget(max_iterations=5)),
    ("gps_satisfied", Metrics(claims=3, gps_ok=True, frontier=1), Budget()),
])
def test_each_stop_condition_fires_alone(name: str, metrics: Metrics, budget: Budget) -> None:
    assert fired(metrics, budget) == [name]


def test_nothing_fires_mid_run() -> None:
    m = Metrics(requests=5, elapsed=3, iteration=4, frontier=3, since_discovery=2,
                recent=[3, 0, 5], claims=4, seed_confidence=0.9, generation_depth=1)
    assert fired(m, Budget()) == []
    assert set(CONDITIONS) >= {"budget_requests", "frontier_exhausted", "gps_satisfied"}


def test_reprioritise_rerates_queued_searches_and_audits(tmp_path) -> None:
    from sqlalchemy import select

    from sleuth.loop.queues import FrontierQueue
    from sleuth.store import Store
    from sleuth.store import schema as t

    store = Store.create_case(tmp_path / "case")
    try:
        q = FrontierQueue(store)
        spec = TaskSpec(action="search", source="wikitree", values={"name": "Matthew Wyatt"},
                        target={"person_id": "p", "generation": None})
        with store.transaction() as conn:
            low = q.push(conn, spec, 0.12)
            other = q.push(conn, spec.model_copy(update={"values": {"name": "Ann"}}), 0.3)

            def rate(s: TaskSpec, prio: float, tier: int):
                if s.values["name"] != "Matthew Wyatt":
                    return None
                return 0.8, s.model_copy(update={"target": {**s.target, "generation": 3}})

            assert q.reprioritise(conn, rate) == 1
            assert q.select(conn) == low  # now first
            spec2, prio, _ = q.get(conn, low)
            assert prio == 0.8 and spec2.target["generation"] == 3
            assert q.get(conn, other)[1] == 0.3
            audits = conn.execute(select(t.audit_log.c.action_type).where(
                t.audit_log.c.entity_id == low)).scalars().all()
            assert "task_reprioritised" in audits
    finally:
        store.close()


def test_a_namesakes_queued_search_is_adopted_by_an_ancestor(tmp_path) -> None:
    """The same words searched for an unplaced namesake and then for a placed ancestor: the
    queued task is raised and retargeted (one request answers both), never lowered."""
    from sleuth.loop.queues import FrontierQueue
    from sleuth.store import Store

    store = Store.create_case(tmp_path / "case")
    try:
        q = FrontierQueue(store)
        namesake = TaskSpec(action="search", source="wikitree",
                            values={"name": "Charles GREENWOOD"},
                            target={"person_id": "register-row", "generation": None})
        ancestor = namesake.model_copy(update={
            "values": {"name": "Charles Greenwood"},
            "target": {"person_id": "gen3", "generation": 3}})
        guard = NoveltyGuard()
        with store.transaction() as conn:
            tid = q.push(conn, namesake, 0.12)
            guard.add(namesake)
            assert guard.check(ancestor) == "exact duplicate of an earlier query"
            other = ancestor.model_copy(update={"source": "freereg"})
            assert not q.adopt(conn, other, 0.5)  # another source's question: not the same
            assert q.adopt(conn, ancestor, 0.5)
            spec, prio, _ = q.get(conn, tid)
            assert prio == 0.5 and spec.target["person_id"] == "gen3"
            assert not q.adopt(conn, namesake, 0.2)  # never lowered, nor taken back
            assert q.get(conn, tid)[0].target["person_id"] == "gen3"
    finally:
        store.close()


def test_the_seed_is_found_by_place_and_by_married_name() -> None:
    from sleuth.loop.tasking import find_target
    from sleuth.store.blackboard import PersonInfo

    target = {"name": "Ruth Greenwood", "given": "Ruth", "birth_year": 1889,
              "place": "Xenia, Greene County, Ohio", "generation": 0}
    cousin = PersonInfo("c", "Ruth Ellen Greenwood", "Ruth Ellen", "Greenwood",
                        birth_year=1888, birth_places={"Lavenham, Suffolk, England"},
                        places={"Lavenham, Suffolk, England"})
    assert find_target({"c": cousin}, target) is None  # born elsewhere: a namesake
    wed = PersonInfo("w", "Ruth Wren", "Ruth", "Wren", birth_year=1889,
                     birth_places={"Ohio"}, places={"Ohio", "Xenia, Greene County, Ohio"})
    assert find_target({"c": cousin, "w": wed}, target) == "w"
    moved = PersonInfo("m", "Ruth Greenwood", "Ruth", "Greenwood", birth_year=1889,
                       places={"Los Angeles, California"})  # died elsewhere: people move
    assert find_target({"m": moved}, target) == "m"
    other = PersonInfo("o", "Ruth Wren", "Ruth", "Wren", birth_year=1889,
                       places={"Springfield, Sangamon County, Illinois"})
    assert find_target({"o": other}, target) is None  # a married name needs the locality


def test_a_hit_born_elsewhere_ranks_below_one_born_where_the_person_was() -> None:
    from sleuth.sources.hits import MIN_HIT_SCORE, score_hit

    target = {"name": "Ellen Greenwood", "given": "Ellen", "birth_year": 1947,
              "place": "Springfield, Sangamon County, Illinois"}
    here = score_hit("Ellen Greenwood", 1947, target, "Springfield, Illinois")
    elsewhere = score_hit("Ellen Greenwood", 1947, target, "Lavenham, Suffolk, England")
    unknown = score_hit("Ellen Greenwood", 1947, target, None)
    assert here == unknown >= MIN_HIT_SCORE > elsewhere
    # without a place for the person, the hit's place changes nothing
    assert score_hit("Ellen Greenwood", 1947, {**target, "place": None},
                     "Lavenham, Suffolk, England") == unknown


def test_a_sources_search_yield_is_learned_from_the_log(tmp_path) -> None:
    """Searches a source answered with nothing lower its factor; hits keep it at 1; a
    resumed run (a fresh reader) learns the same from the log."""
    from sleuth.loop.yields import FLOOR, SearchYields
    from sleuth.model import Agent, LogEntry
    from sleuth.store import Store

    store = Store.create_case(tmp_path / "case")
    try:
        yields = SearchYields()

        def searched(source: str, *, found: bool | None, answered: bool = True) -> None:
            with store.transaction() as conn:
                store.log(conn, LogEntry(agent=Agent.SCOUT, action_type="source_access",
                                         rationale="read", context={
                                             "source": source, "action": "search",
                                             "success": found is not None,
                                             "answered": answered}))
                if found is not None:
                    store.log(conn, LogEntry(agent=Agent.ANALYST, action_type="analysis",
                                             rationale="hits", context={
                                                 "source": source, "found": found}))

        searched("wikitree", found=False)
        searched("wikitree", found=False)  # two misses: still worth what the prior says
        for _ in range(40):
            searched("wikidata", found=False)
            searched("freereg", found=True)
        for _ in range(10):
            searched("wikipedia", found=None)  # 404: "no such page" is an answer too
            searched("familysearch", found=None, answered=False)  # a failure says nothing
        with store.engine.connect() as conn:
            yields.refresh(conn)
        assert yields.factor("freereg") == 1.0 and yields.factor("familysearch") == 1.0
        assert yields.factor("wikitree") == 1.0
        low = yields.factor("wikidata")
        assert FLOOR <= low < 0.4 and yields.factor("wikipedia") < 1.0
        for _ in range(3):
            searched("wikidata", found=True)
        with store.engine.connect() as conn:
            fresh = SearchYields().refresh(conn)
            assert yields.refresh(conn).tries == fresh.tries and yields.hits == fresh.hits
        assert fresh.factor("wikidata") > low
        with store.transaction() as conn:  # a register knows no one born in 1900...
            for _ in range(20):
                store.log(conn, LogEntry(agent=Agent.ANALYST, action_type="analysis",
                                         rationale="hits", context={
                                             "source": "freecen", "found": False, "era": 19}))
            yields.refresh(conn)
        assert yields.factor("freecen", 19) <= 0.5 and yields.factor("freecen") <= 0.5
        assert yields.factor("freecen", 17) == 1.0  # ...which says nothing about 1760
    finally:
        store.close()


def test_the_direct_line_is_searched_in_every_source_whatever_it_yields(tmp_path) -> None:
    """A source that has answered nothing for forty others is still searched for the seed's
    ancestors inside the target generations (a reasonably exhaustive search), not for a
    cousin or an ancestor beyond them."""
    from types import SimpleNamespace

    from sleuth.loop.tasking import yield_factor
    from sleuth.loop.yields import SearchYields
    from sleuth.store import Store

    rt = SimpleNamespace(budget=SimpleNamespace(target_generations=4), yields=SearchYields(
        tries={("wikidata", None): 40, ("wikidata", 18): 40}))
    store = Store.create_case(tmp_path / "case")
    try:
        search = _search("Ada Whitfield", 1850, source="wikidata")
        with store.engine.connect() as conn:
            def factor(generation: int, direct: bool) -> float:
                spec = search.model_copy(update={"target": {
                    "generation": generation, "birth_year": 1850, "direct": direct}})
                return yield_factor(rt, conn, spec, direct)  # type: ignore[arg-type]

            assert factor(3, True) == 1.0
            assert factor(3, False) < 0.5 and factor(6, True) < 0.5
    finally:
        store.close()
