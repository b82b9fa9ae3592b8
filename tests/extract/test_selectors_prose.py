"""A selector-read page with a biography: the structured fields come from the selectors, the
parents from the prose, as one subject; labels glued across lines make no false people."""

from __future__ import annotations

from pathlib import Path

from sleuth.extract.records import extract_record
from sleuth.sources import load_file
from sleuth.sources.registry import load_registry
from sleuth.verify import Source, check_candidates
from sleuth.world import World


def test_memorial_biography_names_the_parents(tmp_path: Path) -> None:
    world = World(7, 100)
    doc = world.respond("/memorial/1000052/rebecca-edith-wyatt")
    page = tmp_path / "memorial.html"
    page.write_text(doc.body, encoding="utf-8")
    loaded = load_file(page, source_name="Find a Grave")
    snap = loaded.snapshot
    cands = extract_record(snap, loaded.raw, load_registry().get("find_a_grave"))
    assert cands
    main = cands[0].subject
    fields = {(c.subject, c.field, c.value) for c in cands}
    assert (main, "birth_date", "1820-04-02") in fields
    assert {(main, "parent", "Matthew Wyatt"), (main, "parent", "Ruth Osgood")} <= fields
    names = {c.value for c in cands if c.field == "name"}
    assert names == {"Rebecca Edith Stroud", "Matthew Wyatt", "Ruth Osgood"}
    assert len({(c.subject, c.field, c.value) for c in cands}) == len(cands)  # no repeats
    report = check_candidates(cands, {snap.id: Source.of(snap.text, None)})
    assert not report.rejected and len(report.passed) == len(cands)
