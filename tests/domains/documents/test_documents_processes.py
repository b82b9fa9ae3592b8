"""Documents domain, session 12 (issue 22): the extractors' rules widened on the held-out
misses, each tested on a sentence written for it and a case it must not read; processes
across documents (links by directive, committee, report and proposition numbers, ferenda
metadata), their stage from all their documents, entities deduplicated across documents;
OCR of a scanned PDF and a page image through tesseract (skipped where it is not installed),
and the refusal where OCR is off."""

from __future__ import annotations

import io
import json
import re
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sleuth.cli.app import app
from sleuth.domains.documents import dedupe, extract_events, extract_mentions
from sleuth.domains.documents.ferenda import read_sidecar
from sleuth.domains.documents.links import extract_links, group, own_designation
from sleuth.domains.documents.stage import Fact, process_stage
from sleuth.model import InputError, Snapshot
from sleuth.sources import load_file
from sleuth.store import Store
from sleuth.store import documents as docs

runner = CliRunner()
HAS_TESSERACT = shutil.which("tesseract") is not None


def run(*args: object) -> tuple[int, str, str]:
    result = runner.invoke(app, [str(a) for a in args])
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def text_snap(*pages: str, sid: str = "s1") -> Snapshot:
    starts, pos = [], 0
    for p in pages:
        starts.append(pos)
        pos += len(p) + 2
    return Snapshot(id=sid, sha256="0" * 64, path="x", source_name="t", text="\n\n".join(pages),
                    page_starts=tuple(starts), metadata={})


def events(*pages: str) -> set[tuple[str, str, int]]:
    return {(e.event_type, e.date.iso(), e.page) for e in extract_events(text_snap(*pages))}


def people(*pages: str) -> set[tuple[str, str]]:
    return {(m.name, m.role) for m in extract_mentions(text_snap(*pages)) if m.kind == "person"}


# -- the widened rules, each with a case it must not read ------------------------------------
def test_report_deadline_in_any_wording_and_not_a_date_after_it() -> None:
    page = ("Utredningstiden förlängs. Uppdraget i denna del ska i stället redovisas senast "
            "den 27 april 2018. Lagen trädde i kraft den 1 juli 2012.")
    assert events(page) == {("other", "2018-04-27", 1)}


def test_appointment_when_the_date_opens_the_sentence_not_the_month_as_day() -> None:
    page = ("1 Inledning\nI september 1979 tillkallades en särskild utredare (professorn "
            "Carl Martin Roos) med uppdrag att utreda frågor om skydd. I september 1980 "
            "hölls ett seminarium.")
    assert events(page) == {("member_appointed", "1979-09", 1)}
    assert ("Carl Martin Roos", "chair") in people(page)


def test_report_handed_over_after_its_verb() -> None:
    page = ("Utredaren avlämnade i oktober 1983 betänkandet (SOU 1983:52) Företagshemligheter. "
            "Utredaren avlämnade i oktober 1984 sin bil till verkstaden.")
    assert events(page) == {("report_submitted", "1983-10", 1)}


def test_the_council_on_legislation_and_a_lagradsremiss_after_the_attendance_list() -> None:
    minutes = ("Justitiedepartementet\nUtdrag ur protokoll vid regeringssammanträde den 25 "
               "februari 1988\nNärvarande: statsministern Carlsson, ordförande, och statsråden "
               "Feldt, R. Carlsson, G. Andersson\nFöredragande: statsrådet Leijon\n"
               "Lagrådsremiss om skydd för företagshemligheter\n1 Inledning\nText.")
    opinion = ("Lagrådet\nUtdrag ur protokoll vid sammanträde 1988-03-21\nNärvarande: "
               "regeringsrådet Bouvin.\nEnligt protokoll vid regeringssammanträde den 25 "
               "februari 1988 har regeringen beslutat inhämta lag—\nrådets yttrande.")
    got = {(e.event_type, e.date.iso(), e.page, tuple(e.also_pages))
           for e in extract_events(text_snap("Regeringens proposition 1987/88:155", minutes,
                                             opinion))}
    assert got == {("other", "1988-02-25", 2, (3,)), ("other", "1988-03-21", 3, ())}
    # an ISO date no trigger claims is no event
    assert events("Reviderad 2009-05-02. Se regeringen.se.") == set()


def test_same_day_and_secretaries_engaged_from_a_date() -> None:
    page = ("Till statsrådet och chefen för Socialdepartementet\nGenom beslut den 16 juni 2016 "
            "bemyndigade regeringen statsrådet Annika Strandhäll att tillkalla en särskild "
            "utredare. Från och med samma dag förordnade Annika Strandhäll ordföranden i "
            "Arbetsdomstolen Sören Öman som särskild utredare. Som sekreterare i utredningen "
            "har arbetat verksjuristen Hélène Runsten från och med den 8 augusti 2016 och "
            "hovrättsassessorn Jonna Wiborn från och med den 1 september 2016. Lagen gäller "
            "från och med den 1 januari 2017.")
    assert events(page) == {("directive_issued", "2016-06-16", 1),
                            ("member_appointed", "2016-06-16", 1),
                            ("member_appointed", "2016-08-08", 1),
                            ("member_appointed", "2016-09-01", 1)}
    found = people(page)
    assert {("Sören Öman", "chair"), ("Hélène Runsten", "secretary"),
            ("Jonna Wiborn", "secretary")} <= found
    assert ("Annika Strandhäll", "chair") not in found  # the one who appoints


def test_a_main_directive_dates_no_other_inquiry_a_supplementary_one_its_first() -> None:
    other = ("Regeringen beslutade i december 2014 att ge en särskild utredare i uppdrag att "
             "utreda tillsynen.")
    assert events("Kommittédirektiv\nBeslut vid regeringssammanträde den 25 februari 2016",
                  other) == {("directive_issued", "2016-02-25", 1)}
    first = ("Tilläggsdirektiv till Forskningsdatautredningen (U 2016:04)\nBeslut vid "
             "regeringssammanträde den 16 mars 2017\nRegeringen beslutade den 7 juli 2016 "
             "kommittédirektiv om uppdrag att analysera (dir. 2016:65).")
    assert events("Kommittédirektiv\n" + first) == {("directive_issued", "2017-03-16", 1),
                                                    ("directive_issued", "2016-07-07", 1)}


def test_an_sou_cover_year_and_a_committee_formed_in_a_year() -> None:
    cover = "Inbyggd integritet\nBetänkande av Utredningen om\nISF\nStockholm 2014\nSOU 2014:67"
    assert events(cover) == {("sou_published", "2014", 1)}
    assert events("Stockholm 2014\nISBN 978-91") == set()  # a printer's line: no event
    assert events("Utredningen, som tillsattes 1979, redovisar. Lagen från 1979 gäller.") == {
        ("committee_formed", "1979", 1)}


def test_a_statute_book_regulation_adopted_published_and_in_force() -> None:
    page = ("AFS 2011:19\nArbetsmiljöverkets föreskrifter om kemiska arbetsmiljörisker\n\n"
            "beslutade den 29 november 2011. Utkom från trycket\n(Ändringar införda t.o.m "
            "13 juni 2017.) den 28 december 2011\nDenna författning träder i kraft den 1 juni "
            "2017 ifråga om 20 § samt i övrigt den 1 juni 2015.")
    assert events(page) == {("law_enacted", "2011-11-29", 1), ("other", "2011-12-28", 1),
                            ("other", "2017-06-13", 1), ("other", "2017-06-01", 1),
                            ("other", "2015-06-01", 1)}
    bodies = {(m.name, m.kind) for m in extract_mentions(text_snap(page))}
    assert ("Arbetsmiljöverket", "agency") in bodies


def test_committees_named_by_a_supplementary_directive_and_a_report_cover() -> None:
    found = {m.name for m in extract_mentions(text_snap(
        "Kommittédirektiv\nTilläggsdirektiv till Utredningen om en Dir.\növersyn av "
        "fondregelverket (Fi 2014:15) 2014:158",
        "Organisering\nBetänkande av E-delegationen\nStockholm 2013\nSOU 2013:75"))
        if m.kind == "committee"}
    assert found == {"Utredningen om en översyn av fondregelverket", "E-delegationen"}


# -- links, processes, the stage from several documents ------------------------------------
DIR = ("Kommittédirektiv\nDir. 2003:1\nEn ny lag om arkiv\nBeslut vid regeringssammanträde "
       "den 12 januari 2003\nEn särskild utredare ska se över arkivlagen. Utredningen om "
       "arkiv (Ju 1999:01) har redovisat. Uppdraget ska redovisas senast den 1 mars 2004.\n"
       "(Justitiedepartementet)")
SOU = ("En ny arkivlag\nBetänkande av Arkivutredningen\nStockholm 2004\nSOU 2004:5",
       "Till statsrådet och chefen för Justitiedepartementet\nRegeringen beslutade den 12 "
       "januari 2003 (dir. 2003:1) att tillkalla en särskild utredare. Som särskild utredare "
       "förordnades den 1 februari 2003 professorn Anna Lind. Som experter förordnades den "
       "3 mars 2003 arkivarien Karl Berg. Utredningen, som antagit namnet Arkivutredningen "
       "(Ju 2003:02), överlämnar härmed betänkandet (SOU 2004:5). I betänkandet Gamla "
       "arkiv (SOU 1992:9) föreslogs annat.")
PROP = ("Regeringens proposition 2004/05:9\nRegeringen föreslår riksdagen att anta de förslag "
        "som har tagits upp i bifogade utdrag ur regeringsprotokollet den 5 november 2004.\n"
        "På regeringens vägnar\nLena Berg",
        "Justitiedepartementet\nUtdrag ur protokoll vid regeringssammanträde den 5 november "
        "2004\nNärvarande: statsministern Persson, ordförande, och statsråden L. Berg, Ek\n"
        "Föredragande: statsrådet L. Berg\nProposition om ny arkivlag\n1 Inledning\nDen 1 "
        "mars 2004 överlämnade Arkivutredningen betänkandet (SOU 2004:5) En ny arkivlag.")
LAW = ("Svensk författningssamling\nSFS 2005:10\nLag om arkiv;\nutfärdad den 3 mars 2005.\n"
       "Enligt riksdagens beslut (prop. 2004/05:9) föreskrivs följande.")


def test_links_only_where_the_document_tells_its_own_process() -> None:
    keys = {(link.key, link.relation) for link in extract_links(text_snap(*SOU))}
    assert keys == {("SOU 2004:5", "self"), ("Dir. 2003:1", "cites"),
                    ("Ju 2003:02", "committee")}  # not SOU 1992:9, discussed in passing
    assert {(link.key, link.relation) for link in extract_links(text_snap(DIR))} == {
        ("Dir. 2003:1", "self")}  # another inquiry's number outside its own story
    assert {link.key for link in extract_links(text_snap(LAW))} == {"SFS 2005:10",
                                                                     "Prop. 2004/05:9"}
    split = text_snap("Tilläggsdirektiv till Utredningen om en Dir.\növersyn (Fi 2014:15) "
                      "2014:158\nBeslut vid regeringssammanträde den 18 december 2014")
    assert own_designation(split) is not None and own_designation(split)[0] == "Dir. 2014:158"
    for link in extract_links(text_snap(*SOU)):  # page-cited
        assert link.citation is not None and 50 <= len(link.excerpt) <= 200


def test_grouping_is_independent_of_order_and_named_by_the_first_directive() -> None:
    docs_keys = {"d": {"Dir. 2003:1"}, "s": {"SOU 2004:5", "Dir. 2003:1", "Ju 2003:02"},
                 "p": {"Prop. 2004/05:9", "SOU 2004:5"}, "l": {"SFS 2005:10", "Prop. 2004/05:9"},
                 "x": {"SOU 1999:1"}}
    first = group(docs_keys)
    again = group(dict(reversed(list(docs_keys.items()))))
    assert first == again
    assert {first[k] for k in "dspl"} == {"Dir. 2003:1"} and first["x"] == "SOU 1999:1"


def test_stage_from_several_documents() -> None:
    facts = [Fact("directive_issued", "2003-01-12", 1, "1", "Dir. 2003:1"),
             Fact("report_submitted", "2004-03-01", 2, "2", "Prop. 2004/05:9")]
    assert process_stage([("dir", "Dir. 2003:1")], facts[:1]).stage == "directive"
    both = process_stage([("dir", "Dir. 2003:1"), ("sou", "SOU 2004:5")], facts)
    assert both.stage == "published" and "SOU 2004:5" in both.explanation
    assert both.fact == facts[1]
    law = process_stage([("fs", "SFS 2005:10")], [Fact("law_enacted", "2005-03-03", 1, "1",
                                                      "SFS 2005:10")])
    assert law.stage == "law" and "SFS 2005:10, p. 1" in law.explanation
    prop = process_stage([("prop", "Prop. 2004/05:9"), ("sou", "SOU 2004:5")], [])
    assert prop.stage == "proposition" and prop.document == "Prop. 2004/05:9"


def test_entities_across_documents_initials_and_a_page_that_tells_two_apart() -> None:
    mentions = (extract_mentions(text_snap(*SOU, sid="sou"))
                + extract_mentions(text_snap(*PROP, sid="prop")))
    persons = {e.name: e for e in dedupe(mentions) if e.kind == "person"}
    assert "Lena Berg" in persons and "Karl Berg" in persons  # L. Berg is Lena, not Karl
    assert {m.name for m in persons["Lena Berg"].mentions} == {"Lena Berg", "L. Berg"}
    assert {m.role for m in persons["Karl Berg"].mentions} == {"expert"}
    minutes = extract_mentions(text_snap("Närvarande: statsministern Carlsson, ordförande, "
                                         "och statsråden Feldt, R. Carlsson, Leijon\n"
                                         "Föredragande: statsrådet Leijon\nText."))
    names = sorted(e.name for e in dedupe(minutes) if "Carlsson" in e.name)
    assert names == ["Carlsson", "R. Carlsson"]  # the page tells them apart


def _work(case: Path, files: list[Path]) -> dict[str, object]:
    assert run("init", case, "--domain", "documents")[0] == 0
    code, _, err = run("ingest", case, *files)
    assert code == 0, err
    code, _, err = run("work", case)
    assert code == 0, err
    store = Store.open_case(case)
    try:
        with store.engine.connect() as conn:
            names = docs.designations(conn)
            return {p.designation: (p.stage, sorted(names[s] for s in p.documents))
                    for p in docs.processes(conn)}
    finally:
        store.close()


def test_a_process_across_four_documents_in_any_order(tmp_path: Path) -> None:
    files = []
    for name, pages in (("dir.txt", (DIR,)), ("sou.txt", SOU), ("prop.txt", PROP),
                        ("law.txt", (LAW,))):
        files.append(tmp_path / name)
        files[-1].write_text("\f".join(pages), encoding="utf-8")
    partial = _work(tmp_path / "a", files[:2])
    assert partial == {"Dir. 2003:1": ("published", ["Dir. 2003:1", "SOU 2004:5"])}
    forward = _work(tmp_path / "b", files)
    backward = _work(tmp_path / "c", files[::-1])
    assert forward == backward == {"Dir. 2003:1": ("law", [
        "Dir. 2003:1", "Prop. 2004/05:9", "SFS 2005:10", "SOU 2004:5"])}
    code, report, _ = run("export", tmp_path / "b", "--format", "report")
    assert code == 0 and report.count("\n## ") == 1
    assert "**Stage: law.** Law enacted: law enacted 2005-03-03 (SFS 2005:10, p. 1) [^" in report
    # one timeline across the documents: the directive stated in two documents is one line
    line = next(x for x in report.splitlines() if x.startswith("- 2003-01-12: directive"))
    assert len(re.findall(r"\[\^\d+\]", line)) == 2
    code, shown, _ = run("show", tmp_path / "b", "process", "SOU 2004:5", "--format", "json")
    got = json.loads(shown)
    assert got["process"]["designation"] == "Dir. 2003:1" and len(got["links"]) >= 6
    ents = [json.loads(x) for x in run("export", tmp_path / "b", "--format", "entities")[1]
            .splitlines()]
    berg = {(r["document"], r["role"]) for r in ents if r["name"] == "Lena Berg"}
    assert berg == {("Prop. 2004/05:9", "minister")}  # Lena Berg and L. Berg, one entity
    assert {r["name"] for r in ents if r["kind"] == "person"} >= {"Anna Lind", "Karl Berg"}


def test_ferenda_metadata_beside_a_file_links_a_report_to_its_directive(tmp_path: Path) -> None:
    ttl = tmp_path / "souregeringen__distilled__2004__5.ttl"
    ttl.write_text(
        "@prefix dcterms: <http://purl.org/dc/terms/> .\n"
        "@prefix rpubl: <http://rinfo.lagrummet.se/ns/2008/11/rinfo/publ#> .\n"
        "<https://lagen.nu/sou/2004:5> dcterms:identifier \"SOU 2004:5\" ;\n"
        "  dcterms:issued \"2004-03-01\" ;\n"
        "  rpubl:utgarFran <https://lagen.nu/dir/2003:1> .\n", encoding="utf-8")
    doc = tmp_path / "souregeringen__intermediate__2004__5__ny-arkivlag.txt"
    doc.write_text(SOU[0], encoding="utf-8")  # its cover only: no directive in its text
    meta = read_sidecar(doc)
    assert meta is not None and meta["identifier"] == "SOU 2004:5"
    assert meta["utgar_fran"] == ["Dir. 2003:1 (https://lagen.nu/dir/2003:1)"]
    assert read_sidecar(tmp_path / "other__intermediate__2004__5.txt") is None
    links = extract_links(text_snap(SOU[0]), metadata=meta)
    assert [(link.key, link.relation, link.page) for link in links] == [
        ("SOU 2004:5", "self", 1), ("Dir. 2003:1", "metadata", None)]
    (tmp_path / "dir.txt").write_text(DIR, encoding="utf-8")
    got = _work(tmp_path / "case", [doc, tmp_path / "dir.txt"])
    assert got == {"Dir. 2003:1": ("published", ["Dir. 2003:1", "SOU 2004:5"])}
    report = run("export", tmp_path / "case", "--format", "report")[1]
    assert "metadata beside the file, not its text: souregeringen__distilled__2004__5.ttl" in report


# -- OCR and bad input ----------------------------------------------------------------------
def scanned_pdf(lines: list[str], dpi: int = 200) -> bytes:
    """A one-page PDF whose text is only an image (no text layer): the lines drawn by PDFium
    with a standard font, rendered, and the picture put on a new page."""
    import ctypes

    import pypdfium2 as pdfium
    import pypdfium2.raw as pdfium_c

    pdf = pdfium.PdfDocument.new()
    page = pdf.new_page(595, 842)
    font = pdfium_c.FPDFText_LoadStandardFont(pdf, b"Helvetica")
    y = 780.0
    for line in lines:
        obj = pdfium_c.FPDFPageObj_CreateTextObj(pdf, font, 14)
        buf = ctypes.create_string_buffer((line + "\x00").encode("utf-16-le"))
        pdfium_c.FPDFText_SetText(obj, ctypes.cast(buf, ctypes.POINTER(pdfium_c.FPDF_WCHAR)))
        pdfium_c.FPDFPageObj_Transform(obj, 1, 0, 0, 1, 60, y)
        pdfium_c.FPDFPage_InsertObject(page, obj)
        y -= 22
    pdfium_c.FPDFPage_GenerateContent(page)
    bitmap = page.render(scale=dpi / 72)
    scan = pdfium.PdfDocument.new()
    spage = scan.new_page(595, 842)
    image = pdfium.PdfImage.new(scan)
    image.set_bitmap(bitmap)
    image.set_matrix(pdfium.PdfMatrix().scale(595, 842))
    spage.insert_obj(image)
    spage.gen_content()
    out = io.BytesIO()
    scan.save(out)
    return out.getvalue()


LINES = ["Kommittédirektiv", "Beslut vid regeringssammanträde den 25 februari 2016.",
         "En särskild utredare ska se över lagen."]


def test_a_scanned_pdf_without_ocr_is_one_line_naming_file_and_pages(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pdf = tmp_path / "scan.pdf"
    pdf.write_bytes(scanned_pdf(LINES))
    monkeypatch.setenv("SLEUTH_OCR", "off")
    with pytest.raises(InputError) as err:
        load_file(pdf)
    line = str(err.value)
    assert "\n" not in line and "scan.pdf" in line and "needs OCR" in line
    assert "no text layer on any of its 1 pages" in line


@pytest.mark.skipif(not HAS_TESSERACT, reason="tesseract (Debian tesseract-ocr) not installed")
def test_a_scanned_pdf_is_read_by_tesseract_and_worked_end_to_end(tmp_path: Path) -> None:
    pdf = tmp_path / "scan.pdf"
    pdf.write_bytes(scanned_pdf(LINES))
    snap = load_file(pdf).snapshot
    assert "Beslut vid regeringssammanträde den 25 februari 2016" in snap.text
    ocr = snap.metadata["ocr"]
    assert ocr["engine"].startswith("tesseract") and ocr["mean_confidence"][0] >= 60
    assert snap.metadata["word_boxes"][0]  # every word's box kept, as for any hOCR
    case = tmp_path / "case"
    got = _work(case, [pdf])
    assert list(got.values()) == [("directive", ["Kommittédirektiv"])]
    row = json.loads(run("export", case, "--format", "timeline")[1].splitlines()[0])
    assert (row["event_type"], row["date"], row["page"]) == ("directive_issued", "2016-02-25", 1)
    assert row["excerpt"] in snap.text


@pytest.mark.skipif(not HAS_TESSERACT, reason="tesseract (Debian tesseract-ocr) not installed")
def test_an_image_ocr_cannot_read_reliably_is_refused_in_one_line(tmp_path: Path) -> None:
    noise = tmp_path / "noise.png"  # a page of speckle: words, if any, at low confidence
    import zlib

    import numpy as np

    rng = np.random.default_rng(7)
    rows = (rng.random((400, 600)) > 0.5).astype("uint8") * 255
    raw = b"".join(b"\x00" + r.tobytes() for r in rows)

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return len(data).to_bytes(4, "big") + body + zlib.crc32(body).to_bytes(4, "big")

    noise.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", (600).to_bytes(4, "big")
                      + (400).to_bytes(4, "big") + bytes([8, 0, 0, 0, 0]))
                      + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))
    with pytest.raises(InputError) as err:
        load_file(noise)
    line = str(err.value)
    assert "\n" not in line and "noise.png" in line and "image (PNG)" in line
    assert "page 1" in line


def test_migration_0014_keeps_a_worked_case_one_process_per_designation(db_url: str) -> None:
    """A case worked at 0010 (a process per document) comes to 0014 with its documents,
    those of one designation in one process, the stage kept; and back down again."""
    from datetime import UTC, datetime

    from alembic import command
    from sqlalchemy import text

    from sleuth.store.db import _config, make_engine, migrate

    engine = make_engine(db_url)

    def to(rev: str, down: bool = False) -> None:
        cfg = _config()
        with engine.begin() as conn:
            cfg.attributes["connection"] = conn
            (command.downgrade if down else command.upgrade)(cfg, rev)

    try:
        to("0010")
        now = datetime.now(UTC)
        with engine.begin() as conn:
            conn.execute(text("INSERT INTO blobs VALUES ('b', 1, :d, :t)"), {"d": b"x", "t": now})
            for sid in ("s1", "s2", "s3"):
                conn.execute(text(
                    "INSERT INTO snapshots (id, sha256, origin, source_name, tier, "
                    "evidence_type, accessed_at, media_type, text, page_starts, meta) VALUES "
                    "(:id, 'b', :origin, 't', 0, 'secondary', :t, 'text/plain', 'x', '[]', "
                    "'{}')"), {"id": sid, "origin": sid, "t": now})
            for pid, sid, name in (("p1", "s1", "SOU 2017:66"), ("p2", "s2", "SOU 2017:66"),
                                   ("p3", "s3", "Dir. 2016:15")):
                conn.execute(text(
                    "INSERT INTO doc_processes (id, snapshot_id, designation, document_kind, "
                    "stage, explanation, updated_at) VALUES (:p, :s, :n, 'sou', 'writing', "
                    "'why', :t)"), {"p": pid, "s": sid, "n": name, "t": now})
        migrate(engine)
        with engine.connect() as conn:
            got = sorted(tuple(r) for r in conn.execute(text(
                "SELECT d.snapshot_id, p.designation, p.stage FROM doc_documents d "
                "JOIN doc_processes p ON p.id = d.process_id")))
            n_processes = conn.execute(text("SELECT count(*) FROM doc_processes")).scalar()
        assert got == [("s1", "SOU 2017:66", "writing"), ("s2", "SOU 2017:66", "writing"),
                       ("s3", "Dir. 2016:15", "writing")]
        assert n_processes == 2
        to("0010", down=True)
        with engine.connect() as conn:
            back = sorted(tuple(r) for r in conn.execute(text(
                "SELECT snapshot_id, designation FROM doc_processes")))
        assert back == [("s1", "SOU 2017:66"), ("s2", "SOU 2017:66"), ("s3", "Dir. 2016:15")]
        migrate(engine)
    finally:
        engine.dispose()


def test_skipped_sections_say_why_a_page_has_no_text() -> None:
    from sleuth.domains.documents.agents import _skipped

    plain = text_snap("Kommittédirektiv", "")
    assert _skipped(plain) == ["page 2: no text layer"]
    ocr = text_snap("Kommittédirektiv", "", "").model_copy(update={"metadata": {"ocr": {
        "mean_confidence": [93.0, 31.5, None], "unreadable_pages": [2]}}})
    assert _skipped(ocr) == ["page 2: OCR could not read it reliably (mean word confidence "
                             "32%)", "page 3: OCR found no words"]
