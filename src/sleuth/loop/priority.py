"""Task priority = expected information gain (seed 001 `calculatePriority`).

    calculatePriority(e, g) = 1 - existingEvidence / (existingEvidence + 1)

so a name or place with no evidence yet scores 1 and each citation halves, thirds... what
one more search is expected to add. The Lead multiplies that by how much the person matters
to the goal (inside the target generations, or not connected to the seed at all) and by the
source tier (seed 000: Tier 0 before Tier 1/2), and clamps to [0, 1] (Z Task invariant).
"""

from __future__ import annotations

TIER_PREFERENCE = {0: 1.0, 1: 0.9, 2: 0.8}
UNCONNECTED = 0.3  # a person not (yet) linked to the seed
COLLATERAL = 0.7  # linked, but not the seed or a direct ancestor (siblings, spouses, aunts)
SEARCH_DISCOUNT = 0.8  # a name search is less certain to hit than following an identifier


def calculate_priority(existing_evidence: int) -> float:
    """Seed 001, verbatim: 1 - e / (e + 1)."""
    e = max(0, existing_evidence)
    return 1.0 - e / (e + 1)


def relevance(generation: int | None, target_generations: int) -> float:
    """1 inside the target generations, halving per generation beyond, low if unlinked.
    Descendants halve from the seed down: an ancestry goal is above the seed (and below it
    are the living), so the seed's children come after an open branch of her pedigree."""
    if generation is None:
        return UNCONNECTED
    if generation < 0:
        return 0.5 ** -generation
    depth = generation
    if depth <= target_generations:
        return 1.0 - 0.02 * depth  # nearer generations first, all well above the rest
    return 0.5 ** (depth - target_generations)


def information_gain(existing_evidence: int, generation: int | None, target_generations: int,
                     tier: int = 0, *, search: bool = False, direct: bool = True) -> float:
    """The priority of one task, in [0, 1]. `direct`: the seed or one of their ancestors
    (the goal is a pedigree; collateral relatives help, later)."""
    p = calculate_priority(existing_evidence) * relevance(generation, target_generations)
    if not direct and generation is not None:
        p *= COLLATERAL
    p *= TIER_PREFERENCE.get(tier, 0.8)
    if search:
        p *= SEARCH_DISCOUNT
    return round(min(1.0, max(0.0, p)), 6)
