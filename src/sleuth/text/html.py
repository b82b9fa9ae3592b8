"""An HTML page's visible text: what a reader sees, one piece per line, with each node's lines
so extractors can give every node its exact span."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from selectolax.lexbor import LexborNode


def html_text(html: str) -> str:
    """Visible text of an HTML page, one piece per line (scripts and styles dropped).

    What a reader sees, form controls included: a text box's value, the option a drop-down
    shows, a mark by a ticked box (`visible_pieces`, which the HTML extractors also use, via
    `sleuth.extract.records.html_spans`, to give every node its exact span)."""
    from selectolax.lexbor import LexborHTMLParser

    tree = LexborHTMLParser(html)
    for node in tree.css("script, style, noscript, template"):
        node.decompose()
    root = tree.body or tree.root
    if root is None:
        return ""
    return "\n".join(ln for _, lines in visible_pieces(root) for ln in lines)


# <input> types whose value a browser draws as text in the box (unknown types render as
# text; buttons show their value as their label). Not drawn: hidden, password (dots, and a
# secret), file, image, color, range; radio and checkbox draw only a mark (CHECKED).
_VALUE_HIDDEN = frozenset({"hidden", "password", "file", "image", "color", "range"})
# The mark a text browser (w3m, lynx) draws for a ticked radio button or check box; its label
# is ordinary text beside it. Unticked boxes draw nothing, to keep form-heavy pages readable.
CHECKED = {"radio": "(*)", "checkbox": "[X]"}


def control_text(node: LexborNode) -> str | None:
    """What a form control draws inside itself (None when nothing, or not an <input>).

    Placeholders are left out: greyed hints ("E.g. 2012"), not the page's data. Textarea
    content and option labels are text nodes, handled in `visible_pieces`."""
    if node.tag != "input":
        return None
    attrs = node.attributes
    kind = (attrs.get("type") or "").strip().lower()
    if kind in CHECKED:
        shown = CHECKED[kind] if "checked" in attrs else None
    elif kind in _VALUE_HIDDEN:
        return None
    else:
        shown = attrs.get("value") or None
    return shown if shown and not _not_rendered(node) else None


def _not_rendered(node: LexborNode) -> bool:
    """Marked in the markup itself as not drawn (`hidden`, inline `display:none`), here or
    on an ancestor. Stylesheets are not consulted (text nodes are shown regardless of them)."""
    cur: LexborNode | None = node
    while cur is not None and cur.tag not in ("body", "html"):
        attrs = cur.attributes
        if "hidden" in attrs:
            return True
        if "display:none" in (attrs.get("style") or "").replace(" ", "").lower():
            return True
        cur = cur.parent
    return False


def _unshown_text(root: LexborNode) -> set[int]:
    """Text nodes a browser does not draw: a drop-down's options other than the one it
    shows (the last selected one, else the first enabled one), and datalist suggestions."""
    skip: set[int] = set()
    for select in root.css("select"):
        attrs = select.attributes
        size = (attrs.get("size") or "").strip()
        if "multiple" in attrs or (size.isdigit() and int(size) > 1):
            continue  # a list box shows its options
        options = select.css("option")
        shown = next((o for o in reversed(options) if "selected" in o.attributes), None)
        if shown is None:
            shown = next((o for o in options if "disabled" not in o.attributes), None)
        for option in options:
            if shown is None or option.mem_id != shown.mem_id:
                skip.update(n.mem_id for n in option.traverse(include_text=True))
    for datalist in root.css("datalist"):
        skip.update(n.mem_id for n in datalist.traverse(include_text=True))
    return skip


def visible_pieces(root: LexborNode, *, forms: bool = True) -> Iterator[tuple[int, list[str]]]:
    """(`mem_id`, stripped non-empty lines) of every node under `root` that shows text, in
    document order: the snapshot text is all their lines joined by "\n". `forms=False` is
    the rendering used before form values were shown (every option label, no control
    values), so snapshots stored then can still be indexed exactly."""
    skip = _unshown_text(root) if forms else set()
    for node in root.traverse(include_text=True):
        if node.is_text_node:
            if node.mem_id in skip:
                continue
            raw = node.text_content or ""
        elif forms and node.tag == "input":
            raw = control_text(node) or ""
        else:
            continue
        lines = [ln for ln in (part.strip() for part in raw.strip().splitlines()) if ln]
        if lines:
            yield node.mem_id, lines
