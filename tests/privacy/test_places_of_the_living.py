"""A living person's place keeps its region only (issue 26, item 6): never a postal code or a
street, in any output (report, HTML, JSON-LD, GEDCOM 5.5.1 and 7, GEDCOM X)."""

from __future__ import annotations

import json

import pytest

from family_case import TODAY, claim, snap
from sleuth.export import to_gedcom, to_gedcomx, to_jsonld, to_report
from sleuth.export.html import to_html
from sleuth.model import CaseGraph, GenDate
from sleuth.privacy import censor
from sleuth.privacy.redaction import REDACTED, last_component

WEDDING = ("Emma Whitfield and Daniel Reyes were married June 5, 2015, at Springfield, "
           "IL 62704. They live at 12 Quarry Lane, Springfield, IL 62704.")


@pytest.mark.parametrize(("place", "kept"), [
    ("Springfield, IL 62704", "IL"),
    ("Springfield, Sangamon, Illinois, USA", "USA"),
    ("12 Quarry Lane", REDACTED),
    ("12 Quarry Lane, Springfield, IL 62704-1234", "IL"),
    ("London SW1A 1AA", "London"),
    ("Ottawa, ON K1A 0B1", "ON"),
    ("10115 Berlin", "Berlin"),
    ("Needmore", "Needmore"),
])
def test_a_place_is_cut_to_its_region_without_codes_or_streets(place: str, kept: str) -> None:
    assert last_component(place) == kept


def test_no_output_prints_a_living_couples_postal_code_or_street(family: CaseGraph) -> None:
    g = family.model_copy(deep=True)
    s = snap("s-wedding", "wedding notice", WEDDING)
    g.snapshots[s.id] = s
    g.assertions.setdefault("emma", []).extend([
        claim("a-e-marr", "emma", "marriage_place", "Springfield, IL 62704", s,
              "married June 5, 2015, at Springfield, IL 62704"),
        claim("a-e-marr-d", "emma", "marriage_date", "2015-06-05", s,
              "married June 5, 2015", when=GenDate.from_parts(2015, 6, 5)),
        claim("a-e-res", "emma", "residence", "12 Quarry Lane, Springfield, IL 62704", s,
              "They live at 12 Quarry Lane, Springfield, IL 62704"),
    ])
    safe = censor(g, today=TODAY)
    outputs = {
        "report": to_report(g, today=TODAY),
        "html": to_html(g, today=TODAY),
        "jsonld": json.dumps(to_jsonld(g, today=TODAY)),
        "gedcom": to_gedcom(g, today=TODAY),
        "gedcom7": to_gedcom(g, version="7.0", today=TODAY),
        "gedcomx": json.dumps(to_gedcomx(g, today=TODAY)),
        "view": safe.model_dump_json(),
    }
    for name, text in outputs.items():
        for secret in ("62704", "Quarry"):
            assert secret not in text, (name, secret)
