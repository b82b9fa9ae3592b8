"""Writes of the core layer: persons, assertions with their citations, relationships,
hypotheses and conflicts; and the questions promotion asks of the persons and links a
batch has just written (answered from the batch, `sleuth.store.batch`)."""

from __future__ import annotations

from datetime import UTC, datetime
from functools import cache
from typing import Any

from sqlalchemy import Connection, bindparam, func, insert, select, update

from sleuth.model import (
    Assertion,
    AssertionStatus,
    Citation,
    Conflict,
    Hypothesis,
    InvariantViolation,
    NotFound,
    Person,
    Relationship,
    new_id,
    utcnow,
)
from sleuth.store import schema as t
from sleuth.store.base import StoreBase, date_json
from sleuth.store.batch import Batch


def name_key(name: str) -> str:
    """Exact-match key for a person's name: lower case, letters and spaces only."""
    cleaned = "".join(ch if ch.isalpha() else " " for ch in name.lower())
    return " ".join(cleaned.split())


_NAME_LINES = select(t.candidates.c.excerpt, t.candidates.c.person_id,
                     t.candidates.c.snapshot_id, t.candidates.c.subject).where(
    t.candidates.c.value == bindparam("v"), t.candidates.c.field == "name")
_PERSONS_BY_KEY = select(t.persons.c.id, t.persons.c.created_at).where(
    t.persons.c.name_key == bindparam("key"))
_PERSON_FIELDS = select(t.persons.c.canonical_name, t.persons.c.sex).where(
    t.persons.c.id == bindparam("p"))
_PARENTS_OF_SEX = select(t.persons.c.id, t.persons.c.canonical_name).join(
    t.relationships, t.relationships.c.person1_id == t.persons.c.id).where(
    t.relationships.c.person2_id == bindparam("c"),
    t.relationships.c.relationship_type == "parent", t.persons.c.sex == bindparam("sex"))


def _naive_utc(when: Any) -> Any:
    """A timestamp comparable with SQLite's (naive, UTC) and PostgreSQL's (aware) values."""
    if isinstance(when, datetime) and when.tzinfo is not None:
        return when.astimezone(UTC).replace(tzinfo=None)
    return when


@cache
def _relationship_checks() -> dict[str, Any]:
    """The lookups `add_relationship` runs for every link, built once with bound parameters."""
    r = t.relationships.c
    return {
        "person": select(t.persons.c.id).where(t.persons.c.id == bindparam("p")),
        "pair": select(r.id).where(
            r.person1_id == bindparam("p1"),
            r.person2_id == bindparam("p2"),
            r.relationship_type == bindparam("kind"),
        ),
        "parents": select(func.count()).where(
            r.person2_id == bindparam("p2"), r.relationship_type == "parent"
        ),
    }


class CoreWrites(StoreBase):
    """What a promoted candidate becomes, and what the Analyst records of it."""

    # -- core layer --------------------------------------------------------------------------
    def add_person(self, conn: Connection, person: Person) -> Person:
        row = {
            "id": person.id,
            "canonical_name": person.canonical_name,
            "name_key": name_key(person.canonical_name),
            "given_name": person.given_name,
            "surname": person.surname,
            "sex": person.sex,
            "is_living": person.is_living,
            "created_at": utcnow(),
        }
        self._insert(conn, t.persons, row)
        self.audit(
            conn,
            "person_created",
            "person",
            person.id,
            None,
            {"canonical_name": person.canonical_name},
            "DecisionMaker",
        )
        return person

    def persons_named(self, conn: Connection, name: str) -> list[str]:
        """The persons of this name, oldest first (by creation, then id)."""
        before, created = self.persons_named_apart(conn, name)
        if not created:
            return before
        batch = self._batch(conn)
        assert batch is not None
        at = dict(batch.named_before[name_key(name)])
        at.update((i, batch.persons[i]["created_at"]) for i in created)
        return sorted(at, key=lambda i: (_naive_utc(at[i]), i))

    def persons_named_apart(self, conn: Connection, name: str) -> tuple[list[str], list[str]]:
        """`persons_named` in two lists: those the current batch did not create (oldest
        first), and those it did (in the order it created them; not a copy). Promotion asks
        this of every new subject, and a large tree's common names have a hundred bearers
        it has just created: sorting them all for each new namesake was quadratic (issue
        19), where most of them can be set aside at once (`pipeline.linking._new_subject`)."""
        key = name_key(name)
        p = t.persons.c
        batch = self._batch(conn)
        if batch is None:
            return list(conn.execute(select(p.id).where(p.name_key == key)
                                     .order_by(p.created_at, p.id)).scalars()), []
        before = batch.named_before.get(key)
        if before is None:  # the persons of this name that the batch did not create
            before = batch.named_before[key] = sorted(
                ((str(i), at) for i, at in self._own_rows(conn, _PERSONS_BY_KEY, {"key": key})
                 if str(i) not in batch.persons), key=lambda r: (_naive_utc(r[1]), r[0]))
        return [i for i, _ in before], batch.created.get(key, [])

    def person_fields(self, conn: Connection, person_id: str) -> tuple[str, str] | None:
        """(canonical name, sex) of a person, or None when there is none: what promotion
        asks of the persons it has just created, answered in a batch without a query."""
        batch = self._batch(conn)
        if batch is not None and (row := batch.persons.get(person_id)) is not None:
            return row["canonical_name"], row["sex"]
        got = self._own_rows(conn, _PERSON_FIELDS, {"p": person_id})
        return (got[0][0], got[0][1]) if got else None

    def parents_named(self, conn: Connection, child_id: str, sex: str) -> list[tuple[str, str]]:
        """(id, canonical name) of the child's parents of that sex, as the relationships
        and persons tables give them (order not significant)."""
        batch = self._batch(conn)
        if batch is None:
            return [(str(i), n) for i, n in conn.execute(_PARENTS_OF_SEX,
                                                         {"c": child_id, "sex": sex})]
        if child_id in batch.persons:  # created in this batch: all its links are known
            ids = sorted(batch.parents.get(child_id, set()))
            out = []
        else:
            ids = sorted(batch.pending_parents.get(child_id, set()))
            out = [(str(i), n) for i, n in self._own_rows(conn, _PARENTS_OF_SEX,
                                                          {"c": child_id, "sex": sex})]
        for pid in ids:
            fields = self.person_fields(conn, pid)
            if fields is not None and fields[1] == sex:
                out.append((pid, fields[0]))
        return out

    def name_lines(self, conn: Connection, name: str) -> list[tuple[str, str, str, str]]:
        """(excerpt, person id, snapshot id, subject) of every "name" candidate with this
        value, queued ones included (promotion's "has this record line named them?")."""
        batch = self._batch(conn)
        if batch is None:
            return [tuple(r) for r in conn.execute(_NAME_LINES, {"v": name})]
        rows = [tuple(r) for r in self._own_rows(conn, _NAME_LINES, {"v": name})]
        rows += [(r["excerpt"], r.get("person_id"), r["snapshot_id"], r["subject"])
                 for r in batch.name_rows.get(name, [])]
        return rows

    def set_person(self, conn: Connection, person_id: str, agent: str, **values: Any) -> None:
        if "canonical_name" in values:
            values["name_key"] = name_key(values["canonical_name"])
        self._update_audited(conn, t.persons, "person", person_id, values, agent)

    def add_assertion(
        self,
        conn: Connection,
        a: Assertion,
        *,
        candidate_id: str | None,
        related_id: str | None = None,
        agent: str = "DecisionMaker",
    ) -> None:
        if not a.citations:
            raise InvariantViolation(f"assertion {a.field_name}={a.value!r} has no citation")
        d = a.date
        self._insert_values(conn, t.assertions, (  # VALUE_COLUMNS' order
            a.id, a.entity_id, a.entity_type, a.field_name, a.value, date_json(d),
            d.earliest.isoformat() if d and d.earliest else None,
            d.latest.isoformat() if d and d.latest else None,
            related_id, a.confidence, str(a.status), candidate_id, a.asserted_at))
        self._insert_citations(conn, a.id, a.citations)
        self.audit(
            conn,
            "assertion_added",
            "assertion",
            a.id,
            None,
            {
                "entity_id": a.entity_id,
                "field": a.field_name,
                "value": a.value,
                "status": str(a.status),
            },
            agent,
        )

    def add_citations(
        self, conn: Connection, assertion_id: str, citations: list[Citation], *, agent: str,
        reason: str,
    ) -> None:
        """More places that state an existing assertion (audited; citations are append-only)."""
        self._insert_citations(conn, assertion_id, citations)
        self.audit(conn, "citation_added", "assertion", assertion_id, None,
                   {"snapshots": [c.snapshot_id for c in citations]}, agent, reason)

    def _insert_citations(self, conn: Connection, assertion_id: str,
                          citations: list[Citation]) -> None:
        for c in citations:
            loc = c.locator
            self._insert_values(conn, t.citations, (  # VALUE_COLUMNS' order
                new_id(), assertion_id, c.snapshot_id, c.excerpt, loc.start, loc.end,
                loc.page, loc.line, c.extraction_method, c.source_reliability, c.rationale,
                str(c.match_status or "exact")))

    def set_assertion_status(
        self,
        conn: Connection,
        assertion_id: str,
        status: AssertionStatus,
        *,
        agent: str,
        reason: str,
    ) -> None:
        before = conn.execute(
            select(t.assertions.c.status).where(t.assertions.c.id == assertion_id)
        ).scalar()
        if before is None:
            raise NotFound(f"assertion {assertion_id} does not exist")
        if before == str(status):
            return
        conn.execute(
            update(t.assertions).where(t.assertions.c.id == assertion_id).values(status=str(status))
        )
        self.audit(
            conn,
            "assertion_status",
            "assertion",
            assertion_id,
            {"status": before},
            {"status": str(status)},
            agent,
            reason,
        )

    def add_relationship(
        self,
        conn: Connection,
        rel: Relationship,
        *,
        assertion_id: str | None = None,
        agent: str = "DecisionMaker",
    ) -> bool:
        """Insert a parent/spouse link; returns False when it already exists.

        The invariants are checked here to give a clear message; the database triggers and
        CHECK constraints enforce them again for any other writer.
        """
        q = _relationship_checks()
        p1, p2, kind = rel.person1_id, rel.person2_id, rel.relationship_type
        batch = self._batch(conn)
        for pid in (p1, p2):
            if batch is not None and pid in batch.persons:
                continue
            if not self._own_rows(conn, q["person"], {"p": pid}):
                raise NotFound(f"person {pid} does not exist")
        if self._linked(conn, batch, p1, p2, kind):
            return False
        if kind == "parent":
            if self._parent_count(conn, batch, p2) >= 2:
                raise InvariantViolation(
                    f"person {p2} already has two parents; refusing a third ({p1})"
                )
            if self._linked(conn, batch, p2, p1, "parent"):
                raise InvariantViolation(f"{p1} and {p2} cannot each be the other's parent")
        self._insert(
            conn,
            t.relationships,
            {
                "id": rel.id,
                "person1_id": rel.person1_id,
                "person2_id": rel.person2_id,
                "relationship_type": rel.relationship_type,
                "confidence": rel.confidence,
                "assertion_id": assertion_id,
                "created_at": utcnow(),
            },
        )
        self.audit(
            conn,
            "relationship_added",
            "relationship",
            rel.id,
            None,
            {"person1": rel.person1_id, "person2": rel.person2_id, "type": rel.relationship_type},
            agent,
        )
        return True

    def _linked(self, conn: Connection, batch: Batch | None, p1: str, p2: str,
                kind: str) -> bool:
        """Is there a link (p1, p2, kind)? A person created in this batch has only the
        batch's links; for others the database holds all but the queued ones."""
        if batch is not None:
            if (p1, p2, kind) in batch.links:
                return True
            if p1 in batch.persons or p2 in batch.persons:
                return False
        q = _relationship_checks()
        return bool(self._own_rows(conn, q["pair"], {"p1": p1, "p2": p2, "kind": kind}))

    def _parent_count(self, conn: Connection, batch: Batch | None, child: str) -> int:
        if batch is not None and child in batch.persons:
            return len(batch.parents.get(child, set()))
        q = _relationship_checks()
        n = int(self._own_rows(conn, q["parents"], {"p2": child})[0][0])
        return n + (len(batch.pending_parents.get(child, set())) if batch is not None else 0)

    def add_hypothesis(self, conn: Connection, h: Hypothesis) -> None:
        conn.execute(
            insert(t.hypotheses).values(
                id=h.id,
                hypothesis_type=h.hypothesis_type,
                statement=h.statement,
                target_person=h.target_person,
                related_person=h.related_person,
                suggested_queries=h.suggested_queries,
                priority=h.priority,
                status=h.status,
                generated_by=str(h.generated_by),
                is_fact=h.is_fact,
                evidence=[c.model_dump(mode="json") for c in h.evidence],
                created_at=utcnow(),
            )
        )
        self.audit(
            conn,
            "hypothesis_added",
            "hypothesis",
            h.id,
            None,
            {"statement": h.statement},
            str(h.generated_by),
        )

    def upsert_conflict(self, conn: Connection, c: Conflict) -> None:
        tbl = t.conflicts
        before = (
            conn.execute(select(tbl).where(tbl.c.person_id == c.person_id, tbl.c.field == c.field))
            .mappings()
            .first()
        )
        analysis = c.model_dump(mode="json")
        values = {
            "recommended_assertion_id": c.recommended_assertion_id,
            "is_tentative": c.is_tentative,
            "analysis": analysis,
            "updated_at": utcnow(),
        }
        if before is None:
            conn.execute(
                insert(tbl).values(id=c.id, person_id=c.person_id, field=c.field, **values)
            )
        else:
            conn.execute(update(tbl).where(tbl.c.id == before["id"]).values(**values))
        self.audit(
            conn,
            "conflict_adjudicated",
            "person",
            c.person_id,
            dict(before["analysis"]) if before else None,
            analysis,
            "Analyst",
        )

