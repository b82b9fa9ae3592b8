"""Evidence Explained citations: full reference note, short note, source-list entry.

One layout per source kind, after the models in Mills, *Evidence Explained* (databases
with images, online trees, wiki entries, newspapers, registers, census, files). Layers are
separated by semicolons, as EE does: where the item is; then what it cites (FamilySearch's
"citing" data: volume, page, film, image, record number). Every note carries the stable
identifier of its kind (ARK, WikiTree ID, QID, LCCN, revision, file name) and the date the
snapshot was taken ("accessed"). Names in a note come from the censored graph or from a
censored snapshot, so an output's redaction also holds in its citations.
"""

from __future__ import annotations

from dataclasses import dataclass

from sleuth.gps.kinds import SourceInfo, SourceKind
from sleuth.model.citation import Citation
from sleuth.model.records import Snapshot

FS_ARK = "https://www.familysearch.org/ark:/61903/"


@dataclass(frozen=True)
class Note:
    full: str  # first reference note
    short: str  # subsequent note
    source_list: str  # bibliography entry (one per source, not per item)


def _accessed(snap: Snapshot | None) -> str:
    if snap is None:
        return ""
    d = snap.accessed_at.date()
    return f"accessed {d.day} {d.strftime('%B')} {d.year}"


def _url_access(url: str, snap: Snapshot | None) -> str:
    acc = _accessed(snap)
    return f"({url} : {acc})" if url and acc else f"({url or acc})" if (url or acc) else ""


def _page(c: Citation | None, snap: Snapshot | None) -> str:
    if c is None:
        return ""
    page = c.locator.page or (snap.page_of(c.locator.start) if snap is not None else None)
    return f"p. {page}" if page else ""


def _join(*parts: str) -> str:
    return ", ".join(p for p in parts if p)


def _q(text: str) -> str:
    return f"\u201c{text}\u201d" if text else ""


def _end(text: str) -> str:
    """Close a note with a period, inside a closing quotation mark (EE, American style)."""
    text = text.rstrip(" ,;")
    if text.endswith("\u201d"):
        return text if text[-2:-1] in ".?!" else text[:-1] + ".\u201d"
    return text if text.endswith(".") else text + "."


def format_note(
    info: SourceInfo,
    snap: Snapshot | None,
    citation: Citation | None = None,
    subject: str = "",
) -> Note:
    """The three EE forms for one citation (`subject`: the person the item is about)."""
    maker = _MAKERS.get(info.kind, _local)
    note = maker(info, snap, citation, subject)
    return Note(_end(note.full), _end(note.short), _end(note.source_list))


def _familysearch(info: SourceInfo, snap: Snapshot | None, c: Citation | None,
                  subject: str) -> Note:
    ark = info.identifiers.get("ark")
    url = f"{FS_ARK}{ark}" if ark else (snap.url if snap and snap.url else "")
    item = info.item or (f"Entry for {subject}" if subject else "")
    cites = "; ".join(f"{k}: {v}" for k, v in info.reference)
    image = info.identifiers.get("image_ark")
    title = info.title
    kind = "database with images" if image else "database"
    if info.event != "tree":
        full = f"{_q(title + ',')} {kind}, FamilySearch {_url_access(url, snap)}"
    else:
        full = f"FamilySearch Family Tree, database {_url_access(url, snap)}"
    full = _join(full, item[:1].lower() + item[1:] if item.startswith("Entry") else item)
    if cites:
        full += f"; citing {cites}"
    if image:
        full += f"; image {FS_ARK}{image}"
    short = _join(_q(title), item, f"ARK {ark}" if ark else "")
    entry = f"{_q(title + '.')} {kind.capitalize()}. FamilySearch. https://www.familysearch.org."
    return Note(full, short, entry)


def _wikitree(info: SourceInfo, snap: Snapshot | None, c: Citation | None,
              subject: str) -> Note:
    wid = info.identifiers.get("wikitree_id", "")
    url = f"https://www.wikitree.com/wiki/{wid}" if wid else (snap.url if snap and snap.url else "")
    full = _join(f"WikiTree: The Free Family Tree, online database {_url_access(url, snap)}",
                 f"profile {wid}" if wid else "", f"cited for {subject}" if subject else "")
    short = _join("WikiTree", _q(wid or subject))
    entry = "WikiTree: The Free Family Tree. Online database. https://www.wikitree.com."
    return Note(full, short, entry)


def _wikidata(info: SourceInfo, snap: Snapshot | None, c: Citation | None,
              subject: str) -> Note:
    qid = info.identifiers.get("qid", "")
    url = f"https://www.wikidata.org/wiki/{qid}" if qid else (snap.url if snap and snap.url else "")
    rev = info.identifiers.get("revision")
    label = info.item or subject
    full = _join(f"Wikidata, entity {_q(label)} ({qid})" if qid else f"Wikidata, {_q(label)}",
                 f"revision {rev}" if rev else "")
    full += f" {_url_access(url, snap)}"
    short = _join("Wikidata", f"{_q(label)} ({qid})" if qid else _q(label))
    entry = "Wikidata. Online knowledge base. Wikimedia Foundation. https://www.wikidata.org."
    return Note(full, short, entry)


def _wikipedia(info: SourceInfo, snap: Snapshot | None, c: Citation | None,
               subject: str) -> Note:
    title = info.item or subject
    url = snap.url if snap and snap.url else (
        f"https://en.wikipedia.org/wiki/{title.replace(' ', '_')}" if title else "")
    rev = info.identifiers.get("revid")
    full = _join(f"Wikipedia, {_q(title)}", f"revision {rev}" if rev else "",
                 f"page id {info.identifiers['pageid']}" if info.identifiers.get("pageid") else "")
    full += f" {_url_access(url, snap)}"
    short = _join("Wikipedia", _q(title))
    entry = "Wikipedia: The Free Encyclopedia. Wikimedia Foundation. https://www.wikipedia.org."
    return Note(full, short, entry)


def _newspaper(info: SourceInfo, snap: Snapshot | None, c: Citation | None,
               subject: str) -> Note:
    title = info.title or (snap.source_name if snap else "newspaper")
    ids = info.identifiers
    issue = ids.get("document_date", "")
    page = _page(c, snap) or (f"p. {ids['page']}" if ids.get("page") else "") or (
        f"seq. {ids['page_sequence']}" if ids.get("page_sequence") else "")
    url = snap.url if snap and snap.url else ""
    full = _join(f"*{title}*", issue, page)
    full += f"; digital images, {info.publisher or 'newspaper archive'} {_url_access(url, snap)}"
    if ids.get("lccn"):
        full += f"; LCCN {ids['lccn']}"
    short = _join(f"*{title}*", issue, page)
    entry = _join(f"*{title}*", f"LCCN {ids['lccn']}" if ids.get("lccn") else "")
    entry += f". Digital images. {info.publisher or 'Newspaper archive'}."
    return Note(full, short, entry)


def _register(info: SourceInfo, snap: Snapshot | None, c: Citation | None,
              subject: str) -> Note:
    church = info.item or "parish"
    county = info.identifiers.get("county", "")
    kind = {"baptism": "baptisms", "burial": "burials", "marriage": "marriages"}.get(
        info.event or "", "register")
    line = f"line {c.locator.line}" if c is not None and c.locator.line else ""
    where = snap.url or snap.path if snap is not None else ""
    full = _join(f"{church}{', ' + county if county else ''}, parish register, {kind}",
                 f"entry for {subject}" if subject else "", line)
    full += (f"; transcription, {info.publisher or 'FreeREG'}, file {_q(info.title)} "
             f"{_url_access(where or '', snap)}")
    short = _join(f"{church}, {kind}", subject)
    entry = (f"{church}{', ' + county if county else ''}. Parish register, {kind}. "
             f"Transcription. {info.publisher or 'FreeREG'}.")
    return Note(full, short, entry)


def _census(info: SourceInfo, snap: Snapshot | None, c: Citation | None,
            subject: str) -> Note:
    refs = "; ".join(f"{k} {v}" for k, v in info.reference)
    where = (snap.url or snap.path or "") if snap is not None else ""
    line = f"line {c.locator.line}" if c is not None and c.locator.line else ""
    full = _join("Census", f"household of {subject}" if subject else "", line)
    if refs:
        full += f"; citing {refs}"
    full += f"; transcription, {info.publisher or 'census index'}, file {_q(info.title)} "
    full += _url_access(where, snap)
    short = _join("Census", refs, subject)
    entry = f"Census. {info.publisher or 'Census index'}. File {_q(info.title)}."
    return Note(full, short, entry)


def _gedcom(info: SourceInfo, snap: Snapshot | None, c: Citation | None,
            subject: str) -> Note:
    ids = info.identifiers
    where = (snap.url or snap.path or "") if snap is not None else ""
    made = _join(f"created by {ids['program']}" if ids.get("program") else "",
                 f"dated {ids['file_date']}" if ids.get("file_date") else "")
    line = f"line {c.locator.line}" if c is not None and c.locator.line else ""
    full = _join(f"{_q(info.title + ',')} GEDCOM file", made,
                 f"record for {subject}" if subject else "", line)
    full += f" {_url_access(where, snap)}"
    short = _join(_q(info.title), subject)
    entry = _join(f"{_q(info.title + '.')} GEDCOM file", made) + "."
    return Note(full, short, entry)


def _memorial(info: SourceInfo, snap: Snapshot | None, c: Citation | None,
              subject: str) -> Note:
    num = info.identifiers.get("memorial", "")
    url = snap.url if snap and snap.url else ""
    who = info.item or subject
    full = _join(f"Find a Grave, database and images {_url_access(url, snap)}",
                 f"memorial {num}" if num else "", who)
    short = _join("Find a Grave", f"memorial {num}" if num else "", who)
    entry = "Find a Grave. Database and images. https://www.findagrave.com."
    return Note(full, short, entry)


def _local(info: SourceInfo, snap: Snapshot | None, c: Citation | None,
           subject: str) -> Note:
    where = (snap.url or snap.path or "") if snap is not None else ""
    what = "PDF document" if snap is not None and snap.media_type == "application/pdf" \
        else "document"
    full = _join(f"{_q(info.title + ',')} {what}", _page(c, snap),
                 f"concerning {subject}" if subject else "")
    full += f" {_url_access(where, snap)}"
    short = _join(_q(info.title), _page(c, snap))
    entry = f"{_q(info.title + '.')} {what.capitalize()}. {where}"
    return Note(full, short, entry)


_MAKERS = {
    SourceKind.FAMILYSEARCH_RECORD: _familysearch,
    SourceKind.WIKITREE_PROFILE: _wikitree,
    SourceKind.WIKIDATA_ENTITY: _wikidata,
    SourceKind.WIKIPEDIA_ARTICLE: _wikipedia,
    SourceKind.NEWSPAPER_PAGE: _newspaper,
    SourceKind.PARISH_REGISTER: _register,
    SourceKind.CENSUS: _census,
    SourceKind.GEDCOM_FILE: _gedcom,
    SourceKind.MEMORIAL: _memorial,
    SourceKind.LOCAL_DOCUMENT: _local,
}
