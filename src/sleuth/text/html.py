"""An HTML page's visible text: what a reader sees, one piece per line, with each node's lines
so extractors can give every node its exact span."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

from sleuth.model import InputError, limits

if TYPE_CHECKING:
    from selectolax.lexbor import LexborNode


# Deeper than this, a page is refused before it is parsed: the HTML parser's time grows with
# the square of the nesting (15,000 levels 0.3 s, 60,000 levels 4 s), and no page a person
# reads nests anywhere near it (issue 26: 200,000 nested <div>s in 1 MB held `ingest` for
# minutes). The count is an upper bound, so an ordinary page can only come out shallower.
MAX_DEPTH = 10_000
_TAG = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9:-]*)[^<>]*?(/?)>")
# Elements that never hold others (void) or whose end tag may be left out: neither deepens
# the tree however many a page has.
_FLAT = frozenset({
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param",
    "source", "track", "wbr", "p", "li", "dt", "dd", "tr", "td", "th", "option", "optgroup",
    "thead", "tbody", "tfoot", "colgroup", "rb", "rt", "rp", "html", "head", "body",
})


def nesting_depth(html: str) -> int:
    """The deepest the page's elements can nest (open tags less closed ones; one pass)."""
    depth = deepest = 0
    for close, name, self_closing in _TAG.findall(html):
        if self_closing or name.lower() in _FLAT:
            continue
        if close:
            depth = max(0, depth - 1)
        else:
            depth += 1
            deepest = max(deepest, depth)
    return deepest


def too_deep(html: str) -> str | None:
    """Why `html` is refused for its nesting ("nested too deeply ..."), or None."""
    if (depth := nesting_depth(html)) > MAX_DEPTH:
        return (f"nested too deeply to read ({depth:,} levels of elements; the limit is "
                f"{MAX_DEPTH:,})")
    return None


def html_text(html: str) -> str:
    """Visible text of an HTML page, one piece per line (scripts and styles dropped).

    What a reader sees, form controls included: a text box's value, the option a drop-down
    shows, a mark by a ticked box (`visible_pieces`, which the HTML extractors also use, via
    `sleuth.extract.records.html_spans`, to give every node its exact span). A page nested
    deeper than `MAX_DEPTH` is refused with one line (InputError), before it is parsed."""
    from selectolax.lexbor import LexborHTMLParser

    if (deep := too_deep(html)) is not None:
        raise InputError(f"HTML {deep}")

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
        limits.checkpoint()
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
