"""censor(): what is redacted for the living, what survives for the dead, and the input is
never touched."""

from __future__ import annotations

from types import ModuleType

from sleuth.model import CaseGraph, GenDate
from sleuth.privacy import LIVING_NAME, MENTIONS_LIVING, REDACTED_EXCERPT, censor, redact_text


def _strings(graph: CaseGraph) -> str:
    return graph.model_dump_json()


def test_input_graph_is_not_mutated(family: CaseGraph, fam: ModuleType) -> None:
    before = family.model_dump(mode="json")
    censor(family, today=fam.TODAY, mask_names=True)
    assert family.model_dump(mode="json") == before


def test_living_persons_are_classified(family: CaseGraph, fam: ModuleType) -> None:
    out = censor(family, today=fam.TODAY)
    living = {p.id: p.is_living for p in out.persons}
    assert living == {"thomas": False, "robert": False, "emma": True, "daniel": True}


def test_no_living_secret_survives_anywhere(family: CaseGraph, fam: ModuleType) -> None:
    text = _strings(censor(family, today=fam.TODAY))
    for secret in fam.EMMA_SECRETS:
        assert secret.lower() not in text.lower(), secret
    assert "1990-05-12" not in text


def test_living_birth_becomes_decade_and_place_region(family: CaseGraph, fam: ModuleType) -> None:
    out = censor(family, today=fam.TODAY)
    emma = out.person("emma")
    assert emma is not None and emma.birth is not None
    assert (emma.birth.earliest.isoformat(), emma.birth.latest.isoformat()) == (  # type: ignore[union-attr]
        "1990-01-01",
        "1999-12-31",
    )
    assert emma.birth.original == "1990s" and emma.birth.qualifier == "estimated"
    assert emma.birth_place == "USA"
    claims = {a.field_name: a for a in out.assertions["emma"]}
    assert claims["birth_date"].value == "1990s"
    assert claims["birth_place"].value == "USA"
    assert not {"email", "phone", "address"} & set(claims)
    assert emma.canonical_name == "Emma Whitfield"  # names kept by default
    assert all(c.excerpt == REDACTED_EXCERPT for a in claims.values() for c in a.citations)


def test_deceased_facts_are_untouched(family: CaseGraph, fam: ModuleType) -> None:
    out = censor(family, today=fam.TODAY)
    thomas = out.person("thomas")
    assert thomas is not None and thomas.death == GenDate.from_parts(1978, 11, 14)
    assert thomas.birth_place == "Springfield, Sangamon, Illinois, USA"
    assert out.assertions["thomas"] == family.assertions["thomas"]
    assert out.conflicts == family.conflicts
    assert out.snapshots["s-death"].text == family.snapshots["s-death"].text


def test_snapshot_text_dropped_only_when_cited_only_for_the_living(
    family: CaseGraph, fam: ModuleType
) -> None:
    out = censor(family, today=fam.TODAY)
    assert out.snapshots["s-bcert"].text == "" and out.snapshots["s-dir"].text == ""
    assert out.snapshots["s-bcert"].sha256 == family.snapshots["s-bcert"].sha256
    # the obituary is cited for Robert too: kept, but Emma's birthday is masked in place,
    # same length so every locator into it stays valid
    obit = out.snapshots["s-obit"].text
    assert len(obit) == len(fam.OBITUARY) and "12 May 1990" not in obit
    assert "died January 9, 2011" in obit


def test_contact_addresses_in_snapshot_metadata_are_masked(
    family: CaseGraph, fam: ModuleType
) -> None:
    """A fetch stores its request headers; the User-Agent names the user's contact address,
    which `sleuth show` printed for every fetched snapshot until the Censor read nested
    metadata too."""
    obit = family.snapshots["s-obit"]
    meta = {"status": 200, "request_headers": {"User-Agent": "sleuth/0.1 (+jo@example.com)"},
            "redirects": ["http://a.test/?mail=jo@example.com"]}
    graph = family.model_copy(update={"snapshots": {
        **family.snapshots, "s-obit": obit.model_copy(update={"metadata": meta})}})
    shown = censor(graph, today=fam.TODAY).snapshots["s-obit"].metadata
    assert "jo@example.com" not in repr(shown) and shown["status"] == 200
    assert shown["request_headers"]["User-Agent"].startswith("sleuth/0.1 (")


def test_other_persons_excerpt_quoting_a_living_person_is_withheld(
    family: CaseGraph, fam: ModuleType
) -> None:
    out = censor(family, today=fam.TODAY)
    child = next(a for a in out.assertions["robert"] if a.field_name == "child")
    assert child.citations[0].excerpt == MENTIONS_LIVING
    death = next(a for a in out.assertions["robert"] if a.field_name == "death_date")
    assert death.citations[0].excerpt == "died January 9, 2011"


def test_mask_names(family: CaseGraph, fam: ModuleType) -> None:
    out = censor(family, today=fam.TODAY, mask_names=True)
    emma = out.person("emma")
    assert emma is not None and emma.canonical_name == LIVING_NAME and emma.given_name == ""
    assert emma.parents == {"robert"}  # relationships kept
    assert "Emma Whitfield" not in _strings(out)
    robert_child = next(a for a in out.assertions["robert"] if a.field_name == "child")
    assert robert_child.value == LIVING_NAME


def test_redactions_are_logged(family: CaseGraph, fam: ModuleType) -> None:
    out = censor(family, today=fam.TODAY)
    assert out.redactions and all(
        {"person_id", "field", "action", "reason"} <= set(r) for r in out.redactions
    )
    actions = {(r["person_id"], r["field"], r["action"]) for r in out.redactions}
    assert ("emma", "email", "removed") in actions
    assert ("emma", "birth_date", "coarsened_to_decade") in actions
    assert (None, "snapshot:s-dir", "snapshot_text_dropped") in actions
    assert not family.redactions


def test_a_living_persons_age_at_death_is_removed(family: CaseGraph, fam: ModuleType) -> None:
    # a death record wrongly merged into someone known to be living: its age would date
    # their birth to the year, finer than the decade their dates are shown at
    emma = next(p for p in family.persons if p.id == "emma")
    emma.is_living = True
    obit = family.snapshots["s-obit"]
    family.assertions["emma"].append(fam.claim("a-e-age", "emma", "age_at_death", "34", obit,
                                               "Robert Whitfield, 75"))
    out = censor(family, today=fam.TODAY)
    assert not [a for a in out.assertions["emma"] if a.field_name == "age_at_death"]
    assert ("emma", "age_at_death", "removed") in {
        (r["person_id"], r["field"], r["action"]) for r in out.redactions}


def test_living_conflict_values_are_coarsened(family: CaseGraph, fam: ModuleType) -> None:
    from sleuth.model import Conflict, RankedClaim

    def ranked(aid: str, value: str, rank: int) -> RankedClaim:
        return RankedClaim(
            assertion_id=aid,
            value=value,
            weight=0.5,
            evidence_type="primary",
            tier=0,
            confidence=0.9,
            rank=rank,
            reason="r",
        )

    family.conflicts.append(
        Conflict(
            id="c-emma",
            person_id="emma",
            field="birth_date",
            competing=[ranked("a-e-birth", "May 12, 1990", 1), ranked("a-gone", "13 May 1990", 2)],
            recommended_assertion_id="a-e-birth",
            recommended_value="May 12, 1990",
            is_tentative=False,
            rationale="Certificate says May 12, 1990.",
        )
    )
    family.conflicts.append(
        Conflict(
            id="c-emma-mail",
            person_id="emma",
            field="email",
            competing=[ranked("a-e-email", fam.EMMA_EMAIL, 1)],
            recommended_assertion_id="a-e-email",
            recommended_value=fam.EMMA_EMAIL,
            is_tentative=False,
            rationale="",
        )
    )
    out = censor(family, today=fam.TODAY)
    conflict = next(c for c in out.conflicts if c.id == "c-emma")
    assert [rc.value for rc in conflict.competing] == ["1990s", "1990s"]  # both kept
    assert conflict.recommended_value == "1990s" and "1990" not in conflict.rationale
    assert all(c.id != "c-emma-mail" for c in out.conflicts)


def test_redact_text() -> None:
    text = "SSN 123-45-6789, mail a.b@example.co.uk, call (217) 555-0134 or +44 20 7946 0958."
    out = redact_text(text)
    for secret in ("123-45-6789", "a.b@example.co.uk", "555-0134", "7946"):
        assert secret not in out
    assert "[redacted: ssn]" in out and "[redacted: email]" in out and "[redacted: phone]" in out
    keep = "Born 1850-03-12, census 1880, roll 1234, chars 120-145, sha 3605bdbd13ee"
    assert redact_text(keep) == keep


def test_censor_is_idempotent_on_privacy(family: CaseGraph, fam: ModuleType) -> None:
    once = censor(family, today=fam.TODAY)
    twice = censor(once, today=fam.TODAY)
    assert [p.is_living for p in twice.persons] == [p.is_living for p in once.persons]
    assert twice.assertions == once.assertions
