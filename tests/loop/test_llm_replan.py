"""The planner is consulted during the run, not only for the first plan: its revisits are
queued for the pedigree person they fit, with an allowed reason and the search they improve
on; invented sources, bad reasons and names nobody in the pedigree has are set aside."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import run
from pytest_httpserver import HTTPServer
from sqlalchemy import select
from test_llm_loop import _reply

from sleuth.loop import Budget
from sleuth.loop.planning import fits, name_words
from sleuth.loop.queues import TaskSpec
from sleuth.store import Store
from sleuth.store import schema as t
from sleuth.store.blackboard import PersonInfo

PLANNER = "/planner/v1/chat/completions"
NEW_DATA = "New hypothesis requires additional data"


def test_names_fit_their_person_only() -> None:
    william = PersonInfo(id="w", name="William Dunmore", given="William", surname="Dunmore")
    assert fits(name_words("Will Dunmore"), william)  # a nickname
    assert fits(name_words("W. Dunmoor"), william)  # an initial, a spelling (Soundex)
    assert fits(name_words("Dunmore"), william)  # a surname variant
    assert not fits(name_words("Samuel Dunmore"), william)
    assert not fits(name_words("William Pryce"), william)
    assert name_words("find the 1880 census") == []
    assert name_words("https://example.org/x") == []


def test_the_planner_is_consulted_mid_run_and_its_revisits_are_checked(
        httpserver: HTTPServer, world_on, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    w = world_on(seed=3, generations=3)
    father = next(p for p in w.people.values() if (p.given, p.surname, p.born)
                  == ("William", "Dunmore", 1866))
    assert father is not None
    plan = {"reasoning": "the father's nickname may be how a transcriber wrote him",
            "next_actions": [], "query_expansions": [],
            "revisit_schedule": [
                {"source_id": "wikitree", "improved_query": "Will Dunmore", "reason": NEW_DATA},
                {"source_id": "wikitree", "improved_query": "Jim Dunmore b. 1898",
                 "reason": NEW_DATA},
                {"source_id": "ancestry", "improved_query": "Will Dunmore", "reason": NEW_DATA},
                {"source_id": "wikitree", "improved_query": "Xavier Quimby",
                 "reason": NEW_DATA},
                {"source_id": "wikitree", "improved_query": "William Dunmore Sr",
                 "reason": "because I say so"}],
            "should_stop": True, "stop_reason": "enough"}
    httpserver.expect_request(PLANNER).respond_with_json(_reply(json.dumps(plan)))
    for k, v in {"SLEUTH_LLM_PLANNER_BASE_URL": httpserver.url_for("/planner/v1"),
                 "SLEUTH_LLM_PLANNER_API_KEY": "sk-p", "SLEUTH_LLM_PLANNER_MODEL": "m"}.items():
        monkeypatch.setenv(k, v)
    case = tmp_path / "case"
    result = run(case, httpserver, w, Budget(max_requests=60, target_generations=3,
                                             stop_on_confidence=False, stop_on_gps=False))
    asked = [json.loads(e.get_data()) for e, _ in httpserver.log if e.path == PLANNER]
    assert len(asked) >= 2, "the first plan and at least one consultation mid-run"
    mid = json.dumps(asked[1:])
    assert "William Dunmore" in mid and "iteration" in mid
    store = Store.open_case(case)
    try:
        with store.engine.connect() as conn:
            specs = [TaskSpec.model_validate(p) for p in
                     conn.execute(select(t.tasks.c.payload)).scalars()]
            log = conn.execute(select(t.research_log.c.action_type, t.research_log.c.context,
                                      t.research_log.c.agent)).all()
    finally:
        store.close()
    planned = {s.query: s for s in specs
               if s.query.endswith("(planner)") and s.queue != "analyze"}
    assert sorted(planned) == ["wikitree search: Jim Dunmore (planner)",
                               "wikitree search: Will Dunmore (planner)"]
    # the father was reached through links, never searched: a first search for him
    will = planned["wikitree search: Will Dunmore (planner)"]
    assert will.queue == "frontier" and will.revisit is None
    assert will.target["name"] == "William Dunmore" and will.values["birth_year"] == 1866
    # the seed was searched: the year picks him among namesakes, and it is a revisit
    jim = planned["wikitree search: Jim Dunmore (planner)"]
    assert jim.target["birth_year"] == 1898 and jim.queue == "revisit" and jim.revisit
    assert jim.revisit.reason == NEW_DATA
    assert jim.revisit.original_query == "wikitree search: James Dunmore b.1898"
    checks = {c.get("check") for a, c, _ in log if a == "llm_rejected"}
    assert {"no_invented_targets", "revisit_reason"} <= checks
    # a name no one in the case has is refused by the planner's firewall (issue 26)
    assert any(c.get("check") == "no_invented_targets" and c.get("value") == "Xavier Quimby"
               for a, c, _ in log if a == "llm_rejected")
    plans = [c for a, c, who in log if a == "plan" and "iteration" in c]
    assert plans and plans[0]["should_stop"] is True
    assert "enough" not in result.stop_reasons  # advice is logged, the stop conditions decide
