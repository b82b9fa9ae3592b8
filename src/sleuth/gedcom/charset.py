"""GEDCOM character sets: BOMs, UTF-16 without BOM, the HEAD's `CHAR`, and ANSEL.

GEDCOM 5.5.1 files come in ANSEL (ANSI Z39.47, the library-catalogue set whose combining
diacritics *precede* their base letter), ASCII, ANSI (Windows-1252), UTF-8 and UTF-16;
GEDCOM 7.0 is always UTF-8. Python has no ANSEL codec, so it is decoded here by table. Files
often lie about their charset ("ASCII" with accented bytes): the declared one is tried first,
then UTF-8, then Windows-1252, and the fallback is reported, never silent.

Each such report is also an `InputProblem` located at its line (`Decoded.problems`, issue 26):
an unknown CHAR (`CHAR KLINGON-42`), a declared set the bytes contradict (ANSEL declared but
the bytes are UTF-8: read as UTF-8, not as mojibake), and non-UTF-8 bytes with no CHAR at all.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

from sleuth.model.errors import InputProblem

# ANSEL spacing characters 0xA1-0xCF (MARC-8 Latin, with GEDCOM's LDS extensions BE/BF/CD/CE).
_ANSEL_SPACING: dict[int, str] = {
    0xA1: "\u0141", 0xA2: "\u00d8", 0xA3: "\u0110", 0xA4: "\u00de", 0xA5: "\u00c6",
    0xA6: "\u0152", 0xA7: "\u02b9", 0xA8: "\u00b7", 0xA9: "\u266d", 0xAA: "\u00ae",
    0xAB: "\u00b1", 0xAC: "\u01a0", 0xAD: "\u01af", 0xAE: "\u02bc", 0xB0: "\u02bb",
    0xB1: "\u0142", 0xB2: "\u00f8", 0xB3: "\u0111", 0xB4: "\u00fe", 0xB5: "\u00e6",
    0xB6: "\u0153", 0xB7: "\u02ba", 0xB8: "\u0131", 0xB9: "\u00a3", 0xBA: "\u00f0",
    0xBC: "\u01a1", 0xBD: "\u01b0", 0xBE: "\u25a1", 0xBF: "\u25a0", 0xC0: "\u00b0",
    0xC1: "\u2113", 0xC2: "\u2117", 0xC3: "\u00a9", 0xC4: "\u266f", 0xC5: "\u00bf",
    0xC6: "\u00a1", 0xC7: "\u00df", 0xC8: "\u20ac", 0xCD: "e", 0xCE: "o", 0xCF: "\u00df",
}
# ANSEL combining diacritics 0xE0-0xFE: written before the letter they modify.
_ANSEL_COMBINING: dict[int, str] = {
    0xE0: "\u0309", 0xE1: "\u0300", 0xE2: "\u0301", 0xE3: "\u0302", 0xE4: "\u0303",
    0xE5: "\u0304", 0xE6: "\u0306", 0xE7: "\u0307", 0xE8: "\u0308", 0xE9: "\u030c",
    0xEA: "\u030a", 0xEB: "\ufe20", 0xEC: "\ufe21", 0xED: "\u0315", 0xEE: "\u030b",
    0xEF: "\u0310", 0xF0: "\u0327", 0xF1: "\u0328", 0xF2: "\u0323", 0xF3: "\u0324",
    0xF4: "\u0325", 0xF5: "\u0333", 0xF6: "\u0332", 0xF7: "\u0326", 0xF8: "\u031c",
    0xF9: "\u032e", 0xFA: "\ufe22", 0xFB: "\ufe23", 0xFE: "\u0313",
}
_DECLARED = {
    "UTF-8": "utf-8", "UTF8": "utf-8", "UNICODE": "utf-8", "ANSEL": "ansel",
    "ASCII": "ascii", "ANSI": "cp1252", "WINDOWS-1252": "cp1252", "CP1252": "cp1252",
    "LATIN1": "latin-1", "ISO-8859-1": "latin-1", "ISO8859-1": "latin-1",
    "IBMPC": "cp437", "IBM WINDOWS": "cp1252", "MACINTOSH": "mac_roman",
}
_CHAR_LINE = re.compile(rb"(?:^|[\r\n])[ \t]*1[ \t]+CHAR[ \t]+([^\r\n]{1,40})")
_HEAD_END = re.compile(rb"[\r\n][ \t]*0[ \t]")
_VERS7 = re.compile(rb"(?:^|[\r\n])[ \t]*2[ \t]+VERS[ \t]+7\.")


@dataclass
class Decoded:
    text: str
    encoding: str  # the codec actually used
    declared: str | None  # the HEAD's CHAR value, if any
    warnings: list[str] = field(default_factory=list)
    problems: list[InputProblem] = field(default_factory=list)


# One translation table for the bytes: high bytes to their character (combining marks still
# before their letter), then one regex pass moves each run of marks after the letter it
# modifies; the mark nearest the letter binds first, so a run is reversed. Marks at the very
# end of the text have no letter and stay in their order.
_ANSEL_TABLE = {
    b: _ANSEL_COMBINING.get(b) or _ANSEL_SPACING.get(b, "\ufffd") for b in range(0x80, 0x100)
}
_MARK_SET = "".join(sorted(_ANSEL_COMBINING.values()))
_ANSEL_MARKS = re.compile(f"([{_MARK_SET}]+)([^{_MARK_SET}])")


def decode_ansel(raw: bytes) -> str:
    """ANSEL bytes to NFC text: each run of combining marks moves after its base letter."""
    if raw.isascii():
        return raw.decode("ascii")
    text = raw.decode("latin-1").translate(_ANSEL_TABLE)
    text = _ANSEL_MARKS.sub(lambda m: m.group(2) + m.group(1)[::-1], text)
    return unicodedata.normalize("NFC", text)


def decode_gedcom(raw: bytes) -> Decoded:
    """Decode a GEDCOM file by BOM, byte pattern, then the HEAD's declared `CHAR`."""
    for bom, codec, skip in ((b"\xef\xbb\xbf", "utf-8", 3), (b"\xff\xfe", "utf-16-le", 2),
                             (b"\xfe\xff", "utf-16-be", 2), (b"0\x00", "utf-16-le", 0),
                             (b"\x000", "utf-16-be", 0)):
        if raw.startswith(bom):
            return _unicode(raw, codec, skip, "BOM" if skip else None)
    end = _HEAD_END.search(raw, 1)
    head = raw[: end.start() if end else 65536]
    m = _CHAR_LINE.search(head)
    declared = m.group(1).decode("ascii", "replace").strip().upper() if m else None
    char_line = _line_at(raw, m.start(1)) if m else None
    codec = _DECLARED.get(declared or "", "utf-8")
    if declared is None and not _VERS7.search(head):
        codec = "utf-8"  # 5.x without CHAR: try UTF-8, then fall back below
    warnings: list[str] = []
    problems: list[InputProblem] = []
    if declared and declared not in _DECLARED:
        warnings.append(f"unknown CHAR {declared!r}; read as UTF-8")
        problems.append(InputProblem(
            "charset", f"unknown character set {declared!r}; read as UTF-8", char_line,
            "CHAR"))
    if codec == "ansel":
        if not raw.isascii() and _utf8(raw):
            msg = "declared CHAR ANSEL, but the bytes are UTF-8; read as UTF-8"
            warnings.append(msg)
            problems.append(InputProblem("charset", msg, _line_at(raw, _first_high(raw)),
                                         "CHAR"))
            return Decoded(raw.decode("utf-8"), "utf-8", declared, warnings, problems)
        return Decoded(decode_ansel(raw), "ansel", declared, warnings, problems)
    for attempt in dict.fromkeys((codec, "utf-8", "cp1252")):
        try:
            text = raw.decode(attempt)
        except UnicodeDecodeError as exc:
            if attempt == codec:
                warnings.append(
                    f"declared CHAR {declared or 'none'} does not fit byte {exc.start} "
                    f"(0x{raw[exc.start]:02x})"
                )
                problems.append(_misfit(raw, exc.start, declared))
            continue
        if attempt != codec:
            warnings.append(f"read as {attempt} instead")
        return Decoded(text, attempt, declared, warnings, problems)
    return Decoded(raw.decode("latin-1"), "latin-1", declared, [*warnings, "read as latin-1"],
                   problems)


def _unicode(raw: bytes, codec: str, skip: int, declared: str | None) -> Decoded:
    """A file its BOM (or its first bytes) says is UTF-8 or UTF-16; bytes that do not fit
    are a problem (replaced by U+FFFD when read leniently), never a crash."""
    try:
        return Decoded(raw[skip:].decode(codec), codec, declared)
    except UnicodeDecodeError as exc:
        pos = skip + exc.start
        msg = f"the file is {codec} by its first bytes, but byte {pos} does not fit it"
        line = raw[skip:pos].decode(codec, "replace").count("\n") + 1
        return Decoded(raw[skip:].decode(codec, "replace"), codec, declared, [msg],
                       [InputProblem("charset", msg, line, "CHAR")])


def _utf8(raw: bytes) -> bool:
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _first_high(raw: bytes) -> int:
    return next(i for i, b in enumerate(raw) if b > 0x7F)


def _line_at(raw: bytes, pos: int) -> int:
    """1-based line of byte `pos` (a CR-only file counts CRs)."""
    nl = b"\n" if b"\n" in raw[: pos + 1] or b"\r" not in raw[:pos] else b"\r"
    return raw.count(nl, 0, pos) + 1


def _misfit(raw: bytes, pos: int, declared: str | None) -> InputProblem:
    """The bytes do not fit the declared CHAR (or, with none declared, UTF-8)."""
    if declared is None:
        msg = (f"no CHAR declared and byte 0x{raw[pos]:02x} is not UTF-8; the character set "
               "is a guess (windows-1252)")
    else:
        msg = f"declared CHAR {declared}, but byte 0x{raw[pos]:02x} does not fit it"
    return InputProblem("charset", msg, _line_at(raw, pos), "CHAR")
