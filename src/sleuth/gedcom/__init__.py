"""GEDCOM 5.5.1 / 7.0 reading: character sets (ANSEL included), a span-keeping tree, and a
stored tree read back (its own citations, notes and custom tags) for outputs."""

from sleuth.gedcom.charset import Decoded, decode_ansel, decode_gedcom
from sleuth.gedcom.reader import Gedcom, Node, parse_gedcom, xref
from sleuth.gedcom.tree import Tree, TreeCitation, tree_citations
from sleuth.gedcom.validate import check_gedcom, read_gedcom_file

__all__ = ["Decoded", "Gedcom", "Node", "Tree", "TreeCitation", "check_gedcom", "decode_ansel",
           "decode_gedcom", "parse_gedcom", "read_gedcom_file", "tree_citations", "xref"]
