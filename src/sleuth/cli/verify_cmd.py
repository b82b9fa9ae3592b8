"""`sleuth verify`: is a claim supported by its evidence? (`sleuth.verify.claims`)

    sleuth verify --claim TEXT --source FILE|SNAPSHOT [--case CASE] [--format json|text]
    sleuth verify --claims FILE.jsonl [--case CASE] [--format json|text]
    (either with [--paraphrase] [--unshown-words N] [--model])

A source is a file read by sleuth's own readers (plain text, HTML's visible text, a PDF's
text layer page by page, OCR XML) or, with `--case`, a snapshot id of that case's store,
read through the privacy Censor (a living person's exact dates, address, phone and e-mail
masked, as every other output shows them); its text is split into sentences and the claim is
checked against them. A claims file has one
JSON object a line: `{"id", "claim", "evidence": [sentences]}` or `{"id", "claim",
"source": path or snapshot id}` (a relative path is read from the claims file's folder).

The output is one JSON object per claim (`ClaimCheck.to_json`: id, verdict, evidence spans,
unsupported spans, rationale), or with `--format text` a short block per claim. Every input
is read and checked before anything is printed: a bad line, an unreadable file or an
unknown snapshot is one error line naming the file and line, and exit status 2.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from sleuth.model.errors import InputError

if TYPE_CHECKING:
    from sleuth.model import CaseGraph, Snapshot
    from sleuth.store import Store
    from sleuth.verify.claims import ClaimCheck


@dataclass
class _Job:
    id: str
    claim: str
    evidence: list[str]
    pages: list[tuple[int, str]] = field(default_factory=list)  # (file page, printed label)


@dataclass
class _Evidence:
    """A source's sentences, and for a paged source (a PDF, a scan's OCR) the page each
    stands on: the file's page number and its printed label ("p. 6, page 2 of the file"),
    so a reader can open the page."""

    sentences: list[str]
    pages: list[tuple[int, str]]


_SNAPSHOT_ID = re.compile(r"[0-9a-f]{32}")  # what a store names a snapshot by

def verify(
    claim: Annotated[
        str | None, typer.Option("--claim", help="the claim to check (with --source)")
    ] = None,
    source: Annotated[
        str | None,
        typer.Option("--source", metavar="FILE|SNAPSHOT",
                     help="the evidence: a text, HTML or PDF file, or a snapshot id of --case"),
    ] = None,
    claims: Annotated[
        Path | None,
        typer.Option("--claims", metavar="FILE.jsonl",
                     help='one {"id", "claim", "evidence": [...] | "source": ...} a line'),
    ] = None,
    case: Annotated[
        Path | None, typer.Option("--case", help="the case whose snapshots --source names")
    ] = None,
    fmt: Annotated[str, typer.Option("--format", help="json (one object a claim) or text")] = (
        "json"
    ),
    unshown_words: Annotated[
        int,
        typer.Option("--unshown-words", min=0,
                     help="content words a supported claim may leave unshown when every "
                          "name, number and date is shown (default 0: all shown)"),
    ] = 0,
    paraphrase: Annotated[
        bool,
        typer.Option("--paraphrase",
                     help="read up to 3 unshown content words (at most half) as a paraphrase "
                          "when the claim is similar enough to its aligned sentences "
                          "(WordLlama, the embed extra; off by default)"),
    ] = False,
    model: Annotated[
        bool,
        typer.Option("--model",
                     help="let the configured LLM (the verifier role) judge entailment on "
                          "top: its quotes must stand in the sentences it cites, and it is "
                          "never asked about a contradicted claim"),
    ] = False,
) -> None:
    """Check claims against evidence: supported, partially_supported, not_supported,
    contradicted or not_found, with the evidence spans and the claim's unsupported spans."""
    if fmt not in ("json", "text"):
        raise InputError(f"unknown format {fmt!r}; use json or text", field="--format")
    if claims is None and (claim is None or source is None):
        raise InputError("give --claim TEXT with --source FILE|SNAPSHOT, or --claims FILE.jsonl",
                         field="--claims")
    if claims is not None and (claim is not None or source is not None):
        raise InputError("--claims reads its claims from the file; leave out --claim and "
                         "--source", field="--claims")
    # Imported here, not at the top: start-up time (issue 19).
    from sleuth.verify.claims import verify_claim

    soft = None
    if paraphrase:
        try:
            from sleuth.verify.soft import load_paraphrase

            soft = load_paraphrase()
        except ImportError as exc:
            raise InputError(f"--paraphrase needs the embed extra (pip install "
                             f"'sleuth[embed]'): {exc}", field="--paraphrase") from None
    sources = _Sources(case)
    try:
        if claims is not None:
            jobs = _read_claims(claims, sources)
        else:
            assert claim is not None and source is not None
            if not claim.strip():
                raise InputError("the claim is empty", field="--claim")
            found = sources.sentences(source, where=None)
            jobs = [_Job("", claim, found.sentences, found.pages)]
    finally:
        sources.close()
    client = None
    if model:
        from sleuth.llm import LLMClient

        client = LLMClient.from_env(case)
        if client is None:
            raise InputError("--model: no LLM is configured (SLEUTH_LLM_* or the case's "
                             "llm.toml; `sleuth llm check`)", field="--model")
    try:
        for job in jobs:
            check = verify_claim(job.claim, job.evidence, claim_id=job.id,
                                 unshown_words=unshown_words, paraphrase=soft)  # fmt: skip
            if client is not None:
                from sleuth.llm.entail import judge_claim

                check = judge_claim(client, check, job.evidence)
            if fmt == "json":
                out = check.to_json()
                out["sentences"] = [{"sentence_index": i, "text": job.evidence[i],
                                     **({"page": job.pages[i][0], "page_label": job.pages[i][1]}
                                        if job.pages else {})}
                                    for i in check.sentence_indexes]  # the context to read
                typer.echo(json.dumps(out, ensure_ascii=False))
            else:
                typer.echo(_text(check, job.evidence, job.pages))
    finally:
        if client is not None:
            client.close()


SHOWN_SENTENCE = 400  # characters of an evidence sentence the text format prints


def _text(check: ClaimCheck, evidence: list[str], pages: list[tuple[int, str]]) -> str:
    head = f"{check.id}: " if check.id else ""
    lines = [f"{head}{check.verdict.upper()}  {check.claim}", f"  {check.rationale}"]
    for start, end, text in check.unsupported_spans:
        lines.append(f"  unsupported [{start}:{end}] {text!r}")
    for index in check.sentence_indexes:
        spans = ", ".join(repr(s.text) for s in check.evidence if s.sentence_index == index)
        where = f" ({_page(*pages[index])})" if pages else ""
        lines.append(f"  evidence sentence {index}{where}: {spans}")
        sentence = " ".join(evidence[index].split())
        cut = "…" if len(sentence) > SHOWN_SENTENCE else ""
        lines.append(f"    “{sentence[:SHOWN_SENTENCE]}{cut}”")
    return "\n".join(lines)


def _paged(snap: Snapshot, text: str) -> _Evidence:
    """The text's sentences, page by page when the source has pages (a sentence does not run
    on over a page break, as a printed page ends its column)."""
    from sleuth.domains.documents.cite import Pages
    from sleuth.verify.claims import split_sentences

    if len(snap.page_starts) < 2:
        return _Evidence(split_sentences(text), [])
    paged = Pages.of(snap)
    sentences: list[str] = []
    pages: list[tuple[int, str]] = []
    for i, (a, b) in enumerate(zip(paged.starts, paged.ends, strict=True)):
        found = split_sentences(text[a:b])
        sentences += found
        pages += [(i + 1, paged.labels[i])] * len(found)
    return _Evidence(sentences, pages)


def _page(number: int, label: str) -> str:
    return f"p. {label}" if label == str(number) else f"p. {label}, page {number} of the file"


class _Sources:
    """Evidence sentences for a `--source` or a line's `source`: a file through sleuth's
    readers, else a snapshot of `--case`, read once each."""

    def __init__(self, case: Path | None) -> None:
        self.case = case
        self._store: Store | None = None
        self._graph: CaseGraph | None = None
        self._seen: dict[str, _Evidence] = {}

    def sentences(self, name: str, *, where: tuple[str, int] | None,
                  base: Path | None = None) -> _Evidence:  # fmt: skip
        path = Path(name)
        if base is not None and not path.is_absolute():
            path = base / path
        key = str(path.resolve()) if path.exists() else f"snapshot:{name}"
        if key not in self._seen:
            snap, text = self._read(name, path, where)
            self._seen[key] = _paged(snap, text)
        return self._seen[key]

    def _read(self, name: str, path: Path, where: tuple[str, int] | None
              ) -> tuple[Snapshot, str]:  # fmt: skip
        from sleuth.sources.local import load_file

        if not path.exists() and self.case is None and _SNAPSHOT_ID.fullmatch(name):
            msg = (f"no such file {name!r}; to read it as a snapshot id, name its case "
                   f"with --case CASE")
            if where is None:
                raise InputError(msg, field="--source")
            raise InputError(msg, file=where[0], line=where[1])
        if path.exists() or self.case is None:
            try:
                snap = load_file(path).snapshot
                return snap, snap.text
            except InputError as exc:
                if where is None:
                    raise
                raise InputError(f"source {name!r}: {exc}", file=where[0],
                                 line=where[1]) from None  # fmt: skip
        from sleuth.cli.common import open_case
        from sleuth.model.errors import NotFound

        if self._store is None:
            if not self.case.is_dir():
                raise InputError("no such case folder", file=str(self.case), field="--case")
            self._store = open_case(self.case)
        try:
            snap = self._store.snapshot(name)
        except NotFound:
            msg = f"no file and no snapshot {name!r} in case {self.case}"
            if where is None:
                raise InputError(msg, field="--source") from None
            raise InputError(msg, file=where[0], line=where[1]) from None
        return snap, self._censored(snap)

    def _censored(self, snap: Snapshot) -> str:
        """The snapshot's text as the privacy Censor shows it: the evidence spans quote it, so
        a living person's exact dates, address, phone or e-mail must not reach the output
        (masks keep the text's length; a text cited only for the living is dropped)."""
        from sleuth.privacy import censor
        from sleuth.store import case_graph

        assert self._store is not None
        if self._graph is None:
            self._graph = case_graph(self._store)
        graph = self._graph
        if snap.id not in graph.snapshots:  # the graph holds the cited snapshots only
            graph = graph.model_copy(update={"snapshots": {**graph.snapshots, snap.id: snap}})
        return censor(graph).snapshots[snap.id].text

    def close(self) -> None:
        if self._store is not None:
            self._store.close()


def _read_claims(path: Path, sources: _Sources) -> list[_Job]:
    where = str(path)
    try:
        raw = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError("no such file", file=where) from None
    except IsADirectoryError:
        raise InputError("is a directory, not a file", file=where) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read: {exc}", file=where) from None
    jobs: list[_Job] = []
    seen: dict[str, int] = {}  # id -> its line
    for n, line in enumerate(raw.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(f"not a JSON object: {exc.msg} (column {exc.colno})", file=where,
                             line=n) from None  # fmt: skip
        if not isinstance(row, dict):
            raise InputError("not a JSON object", file=where, line=n)
        claim = row.get("claim")
        if not isinstance(claim, str) or not claim.strip():
            raise InputError('"claim" must be a non-empty string', file=where, line=n)
        ident = row.get("id", f"{n}")  # a line without an id is named by its line number
        if not isinstance(ident, (str, int)):
            raise InputError('"id" must be a string', file=where, line=n)
        if str(ident) in seen:  # two results of one name could not be told apart
            raise InputError(f"duplicate id {str(ident)!r} (first on line {seen[str(ident)]})",
                             file=where, line=n, field="id")  # fmt: skip
        seen[str(ident)] = n
        evidence = row.get("evidence")
        source = row.get("source")
        if (evidence is None) == (source is None):
            raise InputError('give exactly one of "evidence" (a list of sentences) and '
                             '"source" (a file or snapshot id)', file=where, line=n)
        if evidence is not None:
            if not isinstance(evidence, list) or not all(isinstance(s, str) for s in evidence):
                raise InputError('"evidence" must be a list of strings', file=where, line=n)
            found = _Evidence(list(evidence), [])
        else:
            if not isinstance(source, str) or not source.strip():
                raise InputError('"source" must be a file path or a snapshot id', file=where,
                                 line=n)  # fmt: skip
            found = sources.sentences(source, where=(where, n), base=path.parent)
        jobs.append(_Job(str(ident), claim, found.sentences, found.pages))
    if not jobs:
        raise InputError('no claims: the file has no line {"id", "claim", "evidence" | '
                         '"source"}', file=where)  # fmt: skip
    return jobs
