"""Where an HTML node's visible text sits in a snapshot's text.

The snapshot text of an HTML page is its text nodes' stripped lines joined by "\\n"
(`sleuth.sources.html_text`). Rebuilding that join node by node gives every text node its
exact character spans, so an extractor that selected a node can cite it exactly; when the
rebuild does not reproduce the stored text, callers fall back to finding the node's shown text.
"""

from __future__ import annotations

from selectolax.lexbor import LexborHTMLParser, LexborNode

Span = tuple[int, int]


def text_node_lines(tree: LexborHTMLParser) -> tuple[dict[int, list[Span]], str | None]:
    """Spans of every text node's lines (by `mem_id`) and the text they rebuild (None when
    the page has no body)."""
    root = tree.body or tree.root
    if root is None:
        return {}, None
    lines_of: dict[int, list[Span]] = {}
    parts: list[str] = []
    pos = 0
    for node in root.traverse(include_text=True):
        if not node.is_text_node:
            continue
        spans: list[Span] = []
        for line in (node.text_content or "").strip().splitlines():
            line = line.strip()
            if not line:
                continue
            if parts:
                pos += 1  # the "\n" that joins blocks
            spans.append((pos, pos + len(line)))
            parts.append(line)
            pos += len(line)
        if spans:
            lines_of[node.mem_id] = spans
    return lines_of, "\n".join(parts)


def node_span(node: LexborNode, lines_of: dict[int, list[Span]]) -> Span | None:
    """From the first to the last visible line under `node` (None when it shows nothing)."""
    first: Span | None = None
    last: Span | None = None
    for sub in node.traverse(include_text=True):
        lines = lines_of.get(sub.mem_id) if sub.is_text_node else None
        if lines:
            first = first or lines[0]
            last = lines[-1]
    return (first[0], last[1]) if first and last else None


def shown_text(node: LexborNode) -> str:
    """`node`'s visible text joined the way the snapshot joins it (for a verbatim search)."""
    return "\n".join(
        ln.strip() for ln in node.text(separator="\n", strip=True).splitlines() if ln.strip())
