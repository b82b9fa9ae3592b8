"""A fuzz run of every reader (issue 26, item 8): GEDCOM, the JSON record readers (GEDCOM X,
WikiTree API, Wikidata, Wikipedia), HTML, hOCR, ALTO, PDF text and plain text.

Each example is a file as `sleuth ingest` reads it: `load_file` (strict or lenient), then the
extractor `ingest` runs on the snapshot and the firewall over its candidates. Inputs are
well-formed documents of each kind (the simulated world's pages, hand-made ones) mutated a
few times over (cut, bytes flipped, spliced with hostile tokens: NULs, nesting, huge numbers,
stray `@`s and level numbers), and documents generated from each format's grammar.

The property: the readers either read the file or refuse it with one `InputError` line;
never another exception, and never more than `CPU_SECONDS` of CPU on these small inputs
(each example runs inside a document budget, so a reader gone super-linear is refused rather
than hung, and that refusal fails the test too).

`SLEUTH_FUZZ_EXAMPLES` sets the examples per reader (default 100, derandomized so CI is
repeatable: well under a minute for all seven); set it to run longer, on random examples.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hostile_corpus import pdf
from sleuth.model import InputError
from sleuth.model.limits import document_budget, read_limits
from sleuth.pipeline.ingest import extract_for
from sleuth.sources import load_file
from sleuth.verify import Source, check_candidates

_ENV = os.environ.get("SLEUTH_FUZZ_EXAMPLES")
EXAMPLES = int(_ENV or "100")
CPU_SECONDS = 5.0  # the most one small example may take (the budget a reader runs under)
FUZZ = settings(max_examples=EXAMPLES, deadline=None, derandomize=_ENV is None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.filter_too_much])


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzz")


def read(folder: Path, suffix: str, data: bytes, lenient: bool) -> None:
    """Ingest's reading of `data` as a file named `*suffix`: the property (see module)."""
    path = folder / f"doc{suffix}"
    path.write_bytes(data)
    started = time.process_time()
    try:
        with read_limits(seconds=CPU_SECONDS), document_budget(str(path)):
            loaded = load_file(path, lenient=lenient)
            snap = loaded.snapshot
            cands = extract_for(snap, loaded.raw)
            check_candidates(cands, {snap.id: Source.of_snapshot(snap)})
    except InputError as exc:
        msg = str(exc)
        assert "\n" not in msg and "\r" not in msg, msg
        assert msg.startswith(str(path)), msg  # names the file
        assert "too complex" not in msg, f"{len(data)} bytes spent the budget: {msg}"
    took = time.process_time() - started
    assert took < CPU_SECONDS, f"{took:.1f} s of CPU for {len(data)} bytes"


# -- mutations ----------------------------------------------------------------------------

HOSTILE = [b"\x00", b"\xff\xfe", b"\xef\xbb\xbf", b"\r", b"\n", b"\n0 ", b"\n1 ", b"@", b"@@",
           b"<div>" * 50, b"</", b"<!--", b"<![CDATA[", b"&#0;", b"&amp", b"\\u0000", b'"',
           b"{", b"[" * 40, b"}", b"]", b",", b"inf", b"NaN", b"-1", b"99999999999999999999",
           b"1e999", b"0 TRLR\n", b"0 HEAD\n", b"\f", b"\t", b"\x1b", b"\xc3", b"\xe2\x80",
           "née".encode(), b"(", b")", b"\\", b"endstream", b"obj", b"/Length 999999",
           b"%%EOF", b"BT (x) Tj ET", b"HPOS=\"inf\"", b"CONTENT=\"\"", b"bbox -1 -1 99999999999 9"]


@st.composite
def mutated(draw: st.DrawFn, seed: bytes) -> bytes:
    data = bytearray(seed)
    for _ in range(draw(st.integers(0, 4))):
        op = draw(st.sampled_from(["cut", "flip", "splice", "delete", "repeat"]))
        at = draw(st.integers(0, len(data)))
        if op == "cut":
            del data[at:]
        elif op == "flip" and at < len(data):
            data[at] = draw(st.integers(0, 255))
        elif op == "splice":
            data[at:at] = draw(st.sampled_from(HOSTILE) | st.binary(max_size=8))
        elif op == "delete":
            del data[at:at + draw(st.integers(1, 40))]
        else:
            piece = bytes(data[at:at + draw(st.integers(1, 80))])
            data[at:at] = piece * draw(st.integers(1, 50))
    return bytes(data)


def fuzzed(seeds: Callable[[], list[bytes]], generated: st.SearchStrategy[bytes]
           ) -> st.SearchStrategy[bytes]:
    return st.one_of(st.sampled_from(seeds()).flatmap(mutated), generated,
                     st.binary(max_size=512))


# -- seeds --------------------------------------------------------------------------------

@cache
def _world() -> dict[str, list[bytes]]:
    """One page of each kind the simulated world serves (deterministic)."""
    from sleuth.world import World

    out: dict[str, list[bytes]] = {}
    for _, doc in World(7, 30).documents():
        kind = f"{doc.kind}:{doc.content_type}"
        if len(out.setdefault(kind, [])) < 2:
            out[kind].append(doc.body.encode())
    return out


def _world_kind(*kinds: str) -> list[bytes]:
    return [b for k, docs in _world().items() if k.split(":")[0] in kinds for b in docs]


GEDCOM = (
    "0 HEAD\n1 SOUR sleuth\n1 GEDC\n2 VERS 5.5.1\n2 FORM LINEAGE-LINKED\n1 CHAR UTF-8\n"
    "0 @I1@ INDI\n1 NAME John /Smith/\n2 GIVN John\n1 SEX M\n1 BIRT\n2 DATE ABT 12 MAR 1851\n"
    "2 PLAC Springfield, Ohio\n2 SOUR @S1@\n3 PAGE p. 4\n1 DEAT\n2 DATE BET 1900 AND 1910\n"
    "1 OCCU farmer\n1 RESI\n2 ADDR 12 Main Street\n3 POST 45501\n1 FAMS @F1@\n"
    "0 @I2@ INDI\n1 NAME Mary /Jones/\n1 SEX F\n1 BIRT\n2 DATE 1853\n1 FAMS @F1@\n"
    "0 @I3@ INDI\n1 NAME Ann /Smith/\n1 FAMC @F1@\n1 NOTE a note\n2 CONT that goes on\n"
    "2 CONC and on\n0 @F1@ FAM\n1 HUSB @I1@\n1 WIFE @I2@\n1 CHIL @I3@\n1 MARR\n"
    "2 DATE 5 JUN 1875\n2 PLAC Dayton, Ohio\n0 @S1@ SOUR\n1 TITL Parish register\n0 TRLR\n")


def _gedcom_seeds() -> list[bytes]:
    return [GEDCOM.encode(), GEDCOM.replace("UTF-8", "ANSEL").encode("latin-1"),
            GEDCOM.replace("5.5.1", "7.0").replace("1 CHAR UTF-8\n", "").encode()]


def _json_seeds() -> list[bytes]:
    wikipedia = {"parse": {"title": "John Smith", "pageid": 1, "wikitext": {
        "*": "{{Infobox person\n| name = John Smith\n| birth_date = {{birth date|1851|3|12}}\n"
             "| birth_place = [[Dayton, Ohio]]\n| spouse = Mary Jones\n}}\n"
             "'''John Smith''' (1851 – 1905) was a farmer."}}}
    summary = {"title": "John Smith", "pageid": 1, "displaytitle": "John Smith",
               "extract": "John Smith (March 12, 1851 – 1905) was an American farmer."}
    return [*_world_kind("wikitree", "wikidata", "familysearch"),
            json.dumps(wikipedia).encode(), json.dumps(summary).encode()]


HOCR = ("<html><head><meta name='ocr-system' content='tesseract 5'></head><body>"
        "<div class='ocr_page' id='page_1' title='image x.png; bbox 0 0 2000 3000; ppageno 0'>"
        "<span class='ocr_line' title='bbox 10 10 900 50'>"
        "<span class='ocrx_word' title='bbox 10 10 90 50'>John</span> "
        "<span class='ocrx_word' title='bbox 100 10 200 50'>Smith</span> "
        "<span class='ocrx_word' title='bbox 210 10 300 50'>born</span> "
        "<span class='ocrx_word' title='bbox 310 10 400 50'>1851.</span></span>"
        "<span class='ocr_header' title='bbox 10 60 900 90'>"
        "<span class='ocrx_word' title='bbox 10 60 90 90'>OBITUARY</span></span></div>"
        "<div class='ocr_page' id='page_2' title='bbox 0 0 2000 3000; ppageno 1'></div>"
        "</body></html>")


def _alto_seeds() -> list[bytes]:
    here = Path(__file__).resolve().parents[1] / "text" / "fixtures"
    return [(here / "synthetic_alto_v3.xml").read_bytes()]


def _pdf_seeds() -> list[bytes]:
    return [pdf(), pdf(["MARY JONES", "Mary Jones died 1905.\nShe was born in 1850.", "2"])]


PROSE = ("DIED. - At her home in Buck Valley, on the 12th inst., Mrs. Mary Hollis, widow of "
         "the late John Hollis, aged 66 years. She was born in Ohio, March 3, 1850, the "
         "daughter of Thomas and Ann (Reed) Smith. She leaves two sons, James of Dayton and "
         "William, and a daughter, Mrs. Ellen Brown.\n")


def _text_seeds() -> list[bytes]:
    return [PROSE.encode(), PROSE.encode("cp1252"), *_world_kind("chronicling_america",
                                                                 "freereg")]


def _html_seeds() -> list[bytes]:
    profile = ("<html><head><title>John Smith (1851-1905) | WikiTree</title></head><body>"
               "<div class='VITALS'><span itemprop='name'>John Smith</span> Born "
               "<time itemprop='birthDate' datetime='1851-03-12'>12 Mar 1851</time> in "
               "Dayton, Ohio</div><form><input name='mBirthDate' value='1851'>"
               "<select><option>a</option><option selected>b</option></select></form>"
               "<a href='https://www.wikitree.com/wiki/Smith-1'>Smith-1</a></body></html>")
    return [*_world_kind("find_a_grave"), profile.encode(),
            f"<!DOCTYPE html><html><body><p>{PROSE}</p><table><tr><td>x</table>".encode()]


# -- generated documents ------------------------------------------------------------------

_WORD = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=12)
_TAGS = ["HEAD", "TRLR", "INDI", "FAM", "SOUR", "NAME", "GIVN", "SURN", "SEX", "BIRT", "DEAT",
         "BURI", "CHR", "MARR", "DIV", "DATE", "PLAC", "FAMS", "FAMC", "HUSB", "WIFE", "CHIL",
         "NOTE", "CONT", "CONC", "CHAR", "GEDC", "VERS", "ADDR", "POST", "PHON", "EMAIL",
         "OCCU", "RESI", "EVEN", "TYPE", "AGE", "_CUSTOM", "SNOTE", "OBJE", "FILE"]
_VALUES = st.one_of(
    _WORD, st.sampled_from(["@I1@", "@F1@", "@S1@", "@VOID@", "@I99@", "M", "F", "U", "Y",
                            "UTF-8", "ANSEL", "KLINGON-42", "5.5.1", "7.0", "1851",
                            "ABT 1850", "BET 1800 AND 1700", "FROM 1900 TO 1850", "31 FEB 1900",
                            "@#DJULIAN@ 1 JAN 1700", "@#DHEBREW@ 5 NSN 5600", "INT 1850 (x)",
                            "John /Smith/", "/ /", "//", "a /b/ c /d/", "0", "-1", "9" * 30]))


@st.composite
def gedcom_docs(draw: st.DrawFn) -> bytes:
    lines = []
    if draw(st.booleans()):
        lines.append(f"0 HEAD\n1 CHAR {draw(st.sampled_from(['UTF-8', 'ANSEL', 'ASCII']))}")
    for _ in range(draw(st.integers(0, 30))):
        level = draw(st.integers(0, 4) | st.sampled_from(["99", "100", "-1", "x", "01", ""]))
        xref = draw(st.sampled_from(["", "", "", "@I1@ ", "@F1@ ", "@S1@ ", "@@ ", "@I 1@ "]))
        tag = draw(st.sampled_from(_TAGS) | st.from_regex(r"[A-Z_]{1,5}", fullmatch=True))
        value = draw(_VALUES)
        lines.append(f"{level} {xref}{tag}" + (f" {value}" if value else ""))
    if draw(st.booleans()):
        lines.append("0 TRLR")
    sep = draw(st.sampled_from(["\n", "\r\n", "\r"]))
    codec = draw(st.sampled_from(["utf-8", "utf-16", "latin-1"]))
    return sep.join(lines).encode(codec, errors="replace")


_JSON_KEYS = ["persons", "names", "nameForms", "fullText", "facts", "type", "date", "original",
              "formal", "place", "relationships", "person1", "person2", "resource", "id",
              "gender", "sourceDescriptions", "entities", "claims", "mainsnak", "datavalue",
              "value", "time", "labels", "en", "parse", "title", "wikitext", "*", "text",
              "extract", "pageid", "status", "profile", "Name", "FirstName", "LastNameAtBirth",
              "BirthDate", "DeathDate", "Parents", "Children", "Spouses", "bio", "user_name"]
_JSON_SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(-2**70, 2**70), st.floats(allow_nan=False), _WORD,
    st.sampled_from(["http://gedcomx.org/Birth", "http://gedcomx.org/Male", "+1851-03-12",
                     "A+1850", "Q5", "P569", "+1851-00-00T00:00:00Z", "1851-03-12", "0000-00-00",
                     "#P1", "Smith-1"]))


def _json_values() -> st.SearchStrategy[object]:
    return st.recursive(_JSON_SCALARS, lambda inner: st.lists(inner, max_size=4)
                        | st.dictionaries(st.sampled_from(_JSON_KEYS) | _WORD, inner,
                                          max_size=5), max_leaves=30)


@st.composite
def json_docs(draw: st.DrawFn) -> bytes:
    doc = draw(_json_values())
    text = json.dumps(doc, ensure_ascii=draw(st.booleans()))
    if draw(st.booleans()):  # hint a detector: the world's shape words
        text = text.replace("{", '{"persons": [], "x": "gedcomx.org/", ', 1) if text.startswith(
            "{") else text
    return text.encode()


_HTML_TAGS = ["div", "p", "span", "table", "tr", "td", "th", "ul", "li", "select", "option",
              "input", "textarea", "script", "style", "noscript", "template", "br", "img", "a",
              "h1", "time", "form", "datalist", "b", "i", "html", "body", "head", "title"]
_ATTRS = st.sampled_from(["", " hidden", " style='display:none'", " type='checkbox' checked",
                          " type='radio'", " type='hidden' value='x'", " value='1851'",
                          " selected", " class='ocr_page'", " class='ocr_line'",
                          " class='ocrx_word'", " title='bbox 1 2 3 4; ppageno 7'",
                          " title='bbox -5 x 99999999999999999999 1'", " itemprop='birthDate'",
                          " multiple", " size='3'", " disabled", " id='page_9'"])


@st.composite
def markup(draw: st.DrawFn, tags: list[str]) -> str:
    parts = []
    for _ in range(draw(st.integers(0, 40))):
        kind = draw(st.integers(0, 3))
        tag = draw(st.sampled_from(tags))
        if kind == 0:
            parts.append(f"<{tag}{draw(_ATTRS)}>")
        elif kind == 1:
            parts.append(f"</{tag}>")
        else:
            parts.append(draw(_WORD | st.sampled_from([PROSE, "born 1851", "&amp;", "&#x0;"])))
    return "".join(parts)


@st.composite
def html_docs(draw: st.DrawFn) -> bytes:
    return ("<html><body>" + draw(markup(_HTML_TAGS)) + "</body></html>").encode()


@st.composite
def hocr_docs(draw: st.DrawFn) -> bytes:
    body = draw(markup(["div", "span", "p", "br"]))
    return ("<html><head><meta name='ocr-system' content='t'></head><body>"
            "<div class='ocr_page' title='bbox 0 0 9 9'>" + body + "</div></body></html>"
            ).encode()


@st.composite
def alto_docs(draw: st.DrawFn) -> bytes:
    num = st.sampled_from(["1", "0", "-3", "2.5", "inf", "-inf", "nan", "1e400", "x", ""])
    pages = []
    for p in range(draw(st.integers(0, 3))):
        lines = []
        for _ in range(draw(st.integers(0, 4))):
            words = "".join(
                f'<String CONTENT="{json.dumps(draw(_WORD))[1:-1].replace(chr(34), "")}"'
                f' HPOS="{draw(num)}" VPOS="{draw(num)}" WIDTH="{draw(num)}"'
                f' HEIGHT="{draw(num)}"/>'
                + draw(st.sampled_from(["", "<SP/>", '<HYP CONTENT="-"/>']))
                for _ in range(draw(st.integers(0, 4))))
            lines.append(f"<TextLine>{words}</TextLine>")
        printed = draw(st.sampled_from(["", ' PRINTED_IMG_NR="iv"', f' PHYSICAL_IMG_NR="{p}"']))
        pages.append(f"<Page{printed}><PrintSpace><TextBlock>{''.join(lines)}</TextBlock>"
                     "</PrintSpace></Page>")
    unit = draw(st.sampled_from(["", "<Description><MeasurementUnit>pixel</MeasurementUnit>"
                                     "</Description>"]))
    return ('<?xml version="1.0"?><alto xmlns="http://www.loc.gov/standards/alto/ns-v3#">'
            f"{unit}<Layout>{''.join(pages)}</Layout></alto>").encode()


@st.composite
def pdf_docs(draw: st.DrawFn) -> bytes:
    texts = draw(st.lists(st.text(st.characters(codec="latin-1"), max_size=60), min_size=1,
                          max_size=3))
    return pdf([t.replace("\r", "\n") for t in texts])


@st.composite
def text_docs(draw: st.DrawFn) -> bytes:
    words = st.sampled_from(["Mary", "Hollis", "born", "died", "married", "daughter", "of",
                             "1850", "March", "3,", "Ohio", "Mrs.", "the", "late", "aged",
                             "66", "years", ".", "\n", "\f", "-", "(", ")", "Jr.", "née",
                             "MARY HOLLIS", "1st", "inst.", ";", "and", "sons"]) | _WORD
    text = " ".join(draw(st.lists(words, max_size=80)))
    codec = draw(st.sampled_from(["utf-8", "cp1252", "utf-16"]))
    return text.encode(codec, errors="replace")


# -- the property, per reader -------------------------------------------------------------

@FUZZ
@given(data=fuzzed(_gedcom_seeds, gedcom_docs()), suffix=st.sampled_from([".ged", ".txt"]),
       lenient=st.booleans())
def test_gedcom_reader(folder: Path, data: bytes, suffix: str, lenient: bool) -> None:
    read(folder, suffix, data, lenient)


@FUZZ
@given(data=fuzzed(_json_seeds, json_docs()), lenient=st.booleans())
def test_json_record_readers(folder: Path, data: bytes, lenient: bool) -> None:
    read(folder, ".json", data, lenient)


@FUZZ
@given(data=fuzzed(_html_seeds, html_docs()), suffix=st.sampled_from([".html", ".htm"]))
def test_html_reader(folder: Path, data: bytes, suffix: str) -> None:
    read(folder, suffix, data, False)


@FUZZ
@given(data=fuzzed(lambda: [HOCR.encode()], hocr_docs()),
       suffix=st.sampled_from([".hocr", ".html"]))
def test_hocr_reader(folder: Path, data: bytes, suffix: str) -> None:
    read(folder, suffix, data, False)


@FUZZ
@given(data=fuzzed(_alto_seeds, alto_docs()))
def test_alto_reader(folder: Path, data: bytes) -> None:
    read(folder, ".xml", data, False)


@FUZZ
@given(data=fuzzed(_pdf_seeds, pdf_docs()))
def test_pdf_reader(folder: Path, data: bytes) -> None:
    read(folder, ".pdf", data, False)


@FUZZ
@given(data=fuzzed(_text_seeds, text_docs()), suffix=st.sampled_from([".txt", ".csv", ""]))
def test_text_reader(folder: Path, data: bytes, suffix: str) -> None:
    read(folder, suffix, data, False)
