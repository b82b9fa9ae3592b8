"""Text from bytes: strict decoding, a web page's visible text, a PDF's pages.

The lowest layer above the model: sources read files and responses with it, extractors find
spans in what it produced, and both must agree on every character.
"""

from __future__ import annotations

from sleuth.text.decode import decode_text, looks_html, vld_text
from sleuth.text.html import html_text, visible_pieces
from sleuth.text.pdf import pdf_text

__all__ = ["decode_text", "html_text", "looks_html", "pdf_text", "visible_pieces", "vld_text"]
