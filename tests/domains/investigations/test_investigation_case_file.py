"""The 1916 election's case file read as a journalist reads it (issue 24, seed 003): one
entry per person with the forms the papers use and the roles they state, a dated timeline
of the reports the case uses, the statements on the question first and attributed, and no
summary quote that opens on a pronoun it cannot resolve. Real Chronicling America pages."""

from __future__ import annotations

import re
import shutil
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from investigation_cases import assert_deliverable
from shared_data import shared_path
from sleuth.domains.investigations.chronicle import daily, event_day
from sleuth.domains.investigations.corpus import newspaper_title
from sleuth.domains.investigations.general import opens_with_pronoun
from sleuth.domains.investigations.loop import start
from sleuth.domains.investigations.naming import name_forms

QUESTION = ("What did the newspapers report about the presidential election between Wilson "
            "and Hughes in 1916?")
PAGES = ("19161018__sn86092557", "19161019__sn89067274", "19161103__sn91066782",
         "19161113__sn91066782", "19161124__sn88077067",  # the campaign, the count
         "19160712__sn90059228")  # the Deutschland's crossing: not the election
_CITED = re.compile(r": S\d{3}, [^:]+: “.+”$")


@pytest.fixture(scope="module")
def case(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Any]:
    chronam = shared_path("text", "chronam_1916_front_pages")
    root = tmp_path_factory.mktemp("election")
    corpus = root / "corpus"
    corpus.mkdir()
    for d in PAGES:
        shutil.copy(chronam / "pages" / f"{d}-ed-1_seq-1.txt", corpus)
    shutil.copy(chronam / "titles_meta.json", corpus / "titles_meta.json")
    state = start(QUESTION, root / "case", corpus)
    assert state.status == "COMPLETE" and state.verification_passed
    assert_deliverable(root / "case")  # every summary sentence footnoted and VERIFIED
    return root / "case", state


def _entries(text: str) -> dict[str, str]:
    """people.md's entries: heading -> its text."""
    parts = re.split(r"^## (.+)$", text, flags=re.MULTILINE)
    return dict(zip(parts[1::2], parts[2::2], strict=True))


def test_one_entry_per_person_with_the_forms_and_roles_the_papers_state(
        case: tuple[Path, Any]) -> None:
    people = (case[0] / "people.md").read_text(encoding="utf-8")
    entries = _entries(people)
    hughes = [h for h in entries if "Hughes" in h]
    assert hughes == ["Charles Evans Hughes"], list(entries)
    body = entries["Charles Evans Hughes"]
    also = re.search(r"also named: ([^;]+);", body)
    assert also and {"Chas E. Hughes", "Charles E. Hughes", "Mr. Hughes"} <= set(
        also.group(1).split(", "))
    assert re.search(r"roles: Republican candidate for president \(S\d{3}\)", body)
    assert "- Chas E. Hughes, Republican candidate for president: S" in body  # its citation
    # Woodrow Wilson is President Wilson; John J. Wilson and Mrs. Wilson are not him
    wilson = entries["Woodrow Wilson"]
    forms = re.search(r"also named: ([^;]+);", wilson)
    assert forms and "President Wilson" in forms.group(1).split(", ")
    assert "Mrs. Wilson" not in forms.group(1) and "John J. Wilson" not in forms.group(1)
    assert re.search(r"roles: President \(S\d{3}(, S\d{3})+\)", wilson)
    assert "roles: chairman of the committee of arrangements" in entries["John J. Wilson"]
    assert "Mrs. Wilson" in entries  # a woman's form never joins a man's name
    # where a page names both men, its bare "Mr. Wilson" joins neither and says why
    assert "Not joined to John J. Wilson or Woodrow Wilson" in entries.get("Mr. Wilson", "")
    assert not any("Saxe. Report" in h or ". " in h.split()[-1] for h in entries)
    lines = [ln for ln in people.splitlines() if ln.startswith("- ")]
    assert lines and all(not ln.startswith("- —") and _CITED.search(ln) for ln in lines)


def test_the_timeline_dates_each_report_and_the_day_its_sentence_states(
        case: tuple[Path, Any]) -> None:
    timeline = (case[0] / "timeline.md").read_text(encoding="utf-8")
    lines = [ln for ln in timeline.splitlines() if ln.startswith("- ")]
    assert len(lines) >= 8
    days = [re.match(r"- \*\*(\d{4}-\d{2}-\d{2})\*\* ", ln) for ln in lines]
    assert all(days) and [d.group(1) for d in days if d] == sorted(d.group(1) for d in days if d)
    assert all(_CITED.search(ln) for ln in lines)
    figures = next(ln for ln in lines if "178,500 and Hughes 178,810" in ln)
    assert figures.startswith("- **1916-11-13** (“To-day”, in the paper of 13 November 1916)")
    # "to night" in a paper not known to be a daily fixes no day: the paper's, as reported
    telegram = next(ln for ln in lines if "congratulating him" in ln)
    assert telegram.startswith("- **1916-11-24** reported on 24 November 1916 (the sentence "
                               "says “to night”")
    summary = (case[0] / "summary.md").read_text(encoding="utf-8")
    for st in case[1].verification["statements"]:  # every report the summary uses
        assert st["claim"][:40] in summary and st["quote"] in timeline


def test_statements_on_the_question_come_first_and_name_their_speaker(
        case: tuple[Path, Any]) -> None:
    text = (case[0] / "statements.md").read_text(encoding="utf-8")
    on, _, rest = text.partition("## On other matters")
    assert "## On the question" in on and rest
    first = next(ln for ln in on.splitlines() if ln.startswith("- "))
    assert first.startswith("- **Mr. Hughes** (reported, in The Celina Democrat")
    for off in ("Sailly-Saillisel", "Roxbury", "Milk Producers"):
        assert off not in on and off in rest
    count = re.search(r"^(\d+) statements in the sources are about other things: (.+)\.$",
                      rest, re.MULTILINE)
    assert count and int(count.group(1)) == rest.count("\n- **")
    assert "- **Police Captain Tunney** (reported" in rest  # a speaker the sentence names


def test_no_summary_quote_opens_on_a_pronoun_without_whom_it_means(
        case: tuple[Path, Any]) -> None:
    claims = [st["claim"] for st in case[1].verification["statements"]]
    assert claims and not any(opens_with_pronoun(c) for c in claims)
    summary = (case[0] / "summary.md").read_text(encoding="utf-8")
    assert "Two of his appoint" not in summary
    # quoted with the sentence before, which names who: verbatim, contiguous, VERIFIED
    assert re.search(r"“Mr\. O'Reai says that the war .+\. He found the East strong for "
                     r"Wilson", summary)


def test_a_sentence_is_dated_only_as_far_as_its_paper_fixes_it() -> None:
    paper = date(1916, 11, 13)
    assert daily("The Barre daily times (Barre, Vt.)") is True
    assert daily("Mexico weekly ledger (Mexico, Mo.)") is False
    assert daily("The Celina Democrat (Celina, O. [Ohio])") is None
    said = "Portions of Sailly-Saillisel were again lost to the French yesterday."
    assert event_day(said, paper, True).day == date(1916, 11, 12)
    assert not event_day(said, paper, None).fixed  # a weekly's "yesterday" is no day
    dateline = "NEW ORLEANS, Oct. 18.?A message received here shortly before 9 this a. m."
    assert event_day(dateline, date(1916, 10, 18), None).day == date(1916, 10, 18)
    both = "Yesterday the count stood at 230; to-day the figures stand at 310."
    assert not event_day(both, paper, True).fixed  # two days: neither is the sentence's
    # a month is its name or abbreviation, not any word that begins like one
    assert not event_day("The Junior 12 won the game.", paper, True).fixed
    assert not event_day("Marines 3 were landed at Vera Cruz.", paper, True).fixed
    assert event_day("On September 30 the count began.", paper, None).day == date(1916, 9, 30)


def test_an_office_before_an_institution_names_no_person() -> None:
    """"President Wilson" is a person's form; "Justice Department" is no "Justice X"."""
    assert [f.text for f in name_forms("The Justice Department announced the ruling.")] == []
    assert [f.text for f in name_forms("President Wilson spoke, and Police Captain Tunney "
                                       "of the bomb squad said so.")] == [
        "President Wilson", "Police Captain Tunney"]


def test_a_page_is_named_by_its_title_record_or_else_by_its_lccn_never_by_its_ocr(
        tmp_path: Path) -> None:
    """Without Chronicling America's title list the paper is named by the LCCN of its file
    name, not by the masthead's OCR ("THE BAR-EE DAILY TIME"); with it, by its record."""
    chronam = shared_path("text", "chronam_1916_front_pages")
    page = tmp_path / "bare" / "19160510__sn91066782-ed-1_seq-1.txt"
    page.parent.mkdir()
    shutil.copy(chronam / "pages" / page.name, page)
    assert "THE BAR-EE DAILY TIME" in page.read_text(encoding="utf-8")
    assert newspaper_title(page) == "Chronicling America newspaper sn91066782"
    listed = tmp_path / "listed" / "pages" / page.name
    listed.parent.mkdir(parents=True)
    shutil.copy(page, listed)
    shutil.copy(chronam / "titles_meta.json", listed.parent.parent / "titles_meta.json")
    assert newspaper_title(listed) == "The Barre daily times (Barre, Vt.)"
    (page.parent / "titles_meta.json").write_text('{"sn00000000": {"name": "Other"}}')
    assert newspaper_title(page) == "Chronicling America newspaper sn91066782"
    assert newspaper_title(page.parent / "titles_meta.json") == ""  # no page file
