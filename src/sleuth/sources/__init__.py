"""Sources: where snapshots come from. For now, local files (text, HTML, PDF)."""

from sleuth.sources.local import LoadedFile, decode_text, html_text, load_file

__all__ = ["LoadedFile", "decode_text", "html_text", "load_file"]
