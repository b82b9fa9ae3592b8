"""Whether a sentence is one in which an inquiry proposes something, and who proposes it.

A report mentions its proposals far more often than it makes them ("Eftersom de ändringar
utredningen föreslår i huvudsak är av formell karaktär, är det inte motiverat att
kommentera dessa …"; "de gallringsbestämmelser som föreslås"; "Kommentarer till förslaget
finns i avsnitt 14.1"). A proposal is made in a main clause, as Swedish official prose
writes it:

- the proposer first, then the verb: "OSK föreslår att …", "Utredningen lägger fram förslag
  …", "Vi föreslår därför …", "Detta betänkande ger förslag på …";
- the verb first, then the proposer (a main clause's inverted order, which no subordinate
  clause has): "Därför föreslår utredningen …", "… lägger utredningen fram principförslag";
- the passive in a main clause: "Lagstiftningen föreslås träda i kraft …", "I paragrafen
  föreslås en ny punkt 4", "I betänkandet lämnas förslag till …";
- and in English: "The committee proposes/recommends …", "it is proposed that …".

A negated proposal ("föreslår inte", "inga förslag") states none.
"""

from __future__ import annotations

import re

_PROPOSER = (r"(?:utredningen|utredaren|kommittén|kommissionen|delegationen|beredningen|"
             r"arbetsgruppen|de\s+sakkunniga|vi|jag|(?:detta\s+|i\s+detta\s+)?betänkande[t]?)")
_VERB = (r"(?:föreslår|föreslog|förordar|rekommenderar|lägger\s+(?:\w+\s+){0,2}fram\s+"
         r"(?:\w+\s+){0,2}\w*förslag|lämnar\s+(?:\w+\s+){0,2}\w*förslag|ger\s+förslag|"
         r"presenterar\s+(?:\w+\s+){0,2}\w*förslag)")
_INVERTED_VERB = r"(?:föreslår|föreslog|förordar|rekommenderar|lägger|lämnar|presenterar)"
_PASSIVE = re.compile(r"\b(?:föreslås|lämnas\s+(?:\w+\s+){0,2}förslag|läggs\s+(?:\w+\s+){0,2}"
                      r"fram\s+(?:\w+\s+){0,2}förslag)\b", re.I)
# A word that opens a subordinate clause: a proposal verb after it is no proposal made.
_SUBORDINATE = re.compile(r"\b(?:som|att|eftersom|då|när|om|vad|vilka|vilken|vilket|såsom|"
                          r"enligt|innan|sedan|medan|trots|huruvida)\b", re.I)
_NEGATED = re.compile(r"\b(?:föreslår|föreslås|förordar|föreslog)\s+(?:\w+\s+)?(?:inte|ej|inga|"
                      r"ingen|inget)\b|\binga\s+förslag\b|\bnot\s+(?:propose|recommend)",
                      re.I)
_EN = re.compile(r"^(?:the\s+)?(?:committee|inquiry|commission|investigator|working\s+group|"
                 r"report|we|i)\s+(?:therefore\s+|also\s+)?(?:propose[sd]?|recommend(?:s|ed)?|"
                 r"put\s+forward)\b|\bit\s+is\s+(?:therefore\s+)?(?:proposed|recommended)\s+"
                 r"that\b", re.I)
_ABBR = re.compile(r"[A-ZÅÄÖ]{2,6}")


def _proposer(abbr: str) -> str:
    return rf"(?:{re.escape(abbr)}|{_PROPOSER})" if abbr else _PROPOSER


def _opening(sentence: str) -> str:
    """The sentence with its leading numbering and punctuation left out."""
    return re.sub(r"^[\W\d_]*", "", sentence)


def proposer(sentence: str) -> str:
    """The body's abbreviation that makes the proposal ("OSK föreslår …" -> "OSK"), or ""."""
    text = _opening(sentence)
    first = re.match(rf"(?P<who>[A-ZÅÄÖ]{{2,6}})\s+{_VERB}", text)
    inverted = re.search(rf"\b{_INVERTED_VERB}\s+(?P<who>[A-ZÅÄÖ]{{2,6}})\b", text)
    m = first or inverted
    return m.group("who") if m and _ABBR.fullmatch(m.group("who")) else ""


def proposes(sentence: str, abbr: str = "") -> bool:
    """Whether the sentence is one in which the inquiry (or the body `abbr`, or any body
    named by its abbreviation) makes a proposal (see the module docstring)."""
    text = " ".join(_opening(sentence).split())
    if not text or _NEGATED.search(text):
        return False
    who = _proposer(abbr)
    if re.match(rf"{who}\s+(?:\w+\s+)?{_VERB}", text, re.I) or proposer(text):
        return True
    if re.search(rf"\b{_INVERTED_VERB}\s+{who}\b", text, re.I):
        return True
    if _EN.search(text):
        return True
    passive = _PASSIVE.search(text)
    if passive:
        clause = re.split(r"[,;:–]", text[:passive.start()])[-1]
        return not _SUBORDINATE.search(clause)
    return False
