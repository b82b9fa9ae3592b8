"""What may leave this machine in a prompt: a model API run by a third party is an output path.

A role's endpoint is *local* when its host is this machine: `localhost` (or a name under
`.localhost`) or a loopback address (127.0.0.0/8, ::1). Everything else is *hosted*, private
LAN addresses included (10/8, 172.16/12, 192.168/16, fc00::/7): a box on the LAN is often
someone else's machine or a shared GPU server, and the address alone cannot tell. A user who
runs their own model on the LAN says so with `endpoint_locality = "local"`; `"hosted"`
forces the hosted treatment (the tests use it on their 127.0.0.1 server).

For a hosted endpoint, before anything is sent:

* records that the case's Censor would treat as about a possibly living person are not sent
  at all (the role logs `llm_skipped` and returns None, so the deterministic path carries
  on), unless the user opts in with `send_living = true` / `SLEUTH_LLM_SEND_LIVING=1`. The
  decision is the Censor's own (`sleuth.privacy.explain_living`, the case's active policy)
  run over the persons the role is given: a snapshot's candidates with their dates and
  family links, or person-like records (claims, pedigree entries). Given less than the whole
  case, the Censor errs towards "living" (under the default `strictest` rule, Gramps' wide
  bounds make e.g. an undated parent of someone born after ~1880 possibly living), so a
  caller holding the case graph may pass its own verdict (`living=` on the role methods);
* the text that is sent goes through `sleuth.privacy.redact_text` (SSNs, national ids,
  e-mail addresses, phone numbers), the scrubber logs and error messages already use.

Local endpoints get the text unchanged: nothing leaves the machine.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable, Mapping, Sequence
from datetime import date
from typing import Any

from sleuth.extract.dates import parse_date
from sleuth.llm.config import RoleConfig
from sleuth.model import RELATIONSHIP_FIELDS, Assertion, Candidate, Person
from sleuth.model.dates import GenDate
from sleuth.model.graph import CaseGraph
from sleuth.privacy import explain_living

# keys of a person-like record (a pedigree entry, a resolver's person) holding life dates
BIRTH_KEYS = ("born", "birth_year", "birth", "birth_date")
DEATH_KEYS = ("died", "death_year", "death", "death_date")


def is_local_host(host: str) -> bool:
    """True only for this machine: localhost names and loopback addresses."""
    host = host.strip().strip("[]").rstrip(".").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host.split("%")[0]).is_loopback
    except ValueError:
        return False


def endpoint_is_local(cfg: RoleConfig) -> bool:
    """The one place that decides whether a role's prompts leave the machine."""
    if cfg.endpoint_locality != "auto":
        return cfg.endpoint_locality == "local"
    return is_local_host(cfg.host)


def living_reasons(graph: CaseGraph, *, today: date | None = None) -> list[str]:
    """The Censor's reasons for each possibly living person in `graph` (names left out:
    the reasons go into the research log, which is itself an output)."""
    return [v.reason for v in explain_living(graph, today=today).values() if v.living]


def candidates_graph(candidates: Sequence[Candidate]) -> CaseGraph:
    """The persons one document's candidates describe, with their claims and family links."""
    persons: dict[str, Person] = {}

    def person(key: str, name: str | None) -> Person:
        if key not in persons:
            persons[key] = Person(id=key, canonical_name=name or "")
        return persons[key]

    claims: dict[str, list[Assertion]] = {}
    for c in candidates:
        if not c.is_fact:
            continue
        p = person(c.subject, c.subject_name)
        claims.setdefault(c.subject, []).append(_claim(c.subject, c.field, c.value, c.date,
                                                       c.confidence))
        if c.field in RELATIONSHIP_FIELDS and c.related and c.related != c.subject:
            r = person(c.related, c.related_name)
            if c.field == "parent" and len(p.parents) < 2:
                p.parents.add(r.id)
                r.children.add(p.id)
            elif c.field == "child" and len(r.parents) < 2:
                p.children.add(r.id)
                r.parents.add(p.id)
            elif c.field == "spouse":
                p.spouses.add(r.id)
                r.spouses.add(p.id)
    return CaseGraph(persons=list(persons.values()), assertions=claims)


def records_graph(records: Iterable[Mapping[str, Any]]) -> CaseGraph:
    """Person-like records (a name or id and any life dates), each judged on its own."""
    persons: list[Person] = []
    claims: dict[str, list[Assertion]] = {}
    for i, rec in enumerate(records):
        pid = f"r{i}"
        persons.append(Person(id=pid, canonical_name=str(rec.get("name") or "")))
        own: list[Assertion] = []
        for keys, fld in ((BIRTH_KEYS, "birth_date"), (DEATH_KEYS, "death_date")):
            for k in keys:
                if rec.get(k) not in (None, ""):
                    own.append(_claim(pid, fld, str(rec[k]), _date(rec[k]), 0.5))
        for k, v in rec.items():  # modern clues (e-mail, phone) anywhere in the record
            if isinstance(v, str) and k not in BIRTH_KEYS + DEATH_KEYS:
                own.append(_claim(pid, "note", v, None, 0.5))
        claims[pid] = own
    return CaseGraph(persons=persons, assertions=claims)


def claims_graph(fld: str, claims: Sequence[Mapping[str, Any]]) -> CaseGraph:
    """One person's competing claims of one field (a conflict), judged together."""
    own = [_claim("p", fld, str(c.get("value", "")), _date(c.get("value")), 0.5)
           for c in claims]
    return CaseGraph(persons=[Person(id="p")], assertions={"p": own})


def person_records(obj: Any) -> list[Mapping[str, Any]]:
    """Dicts inside a JSON-like value that describe a person: a name plus a life-date key."""
    out: list[Mapping[str, Any]] = []
    stack = [obj]
    while stack:
        cur = stack.pop()
        if isinstance(cur, Mapping):
            if "name" in cur and any(k in cur for k in BIRTH_KEYS + DEATH_KEYS):
                out.append(cur)
            stack.extend(cur.values())
        elif isinstance(cur, list | tuple):
            stack.extend(cur)
    return out


def _date(value: Any) -> GenDate | None:
    """A life date as given: a year (int or digits) or any text the extractor can parse."""
    if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 9999:
        return GenDate.from_parts(value)
    if not isinstance(value, str) or not value.strip():
        return None
    try:
        return parse_date(value.strip())
    except (ValueError, TypeError):
        return None


def _claim(pid: str, fld: str, value: str, when: GenDate | None, conf: float) -> Assertion:
    return Assertion(entity_id=pid, field_name=fld, value=value, date=when,
                     confidence=min(1.0, max(0.0, conf)))
