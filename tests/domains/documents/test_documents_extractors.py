"""The documents domain's deterministic extractors (issue 22) on real lines of the shared
government documents (skips without ../shared): Swedish and English dates as ranges, process
events and people with roles, every candidate through the firewall, every excerpt on the
page it names."""

from __future__ import annotations

import ast
import re
from datetime import date
from pathlib import Path

import pytest

from shared_data import shared_path
from sleuth.domains import DOMAINS, get_domain
from sleuth.domains.documents import (
    DOMAIN,
    FIELDS,
    PageCited,
    Pages,
    dedupe,
    entity_key,
    extract,
    extract_events,
    extract_mentions,
)
from sleuth.domains.documents.cite import excerpt_span
from sleuth.domains.documents.dates import find_dates
from sleuth.domains.documents.timeline import actors_at
from sleuth.model import Candidate, Citation, InputError, Locator, Snapshot
from sleuth.pipeline.validator import validate
from sleuth.sources import load_file
from sleuth.verify import check_candidates
from sleuth.verify.firewall import Source

GOV = ("documents", "swedish_gov")
SOU_1972_47 = (*GOV, "soukb__intermediate__1972__47__index.hocr.html.bz2")
PROP_1992_93_30 = (*GOV, "propriksdagen__intermediate__1992-93__30__index.hocr.html.bz2")
PROP_1987_88_155 = (*GOV, "propriksdagen__intermediate__1987-88__155__index.hocr.html.bz2")
DIR_2016_15 = (*GOV, "dirregeringen__downloaded__2016__15__dir.-201615-dataskyddsforordningen.pdf")
DIR_2017_29 = (*GOV, "dirregeringen__downloaded__2017__29__tillaggsdirektiv-till-"
               "forskningsdatautredningen-u-201604--dir.-201729.pdf")
GDPR = ("documents", "eu_gdpr", "gdpr-regulation-2016-679.pdf")
FEDREG = ("documents", "us_federal_register", "federal-register-2020-17221.pdf")
ALL = [SOU_1972_47, PROP_1992_93_30, PROP_1987_88_155, DIR_2016_15, DIR_2017_29, GDPR, FEDREG]

_cache: dict[tuple[str, ...], Snapshot] = {}


def snap(parts: tuple[str, ...]) -> Snapshot:
    if parts not in _cache:
        _cache[parts] = load_file(shared_path(*parts)).snapshot
    return _cache[parts]


def _norm(s: str) -> str:
    return " ".join(re.sub(r"[-\u2010\u2014]\s*\n\s*", "", s).split())


@pytest.mark.parametrize(("phrase", "earliest", "latest"), [
    ("den 11 april 1969", date(1969, 4, 11), date(1969, 4, 11)),
    ("Stockholm i mars 1970.", date(1970, 3, 1), date(1970, 3, 31)),
    ("Stockholm ijuni 1972.", date(1972, 6, 1), date(1972, 6, 30)),  # OCR glued "i"
    ("hösten 1969", date(1969, 9, 1), date(1969, 11, 30)),
    ("träder i kraft den ljanuari 1993", date(1993, 1, 1), date(1993, 1, 1)),  # OCR l for 1
    ("Done at Brussels, 27 April 2016.", date(2016, 4, 27), date(2016, 4, 27)),
    ("Issued on August 3, 2020.", date(2020, 8, 3), date(2020, 8, 3)),
    ("by September 21,\n2020.", date(2020, 9, 21), date(2020, 9, 21)),
])
def test_dates_swedish_and_english_as_ranges(phrase: str, earliest: date, latest: date) -> None:
    [hit] = find_dates(phrase)
    assert (hit.date.earliest, hit.date.latest) == (earliest, latest)


def test_not_dates() -> None:
    assert find_dates("lagen (1976:380) den 31 juni 1993, 4.5.2016, dir. 1991:74") == []


def test_sou_1972_47_timeline_and_people() -> None:
    s = snap(SOU_1972_47)
    events = {(e.event_type, e.date.iso()): e for e in extract_events(s)}
    assert events[("directive_issued", "1969-04-11")].page == 2
    assert events[("directive_issued", "1969-04-11")].page_label == "6"
    assert ("member_appointed", "1969-05-09") in events
    report = events[("report_submitted", "1972-06")]
    assert (report.date.earliest, report.date.latest) == (date(1972, 6, 1), date(1972, 6, 30))
    # "med verkan fr.o.m. den 1 augusti 1969" is when an appointment took effect: no event
    assert not any(d == "1969-08-01" for _, d in events)
    people = {(m.name, m.role) for m in extract_mentions(s)}
    assert ("Rune Hermansson", "chair") in people
    assert {("Erik Adamsson", "member"), ("Åke Polstam", "member"),  # "Adams-\nson" joined
            ("Hans-Olov Stark", "expert"), ("Jan Freese", "secretary")} <= people
    chair = next(m for m in extract_mentions(s) if m.name == "Rune Hermansson")
    assert chair.role_text == "sakkunniga, tillika ordförande"


def test_each_dated_appointment_names_the_people_its_date_governs() -> None:
    """An enumeration of dates and names gives each date the names after it ("den 18 juni
    1969 ... Rapaport och ... Svenonius, den 6 mars 1970 med verkan från den 1 i samma månad
    aktuarien Hans-Olof Hansson samt den 10 februari 1972 ... Hans-Olov\nStark"); a date
    saying from when belongs to the name before it (SOU 2017:66's two secretaries)."""
    s = snap(SOU_1972_47)
    actors = {e.date.iso(): e.actors for e in extract_events(s) if e.event_type in (
        "member_appointed", "directive_issued")}
    assert actors["1969-06-18"] == ["Edmund Rapaport", "Per Svenonius"]
    assert actors["1970-03-06"] == ["Hans-Olof Hansson"]
    assert actors["1972-02-10"] == ["Hans-Olov Stark"]  # a name broken over two lines
    assert actors["1969-06-27"] == ["Karl-Olof Lidin"]  # after "med verkan fr.o.m. den ..."
    text = ("Som experter förordnades samma dag chefen Peter Andrén (Försäkringskassan). Som "
            "sekreterare i utredningen har arbetat verksjuristen Hélène Runsten från och med "
            "den 8 augusti 2016 och hovrättsassessorn Jonna Wiborn från och med den 1 "
            "september 2016.")
    [aug, sep] = find_dates(text)
    assert actors_at(text, 0, len(text), aug.start, aug.end) == ["Hélène Runsten"]
    assert actors_at(text, 0, len(text), sep.start, sep.end) == ["Jonna Wiborn"]
    heading = "Andersson, Thalén\nFöredragande: statsrådet Leijon\nLagrådsremiss den 25 mars 1988"
    [hit] = find_dates(heading)
    assert actors_at(heading, 0, len(heading), hit.start, hit.end) == []


def test_an_event_quotes_its_date_and_every_actor_from_a_sentence_start() -> None:
    """The excerpt of "den 6 mars 1970 ... aktuarien Hans-Olof Hansson" names Hansson (it
    stopped before him), and no excerpt begins with the end of the sentence before it
    ("OSK).\nAtt som experter", "Stark. Genom beslut")."""
    events = {e.date.iso(): e for e in extract_events(snap(SOU_1972_47))}
    for e in events.values():
        for name in e.actors:
            assert name in _norm(e.excerpt), (e.date.iso(), name, e.excerpt)
        assert not re.match(r"\S*[.)]\s", e.excerpt), e.excerpt
    assert "Hans-Olof Hansson" in events["1970-03-06"].excerpt
    assert events["1969-06-18"].excerpt.startswith("Att som experter")
    assert events["1970-11-09"].excerpt.startswith("Genom beslut den 9 november 1970")
    assert events["1969-06-27"].excerpt.endswith("Karl-Olof Lidin.")
    # a sentence too long for one quote is quoted from the date's clause, whole words
    assert events["1972-02-10"].excerpt.startswith("den 6 mars 1970")
    assert events["1972-02-10"].excerpt.endswith("Hans-Olov\nStark.")


def test_an_excerpt_begins_at_its_sentence_not_the_end_of_the_one_before() -> None:
    text = ("De sakkunniga har antagit namnet (OSK).\nAtt som experter biträda de sakkunniga "
            "tillkallades den 18 juni 1969 numera avdelningschefen Edmund Rapaport.")
    pages = Pages((0,), (len(text),), ("1",))
    at = text.index("den 18 juni")
    a, _ = excerpt_span(text, pages, at, at + 16)
    assert text[a:].startswith("Att som experter")  # was "OSK).\nAtt som experter"
    mid = text.replace("(OSK).\n", "(OSK) och ")  # no sentence end: a whole word still
    a, _ = excerpt_span(mid, Pages((0,), (len(mid),), ("1",)), at, at + 16)
    assert a == 0 or mid[a - 1].isspace()


def test_proposition_ministers_and_directive() -> None:
    s = snap(PROP_1992_93_30)
    mentions = extract_mentions(s)
    ministers = {m.name for m in mentions if m.role == "minister" and m.page == 6}
    assert {"Bildt", "B. Westerberg", "Friggebo", "af Ugglas", "Ask"} <= ministers
    kinds = {(e.event_type, e.date.iso(), e.page) for e in extract_events(s)}
    assert ("proposition_submitted", "1992-10-22", 1) in kinds
    assert ("directive_issued", "1991-12-05", 6) in kinds
    # LAF "trädde i kraft den 1 juli 1977": another law's history, not this process
    assert not any(d == "1977-07-01" for _, d, _ in kinds)


def test_english_documents_signatories_and_labels() -> None:
    g = snap(GDPR)
    enacted = next(e for e in extract_events(g) if e.event_type == "law_enacted")
    assert (enacted.date.iso(), enacted.page, enacted.page_label) == ("2016-04-27", 1, "L 119/1")
    assert 88 in enacted.also_pages  # "Done at Brussels, 27 April 2016."
    signers = {(m.name, m.page_label) for m in extract_mentions(g) if m.kind == "person"}
    assert ("M. SCHULZ", "L 119/88") in signers
    fr = snap(FEDREG)
    signed = next(e for e in extract_events(fr) if e.description == "signed")
    assert (signed.date.iso(), signed.page_label) == ("2020-08-03", "47712")
    assert any(m.name == "Lance T. Gant" for m in extract_mentions(fr))


@pytest.mark.parametrize("parts", ALL, ids=lambda p: p[-1][:30])
def test_firewall_and_rules_accept_every_candidate_and_pages_are_right(
        parts: tuple[str, ...]) -> None:
    s = snap(parts)
    cands = extract(s, None)
    assert cands
    report = check_candidates(cands, {s.id: Source.of_snapshot(s)})
    assert not report.rejected, report.violations[:3]
    pages = Pages.of(s)
    for c in report.passed:
        assert c.field in FIELDS and validate(c, DOMAIN.rules).acceptable, c
        cit = c.citation
        assert cit is not None and cit.locator.page is not None
        assert 50 <= len(cit.excerpt) <= 200
        i = cit.locator.page - 1
        page_text = s.text[pages.starts[i]:pages.ends[i]]
        assert _norm(cit.excerpt) in _norm(page_text), (cit.locator.page, cit.excerpt)


def _cand(excerpt: str, page: int | None, field: str = "directive_issued_date") -> Candidate:
    return Candidate(subject="document", subject_name="SOU 1972:47", field=field, value="x",
                     confidence=0.9, citation=Citation(
                         snapshot_id="s", excerpt=excerpt,
                         locator=Locator(start=0, end=len(excerpt), page=page)))


def test_page_cited_rule_rejects_no_page_and_bad_excerpt_lengths() -> None:
    rule = PageCited()
    ok = "Genom beslut den 11 april 1969 bemyndigade Kungl. Maj:t chefen för justitiedep"
    assert rule(_cand(ok, 2)) is None
    no_page = rule(_cand(ok, None))
    assert no_page is not None and no_page.decision == "reject"
    short = rule(_cand("den 11 april 1969", 2))
    assert short is not None and short.decision == "reject"
    long = rule(_cand(ok * 3, 2))
    assert long is not None and long.decision == "reject"
    assert rule(_cand("den 11 april 1969", None, field="birth_date")) is None  # not ours


def test_dedupe_across_documents_by_name_variants_and_initials() -> None:
    assert entity_key("Rune Hermansson") == entity_key("R. Hermansson") == "hermansson|r"
    mentions = extract_mentions(snap(PROP_1992_93_30)) + extract_mentions(snap(SOU_1972_47))
    ents = dedupe(mentions)
    bildt = [e for e in ents if e.key.startswith("bildt")]
    assert len(bildt) == 1 and {"Carl Bildt", "Bildt"} <= set(bildt[0].variants)
    konberg = [e for e in ents if e.key.startswith("kon")]  # "Könbvrg" (OCR) is Könberg
    assert len(konberg) == 1 and len(konberg[0].mentions) >= 2
    westerberg = {e.name for e in ents if e.key.startswith("westerberg")}
    assert westerberg == {"B. Westerberg", "P. Westerberg"}  # initials differ: two people


def test_domain_declaration_and_registration() -> None:
    assert DOMAIN.name == "documents"
    assert set(DOMAIN.exports) == {"timeline", "entities", "report", "html"}
    kinds = {k.name: k for k in DOMAIN.entity_types}
    assert set(kinds) == {"event", "person", "agency"}
    assert kinds["event"].required == ("date", "page", "excerpt")
    for fld, kind in [("member_appointed_date", "event"), ("person_chair", "person"),
                      ("ministry_other", "agency"), ("birth_date", None)]:
        found = DOMAIN.entity_of(fld)
        assert (found.name if found else None) == kind
    assert DOMAINS["documents"] == "sleuth.domains.documents"
    assert get_domain("documents") is DOMAIN
    with pytest.raises(InputError):
        DOMAIN.export("gedcom")


def test_documents_does_not_import_genealogy() -> None:
    pkg = Path(__file__).resolve().parents[3] / "src" / "sleuth" / "domains" / "documents"
    for path in pkg.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom | ast.Import):
                names = [node.module or ""] if isinstance(node, ast.ImportFrom) else [
                    a.name for a in node.names]
                assert not any(n.startswith("sleuth.domains.genealogy") for n in names), path
