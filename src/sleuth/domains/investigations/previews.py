"""The previews of files no one captured, judged for living private persons on their own.

research-leads/ shows a preview of every file a search ranks (its snippet). The people of a
captured file are known to the extraction, so its preview is masked with theirs; a file
never captured is read nowhere else, and a living private person only it names would be
shown. So each such preview is read as a small source of its own, by the same person
extraction (`extract_source`) and the same Censor rule (`protect.protected`) as a captured
source, beside the captured sources (an office one of them gives the person, a death it
states, count as they do for the case). Previews are short: this costs little.
"""

from __future__ import annotations

import hashlib
from datetime import date
from typing import Any

from sleuth.domains.investigations.extraction import Extraction, extract_source, merge
from sleuth.domains.investigations.model import SourceRecord
from sleuth.domains.investigations.prose import language
from sleuth.domains.investigations.protect import protected
from sleuth.model import Snapshot
from sleuth.model.documents import document_date, is_newspaper

PREVIEW = "preview"


def preview_snapshot(ref: str, text: str, like: Snapshot | None = None) -> Snapshot:
    """The preview as a snapshot: its file's metadata kept (`like`), or its address when an
    online source answered with it, so a dated newspaper page's preview is judged by its
    day as the page would be."""
    url = like.url if like is not None else (ref if "://" in ref else None)
    return Snapshot(sha256=hashlib.sha256(text.encode("utf-8")).hexdigest(),
                    source_name=PREVIEW, path=ref, text=text, url=url,
                    metadata=dict(like.metadata) if like is not None else {})


def with_previews(parts: list[Extraction], dated: dict[str, date], texts: dict[str, str],
                  previews: list[Snapshot]) -> dict[str, dict[str, Any]]:
    """The living private persons of the captured sources (`parts`, their days `dated` and
    `texts`, as `protect.protected` reads them) and of the `previews` beside them."""
    parts, dated, texts = list(parts), dict(dated), dict(texts)
    for i, snap in enumerate(previews, 1):
        pid = f"P{i:03d}"  # a preview's own id: never a source id (S001...)
        rec = SourceRecord(pid, snap.path or PREVIEW, title=PREVIEW,
                           language=language(snap.text))
        parts.append(extract_source(rec, snap))
        texts[pid] = snap.text
        if is_newspaper(snap) and (day := document_date(snap)) is not None:
            dated[pid] = day
    return protected(merge(parts, 0), dated, texts)
