"""One life despite its records (`resolve.identity`) and couples named alike
(`resolve.coparents.couple_pairs`): the rules that let the research loop merge the
near-certain duplicates a hard life test used to keep apart (issue 19)."""

from __future__ import annotations

from case_builder import add_fact, add_person, link, snapshot
from sleuth.model import EvidenceType, GenDate
from sleuth.privacy import censor
from sleuth.resolve import merge, merge_blockers
from sleuth.resolve.coparents import couple_pairs
from sleuth.resolve.identity import one_life, register_pairs, same_life_pairs, stub_links
from sleuth.store import Store, case_graph


def _born(store: Store, pid: str, iso: str, name: str = "Albert Rendell") -> None:
    snap = snapshot(store, f"{pid}: {name} born {iso}.", EvidenceType.SECONDARY)
    y, m, d = (int(x) for x in iso.split("-"))
    add_fact(store, pid, "birth_date", iso, snap, GenDate.from_parts(y, m, d))


def _died(store: Store, pid: str, iso: str) -> None:
    snap = snapshot(store, f"{pid} died {iso}.", EvidenceType.SECONDARY)
    add_fact(store, pid, "death_date", iso, snap, GenDate.from_parts(int(iso[:4])))


def test_same_day_name_and_parent_are_one_life_whatever_the_death_says(store: Store) -> None:
    """A WikiTree profile says he died in 1991, his memorial 1981: two deaths that a life
    test keeps apart, but the same birth day and father make them one man with a conflict."""
    father = add_person(store, "Daniel Rendell", "M")
    a, b = add_person(store, "Albert Rendell", "M"), add_person(store, "Albert Rendell", "M")
    for pid, died in ((a, "1991-02-22"), (b, "1981-02-22")):
        _born(store, pid, "1898-02-09")
        _died(store, pid, died)
        link(store, father, pid)
    with store.engine.connect() as conn:
        assert merge_blockers(conn, [a, b]) == []  # the life test gives way
        assert one_life(conn, [a], [b]) is not None
        [(x, y, why)] = same_life_pairs(conn)
    assert {x, y} == {a, b} and "1898-02-09" in why
    merge(store, [x, y], why)
    [death] = [c for c in case_graph(store).conflicts if c.field == "death_date"]
    assert {r.value for r in death.competing} == {"1991-02-22", "1981-02-22"}


def test_a_birth_day_alone_or_another_family_is_not_one_life(store: Store) -> None:
    a, b, c = (add_person(store, "Albert Rendell", "M") for _ in range(3))
    for pid in (a, b, c):
        _born(store, pid, "1898-02-09")
    link(store, add_person(store, "Daniel Rendell", "M"), a)
    link(store, add_person(store, "Daniel Rendell", "M"), b)  # a namesake father, unmerged
    _died(store, a, "1981-02-22")
    _died(store, b, "1991-02-22")
    with store.engine.connect() as conn:
        assert same_life_pairs(conn) == []
        assert merge_blockers(conn, [a, b])  # two deaths, and nothing to say one life


def test_a_year_one_digit_apart_is_not_the_same_day(store: Store) -> None:
    """"14 Aug 1845" and "14 Aug 1835" with the same mother may be a copyist's slip, or a
    daughter named for a sister who died: not certain enough to merge on its own."""
    mother = add_person(store, "Lydia Whitfield", "F")
    a, b = add_person(store, "Emma Edith Whitfield", "F"), add_person(store, "Emma Whitfield", "F")
    _born(store, a, "1845-08-14", "Emma Edith Whitfield")
    _born(store, b, "1835-08-14", "Emma Whitfield")
    link(store, mother, a)
    link(store, mother, b)
    with store.engine.connect() as conn:
        assert same_life_pairs(conn) == []


def _two_emmas(store: Store, *lives: tuple[str, str]) -> list[str]:
    """Two daughters of one father named Emma Edith Whitfield, with these (birth, death)."""
    father = add_person(store, "John Alfred Whitfield", "M")
    out = []
    for born, died in lives:
        pid = add_person(store, "Emma Edith Whitfield", "F")
        _born(store, pid, born, "Emma Edith Whitfield")
        _died(store, pid, died)
        link(store, father, pid)
        out.append(pid)
    return out


def test_birth_and_death_days_each_a_digit_apart_are_one_life(store: Store) -> None:
    """A tree gives her 14 Aug 1845 - 28 Jul 1873, her memorial 14 Aug 1835 - 28 Jul 1871,
    both with the same father: two days of the year that agree are no namesake sister's,
    so one life whose years a copyist slipped, and the dates become conflicts."""
    a, b = _two_emmas(store, ("1845-08-14", "1873-07-28"), ("1835-08-14", "1871-07-28"))
    with store.engine.connect() as conn:
        [(x, y, why)] = same_life_pairs(conn)
        assert merge_blockers(conn, [a, b]) == []  # the life test gives way
    assert {x, y} == {a, b}
    assert "1835-08-14" in why and "1871-07-28" in why and "the same parent" in why
    merge(store, [x, y], why)
    fields = {c.field for c in case_graph(store).conflicts}
    assert {"birth_date", "death_date"} <= fields


def test_days_of_the_year_that_agree_need_years_a_digit_apart(store: Store) -> None:
    # 1835 and 1856: two digits apart; a death one day off is another day
    _two_emmas(store, ("1835-08-14", "1871-07-28"), ("1856-08-14", "1871-07-29"))
    with store.engine.connect() as conn:
        assert same_life_pairs(conn) == []


def test_a_merge_never_makes_anyone_their_own_ancestor(store: Store) -> None:
    """Eliza is the mother of one Matthew and the daughter of another: merging the two
    Matthews would make him his own grandson."""
    m1, m2 = add_person(store, "Matthew Whittick", "M"), add_person(store, "Matthew Whittick", "M")
    eliza = add_person(store, "Eliza Oakes", "F")
    link(store, eliza, m1)
    link(store, m2, eliza)
    with store.engine.connect() as conn:
        assert any("both an ancestor and a descendant" in b for b in merge_blockers(
            conn, [m1, m2]))
    son = add_person(store, "Robert Whittick", "M")
    link(store, m1, son)
    with store.engine.connect() as conn:
        assert any("is an ancestor" in b for b in merge_blockers(conn, [son, eliza]))


def test_two_births_years_apart_are_two_lives(store: Store) -> None:
    """The namesake grandson born in 1970 is not linked or merged to the man born 1898."""
    a, b = add_person(store, "Albert Rendell", "M"), add_person(store, "Albert Rendell", "M")
    _born(store, a, "1898-02-09")
    snap = snapshot(store, "Albert Rendell born 1970.")
    add_fact(store, b, "birth_date", "1970", snap, GenDate.from_parts(1970))
    with store.engine.connect() as conn:
        assert any("two births" in why for why in merge_blockers(conn, [a, b]))


def test_a_relative_named_in_one_record_meets_the_one_bearer_who_fits(store: Store) -> None:
    """A bride's 1950 marriage record names her father "Albert Rendell": of the case's two
    men of that name, the one born in 1970 cannot be him, so he is the one born 1898."""
    old, young = add_person(store, "Albert Rendell", "M"), add_person(store, "Albert Rendell", "M")
    _born(store, old, "1898-02-09")
    snap = snapshot(store, "Albert Rendell born 1970.")
    add_fact(store, young, "birth_date", "1970", snap, GenDate.from_parts(1970))
    stub, bride = add_person(store, "Albert Rendell", "M"), add_person(store, "Sarah Rendell", "F")
    link(store, stub, bride)
    wed = snapshot(store, "Sarah Edith Rendell married 1950-07-31.")
    add_fact(store, bride, "marriage_date", "1950-07-31", wed, GenDate.from_parts(1950, 7, 31))
    with store.engine.connect() as conn:
        assert stub_links(conn) == [(old, stub, stub_links(conn)[0][2])]
    other = add_person(store, "Albert Rendell", "M")  # a third who could be him too
    _born(store, other, "1901-03-01")
    with store.engine.connect() as conn:
        assert stub_links(conn) == []


def test_a_relative_named_with_another_partner_is_not_the_one_bearer(store: Store) -> None:
    """"A daughter of Daniel Giles and Ruth Pennington", born 1897: the case's one dated
    Ruth Pennington (born 1870) fits her dates, but her only husband is Richard Pennington,
    so the record's Ruth is left for evidence to place; with Daniel as her husband, she is
    the one who fits."""
    ruth, richard = add_person(store, "Ruth Pennington", "F"), add_person(
        store, "Richard Pennington", "M")
    _born(store, ruth, "1870-05-23", "Ruth Pennington")
    link(store, richard, ruth, "spouse")
    stub, daniel = add_person(store, "Ruth Pennington", "F"), add_person(
        store, "Daniel Giles", "M")
    edith = add_person(store, "Edith Clara Giles", "F")
    _born(store, edith, "1897-08-15", "Edith Clara Giles")
    link(store, stub, edith)
    link(store, daniel, edith)
    with store.engine.connect() as conn:
        assert stub_links(conn) == []
    link(store, daniel, ruth, "spouse")  # the case comes to know Daniel as hers
    with store.engine.connect() as conn:
        assert [(x, y) for x, y, _ in stub_links(conn)] == [(ruth, stub)]


def test_a_relative_is_not_made_a_mother_past_fifty(store: Store) -> None:
    """The one dated Elizabeth Mercer was born in 1875: the "Elizabeth Mercer" a 1929 birth
    names as mother is someone else, though no conflict of lives says so."""
    old, stub = add_person(store, "Elizabeth Mercer", "F"), add_person(
        store, "Elizabeth Mercer", "F")
    _born(store, old, "1875-06-27", "Elizabeth Mercer")
    girl = add_person(store, "Elizabeth Eliza Rendell", "F")
    _born(store, girl, "1929-04-09", "Elizabeth Eliza Rendell")
    link(store, stub, girl)
    with store.engine.connect() as conn:
        assert stub_links(conn) == []


def test_two_couples_named_alike_are_one_couple(store: Store) -> None:
    """His profile marries Albert Rendell to Sarah Jane Rendell; a daughter's record names
    her parents Albert Rendell and Sarah Jane Oakes: one couple, under her married name
    in one record and her maiden name in the other."""
    him = add_person(store, "Albert Rendell", "M")
    her = add_person(store, "Sarah Jane Rendell", "F")
    link(store, him, her, "spouse")
    _born(store, him, "1898-02-09")
    father = add_person(store, "Albert Rendell", "M")
    mother = add_person(store, "Sarah Jane Oakes", "F")
    child = add_person(store, "Lydia Tuttle", "F")
    link(store, father, child)
    link(store, mother, child)
    pairs = {(min(p.a, p.b), max(p.a, p.b)) for p in couple_pairs(censor(case_graph(store)))}
    assert pairs == {(min(him, father), max(him, father)), (min(her, mother), max(her, mother))}
    # a third Albert Rendell, wed to a Sarah Jane Smith (who may be the same Sarah Jane
    # Rendell before her marriage): no one couple is certain any more; a person decides
    other = add_person(store, "Sarah Jane Smith", "F")
    stranger = add_person(store, "Albert Rendell", "M")
    link(store, stranger, other, "spouse")
    assert couple_pairs(censor(case_graph(store))) == []


def test_a_couple_whose_wife_ocr_misread_is_one_couple(store: Store) -> None:
    """A newspaper's marriage notice weds Alfred Stroud to "Anu Rebecca Garside" (OCR's u
    for n); his profile to Ann Rebecca Garside: one couple. "Amy Rebecca Garside" is not a
    misreading of Ann, and a forename alone ("Anu Garside") is too little to say so."""
    him, her = add_person(store, "Alfred Stroud", "M"), add_person(store, "Ann Rebecca Garside")
    link(store, him, her, "spouse")
    groom = add_person(store, "Alfred Stroud", "M")
    bride = add_person(store, "Anu Rebecca Garside")
    link(store, groom, bride, "spouse")
    pairs = {frozenset((p.a, p.b)) for p in couple_pairs(censor(case_graph(store)))}
    assert pairs == {frozenset((him, groom)), frozenset((her, bride))}
    from sleuth.resolve.coparents import misread

    assert not misread("Amy Rebecca Garside", "Ann Rebecca Garside")
    assert not misread("Anu Garside", "Ann Garside")


def test_two_women_of_one_name_with_husbands_of_other_surnames_are_two(store: Store) -> None:
    """Hannah Giles wed to James Giles, and a Hannah Giles wed to James Arthur Blanchard (her
    daughter's record names her by her maiden name): a husband keeps his surname, so the
    two husbands are two men and the two Hannahs stay apart (a 1,000-person world merged a
    woman born 1759 with her namesake born 1828 this way)."""
    a, b = add_person(store, "Hannah Giles", "F"), add_person(store, "Hannah Giles", "F")
    for wife, husband in ((a, "James Giles"), (b, "James Arthur Blanchard")):
        link(store, wife, add_person(store, husband, "M"), "spouse")
    assert couple_pairs(censor(case_graph(store))) == []
    # husbands of one surname are still one couple's
    c = add_person(store, "Hannah Giles", "F")
    link(store, c, add_person(store, "James Blanchard", "M"), "spouse")
    assert len(couple_pairs(censor(case_graph(store)))) == 2


def test_a_wifes_maiden_and_married_names_meet_on_her_death_day(store: Store) -> None:
    """Her profile calls her Esther Hatherley, her obituary Esther Golden, wife of George
    Hatherley; the same parents and the same day of death make them one woman."""
    father = add_person(store, "Arthur Golden", "M")
    mother = add_person(store, "Esther Fenwick", "F")
    married = add_person(store, "Esther Hatherley", "F")
    maiden = add_person(store, "Esther Golden", "F")
    husband = add_person(store, "George Hatherley", "M")
    link(store, husband, maiden, "spouse")
    for pid in (married, maiden):
        link(store, father, pid)
        link(store, mother, pid)
        _died(store, pid, "1922-05-16")
    with store.engine.connect() as conn:
        [(x, y, why)] = same_life_pairs(conn)
    assert {x, y} == {married, maiden} and "death day (1922-05-16)" in why


def test_a_mother_has_no_two_living_daughters_of_one_name(store: Store) -> None:
    """The 1900 census's "Mary Hatherley", daughter of Esther, is Esther's daughter Mary
    Garside (born 1891, died 1967; Garside her husband's name); a daughter Mary born after
    an elder Mary died is another child."""
    from sleuth.resolve.identity import sibling_pairs

    mother = add_person(store, "Esther Hatherley", "F")
    wed, maiden = add_person(store, "Mary Garside", "F"), add_person(store, "Mary Hatherley", "F")
    link(store, add_person(store, "Richard Arthur Garside", "M"), wed, "spouse")
    _born(store, wed, "1891-12-27", "Mary Garside")
    _died(store, wed, "1967-07-25")
    census = snapshot(store, "Mary Hatherley, daughter, census of 1900.")
    add_fact(store, maiden, "residence_date", "1900", census, GenDate.from_parts(1900))
    for child in (wed, maiden):
        link(store, mother, child)
    with store.engine.connect() as conn:
        [(x, y, why)] = sibling_pairs(conn)
    assert {x, y} == {wed, maiden} and "alive in 1900" in why
    other = add_person(store, "Martha Hatherley", "F")  # another forename: a sister
    add_fact(store, other, "residence_date", "1900", census, GenDate.from_parts(1900))
    link(store, mother, other)
    died_young = add_person(store, "Mary Hatherley", "F")  # an elder Mary, dead in 1889
    _died(store, died_young, "1889-03-01")
    link(store, mother, died_young)
    with store.engine.connect() as conn:
        assert [{a, b} for a, b, _ in sibling_pairs(conn)] == [{wed, maiden}]


def test_brothers_told_apart_by_their_middle_names_are_two(store: Store) -> None:
    """Daniel James Giles (1953-2020) and Daniel Nathaniel Giles (1955-2019), sons of one
    father, were both alive in 1955; their middle names say they are two brothers (a
    1,000-person world's wrong merge). A middle initial agrees with the name it begins."""
    from sleuth.resolve.identity import sibling_pairs

    father = add_person(store, "William Giles", "M")
    james = add_person(store, "Daniel James Giles", "M")
    nathaniel = add_person(store, "Daniel Nathaniel Giles", "M")
    _born(store, james, "1953-05-13", "Daniel James Giles")
    _died(store, james, "2020-12-24")
    _born(store, nathaniel, "1955-05-04", "Daniel Nathaniel Giles")
    _died(store, nathaniel, "2019-05-24")
    for son in (james, nathaniel):
        link(store, father, son)
    with store.engine.connect() as conn:
        assert sibling_pairs(conn) == []
    initial = add_person(store, "Daniel J. Giles", "M")
    census = snapshot(store, "Daniel J. Giles, son, census of 1960.")
    add_fact(store, initial, "residence_date", "1960", census, GenDate.from_parts(1960))
    link(store, father, initial)
    with store.engine.connect() as conn:
        assert {frozenset((a, b)) for a, b, _ in sibling_pairs(conn)} == {
            frozenset((james, initial))}


def _facts(store: Store, pid: str, text: str, **values: str) -> None:
    snap = snapshot(store, text, EvidenceType.SECONDARY)
    for fld, value in values.items():
        add_fact(store, pid, fld, value, snap)


def _burial(store: Store, pid: str, buried: str, age: str, place: str) -> None:
    _facts(store, pid, f"Emma GARSIDE buried {buried} at {place}, aged {age}.",
           burial_date=buried, age_at_death=age, burial_place=place)


def _emma_garside(store: Store, died: str = "1871-07-28") -> str:
    pid = add_person(store, "Emma Edith Garside", "F")
    _facts(store, pid, f"Emma Edith Garside born 1835-08-14 died {died} at Zennor, Cornwall.",
           birth_date="1835-08-14", death_date=died, death_place="Zennor, Cornwall")
    return pid


def test_a_register_burial_days_after_her_death_is_her_burial(store: Store) -> None:
    """FreeREG's "Emma GARSIDE, buried 31 Jul 1871 at St Senara, Zennor, aged 35" and the
    Emma Edith Garside who died at Zennor three days before, born 1835: one life."""
    emma = _emma_garside(store)
    entry = add_person(store, "Emma GARSIDE")
    _burial(store, entry, "1871-07-31", "35", "St Senara, Zennor")
    with store.engine.connect() as conn:
        [(x, y, why)] = register_pairs(conn)
    assert (x, y) == (emma, entry) and "burial" in why and "age" in why
    # a tree's wrong birth year (1845, "aged 35" in 1871 says 1836) is a conflict to weigh,
    # not a second life: the life test gives way to the register's evidence
    _facts(store, emma, "Emma Edith Garside born 1845-08-14.", birth_date="1845-08-14")
    with store.engine.connect() as conn:
        assert [p[:2] for p in register_pairs(conn)] == [(emma, entry)]
        assert merge_blockers(conn, [x, y]) == []


def test_a_register_entry_that_fits_no_one_or_two_is_left_alone(store: Store) -> None:
    _emma_garside(store)
    older = add_person(store, "Emma GARSIDE")  # aged 70: another Emma
    _burial(store, older, "1871-07-31", "70", "St Senara, Zennor")
    elsewhere = add_person(store, "Emma GARSIDE")  # buried in another parish
    _burial(store, elsewhere, "1871-08-02", "35", "Madron, Penzance")
    late = add_person(store, "Emma GARSIDE")  # a month after her death
    _burial(store, late, "1871-08-30", "35", "St Senara, Zennor")
    with store.engine.connect() as conn:
        assert register_pairs(conn) == []
    _emma_garside(store, died="1871-07-27")  # two who died days before: which one?
    fits = add_person(store, "Emma GARSIDE")
    _burial(store, fits, "1871-07-31", "36", "St Senara, Zennor")
    with store.engine.connect() as conn:
        assert register_pairs(conn) == []
