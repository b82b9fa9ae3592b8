"""Strict GEDCOM input (issue 26): every problem of a file, located by line and tag.

`check_gedcom(decoded)` reads decoded GEDCOM the way every reader does (`parse_gedcom`) and
lists what is wrong with it as `InputProblem`s, each with its line, its tag and whether the
strict default refuses the file for it (`refuse`) or only warns:

| problem                                                  | default       |
|----------------------------------------------------------|---------------|
| a line that is not `LEVEL [@XREF@] TAG [VALUE]`          | refuse        |
| a level more than one below its parent's (`1 BIRT`/`3 DATE`) | refuse    |
| an xref defined twice (`0 @I1@ INDI` twice: one is lost) | refuse        |
| no `0 HEAD` (the file starts with another record)        | refuse        |
| an unknown CHAR (`CHAR KLINGON-42`)                      | refuse        |
| bytes that contradict the declared CHAR (ANSEL declared, UTF-8 written) | refuse |
| no CHAR and bytes that are not UTF-8 (the set is a guess) | refuse       |
| NUL or another control character (not TAB, CR, LF)       | refuse        |
| a pointer to an xref no record defines (`1 FAMC @F9@`)   | refuse        |
| the same in an extension tag (`1 _IN @B1@`)              | warn          |
| no `0 TRLR` at the end (a truncated file)                | refuse        |
| a FAM with two HUSB or two WIFE lines (each is {0:1})    | warn          |

A dangling standard pointer loses a link (a parent, a family, a source) and a missing
trailer is how a truncated file looks, so the default refuses both; `--lenient` stores the
file with each problem kept as a finding. An extension tag's payload is warned about only:
its meaning is the extension's, and GEDCOM 7's own example `extensions.ged` points
`_IN @B1@` at nothing. Before GEDCOM 7 an xref's case did not matter (`SUBM @test@`
finds `@TEST@`, as `xref-case.ged` expects). Measured on every shared GEDCOM file (the
survey in README.md): none is refused.

Control characters are removed from the text that is read and stored (what `--lenient`
stores, and what `sleuth check` reads), so a NUL never reaches a database or an export.
"""

from __future__ import annotations

import re
from pathlib import Path

from sleuth.gedcom.charset import Decoded, decode_gedcom
from sleuth.gedcom.reader import Gedcom, parse_gedcom
from sleuth.model import limits
from sleuth.model.errors import InputError, InputProblem

# C0 controls but TAB, LF and CR, and DEL: GEDCOM allows none of them in a line
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_TAG_OF = re.compile(r"[ \t]*\d{1,2}[ \t]+(?:@[^@]*@[ \t]+)?([A-Za-z0-9_]{1,63})")
_VOID = "@VOID@"  # GEDCOM 7's null pointer
MAX_EACH = 100  # problems of one kind listed; the rest are counted


def check_gedcom(decoded: Decoded, *, file: str | None = None) -> tuple[str, Gedcom,
                                                                         list[InputProblem]]:
    """The text as read (control characters removed), its tree, and every problem in line
    order. Raises InputError only for text that is not GEDCOM at all (its first line)."""
    text = decoded.text
    problems = list(decoded.problems)
    if _CONTROL.search(text):
        problems += _controls(text)
        text = _CONTROL.sub("", text)
    ged = parse_gedcom(text, file=file, require_head=False)
    problems += ged.issues
    problems += _xrefs(ged)
    problems += _partners(ged)
    problems.sort(key=lambda p: (p.line or 0, not p.refuse))
    return text, ged, _capped(problems)


def _capped(problems: list[InputProblem]) -> list[InputProblem]:
    """At most `MAX_EACH` problems of a kind, then one saying how many more: a hostile file
    with a million NULs gets a short list, not a million rows of metadata."""
    seen: dict[str, int] = {}
    out: list[InputProblem] = []
    for p in problems:
        n = seen[p.kind] = seen.get(p.kind, 0) + 1
        if n <= MAX_EACH:
            out.append(p)
    for kind, n in seen.items():
        if n > MAX_EACH:
            first = next(p for p in out if p.kind == kind)
            out.append(InputProblem(kind, f"{n - MAX_EACH} more problems like the one on line "
                                    f"{first.line}", None, None, first.refuse))
    return out


def _controls(text: str) -> list[InputProblem]:
    """One problem per line holding control characters, named by its tag (in one pass)."""
    out: list[InputProblem] = []
    nl = "\n" if "\n" in text else "\r"
    line, pos, last, start = 1, 0, 0, 0
    for m in _CONTROL.finditer(text):
        k = text.rfind(nl, pos, m.start())
        if k >= 0:  # a later line than the previous match's
            line += text.count(nl, pos, m.start())
            start = k + 1
        pos = m.start()
        if line == last:
            continue
        last = line
        tag = _TAG_OF.match(text, start)
        name = "NUL" if m.group() == "\x00" else f"control character U+{ord(m.group()):04X}"
        out.append(InputProblem("control_character", f"{name} in the line's text",
                                line, tag.group(1).upper() if tag else None))
    return out


def _xrefs(ged: Gedcom) -> list[InputProblem]:
    """Duplicate xrefs (refused: the reader keeps one record, the other is lost) and
    pointers to xrefs no record defines (refused, but for an extension tag's)."""
    v7 = (ged.version or "").strip().startswith("7")
    out: list[InputProblem] = []
    defined: dict[str, int] = {}
    folded: set[str] = set()
    for rec in ged.records:
        x = rec.xref
        if x is None:
            continue
        folded.add(x.upper())
        if x in defined:
            out.append(InputProblem(
                "duplicate_xref", f"{x} is defined twice (first on line {defined[x]}); "
                "one of the two records would be lost", rec.line, rec.tag))
        else:
            defined[x] = rec.line
    stack = [c for r in ged.records for c in reversed(r.children)]
    while stack:
        node = stack.pop()
        if node.children:
            stack.extend(reversed(node.children))
        if node._v.__class__ is int and not node._v:
            continue  # no value: no pointer (most structures with children)
        target = node.pointer
        if target is None or target in defined or target == _VOID:
            continue
        if not v7 and target.upper() in folded:
            continue  # before GEDCOM 7 an xref's case did not matter
        out.append(InputProblem(
            "dangling_pointer", f"{node.tag} points to {target}, which no record defines",
            node.line, node.tag, refuse=not node.tag.startswith("_")))
    return out


def _partners(ged: Gedcom) -> list[InputProblem]:
    """A family with a second HUSB or WIFE: 5.5.1 and 7.0 allow one of each (a same-sex
    couple is HUSB and WIFE), and a reader keeps the first, so the second partner's link is
    read by some programs and lost by others. Warned about: the people are still there."""
    out: list[InputProblem] = []
    for rec in ged.of_tag("FAM"):
        seen: dict[str, str] = {}
        for node in rec.children:
            if node.tag not in ("HUSB", "WIFE") or node.pointer is None:
                continue
            if node.tag in seen:
                out.append(InputProblem(
                    "partner_repeated", f"{rec.xref} has a second {node.tag} ({node.pointer} "
                    f"after {seen[node.tag]}); a family has at most one HUSB and one WIFE",
                    node.line, node.tag, refuse=False))
            else:
                seen[node.tag] = node.pointer
    return out


def read_gedcom_file(path: Path, *, strict: bool = True) -> Gedcom:
    """A GEDCOM file decoded (its charset, ANSEL included), checked and parsed: the one way
    the resolver and the quality checks read a tree from disk. Raises InputError naming the
    file (and, when `strict`, the line of its first refusing problem; or its size, past the
    GEDCOM limit of `sleuth.model.limits`, before it is read); the problems are in the
    tree's `issues`."""
    try:
        limits.check_size("gedcom", path.stat().st_size, str(path))  # before it is read
        raw = path.read_bytes()
    except FileNotFoundError:
        raise InputError("no such file", file=str(path)) from None
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror}", file=str(path)) from None
    _, ged, problems = check_gedcom(decode_gedcom(raw), file=str(path))
    refused = [p for p in problems if p.refuse]
    if strict and refused:
        raise refused[0].error(str(path))
    ged.issues = problems
    return ged
