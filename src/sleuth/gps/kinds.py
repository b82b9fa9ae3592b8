"""What a stored snapshot *is*: its source kind, the event it records, its stable identifiers.

Everything is read from what the store already holds (the snapshot's URL, media type,
metadata and text), so every existing citation can be classified and formatted without
re-fetching anything. The order of the checks is the order of the record detectors in
`sleuth.extract.records` (most specific first); a snapshot nobody recognises is a
`local_document`.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from sleuth.model.documents import is_newspaper
from sleuth.model.evidence import SourceKind
from sleuth.model.records import Snapshot
from sleuth.sources.registry import current_registry, spec_of

# Record events, by keyword in a collection title, a file name or a document's first lines.
# Order matters: "death certificate" is a death record even if it names a birth.
_EVENT_WORDS: tuple[tuple[str, str], ...] = (
    ("obituar", "obituary"),
    ("census", "census"),
    ("probate", "probate"),
    ("will ", "probate"),
    ("divorce", "divorce"),
    ("draft", "military"),
    ("military", "military"),
    ("burial", "burial"),
    ("buried", "burial"),
    ("cemeter", "burial"),
    ("death", "death"),
    ("deces", "death"),
    ("marriage", "marriage"),
    ("mariage", "marriage"),
    ("banns", "marriage"),
    ("baptism", "baptism"),
    ("bapteme", "baptism"),
    ("christening", "baptism"),
    ("birth", "birth"),
    ("naissance", "birth"),
)
# FamilySearch primary fact types (GEDCOM X) -> record event
_FS_EVENTS: dict[str, str] = {
    "Birth": "birth", "BirthRegistration": "birth", "Christening": "baptism",
    "Baptism": "baptism", "Death": "death", "DeathRegistration": "death", "Burial": "burial",
    "Marriage": "marriage", "MarriageRegistration": "marriage", "MarriageBanns": "marriage",
    "Census": "census", "Residence": "census", "Obituary": "obituary", "Probate": "probate",
    "MilitaryDraftRegistration": "military", "Divorce": "divorce",
}
_FREEREG_EVENTS = {"BA": "baptism", "BU": "burial", "MA": "marriage"}
_WIKITREE_ID = re.compile(r"^([A-Z][A-Za-z' \-]{0,60}-\d{1,9})$", re.MULTILINE)
_WIKITREE_URL = re.compile(r"wikitree\.com/wiki/([^/?#\s]+-\d+)")
_QID = re.compile(r"\bQ\d+\b")
_ARK = re.compile(r"ark:/61903/([0-9]:[0-9]:[0-9A-Z\-]+)")
_CHRONAM_PAGE = re.compile(r"/(sn\d+)/(\d{4}-\d{2}-\d{2})/ed-\d+/seq-(\d+)")
_MEMORIAL_ID = re.compile(r"/memorial/(\d+)")
_H1 = re.compile(r"<h1[^>]*>(.*?)</h1>", re.IGNORECASE | re.DOTALL)
_WT_NAME = re.compile(r'"Name":\s*"([^"\n]{1,80}-\d{1,9})"')


_WT_CACHE: dict[str, tuple[list[int], list[str]]] = {}
WikiTreeIndex = tuple[list[int], list[str]]


def wikitree_index(snap: Snapshot) -> WikiTreeIndex:
    """Where each profile block of a WikiTree API response names itself, indexed once per
    snapshot (snapshots are immutable, so the index never goes stale)."""
    key = f"{snap.id}:{snap.sha256}"
    index = _WT_CACHE.get(key)
    if index is None:
        found = [(m.start(), m.group(1)) for m in _WT_NAME.finditer(snap.text)]
        index = ([p for p, _ in found], [n for _, n in found])
        if len(_WT_CACHE) > 4096:
            _WT_CACHE.clear()
        _WT_CACHE[key] = index
    return index


def profile_in(index: WikiTreeIndex, offset: int, end: int | None = None) -> str | None:
    """The WikiTree ID of the profile block a character of an API response belongs to: the
    nearest `"Name": "Surname-123"` at or before it (the API writes a profile's own fields
    before its nested Parents/Spouses/Children blocks); an excerpt `offset:end` that itself
    names a profile is that profile's, and one that opens a block just before its Name
    belongs to the block."""
    import bisect

    starts, names = index
    i = bisect.bisect_right(starts, offset)
    if end is not None and i < len(starts) and starts[i] < end:
        return names[i]
    if i:
        return names[i - 1]
    if starts and starts[0] - offset <= 200:
        return names[0]
    return None


def wikitree_profile_at(snap: Snapshot, offset: int, end: int | None = None) -> str | None:
    """`profile_in` on the snapshot's own index."""
    return profile_in(wikitree_index(snap), offset, end)


@dataclass
class SourceInfo:
    """What citations and the classification rules need to know about one snapshot."""

    kind: SourceKind
    event: str | None = None  # birth, baptism, death, burial, marriage, census, obituary...
    title: str = ""  # the source's own title: collection, article, page, file name
    item: str = ""  # the item within it: "Entry for ...", a profile, an entity label
    identifiers: dict[str, str] = field(default_factory=dict)  # ark, image_ark, qid...
    reference: list[tuple[str, str]] = field(default_factory=list)  # (label, value) "citing"
    publisher: str = ""
    original: str = ""  # the original a derivative was made from, when the source says so


def _json(text: str) -> Any:
    try:
        return json.loads(text)
    except (json.JSONDecodeError, ValueError):
        return None


def _host_kind(url: str | None) -> SourceKind | None:
    """The kind a source's spec gives pages of its hosts (`record.hosts`), by URL."""
    if not url:
        return None
    low = url.lower()
    registry = current_registry()
    return next((spec.record.kind for spec in (registry.declared() if registry else ())
                 if spec.record.kind and any(h in low for h in spec.record.hosts)), None)


def _id_kind(snap: Snapshot) -> SourceKind | None:
    """The kind the fetching source's spec gives its snapshots (`record.kind`)."""
    spec = spec_of(snap)
    return spec.record.kind if spec is not None else None


def event_from_words(text: str) -> str | None:
    """The record event a title or heading names, by the documented keyword table."""
    import unicodedata

    low = unicodedata.normalize("NFKD", text.lower())
    low = "".join(ch for ch in low if not unicodedata.combining(ch)).replace("_", " ")
    return next((ev for word, ev in _EVENT_WORDS if word in low), None)


def source_kind(snap: Snapshot) -> SourceKind:
    """The kind of source a snapshot is (see the module docstring for the order)."""
    by_id = _id_kind(snap)
    if by_id is not None:
        return by_id
    if snap.media_type == "text/x-gedcom" or snap.text.lstrip("\ufeff").startswith("0 HEAD"):
        return SourceKind.GEDCOM_FILE
    if snap.media_type == "text/x-freecen-vld":
        return SourceKind.CENSUS
    # Imported here for start-up time: the parsers (selectolax among them) are needed only
    # for a snapshot that no spec or media type already names.
    from sleuth.extract.records import (
        chronam,
        familysearch,
        freecen,
        freereg,
        wikidata,
        wikipedia,
        wikitree_api,
    )

    for module, kind in (
        (familysearch, SourceKind.FAMILYSEARCH_RECORD),
        (wikitree_api, SourceKind.WIKITREE_PROFILE),
        (wikidata, SourceKind.WIKIDATA_ENTITY),
        (wikipedia, SourceKind.WIKIPEDIA_ARTICLE),
        (chronam, SourceKind.NEWSPAPER_PAGE),
        (freereg, SourceKind.PARISH_REGISTER),
        (freecen, SourceKind.CENSUS),
    ):
        if module.detect(snap, None):
            return kind
    by_host = _host_kind(snap.url)
    if by_host is not None:
        return by_host
    if is_newspaper(snap):  # a page dated by its file name or masthead (issue 20)
        return SourceKind.NEWSPAPER_PAGE
    if snap.media_type.startswith("text/html") and "wikitree" in snap.text[:4000].lower():
        return SourceKind.WIKITREE_PROFILE
    return SourceKind.LOCAL_DOCUMENT


def describe(snap: Snapshot) -> SourceInfo:
    """Kind, record event, title and identifiers of a snapshot."""
    kind = source_kind(snap)
    spec = spec_of(snap)
    registry = current_registry() if spec is not None else None
    if spec is not None and registry is not None and registry.origins.get(spec.id) != "built-in":
        # a source the user added: the kind's reader knows a built-in format, not theirs
        info = _declared(snap, SourceInfo(kind=kind), spec.name)
    else:
        info = _READERS.get(kind, _local)(snap, SourceInfo(kind=kind))
    if not info.title:
        info.title = str(snap.metadata.get("filename") or snap.source_name)
    return info


# -- per-kind readers -------------------------------------------------------------------
# FamilySearch field types -> the label of FamilySearch's own "citing" reference data
_FS_REFERENCE: tuple[tuple[tuple[str, ...], str], ...] = (
    (("SourceRegNbr",), "Class"),  # census only (a register number elsewhere)
    (("SourcePieceFolio",), "Piece/Folio"),
    (("EnumerationDistrict",), "Enumeration District"),
    (("SourceBookNbr",), "Book"),
    (("SourceVolume", "SourceVolumeNbr"), "Volume"),
    (("SourcePage", "SourcePageNbr"), "Page"),
    (("SourceLineNbr", "LineNbr"), "Line"),
    (("SourceEntryNbr",), "Entry"),
    (("SourceSheetNbr",), "Sheet number"),
    (("SourceSheetLtr",), "Sheet letter"),
    (("SourceScheduleNbr",), "Source Schedule Number"),
    (("SourceSubScheduleNbr",), "Source Sub-schedule Number"),
    (("RefId", "SourceReference"), "Reference"),
    (("SourceDocketNbr",), "Source docket number"),
    (("ExtRepositoryName",), "Affiliate Name"),
    (("ExtPubTitle",), "Affiliate Publication Title"),
    (("ExtPubNbr",), "Affiliate Publication Number"),
    (("ExtFilmNbr",), "Affiliate Film Number"),
    (("SourceCertificateNbr",), "Certificate number"),
    (("SourceCertificateYear",), "Certificate year"),
    (("DigitalFilmNumber", "DigitalFilmNbr"), "Digital film/folder number"),
    (("FilmNumber", "FilmNbr"), "FHL microfilm"),
    (("ImageNumber", "ImageNbr"), "Image number"),
    (("RecordNumber", "RecordNbr", "RecNbr", "SourceRecordNbr"), "Record number"),
    (("PacketLetter", "PacketLtr"), "Packet letter"),
    (("UdeBatchNumber", "UdeBatchNbr"), "Indexing batch"),
)


def _fs_fields(node: dict[str, Any], out: dict[str, str] | None = None) -> dict[str, str]:
    """Field type -> value (FamilySearch's interpreted form, else the original).

    Fields already in `out` are kept (the focal person's own line and record number win
    over the record's); within one node a repeated field's last value wins, since a
    forwarded record appends its current film numbers after the deprecated ones. Affiliate
    (`Ext...`) fields keep the publication's own wording, the original.
    """
    out = {} if out is None else out
    mine: dict[str, str] = {}
    for f in node.get("fields") or []:
        name = str(f.get("type", "")).rsplit("/", 1)[-1]
        values = {str(v.get("type", "")).rsplit("/", 1)[-1]: v.get("text")
                  for v in f.get("values") or [] if v.get("text")}
        order = ("Original", "Interpreted") if name.startswith("Ext") else (
            "Interpreted", "Original")
        value = values.get(order[0]) or values.get(order[1])
        if name and value and name not in out:
            mine[name] = str(value)
    out.update(mine)
    return out


def _fs_focus(root: dict[str, Any], principal: dict[str, Any] | None) -> dict[str, Any] | None:
    """The person the record page is about: the one the root description points at."""
    persons = [p for p in root.get("persons") or [] if isinstance(p, dict)]
    about = set(_ARK.findall(str((principal or {}).get("about", ""))))
    for p in persons:
        ids = " ".join(" ".join(map(str, v)) for v in (p.get("identifiers") or {}).values())
        if about & set(_ARK.findall(ids)):
            return p
    return next((p for p in persons if p.get("principal")), persons[0] if persons else None)


# Collections whose originals The National Archives (Kew) holds: censuses and the 1939 register
_TNA_HOLDS = re.compile(r"^England and Wales (Census|National Register)")


def _fs_district(root: dict[str, Any], principal: dict[str, Any] | None) -> str | None:
    """The registration district of the record's main event (GRO indexes cite it)."""
    holders = [principal] if principal else []
    holders += [r for r in root.get("relationships") or [] if isinstance(r, dict)]
    for h in holders:
        for fact in (h or {}).get("facts") or []:
            place = fact.get("place") or {}
            district = _fs_fields(place).get("RegistrationDistrict")
            if district:
                return district
    return None


def _familysearch(snap: Snapshot, info: SourceInfo) -> SourceInfo:
    info.publisher = "FamilySearch"
    root = _json(snap.text)
    if not isinstance(root, dict):
        return info
    sds = [s for s in root.get("sourceDescriptions") or [] if isinstance(s, dict)]
    by_id = {s.get("id"): s for s in sds}
    for s in sds:
        if str(s.get("resourceType", "")).endswith("Collection") and s.get("titles"):
            info.title = str(s["titles"][0].get("value", ""))
            break
    principal = by_id.get(str(root.get("description", "")).lstrip("#"))
    record = next((s for s in sds if str(s.get("resourceType", "")).endswith("Record")), None)
    arks: list[str] = []
    if principal is not None:
        arks += _ARK.findall(str(principal.get("about", "")))
    # the principal person: marked so in a record; in a Family Tree profile, the person the
    # principal description is about ("#KZKS-T46"), whose persistent id is the profile's ARK
    about = str(principal.get("about", "")) if principal is not None else ""
    for p in root.get("persons") or []:
        if p.get("principal") or (about.startswith("#") and p.get("id") == about[1:]):
            for ids in (p.get("identifiers") or {}).values():
                arks += _ARK.findall(" ".join(map(str, ids)))
    if record is not None:
        arks += _ARK.findall(str(record.get("about", "")))
        for c in record.get("citations") or []:
            arks += _ARK.findall(str(c.get("value", "")))
        if record.get("titles"):
            info.item = str(record["titles"][0].get("value", "")).split(", \"")[0]
    person_arks = [a for a in arks if a.startswith("1:1:")]
    if person_arks or arks:
        info.identifiers["ark"] = (person_arks or arks)[0]
    images = [_ARK.findall(str(s.get("about", ""))) for s in sds
              if str(s.get("resourceType", "")).endswith("DigitalArtifact")]
    flat = [a for lst in images for a in lst]
    lead = _fs_focus(root, principal)
    fields = _fs_fields(lead) if lead is not None else {}
    _fs_fields(root, fields)
    if not flat and (ext := _json(fields.get("ExtData", ""))) and isinstance(ext, dict):
        flat = _ARK.findall(str(ext.get("IMAGE_ARK", "")))
    if flat:
        info.identifiers["image_ark"] = flat[0]
        info.original = f"image {flat[0]}"
    events: list[str] = []
    for p in root.get("persons") or []:
        for fact in p.get("facts") or []:
            if fact.get("primary"):
                events.append(str(fact.get("type", "")).rsplit("/", 1)[-1])
    if not info.title:  # no record collection: a person in the FamilySearch Family Tree
        info.event, info.title = "tree", "FamilySearch Family Tree"
        info.item = str((lead or {}).get("display", {}).get("name") or info.item)
        return info
    info.event = next((_FS_EVENTS[e] for e in events if e in _FS_EVENTS), None) or (
        event_from_words(info.title)
    )
    if _TNA_HOLDS.search(info.title):
        info.reference.append(("Repository", "The National Archives of the UK"))
    if district := _fs_district(root, lead):
        info.reference.append(("District", district))
    for names, label in _FS_REFERENCE:
        if label == "Class" and info.event != "census":
            continue
        value = next((fields[n] for n in names if fields.get(n)), None)
        if value:
            info.reference.append((label, value))
    return info


def _wikitree(snap: Snapshot, info: SourceInfo) -> SourceInfo:
    info.publisher = "WikiTree"
    info.event = "profile"
    m = _WIKITREE_URL.search(snap.url or "")
    ident = m.group(1) if m else None
    if ident is None:
        root = _json(snap.text)
        if isinstance(root, list):
            for r in root:
                prof = (r or {}).get("profile") or (r or {}).get("person") or {}
                if isinstance(prof, dict) and prof.get("Name"):
                    ident = str(prof["Name"])
                    break
        else:
            m2 = _WIKITREE_ID.search(snap.text[:20000])
            ident = m2.group(1) if m2 else None
    if ident:
        info.identifiers["wikitree_id"] = ident
        info.item = ident
    info.title = "WikiTree: The Free Family Tree"
    return info


def _wikidata(snap: Snapshot, info: SourceInfo) -> SourceInfo:
    info.publisher = "Wikimedia Foundation"
    info.event = "profile"
    info.title = "Wikidata"
    root = _json(snap.text)
    ents = root.get("entities") if isinstance(root, dict) else None
    if isinstance(ents, dict) and ents:
        qid, ent = next(iter(ents.items()))
        info.identifiers["qid"] = str(ent.get("id") or qid) if isinstance(ent, dict) else qid
        labels: dict[str, Any] = (ent or {}).get("labels") or {} if isinstance(ent, dict) else {}
        chosen: dict[str, Any] = labels.get("en") or next(iter(labels.values()), {}) or {}
        label = chosen.get("value")
        info.item = str(label or info.identifiers["qid"])
        if isinstance(ent, dict) and ent.get("lastrevid"):
            info.identifiers["revision"] = str(ent["lastrevid"])
    elif m := _QID.search(snap.url or ""):
        info.identifiers["qid"] = m.group(0)
        info.item = m.group(0)
    return info


def _wikipedia(snap: Snapshot, info: SourceInfo) -> SourceInfo:
    info.publisher = "Wikimedia Foundation"
    info.event = "profile"
    info.title = "Wikipedia"
    root = _json(snap.text)
    if isinstance(root, dict):
        inner = root.get("parse")
        parse = inner if isinstance(inner, dict) else root
        title = parse.get("title") or parse.get("displaytitle")
        if title:
            info.item = re.sub(r"<[^>]+>", "", str(title))
        for key in ("revid", "pageid"):
            if parse.get(key):
                info.identifiers[key] = str(parse[key])
    return info


def _newspaper(snap: Snapshot, info: SourceInfo) -> SourceInfo:
    meta = snap.metadata
    info.event = "newspaper"
    info.title = str(meta.get("newspaper_title") or meta.get("title") or "")
    for key in ("lccn", "edition", "page_sequence", "document_date", "page"):
        if meta.get(key):
            info.identifiers[key] = str(meta[key])
    if m := re.search(r"/lccn/(sn\d+)/", snap.url or ""):
        info.identifiers.setdefault("lccn", m.group(1))
    if m := _CHRONAM_PAGE.search(snap.url or ""):  # /(lccn/)sn.../1956-11-10/ed-1/seq-1/
        info.identifiers.setdefault("lccn", m.group(1))
        info.identifiers.setdefault("document_date", m.group(2))
        info.identifiers.setdefault("page_sequence", m.group(3))
    if info.identifiers.get("lccn") or meta.get("source_format") == "chronam":
        info.publisher = "Library of Congress, Chronicling America"
    if not info.title and info.identifiers.get("lccn"):
        info.title = f"Newspaper LCCN {info.identifiers['lccn']}"
    event = event_from_words(snap.text[:600])
    info.event = "obituary" if event in ("obituary", "death", "burial") else "newspaper"
    return info


def _freereg(snap: Snapshot, info: SourceInfo) -> SourceInfo:
    """FreeREG CSV: `+INFO` names the register type, data rows start county, place, church."""
    from sleuth.extract.records.freereg import record_type  # start-up time, as in source_kind

    info.publisher = "FreeREG (FreeUKGenealogy)"
    info.event = _FREEREG_EVENTS.get(record_type(snap.text) or "")
    info.title = str(snap.metadata.get("filename") or "")
    for line in snap.text.lstrip("\ufeff \r\n").split("\n", 40)[:40]:
        if line.startswith(("+", "#")) or line.count(",") < 3:
            continue
        county, place, church = (c.strip() for c in line.split(",")[:3])
        info.item = f"{church} ({place})" if church else place
        info.identifiers["county"] = county
        break
    return info


def _census(snap: Snapshot, info: SourceInfo) -> SourceInfo:
    info.event = "census"
    info.title = str(snap.metadata.get("filename") or snap.source_name)
    if snap.media_type == "text/x-freecen-vld":
        info.publisher = "FreeCEN (FreeUKGenealogy)"
        if m := re.search(r"(RG\d{2})(\d{3,5})", info.title):
            info.reference.append(("Piece", f"{m.group(1)}/{m.group(2)}"))
    return info


def _gedcom(snap: Snapshot, info: SourceInfo) -> SourceInfo:
    info.event = "tree"
    info.title = str(snap.metadata.get("filename") or snap.source_name)
    head = snap.text[:3000]
    if m := re.search(r"^1 SOUR (.+)$", head, re.MULTILINE):
        info.identifiers["program"] = m.group(1).strip()
    if m := re.search(r"^1 DATE (.+)$", head, re.MULTILINE):
        info.identifiers["file_date"] = m.group(1).strip()
    if m := re.search(r"^1 SUBM @([^@]+)@", head, re.MULTILINE):
        info.identifiers["submitter"] = m.group(1)
    return info


def _memorial(snap: Snapshot, info: SourceInfo) -> SourceInfo:
    """A memorial page: the burial is its event; the memorial number is in its URL."""
    info.publisher = "Find a Grave"
    info.title = "Find a Grave"
    info.event = "burial"
    if m := _MEMORIAL_ID.search(snap.url or ""):
        info.identifiers["memorial"] = m.group(1)
    if m := _H1.search(snap.text[:5000]):
        info.item = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", m.group(1))).strip()
    return info


def _local(snap: Snapshot, info: SourceInfo) -> SourceInfo:
    name = str(snap.metadata.get("filename") or snap.source_name)
    info.title = name
    info.event = event_from_words(name) or event_from_words(snap.text[:400])
    if snap.page_starts:
        info.identifiers["pages"] = str(len(snap.page_starts))
    return info


def _declared(snap: Snapshot, info: SourceInfo, publisher: str) -> SourceInfo:
    """A page of a source the user declared: the snapshot's own name, the source's name."""
    info = _local(snap, info)
    info.publisher = publisher
    return info


_READERS = {
    SourceKind.FAMILYSEARCH_RECORD: _familysearch,
    SourceKind.WIKITREE_PROFILE: _wikitree,
    SourceKind.WIKIDATA_ENTITY: _wikidata,
    SourceKind.WIKIPEDIA_ARTICLE: _wikipedia,
    SourceKind.NEWSPAPER_PAGE: _newspaper,
    SourceKind.PARISH_REGISTER: _freereg,
    SourceKind.CENSUS: _census,
    SourceKind.GEDCOM_FILE: _gedcom,
    SourceKind.MEMORIAL: _memorial,
    SourceKind.LOCAL_DOCUMENT: _local,
}
