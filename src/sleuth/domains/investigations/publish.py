"""What the case repository commits: the censored views, made just before each commit.

The case repository is meant to be shared (pushed, handed to an editor), so everything it
commits is an output, and a living private person (`protect`) is kept out of all of it:

* `_state.json`, `_extraction.json` and `research-leads/engines-*.json` are censored views
  of the loop's working copies in `.working/` (git-ignored; `state.working`), every string
  through the Censor's name mask (`privacy.names`); the two working-state views carry
  `VIEW_MARK`, so a copy without `.working/` is never resumed from masked names;
* every Markdown file is masked in place (the renderers mask already; the questions, the
  iterations log and the search leads are masked here), as is the commit message;
* none of it holds a path of the investigator's machine (`localpaths`): a corpus file is
  named relative to the corpus folder, in the views, the Markdown files, the evidence
  folders' `metadata.json` and the commit message; the working state keeps them whole;
* a source that names a living private person (as that person, not by a surname alone:
  `private_sources`) is withheld: its evidence folder gets a `.gitignore` that keeps only
  `metadata.json` (masked, with the SHA-256 of every withheld file, so a reader holding a
  copy can check it), and `sources.md` says so. The bytes stay in the case folder and the
  store, where verification reads them.

A case that names no living private person is committed as the loop wrote it, paths
aside.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sleuth.domains.investigations.capture import EVIDENCE_DIR, METADATA, evidence_dir
from sleuth.domains.investigations.extraction import Extraction
from sleuth.domains.investigations.localpaths import LocalPaths
from sleuth.domains.investigations.protect import name_mask, whole_name_mask
from sleuth.domains.investigations.state import (
    EXTRACTION_FILE,
    STATE_FILE,
    VIEW_MARK,
    WORKING_DIR,
    CaseState,
    write_json,
)
from sleuth.model import Snapshot
from sleuth.privacy.names import NameMask

VIEW_NOTE = ("censored view for the repository: living private persons masked; the loop "
             "reads its own copy in .working/")
WITHHELD = "withheld from the repository: names a living private person"
LEADS_DIR = "research-leads"
ENGINES_GLOB = "engines-iteration-*.json"
_IGNORE = (f"# {WITHHELD}; metadata.json keeps the SHA-256 of every file here, so a\n"
           "# reader holding a copy can check it\n*\n!.gitignore\n!metadata.json\n")


def private_sources(state: CaseState, snaps: dict[str, Snapshot], x: Extraction,
                    people: dict[str, dict[str, Any]]) -> list[str]:
    """The captured sources that name a living private person (`people`) as that person:
    the extraction found them there, or the text holds their whole name (not a surname
    alone: `protect.whole_name_mask`). Once withheld, a source stays withheld (its bytes
    never reached a commit)."""
    found = {sid for p in x.people if p["key"] in people for sid in p["sources"]}
    whole = whole_name_mask(people)
    named = {sid for sid, snap in snaps.items()
             if sid in found or (whole and whole.mentions(snap.text))}
    return sorted(set(state.private_sources) | named)


def publish(case_dir: Path, state: CaseState, x: Extraction,
            people: dict[str, dict[str, Any]], snaps: dict[str, Snapshot]
            ) -> Callable[[str], str]:
    """Write what the next commit holds (see the module docstring); what the commit
    message goes through (the same mask, the same paths)."""
    mask = name_mask(people)
    paths = LocalPaths(state.corpus, case_dir)
    state.private_sources = private_sources(state, snaps, x, people)
    view_state(case_dir, state, mask)
    _view(case_dir / EXTRACTION_FILE, x.to_json(), mask, paths)
    leads = case_dir / LEADS_DIR
    for path in sorted((case_dir / WORKING_DIR).glob(ENGINES_GLOB)):
        leads.mkdir(exist_ok=True)
        data = paths.json(json.loads(path.read_text(encoding="utf-8")))
        write_json(leads / path.name, mask.json(data) if mask else data)
    for sid in state.private_sources:
        _withhold(case_dir, sid, mask)
    for path in sorted(case_dir.glob(f"{EVIDENCE_DIR}/*/{METADATA}")):  # a case from before
        data = json.loads(path.read_text(encoding="utf-8"))
        if (shown := paths.json(data)) != data:
            write_json(path, shown)

    def shared(text: str) -> str:
        return mask.text(paths.text(text)) if mask else paths.text(text)

    for path in sorted([*case_dir.glob("*.md"), *leads.glob("*.md")]):
        text = path.read_text(encoding="utf-8")
        if (masked := shared(text)) != text:
            path.write_text(masked, encoding="utf-8")
    return shared


def view_state(case_dir: Path, state: CaseState, mask: NameMask | None = None) -> None:
    """`_state.json`: the censored view of the working state (also of a start refused
    before any commit, so the file its message names is there)."""
    _view(case_dir / STATE_FILE, state.to_json(), mask or NameMask(()),
          LocalPaths(state.corpus, case_dir))


def _view(path: Path, data: dict[str, Any], mask: NameMask, paths: LocalPaths) -> None:
    data = paths.json(data)
    write_json(path, {VIEW_MARK: VIEW_NOTE, **(mask.json(data) if mask else data)})


def _withhold(case_dir: Path, sid: str, mask: NameMask) -> None:
    folder = evidence_dir(case_dir, sid)
    if not folder.is_dir():
        return
    (folder / ".gitignore").write_text(_IGNORE, encoding="utf-8")
    meta_path = folder / METADATA
    if meta_path.is_file():
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
        meta.pop("withheld", None)
        meta = mask.json(meta)
        meta["withheld"] = f"{WITHHELD}: {', '.join(_kept_out(folder))}"
        write_json(meta_path, meta)


def _kept_out(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir()
                  if p.is_file() and p.name not in (METADATA, ".gitignore"))
