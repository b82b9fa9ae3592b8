"""Bytes to text: strict decoding, never a half-guessed text.

A file that is not text, or cannot be decoded, gets an InputError naming the file and the
offending byte."""

from __future__ import annotations

import re

from sleuth.model import InputError

_C1_CONTROLS = re.compile("[\x80-\x9f]")


def decode_text(raw: bytes, where: str) -> tuple[str, str]:
    """Decode bytes as text: BOMs first, then strict UTF-8, then strict Windows-1252."""
    for bom, enc in (
        (b"\xef\xbb\xbf", "utf-8-sig"),
        (b"\xff\xfe", "utf-16"),
        (b"\xfe\xff", "utf-16"),
    ):
        if raw.startswith(bom):
            try:
                return raw.decode(enc), enc
            except UnicodeDecodeError as exc:
                raise InputError(f"invalid {enc} at byte {exc.start}", file=where) from exc
    nul = raw.find(b"\x00")
    if nul >= 0:
        raise InputError(f"binary data, not text (NUL byte at offset {nul})", file=where)
    try:
        return raw.decode("utf-8"), "utf-8"
    except UnicodeDecodeError as exc:
        first_bad = exc.start
    # Windows-1252 is the one legacy encoding genealogical text commonly arrives in; it is
    # accepted (and recorded in the snapshot) only when every byte maps to a printable
    # character. Anything else is refused rather than guessed.
    try:
        decoded = raw.decode("cp1252")
    except UnicodeDecodeError:
        decoded = ""
    if not decoded or _C1_CONTROLS.search(decoded):
        line = raw.count(b"\n", 0, first_bad) + 1
        raise InputError(
            f"not valid UTF-8 (byte 0x{raw[first_bad]:02x} at offset {first_bad}) nor"
            " Windows-1252 text; convert the file to UTF-8",
            file=where,
            line=line,
        )
    return decoded, "cp1252"


def looks_html(text: str) -> bool:
    head = text[:1000].lstrip().lower()
    return head.startswith(("<!doctype html", "<html"))


# Bytes no FreeCEN VLD file holds: control characters other than its NUL padding and line ends
_NOT_VLD = re.compile(rb"[\x01-\x08\x0b\x0c\x0e-\x1f\x7f]")


def vld_text(raw: bytes, where: str | None = None) -> str:
    """The snapshot text for a FreeCEN VLD file: ISO-8859-1, byte for character.

    NUL padding becomes a space (same length, so every column offset holds): PostgreSQL text
    cannot store NUL, and the exact bytes are kept in the snapshot's blob anyway. Any other
    control character means the file is not a VLD file (binary data under its name): an
    InputError naming the file and the byte.
    """
    if (bad := _NOT_VLD.search(raw)) is not None:
        raise InputError(f"binary data, not a FreeCEN VLD file (byte 0x{bad.group()[0]:02x} at "
                         f"offset {bad.start()})", file=where)
    return raw.decode("iso-8859-1").replace("\x00", " ")
