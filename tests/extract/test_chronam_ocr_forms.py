"""Obituary wording and OCR slips read for relatives and dates (issue 20, chronam recall):
each rule on a minimal sentence written for the test, then on the real 1916 page that
shows it (skipped when ../shared is absent)."""

from __future__ import annotations

from prose_facts import prose_facts

from shared_data import shared_path
from sleuth.extract import extract_text
from sleuth.model.dates import GenDate

REF = GenDate.from_parts(1916, 12, 1)


def _facts(text: str, ref: GenDate = REF) -> dict[str, set[tuple[str, str]]]:
    return prose_facts(text, ref, related=True)


def _page(name: str) -> dict[str, set[tuple[str, str]]]:
    """Facts (related name for relationships) of a real page, read with its issue date."""
    path = shared_path("text", "chronam_1916_front_pages", "pages", name)
    ymd = name[:8]
    ref = GenDate.from_parts(int(ymd[:4]), int(ymd[4:6]), int(ymd[6:8]))
    out: dict[str, set[tuple[str, str]]] = {}
    for c in extract_text(path.read_text(encoding="utf-8", errors="replace"), name,
                          document_date=ref):
        if c.is_fact:
            out.setdefault(c.field, set()).add((c.subject_name or "", c.related_name or c.value))
    return out


def test_air_and_mrs_is_a_couple() -> None:
    text = ("Air. and Mrs. Jesse Redman celebrated their golden wedding anniversary last "
            "Sunday. The children are: Charles Redman, of Newark; Walter Redman, of Lima.")
    f = _facts(text)
    assert ("Jesse Redman", "Mrs. Jesse Redman") in f["spouse"]
    assert ("Jesse Redman", "Charles Redman") in f["child"]


def test_air_and_mrs_on_the_celina_page() -> None:
    f = _page("19161124__sn88077067-ed-1_seq-1.txt")
    assert ("Jesso Redman", "Mrs. Jesso Redman") in f["spouse"]
    assert ("Jesso Redman", "Charles Redman") in f["child"]


def test_a_day_s_full_stop_before_the_year_ends_no_sentence() -> None:
    text = ("Burton Gale died yesterday. He was born Sept. 2. 1855, the son of Sullivan B. "
            "Gale and Laura Gale.")
    f = _facts(text)
    assert ("Burton Gale", "1855-09-02") in f["birth_date"]
    assert ("Burton Gale", "Sullivan B. Gale") in f["parent"]


def test_the_day_s_full_stop_on_the_barre_page() -> None:
    f = _page("19161201__sn91066782-ed-1_seq-1.txt")
    assert ("BURTON B. GALE", "Sullivan B. Gale") in f["parent"]


def test_a_date_between_married_and_to_still_names_the_spouse() -> None:
    for text in ("Thomas Gale died Monday. He was married March 24, 1888, to Miss Julia C. "
                 "Wheat of Plainfield.",
                 "Thomas Gale died Monday. In 1870 he was married in 1870 to Miss Julia C. "
                 "Wheat."):
        f = _facts(text)
        assert ("Thomas Gale", "Miss Julia C. Wheat") in f["spouse"], text
    f = _facts("Thomas Gale died Monday. He was married March 24, 1888, to Miss Julia Wheat.")
    assert ("Thomas Gale", "1888-03-24") in f["marriage_date"]


def test_a_daughter_by_her_given_name_then_as_mrs_in_an_announced_list() -> None:
    text = ("Mrs. William Clyne died Thursday. Five children were born here. Dr. Ben Clyne, "
            "of Yale; James, of Jeddo; Mary, Mrs. Win. Holland, of Blaine; Abner, of Pontiac.")
    f = _facts(text)
    assert ("Mary", "Win. Holland") in f["spouse"]
    assert ("Mrs. William Clyne", "Mary") in f["child"]
    assert not any(n.startswith("Mrs. Win") for _, n in f["child"])


def test_mary_mrs_holland_on_the_yale_page() -> None:
    f = _page("19160113__sn98066406-ed-1_seq-1.txt")
    assert ("Mary", "Win. Holland") in f["spouse"]


def test_a_relative_date_of_the_report_is_not_the_event_s() -> None:
    text = ("The death of Mrs. William Clyne occurred, as we noted last week, at her home on "
            "North Main street.")
    assert not _facts(text, GenDate.from_parts(1916, 1, 13)).get("death_date")


def test_the_ocr_s_ii_for_a_middle_initial_h() -> None:
    text = ("Mrs. Katherine Price died Tuesday. Three brothers also survive: R. II. Dudley, "
            "Mexico, and Dr. C. F. Dudley of Pleasureville, Ky.")
    f = _facts(text)
    assert {("Mrs. Katherine Price", "R. II. Dudley"),
            ("Mrs. Katherine Price", "Dr. C. F. Dudley")} <= f["sibling"]


def test_ii_for_h_on_the_mexico_page() -> None:
    f = _page("19160511__sn89067274-ed-1_seq-1.txt")
    assert ("MRS. KATHERINE PRICE", "R. II. Dudley") in f["sibling"]


def test_whose_death_occurred_after_the_funeral_of() -> None:
    text = ("The funeral of Isaac DeCamp Rice, a native of Barre, whose death occurred at "
            "Springfield Thursday at the age of 86 years, was held at the home of his "
            "daughter, Mrs. George Bishop, on Sunday.")
    f = _facts(text, GenDate.from_parts(1916, 1, 10))
    assert ("Isaac DeCamp Rice", "1916-01-06") in f["death_date"]
    assert ("Isaac DeCamp Rice", "Mrs. George Bishop") in f["child"]


def test_whose_death_on_the_barre_page() -> None:
    f = _page("19160103__sn91066782-ed-1_seq-1.txt")
    assert ("Isaac DeCamp Rice", "Mrs. George II. Bishop") in f["child"]


def test_known_as_names_one_man_twice() -> None:
    text = ("J. A. White, known to his friends generally as Albert White, a son of the late "
            "N. R. White, aged 23, died in Albuquerque Sunday morning.")
    f = _facts(text, GenDate.from_parts(1916, 5, 11))
    assert ("J. A. White", "1916-05-07") in f["death_date"]
    assert ("J. A. White", "23") in f["age_at_death"]
    assert ("J. A. White", "N. R. White") in f["parent"]
    assert not any(s == "Albert White" for s, _ in f["parent"])


def test_known_as_on_the_mexico_page() -> None:
    f = _page("19160511__sn89067274-ed-1_seq-1.txt")
    assert ("J. A. White", "N. R. White") in f["parent"]
    assert ("J. A. White", "1916-05-07") in f["death_date"]


def test_their_little_daughter_is_the_couple_s() -> None:
    text = ("Death invaded the home of Mr. and Mrs. George Bradnick near Knobsville, Monday, "
            "August 28, 1916, and claimed their little daughter Lena Evelyn, aged 1 month.")
    f = _facts(text)
    assert {("Lena Evelyn", "George Bradnick"), ("Lena Evelyn", "Mrs. George Bradnick")} <= (
        f["parent"])


def test_their_daughter_goes_with_the_couple_named_last() -> None:
    # a country correspondent's column without full stops: the couple before "their"
    text = ("Mr and Mrs Leon Hale of Salem attended the celebration Saturday night\n"
            "Mr and Mrs Squire Johnson were week end guests of their daughter\n"
            "Mrs Dan Stevens and husband in Sebring")
    f = _facts(text)
    assert ("Mrs Dan Stevens", "Squire Johnson") in f["parent"]
    assert not any("Hale" in p for _, p in f["parent"])


def test_their_little_daughter_on_the_fulton_page() -> None:
    f = _page("19160914__sn86081889-ed-1_seq-1.txt")
    assert ("Lena Evelyn", "George Bradnick") in f["parent"]


def test_was_married_with_the_subject_left_unsaid() -> None:
    text = ("Mrs. John Young died Wednesday afternoon. Mary A. Gregory was born July 1, 1837, "
            "in York state. Was married to John Young May 20, 1856, in Brockway.")
    f = _facts(text, GenDate.from_parts(1916, 1, 13))
    assert ("Mrs. John Young", "John Young") in f["spouse"]


def test_was_married_on_the_yale_page() -> None:
    f = _page("19160113__sn98066406-ed-1_seq-1.txt")
    assert ("Mrs. John Young", "John Young") in f["spouse"]


def test_a_burial_clause_ends_where_the_next_paragraph_s_birth_starts() -> None:
    text = ("Mrs. I. H. Muckler passed away at her home on January 24th, 1916. The services "
            "were conducted by Rev. C. K. Hudson, and burial was made in Oakland cemetery,\n"
            "Elizabeth Dutton was born in Sarahville, Ohio, December 26th, 1847.")
    f = _facts(text, GenDate.from_parts(1916, 1, 26))
    assert not f.get("burial_date")
    assert ("Mrs. I. H. Muckler", "Oakland cemetery") in f["burial_place"]


def test_the_body_of_x_where_ho_died() -> None:
    text = ("The body of Daniel Smith, a Maryland farmer, arrived at Salem Monday morning from "
            "Baltimore, where ho died in a hospital Sunday, following treatment.")
    f = _facts(text, GenDate.from_parts(1916, 8, 21))
    assert ("Daniel Smith", "1916-08-20") in f["death_date"]


def test_a_speck_after_the_ends_no_sentence() -> None:
    text = ('Noah Ginter, aged 72 years, fell dead in front of the". Ayers tobacco store, '
            "about three o'clock last Monday afternoon.")
    f = _facts(text, GenDate.from_parts(1916, 11, 24))
    assert ("Noah Ginter", "1916-11-20") in f["death_date"]


def test_ho_died_and_the_speck_on_real_pages() -> None:
    assert ("Daniel Smith", "1916-08-20") in _page(
        "19160821__sn85059715-ed-1_seq-1.txt")["death_date"]
    assert ("Noah Ginter", "1916-11-20") in _page(
        "19161124__sn88077067-ed-1_seq-1.txt")["death_date"]


def test_mc_parted_from_its_name_by_the_line_end() -> None:
    text = ("Mrs. Rebecca Winters died Sunday. The deceased was a daughter\nof Robert and "
            "Amy Bailey Mc\nClellan, and was married to Jacob Winters.")
    f = _facts(text, GenDate.from_parts(1916, 9, 14))
    assert {("Mrs. Rebecca Winters", "Robert McClellan"),
            ("Mrs. Rebecca Winters", "Amy Bailey McClellan")} <= f["parent"]


def test_mc_parted_on_the_fulton_page() -> None:
    f = _page("19160914__sn86081889-ed-1_seq-1.txt")
    assert ("Mrs. Rebecca Winters", "Robert McClellan") in f["parent"]


def test_a_title_glued_to_the_role_word_ends_no_sentence() -> None:
    text = ("Mrs. John T. Mabry died Friday. The deceased leaves two children.Mrs. J. W.\n"
            "Smith and Mrs. Thomas Hamilton, who have the sympathy of friends.")
    f = _facts(text, GenDate.from_parts(1916, 5, 11))
    assert {("Mrs. John T. Mabry", "Mrs. J. W. Smith"),
            ("Mrs. John T. Mabry", "Mrs. Thomas Hamilton")} <= f["child"]


def test_a_daughter_named_at_a_sentence_start_is_the_subject_s() -> None:
    text = ("Mr. and Mrs. Wilbur F. Bradford celebrated their golden wedding anniversary "
            "today. A daughter, Nellie Bradford, died at the age of 13. Mr. Bradford is a "
            "native of Barre.")
    f = _facts(text, GenDate.from_parts(1916, 2, 14))
    assert ("Wilbur F. Bradford", "Nellie Bradford") in f["child"]
    assert ("Wilbur F. Bradford", "Barre") in f["birth_place"]  # the item is still his


def test_glued_title_and_a_daughter_on_real_pages() -> None:
    assert ("Mrs. John T. Mabry", "Mrs. Thomas Hamilton") in _page(
        "19160511__sn89067274-ed-1_seq-1.txt")["child"]
    assert ("Wilbur F. Bradford", "Nellie Bradford") in _page(
        "19160214__sn91066782-ed-1_seq-1.txt")["child"]


def test_to_whom_she_was_united_in_marriage() -> None:
    text = ("Kate Josephine Green was born June 1, 1857. At the age of 21 she came to Calmar, "
            "where she became acquainted with Eber C. Strayer to whom she was united in "
            "marriage on Feb. 9, 1880.")
    f = _facts(text, GenDate.from_parts(1916, 1, 28))
    assert ("Kate Josephine Green", "Eber C. Strayer") in f["spouse"]
    assert ("Kate Josephine Green", "1880-02-09") in f["marriage_date"]


def test_a_dash_after_the_comma_before_a_listed_name() -> None:
    text = "Kate Strayer died Monday. She leaves to mourn her loss an only\nson,- Lynn V., and "
    text += "three granddaughters."
    assert ("Kate Strayer", "Lynn V.") in _facts(text, GenDate.from_parts(1916, 1, 28))["child"]


def test_a_word_set_twice_before_the_parent() -> None:
    text = ("Mr. Garrett married Agnes Harbert, who was born in Marshall county, and was a "
            "daughter of of Judson Harbert, now dead.")
    assert ("Agnes Harbert", "Judson Harbert") in _facts(text)["parent"]


def test_to_whom_the_dash_and_of_of_on_real_pages() -> None:
    f = _page("19160128__sn87058075-ed-1_seq-1.txt")
    assert ("Kate Josephine Green", "Eber C. Strayer") in f["spouse"]
    assert ("Kate Josephine Green", "Lynn V.") in f["child"]
    assert ("Agnes Harbert", "Judson Harbert") in _page(
        "19160515__sn85059715-ed-1_seq-1.txt")["parent"]


def test_the_ocr_s_question_mark_in_died() -> None:
    text = "Richard H. Howell, aged 54 years,\ndi?d at 4 o'clock Sunday afternoon at his home."
    f = _facts(text, GenDate.from_parts(1916, 5, 15))
    assert ("Richard H. Howell", "1916-05-14") in f["death_date"]
    assert ("Richard H. Howell", "54") in f["age_at_death"]
    assert ("Richard H. Howell", "1916-05-14") in _page(
        "19160515__sn85059715-ed-1_seq-1.txt")["death_date"]
