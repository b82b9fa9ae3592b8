"""Vital dates as 1916 obituaries and notices write them (issue 20, dates recall): each rule on
a sentence written for the test. Every extraction passes the firewall (`prose_facts`), so
each date's excerpt and wording are grounded in the text."""

from __future__ import annotations

from prose_facts import prose_facts

from sleuth.extract import extract_text
from sleuth.extract.dates import parse_date
from sleuth.model.dates import GenDate

REF = GenDate.from_parts(1916, 12, 1)  # a Friday


def _facts(text: str, ref: GenDate = REF) -> dict[str, set[tuple[str, str]]]:
    return prose_facts(text, ref, related=True)


# -- marriages ------------------------------------------------------------------------------
def test_a_couple_named_mr_and_mrs_were_married() -> None:
    f = _facts("Mr. and Mrs. Isaac Toney were married in Leon by Judge Thompson in May, 1856.")
    assert ("Isaac Toney", "1856-05") in f["marriage_date"]
    assert ("Isaac Toney", "Leon") in f["marriage_place"]


def test_a_couple_by_surname_alone_is_the_item_s_subject() -> None:
    text = ("Mr. and Mrs. Jesse Redman celebrated their golden wedding anniversary last "
            "Sunday. Mr. and Mrs. Redman were married at Perrysville, this state, November "
            "18, 1866.")
    assert ("Jesse Redman", "1866-11-18") in _facts(text)["marriage_date"]


def test_a_lone_surname_couple_with_no_subject_names_nobody() -> None:
    f = _facts("Mr. and Mrs. Redman were married at Perrysville, November 18, 1866.")
    assert "marriage_date" not in f


def test_the_date_opening_the_sentence_before_he_was_married() -> None:
    text = ("Thomas F. Sloan died yesterday at his home. On the 22nd day of February, 1870, "
            "he was married to Miss Josephine Alexander.")
    assert ("Thomas F. Sloan", "1870-02-22") in _facts(text)["marriage_date"]
    # the OCR's "Oa.the" for "On the": the date still opens the sentence
    text = text.replace("On the 22nd day of", "Oa.the 22nd, day of .")
    assert ("Thomas F. Sloan", "1870-02-22") in _facts(text)["marriage_date"]


def test_an_opening_date_of_another_event_is_not_the_marriage() -> None:
    text = ("Thomas F. Sloan died yesterday at his home. May 3, 1850, he was born in Ohio "
            "and later he was married to Miss Josephine Alexander.")
    assert "marriage_date" not in _facts(text)


def test_two_given_names_married_one_the_subject_s() -> None:
    text = ("Richard E. Johnson died at his home Monday. April 5, 1904, Richard and Marie "
            "were married in the old farm home near Hancock.")
    assert ("Richard E. Johnson", "1904-04-05") in _facts(text)["marriage_date"]


def test_in_marriage_to_after_a_misread_verb() -> None:
    text = ("Mrs. Chas. Anderson died at her home on Monday. She was unitod in marriage to "
            "Mr. Charles Anderson on Dec. 11, 1906.")
    f = _facts(text)
    assert ("Mrs. Chas. Anderson", "1906-12-11") in f["marriage_date"]
    assert ("Mrs. Chas. Anderson", "Mr. Charles Anderson") in f["spouse"]


def test_became_the_wife_of_is_a_marriage() -> None:
    text = ("Mabel Annie Carr died Monday. After three years she became the wife of Chas. E. "
            "Siddall March 11, 1915.")
    f = _facts(text)
    assert ("Mabel Annie Carr", "1915-03-11") in f["marriage_date"]
    assert ("Mabel Annie Carr", "Chas. E. Siddall") in f["spouse"]


def test_the_bride_named_first_leaves_the_groom_the_subject() -> None:
    text = ("At the parsonage Thanksgiving eve, Mrs. Annie L. Taylor of Barre and Jesse G. "
            "Willey of Marshfield were married by Rev. J. B. Reardon.")
    assert ("Jesse G. Willey", "1916-11-29") in _facts(text)["marriage_date"]


def test_a_month_and_day_whose_year_is_garbled_is_no_date() -> None:
    text = ("Golden Wedding. September 11, lSGO. Mr. Abram Runyan and Miss Agnes Jane Miller "
            "were married in the parlor of the Fisher Hotel.")
    assert "marriage_date" not in _facts(text, GenDate.from_parts(1916, 9, 14))


# -- holidays -------------------------------------------------------------------------------
def test_holidays_resolve_against_the_paper_s_date() -> None:
    ref = GenDate.from_parts(1916, 12, 1)
    assert parse_date("Thanksgiving eve", reference=ref).iso() == "1916-11-29"
    assert parse_date("Thanksgiving day", reference=ref).iso() == "1916-11-30"
    assert parse_date("Christmas day", reference=ref).iso() == "1916-12-25"  # still to come
    jan = GenDate.from_parts(1916, 1, 3)
    assert parse_date("Christmas eve", reference=jan).iso() == "1915-12-24"
    assert parse_date("on New Year's", reference=jan).iso() == "1916-01-01"
    # Thanksgiving: the last Thursday of November until 1938, the fourth from 1939
    assert parse_date("Thanksgiving day",
                      reference=GenDate.from_parts(1939, 12, 5)).iso() == "1939-11-23"
    assert parse_date("Thanksgiving day", reference=None) is None


def test_a_death_on_a_holiday_is_relative_to_the_paper() -> None:
    cands = extract_text("John Smith died at his home Christmas day after a short illness.",
                         "s", document_date=GenDate.from_parts(1916, 12, 29))
    died = [c for c in cands if c.field == "death_date"]
    assert [c.value for c in died] == ["1916-12-25"]
    assert "relative to the document date" in died[0].rationale
    assert "Christmas day" in died[0].citation.excerpt
    f = _facts("John Smith died at his home Christmas day.", GenDate.from_parts(1916, 12, 29))
    assert ("John Smith", "1916-12-25") in f["death_date"]


def test_christmas_without_a_day_word_is_no_date() -> None:
    f = _facts("John Smith died after he spent Christmas with his son.",
               GenDate.from_parts(1916, 12, 29))
    assert "death_date" not in f


# -- deaths ---------------------------------------------------------------------------------
def test_a_sentence_opening_with_yesterday_dates_its_death() -> None:
    text = ("Thomas F. Sloan, one of the best citizens, had passed away suddenly at his home. "
            "Yesterday morning he arose from his bed and went into the bathroom, where he had "
            "an attack of heart failure and expired almost instantly.")
    f = _facts(text, GenDate.from_parts(1916, 2, 17))
    assert ("Thomas F. Sloan", "1916-02-16") in f["death_date"]


def test_a_namesake_who_died_long_ago_is_not_the_item_s_subject() -> None:
    text = ("The funeral of Isaac Rice, whose death occurred at the home of his daughter "
            "Thursday, was held Sunday. Interment was made in Elmwood cemetery in the family "
            "lot, where lies buried Mr. Rice, who died in 1864.")
    f = _facts(text, GenDate.from_parts(1916, 1, 3))
    assert ("Isaac Rice", "1864") not in f.get("death_date", set())
    assert ("Isaac Rice", "1864") not in f.get("burial_date", set())


def test_a_she_after_a_man_s_item_is_the_woman_named_before() -> None:
    text = ("Samuel A. Sydenstricker died at his home on May 4. He married Miss Anna M. "
            "Ferguson, September 26, 1869. She died, November 25, 1875.")
    f = _facts(text, GenDate.from_parts(1916, 5, 11))
    assert ("Miss Anna M. Ferguson", "1875-11-25") in f["death_date"]
    assert ("Samuel A. Sydenstricker", "1875-11-25") not in f["death_date"]


def test_a_he_with_no_man_named_before_stays_the_subject_s() -> None:
    # "her" (Duxbury's) misreads the subject as a woman; "He married" is still his marriage
    text = ("In the death of George Carleton, Duxbury loses another of her older citizens. "
            "He married Lucy Orover and they lived for many years on the Carleton place.")
    f = _facts(text, GenDate.from_parts(1916, 10, 13))
    assert ("George Carleton", "Lucy Orover") in f["spouse"]


def test_a_title_case_heading_names_the_misread_body_name() -> None:
    text = ("Bertha Decker.\nMrs. Bertha Dicker, wife of Riley Decker, died at her home in "
            "Bethel township, February 1916, aged 23 years. Her remains were laid to rest in "
            "May's Chapel cemetery Sunday Feb. 6th.")
    f = _facts(text, GenDate.from_parts(1916, 2, 17))
    assert ("Bertha Decker", "1916-02") in f["death_date"]
    assert ("Bertha Decker", "1916-02-06") in f["burial_date"]


# -- days the OCR or the writer did not print as digits ------------------------------------
def test_a_month_with_an_unreadable_day_gives_the_month() -> None:
    text = ("Archie A. Crawford died Sunday. Mr. Crawford was born December\nft. 1875, at "
            "Brockwayville, Pa. Mrs. Clyne was born July l'., 1831.")
    f = _facts(text, GenDate.from_parts(1916, 5, 15))
    assert ("Archie A. Crawford", "1875-12") in f["birth_date"]
    assert ("Archie A. Crawford", "1875") not in f["birth_date"]
    # a word between month and year is no day: "March of 1840" stays the year it was
    f = _facts("Mrs. Clyne died Sunday. She was born in March of 1840.",
               GenDate.from_parts(1916, 5, 15))
    assert ("Mrs. Clyne", "1840") in f["birth_date"]


def test_an_ordinal_word_day_dates_the_following_weekday() -> None:
    text = ("W. Scott Naugle, of Earlston, was struck by an automobile on the first day of "
            "September, and injured so badly that he was taken to the hospital where he died "
            "the following Tuesday.")
    f = _facts(text, GenDate.from_parts(1916, 9, 14))
    assert ("W. Scott Naugle", "1916-09-05") in f["death_date"]
    ref = GenDate.from_parts(1916, 9, 14)
    assert parse_date("the twenty-first day of June", reference=ref).iso() == "1916-06-21"
    assert parse_date("the first day of September, 1880", reference=ref) is None


def test_the_deceased_after_a_run_on_survivor_list_is_the_item_s_subject() -> None:
    text = ("DEATH OF THOMAS HOUGHTON.\nThomas Houghton passed away at his home. He also "
            "leaves three brothers as follows: Patrick Houghton of Twin Mountains, N. H., and "
            "James Houghton of Manchester, N. H.\nTho deceased was bom in St. Sylvester, P. "
            "Q., March 20, 1838.")
    f = _facts(text)
    assert ("Thomas Houghton", "1838-03-20") in f["birth_date"]
    assert not any(s.endswith("Tho") for s, _ in f.get("name", set()))


def test_a_weekday_a_week_ago_when_the_sentence_says_last_week() -> None:
    wednesday = GenDate.from_parts(1916, 1, 26)
    text = ("Mrs. A. S. Blair died at her home. As briefly stated in The Democrat last week "
            "Mrs. Blair passed away Wednesday afternoon, following an illness.")
    assert ("Mrs. A. S. Blair", "1916-01-19") in _facts(text, wednesday)["death_date"]
    # without "last week", the paper's own weekday stays unread (today, or a week ago?)
    text = "Mrs. A. S. Blair passed away Wednesday afternoon, following an illness."
    assert "death_date" not in _facts(text, wednesday)


# -- days that belong to another clause --------------------------------------------------
def test_a_funeral_s_weekday_is_not_the_death_s() -> None:
    text = ("Funeral services over the body of Mrs. Mary Elizabeth Hursey, aged 85 years, who "
            "died at the home of her niece, will be held at 11 o'clock Tuesday morning.")
    f = _facts(text, GenDate.from_parts(1916, 5, 15))
    assert "death_date" not in f


def test_a_funeral_s_day_after_and_is_not_the_burial_s() -> None:
    text = ("Harry H. Horton died Sunday. The remains were sent to Broadtop City for "
            "interment, and the funeral took place on Thursday of last week.")
    assert "burial_date" not in _facts(text, GenDate.from_parts(1916, 9, 14))
    text = "Harry H. Horton died. Interment was made at Broadtop City on Thursday of last week."
    assert ("Harry H. Horton", "1916-09-07") in _facts(
        text, GenDate.from_parts(1916, 9, 14))["burial_date"]


def test_a_month_day_before_a_long_garbled_year_is_no_date() -> None:
    text = "Mrs. Colburn died Sunday. On April 18. l!Ktfl, she married Mr. I. Colburn."
    assert "marriage_date" not in _facts(text, GenDate.from_parts(1916, 12, 1))


# -- date words the OCR misread -------------------------------------------------------------
def test_a_weekday_misread_by_a_letter_before_a_part_of_the_day() -> None:
    text = ("Mrs. Ellen Hardy died at her home in Barre ruesday afternoon after a long "
            "illness.")
    assert ("Mrs. Ellen Hardy", "1916-11-28") in _facts(text)["death_date"]


def test_a_weekday_parted_at_a_line_end_and_misread() -> None:
    # "Sun-\nilay": the weekday's first letters, then "il" printed for "d"
    text = "John Weaver died at the hospital at eleven o'clock last Sun-\nilay morning."
    assert ("John Weaver", "1916-11-26") in _facts(text)["death_date"]
    text = "Mary Long died at her home in Barre on Thurs-\nlay, aged 80 years."
    assert ("Mary Long", "1916-11-30") in _facts(text)["death_date"]


def test_a_month_with_a_speck_inside_and_a_comma_before_its_day() -> None:
    text = "Harry Bolton died in the hospital Sunday evening, Sep'eember, 3, 1916."
    assert ("Harry Bolton", "1916-09-03") in _facts(text)["death_date"]


def test_misread_date_words_that_are_words_or_names_are_left_alone() -> None:
    from sleuth.extract.reading import date_word, reading_view
    # English words one letter from a name; a word one letter from two names
    assert date_word("Marsh") is None and date_word("Sundry", weekday=True) is None
    assert date_word("Munday", weekday=True) is None  # Monday or Sunday?
    assert date_word("Decembor") == "December" and date_word("Mondav", weekday=True) == "Monday"
    for text in ("The Sundry morning papers", "Mr. Mondav and his son", "at the Thurs-\nton"):
        assert reading_view(text).text.split() == text.split()
