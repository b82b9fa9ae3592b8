"""Grounded planning (issue 26, item 7): a planner's search targets must be names, places or
ids in the case or the seed. With an injected planner that proposes invented targets (`John
Smith Atlantis`, an invented middle name, an invented id) at the first plan and at every
consultation mid-run, no request is spent on them, each is logged with its reason, and a
grounded proposal (a nickname of the seed) is still searched.

Was: the first plan read any capitalised words as a name and searched them in every source
("9 of 80 requests were searches for invented targets")."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import unquote_plus

import pytest
from helpers import run
from pytest_httpserver import HTTPServer
from sqlalchemy import select
from test_llm_loop import _reply

from sleuth.loop import Budget
from sleuth.store import Store
from sleuth.store import schema as t

PLANNER = "/planner/v1/chat/completions"
NEW_DATA = "New hypothesis requires additional data"
INVENTED = ("Atlantis", "Smith", "Zebulon", "Dunmore-9999")


def test_invented_targets_cost_no_request(httpserver: HTTPServer, world_on, tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    w = world_on(seed=3, generations=3)
    assert (w.seed.given, w.seed.surname) == ("James", "Dunmore")
    plan = {"reasoning": "cast the net wide",
            "next_actions": [
                {"action": "fetch", "query": "John Smith Atlantis", "target": "wikitree",
                 "priority": 0.9},
                {"action": "fetch", "query": "James Zebulon Dunmore", "target": "wikitree",
                 "priority": 0.9},  # the seed's name with a middle name made up
                {"action": "fetch", "query": "Dunmore-9999", "target": "wikitree",
                 "priority": 0.8},  # an id no record gave
                {"action": "fetch", "query": "Jim Dunmore", "target": "wikitree",
                 "priority": 0.7}],  # the seed's nickname: grounded
            "query_expansions": ["John Smith Atlantis", "Atlantis"],
            "revisit_schedule": [
                {"source_id": "wikitree", "improved_query": "John Smith Atlantis",
                 "reason": NEW_DATA},
                {"source_id": "wikitree", "improved_query": "James Dunmore of Atlantis",
                 "reason": NEW_DATA}],
            "should_stop": False, "stop_reason": None}
    httpserver.expect_request(PLANNER).respond_with_json(_reply(json.dumps(plan)))
    for k, v in {"SLEUTH_LLM_PLANNER_BASE_URL": httpserver.url_for("/planner/v1"),
                 "SLEUTH_LLM_PLANNER_API_KEY": "sk-p", "SLEUTH_LLM_PLANNER_MODEL": "m"}.items():
        monkeypatch.setenv(k, v)
    case = tmp_path / "case"
    result = run(case, httpserver, w, Budget(max_requests=80, target_generations=3,
                                             stop_on_confidence=False, stop_on_gps=False))
    consulted = [e for e, _ in httpserver.log if e.path == PLANNER]
    assert len(consulted) >= 2, "the first plan and at least one consultation mid-run"
    sent = [unquote_plus(e.query_string.decode()) for e, _ in httpserver.log
            if e.path != PLANNER]
    assert result.requests == len(sent) > 0
    spent = [q for q in sent if any(x in q for x in INVENTED)]
    assert spent == [], f"{len(spent)} of {len(sent)} requests on invented targets: {spent[:3]}"
    assert any("FirstName=Jim" in q for q in sent), "a grounded proposal is still searched"

    store = Store.open_case(case)
    try:
        with store.engine.connect() as conn:
            queries = [p["query"] for p in conn.execute(select(t.tasks.c.payload)).scalars()]
            log = conn.execute(select(t.research_log.c.action_type, t.research_log.c.rationale,
                                      t.research_log.c.context)).all()
    finally:
        store.close()
    assert not [q for q in queries if any(x in q for x in INVENTED)], "nothing queued"
    refused = {c["value"]: why for a, why, c in log
               if a == "llm_rejected" and c.get("check") == "no_invented_targets"}
    for q in ("John Smith Atlantis", "James Zebulon Dunmore", "Dunmore-9999", "Atlantis",
              "James Dunmore of Atlantis"):
        assert q in refused, q
    assert "'Smith', 'Atlantis': not a name, place or id in the case or the seed" in refused[
        "John Smith Atlantis"]
    assert "'Zebulon'" in refused["James Zebulon Dunmore"]
