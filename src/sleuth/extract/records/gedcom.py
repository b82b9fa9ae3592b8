"""GEDCOM 5.5.1 / 7.0 trees as evidence: every INDI/FAM fact cited by its own lines.

A user's tree is somebody's conclusions, so its facts come in as secondary, user-contributed
evidence. The excerpt of each candidate is the GEDCOM text that states it (`1 BIRT` / `2 DATE
ABT 1850` / `2 PLAC Boston`), with the line number as locator, so the firewall can find it in
the stored file byte for byte. Relationships are cited by the FAM lines that make them
(`1 CHIL @I3@`), and name the relative by xref because that is what those lines say.

The tree's own citations (`2 SOUR @S1@` / `3 PAGE` / `3 DATA` / `4 TEXT`, or a 5.5.1 inline
`SOUR text`) are carried explicitly: each candidate's rationale lists the cited source's xref,
title, PAGE and TEXT (a family link's: its CHIL line's, then its FAM record's), and the
excerpt takes in those lines whenever they fit. Each citation's `Locator.line` is the line of
the structure that states the fact, so everything else the tree says about it (its SOUR,
REPO, OBJE and NOTE records, notes, custom tags) is read back from the stored snapshot
whenever an output needs it (`sleuth.gedcom.tree`): nothing is lost, nothing is copied. The cited
TEXT does not become evidence of its own: it is the tree author's transcription of a record
we have not seen, and counting it beside the fact it supports would weigh one person's
conclusion twice. Whatever the snapshot was labelled, a tree is never primary evidence.
A DEAT's AGE in whole years (`2 AGE 67y`) is an `age_at_death` claim (`gedcom.age`).
Every other dated or placed event (EMIG, CENS, PROB, custom `_MILT`, ...) comes in as
`<kind>_date` / `<kind>_place`; FAM events (MARR, DIV, ENGA, ...) for each partner. A DATE
no range can be drawn from (`31 FEB 1900`, `SUBMITTED`, a phrase `(unknown)`) is kept as
written, its words the value: nothing the tree says is dropped, and `sleuth check` finds it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from sleuth.extract.dates import parse_date, parse_date_checked
from sleuth.extract.records.common import RecordDoc
from sleuth.gedcom.age import whole_years
from sleuth.gedcom.reader import Node, parse_gedcom
from sleuth.model import limits
from sleuth.model.citation import Citation, EvidenceType, Locator
from sleuth.model.dates import DateQualifier, GenDate
from sleuth.model.ids import new_id
from sleuth.model.records import Candidate, Snapshot
from sleuth.model.trusted import trusted

MAX_EXCERPT = 400
MAX_LINK = 2000  # a FAM's HUSB ... CHIL lines can sit far apart; beyond this, no citation
CONFIDENCE = 0.9  # how surely the lines say this; their evidential weight is separate
INDI_EVENTS = {
    "BIRT": "birth", "CHR": "baptism", "BAPM": "baptism", "DEAT": "death", "BURI": "burial",
    "CREM": "burial", "RESI": "residence", "CHRA": "adult_christening", "ADOP": "adoption",
    "BARM": "bar_mitzvah", "BASM": "bas_mitzvah", "BLES": "blessing", "CONF": "confirmation",
    "FCOM": "first_communion", "ORDN": "ordination", "NATU": "naturalization",
    "EMIG": "emigration", "IMMI": "immigration", "CENS": "census", "PROB": "probate",
    "WILL": "will", "GRAD": "graduation", "RETI": "retirement",
}
FAMILY_EVENTS = {
    "MARR": "marriage", "DIV": "divorce", "DIVF": "divorce_filed", "ENGA": "engagement",
    "ANUL": "annulment", "MARB": "marriage_banns", "MARC": "marriage_contract",
    "MARL": "marriage_license", "MARS": "marriage_settlement",
}
MAX_CITED = 300  # characters of the tree's own citations quoted in a rationale
_SLASH = re.compile(r"\s*/\s*")
_SPACES = re.compile(r"\s+")


def detect(snap: Snapshot, raw: bytes | None) -> bool:
    return snap.media_type == "text/x-gedcom" or snap.text.lstrip("\ufeff").startswith("0 HEAD")


def display_name(value: str) -> str:
    """`John /Smith/ Jr.` as a person would write it: `John Smith Jr.`."""
    return _SPACES.sub(" ", _SLASH.sub(" ", value)).strip()


def _excerpt(text: str, record: Node, node: Node, upto: Node | None = None) -> tuple[int, int]:
    """From the record's first line (who) down to the line that states the fact (what).

    Long records fall back to the fact's own structure, then to the line that matters
    (`upto`, a DATE or PLAC) with the whole lines just above it for context.
    """
    need = max(node.end, upto.end) if upto is not None else node.end
    for s, e in ((record.start, node.span[1]), (record.start, need), (node.start, need)):
        if e - s <= MAX_EXCERPT:
            return s, e
    if upto is None:
        return node.start, min(node.end, node.start + MAX_EXCERPT)
    lo = text.find("\n", max(node.start, upto.start - 200), upto.start)
    return (upto.start if lo < 0 else lo + 1), upto.end


def extract(snap: Snapshot, raw: bytes | None = None) -> list[Candidate]:
    return list(iter_extract(snap, raw))


def iter_extract(snap: Snapshot, raw: bytes | None = None) -> Iterator[Candidate]:
    """`extract`, one record's candidates at a time, in the same order with the same ids:
    `sleuth ingest` of a 100,000-person tree then never holds its million candidates at
    once (issue 19). Names of every INDI first (so relatives are known by the time FAMs
    link them), then each INDI's facts, then each FAM's."""
    # a stored file was checked as it was read: one `--lenient` stored without HEAD is read
    ged = parse_gedcom(snap.text, file=snap.path or snap.url, require_head=False)
    stated = EvidenceType(snap.evidence_type)
    doc = _Doc(snap.text, snap.id, method="gedcom", source_reliability=0.5,
               per_statement=True,
               evidence_type=EvidenceType.SECONDARY if stated == EvidenceType.PRIMARY
               else stated)
    sources = {r.xref: (r.value_of("TITL") or r.value or "").strip()
               for r in ged.of_tag("SOUR") if r.xref}
    people, families = ged.of_tag("INDI"), ged.of_tag("FAM")
    # Each record is let go once read for the last time, so a large tree's candidates,
    # which the caller keeps, take the memory its records held (issue 19: < 2 GB)
    del ged
    for indi in people:
        limits.checkpoint()
        key = indi.xref or f"line{indi.line}"
        for i, name in enumerate(indi.all("NAME")):
            shown = display_name(name.value)
            if shown:
                if i == 0:
                    doc.names[key] = shown
                doc.emit(key, "name", shown, _excerpt(doc.text, indi, name), CONFIDENCE,
                         _why("NAME line of the INDI record", [name, indi], sources),
                         line=name.line)
        yield from doc.record_done()
    for indi in _each_once(people):
        limits.checkpoint()
        key = indi.xref or f"line{indi.line}"
        sex = indi.first("SEX")
        if sex is not None and sex.value.strip()[:1].upper() in ("M", "F"):
            doc.emit(key, "sex", sex.value.strip()[:1].upper(), _excerpt(doc.text, indi, sex),
                     CONFIDENCE, "SEX line", line=sex.line)
        for occu in indi.all("OCCU"):
            if occu.value.strip():
                doc.emit(key, "occupation", occu.value.strip(), _excerpt(doc.text, indi, occu),
                         CONFIDENCE, "OCCU line", line=occu.line)
        for ev in indi.children:
            kind = INDI_EVENTS.get(ev.tag) or (ev.tag.lower() if _custom_event(ev) else None)
            if kind:
                _event(doc, key, indi, ev, kind, sources)
        if doc.out:
            yield from doc.record_done()
    for fam in _each_once(families):
        limits.checkpoint()
        _family(doc, fam, sources)
        if doc.out:
            yield from doc.record_done()


def _each_once(records: list[Node]) -> Iterator[Node]:
    """The records in order, each removed from the list as it is handed out."""
    records.reverse()
    while records:
        yield records.pop()


class _Doc(RecordDoc):
    """`RecordDoc` for a tree read record by record. Duplicates are looked for within the
    record at hand: every span lies inside its own record and a key holds the span, so
    nothing outside it can repeat one, and the set stays small. Each candidate is built
    as `RecordDoc.emit` builds it, from values that are valid by construction here (a
    non-empty key and field, a span inside the text, a line number, a float confidence),
    without validating them again (`model.trusted`: a fifth of the extraction)."""

    def record_done(self) -> list[Candidate]:
        done, self.out = self.out, []
        self._seen.clear()
        return done

    def emit(  # type: ignore[override]
        self,
        subject: str,
        field: str,
        value: str,
        span: tuple[int, int],
        confidence: float,
        rationale: str,
        *,
        date: GenDate | None = None,
        related: str | None = None,
        line: int | None = None,
    ) -> Candidate | None:
        s, e = span
        if not value or not (0 <= s < e <= len(self.text)):
            return None
        key = (subject, field, value, related, s, e)
        if key in self._seen:
            return None
        self._seen.add(key)
        method = self.method
        cite = trusted(Citation, {
            "snapshot_id": self.snapshot_id, "excerpt": self.text[s:e],
            "locator": trusted(Locator, {"start": s, "end": e, "page": self.page(s),
                                         "line": line}),
            "extraction_method": method, "source_reliability": self.reliability,
            "rationale": rationale, "match_status": None})
        cand = trusted(Candidate, {
            "id": new_id(), "subject": subject, "subject_name": self.names.get(subject),
            "field": field, "value": value, "date": date, "related": related,
            "related_name": self.names.get(related) if related else None,
            "confidence": round(float(confidence), 3), "citation": cite, "is_fact": True,
            "method": method, "evidence_type": self.evidence_type, "rationale": rationale,
            "replaces": None})
        self.out.append(cand)
        return cand


def _custom_event(ev: Node) -> bool:
    """A user-defined `_TAG` structure that states a dated or placed event (`1 _MILT`).

    `_NO` is how a 5.5.1 file writes 7.0's NO (an event that did *not* happen), so it is not
    one."""
    return ev.tag.startswith("_") and ev.tag != "_NO" and (
        ev.first("DATE") is not None or ev.first("PLAC") is not None)


def cited_sources(node: Node, sources: dict[str, str]) -> list[str]:
    """The tree's own citations on `node`: `S1 "Title" PAGE p. 12 TEXT ...` each."""
    out: list[str] = []
    for cite in node.all("SOUR"):
        if cite.pointer:
            xref = cite.pointer.strip("@")
            title = sources.get(cite.pointer)
            text = f'{xref} "{title}"' if title else xref
        elif cite.value.strip():
            text = f'unlinked "{cite.value.strip()}"'
        else:
            continue
        if page := (cite.value_of("PAGE") or "").strip():
            text += f" PAGE {page}"
        data = cite.first("DATA")
        for quoted in (data.all("TEXT") if data is not None else []) + cite.all("TEXT"):
            if quoted.value.strip():
                text += f" TEXT {_SPACES.sub(' ', quoted.value).strip()}"
        out.append(text)
    return out


def _why(what: str, nodes: list[Node], sources: dict[str, str]) -> str:
    cited = [c for node in nodes for c in cited_sources(node, sources)]
    if not cited:
        return what
    quoted = "; ".join(cited)
    if len(quoted) > MAX_CITED:
        quoted = quoted[:MAX_CITED].rsplit(" ", 1)[0] + " …"  # never half a word or URL
    return f"{what}; the tree cites {quoted}"


_END_OF_LIFE = frozenset({"DEAT", "BURI", "CREM"})


@lru_cache(maxsize=16384)
def _parsed_date(text: str) -> GenDate | None:
    """`parse_date` of a DATE line's value, which depends on nothing else: the same words
    (a family event read for each partner, "ABT 1850" in many records) give the same
    (frozen) date, parsed and held once (issue 19)."""
    return parse_date(text)


@lru_cache(maxsize=4096)
def _as_written(text: str) -> tuple[GenDate, str]:
    """A DATE value no range can be drawn from (`31 FEB 1900`, `SUBMITTED`, a pure phrase
    `(unknown)`), kept as written with the reason: dropping it would lose what the tree
    says, and `sleuth check` reports it as the file's check does (invalid_birth_date)."""
    found = parse_date_checked(text)
    if found.date is not None and found.date.qualifier == DateQualifier.PHRASE:
        return found.date, "a date phrase"
    why = found.error or "not a date we can bound"
    # the words are the phrase; parentheses around them are GEDCOM's way to write one
    words = " ".join((text[1:-1] if text[:1] == "(" and text[-1:] == ")" else text).split())
    return GenDate(qualifier=DateQualifier.PHRASE, original=text, phrase=words or text), why


def _event(
    doc: RecordDoc, key: str, record: Node, ev: Node, kind: str, sources: dict[str, str]
) -> None:
    date_node, place_node = ev.first("DATE"), ev.first("PLAC")
    gd = _parsed_date(date_node.value) if date_node is not None else None
    written = date_node.value.strip() if date_node is not None else ""
    if date_node is not None and gd is not None and (gd.earliest or gd.latest):
        doc.emit(key, f"{kind}_date", gd.iso(), _excerpt(doc.text, record, ev, date_node),
                 CONFIDENCE, _why(f"{ev.tag} DATE in the tree", [ev], sources), date=gd,
                 line=ev.line)
    elif date_node is not None and any(ch.isalnum() for ch in written):
        # (a value of no letter or digit, as a redacted `███`, states nothing to keep)
        kept, why = _as_written(written)
        doc.emit(key, f"{kind}_date", kept.phrase, _excerpt(doc.text, record, ev, date_node),
                 CONFIDENCE, _why(f"{ev.tag} DATE in the tree, kept as written ({why})",
                                  [ev], sources), date=kept, line=ev.line)
    has_place = place_node is not None and bool(place_node.value.strip())
    if place_node is not None and has_place:
        field = "residence" if kind == "residence" else f"{kind}_place"
        doc.emit(key, field, place_node.value.strip(),
                 _excerpt(doc.text, record, ev, place_node), CONFIDENCE,
                 _why(f"{ev.tag} PLAC in the tree", [ev], sources), line=ev.line)
    age = ev.first("AGE") if ev.tag == "DEAT" else None
    if age is not None and (years := whole_years(age.value)) is not None:
        # the age at death a tree states (`2 AGE 67y`), as an obituary's "aged 67" is one
        doc.emit(key, "age_at_death", str(years), _excerpt(doc.text, record, ev, age),
                 CONFIDENCE, _why("DEAT AGE in the tree", [ev], sources), line=ev.line)
    dated = gd is not None and bool(gd.earliest or gd.latest)
    if ev.tag in _END_OF_LIFE and not dated and not has_place:
        # `1 DEAT Y` (or a bare DEAT/BURI with only sources) still says the person died:
        # death evidence the privacy rules must see, or a dead person would pass for living.
        doc.emit(key, "deceased", f"{ev.tag} {ev.value}".strip(),
                 _excerpt(doc.text, record, ev), CONFIDENCE,
                 _why(f"{ev.tag} without date or place in the tree", [ev], sources),
                 line=ev.line)


def _family(doc: RecordDoc, fam: Node, sources: dict[str, str]) -> None:
    husb = [n for n in fam.all("HUSB") if n.pointer]
    wife = [n for n in fam.all("WIFE") if n.pointer]
    partners = husb + wife
    why = _why(f"FAM {fam.xref or fam.line} in the tree", [fam], sources)
    for a in partners:
        for b in partners:
            if a is not b and (span := _link(fam, a, b)) is not None:
                doc.emit(str(a.pointer), "spouse", str(b.pointer), span, CONFIDENCE, why,
                         related=str(b.pointer), line=a.line)
        for ev in fam.children:
            if kind := FAMILY_EVENTS.get(ev.tag) or (
                ev.tag.lower() if _custom_event(ev) else None
            ):
                _event(doc, str(a.pointer), fam, ev, kind, sources)
    for child in fam.all("CHIL"):
        if not child.pointer:
            continue
        # a CHIL line's own citations (`2 SOUR` under it, as several programs write) first
        cwhy = _why(f"FAM {fam.xref or fam.line} in the tree", [child, fam], sources)
        for parent in partners:
            if (span := _link(fam, parent, child)) is not None:
                doc.emit(str(child.pointer), "parent", str(parent.pointer), span, CONFIDENCE,
                         cwhy, related=str(parent.pointer), line=child.line)


def _link(fam: Node, a: Node, b: Node) -> tuple[int, int] | None:
    """The FAM lines naming both people: from the record's first line if short enough."""
    lo, hi = min(a.start, b.start), max(a.end, b.end)
    if hi - fam.start <= MAX_EXCERPT:
        return fam.start, hi
    return (lo, hi) if hi - lo <= MAX_LINK else None
