"""Domains: what a case is about, each a package on the one core (`domains.base.Domain`).

A case records its domain when it is created (`sleuth init CASE --domain NAME`); every
command then asks that domain how to read files and what it can write. Genealogy (seeds 000
and 001), documents (seed 004), curation (seed 002) and investigations (seed 003) are built.
A name mapped to None is declared but not built: a case cannot be created for it.
"""

from __future__ import annotations

from importlib import import_module

from sleuth.domains.base import Domain, EntityType, Thresholds
from sleuth.model import InputError

DEFAULT = "genealogy"
# Every domain a case may name, and the module that builds it (None: not built yet).
DOMAINS: dict[str, str | None] = {
    "genealogy": "sleuth.domains.genealogy",
    "documents": "sleuth.domains.documents",
    "curation": "sleuth.domains.curation",
    "investigations": "sleuth.domains.investigations",
}


def get_domain(name: str) -> Domain:
    """The domain called `name`, or a one-line error saying which there are."""
    where = DOMAINS.get(name)
    if where is None:
        built = ", ".join(n for n, m in DOMAINS.items() if m)
        state = "is not built yet" if name in DOMAINS else "is not a domain"
        raise InputError(f"domain {name!r} {state}; available: {built}", field="--domain")
    domain: Domain = import_module(where).DOMAIN
    return domain


__all__ = ["DEFAULT", "DOMAINS", "Domain", "EntityType", "Thresholds", "get_domain"]
