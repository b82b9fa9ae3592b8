"""A hand-built three-generation case shared by the privacy and export tests.

Thomas Whitfield (deceased, two sources disagree on his birth year) -> Robert Whitfield
(deceased 2011; his obituary quotes his living daughter's birthday) -> Emma Whitfield (living,
born 12 May 1990, with e-mail, phone and address claims) who is married to Daniel Reyes
(no dates at all: living only because his spouse is).

Loaded by file path from both test folders' conftest.py, so it does not depend on sys.path.
"""

from __future__ import annotations

import hashlib
from datetime import UTC, date, datetime

from sleuth.model import (
    Assertion,
    AssertionStatus,
    CaseGraph,
    Citation,
    Conflict,
    EvidenceType,
    GenDate,
    Hypothesis,
    Locator,
    Person,
    RankedClaim,
    Snapshot,
    Tier,
)

TODAY = date(2025, 6, 1)
EMMA_BIRTH_FORMS = ("1990-05-12", "May 12, 1990", "12 May 1990", "12 MAY 1990", "05/12/1990")
EMMA_EMAIL = "emma.whitfield@example.com"
EMMA_PHONE = "(217) 555-0134"
EMMA_ADDRESS = "42 Maple Avenue"
EMMA_SECRETS = (*EMMA_BIRTH_FORMS, EMMA_EMAIL, EMMA_PHONE, "555-0134", EMMA_ADDRESS)
THOMAS_DEATH_ISO = "1978-11-14"
ROBERT_BIRTH_ISO = "1935-07-22"

CENSUS = (
    "1910 United States Federal Census, Sangamon County, Illinois. Dwelling 112. "
    "Whitfield, Thomas, son, male, white, age 10, born Illinois."
)
BIBLE = (
    "Births. Thomas Whitfield was born the 3rd of March 1902 at Springfield. "
    "Robert Whitfield, son of Thomas Whitfield, born 22 July 1935."
)
DEATH_CERT = (
    "State of Illinois Certificate of Death. Name: Thomas Whitfield. "
    "Date of death: 14 November 1978. Place of death: Springfield, Sangamon, Illinois. "
    "Burial: Oak Ridge Cemetery, 17 November 1978."
)
OBITUARY = (
    "Robert Whitfield, 75, of Springfield died January 9, 2011. "
    "He is survived by his daughter Emma, born 12 May 1990, of Springfield."
)
BIRTH_CERT = (
    "Certificate of Live Birth. Child: Emma Rose Whitfield. Date of birth: May 12, 1990. "
    "Place of birth: Springfield, Sangamon, Illinois, USA. Father: Robert Whitfield."
)
DIRECTORY = (
    "Springfield residents directory 2024. Emma Whitfield, 42 Maple Avenue, Springfield, "
    "IL 62704. Phone (217) 555-0134. Email emma.whitfield@example.com. Spouse: Daniel Reyes."
)


def snap(sid: str, name: str, text: str, *, url: str | None = None, **kw: object) -> Snapshot:
    return Snapshot(
        id=sid,
        sha256=hashlib.sha256(text.encode()).hexdigest(),
        url=url,
        path=None if url else f"/cases/whitfield/{sid}.txt",
        source_name=name,
        accessed_at=datetime(2024, 3, 1, 12, 0, tzinfo=UTC),
        text=text,
        **kw,  # type: ignore[arg-type]
    )


def cite(s: Snapshot, excerpt: str, page: int | None = None) -> Citation:
    start = s.text.index(excerpt)
    return Citation(
        snapshot_id=s.id,
        excerpt=excerpt,
        locator=Locator(start=start, end=start + len(excerpt), page=page),
    )


def claim(
    aid: str,
    pid: str,
    field: str,
    value: str,
    s: Snapshot,
    excerpt: str,
    *,
    when: GenDate | None = None,
    confidence: float = 0.9,
    status: AssertionStatus = AssertionStatus.VERIFIED,
) -> Assertion:
    return Assertion(
        id=aid,
        entity_id=pid,
        field_name=field,
        value=value,
        date=when,
        confidence=confidence,
        status=status,
        citations=[cite(s, excerpt)],
    )


def build_family() -> CaseGraph:
    census = snap(
        "s-census",
        "1910 US Census",
        CENSUS,
        url="https://example.org/census/1910/112",
        evidence_type=EvidenceType.SECONDARY,
        tier=Tier.TIER0,
    )
    bible = snap("s-bible", "Whitfield family bible", BIBLE, evidence_type=EvidenceType.PRIMARY)
    death = snap(
        "s-death",
        "Illinois death certificate",
        DEATH_CERT,
        url="https://example.org/il/death/1978/4411",
        evidence_type=EvidenceType.PRIMARY,
        page_starts=(0, 60),
    )
    obit = snap(
        "s-obit",
        "State Journal-Register obituary",
        OBITUARY,
        url="https://example.org/sjr/2011/01/11/whitfield",
    )
    bcert = snap(
        "s-bcert",
        "Illinois birth certificate",
        BIRTH_CERT,
        evidence_type=EvidenceType.PRIMARY,
        tier=Tier.TIER2,
    )
    directory = snap(
        "s-dir",
        "Springfield directory 2024",
        DIRECTORY,
        url="https://example.org/directory/whitfield",
    )

    thomas = Person(
        id="thomas",
        canonical_name="Thomas Whitfield",
        given_name="Thomas",
        surname="Whitfield",
        sex="M",
        birth=GenDate.from_parts(1902, 3, 3),
        death=GenDate.from_parts(1978, 11, 14),
        birth_place="Springfield, Sangamon, Illinois, USA",
        death_place="Springfield, Sangamon, Illinois",
        children={"robert"},
    )
    robert = Person(
        id="robert",
        canonical_name="Robert Whitfield",
        given_name="Robert",
        surname="Whitfield",
        sex="M",
        birth=GenDate.from_parts(1935, 7, 22),
        death=GenDate.from_parts(2011, 1, 9),
        parents={"thomas"},
        children={"emma"},
    )
    emma = Person(
        id="emma",
        canonical_name="Emma Whitfield",
        given_name="Emma",
        surname="Whitfield",
        sex="F",
        birth=GenDate.from_parts(1990, 5, 12),
        birth_place="Springfield, Sangamon, Illinois, USA",
        parents={"robert"},
        spouses={"daniel"},
    )
    daniel = Person(
        id="daniel",
        canonical_name="Daniel Reyes",
        given_name="Daniel",
        surname="Reyes",
        sex="M",
        spouses={"emma"},
    )

    assertions = {
        "thomas": [
            claim(
                "a-t-name", "thomas", "name", "Thomas Whitfield", death, "Name: Thomas Whitfield"
            ),
            claim(
                "a-t-birth-census",
                "thomas",
                "birth_date",
                "abt 1900",
                census,
                "age 10",
                when=GenDate(earliest=date(1899, 1, 1), latest=date(1900, 12, 31)),
                confidence=0.6,
                status=AssertionStatus.CONFLICTING,
            ),
            claim(
                "a-t-birth-bible",
                "thomas",
                "birth_date",
                "3 March 1902",
                bible,
                "Thomas Whitfield was born the 3rd of March 1902",
                when=GenDate.from_parts(1902, 3, 3),
                confidence=0.8,
                status=AssertionStatus.CONFLICTING,
            ),
            claim(
                "a-t-death",
                "thomas",
                "death_date",
                "14 November 1978",
                death,
                "Date of death: 14 November 1978",
                when=GenDate.from_parts(1978, 11, 14),
            ),
            claim(
                "a-t-dplace",
                "thomas",
                "death_place",
                "Springfield, Sangamon, Illinois",
                death,
                "Place of death: Springfield, Sangamon, Illinois",
            ),
            claim(
                "a-t-burial",
                "thomas",
                "burial_place",
                "Oak Ridge Cemetery",
                death,
                "Burial: Oak Ridge Cemetery",
            ),
            claim("a-t-nocite", "thomas", "occupation", "farmer", census, "Dwelling 112"),
        ],
        "robert": [
            claim(
                "a-r-birth",
                "robert",
                "birth_date",
                "22 July 1935",
                bible,
                "born 22 July 1935",
                when=GenDate.from_parts(1935, 7, 22),
            ),
            claim(
                "a-r-parent",
                "robert",
                "parent",
                "Thomas Whitfield",
                bible,
                "Robert Whitfield, son of Thomas Whitfield",
            ),
            claim(
                "a-r-death",
                "robert",
                "death_date",
                "January 9, 2011",
                obit,
                "died January 9, 2011",
                when=GenDate.from_parts(2011, 1, 9),
            ),
            claim(
                "a-r-child",
                "robert",
                "child",
                "Emma Whitfield",
                obit,
                "survived by his daughter Emma, born 12 May 1990",
            ),
        ],
        "emma": [
            claim(
                "a-e-name", "emma", "name", "Emma Whitfield", bcert, "Child: Emma Rose Whitfield"
            ),
            claim(
                "a-e-birth",
                "emma",
                "birth_date",
                "May 12, 1990",
                bcert,
                "Date of birth: May 12, 1990",
                when=GenDate.from_parts(1990, 5, 12),
            ),
            claim(
                "a-e-bplace",
                "emma",
                "birth_place",
                "Springfield, Sangamon, Illinois, USA",
                bcert,
                "Place of birth: Springfield, Sangamon, Illinois, USA",
            ),
            claim(
                "a-e-parent",
                "emma",
                "parent",
                "Robert Whitfield",
                bcert,
                "Father: Robert Whitfield",
            ),
            claim(
                "a-e-email",
                "emma",
                "email",
                EMMA_EMAIL,
                directory,
                "Email emma.whitfield@example.com",
            ),
            claim("a-e-phone", "emma", "phone", EMMA_PHONE, directory, "Phone (217) 555-0134"),
            claim(
                "a-e-address",
                "emma",
                "address",
                "42 Maple Avenue, Springfield, IL 62704",
                directory,
                "42 Maple Avenue, Springfield, IL 62704",
            ),
            claim(
                "a-e-spouse", "emma", "spouse", "Daniel Reyes", directory, "Spouse: Daniel Reyes"
            ),
        ],
        "daniel": [],
    }
    # one claim deliberately left without citations: it must never be stated
    assertions["thomas"][-1] = assertions["thomas"][-1].model_copy(update={"citations": []})

    conflict = Conflict(
        id="c-thomas-birth",
        person_id="thomas",
        field="birth_date",
        competing=[
            RankedClaim(
                assertion_id="a-t-birth-bible",
                value="3 March 1902",
                weight=0.64,
                evidence_type="primary",
                tier=0,
                confidence=0.8,
                rank=1,
                reason="primary family record",
            ),
            RankedClaim(
                assertion_id="a-t-birth-census",
                value="abt 1900",
                weight=0.336,
                evidence_type="secondary",
                tier=0,
                confidence=0.6,
                rank=2,
                reason="age given to an enumerator",
            ),
        ],
        recommended_assertion_id="a-t-birth-bible",
        recommended_value="3 March 1902",
        is_tentative=True,
        rationale="The bible entry is primary but was written by the family; the census "
        "age implies 1899-1900.",
        next_actions=["Search Illinois delayed birth registrations for Thomas Whitfield"],
    )
    hypothesis = Hypothesis(
        id="h-1",
        hypothesis_type="migration",
        statement="Thomas Whitfield's parents may have come from Kentucky.",
        target_person="thomas",
        suggested_queries=["Whitfield Kentucky 1890"],
        priority=0.4,
    )
    return CaseGraph(
        title="Whitfield family of Springfield",
        persons=[thomas, robert, emma, daniel],
        assertions=assertions,
        snapshots={s.id: s for s in (census, bible, death, obit, bcert, directory)},
        conflicts=[conflict],
        hypotheses=[hypothesis],
        review_open=2,
    )
