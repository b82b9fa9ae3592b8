"""Vital dates the OCR of 1916 obituaries garbled around (issue 20, dates recall, second
round): each rule on sentences as the pages print them. Every extraction passes the firewall
(`prose_facts`)."""

from __future__ import annotations

from prose_facts import prose_facts

from sleuth.extract.emit import split_sentences
from sleuth.extract.reading import reading_view
from sleuth.model.dates import GenDate

REF = GenDate.from_parts(1916, 5, 15)  # a Monday


def _facts(text: str, ref: GenDate = REF) -> dict[str, set[tuple[str, str]]]:
    return prose_facts(text, ref, related=True)


def test_a_known_surname_right_before_was_born_is_that_person() -> None:
    text = ("James Marcellue Garrett, aged 68 years, died at 12:40 o'clock Sunday afternoon. "
            "James Marcel 1 us Garrett was bom January 26, 1863, at Simpson's Fork.")
    assert ("James Marcellue Garrett", "1863-01-26") in _facts(text)["birth_date"]


def test_an_unknown_lone_word_before_was_born_names_nobody() -> None:
    text = ("James Marcellue Garrett, aged 68 years, died at 12:40 o'clock Sunday afternoon. "
            "Harrison was born January 26, 1863, at Simpson's Fork.")
    assert ("James Marcellue Garrett", "1863-01-26") not in _facts(text).get("birth_date", set())


def test_a_comma_for_the_title_s_stop_and_a_misread_surname() -> None:
    text = ("Patrick E. McNulty, a former alderman of Barre, died Sunday. Mr,\n"
            "MeNultv was born in Rawdon, P. Q., Nov. 7, 1865. He came to Barre in March 1891.")
    f = _facts(text, GenDate.from_parts(1916, 1, 3))
    assert ("Patrick E. McNulty", "1865-11-07") in f["birth_date"]
    assert not any(s.startswith("Mr.") for s, _ in f["birth_date"])


def test_a_comma_for_a_middle_initial_s_stop_in_her_birth_name() -> None:
    text = ("Attie Noble Sager, the beloved wife of Chancey E. Sager, passed away at her home "
            "on West Union street. Interment will be in Oakland cemetery.\n"
            "Attie M, Acers was born in Herkimer County, New York, September\n19th, 1848.")
    f = _facts(text, GenDate.from_parts(1916, 1, 26))
    assert ("Attie Noble Sager", "1848-09-19") in f["birth_date"]
    assert ("Attie Noble Sager", "Attie M, Acers") in f["name"]  # as printed


def test_a_comma_in_a_name_the_line_end_parts_is_left_as_printed() -> None:
    text = "Mary Marie Mellott daughter\nof Mr. and Mrs. George C, Mel\nlott East Market"
    assert reading_view(text).text == text


def test_a_child_s_parents_are_not_the_subject_of_its_burial() -> None:
    text = ("The little son of Mr. and Mrs, Siden\nstricker was buried at Westminster, "
            "Thursday.")
    assert "burial_place" not in _facts(text, GenDate.from_parts(1916, 1, 6))


_ANDERSON = ("MRS. ANDERSON DEAD\nWife of Lewis S. Anderson, of Burnsville, Dies in a Local "
             "Hospital.\nThp body of Mrs. Minnie G. Andcr\nBon, aged 42 years, wife of Lewis S.\n"
             "Anderson, of Burnsville, who died\nIn a local hospital at 11:30 o'clock\nSunday "
             "night following a three\nweeks' illness, was taken to her home at\nBurnsville "
             "Monday and the funeral\nservices and burial will be held there\nruesday afternoon. "
             "Mrs. Anderson\nis survived by her husband and seven\nchildren.")


def test_a_title_and_surname_heading_names_the_misread_body_name() -> None:
    f = _facts(_ANDERSON)
    assert ("MRS. ANDERSON", "1916-05-14") in f["death_date"]  # "The body of X, ..., who died"
    assert ("MRS. ANDERSON", "1916-05-16") in f["burial_date"]  # "burial will be held Tuesday"
    assert not any("Andcr" in s for s, _ in f["death_date"])


def test_a_title_and_surname_heading_does_not_take_another_surname() -> None:
    f = _facts(_ANDERSON.replace("Andcr\nBon", "Johnson"))
    assert ("MRS. ANDERSON", "1916-05-14") not in f.get("death_date", set())
    assert ("Mrs. Minnie G. Johnson", "1916-05-14") in f["death_date"]


def test_a_heading_s_deck_tells_the_heading_person_s_death() -> None:
    text = ("DEATH OF THOMAS HOUGHTON.'\nAged Man Died in Upper Graniteville\nThursday Morning."
            "\nThomas Tfouediton. a well known resident of Barre Town, passed away at his\nfTM. "
            "..\nhome in upper uranueviue mursu.\nmorning at 9:45 o'clock. He is survived by "
            "five sons, Joseph and Stephen Houghton of Graniteville.")
    f = _facts(text, GenDate.from_parts(1916, 12, 1))
    assert ("THOMAS HOUGHTON", "1916-11-30") in f["death_date"]


def test_a_deck_naming_another_person_is_not_the_heading_s() -> None:
    text = ("DEATH OF THOMAS HOUGHTON.'\nJohn Smith Died in Upper Graniteville\nThursday Morning."
            "\nThomas Houghton, a well known resident of Barre Town, passed away at his home.")
    f = _facts(text, GenDate.from_parts(1916, 12, 1))
    assert ("THOMAS HOUGHTON", "1916-11-30") not in f.get("death_date", set())


def test_closed_his_eyes_and_the_day_told_before_its_subject() -> None:
    text = ("KIRON, Oct. 17—Special\nAfter many months of sickness, on\nFriday, October 6th, "
            "at 2 o'clock, our\ntownsman and pioneer, B. N. Benson,\nclosed his eyes to the "
            "scenes of this\nworld and his long course came to an\nend.")
    f = _facts(text, GenDate.from_parts(1916, 10, 18))
    assert ("B. N. Benson", "1916-10-06") in f["death_date"]


def test_a_day_before_the_subject_is_read_only_after_on() -> None:
    text = ("After many months of sickness, Friday, October 6th, our townsman B. N. Benson "
            "closed his eyes to the scenes of this world.")
    f = _facts(text, GenDate.from_parts(1916, 10, 18))
    assert "death_date" not in f


def test_a_couple_with_a_street_read_as_a_name_between_them() -> None:
    text = ("At the L'niversalist parsonage Thanks\ngiving eve, Mrs. Annie L. Taylor of 449\n"
            "Xorth Main street and Jesse G. Willey of\n379 Xorth Main street were married by\n"
            "Rev. J. B. Reardon.")
    f = _facts(text, GenDate.from_parts(1916, 12, 1))
    assert ("Jesse G. Willey", "1916-11-29") in f["marriage_date"]
    assert ("Jesse G. Willey", "Mrs. Annie L. Taylor") in f["spouse"]
    # and a town read as a name: "Everett Williams of Island Pond and Miss Bernice Daggett"
    text = ("Everett Williams of Island Pond and\nMiss Bernice Daggett were married at\nher "
            "home Wednesday of last week.")
    f = _facts(text, GenDate.from_parts(1916, 2, 23))
    assert ("Everett Williams", "1916-02-16") in f["marriage_date"]


def test_an_initial_misread_as_its_lookalike_is_the_subject_s() -> None:
    text = ("Death of W. C. Sodeman.\nV. C. Sodeman, an influential\nand highly respected "
            "citizen of Concordia, died at his home in Concordia Wednesday, following an "
            "operation for appendicitis.")
    f = _facts(text, GenDate.from_parts(1916, 7, 14))
    assert ("W. C. Sodeman", "1916-07-12") in f["death_date"]
    # a brother's initial is no misreading: J and W are not alike
    f = _facts(text.replace("V. C.", "J. C."), GenDate.from_parts(1916, 7, 14))
    assert ("J. C. Sodeman", "1916-07-12") in f["death_date"]


def test_a_misread_born_after_a_comma_before_its_month() -> None:
    text = ("The death of Mrs. William Clyne occurred at her home on North Main street. "
            "Catherine O'Connor was a native of\nIreland, boru July l'., 1831. When twelve "
            "years of age she came with her parents to this country.")
    f = _facts(text, GenDate.from_parts(1916, 1, 13))
    assert ("Mrs. William Clyne", "1831-07") in f["birth_date"]
    # "the bom\nbardment", "bora, help make": no month after it, no birth
    assert "birth_date" not in _facts("Dont borrow or read your neighbors\nbora, help make "
                                      "this a great paper. Mrs. Smith died May 3, 1916.")


def test_a_question_mark_for_a_misread_letter_inside_a_sentence() -> None:
    text = ("W. Scott Naugle.\nW. Scott Naugle, of Earlston,\nBedford County, was struck by\nan "
            "automobile while working on\nthe State Highway east of Bed\nford on the first day "
            "of Septem\nber, and injured so badly that he\nwas taken to the hospital at Roar\n"
            "in? Spring where he died the\nfollowing Tuesday.")
    f = _facts(text, GenDate.from_parts(1916, 9, 14))
    assert ("W. Scott Naugle", "1916-09-05") in f["death_date"]


def test_a_question_still_ends_its_sentence() -> None:
    text = "Who was the man that Mr. Smith saw at the depot last week? Nobody knows."
    assert len(split_sentences(text)) == 2
    text = "Man? Jane Hinos was born in County Kilkenny."  # (a short run: a new sentence)
    assert len(split_sentences(text)) == 2


_LAKE = ("Mrs. Sarah W. Lake died Saturday at the home of John Collins. The body will be "
         "taken to Quincy, Mass., for interment beside the body of the deceased husband, "
         "Joseph Lake, who died 44 years ago. She was born in Groton, Feb. 18, 1833. Her "
         "marriage to Joseph Lake took place in South Ryegate Jan. 21, 1860. Mr. Lake\nwas "
         "a granite cutter by trade and most\nof his life was spent in Quincy. Ins\ndeath "
         "occurred Oct. 1, 1871, and four\nteen years later Mrs. Lake came to\nBarre to "
         "reside.")


def test_his_death_in_a_widow_s_item_is_her_husband_s() -> None:
    f = _facts(_LAKE, GenDate.from_parts(1916, 1, 3))
    assert ("Joseph Lake", "1871-10-01") in f["death_date"]  # ("Ins": the OCR's "His")
    assert ("Mrs. Sarah W. Lake", "1871-10-01") not in f["death_date"]
    assert ("Joseph Lake", "granite cutter") in f["occupation"]  # "Mr. Lake" is he


def test_his_death_with_no_man_named_is_nobody_s() -> None:
    text = ("Clara Josephine Cottner died last Saturday at her home. Friends of Thomas Gogan "
            "learned with sincere regret of his death on Monday at his home.")
    f = _facts(text, GenDate.from_parts(1916, 1, 15))
    assert ("Clara Josephine Cottner", "1916-01-10") not in f.get("death_date", set())


def test_the_ocr_s_h_for_he_before_the_verb() -> None:
    text = ("S. A. Sydenstricker Dead\nSamuel A. Sydenstricker, a well\nknown resident of this "
            "county 71\nyears old, died at his home on May 4.\nHe was born November 8, 1844 in\n"
            "Greenbrier county, Virginia. He mar\nried Miss Anna M. Ferguson, Septem\nber 26,"
            "1869. She died, November 25,\n1875. To this union one son waa born\nOn August 18, "
            "1880 h married Miss\nMargaret E. Coon.")
    f = _facts(text, GenDate.from_parts(1916, 5, 11))
    assert ("Samuel A. Sydenstricker", "1880-08-18") in f["marriage_date"]
    assert ("Samuel A. Sydenstricker", "Miss Margaret E. Coon") in prose_facts(
        text, GenDate.from_parts(1916, 5, 11), related=True)["spouse"]
