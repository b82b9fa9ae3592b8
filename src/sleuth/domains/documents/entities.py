"""People, agencies, ministries and committees a document names, with their role in its
process (seed 004 Metadata agent, deterministic), and their deduplication across documents.

Roles: chair, member, expert, secretary, minister, other; beside each the document's own
wording ("sakkunniga, tillika ordförande", "statsrådet", "Föredragande: statsrådet",
"The President"). What is read:

- appointment sentences ("tillkallades den … som sakkunniga verkställande direktören Rune
  Hermansson, tillika ordförande, riksdagsledamoten Erik Adamsson …", "Till sekreterare
  förordnades … assessorn Karl-Olof Lidin"): a title in the definite form, then the name;
- government minutes ("Närvarande: statsministern Carlsson, ordförande, och statsråden
  Feldt, …", "Föredragande: statsrådet Leijon") and "statsrådet X" anywhere;
- signatures ("På regeringens vägnar", "For the European Parliament / The President /
  M. SCHULZ", "Issued on … / Lance T. Gant, / Director, …");
- ministries ("chefen för justitiedepartementet", "(Justitiedepartementet)"), committees
  ("antagit namnet …") and agencies ("AGENCY: Federal Aviation Administration").
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from rapidfuzz import fuzz

from sleuth.domains.documents.cite import Pages, citation
from sleuth.domains.documents.fold import fold
from sleuth.domains.documents.timeline import document_kind
from sleuth.model import Candidate, Citation, Snapshot

ROLES = ("chair", "member", "expert", "secretary", "minister", "other")
KINDS = ("person", "agency", "ministry", "committee")
ENTITY_FIELDS = frozenset(f"{k}_{r}" for k in KINDS for r in ROLES)

_UP = "A-ZÅÄÖÉÈÜÆØÁÀÍÓÚÇÑ"
_LOW = "a-zåäöéèêëüæøáàâíìîïóòôúùûçñß"
_TOKEN = rf"(?:[{_UP}][{_LOW}]+(?:-\n?[{_UP}{_LOW}][{_LOW}]+)?|[{_UP}]\.(?:[{_UP}]\.)?)"
_NAME = rf"{_TOKEN}(?:(?:[ \t]+|[ \t]*\n[ \t]*){_TOKEN}){{1,3}}"
# A title in Swedish definite form (or a linking word), or the year of a date ("anställdes
# den 10 september 2013 Johanna Wasteson"), before a name.
_TITLED = re.compile(rf"(?P<title>\b[{_LOW}][{_LOW}\-\n.]*[{_LOW}.]|\b[{_LOW}]|(?<![\d:])\d{{4}})"
                     rf"[ \t\n]+(?P<name>{_NAME})\b")
_APPOINT = re.compile(r"tillkallades|förordnades|förordnade|förordnats|tillkallats|utsågs|"
                      r"utnämndes|anställdes|ersattes|har\s+arbetat|har\s+tjänstgjort",
                      re.IGNORECASE)
# A definite-form noun before a name ("ordföranden i Arbetsdomstolen Sören Öman"): a body,
# not the person's first name.
_BODY_WORD = re.compile(rf"[{_UP}][{_LOW}]{{5,}}(?:en|et)")
# An active appointing verb: the name after it is the one who appoints ("förordnade Annika
# Strandhäll ... Sören Öman som särskild utredare"), not the one appointed.
_APPOINTER = re.compile(r"förordnade|tillkallade|utsåg|utnämnde", re.IGNORECASE)
_NOT_NAME = re.compile(rf"^(Kungl|Maj|Stockholm|Riksdagen|Sverige|SOU|Prop|Dir|Genom|Med|Till|"
                       rf"Att|Den|De|Det|Lag|EU|[{_UP}][{_LOW}]+(departementet|"
                       rf"utredningen|kommittén|styrelsen|verket))\b")
_GROUP_ROLES = (  # the wording of an appointment sentence and the role it gives
    (re.compile(r"biträdande\s+sekreterare", re.I), "secretary"),
    (re.compile(r"sekreterare", re.I), "secretary"),
    (re.compile(r"experter|expert\b|sakkunnig\s+expert", re.I), "expert"),
    (re.compile(r"särskild\s+utredare|ensamutredare", re.I), "chair"),
    (re.compile(r"(?<!tillika )ordförande", re.I), "chair"),
    (re.compile(r"sakkunniga|sakkunnig|ledamöter|ledamot", re.I), "member"),
)
_TILLIKA = re.compile(r"^,?\s*tillika\s+ordförande")
_PRESENT = re.compile(r"Närvarande:(?P<body>[\s\S]{0,600}?)(?=\nFöredragande|\n[A-ZÅÄÖ][a-zåäö]+"
                      r"\s+[a-zåäö]|\Z)")
_LIST_SPLIT = re.compile(r",\s*|(?<=[a-zåäö]{2})\.\s+|\s+och\s+")
_LIST_TITLE = re.compile(r"^(statsminist\w*|statsråd\w*)\s+")
_LIST_NAME = re.compile(rf"(?:[{_UP}]\.\s*)?(?:af\s+)?[{_UP}][{_LOW}]+")
_STATSRAD = re.compile(rf"(?P<role>Föredragande:\s*statsrådet|statsrådet|statsministern|"
                       rf"departementschefen,?\s+statsrådet)\s+(?P<name>(?:[{_UP}]\.[ \t]*|"
                       rf"[{_UP}][{_LOW}]+(?:-[{_UP}][{_LOW}]+)?[ \t]+)?[{_UP}][{_LOW}]{{2,}})")
_SIGN_SV = re.compile(r"På regeringens vägnar\s*\n(?P<names>(?:[^\n]*(?:\n|$)){1,2})")
_SIGN_EU = re.compile(rf"For the (?P<body>European Parliament|Council)\s*\n\s*(?P<title>The "
                      rf"President)\s*\n\s*(?P<name>[{_UP}][{_UP}.\- ]+[{_UP}])")
_SIGN_US = re.compile(rf"(?:Issued (?:on|in)|Dated:)[^\n]*\d{{4}}\.?\s*\n\s*(?P<name>[{_UP}]"
                      rf"[{_LOW}]+(?: [{_UP}]\.)? [{_UP}][{_LOW}]+),\s*\n\s*(?P<title>[^\n]+)")
_MINISTRY = re.compile(rf"(?P<pre>chefen\s+för\s*|\()?(?<!['’])\b(?P<name>[{_UP}{_LOW}]{{3,}}?"
                       rf"de-?\n?parte-?\n?men-?\n?tet)\b")
_COMMITTEE = re.compile(r"(?:antagit|antog|under)\s+namnet\s+(?P<name>[^.(]{4,120}?)\s*(?:\(|\.|,)")
# "Tilläggsdirektiv till Forskningsdatautredningen (U 2016:04)": the inquiry by its name and
# number (a designation box printed beside the title, "Dir.", is read out of the name).
_SUPPLEMENT_TO = re.compile(r"Tilläggsdirektiv\s+till\s+(?P<name>[^()]{4,160}?)\s*\(\s*"
                            r"[A-ZÅÄÖ][a-zåäö]{0,2}\s*\d{4}\s*:\s*\d+\s*\)")
# A report's cover: "Betänkande av E-delegationen / Stockholm 2013".
_REPORT_BY = re.compile(r"(?:Slutbetänkande|Delbetänkande|Betänkande)\s+(?:av|från)\s+"
                        r"(?P<name>[^\n]{3,100}(?:\n(?!\s*Stockholm)[^\n]{1,100})?)\n\s*Stockholm\b")
# The issuing agency of a statute-book regulation: "Arbetsmiljöverkets föreskrifter".
_ISSUER = re.compile(rf"(?P<name>[{_UP}][{_LOW}]+(?:verket|styrelsen|inspektionen|myndigheten|"
                     rf"nämnden|kollegiet))s\s+föreskrifter")
_AGENCY = re.compile(r"AGENCY:\s*(?P<name>[A-Z][\w ,\n]+?)(?:\s*\(|,|\.)")


@dataclass
class Mention:
    """One place a document names an entity in a role."""

    name: str
    kind: str
    role: str
    role_text: str
    start: int
    end: int
    citation: Citation
    page: int
    page_label: str

    @property
    def excerpt(self) -> str:
        return self.citation.excerpt


@dataclass
class Entity:
    """One person or body across documents: every mention kept."""

    name: str
    kind: str
    key: str
    mentions: list[Mention] = field(default_factory=list)
    variants: list[str] = field(default_factory=list)
    roles: set[str] = field(default_factory=set)  # of every mention, stored ones included


def clean(name: str) -> str:
    """A name as read: line-end hyphens joined ("Adams-\\nson" -> "Adamsson", but "Sven-Erik"
    kept), whitespace single."""
    joined = re.sub(rf"-\n(?=[{_LOW}])", "", name)
    return " ".join(joined.replace("-\n", "-").split())


def _ministry_name(raw: str) -> str:
    name = clean(raw).replace("-", "")
    if name.lower().startswith("för") and len(name) > len("förXdepartementet"):
        name = name[3:]  # OCR glued "för" to the word ("förjustitiedepartementet")
    return name[0].upper() + name[1:]


def _role_of(sentence: str) -> tuple[str, str]:
    """The role the sentence's first role word gives ("som sakkunniga … tillika ordförande":
    member; "Att som experter biträda de sakkunniga": expert); a role word after "som" comes
    before a bare one, which may be a title ("ordföranden i Arbetsdomstolen X som särskild
    utredare": chair as the inquiry's special investigator, not for the court's presidency)."""
    found = [(m.start(), i, role, m) for i, (pattern, role) in enumerate(_GROUP_ROLES)
             if (m := pattern.search(sentence))]
    as_role = [f for f in found
               if re.search(r"\bsom\s+$", sentence[max(0, f[0] - 8):f[0]], re.IGNORECASE)]
    if as_role:
        _, _, role, m = min(as_role, key=lambda f: (f[0], f[1]))
        return role, " ".join(m.group(0).split())
    if not found:
        return "other", ""
    _, _, role, m = min(found, key=lambda f: (f[0], f[1]))
    return role, " ".join(m.group(0).split())


def _sentences(text: str, lo: int, hi: int) -> Iterable[tuple[int, int]]:
    start = lo
    for m in re.finditer(r"[.;](?=\s*\n|\s+[A-ZÅÄÖ])", text[lo:hi]):
        end = lo + m.end()
        if not re.search(r"(Kungl|\b[a-z]|\b[A-Z])\.$", text[max(lo, end - 6):end]):
            yield start, end
            start = end
    yield start, hi


class _Reader:
    def __init__(self, snap: Snapshot) -> None:
        self.snap = snap
        self.kind = document_kind(snap)
        self.issuer_read = False
        self.text = snap.text
        self.pages = Pages.of(snap)
        self.out: list[Mention] = []
        self._seen: set[tuple[str, str, int]] = set()

    def add(self, name: str, kind: str, role: str, role_text: str, start: int, end: int) -> None:
        name = clean(name).strip(" ,.")
        if kind == "person":
            tokens = name.split()
            while len(tokens) > 2 and _BODY_WORD.fullmatch(tokens[0]):
                tokens = tokens[1:]
            name = " ".join(tokens)
        if len(name) < 3 or (kind == "person" and _NOT_NAME.match(name)):
            return
        cit, page, label = citation(self.snap, self.pages, start, end)
        key = (entity_key(name), role, page)
        if key in self._seen:
            return
        self._seen.add(key)
        self.out.append(Mention(name, kind, role, role_text, start, end, cit, page, label))

    def appointments(self, lo: int, hi: int) -> None:
        for a, b in _sentences(self.text, lo, hi):
            sentence = self.text[a:b]
            if not _APPOINT.search(sentence):
                continue
            # the appointed are named after the verb ("tillkallades … som sakkunniga X",
            # "Som särskild utredare förordnades … Y"); the role is read from a little before
            # it on (a list of ministers before a heading is no part of it)
            verb = _APPOINT.search(sentence)
            assert verb is not None
            role, wording = _role_of(sentence[max(0, verb.start() - 120):])
            for m in _TITLED.finditer(sentence, verb.start()):
                if _APPOINTER.fullmatch(m.group("title")):
                    continue
                name_end = a + m.end("name")
                chair = _TILLIKA.match(self.text[name_end:name_end + 40])
                r, t = ("chair", f"{wording}, tillika ordförande".lstrip(", ")) if chair else (
                    role, wording)
                self.add(m.group("name"), "person", r, t, a + m.start("title"), name_end)

    def ministers(self, lo: int, hi: int) -> None:
        page = self.text[lo:hi]
        for pm in _PRESENT.finditer(page):
            body = pm.group("body")
            if "statsråd" not in body:
                continue  # the Council on Legislation's minutes list judges, not ministers
            base, cursor, prime = lo + pm.start("body"), 0, False
            for sep in [*_LIST_SPLIT.finditer(body), None]:
                stop = sep.start() if sep else len(body)
                chunk, at = body[cursor:stop], base + cursor
                cursor = sep.end() if sep else len(body)
                words = re.sub(r"^och\s+", "", chunk.strip())
                title = _LIST_TITLE.match(words)
                if title:
                    prime = title.group(1).startswith("statsminist")
                    words = words[title.end():]
                if _LIST_NAME.fullmatch(words):
                    role_text = "statsministern, ordförande" if prime else "statsråd"
                    self.add(words, "person", "minister", role_text, at, at + len(chunk))
                    prime = False
        for m in _STATSRAD.finditer(page):
            self.add(m.group("name"), "person", "minister", " ".join(m.group("role").split()),
                     lo + m.start(), lo + m.end())
        for m in _SIGN_SV.finditer(page):
            offset = lo + m.start("names")
            for line in m.group("names").split("\n"):
                if re.fullmatch(rf"\s*{_NAME}\s*", line):
                    self.add(line, "person", "minister", "På regeringens vägnar",
                             lo + m.start(), offset + len(line))
                offset += len(line) + 1

    def signatures(self, lo: int, hi: int) -> None:
        page = self.text[lo:hi]
        for m in _SIGN_EU.finditer(page):
            self.add(m.group("name"), "person", "other",
                     f"{m.group('title')} (for the {m.group('body')})", lo + m.start(),
                     lo + m.end())
            self.add(m.group("body"), "agency", "other", "signatory", lo + m.start(),
                     lo + m.end("body"))
        for m in _SIGN_US.finditer(page):
            self.add(m.group("name"), "person", "other", m.group("title").strip(" ,"),
                     lo + m.start(), lo + m.end())

    def bodies(self, lo: int, hi: int) -> None:
        page = self.text[lo:hi]
        for m in _MINISTRY.finditer(page):
            pre = m.group("pre") or ""
            wording = "chefen för departementet" if pre.startswith("chefen") else (
                "ansvarigt departement" if pre == "(" else "departement")
            self.add(_ministry_name(m.group("name")), "ministry", "other", wording,
                     lo + m.start(), lo + m.end())
        for m in _COMMITTEE.finditer(page):
            self.add(m.group("name"), "committee", "other", " ".join(m.group(0).split()[:2]),
                     lo + m.start(), lo + m.end("name"))
        for m in _SUPPLEMENT_TO.finditer(page):
            name = re.sub(r"\s*\bDir\.\s*", " ", m.group("name"))
            self.add(name, "committee", "other", "tilläggsdirektiv till", lo + m.start(),
                     lo + m.end())
        for m in _REPORT_BY.finditer(page):
            self.add(m.group("name"), "committee", "other", "betänkande av", lo + m.start(),
                     lo + m.end("name"))
        if self.kind == "fs" and not self.issuer_read and page.strip():
            self.issuer_read = True  # the first page with text: the regulation's own title
            if issuer := _ISSUER.search(page):
                self.add(issuer.group("name"), "agency", "other", "föreskrifter (issuing agency)",
                         lo + issuer.start(), lo + issuer.end())
        for m in _AGENCY.finditer(page):
            self.add(m.group("name"), "agency", "other", "AGENCY", lo + m.start(),
                     lo + m.end("name"))


def extract_mentions(snap: Snapshot) -> list[Mention]:
    """Every entity mention in a role, at most one per (entity, role, page)."""
    reader = _Reader(snap)
    for lo, hi in zip(reader.pages.starts, reader.pages.ends, strict=True):
        reader.appointments(lo, hi)
        reader.ministers(lo, hi)
        reader.signatures(lo, hi)
        reader.bodies(lo, hi)
    return reader.out


def entity_key(name: str) -> str:
    """A simple normalised key: folded surname, and the first initial when a given name or
    initial is written ("Rune Hermansson" and "R. Hermansson" -> "hermansson|r")."""
    tokens = [t for t in re.split(r"[\s.]+", fold(clean(name))) if t]
    if not tokens:
        return ""
    if len(tokens) == 1:
        return tokens[0]
    return f"{tokens[-1]}|{tokens[0][0]}"


def _surnames_match(sa: str, sb: str) -> bool:
    """Equal or within OCR distance, but not a different name that shares a long ending:
    "Johansson" is not "Hansson", nor "Finansdepartementet" "Näringsdepartementet" (the
    first letters differ)."""
    return sa == sb or (min(len(sa), len(sb)) >= 5 and sa[0] == sb[0]
                        and fuzz.ratio(sa, sb) >= 85)


def _same(a: Entity, key: str, kind: str, strict: bool = False) -> bool:
    if a.kind != kind:
        return False
    sa, _, ia = a.key.partition("|")
    sb, _, ib = key.partition("|")
    if (ia and ib and ia != ib) or (strict and ia != ib):
        return False
    return _surnames_match(sa, sb)


def _block(kind: str, key: str) -> tuple[str, str]:
    """Where the keys `_same` may pair with `key` are: its kind and its surname's first
    letter (`_surnames_match` pairs no surnames whose first letters differ)."""
    return kind, key.partition("|")[0][:1]


class DocumentNames:
    """What `assign` reads of a mention's document, read once per document (read again for
    each mention, it was quadratic in the document's mentions): the keys of each page, by
    kind and surname, and the full names (keys with an initial) it prints, with their
    roles, by `_block`."""

    def __init__(self, page_mentions: Iterable[Mention], document: Iterable[Mention]) -> None:
        self.pages: dict[tuple[int, str], dict[str, set[str]]] = {}
        for x in page_mentions:
            k = entity_key(x.name)
            by_surname = self.pages.setdefault((x.page, x.kind), {})
            by_surname.setdefault(k.partition("|")[0], set()).add(k)
        self.full: dict[tuple[str, str], list[tuple[str, str]]] = {}
        for x in document:
            if "|" in (k := entity_key(x.name)):
                self.full.setdefault(_block(x.kind, k), []).append((k, x.role))

    def beside(self, m: Mention, surname: str) -> set[str]:
        """The keys of `m`'s kind with this surname on `m`'s page."""
        return self.pages.get((m.page, m.kind), {}).get(surname, set())


_NO_NAMES = DocumentNames((), ())


class Entities:
    """The entities mentions are joined to, in order, each with the documents of its
    mentions, found by `_block` and kept current by `assign` (compared with every entity,
    each mention made the join quadratic in the number of entities). `all` is the list
    given, appended to."""

    def __init__(self, entities: list[Entity] | None = None) -> None:
        self.all: list[Entity] = [] if entities is None else entities
        self._docs: list[set[str]] = []
        self._blocks: dict[tuple[str, str], list[int]] = {}
        for i, e in enumerate(self.all):
            self._docs.append({x.citation.snapshot_id for x in e.mentions})
            self._blocks.setdefault(_block(e.kind, e.key), []).append(i)

    def near(self, kind: str, key: str) -> list[tuple[int, Entity]]:
        """(position, entity) of the entities of `key`'s block, in order."""
        return [(i, self.all[i]) for i in self._blocks.get(_block(kind, key), ())]

    def has_document(self, i: int, snapshot_id: str) -> bool:
        """Whether the entity at `i` holds a mention of this document (one read in this
        pass)."""
        return snapshot_id in self._docs[i]

    def append(self, ent: Entity) -> int:
        self.all.append(ent)
        self._docs.append({x.citation.snapshot_id for x in ent.mentions})
        self._blocks.setdefault(_block(ent.kind, ent.key), []).append(len(self.all) - 1)
        return len(self.all) - 1

    def add(self, i: int, m: Mention) -> None:
        """`m` added to the entity at `i`; the fullest name wins. Its block stays: `m` was
        joined by a surname of the same first letter (`_same`)."""
        ent = self.all[i]
        ent.mentions.append(m)
        self._docs[i].add(m.citation.snapshot_id)
        ent.roles.add(m.role)
        if m.name not in ent.variants:
            ent.variants.append(m.name)
        if len(m.name) > len(ent.name):
            ent.name, ent.key = m.name, entity_key(m.name)


def _resolved(m: Mention, key: str, names: DocumentNames) -> str:
    """A surname alone's key, given an initial when its own document names the person in
    full: the one full name of that surname it prints (in the same role, when it prints
    several), unless the mention's page names that one beside it ("statsministern Carlsson
    … R. Carlsson": two people). Otherwise the key it has."""
    if "|" in key:
        return key
    full = [(k, role) for k, role in names.full.get(_block(m.kind, key), ())
            if k not in names.beside(m, (sb := k.partition("|")[0])) and _surnames_match(key, sb)]
    for pool in ({k for k, _ in full}, {k for k, role in full if role == m.role}):
        if len(pool) == 1:
            return next(iter(pool))
    return key


def assign(known: Entities, m: Mention,
           names: DocumentNames | None = None) -> tuple[Entity, bool]:
    """The entity `m` names among `known`, else a new one appended; the mention is added
    to it and the fullest name wins. (entity, new?)

    Same kind, surnames equal or within OCR distance (same first letter, ratio >= 85), and
    initials not in conflict; the same key first, then the same initial. Where the page
    itself tells two people of one surname apart (`names.beside`: the other mentions on its
    page; "statsministern Carlsson … R. Carlsson"), the initials must agree exactly.

    A surname alone is read within its own document (`names.full`: the full names it
    prints): it is the person of that surname the document names in full (`_resolved`),
    joined across documents by that full name; otherwise it is that document's own entity,
    never joined to another document's (two cabinets' "Johansson" are two ministers), and
    never a guess among several. An entity known by a surname alone is, likewise, joined by
    nothing from another document."""
    names = _NO_NAMES if names is None else names
    doc, own = m.citation.snapshot_id, entity_key(m.name)
    strict = bool(names.beside(m, own.partition("|")[0]) - {own})
    key = _resolved(m, own, names)
    initial = key.partition("|")[2]
    found = [(i, e) for i, e in known.near(m.kind, key)
             if ((initial and "|" in e.key) or known.has_document(i, doc))
             and _same(e, key, m.kind, strict)]
    exact = [f for f in found if f[1].key == key]
    chosen: tuple[int, Entity] | None
    if exact:
        chosen = exact[0]
    elif initial and (same := [f for f in found if f[1].key.partition("|")[2] == initial]):
        chosen = same[0]
    else:  # a surname alone on one side: the one person of that name in the same role
        same_role = [f for f in found if m.role in f[1].roles]
        chosen = same_role[0] if len(same_role) == 1 else None
    at = chosen[0] if chosen is not None else known.append(Entity(m.name, m.kind, key))
    known.add(at, m)
    return known.all[at], chosen is None


def dedupe(mentions: Iterable[Mention]) -> list[Entity]:
    """Mentions from any number of documents grouped into entities (`assign`, in order,
    each with the other mentions of its page and of its document)."""
    ms = list(mentions)
    by_doc: dict[str, list[Mention]] = {}
    for m in ms:
        by_doc.setdefault(m.citation.snapshot_id, []).append(m)
    names = {sid: DocumentNames(doc, doc) for sid, doc in by_doc.items()}
    known = Entities()
    for m in ms:
        assign(known, m, names[m.citation.snapshot_id])
    return known.all


def entity_candidates(snap: Snapshot, mentions: list[Mention] | None = None,
                      subject_name: str | None = None) -> list[Candidate]:
    """Each mention as a firewall-ready candidate: field `<kind>_<role>`, the name as value,
    the document's wording in the rationale."""
    ms = extract_mentions(snap) if mentions is None else mentions
    return [Candidate(subject=f"entity:{entity_key(m.name)}", subject_name=subject_name,
                      field=f"{m.kind}_{m.role}", value=m.name, confidence=0.85,
                      citation=m.citation, rationale=f"{m.role_text}; page {m.page_label}")
            for m in ms]
