"""What each source's name searches have yielded in this case, as a factor on their priority.

Expected information gain (seed 001 `calculatePriority`) says how much a person still needs;
it cannot say whether a source knows people like them. A case learns that as it goes:
Wikidata knows the notable and answers "no match" for a farmer's wife, a parish register
answers for the baptised. So every name search counts as a try of its source when the source
answered (results, or "no such record"), and as a hit when its answer held a result that
plausibly is the person searched for (a search whose answer is itself the records, as a
register's is, hits when a fact from it was promoted). The factor is the hit rate smoothed
by an even prior worth six searches, `(hits + 3) / (tries + 6) / 0.5`: a few misses on the
first, most recent persons (often private in a user tree) must not starve a source the
older generations need. It is at most 1 and at least `FLOOR` (a source that has failed
thirty times is still tried once the better leads are spent), rounded to `STEP`s so that
queued tasks are re-rated only when it moves.

Read from the research log (the Scout's `source_access` entries, the Analyst's `analysis`
entries), so a resumed run learns exactly what the killed one had learned.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from sqlalchemy import Connection, select

from sleuth.store import schema as t

FLOOR = 0.1
PRIOR_HITS, PRIOR_TRIES = 3, 6
STEP = math.sqrt(0.5)  # factors are powers of this: 1, 0.71, 0.5, 0.35, 0.25, ...


@dataclass
class SearchYields:
    tries: dict[str, int] = field(default_factory=dict)
    hits: dict[str, int] = field(default_factory=dict)
    seq: int = 0  # the last research-log entry read

    def refresh(self, conn: Connection) -> SearchYields:
        """Count the log entries written since the last refresh."""
        r = t.research_log.c
        for seq, action, ctx in conn.execute(select(r.seq, r.action_type, r.context).where(
                r.seq > self.seq, r.action_type.in_(("source_access", "analysis"))).order_by(
                r.seq)):
            self.seq = int(seq)
            ctx = ctx or {}
            source = str(ctx.get("source") or "")
            if (action == "source_access" and ctx.get("action") == "search"
                    and not ctx.get("success") and ctx.get("answered")):
                self.tries[source] = self.tries.get(source, 0) + 1  # "no such record"
            elif action == "analysis" and "found" in ctx:
                self.tries[source] = self.tries.get(source, 0) + 1
                self.hits[source] = self.hits.get(source, 0) + bool(ctx["found"])
        return self

    def factor(self, source: str) -> float:
        tries = self.tries.get(source, 0)
        hits = min(self.hits.get(source, 0), tries)
        rate = (hits + PRIOR_HITS) / (tries + PRIOR_TRIES) / (PRIOR_HITS / PRIOR_TRIES)
        if rate >= 1.0:
            return 1.0
        steps = math.floor(math.log(max(rate, FLOOR)) / math.log(STEP) + 1e-9)
        return round(max(FLOOR, STEP ** steps), 4)
