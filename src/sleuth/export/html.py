"""The research report as one self-contained HTML file: footnotes link to their sources.

The HTML is rendered from the Markdown report itself (`sleuth.export.report`), so it says
exactly what the Markdown says and nothing more: the same Censor pass, the same redactions
of living persons, the same footnote numbers. What it adds is the evidence behind each
footnote: every cited snapshot's text (from the *censored* graph: a living person's
snapshot text is already withheld there) with each cited excerpt highlighted, and each
footnote linking to its highlight. Everything taken from the case is HTML-escaped before any
markup is added; no script, no external resource.

Long snapshot texts are shown as windows of `CONTEXT` characters around their excerpts. A
snapshot the Censor had to change (it mentions a living person), or, with `mask_names`, one
naming a living person, is shown only as its excerpts, which the Markdown quotes too.
"""

from __future__ import annotations

import bisect
import html
import re
from dataclasses import dataclass
from datetime import date

from sleuth.export.common import REDACTION_MARKERS
from sleuth.export.report import _Report
from sleuth.gps.proof import ProofInputs
from sleuth.model.graph import CaseGraph
from sleuth.model.records import Snapshot

CONTEXT = 1500  # characters shown either side of an excerpt in a long snapshot
FULL_TEXT_LIMIT = 20_000  # snapshots up to this size are shown whole

_CSS = """
body{font-family:Georgia,serif;max-width:60rem;margin:2rem auto;padding:0 1rem;line-height:1.45}
table{border-collapse:collapse;margin:.5rem 0}td,th{border:1px solid #bbb;padding:.2rem .4rem;
vertical-align:top}th{background:#eee}sup a{text-decoration:none}
pre.snap{white-space:pre-wrap;background:#fafafa;border:1px solid #ddd;padding:.5rem;
font-size:.85rem}mark{background:#ffe066}mark:target{background:#ff9f1c;outline:2px solid #c60}
li:target{background:#fff3c4}.gap{color:#888}sup.refs{font-size:.7em;white-space:nowrap}
"""
_FOOTREF = re.compile(r"\[\^(\d+)\]")
_FOOTRUN = re.compile(r"(?:\[\^\d+\])+")
_FOOTDEF = re.compile(r"^\[\^(\d+)\]: (.*)$")
_BOLD = re.compile(r"\*\*([^*]+)\*\*")
_ITALIC = re.compile(r"\*([^*\s][^*]*)\*")
_CODE = re.compile(r"`([^`]+)`")


@dataclass(frozen=True)
class _Span:
    start: int
    end: int
    number: int  # the footnote
    anchor: str  # the highlight's own id (a note quoting several passages has several)


def _refs(m: re.Match[str]) -> str:
    """A run of note marks as one superscript, the numbers separated and each linked:
    [1, 2, 5] rather than "125"."""
    links = []
    for n in _FOOTREF.findall(m.group(0)):
        links.append(f'<a href="#fn-{n}" class="ref" data-ref="{n}">{n}</a>')
    return f'<sup class="refs">[{", ".join(links)}]</sup>'


def _inline(text: str) -> str:
    """Escape, then the Markdown the report uses: **bold**, *italic*, `code`, [^n]."""
    out = html.escape(text, quote=True)
    out = _CODE.sub(r"<code>\1</code>", out)
    out = _BOLD.sub(r"<strong>\1</strong>", out)
    out = _ITALIC.sub(r"<em>\1</em>", out)
    return _FOOTRUN.sub(_refs, out)


def _cells(row: str) -> list[str]:
    row = row.strip()
    row = row[1:] if row.startswith("|") else row
    row = row[:-1] if row.endswith("|") and not row.endswith("\\|") else row
    parts = re.split(r"(?<!\\)\|", row)
    return [p.strip().replace("\\|", "|") for p in parts]


def _markdown(md: str, spans: dict[int, str]) -> str:
    """Render the report's Markdown (a known, small subset) to HTML."""
    out: list[str] = []
    lines = md.splitlines()
    i = 0
    para: list[str] = []

    def flush() -> None:
        if para:
            out.append("<p>" + "<br>".join(_inline(x) for x in para) + "</p>")
            para.clear()

    while i < len(lines):
        line = lines[i]
        if not line.strip():
            flush()
            i += 1
        elif m := re.match(r"^(#{1,3}) (.*)$", line):
            flush()
            n = len(m.group(1))
            out.append(f"<h{n}>{_inline(m.group(2))}</h{n}>")
            i += 1
        elif line.startswith("|"):
            flush()
            rows = []
            while i < len(lines) and lines[i].startswith("|"):
                rows.append(lines[i])
                i += 1
            head, body = _cells(rows[0]), [r for r in rows[1:] if not re.match(r"^\|[-|]+\|$", r)]
            out.append("<table><thead><tr>" + "".join(f"<th>{_inline(c)}</th>" for c in head)
                       + "</tr></thead><tbody>")
            out += ["<tr>" + "".join(f"<td>{_inline(c)}</td>" for c in _cells(r)) + "</tr>"
                    for r in body]
            out.append("</tbody></table>")
        elif _FOOTDEF.match(line):
            flush()
            out.append('<ol class="footnotes">')
            while i < len(lines) and (m := _FOOTDEF.match(lines[i])):
                n = int(m.group(1))
                link = (f' <a href="#{spans[n]}">[highlighted in the source]</a>'
                        if n in spans else "")
                out.append(f'<li id="fn-{n}" value="{n}">{_inline(m.group(2))}{link}</li>')
                i += 1
            out.append("</ol>")
        elif re.match(r"^\s*(- |\d+\. )", line):
            flush()
            out.append("<ul>")
            while i < len(lines) and re.match(r"^\s*(- |\d+\. )", lines[i]):
                item = re.sub(r"^\s*- ", "", lines[i])
                out.append(f"<li>{_inline(item)}</li>")
                i += 1
            out.append("</ul>")
        else:
            para.append(line)
            i += 1
    flush()
    return "\n".join(out)


def _locate(snap: Snapshot, start: int, end: int, excerpt: str) -> tuple[int, int] | None:
    """Where the excerpt stands in the (censored) snapshot text, if it is there verbatim."""
    if excerpt in REDACTION_MARKERS or not excerpt or not snap.text:
        return None
    if snap.text[start:end] == excerpt:
        return start, end
    at = snap.text.find(excerpt)
    return (at, at + len(excerpt)) if at != -1 else None


def _snapshot_html(sid: str, snap: Snapshot, spans: list[_Span], whole: bool) -> str:
    """The snapshot's text, escaped, each span a <mark>; long texts as windows around spans.

    `whole` False: only the excerpts themselves (what the Markdown footnotes quote)."""
    text = snap.text
    spans = sorted(spans, key=lambda s: (s.start, -s.end))
    if not whole:
        windows = [(s.start, s.end) for s in spans]
    elif len(text) <= FULL_TEXT_LIMIT:
        windows = [(0, len(text))]
    else:
        windows = []
        for s in spans:
            lo, hi = max(0, s.start - CONTEXT), min(len(text), s.end + CONTEXT)
            if windows and lo <= windows[-1][1]:  # overlapping windows merge
                windows[-1] = (windows[-1][0], max(hi, windows[-1][1]))
            else:
                windows.append((lo, hi))
    parts: list[str] = []
    starts = [s.start for s in spans]
    for lo, hi in windows:
        if lo > 0:
            parts.append(f'<span class="gap">[… {lo} characters before …]</span>\n')
        pos = lo
        i = bisect.bisect_left(starts, lo)  # spans in this window only: linear overall
        while i < len(spans) and spans[i].start < hi:
            s = spans[i]
            i += 1
            if s.start < pos or s.end > hi:
                continue  # overlaps an earlier highlight: its footnote links there
            parts.append(html.escape(text[pos:s.start]))
            parts.append(f'<mark id="{s.anchor}" data-snapshot="{html.escape(sid)}" '
                         f'data-start="{s.start}" data-end="{s.end}">'
                         f"{html.escape(text[s.start:s.end])}</mark>")
            pos = s.end
        parts.append(html.escape(text[pos:hi]))
        if hi < len(text):
            parts.append(f'\n<span class="gap">[… {len(text) - hi} characters after …]</span>')
    if not whole:
        parts.append('\n<span class="gap">[surrounding text withheld: the source mentions a '
                     "living person]</span>")
    name = html.escape(snap.source_name)
    where = html.escape(snap.url or snap.path or "")
    return (f'<section id="snap-{html.escape(sid)}"><h3>{name}</h3>'
            f"<p><code>{where}</code> · sha256 {snap.sha256[:12]} · accessed "
            f"{snap.accessed_at.date().isoformat()}</p>"
            f'<pre class="snap">{"".join(parts)}</pre></section>')


def to_html(
    graph: CaseGraph,
    *,
    today: date | None = None,
    mask_names: bool = False,
    gps: ProofInputs | None = None,
) -> str:
    """The case as a self-contained HTML report, censored first (see the module docstring)."""
    report = _Report.of_case(graph, today, mask_names, gps)
    md = report.build()
    g = report.g
    by_snap: dict[str, list[_Span]] = {}
    anchors: dict[int, str] = {}
    for note in report.notes.order:
        for c in note.citations:
            sid = c.snapshot_id
            snap = g.snapshots.get(sid)
            loc = c.locator
            found = _locate(snap, loc.start, loc.end, c.excerpt) if snap is not None else None
            if found is None:
                continue
            k = sum(len(v) for v in by_snap.values())
            by_snap.setdefault(sid, []).append(
                _Span(found[0], found[1], note.number, f"ex-{note.number}-{k}"))
    sources: list[str] = []
    raw = report.raw
    assert raw is not None  # `of_case` keeps it
    living = [n.casefold() for p in raw.persons if p.is_living
              for n in (p.canonical_name, *p.name_variants) if n]
    for sid, spans in by_snap.items():
        shown, stored = g.snapshots[sid], raw.snapshots.get(sid)
        # whole text only where the Censor found nothing to change in it (and, with
        # mask_names, where it names no living person): the Markdown shows no more
        whole = stored is not None and stored.text == shown.text and not (
            mask_names and any(n in shown.text.casefold() for n in living))
        sources.append(_snapshot_html(sid, shown, spans, whole))
        host: _Span | None = None
        for s in sorted(spans, key=lambda s: (s.start, -s.end)):
            if host is None or s.start >= host.end:
                host = s  # drawn; a span starting inside it links to it instead
            anchors.setdefault(s.number, host.anchor)
    title = html.escape(g.title or "untitled case")
    body = _markdown(md, anchors)
    evidence = ("<h2>Source texts</h2><p>The stored copy of each cited source, with the "
                "quoted excerpts highlighted. Texts withheld for living persons are not "
                "shown.</p>" + "\n".join(sources)) if sources else ""
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>Research report: {title}</title><style>{_CSS}</style></head>"
            f"<body>\n{body}\n{evidence}\n</body></html>\n")
