"""Which process a document belongs to (seed 004, issue 22): the designations it prints for
itself and for the other documents of its process, each cited to its page and excerpt.

A Swedish legislative process is one inquiry's chain: its directive and supplementary
directives ("Dir. 2016:65", "Tilläggsdirektiv … (dir. 2016:65)"), the committee's number
("Forskningsdatautredningen (U 2016:04)"), its reports ("SOU 2014:67"), the government's
proposition ("Prop. 1987/88:155") and the law. A document names the others of its own
process where it tells that process's story; it also names many others in passing (a law
cited, another inquiry's report discussed). So a reference links only where the document
tells its own process:

- `self`: the document's own designation (the first place it prints it);
- `cites`: a directive, report or proposition number in the sentence of one of the
  document's own process events, in a law's "Enligt riksdagens beslut (prop. …)" or its
  footnote "Prop. …, bet. …" (`timeline.extract_events`: "Regeringen beslutade den 29
  augusti 2013 (dir. 2013:83) att tillkalla …", "avlämnade i oktober 1983 betänkandet (SOU
  1983:52)"), or in its title block (the top of its first page, before its first date:
  "Tilläggsdirektiv till Forskningsdatautredningen (U 2016:04)");
- `committee`: the committee's number where the document names the committee ("antagit
  namnet Utredningen om … (S 2013:13)", the title block);
- `metadata`: a directive that ferenda's distilled metadata beside the file says the
  report came from (`rpubl:utgarFran`, `ferenda.read_sidecar`): not the document's text, so
  cited to the metadata file, not to a page.

Documents that share a designation are one process (`group`); its name is the first
directive's number, else the committee's, else the first report's, else the proposition's,
else the document's own.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from sleuth.domains.documents.cite import Pages, citation
from sleuth.domains.documents.dates import find_dates
from sleuth.domains.documents.timeline import Event, extract_events
from sleuth.model import Citation, Snapshot

# Event types whose sentence tells the document's own process (not deadlines, entry into
# force or other dates, whose sentences cite other laws).
PROCESS_EVENTS = frozenset({"directive_issued", "committee_formed", "member_appointed",
                            "report_submitted", "sou_published", "remiss_started",
                            "proposition_submitted", "law_enacted"})
RELATIONS = ("self", "cites", "committee", "metadata")
KEY_KINDS = ("dir", "committee", "sou", "prop", "other")

# A number as OCR may print it: "l991" (l for 1), "199l:109"; read with `_digits`.
_Y = r"(?P<y>[12l][\dlIO]{3})"
_N = r"(?P<n>[\dlIO]{1,4})(?![\w])"
_DIR = re.compile(rf"(?i)\bdir\.\s*{_Y}\s*:\s*{_N}")
_SOU = re.compile(rf"\bSOU\s*{_Y}\s*:\s*{_N}")
_PROP = re.compile(rf"(?i)\bprop\.\s*(?P<y>[12l][\dlIO]{{3}}/[\dlIO]{{2}})\s*:\s*{_N}")
_COMMITTEE = re.compile(r"\(\s*(?P<code>[A-ZÅÄÖ][a-zåäö]{0,2})\s+(?P<y>(?:19|20)\d\d)\s*:\s*"
                        r"(?P<n>\d{1,3})\s*\)")
# The document's own designation as its text prints it.
_DESIGNATION = re.compile(
    r"\b(SOU|Dir\.|Prop\.|[A-Z]{1,5}FS)\s*(\d{4}(?:/\d{2})?)\s*:\s*(\d+)\b"
    r"|\b(REGULATION|DIRECTIVE) \(EU\) (\d{4}/\d+)|FR Doc\. (\d{4}.\d+)")
# A directive's number printed in a box beside its title, read into the title's lines by
# the layout ("Tilläggsdirektiv till Utredningen om en Dir.\növersyn … (Fi 2014:15) 2014:158"):
# after "Dir." at a line's end, the first year:number that is no committee's "(Fi 2014:15)".
_PROP_TITLE = re.compile(r"Regeringens\s+proposition\s+(?P<y>\d{4}/\d{2})\s*:\s*(?P<n>\d+)")
_SPLIT_DIR = re.compile(r"\bDir\.[ \t]*\n")
_YEAR_NO = re.compile(r"(?<![\w(:/])(?<![A-Za-zÅÄÖåäö] )(?P<y>\d{4})\s*:\s*(?P<n>\d{1,4})\b"
                      r"(?!\s*\))")
_ENACTED_ON = re.compile(r"riksdagens\s+beslut[^\n]{0,100}|(?i:prop\.)\s*\S+,\s*bet\.")
_TITLE_BLOCK = 400  # characters at the top of the first page with text, at most
_SENTENCE = re.compile(r"[.;](?=\s+[A-ZÅÄÖ(]|\s*\n\s*[A-ZÅÄÖ])")
_ABBREV = re.compile(r"\b(dir|prop|Dir|Prop|bl\. ?a|m\. ?m|s\. ?k|t\. ?ex|jfr|nr|Kungl)\.$")


@dataclass(frozen=True)
class Link:
    """A designation a document prints for its own process, where, and how it was read."""

    key: str  # "Dir. 2016:65", "U 2016:04", "SOU 1983:52", "Prop. 1987/88:155"
    key_kind: str  # one of KEY_KINDS
    relation: str  # one of RELATIONS
    citation: Citation | None  # None for `metadata`
    page: int | None
    page_label: str | None
    source: str = ""  # `metadata`: the metadata file and the statement read

    @property
    def excerpt(self) -> str:
        return self.citation.excerpt if self.citation else self.source


def _digits(s: str) -> str:
    return s.translate(str.maketrans("lIO", "110"))


def _key(kind: str, y: str, n: str, code: str = "") -> str:
    y, n = _digits(y), _digits(n)
    if not re.fullmatch(r"\d{4}(/\d{2})?", y) or not n.isdigit():
        return ""
    if kind == "dir":
        return f"Dir. {y}:{int(n)}"
    if kind == "sou":
        return f"SOU {y}:{int(n)}"
    if kind == "prop":
        return f"Prop. {y}:{int(n)}"
    return f"{code} {y}:{int(n):02d}"


def key_kind(key: str) -> str:
    """The kind of a designation key (`KEY_KINDS`)."""
    if key.startswith("Dir. "):
        return "dir"
    if key.startswith("SOU "):
        return "sou"
    if key.startswith("Prop. "):
        return "prop"
    if re.fullmatch(r"[A-ZÅÄÖ][a-zåäö]{0,2} \d{4}:\d{2,}", key):
        return "committee"
    return "other"


def is_designation(name: str) -> bool:
    """Whether a name is a designation ("SOU 1972:47", "AFS 2011:19"), not a first line."""
    return key_kind(name) != "other" or _DESIGNATION.fullmatch(name) is not None


def own_designation(snap: Snapshot) -> tuple[str, int, int] | None:
    """The document's own designation ("SOU 1972:47", "Dir. 2016:15", "Prop. 1992/93:30",
    "AFS 2011:19", "REGULATION (EU) 2016/679", "FR Doc. 2020–17221") and where it is
    printed; a directive's number in a box beside its title is read too."""
    text = snap.text
    first = min(len(text), (snap.page_starts[1] if len(snap.page_starts) > 1 else len(text)))
    split = _SPLIT_DIR.search(text, 0, first)
    if split and (m := _YEAR_NO.search(text, split.end(), min(first, split.end() + 160))):
        return _key("dir", m["y"], m["n"]), split.start(), m.end()
    prop = _PROP_TITLE.search(text, 0, min(first, 600))
    if prop and (key := _key("prop", prop["y"], prop["n"])):
        return key, prop.start(), prop.end()
    m = _DESIGNATION.search(text)
    if m is None:
        return None
    if m.group(1):
        word = m.group(1)
        kind = {"SOU": "sou", "Dir.": "dir", "Prop.": "prop"}.get(word)
        name = (_key(kind, m.group(2), m.group(3)) if kind
                else f"{word} {m.group(2)}:{m.group(3)}")
        return name, m.start(), m.end()
    return " ".join(m.group(0).split()), m.start(), m.end()


def printed_designation(snap: Snapshot) -> str | None:
    """The document's own designation as its text prints it ("Regeringens proposition
    1987/88: 155", whitespace made single): the name a candidate's subject is checked
    against in the snapshot (the firewall's no_invented_names)."""
    own = own_designation(snap)
    return None if own is None else " ".join(snap.text[own[1]:own[2]].split())


def _sentence(text: str, lo: int, hi: int, start: int, end: int) -> tuple[int, int]:
    """The sentence around text[start:end] on its page (at most 500 characters each side)."""
    a = lo
    for m in _SENTENCE.finditer(text, max(lo, start - 500), start):
        if not _ABBREV.search(text[max(lo, m.start() - 6):m.end()]):
            a = m.end()
    b = hi
    for m in _SENTENCE.finditer(text, end, min(hi, end + 500)):
        if not _ABBREV.search(text[max(lo, m.start() - 6):m.end()]):
            b = m.end()
            break
    return a, b


def _refs(text: str, a: int, b: int) -> Iterable[tuple[str, str, int, int]]:
    """(key, key kind, start, end) of every designation in text[a:b]."""
    for kind, pattern in (("dir", _DIR), ("sou", _SOU), ("prop", _PROP)):
        for m in pattern.finditer(text, a, b):
            if key := _key(kind, m["y"], m["n"]):
                yield key, kind, m.start(), m.end()
    for m in _COMMITTEE.finditer(text, a, b):
        yield _key("committee", m["y"], m["n"], m["code"]), "committee", m.start(), m.end()


def extract_links(snap: Snapshot, events: Sequence[Event] | None = None,
                  metadata: Mapping[str, object] | None = None) -> list[Link]:
    """The document's links to its process (see the module), one per (key, relation), cited
    where first read; `metadata` is ferenda's sidecar (`snap.metadata["ferenda"]` when
    None)."""
    pages = Pages.of(snap)
    text = snap.text
    evs = extract_events(snap) if events is None else events
    out: dict[tuple[str, str], Link] = {}

    def add(key: str, kind: str, relation: str, start: int, end: int) -> None:
        if (key, relation) in out:
            return
        cit, page, label = citation(snap, pages, start, end)
        out[key, relation] = Link(key, kind, relation, cit, page, label)

    own = own_designation(snap)
    if own is not None:
        add(own[0], key_kind(own[0]), "self", own[1], own[2])
    spans: list[tuple[int, int]] = []
    head = next((i for i, (a, b) in enumerate(zip(pages.starts, pages.ends, strict=True))
                 if text[a:b].strip()), None)
    if head is not None:  # the title block: the first page's top, up to its first date
        a = pages.starts[head]
        b = min(pages.ends[head], a + _TITLE_BLOCK)
        dated = find_dates(text, a, b)
        spans.append((a, dated[0].start if dated else b))
    # a law's "Enligt riksdagens beslut (prop. 2017/18:105)" and its footnote "Prop.
    # 2017/18:105, bet. 2017/18:KU23, rskr. …": the proposition it was enacted on
    for m in _ENACTED_ON.finditer(text, 0, pages.ends[min(1, len(pages.ends) - 1)]):
        spans.append((m.start(), m.end()))
    for ev in evs:
        if ev.event_type in PROCESS_EVENTS:
            lo, hi = pages.bounds(ev.start)
            spans.append(_sentence(text, lo, hi, ev.start, ev.end))
    for a, b in sorted(set(spans)):
        for key, kind, start, end in _refs(text, a, b):
            if own is not None and key == own[0]:
                continue
            add(key, kind, "committee" if kind == "committee" else "cites", start, end)
    for m in re.finditer(r"(?:antagit|antog|under)\s+namnet\s+[^.]{0,160}?(\([^()]{5,20}\))",
                         text):
        for key, kind, _, end in _refs(text, m.start(1), m.end(1)):
            if kind == "committee":
                add(key, kind, "committee", m.start(), end)
    meta = snap.metadata.get("ferenda") if metadata is None else metadata
    stated = meta.get("utgar_fran") if isinstance(meta, Mapping) else None
    if isinstance(meta, Mapping) and isinstance(stated, list):
        for statement in stated:
            found = _DIR.search(str(statement))
            if found and (key := _key("dir", found["y"], found["n"])) not in {k for k, _ in out}:
                out[key, "metadata"] = Link(
                    key, "dir", "metadata", None, None, None,
                    f"{meta.get('file')}: rpubl:utgarFran {statement}")
    return sorted(out.values(), key=lambda link: (RELATIONS.index(link.relation),
                                                  link.citation.locator.start
                                                  if link.citation else 0, link.key))


def _rank(key: str) -> tuple[int, str, int]:
    """Which key names a process: directives first (the earliest), then the committee's
    number, then reports, propositions, the rest."""
    kind = key_kind(key)
    m = re.search(r"(\d{4})(?:/\d{2})?:(\d+)$", key)
    year, num = (m.group(1), int(m.group(2))) if m else ("9999", 0)
    return KEY_KINDS.index(kind), year, num


def process_key(keys: Iterable[str]) -> str:
    """The name of the process these designations belong to (see `_rank`)."""
    return min(keys, key=lambda k: (*_rank(k), k))


def group(documents: Mapping[str, Iterable[str]]) -> dict[str, str]:
    """Documents (id -> their keys: own designation and links) grouped into processes: any
    two that share a key are one process. id -> the process's key (`process_key` over all
    its documents' keys). Independent of the order documents are given in."""
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for doc, keys in documents.items():
        for k in keys:
            a, b = find("doc:" + doc), find("key:" + k)
            if a != b:
                parent[max(a, b)] = min(a, b)
    members: dict[str, set[str]] = {}
    for doc, keys in documents.items():
        members.setdefault(find("doc:" + doc), set()).update(keys)
    return {doc: process_key(members[find("doc:" + doc)] or {f"document {doc}"})
            for doc in documents}
