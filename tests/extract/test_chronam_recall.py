"""Obituary constructions read for relatives and vital dates (issue 20, recall on the chronam
dev set); sentences written after the 1916 pages' wording, OCR slips kept where they matter."""

from __future__ import annotations

from prose_facts import prose_facts

from sleuth.extract.dates import DATE_FIND, parse_date
from sleuth.model.dates import GenDate

REF = GenDate.from_parts(1916, 12, 1)


def _facts(text: str, ref: GenDate = REF) -> dict[str, set[tuple[str, str]]]:
    return prose_facts(text, ref, related=True)


def test_the_nth_day_of_a_month_is_a_full_date() -> None:
    for text in ("on the 22nd day of February, 1870", "the 22nd, day of . February,\n1870"):
        m = DATE_FIND.search(text)
        assert m is not None
        g = parse_date(m.group())
        assert g is not None and g.iso() == "1870-02-22"


def test_debris_before_an_abbreviated_month_does_not_end_the_sentence() -> None:
    text = ("Flossie Willey, the daughter of Mr. and Mrs. George Willey, departed this life at "
            "Marjorie, Minn., on Tuesday, .Jan. 4, iw. Cause of death, pneumonia.")
    f = _facts(text, GenDate.from_parts(1916, 1, 13))
    assert ("Flossie Willey", "1916-01-04") in f["death_date"]


def test_a_capitals_heading_names_the_item_and_its_misread_opening_name() -> None:
    text = ("DEATH OF THOMAS HOUGHTON.\n"
            "Thomas Tfouediton, a well known resident of Barre Town, passed away at his home "
            "Thursday morning. He is survived by his wife and two sons, Joseph Houghton of "
            "Graniteville and Charles Houghton of Sunset, Idaho. Mr. Houghton was a quarryman.")
    f = _facts(text)
    t = "THOMAS HOUGHTON"  # the heading's name, as printed
    assert {(t, "Joseph Houghton"), (t, "Charles Houghton")} <= f["child"]
    assert not any(s.startswith("Thomas Tf") for s, _ in f["child"])


def test_a_surname_heading_starts_a_new_item() -> None:
    # Mrs. Aberg's item ends at the heading "STRAYER.": the next woman's birth name and
    # relatives are not hers.
    text = ("OBITUARY.\nABERG.\nMrs. Anna Aberg died January 17, 1916, at her home. She "
            "leaves her husband and eight children.\nSTRAYER.\nKate Josephine Green was born "
            "in Walworth county, Wis., June 1, 1857. She came to Calmar to visit her sister, "
            "Mrs. Kaye.")
    f = _facts(text)
    assert ("Kate Josephine Green", "1857-06-01") in f["birth_date"]
    assert not any(s == "Mrs. Anna Aberg" for s, _ in f.get("sibling", set()))
    assert not any(s == "Mrs. Anna Aberg" for s, _ in f.get("birth_date", set()))


def test_children_who_survive_together_with_the_widow_are_the_deceased_s() -> None:
    text = ("Thomas F. Sloan died yesterday. In 1870 he was married to Miss Josephine "
            "Alexander, a sister of the late Senator W. Scott Alexander, who survives together "
            "with the following children, namely, Alexander, Thomas Franklin, Walter Reed, and "
            "Miss Harriet Barton.")
    f = _facts(text)
    t = "Thomas F. Sloan"
    assert {(t, "Alexander"), (t, "Thomas Franklin"), (t, "Walter Reed"),
            (t, "Miss Harriet Barton")} <= f["child"]
    assert not any(s == "Miss Josephine Alexander" for s, _ in f.get("child", set()))


def test_a_list_the_ocr_cut_with_a_full_stop_goes_on_in_the_next_sentence() -> None:
    text = ("Burton B. Gale died Thursday, November 30, 1916. Four children survive, as "
            "follows: Pliny X. Gale. Kenneth B. Gale and Julian Gale of Montpelier, and Allan "
            "Gale of Barre.")
    f = _facts(text)
    b = "Burton B. Gale"
    assert {(b, "Pliny X. Gale"), (b, "Kenneth B. Gale"), (b, "Julian Gale"),
            (b, "Allan Gale")} <= f["child"]


def test_a_whole_list_does_not_run_on() -> None:
    text = ("John Smith died Monday, May 15, 1916. He leaves two sons, John and James. "
            "Henry Brown and Mary Brown sang.")
    f = _facts(text)
    assert not {v for _, v in f["child"]} & {"Henry Brown", "Mary Brown"}


def test_a_daughter_listed_by_given_name_then_married_name() -> None:
    text = ("Mrs. John Young died Wednesday, January 12, 1916. Four children were born to this "
            "union, Will, of Onaway; George, of Gaylord; John, deceased, and Mary, Mrs. Martin "
            "Kilhourn.")
    f = _facts(text, GenDate.from_parts(1916, 1, 13))
    y = "Mrs. John Young"
    assert {(y, "Will"), (y, "Mary")} <= f["child"]
    assert ("Mary", "Martin Kilhourn") in f["spouse"]
    assert (y, "Mrs. Martin Kilhourn") not in f["child"]


def test_children_born_then_listed_in_the_next_sentence() -> None:
    text = ("Mrs. William Clyne died Thursday, January 6, 1916. Five children were born here "
            "and grew to manhood and womanhood. James, of Jeddo; Thomas, of Yale; Mary, of "
            "Pontiac.")
    f = _facts(text, GenDate.from_parts(1916, 1, 13))
    c = "Mrs. William Clyne"
    assert {(c, "James"), (c, "Thomas"), (c, "Mary")} <= f["child"]
    assert ("James", "Jeddo") in f["residence"]


def test_a_name_before_a_line_broken_word_is_still_a_name() -> None:
    # the reading view joins "oc|curred"; "Clyne" is no word the line end broke
    text = ("The death of Mrs. William Clyne oc\ncurred Thursday, January 6, 1916, at her "
            "home.")
    f = _facts(text, GenDate.from_parts(1916, 1, 13))
    assert ("Mrs. William Clyne", "1916-01-06") in f["death_date"]


def test_native_of_under_a_married_woman_s_obituary_is_her_birth_name() -> None:
    text = ("The death of Mrs. William Clyne occurred Thursday, January 6, 1916. Catherine "
            "O'Connor was a native of Ireland. Five children were born to them, James, of "
            "Jeddo, and Thomas, of Yale.")
    f = _facts(text, GenDate.from_parts(1916, 1, 13))
    c = "Mrs. William Clyne"
    assert (c, "Ireland") in f["birth_place"]
    assert {(c, "James"), (c, "Thomas")} <= f["child"]


def test_the_subject_named_again_stays_the_subject_of_a_long_item() -> None:
    filler = "He was a faithful servant of the telegraph company for many years. " * 24
    text = (f"Thomas F. Sloan died yesterday at his home. {filler}Mr. Sloan was a member of "
            f"the Presbyterian church. {filler[:300]}He is survived by two sons, James and "
            "Walter.")
    f = _facts(text, GenDate.from_parts(1916, 2, 17))
    assert {("Thomas F. Sloan", "James"), ("Thomas F. Sloan", "Walter")} <= f["child"]


def test_a_full_stop_after_of_does_not_end_the_sentence() -> None:
    text = ("Maria Rissel died January 18, 1916. She is survived by the following children, "
            "Julius and Lena, wife of . Martin Finhorn, Chrome, N. J.; also the following "
            "sisters and brothers: Louvinia, wife of Jerome Stahl, and George and Adam residing "
            "in York, Pa.")
    f = _facts(text)
    assert ("Lena", "Martin Finhorn") in f["spouse"]
    assert ("Maria Rissel", "Jerome Stahl") not in f.get("spouse", set())
    assert {("Maria Rissel", "George"), ("Maria Rissel", "Adam")} <= f["sibling"]


def test_a_wife_s_birth_told_in_passing_is_hers_and_the_item_stays_his() -> None:
    text = ("James M. Garrett died Sunday, May 14, 1916. Mr. Garrett March 25, 1888, married "
            "Agnes Harbert, who was born in Marshall county, January 25, 1862, and was a "
            "daughter of Judson Harbert, now dead, born in Harrison county. Mr. and Mrs. "
            "Garrett had two children, namely, Wade Hampton and Anne Lucretia. Among the other "
            "survivors are three sisters, namely, Misses Grace, Oma and Virginia Garrett.")
    f = _facts(text, GenDate.from_parts(1916, 5, 15))
    g = "James M. Garrett"
    assert (g, "1888-03-25") in f["marriage_date"]
    assert ("Agnes Harbert", "1862-01-25") in f["birth_date"]
    assert ("Judson Harbert", "Harrison county") in f["birth_place"]
    assert ("Agnes Harbert", "Harrison county") not in f["birth_place"]
    assert ("Agnes Harbert", "Judson Harbert") in f["parent"]  # "who was ..., and was"
    assert (g, "Judson Harbert") not in f["parent"]
    assert {(g, "Wade Hampton"), (g, "Anne Lucretia")} <= f["child"]
    assert {(g, "Grace"), (g, "Oma"), (g, "Virginia Garrett")} <= f["sibling"]


def test_fell_dead_is_a_death_and_a_role_list_needs_no_comma() -> None:
    text = ("Noah Ginter, aged 72 years, fell dead in front of a store last Monday afternoon. "
            "He was unmarried and is survived by a brother and a sister, Abraham and Pauline. "
            "James McAvoy died Thursday night at his home. For the past four years he has "
            "lived with his three sisters Elizabeth, Margaret and Theresa, at Versailles.")
    f = _facts(text, GenDate.from_parts(1916, 11, 24))
    assert ("Noah Ginter", "1916-11-20") in f["death_date"]
    assert {("Noah Ginter", "Abraham"), ("Noah Ginter", "Pauline")} <= f["sibling"]
    m = "James McAvoy"
    assert {(m, "Elizabeth"), (m, "Margaret"), (m, "Theresa")} <= f["sibling"]


def test_an_age_between_the_name_and_son_of() -> None:
    text = ("Ralph Leonard, the eight year old son of Mr. and Mrs. Charles Weisman, died last "
            "Thursday night.")
    f = _facts(text, GenDate.from_parts(1916, 11, 24))
    assert {("Ralph Leonard", "Charles Weisman"), ("Ralph Leonard", "Mrs. Charles Weisman")
            } <= f["parent"]


def test_a_headline_in_capitals_ends_the_item_before_it() -> None:
    text = ("Fred Hall died this morning in the office of the fish market.\n"
            "FOUR GENERATIONS\nAT CELEBRATION\nFiftieth Wedding Anniversary Observed.\n"
            "There assembled to-day three children, Merton A. Bradford of Barre and Archie C. "
            "Bradford of Barre.")
    f = _facts(text, GenDate.from_parts(1916, 2, 14))
    assert not any(s == "Fred Hall" for s, _ in f.get("child", set()))


def test_a_list_cut_by_the_ocr_goes_on_to_its_next_role() -> None:
    text = ("Burton B. Gale died Thursday, November 30, 1916. Surviving also are three sisters, "
            "Mrs. E. C. Spencer of Barre. Mrs. George Dodge of Berlin and Mrs. M. L. Sherburne "
            "of Montpelier; and a brother. Charles B. Gale of Montpelier.\nW. Scott Naugle.\n"
            "W. Scott Naugle, of Earlston, was struck by an automobile.")
    f = _facts(text)
    b = "Burton B. Gale"
    assert {(b, "Mrs. E. C. Spencer"), (b, "Mrs. George Dodge"), (b, "Mrs. M. L. Sherburne"),
            (b, "Charles B. Gale")} <= f["sibling"]
    assert ("Mrs. George Dodge", "Berlin") in f["residence"]
    assert not any(v.startswith("W. Scott") for _, v in f["sibling"])


def test_a_town_after_a_group_is_nobody_s_unless_both_of() -> None:
    text = ("Archie Crawford died Sunday. He is survived by five sons, Joseph and Stephen "
            "Houghton of Graniteville, and three brothers, Howard, of Davis; Willis and Robert, "
            "both of Brockwayville, Pa.; and two sisters, Myrtle Anderson and Nanssa Shaw both "
            "residing at Tyrone, Pa.")
    f = _facts(text, GenDate.from_parts(1916, 5, 15))
    res = f["residence"]
    assert {("Howard", "Davis"), ("Willis", "Brockwayville, Pa."),
            ("Robert", "Brockwayville, Pa."), ("Myrtle Anderson", "Tyrone, Pa."),
            ("Nanssa Shaw", "Tyrone, Pa.")} <= res
    assert not {p for p, _ in res} & {"Joseph", "Stephen Houghton"}


def test_the_town_after_her_husband_s_name_is_the_listed_relative_s() -> None:
    text = ("Maria Rissel died January 18, 1916. She is survived by the following children, "
            "Julius, of Elizabeth, and Lena, wife of Martin Finhorn, Chrome, N. J.; also by "
            "a sister, Louvinia Stahl, residing in Nebraska.")
    f = _facts(text)
    assert ("Lena", "Chrome, N. J.") in f["residence"]
    assert ("Louvinia Stahl", "Nebraska") in f["residence"]
    assert not any(p == "Martin Finhorn" for p, _ in f["residence"])


def test_a_speck_before_a_lower_case_word_does_not_end_the_sentence() -> None:
    text = ("Thelma Weaver died Thursday, February 10, 1916. The funeral service was conducted "
            "by Dr. Webster of Hancock, and interment . was made at the cemetery at Tonoloway "
            "on Sunday.")
    f = _facts(text, GenDate.from_parts(1916, 2, 17))
    assert ("Thelma Weaver", "1916-02-13") in f["burial_date"]


def test_who_died_after_the_funeral_s_person_is_that_person() -> None:
    text = ("Funeral services over the body of Catherine Volte, aged two months, daughter of "
            "Mr. and Mrs. Bruno Volte, of the Tin Plate addition, who died at 10 o'clock "
            "Saturday night following an illness, were held Sunday.")
    f = _facts(text, GenDate.from_parts(1916, 8, 21))
    assert ("Catherine Volte", "1916-08-19") in f["death_date"]
    assert not any(s.endswith("Bruno Volte") for s, _ in f["death_date"])


def test_a_child_named_by_given_name_then_described() -> None:
    text = ("Harold, the twenty-months old child of Mr. and Mrs. Harry Heal, died on Wednesday "
            "at the hospital in Port Huron.")
    f = _facts(text, GenDate.from_parts(1916, 1, 13))
    assert {("Harold", "Harry Heal"), ("Harold", "Mrs. Harry Heal")} <= f["parent"]
    assert ("Harold", "1916-01-12") in f["death_date"]


def test_a_survivor_on_the_next_line_after_a_lost_comma() -> None:
    text = ("Ben N. Benson died October 6, 1916. To this union seven children were born. Those "
            "surviving are Helen Johnson, of Denison\nAnna Kulberg, of Cherokee, and Jennie C. "
            "Harvey, of Lacey, Iowa.")
    f = _facts(text, GenDate.from_parts(1916, 10, 18))
    b = "Ben N. Benson"
    assert {(b, "Helen Johnson"), (b, "Anna Kulberg"), (b, "Jennie C. Harvey")} <= f["child"]
    assert ("Anna Kulberg", "Cherokee") in f["residence"]


def test_marriages_written_several_ways() -> None:
    text = ("Burton M. Cutts died Sunday, January 2, 1916. His marriage to Miss Winifred Kezer "
            "took place in Barre April 30, 1897.\nJoseph A. LaPointe died Saturday, January 1, "
            "1916. He was married in East Montpelier to Sarah J. Willard Oct. 3, 1857.\n"
            "W. Scott Naugle died September 5, 1916. On February 16, 1877, ie was united in "
            "marriage with Miss Sarah Blackburn.")
    f = _facts(text, GenDate.from_parts(1916, 1, 3))
    assert {("Burton M. Cutts", "Miss Winifred Kezer"),
            ("Joseph A. LaPointe", "Sarah J. Willard"),
            ("W. Scott Naugle", "Miss Sarah Blackburn")} <= f["spouse"]
    assert {("Burton M. Cutts", "1897-04-30"), ("Joseph A. LaPointe", "1857-10-03"),
            ("W. Scott Naugle", "1877-02-16")} <= f["marriage_date"]


def test_ocr_s_she_and_a_list_cut_twice() -> None:
    text = ("Mrs. Mary Carroll died this noon at the home of her daughter. Mie was the mother of "
            "Charles Robinson and William Carroll of this town.\nJoseph Devoid died of "
            "tuberculosis last night. He leaves his wife and four sisters. Mrs. Charles "
            "Palmer, Mrs. Antonio Datoni. Mrs. Lowney Guyette and Mrs. Leo Marchi.")
    f = _facts(text, GenDate.from_parts(1916, 2, 14))
    c = "Mrs. Mary Carroll"
    assert {(c, "Charles Robinson"), (c, "William Carroll")} <= f["child"]
    d = "Joseph Devoid"
    assert {(d, "Mrs. Charles Palmer"), (d, "Mrs. Antonio Datoni"), (d, "Mrs. Lowney Guyette"),
            (d, "Mrs. Leo Marchi")} <= f["sibling"]


def test_a_golden_wedding_s_children_are_the_couple_s() -> None:
    text = ("Four generations joined to-day in celebrating the fiftieth wedding anniversary of "
            "Mr. and Mrs. Wilbur F. Bradford of 30 Park street. There assembled to-day three "
            "children, Merton A. Bradford of Barre, Mrs. Lilla Ingalls of Greensboro, and "
            "Archie C. Bradford of Barre.")
    f = _facts(text, GenDate.from_parts(1916, 2, 14))
    w = "Wilbur F. Bradford"
    assert (w, "Mrs. Wilbur F. Bradford") in f["spouse"]
    assert {(w, "Merton A. Bradford"), (w, "Mrs. Lilla Ingalls"), (w, "Archie C. Bradford")
            } <= f["child"]


def test_a_full_stop_or_no_space_before_the_year() -> None:
    for text, iso in (("May 14. 1836", "1836-05-14"), ("Feb. 23,1904", "1904-02-23")):
        m = DATE_FIND.search(text)
        assert m is not None and m.group() == text
        g = parse_date(m.group())
        assert g is not None and g.iso() == iso


def test_died_this_noon_in_a_daily_paper_is_its_day() -> None:
    text = ("Waterbury, Feb. 14. Mrs. Mary Carroll died this noon at the home of her daughter "
            "in Burlington.")
    f = _facts(text, GenDate.from_parts(1916, 2, 14))
    assert ("Mrs. Mary Carroll", "1916-02-14") in f["death_date"]


def test_death_dates_as_obituaries_write_them() -> None:
    ref = GenDate.from_parts(1916, 5, 11)  # a Thursday
    text = ("Mrs. F. M. Ragsdale, wife of one of Mexico's business men, died Friday morning at "
            "2 a. m., after a short illness which developed last Saturday.\nAt seven o'clock "
            "Friday evening, May 4th, Mrs. John T. Mabry, died at her home.\nAugust H. Henke, "
            "aged 59 years, passed away on Wednesday morning at his home.")
    f = _facts(text, ref)
    assert {("Mrs. F. M. Ragsdale", "1916-05-05"), ("Mrs. John T. Mabry", "1916-05-04"),
            ("August H. Henke", "1916-05-10")} <= f["death_date"]
    text = ("Alice Loraine, the little daughter of Mr. and Mrs. E. H. Kinne, died at the home of "
            "her parents Sunday, January 23, 1316, following a brief illness.")
    f = _facts(text, GenDate.from_parts(1916, 1, 26))
    assert f["death_date"] == {("Alice Loraine", "1916-01-23")}  # the year is misread


def test_interment_after_the_funeral_is_the_funeral_s_day() -> None:
    text = ("Clara Sievers died Wednesday, October 11, 1916. Funeral services were held last "
            "Saturday at the German Lutheran church, Rev. Wm. Frese officiating, after which "
            "interment was made in the Lutheran cemetery.")
    f = _facts(text, GenDate.from_parts(1916, 10, 18))
    assert ("Clara Sievers", "1916-10-14") in f["burial_date"]


def test_specks_before_she() -> None:
    text = ("Mrs. Katherine Price died Tuesday morning. '\nShe' leaves three \"children, Mrs. "
            "Ralph Luckie of this city, and Eben R. Price of Billings, Mont. Three brothers "
            "also survive: R. H. Dudley, of Mexico, and Dr. C. F. Dudley of Pleasureville, Ky.")
    f = _facts(text, GenDate.from_parts(1916, 5, 11))
    k = "Mrs. Katherine Price"
    assert {(k, "Mrs. Ralph Luckie"), (k, "Eben R. Price")} <= f["child"]
    assert {(k, "R. H. Dudley"), (k, "Dr. C. F. Dudley")} <= f["sibling"]


def test_list_items_whose_commas_the_ocr_lost() -> None:
    text = ("Mrs. Anna Aberg died January 17, 1916. Mrs. Aberg is survived by her husband and "
            "the following children: Mrs. Otto Gunderson, Ridgeway; Mrs. Theo. Gunderson, "
            "Cresco Henry Aberg, Davis Corners; Louis and Anna.")
    f = _facts(text, GenDate.from_parts(1916, 1, 28))
    a = "Mrs. Anna Aberg"
    assert {(a, "Mrs. Otto Gunderson"), (a, "Mrs. Theo. Gunderson"), (a, "Henry Aberg"),
            (a, "Louis"), (a, "Anna")} <= f["child"]
    assert not any(v.startswith("Cresco") for _, v in f["child"])


def test_a_list_ends_where_a_new_clause_begins() -> None:
    text = ("Mrs. Katherine Price died Tuesday. Three brothers also survive: J. E. Dudley, of "
            "Molino and Dr. C. F. Dudley of Pleasureville, Ky,\nThe Ledger joins in extending "
            "sympathy to Mr. John T. Mabry and his family.\nBesides Grant, the children are "
            "Mary and John.")
    f = _facts(text, GenDate.from_parts(1916, 5, 11))
    k = "Mrs. Katherine Price"
    assert {(k, "J. E. Dudley"), (k, "Dr. C. F. Dudley")} <= f["sibling"]
    assert (k, "Mr. John T. Mabry") not in f["sibling"]
    assert not any("Besides" in v for _, v in f.get("child", set()))


def test_initials_of_a_name_already_read_are_that_person() -> None:
    text = ("Attie Noble Sager, the beloved wife of Chancey E. Sager, passed away January 24, "
            "1916. On December 22, 1881, she was united in marriage with Mr. C. E. Sager. Mr. "
            "Noble passed away in Manchester November 11, 1879.")
    f = _facts(text, GenDate.from_parts(1916, 1, 26))
    a = "Attie Noble Sager"
    assert {s for s in f["spouse"] if s[0] == a} == {(a, "Chancey E. Sager")}
    assert (a, "1881-12-22") in f["marriage_date"]


def test_the_officiant_is_not_the_spouse() -> None:
    text = ("At the parsonage Thanksgiving eve, Mrs. Annie L. Taylor of 449 North Main street "
            "and Jesse G. Willey of 379 North Main street were married by Rev. J. B. Reardon.")
    f = _facts(text, GenDate.from_parts(1916, 12, 1))
    pairs = f["spouse"]  # (either way round: the groom is the marriage's subject)
    assert {("Mrs. Annie L. Taylor", "Jesse G. Willey"),
            ("Jesse G. Willey", "Mrs. Annie L. Taylor")} & pairs
    assert not any("Reardon" in v for _, v in pairs)
    assert ("Jesse G. Willey", "1916-11-29") in f["marriage_date"]  # Thanksgiving eve
