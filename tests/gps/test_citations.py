"""Evidence Explained notes per source kind, checked against real records and references."""

from __future__ import annotations

import gps_case

from shared_data import shared_path
from sleuth.extract.records import chronam
from sleuth.gps import describe
from sleuth.gps.bench import familysearch_scores
from sleuth.gps.citations import format_note
from sleuth.gps.evidence import SourceBook, all_items
from sleuth.gps.kinds import SourceKind
from sleuth.model import Citation, Locator
from sleuth.sources import load_file
from sleuth.store import Store, case_graph

FS_DIR = ("recorded", "familysearch")


def _note(*parts: str, subject: str = "") -> str:
    snap = load_file(shared_path(*parts)).snapshot
    return format_note(describe(snap), snap, None, subject).full


def test_familysearch_notes_carry_the_reference_citations_data() -> None:
    s = familysearch_scores(shared_path(*FS_DIR))
    assert s.cases >= 100
    assert s.title / s.cases >= 0.95 and s.record_id / s.cases >= 0.95
    assert s.reference / s.with_reference >= 0.95, s.misses
    assert s.with_ark >= 110 and s.url == s.with_ark, s.misses  # every record links to itself


def test_family_tree_profile_note_links_to_the_profile() -> None:
    """A Family Tree profile marks no person "principal": its ARK is that of the person the
    principal description is about (issue 20: the note had no URL at all)."""
    note = _note(*FS_DIR, "saved_fetch_objects", "xx_profile_martha_barnhart_1868_1868.json")
    assert note.startswith("FamilySearch Family Tree, database (https://www.familysearch.org/"
                           "ark:/61903/4:1:KZKS-T46 : accessed ")


def test_household_note_cites_the_focal_persons_own_line() -> None:
    # Esther is on line 21 of the page; the household head (also "principal") is on line 20.
    note = _note(*FS_DIR, "saved_fetch_objects", "england_census_1881_esther_pavey.json")
    assert "Line: 21" in note and "Line: 20" not in note
    assert "The National Archives of the UK" in note
    palm = _note(*FS_DIR, "saved_fetch_objects", "us_mn_census_1895_david_palm.json")
    assert "Line: 35" in palm and "Record number: 31577" in palm


def test_familysearch_full_short_and_source_list() -> None:
    snap = load_file(shared_path(*FS_DIR, "saved_fetch_objects",
                                 "us_va_death_1955_elmer_davis.json")).snapshot
    note = format_note(describe(snap), snap)
    assert note.full.startswith("\u201cVirginia, Death Certificates, 1912-1987,\u201d database "
                                "with images, FamilySearch (https://www.familysearch.org/ark:/"
                                "61903/1:1:QVRD-74QJ : accessed ")
    assert "entry for Elmer Lawrence Davis; citing Digital film/folder number: 100936704" in (
        note.full)
    assert "image https://www.familysearch.org/ark:/61903/3:1:3Q9M-C95D-78NZ" in note.full
    assert note.short == ("\u201cVirginia, Death Certificates, 1912-1987\u201d, Entry for "
                          "Elmer Lawrence Davis, ARK 1:1:QVRD-74QJ.")
    assert note.source_list.startswith("\u201cVirginia, Death Certificates, 1912-1987.\u201d")


def test_each_kind_names_its_stable_identifier() -> None:
    wt = _note("recorded", "wikitree", "sourcer", "saved_pages", "belshaw-479_read.html",
               subject="Alice Belshaw")
    assert "https://www.wikitree.com/wiki/Belshaw-479" in wt and "profile Belshaw-479" in wt
    wd = _note("recorded", "wikidata", "wptools", "wikidata.json")
    assert "\u201cDouglas Adams\u201d (Q42)" in wd and "https://www.wikidata.org/wiki/Q42" in wd
    wp = _note("recorded", "wikipedia", "wptools", "parse_infobox.json")
    assert wp.startswith("Wikipedia, \u201cBlue Train (album)\u201d, page id 1315380 (https:")
    reg = _note("text", "freeukgen", "freereg1_csvs__Chd__HRTCALBU.csv", subject="Phillip Brooke")
    assert reg.startswith("St Mary Magdalene (Caldecote), HRT, parish register, burials")
    assert "FreeREG" in reg and "HRTCALBU" in reg
    ged = _note("gedcom", "samples", "bronte.ged", subject="Anne Bronte")
    assert ged.startswith("\u201cbronte.ged,\u201d GEDCOM file") and "record for Anne Bronte" in ged
    cen = _note("text", "freeukgen", "freecen1_vlds__DUR__RG093730.VLD")
    assert "Piece RG09/3730" in cen and "FreeCEN" in cen
    pdf_snap = load_file(shared_path("documents", "bourbon_pdfs",
                                     "Transcription_mariage_louis16.pdf")).snapshot
    start = pdf_snap.page_starts[-1]
    cite = Citation(snapshot_id=pdf_snap.id, excerpt=pdf_snap.text[start:start + 5],
                    locator=Locator(start=start, end=start + 5))
    pdf = format_note(describe(pdf_snap), pdf_snap, cite).full
    assert f"PDF document, p. {len(pdf_snap.page_starts)}" in pdf


def test_newspaper_page_cites_title_issue_and_sequence() -> None:
    d = shared_path("recorded", "chronicling_america")
    snap = chronam.page_snapshot((d / "ocr.txt").read_bytes(),
                                 issue=(d / "issue.json").read_bytes(),
                                 page=(d / "page.json").read_bytes(),
                                 url="https://chroniclingamerica.loc.gov/lccn/sn83030214/"
                                     "1898-01-01/ed-1/seq-1/ocr.txt")
    info = describe(snap)
    assert info.kind is SourceKind.NEWSPAPER_PAGE
    note = format_note(info, snap)
    assert "1898-01-01" in note.full and "LCCN sn83030214" in note.full
    assert "Chronicling America" in note.full and "/seq-1/" in note.full


def test_every_citation_in_a_case_gets_a_note(store: Store) -> None:
    gps_case.fs(store, "england_census_1841_william_pavey.json")
    gps_case.ingest(store, "recorded", "wikitree", "sourcer", "saved_pages", "craft-31_read.html")
    g = case_graph(store)
    book = SourceBook(g)
    kinds = set()
    for p in g.persons:
        for e in all_items(g, p.id, book=book):
            note = format_note(e.info, e.snapshot, e.citation, p.canonical_name)
            assert note.full.endswith((".", ".\u201d")) and "accessed" in note.full
            assert note.short and note.source_list
            kinds.add(e.info.kind)
    assert kinds == {SourceKind.FAMILYSEARCH_RECORD, SourceKind.WIKITREE_PROFILE}
