"""Family context in telling persons apart: one child, one mother (a child's same-sex
parents whose names agree are one person), and a namesake married to someone else is not
linked by name."""

from __future__ import annotations

import hashlib

from sqlalchemy import select

from sleuth.model import Candidate, CaseGraph, Citation, GenDate, Locator, Person, Snapshot
from sleuth.pipeline import process_snapshot
from sleuth.resolve.coparents import coparent_pairs, could_be_one
from sleuth.store import Store, review_items
from sleuth.store import schema as t


def test_names_that_can_be_one_parent() -> None:
    assert could_be_one("Lydia", "Lydia Cole", "Edward PENNINGTON")  # forename alone
    assert could_be_one("Lydia PENNINGTON", "Lydia Cole", "Edward Pennington")  # married name
    assert could_be_one("William GILES", "William Giles", "James Giles")
    assert could_be_one("Mrs. Lydia Cole", "L. Cole", "Edward Pennington")  # an initial
    assert not could_be_one("Lydia", "Hannah Cole", "Edward Pennington")
    assert not could_be_one("Lydia Wyatt", "Lydia Cole", "Edward Pennington")


def test_pairs_are_same_sex_parents_of_one_child() -> None:
    graph = CaseGraph(persons=[  # (a person holds two parents at most)
        Person(id="c", canonical_name="Edward Pennington", sex="M", parents={"m1", "m2"}),
        Person(id="d", canonical_name="Ann Pennington", sex="F", parents={"m1", "m3"}),
        Person(id="e", canonical_name="Ann Pennington", sex="F", parents={"f", "m1"}),
        Person(id="f", canonical_name="Daniel Pennington", sex="M"),
        Person(id="m1", canonical_name="Lydia Cole", sex="F"),
        Person(id="m2", canonical_name="Lydia", sex="F"),
        Person(id="m3", canonical_name="Hannah Cole", sex="F"),  # another name: a conflict
    ])
    [pair] = coparent_pairs(graph)
    assert {pair.a, pair.b} == {"m1", "m2"} and pair.child == "c"
    assert "a child has one mother" in pair.rationale


def _record(store: Store, text: str, rows: list[tuple[str, str, str, str | None]],
            lines: dict[str, int] | None = None) -> None:
    """Store `text` as a snapshot and promote candidates (subject, field, value, related),
    each citing the whole text (with `lines`: its subject's line, by number)."""
    raw = text.encode()
    snap = Snapshot(sha256=hashlib.sha256(raw).hexdigest(), path=f"/{hash(text)}.txt",
                    source_name="register", text=text)
    names = {s: v for s, f, v, _ in rows if f == "name"}

    def cite(subject: str) -> Citation:
        start, excerpt = 0, text
        if lines:
            rows = text.split("\n")
            n = lines[subject]
            start, excerpt = sum(len(x) + 1 for x in rows[:n]), rows[n]
        return Citation(snapshot_id=snap.id, excerpt=excerpt,
                        locator=Locator(start=start, end=start + len(excerpt)))

    cands = [Candidate(subject=s, subject_name=names.get(s), field=f, value=v, related=r,
                       date=GenDate.from_parts(int(v)) if f.endswith("_date") else None,
                       related_name=names.get(r or ""), confidence=0.95, citation=cite(s))
             for s, f, v, r in rows]
    with store.transaction() as tx:
        store.put_snapshot(tx, raw, snap)
        process_snapshot(store, tx, snap, cands)


def test_a_register_mother_by_forename_is_the_childs_known_mother(store: Store) -> None:
    _record(store, "Edward Pennington, son of Daniel Pennington and Lydia Cole.", [
        ("p1", "name", "Edward Pennington", None), ("p2", "name", "Daniel Pennington", None),
        ("p2", "sex", "M", None), ("p3", "name", "Lydia Cole", None), ("p3", "sex", "F", None),
        ("p1", "parent", "Daniel Pennington", "p2"), ("p1", "parent", "Lydia Cole", "p3")])
    _record(store, "Edward PENNINGTON baptised; father Daniel PENNINGTON; mother Lydia.", [
        ("p1", "name", "Edward PENNINGTON", None), ("p2", "name", "Daniel PENNINGTON", None),
        ("p2", "sex", "M", None), ("p3", "name", "Lydia", None), ("p3", "sex", "F", None),
        ("p1", "parent", "Daniel PENNINGTON", "p2"), ("p1", "parent", "Lydia", "p3")])
    with store.engine.connect() as conn:
        people = dict(conn.execute(select(t.persons.c.canonical_name, t.persons.c.id)).all())
        parents = conn.execute(select(t.relationships.c.person1_id).where(
            t.relationships.c.relationship_type == "parent")).scalars().all()
    assert "Lydia" not in people  # her register entry is read as Lydia Cole, not a new person
    assert sorted(parents) == sorted([people["Daniel Pennington"], people["Lydia Cole"]])
    assert review_items(store) == []  # no third parent refused


def test_a_father_named_on_two_lines_of_one_register_is_the_known_father(
        store: Store) -> None:
    _record(store, "Alfred Cole had sons Stephen Cole and John Cole by Mary Cole.", [
        ("a", "name", "Alfred Cole", None), ("a", "sex", "M", None),
        ("m", "name", "Mary Cole", None), ("m", "sex", "F", None),
        ("s", "name", "Stephen Cole", None), ("j", "name", "John Cole", None),
        ("s", "parent", "Alfred Cole", "a"), ("s", "parent", "Mary Cole", "m"),
        ("j", "parent", "Alfred Cole", "a"), ("j", "parent", "Mary Cole", "m")])
    _record(store, "1784 Stephen COLE bachelor, father Alfred COLE carpenter;\n"
                   "1788 John COLE bachelor, father Alfred COLE carpenter.", [
        ("p1", "name", "Stephen COLE", None), ("p2", "name", "Alfred COLE", None),
        ("p2", "sex", "M", None), ("p1", "parent", "Alfred COLE", "p2"),
        ("p3", "name", "John COLE", None), ("p4", "name", "Alfred COLE", None),
        ("p4", "sex", "M", None), ("p3", "parent", "Alfred COLE", "p4")],
        lines={"p1": 0, "p2": 0, "p3": 1, "p4": 1})
    assert len(_named(store, "Alfred Cole")) == 1  # one father on both lines, no orphan
    assert review_items(store) == []  # and no third parent refused


def _thomases(store: Store) -> list[str]:
    with store.engine.connect() as conn:
        return list(conn.execute(select(t.persons.c.id).where(
            t.persons.c.canonical_name == "Thomas Greenwood")).scalars())


def test_a_namesake_married_to_someone_else_is_not_linked_by_name(store: Store) -> None:
    _record(store, "Ruth Wren, daughter of Thomas Greenwood and Mary Cole.", [
        ("p1", "name", "Ruth Wren", None), ("p2", "name", "Thomas Greenwood", None),
        ("p2", "sex", "M", None), ("p3", "name", "Mary Cole", None), ("p3", "sex", "F", None),
        ("p1", "parent", "Thomas Greenwood", "p2"), ("p1", "parent", "Mary Cole", "p3")])
    _record(store, "Thomas Greenwood died 1920. He married Phoebe Strugnell in 1888.", [
        ("p1", "name", "Thomas Greenwood", None), ("p1", "death_date", "1920", None),
        ("p2", "name", "Phoebe Strugnell", None),
        ("p1", "spouse", "Phoebe Strugnell", "p2")])
    assert len(_thomases(store)) == 2  # Ruth's father had a child with Mary Cole
    _record(store, "Thomas Greenwood was buried 1931. He married Mary Cole in 1886.", [
        ("p1", "name", "Thomas Greenwood", None), ("p1", "burial_date", "1931", None),
        ("p2", "name", "Mary Cole", None), ("p1", "spouse", "Mary Cole", "p2")])
    with store.engine.connect() as conn:
        buried = conn.execute(select(t.assertions.c.entity_id).where(
            t.assertions.c.field_name == "spouse", t.assertions.c.value == "Mary Cole")).scalar()
        father = conn.execute(select(t.relationships.c.person1_id).join(
            t.persons, t.persons.c.id == t.relationships.c.person1_id).where(
            t.persons.c.canonical_name == "Thomas Greenwood")).scalar()
    assert buried == father and len(_thomases(store)) == 2  # his child's mother: same Thomas


def _named(store: Store, name: str) -> list[str]:
    from sqlalchemy import func

    with store.engine.connect() as conn:
        return list(conn.execute(select(t.persons.c.id).where(
            func.lower(t.persons.c.canonical_name) == name.lower())).scalars())


def test_a_bride_is_not_her_namesake_buried_under_that_name_after_the_wedding(
        store: Store) -> None:
    _record(store, "Burial 1981: Mildred GREENWOOD, aged 73.", [
        ("p1", "name", "Mildred GREENWOOD", None), ("p1", "sex", "F", None),
        ("p1", "burial_date", "1981", None)])
    _record(store, "Marriage 1952: Ryan STRUGNELL, bachelor, and Mildred GREENWOOD.", [
        ("p1", "name", "Ryan STRUGNELL", None), ("p1", "sex", "M", None),
        ("p2", "name", "Mildred GREENWOOD", None), ("p2", "sex", "F", None),
        ("p2", "marriage_date", "1952", None),
        ("p2", "spouse", "Ryan STRUGNELL", "p1")])
    assert len(_named(store, "Mildred GREENWOOD")) == 2  # she was buried a Strugnell
    _record(store, "Burial 1990: Louisa COLE, aged 80.", [  # the other way round
        ("p1", "name", "Louisa COLE", None), ("p1", "sex", "F", None),
        ("p1", "burial_date", "1990", None)])
    _record(store, "Marriage 1930: Jack WREN and Louisa COLE.", [
        ("p1", "name", "Jack WREN", None), ("p1", "sex", "M", None),
        ("p2", "name", "Louisa COLE", None), ("p2", "sex", "F", None),
        ("p2", "marriage_date", "1930", None), ("p2", "spouse", "Jack WREN", "p1")])
    _record(store, "Burial 1995: Louisa COLE.", [
        ("p1", "name", "Louisa COLE", None), ("p1", "burial_date", "1995", None)])
    assert len(_named(store, "Louisa COLE")) == 3
    _record(store, "Baptism 1931: Edith COLE.", [
        ("p1", "name", "Edith COLE", None), ("p1", "sex", "F", None),
        ("p1", "baptism_date", "1931", None)])
    _record(store, "Marriage 1955: Tom HALL and Edith COLE.", [
        ("p1", "name", "Tom HALL", None), ("p2", "name", "Edith COLE", None),
        ("p2", "sex", "F", None), ("p2", "marriage_date", "1955", None),
        ("p2", "spouse", "Tom HALL", "p1")])
    assert len(_named(store, "Edith COLE")) == 1  # baptised before her wedding: one Edith


def test_a_first_marriage_at_an_unusual_age_is_not_linked_by_name(store: Store) -> None:
    _record(store, "Baptism 1861: Louisa GREENWOOD.", [
        ("p1", "name", "Louisa GREENWOOD", None), ("p1", "sex", "F", None),
        ("p1", "baptism_date", "1861", None)])
    _record(store, "Marriage 1928: Richard PRITCHARD and Louisa GREENWOOD, spinster.", [
        ("p1", "name", "Richard PRITCHARD", None), ("p2", "name", "Louisa GREENWOOD", None),
        ("p2", "sex", "F", None), ("p2", "marriage_date", "1928", None),
        ("p2", "marital_status", "spinster", None), ("p2", "spouse", "Richard PRITCHARD", "p1")])
    assert len(_named(store, "Louisa GREENWOOD")) == 2  # a spinster bride of 67: another
    _record(store, "Marriage 1885: John HALL, bachelor, and Ann BEARE.", [
        ("p1", "name", "John HALL", None), ("p1", "sex", "M", None),
        ("p1", "marriage_date", "1885", None), ("p1", "marital_status", "bachelor", None),
        ("p2", "name", "Ann BEARE", None), ("p1", "spouse", "Ann BEARE", "p2")])
    _record(store, "Baptism 1860: John HALL.", [  # wed at 25: the bachelor himself
        ("p1", "name", "John HALL", None), ("p1", "baptism_date", "1860", None)])
    assert len(_named(store, "John HALL")) == 1
    _record(store, "Baptism 1871: John HALL.", [  # the other way round: wed at 14
        ("p1", "name", "John HALL", None), ("p1", "baptism_date", "1871", None)])
    assert len(_named(store, "John HALL")) == 2


def test_a_spinster_bride_is_not_a_mother_named_a_lifetime_before(store: Store) -> None:
    _record(store, "Marriage 1967: Larry STROUD and Ethel MAXEY, spinster.", [
        ("p1", "name", "Larry STROUD", None), ("p2", "name", "Ethel MAXEY", None),
        ("p2", "sex", "F", None), ("p2", "marriage_date", "1967", None),
        ("p2", "marital_status", "spinster", None), ("p2", "spouse", "Larry STROUD", "p1")])
    _record(store, "Ann Beckwith was born on January 23, 1880, a daughter of James Beckwith "
                   "and Ethel MAXEY.", [
        ("d", "name", "Ann Beckwith", None), ("d", "birth_date", "1880", None),
        ("m", "name", "Ethel MAXEY", None), ("m", "sex", "F", None),
        ("d", "parent", "Ethel MAXEY", "m")])
    assert len(_named(store, "Ethel MAXEY")) == 2  # a mother in 1880, a spinster at 99?


def test_a_child_of_other_parents_is_not_linked_by_name(store: Store) -> None:
    _record(store, "Rebecca Stroud, born 1959, daughter of Samuel Richard Stroud.", [
        ("p1", "name", "Rebecca Stroud", None), ("p1", "birth_date", "1959", None),
        ("p2", "name", "Samuel Richard Stroud", None), ("p2", "sex", "M", None),
        ("p1", "parent", "Samuel Richard Stroud", "p2")])
    _record(store, "Burial 1972: Rebecca STROUD, dau of Larry and Ethel.", [
        ("p1", "name", "Rebecca STROUD", None), ("p1", "burial_date", "1972", None),
        ("p2", "name", "Larry", None), ("p2", "sex", "M", None),
        ("p3", "name", "Ethel", None), ("p3", "sex", "F", None),
        ("p1", "parent", "Larry", "p2"), ("p1", "parent", "Ethel", "p3")])
    assert len(_named(store, "Rebecca Stroud")) == 2  # her father is Samuel, not Larry
    _record(store, "Baptism 1959: Rebecca STROUD, dau of Samuel and Ann.", [
        ("p1", "name", "Rebecca STROUD", None), ("p1", "baptism_date", "1959", None),
        ("p2", "name", "Samuel", None), ("p2", "sex", "M", None),
        ("p3", "name", "Ann", None), ("p3", "sex", "F", None),
        ("p1", "parent", "Samuel", "p2"), ("p1", "parent", "Ann", "p3")])
    with store.engine.connect() as conn:  # her own father, and a mother not yet known: her
        linked = conn.execute(select(t.citations.c.id).join(
            t.assertions, t.assertions.c.id == t.citations.c.assertion_id).where(
            t.assertions.c.field_name == "baptism_date",
            t.assertions.c.entity_id.in_(_named(store, "Rebecca Stroud")))).first()
    assert linked is not None


def test_a_wifes_husband_and_her_sons_father_of_one_name_are_one_partner() -> None:
    from sleuth.resolve.coparents import partner_pairs

    graph = CaseGraph(persons=[
        Person(id="alice", canonical_name="Alice Ruth Greenwood", sex="F",
               spouses={"d1", "d2"}, children={"tom"}),
        Person(id="tom", canonical_name="Thomas Greenwood", sex="M", parents={"alice", "d3"}),
        Person(id="d1", canonical_name="David Greenwood", sex="M"),
        Person(id="d2", canonical_name="Edward Smith", sex="M"),  # a second husband
        Person(id="d3", canonical_name="David Greenwood", sex="M"),
    ])
    assert {(p.a, p.b) for p in partner_pairs(graph)} == {("d1", "d3")}


def test_a_husband_no_record_gives_a_sex_is_still_her_husband() -> None:
    """Her obituary names her husband only ("wife of David Greenwood"): no sex is stated,
    and he is still one of her husbands, the same as her son's father of that name."""
    from sleuth.resolve.coparents import partner_pairs

    graph = CaseGraph(persons=[
        Person(id="alice", canonical_name="Alice Ruth Greenwood", sex="F",
               spouses={"obit"}, children={"tom"}),
        Person(id="tom", canonical_name="Thomas Greenwood", sex="M", parents={"alice", "memo"}),
        Person(id="obit", canonical_name="David Greenwood"),  # sex unknown
        Person(id="memo", canonical_name="David Greenwood", sex="M"),
    ])
    assert {(p.a, p.b) for p in partner_pairs(graph)} == {("memo", "obit")}
    unknown = CaseGraph(persons=[p.model_copy(update={"sex": "U"}) if p.id == "alice" else p
                                 for p in graph.persons])
    assert partner_pairs(unknown) == []  # neither sex known: nothing to go by


def test_duplicate_parents_are_merged_first_so_their_son_can_be(store: Store) -> None:
    from types import SimpleNamespace

    from case_builder import add_person, link
    from sleuth.loop.resolution import parents_first
    from sleuth.resolve import merge_blockers
    from sleuth.store.queries import merged_into

    son_a, son_b = add_person(store, "Thomas Greenwood", "M"), add_person(
        store, "Thomas Greenwood", "M")
    father = add_person(store, "David Greenwood", "M")
    maiden = add_person(store, "Alice Ruth Tremayne", "F")
    married = add_person(store, "Alice Ruth Greenwood", "F")
    for parent, child in ((father, son_a), (maiden, son_a), (married, son_b)):
        link(store, parent, child)
    rt = SimpleNamespace(store=store)
    with store.transaction() as conn:
        assert merge_blockers(conn, [son_a, son_b])  # three parents
        assert parents_first(rt, conn, [son_a, son_b])  # type: ignore[arg-type]
        clustered = merged_into(conn)
        assert clustered.get(maiden, maiden) == clustered.get(married, married)
    other = add_person(store, "Thomas Greenwood", "M")
    link(store, add_person(store, "Hannah Greenwood", "F"), other)
    with store.transaction() as conn:  # Hannah is not Alice: nothing is merged, nothing left
        before = merged_into(conn)
        assert not parents_first(rt, conn, [son_a, other])  # type: ignore[arg-type]
        assert merged_into(conn) == before


def test_her_mothers_own_two_fathers_are_merged_first_too(store: Store) -> None:
    """Emma's two records name her mother Lydia Whitfield (married) and Lydia KETTERIDGE
    (maiden); Lydia's own two records name her father John Ketteridge twice: merging Emma
    needs the Lydias merged, and that needs the Johns merged first (two generations up)."""
    from types import SimpleNamespace

    from case_builder import add_person, link
    from sleuth.loop.resolution import parents_first
    from sleuth.resolve import merge_blockers
    from sleuth.store.queries import merged_into

    emma_a, emma_b = (add_person(store, "Emma Edith Whitfield", "F") for _ in range(2))
    father = add_person(store, "John Alfred Whitfield", "M")
    married, maiden = (add_person(store, "Lydia Whitfield", "F"),
                       add_person(store, "Lydia Ketteridge", "F"))
    john_a, john_b = (add_person(store, "John Ketteridge", "M") for _ in range(2))
    susannah = add_person(store, "Susannah Whittick", "F")
    for parent, child in ((father, emma_a), (married, emma_a), (father, emma_b),
                          (maiden, emma_b), (john_a, married), (john_b, maiden),
                          (susannah, maiden)):
        link(store, parent, child)
    rt = SimpleNamespace(store=store)
    with store.transaction() as conn:
        assert merge_blockers(conn, [married, maiden])  # Lydia would have three parents
        assert parents_first(rt, conn, [emma_a, emma_b])  # type: ignore[arg-type]
        clustered = merged_into(conn)
        assert clustered.get(married, married) == clustered.get(maiden, maiden)
        assert clustered.get(john_a, john_a) == clustered.get(john_b, john_b)
        assert merge_blockers(conn, [emma_a, emma_b]) == []
