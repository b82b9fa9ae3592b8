"""The investigator's machine's paths, kept out of what a case repository shares.

The loop's working state names the corpus folder and its files by their absolute paths
(that is how it finds them again); a case repository is shared, and such paths are noise
there that can name the investigator ("/home/alice/…"). So everything `publish` commits
shows a corpus file by its path relative to the corpus folder, the folder itself by its
name, and a file of the case folder by its path relative to it.
"""

from __future__ import annotations

import re
from pathlib import Path

from sleuth.privacy.names import NameMask

_AFTER = r"(?![\w.-])"  # a root ends where a path's name ends ("/data/corpus2" is another)


class LocalPaths(NameMask):
    """The rewriting of the corpus folder's and the case folder's absolute paths: a mask
    whose `text` rewrites paths, not names (its `json` walks a value as the name mask's)."""

    def __init__(self, corpus: str, case_dir: Path) -> None:
        super().__init__(())
        roots = {str(case_dir.resolve()): ".", str(case_dir.absolute()): "."}
        if corpus:
            roots |= {corpus: Path(corpus).name or corpus}
        self._roots = sorted(((r, to) for r, to in roots.items() if r not in ("", "/")),
                             key=lambda x: (-len(x[0]), x[0]))
        body = "|".join(re.escape(r) for r, _ in self._roots)
        self._paths = re.compile(rf"(?:{body})(?:/|{_AFTER})") if body else None
        self._to = dict(self._roots)

    def __bool__(self) -> bool:
        return self._paths is not None

    def _one(self, m: re.Match[str]) -> str:
        hit = m.group(0)
        return "" if hit.endswith("/") else self._to[hit]

    def text(self, text: str) -> str:
        """`text` with every absolute path under a root made relative to it."""
        return self._paths.sub(self._one, text) if self._paths is not None else text
