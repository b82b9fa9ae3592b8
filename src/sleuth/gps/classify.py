"""Evidence Explained classes of a citation, derived by documented rules from the store.

Every citation already has a snapshot (its kind, record event and `evidence_type`) and a
field; that is enough to classify it, so old cases need no re-extraction. A person can
override any class for one citation (`sleuth.gps.overrides`); rules are the default only.

Source class (`source_class`), first rule that applies:

1. WikiTree, Wikidata, Wikipedia, GEDCOM files and FamilySearch tree profiles (a GEDCOM X
   document without a record collection) are compiled works: **authored**.
2. FamilySearch historical records, FreeREG parish-register rows, FreeCEN census rows,
   newspaper OCR text and Find a Grave memorials are indexes or transcriptions of something
   else: **derivative** (the original is the register, the image, the printed page, the
   gravestone; FamilySearch names its image). A memorial's event is the burial.
3. A local document is **authored** when its snapshot says `authored`, **original** when it
   is a PDF (a scan or born-digital copy of the document itself) or its snapshot says
   `primary`, else **derivative** (a typed-up copy).

Information class (`information_class`), per fact:

1. Facts from an authored source are **undetermined**: the compiler's informants are unknown.
2. Facts from an obituary are **secondary** (written after the death, from hearsay), but
   for its death and burial when printed within `FRESH_DAYS` of them (**undetermined**:
   the informant may have been present). Facts from other newspaper content are
   **primary** when printed within `FRESH_DAYS` of the event (the page's own date,
   `model.documents`), **secondary** when printed more than a year after, else
   **undetermined**.
3. When the record's event is known (a death record, a baptism register...) a fact about
   that same event, or an identity fact (name, sex), is **primary**; parentage is primary
   only in birth and baptism records; anything else (a birth date on a death certificate,
   an age in a census) is **secondary**. `PRIMARY_FACTS` is the table.
4. When the event is unknown the snapshot's own `evidence_type` decides: primary → primary,
   secondary → secondary, authored → undetermined.

Evidence class (`evidence_class`), relative to a research question: a field in
`QUESTION_FIELDS[q].direct` answers it by itself (**direct**); one in `.indirect` only
together with other evidence (**indirect**: a baptism date bounds a birth, an age implies
it, a burial bounds a death, a sibling or a surname points at parents). A search that found
nothing is **negative** evidence (`sleuth.gps.coverage`); no field is negative by itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sleuth.gps.kinds import SourceInfo, SourceKind
from sleuth.model.citation import EvidenceType
from sleuth.model.dates import GenDate
from sleuth.model.documents import document_date
from sleuth.model.evidence import (
    EvidenceClass,
    InformationClass,
    ResearchQuestion,
    SourceClass,
)
from sleuth.model.records import NAME_PART_FIELDS, Snapshot

_AUTHORED_KINDS = frozenset({
    SourceKind.WIKITREE_PROFILE, SourceKind.WIKIDATA_ENTITY, SourceKind.WIKIPEDIA_ARTICLE,
    SourceKind.GEDCOM_FILE,
})
_DERIVATIVE_KINDS = frozenset({
    SourceKind.FAMILYSEARCH_RECORD, SourceKind.PARISH_REGISTER, SourceKind.CENSUS,
    SourceKind.NEWSPAPER_PAGE, SourceKind.MEMORIAL,
})
FRESH_DAYS = 31  # a newspaper's report this soon after an event is likely first-hand
IDENTITY_FIELDS = frozenset({"name", "sex", "gender", *NAME_PART_FIELDS})
PARENT_FIELDS = frozenset({"parent", "child", "father", "mother", "father_qid", "mother_qid",
                           "child_qid"})

# record event -> fact events its informant knew first-hand ("identity" = name, sex)
PRIMARY_FACTS: dict[str, frozenset[str]] = {
    "birth": frozenset({"birth", "parents", "identity"}),
    "baptism": frozenset({"baptism", "parents", "identity"}),
    "death": frozenset({"death", "identity"}),
    "burial": frozenset({"burial", "identity"}),
    "marriage": frozenset({"marriage", "identity"}),
    "census": frozenset({"residence", "identity"}),
    "military": frozenset({"military", "residence", "identity"}),
    "probate": frozenset({"probate", "identity"}),
    "divorce": frozenset({"divorce", "marriage", "identity"}),
}


@dataclass(frozen=True)
class QuestionFields:
    direct: frozenset[str]
    indirect: frozenset[str]


QUESTION_FIELDS: dict[ResearchQuestion, QuestionFields] = {
    ResearchQuestion.BIRTH: QuestionFields(
        frozenset({"birth_date", "birth_place"}),
        frozenset({"baptism_date", "baptism_place", "christening_date", "christening_place",
                   "age", "age_at_death", "age_at_burial", "age_at_marriage", "age_at_census",
                   "birth_registration_date", "birth_year"}),
    ),
    ResearchQuestion.DEATH: QuestionFields(
        frozenset({"death_date", "death_place"}),
        frozenset({"burial_date", "burial_place", "death_registration_date", "probate_date",
                   "probate_place", "age_at_death", "cause_of_death"}),
    ),
    ResearchQuestion.PARENTS: QuestionFields(
        frozenset({"parent", "father", "mother", "father_qid", "mother_qid"}),
        frozenset({"sibling", "birth_surname", "surname"}),
    ),
    ResearchQuestion.MARRIAGE: QuestionFields(
        frozenset({"marriage_date", "marriage_place", "spouse", "spouse_qid"}),
        frozenset({"marriage_banns_date", "marriage_license_date", "divorce_date",
                   "marriage_registration_date"}),
    ),
}


def fact_event(field_name: str) -> str:
    """The event a field is about: birth, death, parents, identity, residence..."""
    f = field_name
    if f in IDENTITY_FIELDS:
        return "identity"
    if f in PARENT_FIELDS:
        return "parents"
    if f in ("spouse", "spouse_qid"):
        return "marriage"
    if f.startswith("age"):
        return "age"
    for ev in ("birth", "baptism", "christening", "death", "burial", "marriage", "divorce",
               "probate", "military", "residence", "census"):
        if f.startswith(ev):
            return {"christening": "baptism", "census": "residence"}.get(ev, ev)
    return "other"


@dataclass
class Classes:
    """The three classes of one citation for one field (and question), with the reasons."""

    source: SourceClass
    information: InformationClass
    evidence: EvidenceClass | None  # None: the field does not bear on the question
    why: list[str] = field(default_factory=list)
    overridden: list[str] = field(default_factory=list)  # which axes a person set


def source_class(snap: Snapshot, info: SourceInfo) -> tuple[SourceClass, str]:
    kind = info.kind
    if kind in _AUTHORED_KINDS:
        return SourceClass.AUTHORED, f"{kind} is a compiled work"
    if kind is SourceKind.FAMILYSEARCH_RECORD and info.event == "tree":
        return SourceClass.AUTHORED, "FamilySearch tree profile (no record collection)"
    if kind in _DERIVATIVE_KINDS:
        return SourceClass.DERIVATIVE, f"{kind} is an index or transcription of an original"
    et = EvidenceType(snap.evidence_type)
    if et is EvidenceType.AUTHORED:
        return SourceClass.AUTHORED, "snapshot marked authored"
    if snap.media_type == "application/pdf":
        return SourceClass.ORIGINAL, "a PDF copy of the document itself"
    if et is EvidenceType.PRIMARY:
        return SourceClass.ORIGINAL, "snapshot marked primary"
    return SourceClass.DERIVATIVE, "a text copy of a document"


def information_class(
    snap: Snapshot, info: SourceInfo, field_name: str, source: SourceClass,
    when: GenDate | None = None,
) -> tuple[InformationClass, str]:
    """See the module docstring; `when` is the fact's date, which beside the document's own
    date says how long after the event a newspaper wrote it down."""
    if source is SourceClass.AUTHORED:
        return InformationClass.UNDETERMINED, "authored work: informant unknown"
    if info.event in ("obituary", "newspaper"):
        return _newspaper_information(snap, info.event, field_name, when)
    event = fact_event(field_name)
    primary = PRIMARY_FACTS.get(info.event or "")
    if primary is not None:
        if event in primary:
            return InformationClass.PRIMARY, f"{info.event} record, fact about its own event"
        return InformationClass.SECONDARY, f"{info.event} record, fact about another event"
    et = EvidenceType(snap.evidence_type)
    if et is EvidenceType.PRIMARY:
        return InformationClass.PRIMARY, "record event unknown; snapshot marked primary"
    if et is EvidenceType.SECONDARY:
        return InformationClass.SECONDARY, "record event unknown; snapshot marked secondary"
    return InformationClass.UNDETERMINED, "record event unknown; snapshot marked authored"


def _newspaper_information(snap: Snapshot, event: str, field_name: str,
                           when: GenDate | None) -> tuple[InformationClass, str]:
    """A newspaper's information by how long after the event it was printed: within
    `FRESH_DAYS` a report is likely from those present (an obituary's death and burial may
    be; its other facts are hearsay), years later it is recollection."""
    day = document_date(snap)
    gap = (day - when.latest).days if day and when is not None and when.latest else None
    fresh = gap is not None and 0 <= gap <= FRESH_DAYS
    printed = f"printed {gap} days after the event ({day})" if gap is not None else ""
    if event == "obituary":
        if fresh and fact_event(field_name) in ("death", "burial"):
            return (InformationClass.UNDETERMINED,
                    f"obituary {printed}: the informant may have been present")
        return InformationClass.SECONDARY, "obituary: written after the event from hearsay"
    if fresh:
        return InformationClass.PRIMARY, f"newspaper report {printed}"
    if gap is not None and gap > 365:
        return (InformationClass.SECONDARY,
                f"newspaper item printed {gap // 365} years after the event ({day})")
    return InformationClass.UNDETERMINED, "newspaper item: informant unknown"


def evidence_class(field_name: str, question: ResearchQuestion) -> EvidenceClass | None:
    q = QUESTION_FIELDS[question]
    if field_name in q.direct:
        return EvidenceClass.DIRECT
    if field_name in q.indirect:
        return EvidenceClass.INDIRECT
    return None


def questions_for(field_name: str) -> list[tuple[ResearchQuestion, EvidenceClass]]:
    """Every research question a field bears on, with how."""
    out = []
    for q in ResearchQuestion:
        ev = evidence_class(field_name, q)
        if ev is not None:
            out.append((q, ev))
    return out


def classify(
    snap: Snapshot,
    info: SourceInfo,
    field_name: str,
    question: ResearchQuestion | None = None,
    when: GenDate | None = None,
) -> Classes:
    """The rule-derived classes of a citation of `field_name` (dated `when`) read from
    `snap`."""
    src, why_src = source_class(snap, info)
    inf, why_inf = information_class(snap, info, field_name, src, when)
    if question is None:
        bearing = questions_for(field_name)
        ev = bearing[0][1] if bearing else None
    else:
        ev = evidence_class(field_name, question)
    return Classes(src, inf, ev, [f"source: {why_src}", f"information: {why_inf}"])
