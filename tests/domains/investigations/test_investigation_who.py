"""Who sat on an inquiry, answered completely from the Swedish documents in ../shared/data:
every person the report names in a role of the inquiry, each with the date the report
gives; a one-person inquiry said to be one; a person the extraction holds in a role but the
summary leaves out is a gap, never a silent COMPLETE; and only sentences in which the
inquiry proposes something quoted as its proposal."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from investigation_cases import demo_corpus
from shared_data import shared_path
from sleuth.domains.investigations import statements as statements_mod
from sleuth.domains.investigations.extraction import extract_source
from sleuth.domains.investigations.loop import start
from sleuth.domains.investigations.model import SourceRecord
from sleuth.domains.investigations.proposals import proposes
from sleuth.domains.investigations.state import Budget, load_state
from sleuth.sources import load_file

SOU_2017_66 = "souregeringen__parsed__2017__66.xhtml"
SOU_2014_67 = ("souregeringen__intermediate__2014__67__inbyggd-integritet-inom-inspektionen-"
               "for-socialforsakringen-sou-201467.xml.bz2")
SOU_1972_47 = "soukb__intermediate__1972__47__index.hocr.html.bz2"
QUESTION = ("What did the 2016 inquiry into the EU data protection regulation in the social "
            "ministry's area decide, and who sat on it?")
EXPERTS_2016 = ("Peter Andrén", "Catarina Eklundh Ahlgren", "Anette Enberg", "Bo Granath",
                "Ulrika Holfelt", "Suzanne Isberg", "Ulrika Marusarz", "Karin Nylén",
                "Anne Vilval")


def _read(name: str) -> Any:
    return load_file(shared_path("documents", "swedish_gov", name)).snapshot


def _appointed(name: str) -> dict[str, tuple[str, str, str]]:
    """name -> (role, role word, ISO date) of each appointment the report states."""
    snap = _read(name)
    x = extract_source(SourceRecord(id="S001", path=name, language="sv"), snap)
    return {a["name"]: (a["role"], a["role_text"], a["date"]) for a in x.appointments}


def test_a_modern_report_dates_every_appointment_by_its_own_sentence() -> None:
    """SOU 2017:66: "Från och med samma dag förordnade … Sören Öman som särskild utredare";
    the experts "samma dag" as the advisers (19 September 2016), the last two as well as the
    first; each secretary by the "från och med den" after their own name."""
    found = _appointed(SOU_2017_66)
    assert found["Sören Öman"] == ("chair", "särskild utredare", "2016-06-16")
    for name in EXPERTS_2016:
        assert found[name] == ("expert", "experter", "2016-09-19"), name
    assert found["Hélène Runsten"][2] == "2016-08-08"
    assert found["Jonna Wiborn"][2] == "2016-09-01"


def test_a_second_appointment_on_a_date_already_seen_keeps_its_date() -> None:
    """SOU 2014:67: the secretary engaged "den 10 september 2013", the day the special
    investigator was appointed, is not dated by the replacement of 10 June 2014 before it;
    every expert appointed "samma dag" as the advisers has that day."""
    found = _appointed(SOU_2014_67)
    assert found["Per Furberg"] == ("chair", "särskild utredare", "2013-09-10")
    assert found["Johanna Wasteson"] == ("secretary", "sekreterare", "2013-09-10")
    assert found["Catarina Eklundh Ahlgren"][2] == found["Gunnar Svensson"][2] == "2013-10-17"
    assert found["Susanne Svanholm"][2] == "2014-06-10"


def test_an_effective_date_does_not_date_the_appointment() -> None:
    """SOU 1972:47: "förordnades den 27 juni 1969 med verkan fr.o.m. den 1 augusti 1969"
    dates the appointment 27 June; "den 6 mars 1970 med verkan från den 1 i samma månad"
    6 March."""
    found = _appointed(SOU_1972_47)
    assert found["Karl-Olof Lidin"][2] == "1969-06-27"
    assert found["Hans-Olof Hansson"][2] == "1970-03-06"
    assert found["Rune Hermansson"][:2] == ("chair", "sakkunniga, tillika ordförande")


def _sentence(name: str, start: str) -> str:
    text = " ".join(_read(name).text.split())
    m = re.search(re.escape(start) + r"[^.]*\.", text)
    assert m, start
    return m.group(0)


@pytest.mark.parametrize(("name", "start", "made"), [
    (SOU_2017_66, "Eftersom de ändringar utredningen föreslår", False),  # mentions them
    (SOU_2017_66, "Genom beslut den 16 juni 2016", False),  # the remit: "och föreslå"
    (SOU_2014_67, "Vi föreslår därför", True),
    (SOU_2014_67, "Observera att de gallringsbestämmelser", False),  # "som föreslås"
    (SOU_1972_47, "OSK föreslår att tillståndstvång", True),
])
def test_only_a_sentence_that_makes_a_proposal_is_one(name: str, start: str,
                                                      made: bool) -> None:
    assert proposes(_sentence(name, start)) is made


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The demonstration's four documents, and the auditor's question over them."""
    root = tmp_path_factory.mktemp("who")
    corpus = demo_corpus(shared_path("documents", "swedish_gov"), root / "corpus")
    start(QUESTION, root / "case", corpus)
    return corpus, root / "case"


@pytest.fixture(scope="module")
def case(run: tuple[Path, Path]) -> Path:
    return run[1]


def _section(summary: str, heading: str) -> str:
    part = summary.split(f"## {heading}\n", 1)[1]
    return part.split("\n## ", 1)[0].split("\n[^", 1)[0]


def test_the_who_answer_names_everyone_in_a_role_with_their_date(case: Path) -> None:
    state = load_state(case)
    assert state.status == "COMPLETE" and not state.gaps
    summary = (case / "summary.md").read_text(encoding="utf-8")
    who = _section(summary, "Who sat on it")
    assert ("The inquiry was a one-person inquiry: Sören Öman was appointed special "
            "investigator (“särskild utredare”) on 16 June 2016.") in who
    experts = next(ln for ln in who.splitlines() if "experts" in ln)
    assert experts.startswith("On 19 September 2016, ")
    assert all(n in experts for n in EXPERTS_2016)
    assert "From 8 August 2016, Hélène Runsten served as secretary" in who
    assert "From 1 September 2016, Jonna Wiborn served as secretary" in who
    for adviser in ("Niclas Fogelström", "Jimmy Järvenpää", "Caroline Nilsson",
                    "Annika Remaeus"):
        assert adviser in who
    timeline = (case / "timeline.md").read_text(encoding="utf-8")
    # the appointed, not the minister who appoints, and not "Arbetsdomstolen Sören"
    assert "Named: Sören Öman." in timeline and "Named: Annika Strandhäll" not in timeline


def test_a_sentence_that_only_mentions_the_proposals_is_not_quoted(case: Path) -> None:
    summary = (case / "summary.md").read_text(encoding="utf-8")
    assert "Eftersom de ändringar" not in summary
    assert "stated its proposal" not in summary  # SOU 2017:66's pages here make none
    listed = (case / "statements.md").read_text(encoding="utf-8")
    assert re.search(r"\(proposal mentioned, in SOU 2017:66\).*Eftersom de ändringar", listed)
    assert "**PFOP**" not in listed  # an OCR'd page head is nobody


def test_a_person_in_a_role_the_summary_omits_is_a_gap(run: tuple[Path, Path], tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch
                                                       ) -> None:
    """A composer that drops the experts' appointment (as one whose statement could not be
    verified would be) leaves the "who" unanswered: a gap naming them, no COMPLETE."""
    compose = statements_mod.Composer._appointments

    def without_experts(self: statements_mod.Composer, sids: list[str]) -> list[Any]:
        return [s for s in compose(self, sids) if "experter" not in s.claim]

    monkeypatch.setattr(statements_mod.Composer, "_appointments", without_experts)
    state = start(QUESTION, tmp_path / "case", run[0], budget=Budget(max_iterations=2))
    assert state.status != "COMPLETE"
    gaps = [g for g in state.gaps if g.kind == "unanswered" and g.ref == "who"]
    assert gaps and all(n in gaps[0].text for n in EXPERTS_2016)
    summary = (tmp_path / "case" / "summary.md").read_text(encoding="utf-8")
    assert "Sören Öman" in summary  # the rest of the answer stands


def test_another_one_person_inquiry_is_answered_whole(tmp_path: Path) -> None:
    """SOU 2014:67 alone: its special investigator, secretary, advisers and experts, each
    dated; the name it took (not its cover's "Betänkande av"); its supplementary directive
    ("tilläggsdi-\\nrektiv") as a change of the directive, not a second directive."""
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / SOU_2014_67).write_bytes(shared_path("documents", "swedish_gov",
                                                   SOU_2014_67).read_bytes())
    state = start("What did the inquiry into personal data processing at the Social "
                  "Insurance Inspectorate (ISF) decide, and who sat on it?", tmp_path / "case",
                  corpus)
    assert state.status == "COMPLETE" and not state.gaps
    summary = (tmp_path / "case" / "summary.md").read_text(encoding="utf-8")
    who = _section(summary, "Who sat on it")
    assert ("one-person inquiry: Per Furberg was appointed special investigator "
            "(“särskild utredare”) on 10 September 2013") in who
    assert "On 10 September 2013, Johanna Wasteson was appointed secretary" in who
    assert "On 10 June 2014, Susanne Svanholm" in who
    what = _section(summary, "What the inquiry decided")
    assert "took the name “Utredningen om personuppgiftsbehandlingen vid ISF”" in what
    assert "On 12 June 2014, a government decision changed the inquiry's directive." in what
    assert "directive was decided on 12 June 2014" not in what
