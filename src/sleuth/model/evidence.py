"""The Evidence Explained axes (Mills): how a citation is weighed, beyond seed 001's one axis.

Seed 001's `EvidenceType` (primary / secondary / authored) mixes two questions that Evidence
Explained keeps apart: what kind of *source* is it (an original, a copy of one, or someone's
compiled conclusions) and how did the *informant* know each fact (first-hand or not). A third
axis depends on the question asked: whether a piece of evidence answers it by itself. These
enums are plain data, so the model stays importable without the database.
"""

from __future__ import annotations

from enum import StrEnum


class SourceClass(StrEnum):
    """What the source is, as a whole."""

    ORIGINAL = "original"  # the first recording, or an image of it
    DERIVATIVE = "derivative"  # an index, abstract, transcription or database entry of one
    AUTHORED = "authored"  # a compiled work: a user tree, an encyclopedia, a biography


class InformationClass(StrEnum):
    """How the informant knew one fact (it varies field by field inside one source)."""

    PRIMARY = "primary"  # first-hand: present at the event, or recorded it at the time
    SECONDARY = "secondary"  # second-hand: hearsay, recollection long after, or a summary
    UNDETERMINED = "undetermined"  # the informant is unknown


class EvidenceClass(StrEnum):
    """How a fact bears on one research question."""

    DIRECT = "direct"  # answers the question by itself
    INDIRECT = "indirect"  # answers it only combined with other evidence
    NEGATIVE = "negative"  # an absence where the record should speak (a search with no hit)


class ResearchQuestion(StrEnum):
    """The questions a proof argument is written for, per person."""

    BIRTH = "birth"
    DEATH = "death"
    PARENTS = "parents"
    MARRIAGE = "marriage"


class SourceKind(StrEnum):
    """What kind of record a snapshot is (a source's spec names the kind of its pages)."""

    WIKITREE_PROFILE = "wikitree_profile"
    WIKIDATA_ENTITY = "wikidata_entity"
    WIKIPEDIA_ARTICLE = "wikipedia_article"
    FAMILYSEARCH_RECORD = "familysearch_record"
    NEWSPAPER_PAGE = "newspaper_page"
    PARISH_REGISTER = "parish_register"
    CENSUS = "census"
    GEDCOM_FILE = "gedcom_file"
    MEMORIAL = "memorial"  # a Find a Grave memorial page (gravestone, dates, short biography)
    LOCAL_DOCUMENT = "local_document"
