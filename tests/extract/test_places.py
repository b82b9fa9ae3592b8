"""Place parsing and normalisation, checked against FamilySearch and Library of Congress."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sleuth.extract.places import (
    Place,
    parse_lc_place,
    parse_place,
    place_contains,
    place_overlap,
    read_place,
    same_place,
)


def test_buck_valley() -> None:
    p = parse_place("Buck Valley, Fulton Co., Pa.")
    assert (p.locality, p.county, p.state, p.country) == (
        "Buck Valley", "Fulton County", "Pennsylvania", "United States")
    assert p.inferred == {"country"}  # the text never says "United States"
    assert p.parts == ("United States", "Pennsylvania", "Fulton County", "Buck Valley")
    assert p.normalised == "Buck Valley, Fulton County, Pennsylvania, United States"


@pytest.mark.parametrize(
    ("text", "state"),
    [("Penna.", "Pennsylvania"), ("Mass.", "Massachusetts"), ("N.Y.", "New York"),
     ("N. Y.", "New York"), ("Ind.", "Indiana"), ("Ill.", "Illinois"), ("Kans.", "Kansas"),
     ("Ky.", "Kentucky"), ("Tenn.", "Tennessee"), ("Wis.", "Wisconsin"),
     ("Minn.", "Minnesota"), ("Neb.", "Nebraska"), ("Okla.", "Oklahoma"), ("Ia.", "Iowa"),
     ("Mich.", "Michigan"), ("Cal.", "California"), ("Colo.", "Colorado"),
     ("Wash.", "Washington"), ("Ore.", "Oregon"), ("Tex.", "Texas"), ("Va.", "Virginia"),
     ("W. Va.", "West Virginia"), ("N. C.", "North Carolina"), ("S. C.", "South Carolina"),
     ("Ga.", "Georgia"), ("Ala.", "Alabama"), ("Miss.", "Mississippi"), ("La.", "Louisiana"),
     ("Ark.", "Arkansas"), ("Mo.", "Missouri"), ("Md.", "Maryland"), ("Del.", "Delaware"),
     ("N. J.", "New Jersey"), ("Conn.", "Connecticut"), ("R. I.", "Rhode Island"),
     ("Vt.", "Vermont"), ("N. H.", "New Hampshire"), ("Me.", "Maine"),
     ("D. C.", "District of Columbia"), ("O.", "Ohio"), ("MA", "Massachusetts")],
)
def test_state_abbreviations(text: str, state: str) -> None:
    p = parse_place(f"Springfield, {text}")
    assert (p.locality, p.state, p.country) == ("Springfield", state, "United States")


def test_other_countries_and_labels() -> None:
    assert parse_place("Toronto, Ont.").state == "Ontario"
    assert parse_place("Halifax, N.S.").country == "Canada"
    c = parse_place("Caldecote, HRT")  # FreeREG Chapman code
    assert (c.county, c.state, c.country) == ("Hertfordshire", "England", "United Kingdom")
    y = parse_place("Yielden, Beds, England")
    assert y.county == "Bedfordshire" and "country" in y.inferred
    i = parse_place("Street, County Longford, Ireland")
    assert (i.locality, i.county, i.country) == ("Street", "Longford", "Ireland")
    t = parse_place("Harrison Twp., Logan Co., Ohio")
    assert (t.township, t.county) == ("Harrison Township", "Logan County")
    assert parse_place("Plaquemines Par., La.").county == "Plaquemines Parish"
    g = parse_place("Boston, , Suffolk County, MA, USA")  # GEDCOM jurisdiction slots
    assert (g.locality, g.township, g.county) == ("Boston", None, "Suffolk County")
    assert parse_place("Macon, , Georgia").locality == "Macon"
    assert parse_place("Celina, O. [Ohio]").state == "Ohio"
    assert parse_place("Posen, Preußen, Deutschland").country == "Germany"


def test_unknown_is_kept_not_guessed() -> None:
    p = parse_place("Stratford-upon-Avon")
    assert p.locality == "Stratford-upon-Avon" and p.country is None and not p.inferred
    s = parse_place("Suffolk")  # an English county and a Virginia city: not decided
    assert s.country is None and s.state is None
    f = parse_place(", Versailles, 78646, Yvelines, Île-de-France, FRANCE")
    assert f.country == "France" and f.locality == "Versailles"
    assert f.region == ("Île-de-France", "Yvelines", "78646")
    assert parse_place("").is_empty and parse_place(" , , ").is_empty


def test_relative_places_resolve_only_against_the_publication_place() -> None:
    pub = "Mansfield, Wright County, Mo."
    c = parse_place("this county", publication_place=pub)
    assert (c.county, c.state, c.locality) == ("Wright County", "Missouri", None)
    assert c.resolved_from == pub and c.relative is None
    h = parse_place("here", publication_place=pub)
    assert h.locality == "Mansfield"
    u = parse_place("this county")
    assert u.relative == "this county" and u.is_empty
    # The publication place names no county: the state is known, the county stays open.
    o = parse_place("in this county", publication_place="El Paso, Tex.")
    assert o.relative == "this county" and o.county is None and o.state == "Texas"


def test_containment_and_overlap() -> None:
    outer = parse_place("Fulton County, Pennsylvania")
    inner = parse_place("Buck Valley, Fulton Co., Pa.")
    assert place_contains(outer, inner) and not place_contains(inner, outer)
    assert same_place(outer, inner) and place_overlap(outer, inner) == 0.75
    assert place_overlap(parse_place("Pennsylvania"), inner) == 0.5
    assert not same_place(parse_place("Ohio"), inner)
    assert place_overlap(parse_place("Fulton Co., Ohio"), inner) == 0.0
    assert same_place(parse_place("St. Louis, Mo."), parse_place("Saint Louis, Missouri"))
    assert not same_place(parse_place(""), inner)


_CMAP = {"United States": "United States", "United States of America": "United States",
         "United Kingdom": "United Kingdom", "Canada": "Canada", "Australia": "Australia",
         "Ireland": "Ireland", "South Africa": "South Africa", "New Zealand": "New Zealand",
         "Deutschland": "Germany", "British Colonial America": "British Colonial America"}
_WITH_STATE = {"United States", "United Kingdom", "Canada", "Australia"}


def _fs_pairs(root: Path) -> list[tuple[str, str]]:
    """(written place, FamilySearch normalised place) from records and reference outputs."""
    pairs: set[tuple[str, str]] = set()

    def walk(o: object) -> None:
        if isinstance(o, dict):
            p = o.get("place")
            if isinstance(p, dict) and p.get("original"):
                pairs.add((p["original"], p["original"]))
                for n in p.get("normalized") or []:
                    if isinstance(n, dict) and n.get("value"):
                        pairs.add((p["original"], n["value"]))
            for v in o.values():
                walk(v)
        elif isinstance(o, list):
            for v in o:
                walk(v)

    for f in sorted((root / "saved_fetch_objects").glob("*.json")):
        walk(json.loads(f.read_text()))
    for f in sorted((root / "expected" / "generalized_data").glob("*.json")):
        for ps in re.findall(r'"placeString": "([^"]*)"', f.read_text()):
            pairs.add((ps, ps))
    return sorted(pairs)


def test_familysearch_state_and_country_agreement(shared) -> None:
    pairs = _fs_pairs(shared("recorded", "familysearch"))
    country_n = country_ok = state_n = state_ok = 0
    for written, ref in pairs:
        comps = [c.strip() for c in ref.split(",")]
        country = _CMAP.get(comps[-1])
        if country is None:
            continue
        p = parse_place(written)
        country_n += 1
        country_ok += p.country == country
        if country in _WITH_STATE and len(comps) >= 2:
            state_n += 1
            state_ok += p.state == comps[-2]
    assert country_n >= 120 and state_n >= 100
    assert country_ok / country_n >= 0.97
    assert state_ok / state_n >= 0.95


def test_newspaper_places_of_publication_match_lc_headings(shared) -> None:
    meta = json.loads(shared("text", "chronam_1916_front_pages", "titles_meta.json").read_text())
    assert len(meta) >= 20
    for title in meta.values():
        ours = parse_place(title["place_of_publication"])
        lc = parse_lc_place(title["place"][0])
        assert (ours.state, ours.country, ours.locality) == (lc.state, lc.country, lc.locality)
        if ours.county:
            assert same_place(ours, lc), (ours, lc)


def test_gedcom_us_places_have_states(shared) -> None:
    paths = [*shared("gedcom", "samples").glob("*.ged"), shared("gedcom", "gramps", "example.ged")]
    places = set()
    for path in paths:
        for line in path.read_text(encoding="utf-8-sig", errors="replace").splitlines():
            m = re.match(r"\s*\d+\s+PLAC\s+(.*\S)", line)
            if m:
                places.add(m.group(1))
    usa = [p for p in places if p.endswith(", USA")]
    assert len(usa) >= 1000
    found = sum(parse_place(p).state is not None for p in usa)
    assert found / len(usa) >= 0.98  # the misses are metro areas such as "WV-OH"
    for p in places:
        parsed = parse_place(p)
        assert parsed.normalised == ", ".join(reversed(parsed.parts))


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=120))
def test_parse_place_total(text: str) -> None:
    p = parse_place(text)
    assert isinstance(p, Place) and p.text == text
    assert set(p.levels) <= {"country", "state", "county", "township", "locality"}
    assert p.inferred <= set(p.levels)


@pytest.mark.parametrize("junk", ["\x00\xff" * 1000, "," * 100_000, "Co. " * 50_000,
                                  "[" * 10_000 + "]" * 10_000, "a" * 5_000_000])
def test_parse_place_junk(junk: str) -> None:
    assert isinstance(parse_place(junk), Place)


def test_read_place_still_spans_prose() -> None:
    text = "born in Buck Valley, Fulton Co., Pa., May 3"
    span = read_place(text, 8, len(text))
    assert span is not None
    assert parse_place(text[span[0]:span[1]]).county == "Fulton County"


@pytest.mark.parametrize(("text", "place"), [
    ("died in Indianapolis, Marion County, Indiana, on Novcmber 22, 1880.",
     "Indianapolis, Marion County, Indiana"),  # OCR's month ends the place
    ("born in Staunton, Augusta County, Virginia, on March 3", "Staunton, Augusta County, "
     "Virginia"),  # a place named like a month is still a place
    ("married at Romney Marsh, Kent, Decernber 1, 1840", "Romney Marsh, Kent"),
])
def test_a_misread_month_is_not_part_of_the_place(text: str, place: str) -> None:
    start = text.index(place.split(",")[0])
    span = read_place(text, start, len(text))
    assert span is not None and text[span[0]:span[1]] == place
