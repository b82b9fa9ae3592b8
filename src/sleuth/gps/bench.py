"""How close our Evidence Explained notes come to a mature tool's reference citations.

The recorded FamilySearch cases (`recorded/familysearch/` in the shared data) come with
wikitree-sourcer's citations of the same records. For each case we check that our full
note contains the reference's collection title, its record identifier, and every value of
its "citing" reference data (volume, page, district, film, image, record number...).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from sleuth.gps.citations import format_note
from sleuth.gps.kinds import describe
from sleuth.sources import load_file

_TITLE = re.compile(r'"([^"]+)"')
_RECORD = re.compile(r"\{\{FamilySearch Record\|([^}]+)\}\}")
_CITING = re.compile(r"citing (.*?)<br/>")
_ARK = re.compile(r"ark:/61903/\d:\d:")
_ARK_URL = "https://www.familysearch.org/ark:/61903/"


@dataclass
class Scores:
    cases: int = 0
    title: int = 0
    record_id: int = 0
    with_reference: int = 0
    reference: int = 0
    with_ark: int = 0  # saved records (with or without a reference) whose JSON has an ARK
    url: int = 0  # ... whose full note links to the record (Evidence Explained's URL)
    misses: list[str] = field(default_factory=list)

    def table(self) -> str:
        def pct(a: int, b: int) -> str:
            return f"{a}/{b} ({100 * a / b:.1f}%)" if b else "0/0"

        return "\n".join([
            "| measure | found |",
            "|---|---|",
            f"| collection title | {pct(self.title, self.cases)} |",
            f"| record identifier | {pct(self.record_id, self.cases)} |",
            f"| all reference data | {pct(self.reference, self.with_reference)} |",
            f"| record URL (every saved record with an ARK) | {pct(self.url, self.with_ark)} |",
        ])


def familysearch_scores(base: Path) -> Scores:
    """Score every case of `base` (the shared data's `recorded/familysearch` folder)."""
    s = Scores()
    for src in sorted((base / "saved_fetch_objects").glob("*.json")):
        snap = load_file(src).snapshot
        if _ARK.search(snap.text or ""):
            s.with_ark += 1
            linked = _ARK_URL in format_note(describe(snap), snap).full
            s.url += linked
            if not linked:
                s.misses.append(f"{src.stem}: no record URL")
    for ref in sorted((base / "expected" / "citations").glob("*.json")):
        src = base / "saved_fetch_objects" / ref.name
        if not src.exists():
            continue
        expected = json.loads(ref.read_text(encoding="utf-8"))
        cite = expected.get("dataStyle_record_string_source",
                            next(iter(expected.values())))["citation"]
        snap = load_file(src).snapshot
        full = format_note(describe(snap), snap).full
        s.cases += 1
        title, rid = _TITLE.search(cite), _RECORD.search(cite)
        s.title += bool(title and title.group(1) in full)
        s.record_id += bool(rid and rid.group(1) in full)
        citing = _CITING.search(cite)
        if citing:
            s.with_reference += 1
            values = [x.split(":", 1)[-1].strip() for x in re.split(r";\s*", citing.group(1))]
            missing = [v for v in values if v and v not in full]
            s.reference += not missing
            if missing:
                s.misses.append(f"{ref.stem}: {', '.join(missing)}")
    return s
