"""A living person's address, phone and e-mail in a GEDCOM file (issue 26, privacy gaps).

The extractor makes no claim of `2 ADDR` / `3 ADR1` / `3 POST` / `2 PHON` / `2 EMAIL`, so
before, no claim's value made them secrets: the stored file's text carried them into the
censored case, and from there into the workbench's source viewer, whole. Nor was a dead
spouse's marriage censored: its exact date and street printed in every export, though the
living spouse's own were coarsened. Now the Censor masks contact data in every record not
known to be about the dead only, and a couple's events as the living spouse's; a dead
person's 1880 address in their own record stays (history, not a leak).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from typer.testing import CliRunner

from sleuth.cli.app import app
from sleuth.pipeline.ingest import ingest_path
from sleuth.privacy import censor
from sleuth.privacy.gedcom_text import mask_contacts
from sleuth.store import Store, case_graph
from sleuth.web.app import create_app

runner = CliRunner()
TREE = """0 HEAD
1 GEDC
2 VERS 5.5.1
2 FORM LINEAGE-LINKED
1 CHAR UTF-8
1 SUBM @U1@
0 @U1@ SUBM
1 NAME Ada Compiler
1 ADDR 7 Compiler Court
2 POST 90210
1 EMAIL ada.compiler@example.net
0 @I1@ INDI
1 NAME John /Quarryman/
1 SEX M
1 BIRT
2 DATE 12 MAR 1952
2 PLAC Springfield, Sangamon, Illinois, USA
1 RESI
2 ADDR 12 Quarry Lane
3 ADR1 12 Quarry Lane
3 CITY Springfield
3 POST IL 62704
2 PHON 555-0199
2 EMAIL john.quarryman@example.com
1 FAMS @F1@
0 @I2@ INDI
1 NAME Mary /Stone/
1 SEX F
1 BIRT
2 DATE 3 APR 1935
1 DEAT
2 DATE 9 SEP 2010
1 FAMS @F1@
0 @I3@ INDI
1 NAME Silas /Millward/
1 SEX M
1 BIRT
2 DATE 1821
1 DEAT
2 DATE 1890
1 RESI
2 DATE 1880
2 ADDR 4 Millrace Row
3 CONT Dayton, Ohio
0 @F1@ FAM
1 HUSB @I1@
1 WIFE @I2@
1 MARR
2 DATE 5 JUN 2005
2 PLAC 12 Quarry Lane, Springfield, IL 62704, USA
0 TRLR
"""
# what must never be shown (the living man's, the submitter's) and what stays (history)
SECRETS = ("Quarry Lane", "62704", "555-0199", "john.quarryman@example.com", "5 JUN 2005",
           "June 5, 2005", "5 June 2005", "2005-06-05", "Compiler Court", "90210",
           "ada.compiler@example.net")
HISTORY = "4 Millrace Row"


@pytest.fixture
def case(tmp_path: Path) -> Path:
    tree = tmp_path / "family.ged"
    tree.write_text(TREE)
    case = tmp_path / "case"
    store = Store.create_case(case)
    try:
        ingest_path(store, tree)
    finally:
        store.close()
    return case


def _leaks(name: str, text: str) -> list[str]:
    return [f"{name}: {s!r}" for s in SECRETS if s.lower() in text.lower()]


def test_the_censored_text_masks_the_living_contacts_and_keeps_history(case: Path) -> None:
    store = Store.open_case(case)
    try:
        graph = case_graph(store)
    finally:
        store.close()
    raw = next(iter(graph.snapshots.values())).text
    assert all(s in raw for s in ("Quarry Lane", "555-0199", HISTORY))  # stored as it was
    (shown,) = censor(graph).snapshots.values()
    assert len(shown.text) == len(raw)  # every locator still holds
    assert _leaks("censored text", shown.text) == []
    assert HISTORY in shown.text and "Dayton, Ohio" in shown.text
    assert re.search(r"2 PHON █{8}\n", shown.text) and "3 POST ████████\n" in shown.text


def test_no_output_shows_them(case: Path, tmp_path: Path) -> None:
    leaks: list[str] = []
    for fmt in ("report", "html", "jsonld", "gedcom", "gedcom7", "gedcomx"):
        out = tmp_path / f"out.{fmt}"
        res = runner.invoke(app, ["export", str(case), "--format", fmt, "--out", str(out)])
        assert res.exit_code == 0, res.output
        leaks += _leaks(fmt, out.read_text())
    for args in (["show", str(case), "person"], ["show", str(case), "person", "Mary Stone"],
                 ["show", str(case), "person", "John Quarryman", "--format", "json"],
                 ["cite", str(case), "--format", "markdown"], ["check", str(case)]):
        res = runner.invoke(app, args)
        assert res.exit_code == 0, res.output
        leaks += _leaks(" ".join(args[:1] + args[2:]), res.output)
    assert leaks == []


# A living woman with no date at all (living by default): no date of hers to mask, and her
# telephone in a form no generic pattern knows: the Censor changed nothing in the text
UNDATED = """0 HEAD
1 GEDC
2 VERS 5.5.1
1 CHAR UTF-8
0 @I1@ INDI
1 NAME Jane /Quarryman/
1 SEX F
1 RESI
2 ADDR 12 Quarry Lane
3 POST IL 62704
2 PHON 555-0199
0 @I2@ INDI
1 NAME Silas /Millward/
1 BIRT
2 DATE 1821
1 DEAT
2 DATE 1890
1 RESI
2 ADDR 4 Millrace Row
0 TRLR
"""


def test_the_source_viewer_never_shows_them(tmp_path: Path) -> None:
    """Was: the source viewer showed a text whole where the Censor changed nothing in it,
    and here it changed nothing: Jane's street, postal code and telephone were on the page."""
    tree = tmp_path / "undated.ged"
    tree.write_text(UNDATED)
    store = Store.create_case(tmp_path / "case")
    try:
        ingest_path(store, tree)
        (sid,) = case_graph(store).snapshots
        web = create_app(store, title="case", case_dir=tmp_path / "case")
        with TestClient(web, base_url="http://127.0.0.1") as client:
            page = client.get(f"/snapshot/{sid}?whole=1")
            assert page.status_code == 200
            assert _leaks("source viewer", page.text) == []
            for person in case_graph(store).persons:
                assert _leaks("person page", client.get(f"/person/{person.id}").text) == []
    finally:
        store.close()


def test_a_record_cited_by_no_one_or_by_the_living_is_masked() -> None:
    text = ("0 HEAD\n0 @R1@ REPO\n1 ADDR 1 Archive Way\n1 PHON 555-0100\n"
            "0 @I1@ INDI\n1 RESI\n2 ADDR 9 Elm Street\n3 CONT Needmore\n2 WWW example.org\n"
            "0 @I2@ INDI\n1 RESI\n2 ADDR 3 Oak Road\n0 TRLR\n")
    i1, i2 = text.index("@I1@"), text.index("@I2@")
    # I1 cited by the dead only; I2 by a living person as well as a dead one
    out = mask_contacts(text, lambda: [(i1, False), (i2, False), (i2 + 5, True)])
    assert "9 Elm Street" in out and "Needmore" in out and "example.org" in out
    assert "Archive Way" not in out and "555-0100" not in out and "Oak Road" not in out
    assert len(out) == len(text)
    plain = re.sub(r"ADDR|PHON|WWW", "NOTE", text)  # no contact data: the text as it is
    assert mask_contacts(plain, lambda: []) == plain
