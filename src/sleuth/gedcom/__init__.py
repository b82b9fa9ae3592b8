"""GEDCOM 5.5.1 / 7.0 reading: character sets (ANSEL included) and a span-keeping tree."""

from sleuth.gedcom.charset import Decoded, decode_ansel, decode_gedcom
from sleuth.gedcom.reader import Gedcom, Node, parse_gedcom

__all__ = ["Decoded", "Gedcom", "Node", "decode_ansel", "decode_gedcom", "parse_gedcom"]
