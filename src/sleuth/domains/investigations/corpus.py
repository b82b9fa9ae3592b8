"""The offline source: a local corpus folder, searched for leads.

Every file of the folder (hidden ones aside) is read once with sleuth's readers
(`sleuth.sources.load_file`: text, HTML, PDF, hOCR, pdftohtml and ALTO XML, each also as
.bz2), so a captured source keeps its pages. A file that cannot be read is kept with its
one-line error: the research phase records it as a failed capture and a gap, never skips
it silently; so is an entry that is no file to read (a link whose target is missing, a named
pipe, a socket or a device: `not_a_file`), which is never opened (a pipe would wait for a
writer for ever). Chronicling America's title list (`titles_meta.json`) is not a source: it names
the newspaper of each page file (`newspaper_title`).

Search ranks files by BM25 over the query's words, counted as substrings of the folded text
(Swedish compounds: "sekretess" counts in "sekretesslagstiftningskommittén"); the words are
folded as the text is (`fold`), so a search for an abbreviation as written ("OFK") finds
it. An English question searches Swedish documents through a small glossary of
official-prose terms; the ranking is a lead, never evidence, so a word the glossary gets
wrong costs a search, not a fact.
"""

from __future__ import annotations

import json
import math
import re
import stat
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path

from sleuth.model import SleuthError
from sleuth.sources import load_file
from sleuth.sources.local import LoadedFile

_STOP_TEXT = (
    "a an the of in on at to for by with and or but is are was were be been has have "
    "had it its this that these those as from into than then he she they his her "
    "their which who whom what when where why how did does do about any all also "
    "there not no so such sat sit och att som den det för med till av på är har inte "
    "om de en ett från eller vid"
)
_STOP = frozenset(_STOP_TEXT.split())
# English question words → the Swedish words official documents use for them.
GLOSSARY: dict[str, tuple[str, ...]] = {
    "inquiry": ("utredning", "kommitté", "betänkande", "sakkunniga"),
    "committee": ("kommitté", "sakkunniga"),
    "commission": ("kommission", "kommitté"),
    "decide": ("beslut", "förslag", "föreslå"),
    "decided": ("beslut", "förslag", "föreslå"),
    "decision": ("beslut",),
    "propose": ("förslag", "föreslå"),
    "proposed": ("förslag", "föreslå"),
    "proposal": ("förslag",),
    "recommend": ("förslag", "föreslå"),
    "sat": ("sakkunniga", "ledamot", "ordförande"),
    "members": ("sakkunniga", "ledamot", "ledamöter"),
    "member": ("sakkunniga", "ledamot"),
    "chair": ("ordförande",),
    "chaired": ("ordförande",),
    "secretary": ("sekreterare",),
    "experts": ("experter", "sakkunniga"),
    "public": ("offentlig",),
    "access": ("offentlighet",),
    "publicity": ("offentlighet",),
    "secrecy": ("sekretess",),
    "confidentiality": ("sekretess",),
    "privacy": ("integritet",),
    "integrity": ("integritet",),
    "data": ("data",),
    "law": ("lag",),
    "act": ("lag",),
    "government": ("regeringen", "kungl"),
    "report": ("betänkande",),
    "appointed": ("tillkallades", "förordnades"),
    "directive": ("direktiv",),
}
TITLE_LIST = "titles_meta.json"  # Chronicling America's title records, by LCCN: no source
_LCCN = re.compile(r"__(sn\d+)-ed-\d+_seq-\d+")
_TOKEN = re.compile(r"[^\W_]+(?:[-:][^\W_]+)*")
_YEAR = re.compile(r"^(1[5-9]\d\d|20\d\d)$")
K1, B = 1.2, 0.75
ABOUT = 3  # a file naming the question's subjects this often is about them


def fold(text: str) -> str:
    """Text as search compares it, lower-cased: the files' text and the searched words both
    go through it, whoever made the words (a question, a framework, an engine's lead)."""
    return text.lower()


def query_terms(text: str, *, glossary: bool = True) -> list[str]:
    """The words a question searches for: its own (stop words aside), then the glossary's."""
    out: list[str] = []
    for m in _TOKEN.finditer(text.lower()):
        w = m.group(0)
        if w in _STOP or (len(w) < 3 and not w.isdigit()):
            continue
        for t in (w, *(GLOSSARY.get(w, ()) if glossary else ())):
            if t not in out:
                out.append(t)
    return out


# A title's last word: "General Data Protection Regulation", "Supreme Court" name a law or
# a body, and their words are no one's name.
_TITLE = re.compile(r"(?:\b[A-Z][\w'-]*\s+)+(?:Regulations?|Directives?|Acts?|Laws?|Treaty|"
                    r"Convention|Union|Committee|Commission|Court|Council|Parliament|Party|"
                    r"Company|Corporation|Association|Department|Ministry|Agency|Board|Bank|"
                    r"University|Conference|Code|Constitution)\b")


def question_names(question: str) -> set[str]:
    """The names a question asks about, lower-cased: its capitalised words past the first
    ("Wilson", "Hughes", "Villa"), stop words and a title's words aside."""
    titled = {w.lower() for m in _TITLE.finditer(question) for w in _TOKEN.findall(m.group(0))}
    words = _TOKEN.findall(question)
    return {w.lower() for w in words[1:] if w[0].isupper() and len(w) > 2} & set(
        query_terms(question, glossary=False)) - titled - modifiers(question)


# A word after a name that says what the person did ("Smith born", "Wilson elected"): the
# name is the subject, not a qualifier of it.
_VERBISH = re.compile(r"(?:ed|ing)$|^(?:born|die|dies|win|wins|won|say|says|said|do|does|go|"
                      r"goes|went|come|came|become|became|live|lives|write|wrote|lose|lost)$")


def modifiers(question: str) -> set[str]:
    """The question's capitalised words that qualify the noun after them ("German
    submarines", "Swedish inquiry": a capitalised word of its own, before a word that is no
    verb), lower-cased: the noun is what it asks about, and a
    sentence meeting only the qualifier ("Three German aeroplanes") is about something else."""
    words = _TOKEN.findall(question)
    return {b.lower() for a, b, c in zip(words, words[1:], words[2:], strict=False)
            if b[0].isupper() and not a[0].isupper() and c[0].islower()
            and c not in _STOP and len(c) > 2 and not _VERBISH.search(c)}


def newspaper_title(path: Path) -> str:
    """"The Barre daily times (Barre, Vt.)" for a Chronicling America page file
    ("19161113__sn91066782-ed-1_seq-1.txt") beside, or below, the title list it comes with
    (`titles_meta.json`); without the list (or the paper in it) the paper by the LCCN its
    file name gives ("Chronicling America newspaper sn91066782"), never by its OCR'd
    masthead ("THE BAR-EE DAILY TIME"); "" for any other file."""
    m = _LCCN.search(path.name)
    if m is None:
        return ""
    lists = [d / TITLE_LIST for d in (path.parent, path.parent.parent)
             if (d / TITLE_LIST).is_file()]
    titles: object = {}
    if lists:
        with suppress(OSError, ValueError):
            titles = json.loads(lists[0].read_text(encoding="utf-8"))
    record = titles.get(m.group(1)) if isinstance(titles, dict) else None
    if not isinstance(record, dict):
        record = {}
    name = str(record.get("name", "")).strip().rstrip(".")
    place = str(record.get("place_of_publication", "")).strip()
    if not name:
        return f"Chronicling America newspaper {m.group(1)}"
    return f"{name} ({place})" if place else name


def not_a_file(path: Path) -> str:
    """Why a corpus entry is no file to read, found without opening it ("" when it is one):
    a link whose target is missing, or a named pipe, socket or device."""
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        what = "a link whose target does not exist" if path.is_symlink() else "no such file"
        return f"{path}: unreadable: {what}"  # the target unnamed: a path of this machine
    except OSError as exc:  # a loop of links, a folder it may not enter
        return f"{path}: unreadable: {exc.strerror or exc}"
    if stat.S_ISREG(mode):
        return ""
    kind = ("a named pipe (FIFO)" if stat.S_ISFIFO(mode) else "a socket" if
            stat.S_ISSOCK(mode) else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode)
            else "no regular file")
    return f"{path}: not read: {kind}, not a file"


@dataclass
class CorpusFile:
    path: Path
    loaded: LoadedFile | None = None
    error: str = ""
    folded: str = ""

    @property
    def where(self) -> str:
        """The path its source is registered under: links resolved, but a link whose target
        is missing keeps its own name in the corpus (its target is no corpus file)."""
        real = self.path.resolve()
        return str(real if real.exists() else self.path.parent.resolve() / self.path.name)


@dataclass
class Hit:
    path: Path
    score: float
    terms: list[str]
    snippet: str


@dataclass
class Corpus:
    """The files of a corpus folder, read once, and a search over them."""

    root: Path
    files: list[CorpusFile] = field(default_factory=list)

    @classmethod
    def read(cls, root: Path) -> Corpus:
        corpus = cls(root)
        for path in sorted(p for p in root.rglob("*") if not p.is_dir() and p.name != TITLE_LIST
                           and not any(part.startswith(".") for part in p.relative_to(root).parts)):
            entry = CorpusFile(path, error=not_a_file(path))
            if entry.error:
                corpus.files.append(entry)
                continue
            try:
                entry.loaded = load_file(path, source_name="corpus")
                entry.folded = fold(entry.loaded.snapshot.text)
            except SleuthError as exc:
                entry.error = str(exc).splitlines()[0]
            except OSError as exc:
                entry.error = f"{path}: unreadable: {exc.strerror or exc}"
            corpus.files.append(entry)
        return corpus

    @property
    def readable(self) -> list[CorpusFile]:
        return [f for f in self.files if f.loaded is not None]

    @property
    def unreadable(self) -> list[CorpusFile]:
        return [f for f in self.files if f.loaded is None]

    def search(self, terms: list[str], *, limit: int = 5) -> list[Hit]:
        """Files ranked by BM25 over `terms` (a year weighs double), best first; ties by
        path. Only files that hold at least one term. The terms are folded as the text is."""
        docs = self.readable
        terms = [fold(t) for t in terms]
        if not docs or not terms:
            return []
        avg = sum(len(d.folded) for d in docs) / len(docs) or 1.0
        df = {t: sum(1 for d in docs if t in d.folded) for t in terms}
        hits: list[Hit] = []
        for d in docs:
            score, found = 0.0, []
            for t in terms:
                tf = d.folded.count(t)
                if not tf:
                    continue
                idf = math.log(1 + (len(docs) - df[t] + 0.5) / (df[t] + 0.5))
                weight = 2.0 if _YEAR.match(t) else 1.0
                score += weight * idf * tf * (K1 + 1) / (
                    tf + K1 * (1 - B + B * len(d.folded) / avg))
                found.append(t)
            if found:
                hits.append(Hit(d.path, round(score, 4), found, self._snippet(d, found)))
        hits.sort(key=lambda h: (-h.score, str(h.path)))
        return hits[:limit]

    def relevant(self, terms: list[str], names: set[str] | frozenset[str], *,
                 bar: float) -> list[Hit]:
        """The files relevant to a question, best first: those whose score reaches `bar`
        times the best file's, then those that name the question's subjects (`names`, whole
        words) `ABOUT` times or more, by how often: a page about Villa is relevant however
        the words of the rest of the question rank it."""
        names = {fold(n) for n in names}
        hits = self.search(terms, limit=max(len(self.files), 1))
        top = hits[0].score if hits else 0.0
        out = [h for h in hits if h.score >= bar * top]
        if names:
            pat = re.compile(r"(?<!\w)(?:" + "|".join(map(re.escape, sorted(names))) +
                             r")(?!\w)")
            seen = {h.path for h in out}
            about = sorted(((len(pat.findall(f.folded)), f) for f in self.readable
                            if f.path not in seen), key=lambda x: (-x[0], str(x[1].path)))
            by_path = {h.path: h for h in hits}
            out += [by_path.get(f.path) or Hit(f.path, 0.0, [], self._snippet(f, []))
                    for n, f in about if n >= ABOUT]
        return out

    @staticmethod
    def _snippet(d: CorpusFile, found: list[str]) -> str:
        assert d.loaded is not None
        text = d.loaded.snapshot.text
        at = min((d.folded.find(t) for t in found if d.folded.find(t) >= 0), default=0)
        return " ".join(text[max(0, at - 80):at + 120].split())
