"""Documents domain, issue 'determinism and what an archivist reads': the same files give
the same case twice (snapshot ids named by content, so two copies of one report keep their
order and the footnotes their numbers); a surname alone is read within its own document
(two cabinets' "Johansson" are two ministers)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from typer.testing import CliRunner

from shared_data import shared_path
from sleuth.cli.app import app
from sleuth.domains.documents import dedupe, extract_mentions
from sleuth.model import Snapshot
from sleuth.sources import load_file

runner = CliRunner()
COPY = ("Dataskydd\nBetänkande av Utredningen om dataskydd\nStockholm 2017\nSOU 2017:66",
        "Till statsrådet och chefen för Socialdepartementet\nGenom beslut den 16 juni 2016 "
        "bemyndigade regeringen statsrådet Annika Strandhäll att tillkalla en särskild "
        "utredare (dir. 2016:52). Som särskild utredare förordnades den 17 juni 2016 "
        "ordföranden Sören Öman. Utredningen överlämnar härmed betänkandet (SOU 2017:66).")


def text_snap(sid: str, *pages: str) -> Snapshot:
    starts, pos = [], 0
    for p in pages:
        starts.append(pos)
        pos += len(p) + 2
    return Snapshot(id=sid, sha256="0" * 64, path=sid, source_name="t",
                    text="\n\n".join(pages), page_starts=tuple(starts), metadata={})


def run(*args: object) -> tuple[int, str, str]:
    result = runner.invoke(app, [str(a) for a in args])
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def _build(case: Path, files: list[Path]) -> tuple[list[str], dict[str, str]]:
    """Init, ingest, work; the snapshot ids ingest printed, by file, and every export."""
    assert run("init", case, "--domain", "documents")[0] == 0
    code, out, err = run("ingest", case, *files)
    assert code == 0, err
    ids = sorted(re.findall(r"snapshot ([0-9a-f]{32})", out))
    code, _, err = run("work", case)
    assert code == 0, err
    exports = {}
    for fmt in ("report", "timeline", "entities", "html"):
        code, text, err = run("export", case, "--format", fmt)
        assert code == 0, err
        exports[fmt] = text
    return ids, exports


def test_two_builds_of_the_same_files_are_byte_identical(tmp_path: Path) -> None:
    # two copies of one report (as the shared folder holds SOU 2017:66 twice): a tie on the
    # designation that only the snapshot id breaks
    files = []
    for name, tail in (("a.txt", ""), ("b.txt", "\n(elektronisk utgåva)")):
        files.append(tmp_path / name)
        files[-1].write_text("\f".join(COPY) + tail, encoding="utf-8")
    first_ids, first = _build(tmp_path / "one", files)
    again_ids, again = _build(tmp_path / "two", files[::-1])
    assert len(first_ids) == 2 and first_ids == again_ids  # named by content, not drawn
    assert first["report"].count("- **SOU 2017:66** (") == 2
    assert first == again


def _ministers(*snaps: Snapshot) -> dict[str, list[tuple[str, ...]]]:
    """Each person entity's name and the documents of its mentions."""
    ents = dedupe(m for s in snaps for m in extract_mentions(s))
    return {e.name: sorted({m.citation.snapshot_id for m in e.mentions}) for e in ents
            if e.kind == "person"}


def test_two_cabinets_johansson_are_two_ministers_on_the_real_propositions() -> None:
    gov = ("documents", "swedish_gov")
    carlsson = load_file(shared_path(
        *gov, "propriksdagen__intermediate__1987-88__155__index.hocr.html.bz2")).snapshot
    bildt = load_file(shared_path(
        *gov, "propriksdagen__intermediate__1992-93__30__index.hocr.html.bz2")).snapshot
    ents = [e for e in dedupe([*extract_mentions(carlsson), *extract_mentions(bildt)])
            if e.kind == "person" and e.name == "Johansson"]
    docs = sorted(sorted({m.citation.snapshot_id for m in e.mentions}) for e in ents)
    assert docs == sorted([[carlsson.id], [bildt.id]])  # one each, the 1988 one on 2 pages
    assert sorted(len(e.mentions) for e in ents) == [1, 2]


CABINET = ("Närvarande: statsministern Bildt, ordförande, och statsråden Johansson, Feldt\n"
           "Proposition om en lag")


def test_a_surname_alone_joins_another_document_only_through_a_full_name_in_each() -> None:
    # bare in both: two people each, whichever order
    one = [e.name for e in dedupe(extract_mentions(text_snap("a", CABINET)))
           if e.kind == "person"]
    assert sorted(one) == ["Bildt", "Feldt", "Johansson"]
    for order in (("a", "b"), ("b", "a")):
        ents = dedupe(m for sid in order for m in extract_mentions(text_snap(sid, CABINET)))
        assert sorted(len({x.citation.snapshot_id for x in e.mentions}) for e in ents
                      if e.kind == "person") == [1] * 6
    # each document names him in full (on another page): one person across both
    signed = ("På regeringens vägnar\nOlof Johansson\n", CABINET)
    joined = _ministers(text_snap("a", *signed), text_snap("b", *signed))
    assert joined["Olof Johansson"] == ["a", "b"]
    # one names him in full, the other does not: that surname stays its document's own
    half = _ministers(text_snap("a", *signed), text_snap("b", CABINET))
    assert half["Olof Johansson"] == ["a"] and half["Johansson"] == ["b"]
    # a page listing "Carlsson" and "R. Carlsson" keeps them two even when the document
    # signs "Roine Carlsson" elsewhere
    two = text_snap("c", "På regeringens vägnar\nRoine Carlsson\n",
                    "Närvarande: statsministern Carlsson, ordförande, och statsråden "
                    "R. Carlsson, Feldt\nProposition om en lag")
    assert {n for n in _ministers(two) if "Carlsson" in n} == {"Carlsson", "Roine Carlsson"}


# -- what SOU 2017:66's timeline says of its people ------------------------------------------
SOU_2017_66 = ("documents", "swedish_gov", "souregeringen__intermediate__2017__66__dataskydd-"
               "inom-socialdepartementets-verksamhetsomrade_en-anpassning-till-eus-"
               "dataskyddsforordning-sou-2017_66-.xml.bz2")


def test_sou_2017_66_timeline_names_its_chair_secretaries_and_experts(tmp_path: Path) -> None:
    case = tmp_path / "case"
    assert run("init", case, "--domain", "documents")[0] == 0
    assert run("ingest", case, shared_path(*SOU_2017_66))[0] == 0
    code, _, err = run("work", case)
    assert code == 0, err
    code, out, _ = run("show", case, "process", "SOU 2017:66", "--format", "json")
    appointed = {e["date"]: e for e in json.loads(out)["events"]
                 if e["event_type"] == "member_appointed"}
    # "Från och med samma dag förordnade Annika Strandhäll ordföranden i Arbetsdomstolen
    # Sören Öman som särskild utredare": the chair, dated by "samma dag", not the minister
    chair = appointed["2016-06-16"]
    assert chair["actors"] == ["Sören Öman"] and "samma dag" in chair["excerpt"]
    # "verksjuristen Hélène / Runsten från och med den 8 augusti 2016" (a line break)
    assert appointed["2016-08-08"]["actors"] == ["Hélène Runsten"]
    assert appointed["2016-09-01"]["actors"] == ["Jonna Wiborn"]
    # "Som experter förordnades samma dag chefen Peter Andrén …": the advisers' day
    experts = set(appointed["2016-09-19"]["actors"])
    assert {"Niclas Fogelström", "Peter Andrén", "Catarina Eklundh Ahlgren",
            "Anne Vilval"} <= experts
    code, shown, _ = run("show", case, "process", "SOU 2017:66")
    assert ("2016-06-16: member appointed — appointed (samma dag: 16 juni 2016). Actors: "
            "Sören Öman.") in shown
