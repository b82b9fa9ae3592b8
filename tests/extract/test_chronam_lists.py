"""Obituary survivor lists as 1916 OCR prints them (issue 20, chronam recall): separators
lost between items, given names that are also words. The sentences are written for these
tests on the pattern of the pages, not copied from them."""

from __future__ import annotations

from prose_facts import prose_facts

from sleuth.model.dates import GenDate

REF = GenDate.from_parts(1916, 3, 2)


def _facts(text: str) -> dict[str, set[tuple[str, str]]]:
    return prose_facts(text, REF, related=True)


def test_a_state_then_the_next_survivor_with_the_separator_lost() -> None:
    text = ("Mrs. Ella Hartman died Monday. The children are: Mrs. Will Dorr, of Olin, "
            "Iowa Roy M. Hartman, of Spokane, Washington Carl J.\nHartman, of Minot, North "
            "Dakota\nFrank and Ray Hartman, of Pierre.")
    f = _facts(text)
    e = "Mrs. Ella Hartman"
    kids = {n for s, n in f["child"] if s == e}
    assert {"Mrs. Will Dorr", "Roy M. Hartman", "Carl J. Hartman", "Frank"} <= kids
    assert ("Mrs. Will Dorr", "Olin, Iowa") in f["residence"]
    assert ("Roy M. Hartman", "Spokane, Washington") in f["residence"]  # not "... Carl J."
    assert ("Carl J. Hartman", "Minot, North Dakota") in f["residence"]
    # "Will" after a title is a given name (William), not the verb
    assert "Mrs. Will Dorr" in {n for _, n in f["name"]}


def test_a_state_that_is_also_a_given_name_opens_a_name() -> None:
    text = ("Harry Gable died Sunday. He is survived by three sisters, Misses Alice, Ruth "
            "and Virginia Gable, of this city.")
    assert ("Harry Gable", "Virginia Gable") in _facts(text)["sibling"]


def test_name_town_items_whose_commas_the_ocr_lost() -> None:
    text = ("Mrs. Olga Berg died at her home Friday. She is survived by her husband and "
            "the following children Mrs. Otto Lund,\nRidgeway Mrs. Emil Lund,\nDecorah "
            "Peter Berg, Decorah Mrs.\nJohn Moen, Bonair Henry Berg,\nDavis Corners Louis, "
            "Anna and Carl.")
    f = _facts(text)
    res = f["residence"]
    assert {("Mrs. Otto Lund", "Ridgeway"), ("Mrs. Emil Lund", "Decorah"),
            ("Peter Berg", "Decorah"), ("Mrs. John Moen", "Bonair"),
            ("Henry Berg", "Davis Corners")} <= res
    kids = {n for s, n in f["child"] if s == "Mrs. Olga Berg"}
    assert {"Louis", "Anna", "Carl", "Henry Berg"} <= kids
    assert not any("Corners" in n for n in kids)  # the town is no part of the next name


def test_given_names_in_a_list_are_no_towns() -> None:
    text = ("John Moss died Friday. He leaves three sons, Will, Mary Smith and Harry, and a "
            "sister, Mrs. Ann Cole, Sister Monica of Boston.")
    f = _facts(text)
    assert not f.get("residence", set()) & {("Will", "Mary Smith"), ("Mrs. Ann Cole", "Sister")}


def test_grand_children_are_not_children() -> None:
    text = ("Mrs. Ida Shaw died Tuesday. She is survived by one son, Adam Shaw, and three "
            "grand children, Miss May Noble and Misses Marian and Rose Blake.")
    f = _facts(text)
    kids = {n for s, n in f["child"] if s == "Mrs. Ida Shaw"}
    assert kids == {"Adam Shaw"}


def test_the_burial_place_is_the_cemetery_as_the_notice_names_it() -> None:
    texts = {
        "Mary Cole": "Mary Cole died Monday. Interment was made in the ceme\ntery at Pine Ridge.",
        "Anna Kemp": "Anna Kemp died Monday. Burial will be in the family burial ground at "
                     "Hartley.",
        "Amos Hoke": "Amos Hoke died Monday. The remains were placed to rest in the Oak "
                     "Hill cemetery.",
        "Jane Cross": "Jane Cross died Monday. The services will be at the church and the "
                      "burial\nwill be In the Masonic cemetery.",
        "Levi Dunn": "Levi Dunn died Monday. Burial will be at Elm wood cemetery.",
        "Ruth Ames": "Ruth Ames died Monday. Interment was made in the cemetery at the "
                     "Lutheran church.",
    }
    want = {"Mary Cole": "the cemetery at Pine Ridge",
            "Anna Kemp": "the family burial ground at Hartley",
            "Amos Hoke": "the Oak Hill cemetery", "Jane Cross": "the Masonic cemetery",
            "Levi Dunn": "Elm wood cemetery", "Ruth Ames": "the cemetery at the Lutheran church"}
    for who, text in texts.items():
        assert _facts(text)["burial_place"] == {(who, want[who])}, who


def test_a_cemetery_named_after_another_clause_is_not_the_burial_place() -> None:
    text = ("Ezra Pike died Monday. Interment was made at Salem, after a service held by the "
            "pastor of the cemetery at Dover.")
    assert _facts(text)["burial_place"] == {("Ezra Pike", "Salem")}


def test_a_weekday_the_line_end_broke_dates_the_death() -> None:
    ref = GenDate.from_parts(1916, 2, 25)  # a Friday
    text = ("Mr. W. Hollis, who has\nbeen ill for some time, died last Mon\nday morning. "
            "Mrs. John Kirk, died last-\nSaturday at her home in Bedford.")
    f = prose_facts(text, ref)
    assert ("Mr. W. Hollis", "1916-02-21") in f["death_date"]
    assert ("Mrs. John Kirk", "1916-02-19") in f["death_date"]


def test_a_heading_in_capitals_ends_the_sentence_before_it() -> None:
    ref = GenDate.from_parts(1916, 11, 24)
    text = ("She slipped on a bit of ice. Her hus\nband died in Toledo last Thursday\n"
            "THE GRIM REAPER\nFranklin Moyer, aged 75 years, a veteran of the Civil War, died "
            "last Tuesday morning at his home at Lima.")
    f = prose_facts(text, ref)
    assert ("Franklin Moyer", "1916-11-21") in f["death_date"]
    assert ("Franklin Moyer", "75") in f["age_at_death"]


def test_a_hospital_s_own_name_is_no_place_of_death() -> None:
    text = ("Mrs. Ida Snow, who had been ill a long time, died last evening at the Mary "
            "Fletcher hos\npital in Burlington. Jesse Hale died February 22, 1916, at the "
            "Metho\ndist hospital of pneumonia. Amos Pratt died in St Luke's hospital Monday. "
            "John Ross died in a Glasgow hospital on Monday.")
    f = prose_facts(text, GenDate.from_parts(1916, 2, 25))
    assert f["death_place"] == {("Mrs. Ida Snow", "Burlington"), ("John Ross", "Glasgow")}


def test_a_first_initial_whose_period_the_ocr_read_as_a_comma() -> None:
    text = ("F, M. Dahl, an old resident of this county, died at his home in Denison on "
            "Thursday, October 12th.")
    f = prose_facts(text, GenDate.from_parts(1916, 10, 18))
    assert f["death_place"] == {("F, M. Dahl", "Denison")}


def test_an_unnamed_wife_then_other_relatives_after_a_semicolon() -> None:
    text = ("Burton Cobb died Monday. He is survived by his wife; his father, Allen E. Cobb "
            "of Barre; and two sisters, Mrs. John Olson and Mrs. Ora Gray.")
    f = _facts(text)
    assert "spouse" not in f  # his wife is not named
    assert {("Burton Cobb", "Mrs. John Olson"), ("Burton Cobb", "Mrs. Ora Gray")} <= f[
        "sibling"]


def test_a_firm_in_a_list_of_children_is_no_child() -> None:
    text = ("William Dupre died Friday. He leaves two children, Miss Alma Dupre, who is "
            "employed by the F. D. Ladd Co., and Leon C. Dupre, of Barre.")
    kids = {n for _, n in _facts(text)["child"]}
    assert kids == {"Miss Alma Dupre", "Leon C. Dupre"}


def test_she_in_his_obituary_is_not_him() -> None:
    text = ("Harry Hale died Sunday. He is survived by his wife, whose maiden name was Ridley "
            "but at the time of her marriage to Harry, she was the widow of Wilbur Hoke.")
    assert "spouse" not in _facts(text)


def test_a_town_then_the_next_survivor_and_a_list_the_ocr_cut() -> None:
    text = ("Nils Borg died Friday, October 6. To this union six children were born. Those "
            "surviving are Ellen Dahl, of Omaha Emma\nRoll, of Arthur Lydia Moe. of\nLowell, "
            "Wyo. Arthur E., of Kiron,\nand Fred A., of Waterbury, Neb.")
    f = prose_facts(text, GenDate.from_parts(1916, 10, 18), related=True)
    kids = {n for s, n in f["child"] if s == "Nils Borg"}
    assert kids == {"Ellen Dahl", "Emma Roll", "Lydia Moe", "Arthur E.", "Fred A."}
    assert {("Ellen Dahl", "Omaha"), ("Emma Roll", "Arthur"), ("Arthur E.", "Kiron"),
            ("Fred A.", "Waterbury, Neb.")} <= f["residence"]


def test_the_ocr_s_misread_article_before_the_children_are() -> None:
    text = ("Mr. and Mrs. Jesse Rider celebrated their golden wedding anniversary Sunday. "
            "Th-j children are: Mrs. Charles Moyer, of Muncie; Walter Rider, of Newark.")
    kids = {n for s, n in _facts(text)["child"] if s == "Jesse Rider"}
    assert kids == {"Mrs. Charles Moyer", "Walter Rider"}


def test_a_full_stop_before_a_state_and_a_comma_does_not_end_the_list() -> None:
    text = ("Mr. Crane is survived by his widow; Howard Crane, of Davis, a brother; Mrs. James "
            "Kay, of Clifton, Pa., a sister; and Willis and Robert, both of Brookville. Pa., "
            "brothers.")
    f = prose_facts(text, REF, related=True)
    sibs = {n for _, n in f["sibling"]}
    assert {"Howard Crane", "Mrs. James Kay", "Willis", "Robert"} <= sibs
    assert {("Willis", "Brookville. Pa."), ("Robert", "Brookville. Pa.")} <= f["residence"]


def test_an_age_written_before_the_role_and_in_the_next_sentence() -> None:
    text = ("Flossie Wiley, the 20-year-old daughter of Mr. and Mrs. George Wiley, departed "
            "this life on Tuesday. Ralph Leonard, the eight year old son of Mr. and Mrs. "
            "Charles Weis, died last Thursday night. Mrs. Mary Carr died this noon at the "
            "home of her daughter. She was 82 years of age and was born in Ireland.")
    f = prose_facts(text, REF)
    assert {("Flossie Wiley", "20"), ("Ralph Leonard", "8"), ("Mrs. Mary Carr", "82")} <= f[
        "age_at_death"]


def test_a_child_s_age_or_an_age_at_marriage_is_not_the_age_at_death() -> None:
    text = ("John Moss died Monday, leaving his wife and a 3 year old son, Paul. He was 24 "
            "years of age when he married Miss Ann Lee.")
    assert "age_at_death" not in prose_facts(text, REF)


def test_where_the_deceased_lived() -> None:
    text = ("W. Scott Nagle.\nW. Scott Nagle, of Earlston, Bedford County, was struck by an "
            "automobile while working on the road. He died Tuesday. Four years ago he sold his "
            "farm and moved to Deloit, where he has since resided.")
    f = prose_facts(text, REF)
    assert f["residence"] == {("W. Scott Nagle", "Earlston, Bedford County"),
                              ("W. Scott Nagle", "Deloit")}


def test_the_following_weekday_counts_from_the_date_named_before_it() -> None:
    ref = GenDate.from_parts(1916, 9, 14)  # a Thursday
    text = ("John Hale was struck by an automobile on September 1, and was taken to the "
            "hospital at Roaring Spring where he died the following Tuesday.")
    assert prose_facts(text, ref)["death_date"] == {("John Hale", "1916-09-05")}
    text = "Mary Hale was taken ill, and she died the following Tuesday."
    assert "death_date" not in prose_facts(text, ref)  # not the Tuesday before the paper


def test_a_place_word_the_line_end_broke_is_read_whole() -> None:
    text = ("Mr. Marion L. Stafford and Miss Jennie A. Wood were married at his home in Eden "
            "town\nship on January 13th. John Lapoint was married in East Mont\npelier to "
            "Sarah J. Willard Oct. 3, 1857.")
    f = prose_facts(text, GenDate.from_parts(1916, 1, 20))
    assert {("Mr. Marion L. Stafford", "Eden township"),
            ("John Lapoint", "East Montpelier")} <= f["marriage_place"]


def test_callings_as_obituaries_write_them() -> None:
    text = ("Thomas Hough died Thursday. He was a quarryman by trade. Mr. Jas. P. Andrews, an "
            "old citizen, and a mail carrier here for thirty years, died Monday. George Stier, "
            "a widely known insurance repres\nentative of the Mutual Life, died Sunday. She "
            "married Mr. Richard Gore, who was at one time a missionary to Africa.")
    f = prose_facts(text, REF)
    assert {("Thomas Hough", "quarryman"), ("Mr. Jas. P. Andrews", "mail carrier"),
            ("George Stier", "insurance representative"),
            ("Mr. Richard Gore", "missionary")} <= f["occupation"]


def test_the_ocr_s_bom_for_born_tells_the_item_subject_s_birth() -> None:
    text = ("MRS. A. S. BLAKE.\nMrs. A. S. Blake died Wednesday at her home. Laura Bloom was "
            "bora in Huron\ncounty, Ohio, August 20, 1836. James Marcel 1 us Garvey was bom "
            "January 26, 1863. The children blew their horn in the street.")
    f = prose_facts(text, GenDate.from_parts(1916, 1, 26))
    assert f["birth_date"] == {("Mrs. A. S. Blake", "1836-08-20")}  # not another's item
    assert f["birth_place"] == {("Mrs. A. S. Blake", "Huron county, Ohio")}


def test_a_death_at_home_is_in_the_dateline_s_town() -> None:
    ref = GenDate.from_parts(1916, 1, 3)
    text = ("Rutland, Jan. 3. Elam Clark Lowe, for half a century a business man of this "
            "city, died yesterday afternoon at his home on Cottage street.\n\nManchester, Jan. "
            "3. Verner Dale, aged 24, was found dead on the floor of his house.\n\nWaterbury, "
            "Feb. 14. Mrs. Mary Carr died this noon at the home of her daughter.")
    f = prose_facts(text, ref)
    assert f["death_place"] == {("Elam Clark Lowe", "Rutland"), ("Verner Dale", "Manchester")}


def test_the_deceased_called_by_the_given_name_alone() -> None:
    text = ("Harry H. Horne, of Robertsdale, died in the hospital Sunday evening. Harry was a "
            "son of Benjamin and Mary Stevens Horne and was born at Waterfall, May 20, 1877. "
            "He is survived by his wife and two sons, John and Harry.")
    f = prose_facts(text, REF, related=True)
    h = "Harry H. Horne"
    assert {(h, "Benjamin Horne"), (h, "Mary Stevens Horne")} <= f["parent"]
    assert {(h, "John"), (h, "Harry")} <= f["child"]  # a son of the same name is his son


def test_the_union_was_blessed_with_children() -> None:
    text = ("Mrs. Chas. Andrews departed this life Friday. She was united in marriage to Mr. "
            "Charles Andrews in 1906. The union was blessed with three children, namely: "
            "Johnnie, Dorothy and Evelyn, who with the husband are left to mourn her death.")
    kids = {n for s, n in _facts(text)["child"] if s == "Mrs. Chas. Andrews"}
    assert kids == {"Johnnie", "Dorothy", "Evelyn"}
