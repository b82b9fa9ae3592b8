"""Side-by-side columns put back in reading order (issue 20: a date from one obituary read
into another's sentence). The lines are the Lexington Intelligencer's of 1916-07-14 as its OCR
printed them; the page itself is read where the shared data is present."""

from __future__ import annotations

from prose_facts import prose_facts

from shared_data import shared_path
from sleuth.extract import extract_text
from sleuth.extract.columns import column_order
from sleuth.extract.reading import reading_view, word_list
from sleuth.model.dates import GenDate

REF = GenDate.from_parts(1916, 7, 14)  # a Friday

# two items' columns the OCR read as one line each, and one column's lines between
_PAGE = """DEATH OF YOUNG EWING.
Death of Mrs. H. C. Manary.
Word was received here Wed-1
nesday announcing the death of Well Known and Highly Respect
Mrs. H. C. Manary, sister of
Mrs. Lee J. Slusher, at her home
in Joplin, Mo., Wednesday after-
ed Citizen Dies After Long
Illness.
After a prolonged struggle
noon at 3:45 o'clock. Her death with a complication of ills, Young
was due to a complication of dis- Ewing, a prominent member of
eases. one of the foremost families of
Mrs. Manary was born in In- the county, died Tuesday morn
dependence, August 28, 1861, ing at his home, 303 Washington
and was 55 years of age. 'Avenue. Death was due to a
The body will be brought to combination of heart and kid
Lexington tonight. The remains ney trouble. Mr. Ewing was
will be taken direct from the taken sick last November and de
train to the Slusher burying clined steadily. Several weeks
"""
# a column's lines (the page's width)
_SINGLE = """grounds about seven miles east
of Lexington. Services will be
tonducted by Rev. Anderson of
boosting for Sam. C. Major, ar
rived in Lexington yesterday.
They are traveling in autos dec-
orated with streamers bearing,
A party of thirty professional
"""
# a wide column's lines (an editorial across two widths) read on as one column
_WIDE = """For ten years the Seventh Congressional District was rep
resented by Hon. John T. Heard of Pettis County, for two years
by Hon. John P. Tracy of Greene County, for six years by Judge
James Cooney of Saline county, for two years by Hon. C. W.
Hamlin of Greene County, for two years by Hon. John Wel
borne of Lafayette County, and for the past ten years by Hon.
C. W. Hamlin of Greene County. From the record we find that
for the past thirty years this district has been, represented
"""


def test_two_columns_read_as_one_line_are_read_one_after_the_other() -> None:
    text = _SINGLE + _PAGE
    order = column_order(text, word_list)
    assert len(order.text) == len(text)
    assert "Mrs. Manary was born in In-\ndependence, August 28, 1861,\nand was 55" in order.text
    assert "the county, died Tuesday morn\ning at his home, 303 Washington\n" in order.text
    # the left column's pieces come first: its sentence ends before the right one begins
    assert order.text.index("The body will be") < order.text.index("the county, died")
    # a line of one column goes on in the column whose word it ends ("Respect" / "ed")
    assert "Highly Respect\ned Citizen Dies After Long\nIllness.\n" in order.text
    # every character is the source's (the gap's blank is the left piece's line break)
    assert sorted(order.text.replace("\n", " ")) == sorted(text.replace("\n", " "))


def test_a_span_maps_back_to_the_printed_lines_that_hold_it() -> None:
    text = _SINGLE + _PAGE
    view = reading_view(text, columns=True)
    s = view.text.index("Mrs. Manary was born")
    e = view.text.index("1861,") + 5
    a, b = view.to_source(s, e)
    # the source span starts at the birth's line and ends at its year, the other column's
    # words between them included
    assert text[a:b] == ("Mrs. Manary was born in In- the county, died Tuesday morn\n"
                         "dependence, August 28, 1861,")
    # a piece maps back to itself, and a source span to the view's
    one = view.text.index("Independence")
    assert text[slice(*view.printed(one, one + 12))].strip() == "In-"
    assert view.to_view(a, a + 11) == (s, s + 11)


def test_a_wide_column_is_left_as_printed() -> None:
    text = _SINGLE + _WIDE
    assert column_order(text, word_list).text == text
    assert reading_view(text, columns=True).order is None


def test_the_dates_of_two_items_read_side_by_side() -> None:
    f = prose_facts(_SINGLE + _PAGE, REF)
    assert ("Mrs. H. C. Manary", "1861-08-28") in f["birth_date"]
    assert ("Mrs. H. C. Manary", "1916-07-12") in f["death_date"]
    assert not any(v == "1861-08-28" for _, v in f.get("death_date", set()))


def test_the_lexington_page_s_interleaved_notices() -> None:
    page = shared_path("text", "chronam_1916_front_pages", "pages",
                       "19160714__sn86063623-ed-1_seq-1.txt")
    text = page.read_text(encoding="utf-8", errors="replace")
    facts = {(c.subject_name, c.field, c.value) for c in extract_text(
        text, page.stem, document_date=REF) if c.is_fact}
    assert ("Mrs. H. C. Manary", "birth_date", "1861-08-28") in facts
    assert ("Mrs. H. C. Manary", "death_date", "1916-07-12") in facts
    assert ("Mrs. H. C. Manary", "death_date", "1861-08-28") not in facts  # (as printed)
    # "Death of W. C. Sodeman. ' Child's Funeral Wednesday.": the gap after the stop
    assert ("W. C. Sodeman", "death_date", "1916-07-12") in facts
