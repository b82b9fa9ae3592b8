"""The hostile-input corpus (issue 26, item 8): files made to break a reader, each with what
`sleuth ingest` must do with it.

    python tests/hostile_corpus.py OUT_DIR     # writes the files and prints the list

Every file is made here, from a fixed seed: nested markup (a megabyte of 200,000 `<div>`s),
NUL bytes in GEDCOM, JSON and text, truncated and mis-declared files (ANSEL declared but
UTF-8 written, `CHAR KLINGON-42`, a PDF cut in half), compression bombs (bz2, GEDZIP, gzip),
huge lines, empty files and binary garbage under every reader's suffix. `REFUSED` files
must be refused (exit code 2, one line, nothing stored); `READ` files must be read (exit
0); none may take 10 s, hang, or print a traceback (`tests/cli/test_hostile_corpus.py`).
"""

from __future__ import annotations

import bz2
import gzip
import io
import random
import sys
import zipfile
from collections.abc import Callable
from pathlib import Path

MB = 1024 * 1024
HEAD = "0 HEAD\n1 GEDC\n2 VERS 5.5.1\n2 FORM LINEAGE-LINKED\n1 CHAR UTF-8\n"
JOHN = "0 @I1@ INDI\n1 NAME John /Smith/\n1 BIRT\n2 DATE 12 MAR 1851\n2 PLAC Ohio\n"
RECORD = ('{"persons": [{"id": "P1", "names": [{"nameForms": [{"fullText": "John Smith"}]}],'
          ' "facts": [{"type": "http://gedcomx.org/Birth", "date": {"original": "1851"}}]}]}')
PROSE = "Mary Hollis was born in 1850 in Buck Valley, the daughter of John Hollis. "
_rng = random.Random(26)


def _garbage(n: int) -> bytes:
    return bytes(_rng.getrandbits(8) for _ in range(n))


def _half(data: bytes) -> bytes:
    return data[: len(data) // 2]


def _bz2_bomb(inflated: int, block: bytes) -> bytes:
    """bz2 streams one after another, inflating to `inflated` bytes of `block`s."""
    one = bz2.compress(block * (16 * MB // len(block)), 9)
    return one * (inflated // (16 * MB))


def _gedzip(dataset: bytes) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("gedcom.ged", dataset)
    return buf.getvalue()


def pdf(pages: list[str] | None = None) -> bytes:
    """A PDF with a text layer, one page per string (hand-made: offsets counted here)."""
    objs = [b"<< /Type /Catalog /Pages 2 0 R >>", b"",
            b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"]
    kids = []
    for text in pages if pages is not None else ["John Smith was born in 1851."]:
        safe = text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
        ops = " ".join(f"({line}) Tj T*" for line in safe.splitlines())
        stream = f"BT /F1 12 Tf 14 TL 72 720 Td {ops} ET".encode("latin-1", errors="replace")
        objs.append(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
        objs.append(b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents %d 0 R"
                    b" /Resources << /Font << /F1 3 0 R >> >> >>" % len(objs))
        kids.append(len(objs))
    objs[1] = b"<< /Type /Pages /Kids [%s] /Count %d >>" % (
        b" ".join(b"%d 0 R" % k for k in kids), len(kids))
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for i, body in enumerate(objs, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % i + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objs) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objs) + 1, xref)
    return bytes(out)


def _hocr(body: str) -> str:
    return ("<html><head><meta name='ocr-system' content='tesseract'></head><body>"
            f"<div class='ocr_page' title='bbox 0 0 100 100; ppageno 0'>{body}</div>"
            "</body></html>")


# name -> a maker of the file's bytes. Refused: exit 2, one line, nothing stored.
REFUSED: dict[str, Callable[[], bytes]] = {
    # -- nesting -----------------------------------------------------------------------
    # (a megabyte of 200,000 `<div>`s, left open as a browser closes them)
    "nested_divs.html": lambda: ("<html><body>" + "<div>" * 200_000 + "deep").encode(),
    "nested_divs.hocr": lambda: _hocr("<div>" * 200_000 + "x" + "</div>" * 200_000).encode(),
    "nested_arrays.json": lambda: b"[" * 200_000 + b"]" * 200_000,
    "nested_objects.json": lambda: b'{"a":' * 100_000 + b"1" + b"}" * 100_000,
    # -- NUL bytes ---------------------------------------------------------------------
    "nul_in_name.ged": lambda: (HEAD + "0 @I1@ INDI\n1 NAME Nul\x00l /Byte/\n0 TRLR\n").encode(),
    "nul_in_record.json": lambda: RECORD.replace("John", "Jo\x00hn").encode(),
    "nul_in_text.txt": lambda: (PROSE + "\x00" + PROSE).encode(),
    "nul_in_page.html": lambda: f"<html><body><p>{PROSE}\x00</p></body></html>".encode(),
    # -- truncated and mis-declared ----------------------------------------------------
    "truncated_record.json": lambda: _half(RECORD.encode()),
    "truncated.pdf": lambda: _half(pdf()),
    "truncated_alto.xml": lambda: b'<?xml version="1.0"?><alto xmlns="http://www.loc.gov/'
                                  b'standards/alto/ns-v3#"><Layout><Page><PrintSpace><TextBl',
    "truncated.txt.bz2": lambda: _half(bz2.compress(_garbage(8192).hex().encode())),
    "ansel_but_utf8.ged": lambda: ("0 HEAD\n1 CHAR ANSEL\n0 @I1@ INDI\n1 NAME Zoë /Müller/\n"
                                   "0 TRLR\n").encode(),
    "klingon.ged": lambda: (HEAD.replace("UTF-8", "KLINGON-42") + JOHN + "0 TRLR\n").encode(),
    "utf8_declared_latin1_written.ged": lambda: (HEAD + "0 @I1@ INDI\n1 NAME Zoë /Müller/\n"
                                                 "0 TRLR\n").encode("latin-1"),
    "bad_levels.ged": lambda: (HEAD + "0 @I1@ INDI\n1 NAME John /Smith/\n3 BIRT\n4 DATE 1851\n"
                               "0 TRLR\n").encode(),
    "duplicate_xref.ged": lambda: (HEAD + JOHN + JOHN + "0 TRLR\n").encode(),
    "no_trailer.ged": lambda: (HEAD + JOHN).encode(),  # how a truncated file looks
    "dangling_pointer.ged": lambda: (HEAD + JOHN + "1 FAMC @F9@\n0 TRLR\n").encode(),
    "no_known_shape.json": lambda: b'{"records": [{"who": "John Smith", "born": 1851}]}',
    "entities.xml": lambda: (b'<?xml version="1.0"?><!DOCTYPE alto [<!ENTITY a "aaaaaaaaaa">'
                             b'<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]><alto xmlns="'
                             b'http://www.loc.gov/standards/alto/ns-v3#"><Layout><Page>'
                             b'<TextBlock><TextLine><String CONTENT="&b;"/></TextLine>'
                             b'</TextBlock></Page></Layout></alto>'),
    # -- bombs -------------------------------------------------------------------------
    "bomb.txt.bz2": lambda: _bz2_bomb(256 * MB, PROSE.encode()),
    "bomb.hocr.bz2": lambda: _bz2_bomb(128 * MB, b" "),
    "bomb.gdz": lambda: _gedzip(HEAD.encode() + b"1 NOTE " + b"x" * (80 * MB) + b"\n0 TRLR\n"),
    "bomb.txt.gz": lambda: gzip.compress(b"\0" * (64 * MB)),
    "bomb.json.gz": lambda: gzip.compress(b" " * (64 * MB)),
    # -- too large ---------------------------------------------------------------------
    "eleven_megabytes.txt": lambda: (PROSE * (11 * MB // len(PROSE) + 1)).encode(),
    # -- empty -------------------------------------------------------------------------
    "empty.ged": lambda: b"",
    "empty.json": lambda: b"",
    "empty.txt": lambda: b"",
    "blank.html": lambda: b" \n\t\r\n" * 100,
    "no_text.html": lambda: b"<html><body><script>var a = 1;</script></body></html>",
    "empty.pdf": lambda: b"",
    "empty.gdz": lambda: _gedzip(b""),
    # -- binary garbage under every reader's name --------------------------------------
    **{f"garbage.{ext}": (lambda: _garbage(64 * 1024))
       for ext in ("ged", "json", "html", "pdf", "hocr", "xml", "txt", "vld", "gdz")},
    "garbage.txt.bz2": lambda: b"BZh91AY&SY" + _garbage(4096),
    "garbage_after_pdf_magic.pdf": lambda: b"%PDF-1.7\n" + _garbage(32 * 1024),
    "garbage_after_gedcom_head.ged": lambda: HEAD.encode() + _garbage(16 * 1024),
}

# name -> maker. Read: exit 0 (a warning line allowed), nothing hangs.
READ: dict[str, Callable[[], bytes]] = {
    "huge_line.txt": lambda: ("Born " + "x" * (3 * MB) + "\n").encode(),
    "huge_word_line.txt": lambda: b"Mary " * 400_000,
    "huge_note_line.ged": lambda: (HEAD + JOHN + "1 NOTE " + "x" * (2 * MB) + "\n0 TRLR\n"
                                   ).encode(),
    "ninety_nine_levels.ged": lambda: (HEAD + JOHN + "".join(f"{i} _X v\n" for i in range(2, 100))
                                       + "0 TRLR\n").encode(),
    "form_feeds.txt": lambda: PROSE.encode() + b"\f" * 200_000,
    "mixed_line_ends.ged": lambda: (HEAD + JOHN + "0 TRLR\n").replace("\n", "\r", 3).encode(),
    "one_page.pdf": pdf,
    "multistream.txt.bz2": lambda: bz2.compress(PROSE.encode()) + bz2.compress(PROSE.encode()),
}


def write(out: Path) -> dict[str, bool]:
    """Write the corpus into `out`; name -> whether the file must be refused."""
    out.mkdir(parents=True, exist_ok=True)
    made: dict[str, bool] = {}
    for table, refused in ((REFUSED, True), (READ, False)):
        for name, make in table.items():
            (out / name).write_bytes(make())
            made[name] = refused
    return made


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(f"usage: {sys.argv[0]} OUT_DIR")
    for name, refused in sorted(write(Path(sys.argv[1])).items()):
        print(("refused " if refused else "read    ") + name)
