"""What each source's name searches have yielded in this case, as a factor on their priority.

Expected information gain (seed 001 `calculatePriority`) says how much a person still needs;
it cannot say whether a source knows people like them. A case learns that as it goes:
Wikidata knows the notable and answers "no match" for a farmer's wife, a parish register
answers for the baptised. So every name search counts as a try of its source for people of
the searched person's century (`era_of`: a register that knows no one born in 1900 may know
everyone born in 1760, and a run searches the recent generations first), when the source
answered (results, or "no such record"), and as a hit when its answer held a result that
plausibly is the person searched for (a search whose answer is itself the records, as a
register's is, hits when a fact from it was promoted). The factor is the hit rate smoothed
by an even prior worth ten searches, `(hits + 5) / (tries + 10) / 0.5`: a few misses must
not starve a source. It is at most 1 and at least `FLOOR` (a source that has failed thirty
times is still tried once the better leads are spent), rounded to `STEP`s so that queued
tasks are re-rated only when it moves.

Read from the research log (the Scout's `source_access` entries, the Analyst's `analysis`
entries), so a resumed run learns exactly what the killed one had learned.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection

from sleuth.store import research_log

FLOOR = 0.1
PRIOR_HITS, PRIOR_TRIES = 5, 10
STEP = math.sqrt(0.5)  # factors are powers of this: 1, 0.71, 0.5, 0.35, 0.25, ...


def era_of(target: dict[str, Any]) -> int | None:
    """The century the searched person was born in (None when no year is known)."""
    try:
        return int(target.get("birth_year") or 0) // 100 or None
    except (TypeError, ValueError):
        return None


@dataclass
class SearchYields:
    """Tries and hits per (source, century of birth), and per source over all centuries
    (key `(source, None)`): a parish register that knows no one born in 1900 may well know
    everyone born in 1760, so a source is judged on people of the era being searched."""

    tries: dict[tuple[str, int | None], int] = field(default_factory=dict)
    hits: dict[tuple[str, int | None], int] = field(default_factory=dict)
    seq: int = 0  # the last research-log entry read

    def _count(self, source: str, era: Any, hit: bool) -> None:
        keys = {(source, None), (source, int(era) if isinstance(era, int) else None)}
        for k in keys:
            self.tries[k] = self.tries.get(k, 0) + 1
            self.hits[k] = self.hits.get(k, 0) + hit

    def refresh(self, conn: Connection) -> SearchYields:
        """Count the log entries written since the last refresh."""
        for seq, action, ctx in research_log.actions_after(
                conn, self.seq, ("source_access", "analysis")):
            self.seq = seq
            source = str(ctx.get("source") or "")
            if (action == "source_access" and ctx.get("action") == "search"
                    and not ctx.get("success") and ctx.get("answered")):
                self._count(source, ctx.get("era"), False)  # "no such record"
            elif action == "analysis" and "found" in ctx:
                self._count(source, ctx.get("era"), bool(ctx["found"]))
        return self

    def factor(self, source: str, era: int | None = None) -> float:
        tries = self.tries.get((source, era), 0)
        hits = min(self.hits.get((source, era), 0), tries)
        rate = (hits + PRIOR_HITS) / (tries + PRIOR_TRIES) / (PRIOR_HITS / PRIOR_TRIES)
        if rate >= 1.0:
            return 1.0
        steps = math.floor(math.log(max(rate, FLOOR)) / math.log(STEP) + 1e-9)
        return round(max(FLOOR, STEP ** steps), 4)

    def sources(self) -> list[str]:
        return sorted({s for s, era in self.tries if era is None})
