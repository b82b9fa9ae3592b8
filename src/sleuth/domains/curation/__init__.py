"""Curation (seed 002, PROVES): typed candidates of a technical system (F´) with proof."""
