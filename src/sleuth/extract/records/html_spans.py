"""Where an HTML node's visible text sits in a snapshot's text.

The snapshot text of an HTML page (`sleuth.sources.html_text`) is what a reader of the page
sees, one stripped line per piece, joined by "\\n": the text nodes, plus the values a browser
draws inside form controls (a text box's value, the option a drop-down shows, a mark for a
ticked box). `sleuth.text.visible_pieces` is that rendering, node by node, and the
one place it is defined; rebuilding the join from it gives every text node and form control
its exact character spans, so an extractor that selected a node can cite it exactly. When
the rebuild does not reproduce the stored text, callers fall back to finding the node's
shown text.
"""

from __future__ import annotations

from selectolax.lexbor import LexborHTMLParser, LexborNode

from sleuth.text import visible_pieces

Span = tuple[int, int]


def text_node_lines(tree: LexborHTMLParser, text: str | None = None
                    ) -> tuple[dict[int, list[Span]], str | None]:
    """Spans of every visible piece's lines (by `mem_id`) and the text they rebuild (None
    when the page has no body). Given the stored `text`, a snapshot stored before form
    values were shown is indexed with the rendering it was made with."""
    root = tree.body or tree.root
    if root is None:
        return {}, None
    lines_of, rebuilt = _index(root, forms=True)
    if text is not None and rebuilt != text:
        legacy = _index(root, forms=False)
        if legacy[1] == text:
            return legacy
    return lines_of, rebuilt


def _index(root: LexborNode, *, forms: bool) -> tuple[dict[int, list[Span]], str]:
    lines_of: dict[int, list[Span]] = {}
    parts: list[str] = []
    pos = 0
    for mem_id, lines in visible_pieces(root, forms=forms):
        spans: list[Span] = []
        for line in lines:
            if parts:
                pos += 1  # the "\n" that joins pieces
            spans.append((pos, pos + len(line)))
            parts.append(line)
            pos += len(line)
        lines_of[mem_id] = spans
    return lines_of, "\n".join(parts)


def node_span(node: LexborNode, lines_of: dict[int, list[Span]]) -> Span | None:
    """From the first to the last visible line under `node` (None when it shows nothing)."""
    first: Span | None = None
    last: Span | None = None
    for sub in node.traverse(include_text=True):
        lines = lines_of.get(sub.mem_id)
        if lines:
            first = first or lines[0]
            last = lines[-1]
    return (first[0], last[1]) if first and last else None


def shown_text(node: LexborNode) -> str:
    """`node`'s visible text joined the way the snapshot joins it (for a verbatim search)."""
    return "\n".join(ln for _, lines in visible_pieces(node) for ln in lines)


def trim_span(text: str, span: Span, chars: str = " \t\n") -> Span:
    """`span` without the given characters at either end (an empty span stays empty)."""
    s, e = span
    while s < e and text[s] in chars:
        s += 1
    while e > s and text[e - 1] in chars:
        e -= 1
    return s, e
