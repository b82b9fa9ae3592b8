"""to_jsonld: schema.org shape, citations on every fact, conflicts intact, nothing private."""

from __future__ import annotations

import json
from types import ModuleType
from typing import Any

from sleuth.export import to_jsonld
from sleuth.model import CaseGraph


def _nodes(doc: dict[str, Any], kind: str) -> dict[str, dict[str, Any]]:
    return {n["@id"]: n for n in doc["@graph"] if n["@type"] == kind}


def test_valid_json_with_context_and_node_types(family: CaseGraph, fam: ModuleType) -> None:
    doc = to_jsonld(family, today=fam.TODAY)
    again = json.loads(json.dumps(doc))
    assert again["@context"] == ["https://schema.org", {"sleuth": "urn:sleuth:vocab:"}]
    kinds = {n["@type"] for n in again["@graph"]}
    assert {"Person", "Event", "CreativeWork", "Dataset", "Thing"} <= kinds
    assert all("@id" in n for n in again["@graph"])


def test_person_nodes(family: CaseGraph, fam: ModuleType) -> None:
    people = _nodes(to_jsonld(family, today=fam.TODAY), "Person")
    thomas = people["urn:sleuth:person:thomas"]
    assert thomas["deathDate"] == fam.THOMAS_DEATH_ISO
    assert thomas["birthPlace"] == {
        "@type": "Place",
        "name": "Springfield, Sangamon, Illinois, USA",
    }
    assert thomas["children"] == [{"@id": "urn:sleuth:person:robert"}]
    assert people["urn:sleuth:person:robert"]["birthDate"] == fam.ROBERT_BIRTH_ISO
    emma = people["urn:sleuth:person:emma"]
    assert emma["sleuth:living"] is True and emma["birthDate"] == "1990/1999"
    assert emma["birthPlace"]["name"] == "USA"
    assert emma["parent"] == [{"@id": "urn:sleuth:person:robert"}]


def test_every_exported_claim_has_a_citation_with_position(
    family: CaseGraph, fam: ModuleType
) -> None:
    doc = to_jsonld(family, today=fam.TODAY)
    cited: set[str] = set()
    claims: list[dict[str, Any]] = []
    for node in doc["@graph"]:
        claims.extend(node.get("sleuth:claims", []))
        for work in [*node.get("citation", []), *node.get("subjectOf", [])]:
            if work.get("@type") == "CreativeWork":
                assert work["position"].startswith("chars ")
                assert work["@id"].startswith("urn:sleuth:snapshot:")
                cited.add(work["@id"])
    assert claims
    for claim in claims:
        assert claim["citation"], claim["@id"]
        assert {c["@id"] for c in claim["citation"]} <= cited
    ids = {c["@id"] for c in claims}
    assert "urn:sleuth:assertion:a-t-nocite" not in ids  # unsourced: not exported


def test_conflicting_alternatives_all_appear(family: CaseGraph, fam: ModuleType) -> None:
    doc = to_jsonld(family, today=fam.TODAY)
    birth = _nodes(doc, "Event")["urn:sleuth:event:thomas:birth"]
    assert birth["sleuth:status"] == "tentative"
    values = {c["value"] for c in birth["sleuth:claims"]}
    assert values == {"abt 1900", "3 March 1902"}
    assert birth["startDate"] == "1902-03-03"  # the recommended claim
    texts = {c["text"] for c in birth["citation"]}
    assert {"age 10", "Thomas Whitfield was born the 3rd of March 1902"} <= texts
    conflict = _nodes(doc, "Thing")["urn:sleuth:conflict:c-thomas-birth"]
    assert [c["value"] for c in conflict["sleuth:competing"]] == ["3 March 1902", "abt 1900"]
    assert conflict["sleuth:tentative"] is True and conflict["potentialAction"]


def test_hypotheses_are_labelled_non_facts(family: CaseGraph, fam: ModuleType) -> None:
    works = _nodes(to_jsonld(family, today=fam.TODAY), "CreativeWork")
    hyp = works["urn:sleuth:hypothesis:h-1"]
    assert hyp["sleuth:isFact"] is False and hyp["name"] == "Hypothesis (not a fact)"


def test_no_living_secret_in_jsonld(family: CaseGraph, fam: ModuleType) -> None:
    text = json.dumps(to_jsonld(family, today=fam.TODAY)).lower()
    for secret in fam.EMMA_SECRETS:
        assert secret.lower() not in text, secret


def test_export_does_not_mutate_input(family: CaseGraph, fam: ModuleType) -> None:
    before = family.model_dump(mode="json")
    to_jsonld(family, today=fam.TODAY)
    assert family.model_dump(mode="json") == before
