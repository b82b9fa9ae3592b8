"""Whether a researched case gives the world's seed person her true family (issue 19).

`seed_checks(graph, world)` reads a case's merged view (`store.case_graph`) against the
world's ground truth: how many case persons are the seed (by the documents their facts are
cited from, `truth.attribute`: a person counts as the seed when her cited values single her
out), whether the seed has exactly her true father and mother, and whether anyone has more
than two parents (the two shown plus `CaseGraph.extra_parents`) or is their own ancestor.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sleuth.model import CaseGraph
from sleuth.world import World
from sleuth.world.truth import attribute


@dataclass
class SeedChecks:
    seed_persons: list[str]  # case persons whose records are the seed's
    seed_parents_ok: bool  # the seed is one person, whose parents are her true two
    seed_parents: list[str] = field(default_factory=list)  # their names, as the case has them
    over_two_parents: list[str] = field(default_factory=list)  # names
    own_ancestors: list[str] = field(default_factory=list)  # names

    @property
    def ok(self) -> bool:
        return (len(self.seed_persons) == 1 and self.seed_parents_ok
                and not self.over_two_parents and not self.own_ancestors)


def _ancestors(parents: dict[str, set[str]], pid: str) -> set[str]:
    seen: set[str] = set()
    todo = list(parents.get(pid, ()))
    while todo:
        x = todo.pop()
        if x not in seen:
            seen.add(x)
            todo += parents.get(x, ())
    return seen


def _mapped(graph: CaseGraph, world: World) -> dict[str, int]:
    """Case person -> the world person their cited values single out (two votes or more,
    or the only one with any)."""
    out: dict[str, int] = {}
    for pid, votes in attribute(graph, world).items():
        if votes:
            (best, n), *rest = [*votes.most_common(2), (None, 0)]
            if best is not None and n > rest[0][1]:
                out[pid] = best
    return out


def seed_checks(graph: CaseGraph, world: World, seed: int | None = None) -> SeedChecks:
    """See the module docstring. `graph` is the merged view, uncensored."""
    pop = world.pop
    seed = pop.seed_person if seed is None else seed
    names = {p.id: p.canonical_name for p in graph.persons}
    parents = {p.id: set(p.parents) | set(graph.extra_parents.get(p.id, ()))
               for p in graph.persons}
    mapped = _mapped(graph, world)
    seeds = sorted(pid for pid, w in mapped.items() if w == seed and pid in names)
    true = {pop.persons[seed].father, pop.persons[seed].mother} - {None}
    ok = False
    shown: list[str] = []
    if len(seeds) == 1:
        mine = parents.get(seeds[0], set())
        shown = sorted(names.get(x, x) for x in mine)
        ok = len(mine) == len(true) and {mapped.get(x) for x in mine} == true
    over = sorted(names[c] for c, ps in parents.items() if len(ps) > 2)
    loops = sorted(names[c] for c in parents if c in _ancestors(parents, c))
    return SeedChecks(seeds, ok, shown, over, loops)


def describe(checks: SeedChecks) -> str:
    """One line for a table or a log."""
    return (f"seed persons {len(checks.seed_persons)}, parents "
            f"{'right' if checks.seed_parents_ok else 'WRONG'} ({'; '.join(checks.seed_parents)})"
            f", >2 parents {len(checks.over_two_parents)}, own ancestors "
            f"{len(checks.own_ancestors)}")
