"""Extractors for structured records: each format module offers `detect` and `extract`.

`extract_record(snap, raw, spec)` returns the candidates of the first format that recognises
the snapshot, or None so the caller falls back to the prose extractor. `raw` is the exact
bytes read (HTML profiles need their markup; the snapshot text is the visible text). A
source written as YAML alone has no format module: when no dedicated extractor recognises
its page, the spec's CSS-selector `extraction` rules do (`selectors.py`); the caller passes
that spec (`sleuth.sources.registry.spec_of` finds the one a snapshot was fetched by).
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

from sleuth.extract import extract_text
from sleuth.extract.records import selectors
from sleuth.model import EvidenceType
from sleuth.model.records import Candidate, Snapshot

if TYPE_CHECKING:
    from sleuth.model.source_spec import SourceSpec

# Specific detectors first: GEDCOM X JSON (familysearch) before the other JSON APIs.
FORMATS: tuple[str, ...] = ("gedcom", "familysearch", "wikitree_api", "wikidata", "wikipedia",
                            "chronam", "freereg", "freecen", "wikitree")


def extract_record(snap: Snapshot, raw: bytes | None = None,
                   spec: SourceSpec | None = None) -> list[Candidate] | None:
    """Candidates from the first record format that recognises `snap`, else None: the
    parsers its source's spec names (`record.parsers`, in order), then the built-in formats
    (`FORMATS`: a file of no known source is recognised by its content)."""
    own = spec.record.parsers if spec is not None else ()
    builtin = (f"sleuth.extract.records.{name}" for name in FORMATS)
    for path in dict.fromkeys((*own, *builtin)):
        module = import_module(path)
        if module.detect(snap, raw):
            return module.extract(snap, raw)
    if raw is None or not snap.media_type.startswith(("text/html", "application/xhtml")):
        return None
    if spec is None or not spec.extraction:
        return None

    return with_prose(snap, selectors.extract(snap, raw, spec)) or None


# The formats read from JSON: a JSON file that none of them recognises has no known shape.
JSON_FORMATS: tuple[str, ...] = ("familysearch", "wikitree_api", "wikidata", "wikipedia")


def json_shape(snap: Snapshot, raw: bytes | None = None) -> str | None:
    """The JSON record format that recognises `snap` (strict input, issue 26), or None."""
    for name in JSON_FORMATS:
        if import_module(f"sleuth.extract.records.{name}").detect(snap, raw):
            return name
    return None


RELATIONS = frozenset({"parent", "child", "spouse", "sibling"})
RELATIVES = RELATIONS | {"name", "sex"}


def with_prose(snap: Snapshot, picked: list[Candidate]) -> list[Candidate]:
    """A selector-read page often has prose too (a memorial's biography names the parents):
    read it as prose about the page's person, keep what the selectors did not already say,
    and make that person one subject, so the two readings do not split them in two."""
    name = next((c.value for c in picked if c.field == "name"), None)
    if not picked or not name:
        return picked
    main, cited = picked[0].subject, picked[0].citation
    assert cited is not None, "a record extractor's candidates cite their record"
    prose = extract_text(snap.text, snap.id, page_starts=snap.page_starts,
                         evidence_type=EvidenceType(snap.evidence_type),
                         source_reliability=cited.source_reliability,
                         subject_hint=name)
    words = set(name.lower().split())
    theirs = {c.subject for c in prose
              if c.field == "name" and set(c.value.lower().split()) <= words}
    rename = {k: main if k in theirs else f"t{k}" for k in {c.subject for c in prose}}
    structured = {c.field for c in picked if c.subject == main}  # the selectors' own read
    # Only people the page's person is said to be related to: a page of labels glues
    # neighbouring lines into false names ("Senara Churchyard Alfred Pell").
    kin = {rename[c.related] for c in prose if rename[c.subject] == main
           and c.field in RELATIONS and c.related in rename}
    have = {(c.subject, c.field, c.value) for c in picked}
    out = list(picked)
    for c in prose:
        c = c.model_copy(update={"subject": rename[c.subject],
                                 "related": rename.get(c.related or "", c.related)})
        if c.field not in (RELATIONS if c.subject == main else RELATIVES) or (
                c.subject == main and c.field in structured) or (
                c.subject != main and c.subject not in kin):
            continue  # a page of labels is not prose: only who-is-related-to-whom is read
        if (c.subject, c.field, c.value) not in have:
            have.add((c.subject, c.field, c.value))
            out.append(c)
    return out
