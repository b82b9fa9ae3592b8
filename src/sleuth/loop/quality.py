"""Data-quality findings as research leads: the Analyst's check of the tree built so far.

At every entity-resolution pass the case is checked with the rules of `sleuth check`
(Gramps' Verify-the-Data, WikiTree's and FamilySearch's data checks: `sleuth.quality`), on
the censored graph, so a living person's dates never reach a clue. Each error or warning
becomes a clue hypothesis `data_quality:<rule>` for its first person (never a fact): one of
the values or links behind it may be wrong. The corroboration step then queues revisits of
the sources that person was searched in ("Conflict resolution requires corroboration"),
so the loop looks for the record that settles it. Not every finding is a lead: "possible"
findings (true only for the central estimate of uncertain dates) are too weak to spend
requests on, and rules about how a tree is kept rather than whether a value is right
(`NOT_LEADS`: a disconnected person, an unknown sex, a wife under her married surname, an
old person with no death yet) name nothing a record could correct. `sleuth check` still
reports them all.

A finding already recorded (same rule, person and statement) is not added again, so a pass
redone after a kill adds nothing twice and a resumed run takes the same path.
"""

from __future__ import annotations

from sqlalchemy import Connection

from sleuth.loop.runtime import Runtime
from sleuth.model import Agent, CaseGraph, LogEntry
from sleuth.quality import check_graph, finding_to_hypothesis
from sleuth.store.hypotheses import hypotheses_like

ANALYST = str(Agent.ANALYST)
PREFIX = "data_quality:"
QUEUED_SEVERITIES = ("error", "warning")
NOT_LEADS = frozenset({
    "disconnected", "unknown_gender", "same_surname_family", "old_age_no_death",
    "married_often", "old_unmarried", "too_many_children", "same_sex_family",
    "female_husband", "male_wife", "name_invalid_characters", "children_out_of_order",
    "families_out_of_order",
})


def quality_clues(rt: Runtime, conn: Connection, graph: CaseGraph) -> int:
    """Record new data-quality findings on `graph` (the case as committed) as clue
    hypotheses, in the caller's transaction; returns how many were new."""
    if len(graph.persons) < 2:
        return 0
    _, findings = check_graph(graph)
    seen = hypotheses_like(conn, PREFIX)
    made = 0
    for f in findings:
        if f.severity not in QUEUED_SEVERITIES or f.rule in NOT_LEADS:
            continue
        hyp = finding_to_hypothesis(f)
        key = (hyp.hypothesis_type, hyp.target_person, hyp.statement)
        if key in seen:
            continue
        seen.add(key)
        rt.clues.add(conn, hyp, agent=ANALYST)
        rt.store.log(conn, LogEntry(
            agent=Agent.ANALYST, action_type="decision", rationale=hyp.statement,
            context={"decision": "data_quality", "hypothesis": hyp.id, "rule": f.rule,
                     "rule_set": f.source, "severity": f.severity, "people": list(f.people)}))
        made += 1
    return made
