"""GEDCOM reading on the real files in ../shared/data/gedcom: charsets, line ends, spans."""

from __future__ import annotations

import re
import tracemalloc

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shared_data import shared_path
from sleuth.gedcom import decode_ansel, decode_gedcom, parse_gedcom
from sleuth.model import InputError
from sleuth.sources import load_file


def _read(*parts: str):
    path = shared_path("gedcom", *parts)
    decoded = decode_gedcom(path.read_bytes())
    return decoded, parse_gedcom(decoded.text, file=str(path))


@pytest.mark.parametrize(
    ("parts", "indi", "fam", "encoding"),
    [
        (("samples", "royal92.ged"), 3010, 1422, "ansel"),
        (("samples", "pres2020.ged"), 2322, 1115, "utf-8"),
        (("samples", "washington.ged"), 529, 114, "cp1252"),
        (("samples", "EnglishTudorRoyalFamily.ged"), 347, 200, "utf-8"),
        (("samples", "kennedy.ged"), 208, 75, "utf-8"),
        (("gramps", "example.ged"), 2157, 762, "utf-8"),
    ],
)
def test_real_trees_have_the_documented_record_counts(parts, indi, fam, encoding):
    decoded, ged = _read(*parts)
    assert decoded.encoding == encoding
    assert len(ged.of_tag("INDI")) == indi
    assert len(ged.of_tag("FAM")) == fam
    assert ged.problems == []


def test_every_shared_gedcom_file_parses():
    root = shared_path("gedcom")
    files = sorted(root.rglob("*.ged"))
    assert len(files) > 60
    for path in files:
        decoded = decode_gedcom(path.read_bytes())
        ged = parse_gedcom(decoded.text, file=str(path))
        assert ged.records[0].tag == "HEAD", path
        assert ged.records[-1].tag == "TRLR", path


def test_ansel_combining_marks_move_after_their_letter():
    _, ged = _read("torture", "TGC55C.ged")
    notes = ged.by_xref()
    assert "slash l - uppercase (Ł)" in notes["@N25@"].value
    assert "es zet (ß)" in notes["@N25@"].value
    acute = notes["@N24@"].value
    row = acute[acute.index("code: E2") :].split("\n")[1].strip()
    assert row.startswith("ÁB́ĆD́É")  # NFC composes where Unicode has a precomposed letter
    assert decode_ansel(b"M\xe8uller \xe2Ecole") == "Müller École"


@pytest.mark.parametrize(
    "name", ["char_utf16le-1.ged", "char_utf16le-2.ged", "char_utf16be-1.ged",
             "char_utf16be-2.ged", "char_utf8-1.ged", "char_utf8-2.ged", "char_utf8-3.ged"]
)
def test_unicode_encodings_with_and_without_bom(name):
    _, ged = _read("gedcom7code", "5", name)
    names = [n.value for r in ged.of_tag("SUBM") for n in r.all("NAME")]
    assert names == ["Luther Tychonievich"]
    note = next(n.value for r in ged.records for n in r.walk() if n.tag == "NOTE")
    assert note.endswith("¶ ☺ 𒍅")


def test_cr_only_and_crlf_files_give_the_same_tree():
    _, cr = _read("torture", "TGC551.ged")
    _, crlf = _read("torture", "TGC551LF.ged")

    def shape(ged):
        return [(n.level, n.tag, n.value, n.xref) for r in ged.records for n in r.walk()]

    assert shape(cr) == shape(crlf)
    assert len(shape(cr)) > 1000


def test_spans_point_at_the_lines_and_cont_becomes_a_newline():
    decoded, ged = _read("torture", "TGC55C.ged")
    person = ged.by_xref()["@PERSON1@"]
    lo, hi = person.span
    assert decoded.text[lo:hi].startswith("0 @PERSON1@ INDI")
    birth = person.first("BIRT")
    assert birth is not None
    lines = decoded.text[birth.span[0] : birth.span[1]].splitlines()
    assert lines[0].strip() == "1 BIRT" and "2 DATE 31 DEC 1965" in [x.strip() for x in lines]
    header_note = ged.records[0].first("NOTE")
    assert header_note is not None and "\n" in header_note.value  # CONT
    assert "@@" not in header_note.value and "<h.eichmann@mbox" in header_note.value


def test_load_file_decodes_gedcom_by_its_declared_charset():
    snap = load_file(shared_path("gedcom", "samples", "royal92.ged")).snapshot
    assert snap.media_type == "text/x-gedcom" and snap.metadata["encoding"] == "ansel"


@pytest.mark.parametrize(
    ("text", "line"),
    [("hello world\n", 1), ("1 NAME x\n", 1), ("0 HEAD\n1 CHAR UTF-8\n", None)],
)
def test_not_gedcom_is_refused_with_its_line(text, line):
    if line is None:
        ged = parse_gedcom(text, file="x.ged")  # a head without trailer: read, and reported
        assert ged.problems and "TRLR" in ged.problems[-1][1]
        return
    with pytest.raises(InputError) as exc:
        parse_gedcom(text, file="x.ged")
    assert exc.value.file == "x.ged" and exc.value.line == line


def test_strict_mode_names_the_bad_line():
    text = "0 HEAD\n1 CHAR UTF-8\n0 @I1@ INDI\n1 NAME Ann /Lee/\n???\n0 TRLR\n"
    assert parse_gedcom(text).problems[0][0] == 5
    with pytest.raises(InputError) as exc:
        parse_gedcom(text, file="t.ged", strict=True)
    assert exc.value.line == 5


@given(st.binary(max_size=400))
def test_arbitrary_bytes_never_crash(raw):
    decoded = decode_gedcom(b"0 HEAD\n" + raw)
    try:
        ged = parse_gedcom(decoded.text)
    except InputError:
        return
    for rec in ged.records:
        lo, hi = rec.span
        assert 0 <= lo <= hi <= len(decoded.text)


def _shape(ged):
    return [(n.level, n.tag, n.value, n.xref, n.line, n.span) for r in ged.records
            for n in r.walk()]


def test_odd_but_legal_lines_read_like_plain_ones():
    """Tabs, doubled spaces, `01` levels and lower-case tags take the slow path, same tree."""
    plain = "0 HEAD\n0 @I1@ INDI\n1 NAME Ann /Lee/\n2 GIVN Ann\n1 SEX F\n0 TRLR\n"
    odd = "0 HEAD\n0\t@I1@  INDI\n01 name Ann /Lee/\n  2\tGIVN Ann\n1 SEX F\n0 TRLR\n"
    a, b = parse_gedcom(plain), parse_gedcom(odd)
    assert [x[:4] for x in _shape(a)] == [x[:4] for x in _shape(b)]
    assert a.problems == b.problems == []
    # a tab after the tag starts the value; a space inside an xref is kept
    ged = parse_gedcom("0 HEAD\n0 @N 1@ NOTE\tsee @@ here\n0 TRLR\n")
    note = ged.records[1]
    assert (note.xref, note.tag, note.value) == ("@N 1@", "NOTE", "see @ here")


def test_bad_lines_are_reported_whichever_path_reads_them():
    text = "0 HEAD\n1 @F1@\n1 N@ME x\n100 DEEP\n1 NAME ok\n\n0 TRLR\n"
    ged = parse_gedcom(text)
    assert [no for no, _ in ged.problems] == [2, 3, 4]
    assert ged.records[0].first("NAME").value == "ok"


def test_mixed_line_ends_and_chunk_boundaries_keep_every_span(monkeypatch):
    import sleuth.gedcom.reader as reader

    body = "".join(f"0 @I{i}@ INDI\n1 NAME P{i} /X/\n2 CONC y\n1 NOTE a\n2 CONT b\n"
                   for i in range(200))
    for end in ("\n", "\r\n", "\r"):
        text = ("0 HEAD\n" + body + "0 TRLR").replace("\n", end)
        expect = _shape(parse_gedcom(text))
        for chunk in (1, 5, 64):  # a chunk edge at every kind of place in a line
            monkeypatch.setattr(reader, "_CHUNK", chunk)
            assert _shape(parse_gedcom(text)) == expect
        monkeypatch.undo()
        people = parse_gedcom(text).of_tag("INDI")
        assert len(people) == 200 and people[7].first("NAME").value == "P7 /X/y"
        lo, hi = people[7].span
        assert text[lo:hi].endswith("2 CONT b") and text[lo:].startswith("0 @I7@ INDI")
    mixed = "0 HEAD\r\n0 @I1@ INDI\n1 NAME A\r1 NOTE x\r\n2 CONT y\n0 TRLR"
    ged = parse_gedcom(mixed)
    person = ged.records[1]
    assert [n.line for n in person.walk()] == [2, 3, 4]
    assert mixed[slice(*person.span)] == "0 @I1@ INDI\n1 NAME A\r1 NOTE x\r\n2 CONT y"
    assert ged.records[-1].span == (len(mixed) - 6, len(mixed))


def test_leaves_share_an_empty_children_tuple():
    ged = parse_gedcom("0 HEAD\n0 @I1@ INDI\n1 NAME A\n0 TRLR\n")
    person = ged.records[1]
    assert isinstance(person.children, list) and person.children[0].children == ()
    assert ged.records[-1].all("X") == [] and list(person.children[0].walk()) == [
        person.children[0]]


# -- the fast reader against a plain one ------------------------------------------------------
# The reader keeps no offsets per node (they are read from a shared line table), folds
# CONC/CONT by hand and reads most lines without the regex. This reference does none of that:
# one regex per line, each line's span taken from its own match, every subtree's end worked
# out afterwards. Both must give the same tree, spans, problems and version.

_REF_LINE = re.compile(
    r"[ \t]*(?P<level>\d{1,2})[ \t]+(?:(?P<xref>@[^@\s][^@]{0,4000}@)[ \t]+)?"
    r"(?P<tag>[A-Za-z0-9_]{1,63})(?:[ \t](?P<value>.*))?"
)
_REF_SPLIT = re.compile(r"([^\r\n]*)(?:\r\n|\r|\n)|([^\r\n]+)\Z")


class _RefError(Exception):
    def __init__(self, line: int | None) -> None:
        self.line = line


def _reference(text: str, strict: bool = False):
    """(rows, problem lines, version); a row is level, tag, value, xref, line, start, end,
    subtree end, number of children, in document order."""
    problems: list[int] = []
    records: list[dict] = []
    stack: list[dict] = []
    v7 = head = False
    no = 0
    for m in _REF_SPLIT.finditer(text):
        no += 1
        raw = m.group(1) if m.group(1) is not None else m.group(2)
        start, end = m.start(), m.start() + len(raw)
        if not raw.strip():
            continue
        lm = _REF_LINE.fullmatch(raw.lstrip("\ufeff"))
        if lm is None:
            if not head or strict:
                raise _RefError(no)
            problems.append(no)
            continue
        level, tag, value, xref = int(lm["level"]), lm["tag"].upper(), lm["value"] or "", lm["xref"]
        if not head:
            if (level, tag) != (0, "HEAD"):
                raise _RefError(no)
            head = True
        value = (value[1:] if value.startswith("@@") else value) if v7 else value.replace("@@", "@")
        if not stack and level:
            problems.append(no)  # outside any record
            continue
        if stack and level == len(stack) and tag in ("CONC", "CONT"):
            stack[-1]["value"] += ("\n" if tag == "CONT" else "") + value
            stack[-1]["end"] = end
            continue
        if level > len(stack):  # a jump: read as one level below
            if strict:
                raise _RefError(no)
            problems.append(no)
            level = len(stack)
        del stack[level:]
        node = {"level": level, "tag": tag, "value": value, "xref": xref, "line": no,
                "start": start, "end": end, "children": []}
        (stack[-1]["children"] if stack else records).append(node)
        stack.append(node)
        v7 = v7 or (tag == "VERS" and level == 2 and value.strip().startswith("7."))
    if not head:
        raise _RefError(None)
    rows: list[tuple] = []

    def visit(n: dict) -> int:
        i = len(rows)
        rows.append(())
        last = max([n["end"], *(visit(c) for c in n["children"])])
        rows[i] = (n["level"], n["tag"], n["value"], n["xref"], n["line"], n["start"], n["end"],
                   last, len(n["children"]))
        return last

    for r in records:
        visit(r)
    gedc = next((c for c in records[0]["children"] if c["tag"] == "GEDC"), {"children": []})
    version = next((c["value"] for c in gedc["children"] if c["tag"] == "VERS"), None)
    if records[-1]["tag"] != "TRLR":
        problems.append(no)
    return rows, problems, version


def _ours(text: str, strict: bool = False):
    ged = parse_gedcom(text, strict=strict)
    rows = []
    for r in ged.records:
        for n in r.walk():
            assert n.span == (n.start, n.last) and n.last >= n.end
            rows.append((n.level, n.tag, n.value, n.xref, n.line, n.start, n.end, n.last,
                         len(n.children)))
    return rows, [no for no, _ in ged.problems], ged.version


def _same_as_reference(text: str, strict: bool = False) -> None:
    try:
        ours = _ours(text, strict)
    except InputError as exc:
        with pytest.raises(_RefError) as ref:
            _reference(text, strict)
        assert exc.line == ref.value.line
        return
    assert ours == _reference(text, strict)


def test_every_shared_gedcom_file_reads_like_the_reference():
    files = sorted(shared_path("gedcom").rglob("*.ged"))
    assert len(files) > 90
    for path in files:
        text = decode_gedcom(path.read_bytes()).text
        _same_as_reference(text)
    text = decode_gedcom(shared_path("gedcom", "torture", "TGC55C.ged").read_bytes()).text
    for end in ("\r\n", "\r"):  # and with each line end
        _same_as_reference(text.replace("\r\n", "\n").replace("\n", end))


_PIECES = st.sampled_from([
    "0 HEAD", "0 TRLR", "1 GEDC", "2 VERS 7.0", "2 VERS 5.5.1", "0 @I1@ INDI", "0\t@N 1@  NOTE a",
    "1 NAME Ann /Lee/", "2 CONC tail", "2 CONT next", "3 CONC x@@y", "3 CONT", "1 CONC @@z",
    "01 sex F", "\ufeff0 HEAD", "1 NOTE @@lead and @@ mid", "4 DEEP", "  2\tGIVN Ann ", "",
    "   ", "???", "1 @F1@", "1 N@ME x", "100 X", "2 DATE 1 JAN 1900", "1 _CUSTOM é ☺ 𒍅",
    "0 @S1@ SOUR", "1 TITL " + "long " * 80,
])


@given(st.lists(st.tuples(_PIECES, st.sampled_from(["\n", "\r\n", "\r"])), max_size=40),
       st.booleans(), st.booleans(), st.booleans())
def test_generated_files_read_like_the_reference(lines, headed, final_end, strict):
    text = "".join(piece + end for piece, end in lines)
    if headed:
        text = "0 HEAD\n" + text
    if not final_end:
        text = text.rstrip("\r\n")
    _same_as_reference(text, strict)


def test_a_node_keeps_neither_offsets_nor_its_value_string():
    """What the memory target of benchmarks/gedcom.py rests on: ~185 bytes a node here, the
    children lists and xrefs included, where nodes holding three offsets and the value string
    took ~300 (the offsets and the value are now read from the text)."""
    people = "".join(f"0 @I{i}@ INDI\n1 NAME Person{i} /Surname{i % 50}/\n1 BIRT\n"
                     f"2 DATE {1 + i % 28} JAN {1800 + i % 200}\n2 PLAC Springfield, Illinois\n"
                     for i in range(4000))
    text = "0 HEAD\n" + people + "0 TRLR\n"
    tracemalloc.start()
    try:
        ged = parse_gedcom(text)
        size = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    nodes = sum(1 for r in ged.records for _ in r.walk())
    assert nodes == 20002 and size / nodes < 200
    birth = ged.records[7].first("BIRT")
    assert birth is not None and birth.value_of("PLAC") == "Springfield, Illinois"
