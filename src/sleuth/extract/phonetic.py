"""Phonetic keys for matching spelling variants of names across records.

Soundex and NYSIIS come from jellyfish and Double Metaphone from the `metaphone` package.
Daitch–Mokotoff has no maintained Python implementation, so it is written here from the
published rules table (JewishGen / Avotaynu; the same table Apache Commons Codec ships as
`dmrules.txt`), including its branching codes for ambiguous letters (c, ch, ck, j, rs, rz).

Beider–Morse phonetic matching is deliberately left out: its only Python implementation
(abydos) has been unmaintained since 2020, and its rule files are too large to vendor and
verify here. Daitch–Mokotoff plus Double Metaphone cover the same Slavic/Germanic/Yiddish
spelling drift well enough for candidate blocking.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

import jellyfish
from metaphone import doublemetaphone

__all__ = ["daitch_mokotoff", "double_metaphone", "nysiis", "phonetic_keys", "soundex"]

_MAX_INPUT = 200  # names longer than this are junk; keys are computed on the prefix

# (pattern, at start of name, before a vowel, any other position); "|" separates branches.
_DM_TABLE: tuple[tuple[str, str, str, str], ...] = (
    ("schtsch", "2", "4", "4"), ("schtsh", "2", "4", "4"), ("schtch", "2", "4", "4"),
    ("shtch", "2", "4", "4"), ("shtsh", "2", "4", "4"), ("stsch", "2", "4", "4"),
    ("ttsch", "4", "4", "4"), ("zhdzh", "2", "4", "4"), ("shch", "2", "4", "4"),
    ("scht", "2", "43", "43"), ("schd", "2", "43", "43"), ("stch", "2", "4", "4"),
    ("strz", "2", "4", "4"), ("strs", "2", "4", "4"), ("stsh", "2", "4", "4"),
    ("szcz", "2", "4", "4"), ("szcs", "2", "4", "4"), ("ttch", "4", "4", "4"),
    ("tsch", "4", "4", "4"), ("ttsz", "4", "4", "4"), ("zdzh", "2", "4", "4"),
    ("zsch", "4", "4", "4"), ("chs", "5", "54", "54"), ("csz", "4", "4", "4"),
    ("czs", "4", "4", "4"), ("drz", "4", "4", "4"), ("drs", "4", "4", "4"),
    ("dsh", "4", "4", "4"), ("dsz", "4", "4", "4"), ("dzh", "4", "4", "4"),
    ("dzs", "4", "4", "4"), ("sch", "4", "4", "4"), ("sht", "2", "43", "43"),
    ("szt", "2", "43", "43"), ("shd", "2", "43", "43"), ("szd", "2", "43", "43"),
    ("tch", "4", "4", "4"), ("trz", "4", "4", "4"), ("trs", "4", "4", "4"),
    ("tsh", "4", "4", "4"), ("tts", "4", "4", "4"), ("ttz", "4", "4", "4"),
    ("tzs", "4", "4", "4"), ("tsz", "4", "4", "4"), ("zdz", "2", "4", "4"),
    ("zhd", "2", "43", "43"), ("zsh", "4", "4", "4"),
    ("ai", "0", "1", ""), ("aj", "0", "1", ""), ("ay", "0", "1", ""), ("au", "0", "7", ""),
    ("cz", "4", "4", "4"), ("cs", "4", "4", "4"), ("ds", "4", "4", "4"), ("dz", "4", "4", "4"),
    ("dt", "3", "3", "3"), ("ei", "0", "1", ""), ("ej", "0", "1", ""), ("ey", "0", "1", ""),
    ("eu", "1", "1", ""), ("fb", "7", "7", "7"), ("ia", "1", "", ""), ("ie", "1", "", ""),
    ("io", "1", "", ""), ("iu", "1", "", ""), ("ks", "5", "54", "54"), ("kh", "5", "5", "5"),
    ("mn", "66", "66", "66"), ("nm", "66", "66", "66"), ("oi", "0", "1", ""),
    ("oj", "0", "1", ""), ("oy", "0", "1", ""), ("pf", "7", "7", "7"), ("ph", "7", "7", "7"),
    ("sh", "4", "4", "4"), ("sc", "2", "4", "4"), ("st", "2", "43", "43"),
    ("sd", "2", "43", "43"), ("sz", "4", "4", "4"), ("th", "3", "3", "3"),
    ("ts", "4", "4", "4"), ("tc", "4", "4", "4"), ("tz", "4", "4", "4"), ("ui", "0", "1", ""),
    ("uj", "0", "1", ""), ("uy", "0", "1", ""), ("ue", "0", "1", ""), ("zd", "2", "43", "43"),
    ("zh", "4", "4", "4"), ("zs", "4", "4", "4"),
    # Branching: the letter's sound is ambiguous, so both codes are produced.
    ("ck", "5|45", "5|45", "5|45"), ("ch", "4|5", "4|5", "4|5"), ("rs", "4|94", "4|94", "4|94"),
    ("rz", "4|94", "4|94", "4|94"), ("c", "4|5", "4|5", "4|5"), ("j", "1|4", "|4", "|4"),
    ("a", "0", "", ""), ("e", "0", "", ""), ("i", "0", "", ""), ("o", "0", "", ""),
    ("u", "0", "", ""), ("b", "7", "7", "7"), ("d", "3", "3", "3"), ("f", "7", "7", "7"),
    ("g", "5", "5", "5"), ("h", "5", "5", ""), ("k", "5", "5", "5"), ("l", "8", "8", "8"),
    ("m", "6", "6", "6"), ("n", "6", "6", "6"), ("p", "7", "7", "7"), ("q", "5", "5", "5"),
    ("r", "9", "9", "9"), ("s", "4", "4", "4"), ("t", "3", "3", "3"), ("v", "7", "7", "7"),
    ("w", "7", "7", "7"), ("x", "5", "54", "54"), ("y", "1", "", ""), ("z", "4", "4", "4"),
    ("ţ", "3|4", "3|4", "3|4"), ("ț", "3|4", "3|4", "3|4"),  # Romanian t-cedilla / t-comma
    ("ę", "", "", "|6"), ("ą", "", "", "|6"),  # Polish nasal vowels: silent or "n"
)
# Rules by first letter, longest pattern first, as split tuples of branch codes.
_DM_RULES: dict[str, list[tuple[str, tuple[str, ...], tuple[str, ...], tuple[str, ...]]]] = {}
for _pat, _start, _vowel, _other in sorted(_DM_TABLE, key=lambda r: -len(r[0])):
    _DM_RULES.setdefault(_pat[0], []).append(
        (_pat, tuple(_start.split("|")), tuple(_vowel.split("|")), tuple(_other.split("|")))
    )
_DM_VOWELS = frozenset("aeiou")
_DM_KEEP = frozenset("ţțęą")  # letters with their own rules, exempt from accent folding
_FOLD = {"ß": "s", "ł": "l", "æ": "a", "ø": "o", "ð": "d", "þ": "b"}


def _dm_clean(name: str) -> str:
    out: list[str] = []
    for ch in name[:_MAX_INPUT].lower():
        if ch in _DM_KEEP or ("a" <= ch <= "z"):
            out.append(ch)
        elif ch in _FOLD:
            out.append(_FOLD[ch])
        elif ch.isalpha():
            base = unicodedata.normalize("NFKD", ch)[0]
            if "a" <= base <= "z":
                out.append(base)
    return "".join(out)


@lru_cache(maxsize=65536)
def daitch_mokotoff(name: str) -> frozenset[str]:
    """All six-digit Daitch–Mokotoff codes of `name` (several when a letter is ambiguous).

    Follows the published algorithm: codes depend on position (start of name, before a
    vowel, elsewhere); a code equal to the previous one is not repeated unless a vowel or
    silent letter came between (except adjacent M/N); codes are padded with 0 to six digits.
    """
    s = _dm_clean(name)
    if not s:
        return frozenset()
    # Branches: code so far -> last replacement; equal codes merge (the first one wins).
    branches: dict[str, str | None] = {"": None}
    i, n, first, last_ch = 0, len(s), True, ""
    while i < n:
        ch = s[i]
        for pat, start, vowel, other in _DM_RULES.get(ch, ()):
            if not s.startswith(pat, i):
                continue
            nxt = i + len(pat)
            reps = start if first else vowel if nxt < n and s[nxt] in _DM_VOWELS else other
            force = (last_ch, ch) in (("m", "n"), ("n", "m"))
            new: dict[str, str | None] = {}
            for code, prev in branches.items():
                for rep in reps:
                    c = code
                    if (prev is None or not prev.endswith(rep) or force) and len(c) < 6:
                        c = (c + rep)[:6]
                    new.setdefault(c, rep)
            branches = new
            i = nxt
            first = False
            last_ch = ch
            break
        else:
            i += 1
    return frozenset(code.ljust(6, "0") for code in branches)


@lru_cache(maxsize=65536)
def soundex(name: str) -> str:
    """American Soundex (letter + three digits), "" for a name without letters."""
    s = "".join(ch for ch in unicodedata.normalize("NFKD", name[:_MAX_INPUT]) if ch.isalpha())
    return jellyfish.soundex(s) if s else ""


@lru_cache(maxsize=65536)
def nysiis(name: str) -> str:
    """NYSIIS key (New York State Identification and Intelligence System)."""
    s = "".join(ch for ch in unicodedata.normalize("NFKD", name[:_MAX_INPUT]) if ch.isalpha())
    return jellyfish.nysiis(s) if s else ""


@lru_cache(maxsize=65536)
def double_metaphone(name: str) -> tuple[str, str]:
    """(primary, secondary) Double Metaphone keys; secondary is "" when there is none."""
    primary, secondary = doublemetaphone(name[:_MAX_INPUT])
    return primary, secondary


def phonetic_keys(name: str) -> dict[str, str | tuple[str, str] | frozenset[str]]:
    """Every phonetic key of one name, for blocking candidates before fuzzy comparison."""
    return {
        "soundex": soundex(name),
        "nysiis": nysiis(name),
        "double_metaphone": double_metaphone(name),
        "daitch_mokotoff": daitch_mokotoff(name),
    }
