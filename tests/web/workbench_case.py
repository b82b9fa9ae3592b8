"""A small case for the workbench's tests: a family tree with a living woman (exact birth
date, address, phone, e-mail), her late father's obituary quoting her birthday, a living
woman's own record, and a paged obituary whose medium-confidence claims wait for review."""

from __future__ import annotations

from pathlib import Path

from tiny_pdf import tiny_pdf

from sleuth.cli.common import open_case
from sleuth.pipeline.ingest import ingest_path
from sleuth.store import Store

TREE = """0 HEAD
1 GEDC
2 VERS 5.5.1
1 CHAR UTF-8
0 @I1@ INDI
1 NAME Emma /Whitfield/
1 SEX F
1 BIRT
2 DATE 12 MAY 1990
2 PLAC Springfield, Sangamon, Illinois, USA
1 RESI
2 ADDR 42 Maple Avenue, Springfield
2 PHON (217) 555-0134
2 EMAIL emma.whitfield@example.com
1 FAMC @F1@
0 @I2@ INDI
1 NAME Robert /Whitfield/
1 SEX M
1 BIRT
2 DATE 22 JUL 1935
1 DEAT
2 DATE 9 JAN 2011
1 FAMS @F1@
0 @F1@ FAM
1 HUSB @I2@
1 CHIL @I1@
0 TRLR
"""
# two pages (a form feed), the claims on the second
OBITUARY = ("Springfield Daily News, 6 March 1950, page 4.\f"
            "Obituary. Sarah Giles died on 4 March 1950 in Springfield, Ohio. She was born "
            "on 12 June 1884 in Clark County, Ohio. The funeral was held at Oak Hill "
            "Cemetery.\n")
ROBERT = ("Robert Whitfield, 75, of Springfield died January 9, 2011. He is survived by his "
          "daughter Emma, born 12 May 1990, of Springfield.\n")
# a burial register as a PDF of two pages (text layer), its claims on the second
REGISTER_PAGES = ["Parish register of Clark County.\nBurials.",
                  "Burials, 1850.\nSarah Giles died on 4 March 1850 at Springfield.\n"
                  "She was born on 12 June 1784 in Clark County, Ohio."]
# a news page quoting a living woman's birthday: its image must never be shown
NEWS_PAGES = ["The Springfield News.\nEmma Whitfield, born 12 May 1990, won the spelling bee."]

# a second obituary, for tests that need more items to decide
ALBERT = ("Obituary. Albert Giles died on 2 May 1940 in Springfield, Ohio. He was born on "
          "3 June 1882 in Clark County, Ohio. The funeral was held at Maple Grove Cemetery.\n")
JANE = ("Jane Doe was born on 3 April 1995 in Dayton, Ohio. She lives at 17 Elm Street, "
        "Dayton, and can be reached at jane.doe@example.org or (937) 555-0199.\n")

# What must never reach a browser: the living women's exact dates, addresses and contacts.
LIVING_SECRETS = (
    "1990-05-12", "12 May 1990", "12 MAY 1990", "May 12, 1990", "(217) 555-0134", "555-0134",
    "emma.whitfield@example.com", "42 Maple Avenue", "1995-04-03", "3 April 1995",
    "17 Elm Street", "jane.doe@example.org", "555-0199",
)


def write_pdf(path: Path, pages: list[str]) -> Path:
    path.write_bytes(tiny_pdf(pages))
    return path


def build_case(folder: Path, db_url: str | None = None, *, more: bool = False) -> Path:
    case = folder / "case"
    Store.create_case(case, db_url).close()
    files = {"tree.ged": TREE, "obituary.txt": OBITUARY, "robert.txt": ROBERT,
             "jane.txt": JANE, **({"albert.txt": ALBERT} if more else {})}
    store = open_case(case)
    try:
        for name, text in files.items():
            path = folder / name
            path.write_text(text, encoding="utf-8")
            ingest_path(store, path)
        if more:
            ingest_path(store, write_pdf(folder / "register.pdf", REGISTER_PAGES))
    finally:
        store.close()
    return case
