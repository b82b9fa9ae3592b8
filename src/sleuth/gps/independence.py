"""Source independence: several "sources" that derive from one original count once.

Evidence Explained counts witnesses, not copies. An index entry and the image it indexes,
a family tree that copied a record, and the same register line read in two search responses
all report one original act of recording; three copies of it are not three witnesses.

Rules (each item gets *origin keys*; items sharing a key, directly or through a chain, are
one original — union-find over the items bearing on one question):

| rule | key |
|---|---|
| the same snapshot | `snapshot:<id>` |
| the same FamilySearch record (person, record or image ARK) | `ark:<ark>` |
| a snapshot whose URL is an ARK (an image, a record page) | `ark:<ark>` |
| a certificate or register number in the record's citing data | `number:<label>:<value>` |
| a tree, GEDCOM or document citing an ARK in the cited person's block | `ark:<ark>` |
| a tree block naming another item's certificate / record number | that item's number key |
| identical transcription: the same normalised excerpt, >= `MIN_TEXT` characters | `text:...` |
| the same WikiTree profile, whichever API response carried it | `wikitree:<id>` |
| the same Find a Grave memorial | `memorial:<number>` |
| any compiled work (a user tree, a GEDCOM file, a wiki): they copy one another and their
  informants are unknown, so together they are at most one witness | `compiled` |

The group's weight is its best copy's (`independent_weights`): a copy adds no weight beyond
the record it copies. `Derivation.describe()` says in words which items were folded and why.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from sleuth.gps.evidence import EvidenceItem
from sleuth.gps.kinds import SourceInfo, SourceKind, wikitree_profile_at
from sleuth.model.citation import Citation
from sleuth.model.evidence import SourceClass
from sleuth.model.records import Snapshot

MIN_TEXT = 30  # shorter identical excerpts ("John Smith") are coincidences, not copies
_ARK = re.compile(r"ark:/61903/([0-9]:[0-9]:[0-9A-Z\-]+)")
_NUMBER_LABELS = ("Certificate number", "Record number", "Reference", "Source docket number")
_WORD = re.compile(r"[^\w]+")
_GEDCOM_RECORD = re.compile(r"(?m)^0 ")


def _norm(text: str) -> str:
    return _WORD.sub(" ", text.casefold()).strip()


_RECORD_STARTS: dict[str, list[int]] = {}


def _block(item: EvidenceItem) -> str:
    """The part of the snapshot the item's claim comes from (a GEDCOM level-0 record, else
    the whole text): a copy's own source citations live there. A GEDCOM file's record
    starts are indexed once per snapshot (it is immutable), so a large file is not
    rescanned for every citation."""
    import bisect

    snap = item.snapshot
    if snap is None:
        return ""
    text = snap.text
    if item.info.kind is SourceKind.GEDCOM_FILE:
        key = f"{snap.id}:{snap.sha256}"
        starts = _RECORD_STARTS.get(key)
        if starts is None:
            starts = [m.start() for m in _GEDCOM_RECORD.finditer(text)]
            if len(_RECORD_STARTS) > 256:
                _RECORD_STARTS.clear()
            _RECORD_STARTS[key] = starts
        at = item.citation.locator.start
        i = bisect.bisect_right(starts, at)
        begin = starts[i - 1] if i else 0
        end = starts[i] if i < len(starts) else len(text)
        return text[begin:end]
    return text


def origin_keys(info: SourceInfo, snap: Snapshot | None, citation: Citation,
                source: SourceClass | None = None, profile: str | None = None) -> dict[str, str]:
    """Origin keys of one citation (key -> why, for the derivation text): what it *is*.
    `source`: its source class, when known (compiled works share one key); `profile`: the
    WikiTree ID the citation's block names, when the caller has already found it."""
    keys = {f"snapshot:{citation.snapshot_id}": "the same snapshot"}
    for name in ("ark", "image_ark"):
        if ark := info.identifiers.get(name):
            keys[f"ark:{ark}"] = f"ARK {ark}"
    if info.kind is SourceKind.FAMILYSEARCH_RECORD:
        for label, value in info.reference:
            if label in _NUMBER_LABELS and len(value) >= 4:
                scope = "" if label == "Certificate number" else info.title
                keys[f"number:{scope}:{label}:{value}"] = f"{label.lower()} {value}"
    if snap is not None and snap.url:
        for ark in _ARK.findall(snap.url):
            keys[f"ark:{ark}"] = f"ARK {ark}"
    if info.kind is SourceKind.WIKITREE_PROFILE:
        wid = profile or (wikitree_profile_at(snap, citation.locator.start, citation.locator.end)
                          if snap is not None and snap.text else None)
        if wid:
            keys[f"wikitree:{wid}"] = f"the same WikiTree profile {wid}"
    if info.kind is SourceKind.MEMORIAL and (num := info.identifiers.get("memorial")):
        keys[f"memorial:{num}"] = f"the same Find a Grave memorial {num}"
    if source is SourceClass.AUTHORED:
        keys["compiled"] = "compiled works (user trees) copy one another"
    excerpt = _norm(citation.excerpt)
    if len(excerpt) >= MIN_TEXT:
        keys[f"text:{excerpt}"] = "identical transcription text"
    return keys


def own_keys(item: EvidenceItem) -> dict[str, str]:
    """Origin keys that say what this item *is* (key -> why, for the derivation text)."""
    return origin_keys(item.info, item.snapshot, item.citation, item.classes.source)


def copied_keys(item: EvidenceItem, numbers: dict[str, str]) -> dict[str, str]:
    """Keys of records a tree, GEDCOM file or document cites as its source."""
    if item.info.kind is SourceKind.FAMILYSEARCH_RECORD:
        return {}  # a record's own JSON names its household's ARKs; they are the same record
    block = _block(item)
    out = {f"ark:{ark}": f"cites ARK {ark}" for ark in _ARK.findall(block)}
    for key, value in numbers.items():
        if re.search(rf"(?<![\w/]){re.escape(value)}(?![\w/])", block):
            out[key] = f"cites number {value}"
    return out


@dataclass
class Derivation:
    """One original and the items (copies, indexes, images) that report it."""

    items: list[EvidenceItem]
    reasons: list[str] = field(default_factory=list)  # why the items were folded together

    @property
    def best(self) -> EvidenceItem:
        return max(self.items, key=lambda e: e.weight)

    @property
    def snapshots(self) -> list[str]:
        return list(dict.fromkeys(e.citation.snapshot_id for e in self.items))

    @property
    def derived(self) -> bool:
        return len(self.snapshots) > 1

    def describe(self, names: dict[str, str] | None = None) -> str:
        """`names`: snapshot id -> how to call that source (default: its title and kind)."""
        names = names or {}
        seen: dict[str, str] = {}
        for e in self.items:
            sid = e.citation.snapshot_id
            seen.setdefault(sid, names.get(sid) or f"{e.info.title} ({e.info.kind})")
        why = "; ".join(dict.fromkeys(self.reasons)) or "the same snapshot"
        shown = list(dict.fromkeys(seen.values()))
        copies = f" ({len(seen)} copies)" if len(shown) < len(seen) else ""
        return f"{' = '.join(shown)}{copies}: one original ({why}), counted once"


def derivations(items: Sequence[EvidenceItem]) -> list[Derivation]:
    """Group items by the original they derive from, in the order of each group's first item."""
    parent = list(range(len(items)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    own = [own_keys(e) for e in items]
    numbers = {k: k.rsplit(":", 1)[1] for keys in own for k in keys if k.startswith("number:")}
    keyed: dict[str, int] = {}
    why: dict[tuple[int, int], str] = {}
    for i, e in enumerate(items):
        keys = {**own[i], **copied_keys(e, numbers)}
        for key, reason in keys.items():
            j = keyed.setdefault(key, i)
            a, b = find(i), find(j)
            if a != b:
                parent[max(a, b)] = min(a, b)
                why[(min(i, j), max(i, j))] = reason
    groups: dict[int, Derivation] = {}
    for i, e in enumerate(items):
        groups.setdefault(find(i), Derivation([])).items.append(e)
    for (i, _j), reason in why.items():
        groups[find(i)].reasons.append(reason)
    return list(groups.values())


def independent_count(items: Sequence[EvidenceItem]) -> int:
    """How many independent originals the items report."""
    return len(derivations(items))


def independent_weights(items: Sequence[EvidenceItem]) -> list[float]:
    """One weight per original: its best copy's (for `proof.combined` and weighing)."""
    return [d.best.weight for d in derivations(items)]
