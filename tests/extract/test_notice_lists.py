"""Relatives listed in obituaries without a survivor verb before them (issue 20; sentences
quoted or shortened from 1916 pages)."""

from __future__ import annotations

from prose_facts import prose_facts

from sleuth.model.dates import GenDate

REF = GenDate.from_parts(1916, 12, 1)


def _facts(text: str) -> dict[str, set[tuple[str, str]]]:
    return prose_facts(text, REF, related=True)


def test_a_counted_group_in_an_obituary_is_the_deceased_s() -> None:
    text = ("William Ducharme died Thursday, November 30, 1916. His father lives in Chazy, "
            "where his sister, Mrs. Ida Blair, also resides, and there are five brothers, "
            "Andrew, John, Levi, Joseph and Duff, all living in New York.")
    # ("Duff" alone is no known given name, so it makes no one: a surname is no person)
    f = _facts(text)
    w = "William Ducharme"
    assert (w, "Mrs. Ida Blair") in f["sibling"]  # "his sister": the deceased's
    assert {(w, n) for n in ("Andrew", "John", "Levi", "Joseph")} <= f["sibling"]


def test_a_mixed_group_gives_no_sex_and_someone_else_s_group_is_not_read() -> None:
    text = ("Maria Rissel died January 18, 1916. Also the following sisters and brothers: "
            "Louvinia Stahl, George and Adam. Mrs. Jones and her daughters, Mary and Ann, "
            "attended.")
    cands_f = _facts(text)
    m = "Maria Rissel"
    assert {(m, "Louvinia Stahl"), (m, "George"), (m, "Adam")} <= cands_f["sibling"]
    assert ("Louvinia Stahl", "M") not in cands_f.get("sex", set())
    assert not {v for _, v in cands_f.get("child", set())} & {"Mary", "Ann"}


def test_those_surviving_after_the_children_born() -> None:
    text = ("Ben N. Benson died October 6, 1916. To this union seven children were born, two "
            "passing away in infancy. Those surviving are Helen Johnson, of Denison, and "
            "Jennie C. Harvey, of Lacey, Iowa.")
    f = _facts(text)
    assert {("Ben N. Benson", "Helen Johnson"), ("Ben N. Benson", "Jennie C. Harvey")} <= f[
        "child"]


def test_a_relative_as_subject_is_not_the_deceased() -> None:
    text = ("Lucyndia Dunken was born at Vanwert, Ohio, March 26, 1847. Her mother died when "
            "she was but five years old, at Clear Lake.")
    f = _facts(text)
    assert not f.get("death_place") and not f.get("death_date")


def test_and_was_a_son_of_reaches_back_to_the_sentence_subject() -> None:
    text = ("Archie A. Crawford died Sunday. Mr. Crawford was born December 6, 1875, at "
            "Brockwayville, Pa., and was a son of Mr. and Mrs. J. D. Crawford.")
    f = _facts(text)
    assert {("Archie A. Crawford", "J. D. Crawford"),
            ("Archie A. Crawford", "Mrs. J. D. Crawford")} <= f["parent"]


def test_a_state_before_a_name_is_no_part_of_it() -> None:
    text = ("Friends came from Redfield, S. D.\nBen N. Benson was born June 10, 1838, in "
            "Sweden.")
    f = _facts(text)
    assert ("Ben N. Benson", "1838-06-10") in f["birth_date"]


def test_a_list_announced_at_a_sentence_end_is_the_next_sentence() -> None:
    # OCR read the colon as a period; her father's name does not make him the subject
    text = ("Mrs. F. M. Ragsdale died May 5, 1916. She was born in Boone county, "
            "September' 3,\n"
            "1873. Besides her father, J. W. Armstrong, of Fayette, and her husband, she "
            "leaves the following children. Forest, William,\nLois Virginia and Mary Lucile.")
    f = _facts(text)
    r = "Mrs. F. M. Ragsdale"
    assert (r, "1873-09-03") in f["birth_date"]  # the speck after the month is no matter
    assert (r, "Boone county") in f["birth_place"]
    assert (r, "J. W. Armstrong") in f["parent"]
    assert {(r, n) for n in ("Forest", "William", "Lois Virginia", "Mary Lucile")} <= f["child"]
    assert not [s for s, _ in f["child"] if s != r]


def test_sisters_named_with_their_husbands_and_towns() -> None:
    text = ("Mrs. Maggie Ribblet died September 8, 1916. She has also one brother and three "
            "sisters living: Lincoln I. Deshong, near Harrisonville; Emily, wife of Caleb B. "
            "Hockensmith, Johnstown; Rebecca, wife of George Gress, Dane; and Elizabeth, wife "
            "of John Carbaugh.")
    f = _facts(text)
    m = "Mrs. Maggie Ribblet"
    assert {(m, "Lincoln I. Deshong"), (m, "Emily"), (m, "Rebecca"),
            (m, "Elizabeth")} <= f["sibling"]
    assert ("Emily", "Caleb B. Hockensmith") in f["spouse"]
    assert ("Lincoln I. Deshong", "Caleb B. Hockensmith") not in f["spouse"]
    assert (m, "Dane") not in f["sibling"]  # the Gresses' town


def test_her_daughter_is_the_nearest_woman_named_before_not_an_older_item_s() -> None:
    text = ("George Carleton died Monday, October 9, 1916, at his home. The funeral of Mrs. "
            "Julia Bruce, wife\nof the late William Bruce, was held at\nthe home of her "
            "daughter, Mrs. Charles\nWilliams, 230 South Main street. Iowa Bellamy Stanley, "
            "daughter of Joshua and Ethalinda Bellamy, died at the home of her daughter, "
            "Blanche, at Coon Rapids, Iowa, Jan. 11, 1916.")
    f = _facts(text)
    assert ("Mrs. Julia Bruce", "Mrs. Charles Williams") in f["child"]
    assert ("Iowa Bellamy Stanley", "Blanche") in f["child"]
    assert not {s for s, _ in f["child"]} & {"George Carleton", "Ethalinda Bellamy"}


def test_the_subject_described_before_its_verb() -> None:
    text = ("George Holliday Stier, a former citizen of Lexington and a widely known insurance "
            "representative of the Mutual Life, died Sunday at his home. In 1876 Mr. Stier "
            "married Mrs. William Linquist.")
    f = prose_facts(text, GenDate.from_parts(1916, 7, 14), related=True)
    g = "George Holliday Stier"
    assert (g, "1916-07-09") in f["death_date"]  # "Sunday" before the issue of Friday 14th
    assert not [s for s, _ in f["death_date"] if s != g]  # not "Mutual Life"
    assert (g, "1876") in f["marriage_date"]


def test_a_place_stops_where_the_next_line_names_a_person() -> None:
    text = ("Ben Benson died October 6, 1916. To this union seven children were born. Those "
            "surviving are Helen Johnson, of Denison\n"
            "Anna Kulberg, of Cherokee, and Jennie C. Harvey, of Lacey, Iowa.")
    f = _facts(text)
    assert ("Helen Johnson", "Denison") in f["residence"]


def test_a_name_before_a_date_is_a_person_unless_it_opens_a_dateline() -> None:
    text = ("Ida Bellamy Stanley died at Coon Rapids, Jan. 11, 1916. She was united in "
            "marriage to J.\nH. Stanley, July 21, 1875. Besides her father, J. W. Armstrong, "
            "of Fayette, she leaves five children.")
    f = prose_facts(text, GenDate.from_parts(1916, 1, 20), related=True)
    s = "Ida Bellamy Stanley"
    assert (s, "J. H. Stanley") in f["spouse"]
    assert (s, "1875-07-21") in f["marriage_date"]
    assert ("J. W. Armstrong", "Fayette") in f["residence"]
    dateline = prose_facts("Rutland, Jan. 3. John Smith died yesterday.",
                           GenDate.from_parts(1916, 1, 4))
    assert "Rutland" not in {n for n, _ in dateline.get("name", set())}


def test_survivors_are_the_deceased_s_and_a_plural_title_is_the_whole_list_s() -> None:
    """'Among the other survivors are ...' names no one before its verb: the survivors are
    the item's deceased's. 'Misses'/'Messrs.' title every name of the list after them, and
    a given name with its middle initial ("Robert A.") is a list item too."""
    text = ("James Garrett died at his home Sunday, November 26, 1916. Among the other "
            "survivors are his parents, three sisters, namely, Misses Grace, Oma and Virginia "
            "Garrett, of Salem; and five brothers, Robert A. and John, of this city; and "
            "Messrs. Hugh and Walker Garrett.")
    f = _facts(text)
    j = "James Garrett"
    assert {(j, n) for n in ("Grace", "Oma", "Virginia Garrett", "Robert A.", "John",
                             "Hugh", "Walker Garrett")} <= f["sibling"], f["sibling"]
    assert not any(v.startswith(("Misses", "Messrs")) for _, v in f["sibling"])
