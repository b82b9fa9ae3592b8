"""GEDCOM 7.0's structure table: which substructures each structure type may hold.

A tree's own structures (citations, notes, media links, custom tags) are written back into
our exports; a 5.5.1 tree exported as 7.0 must still be a valid 7.0 file, so each carried
structure is checked here against the 7.0 specification's table (gedcom.io/terms/v7,
transcribed as `parent-type TAG[=child-type] ...`; `*n` names a tag set several types share)
and what 7.0 has no place for becomes an extension tag (`_TAG`) that keeps its data.
"""

from __future__ import annotations

from functools import cache

_TABLE = """
*0 ADDR AGE AGNC ASSO CAUS DATE EMAIL FAX NOTE OBJE PHON PLAC RELI RESN SDATE SNOTE SOUR
    TYPE UID WWW
*1 ADDR AGNC ASSO CAUS DATE EMAIL FAX HUSB NOTE OBJE PHON PLAC RELI RESN SDATE SNOTE SOUR
    TYPE UID WIFE WWW
*2 PHRASE
*3 DATE NOTE PLAC SNOTE SOUR STAT=ord-STAT TEMP
ADDR ADR1 ADR2 ADR3 CITY CTRY POST STAE
ADOP ADDR AGE AGNC ASSO CAUS DATE EMAIL FAMC=ADOP-FAMC FAX NOTE OBJE PHON PLAC RELI RESN
    SDATE SNOTE SOUR TYPE UID WWW
ADOP-FAMC ADOP=FAMC-ADOP
AGE *2
ALIA *2
ANUL *1
ASSO NOTE PHRASE ROLE SNOTE SOUR
BAPL *3
BAPM *0
BARM *0
BASM *0
BIRT ADDR AGE AGNC ASSO CAUS DATE EMAIL FAMC FAX NOTE OBJE PHON PLAC RELI RESN SDATE SNOTE
    SOUR TYPE UID WWW
BLES *0
BURI *0
CALN MEDI
CAST *0
CHAN DATE=DATE-exact NOTE SNOTE
CHIL *2
CHR ADDR AGE AGNC ASSO CAUS DATE EMAIL FAMC FAX NOTE OBJE PHON PLAC RELI RESN SDATE SNOTE
    SOUR TYPE UID WWW
CHRA *0
CONF *0
CONL *3
CORP ADDR EMAIL FAX PHON WWW
CREA DATE=DATE-exact
CREM *0
CROP HEIGHT LEFT TOP WIDTH
DATA AGNC EVEN=DATA-EVEN NOTE SNOTE
DATA-EVEN DATE=DATA-EVEN-DATE PLAC
DATA-EVEN-DATE *2
DATE PHRASE TIME
DATE-exact TIME
DEAT *0
DIV *1
DIVF *1
DSCR *0
EDUC *0
EMIG *0
ENDL *3
ENGA *1
EXID TYPE=EXID-TYPE
FAM-CENS *1
FAM-EVEN *1
FAM-FACT *1
FAM-HUSB *2
FAM-NCHI *1
FAM-RESI *1
FAM-WIFE *2
FAMC-ADOP *2
FAMC-STAT *2
FAMS NOTE SNOTE
FCOM *0
FILE FORM TITL TRAN=FILE-TRAN
FILE-TRAN FORM
FORM MEDI
GRAD *0
HUSB AGE
IDNO *0
IMMI *0
INDI-CENS *0
INDI-EVEN *0
INDI-FACT *0
INDI-FAMC NOTE PEDI SNOTE STAT=FAMC-STAT
INDI-NAME GIVN NICK NOTE NPFX NSFX SNOTE SOUR SPFX SURN TRAN=NAME-TRAN TYPE=NAME-TYPE
INDI-NCHI *0
INDI-RELI *0
INDI-RESI *0
INDI-TITL *0
INIL *3
MAP LATI LONG
MARB *1
MARC *1
MARL *1
MARR *1
MARS *1
MEDI *2
NAME-TRAN GIVN LANG NICK NPFX NSFX SPFX SURN
NAME-TYPE *2
NATI *0
NATU *0
NMR *0
NO DATE=NO-DATE NOTE SNOTE SOUR
NO-DATE *2
NOTE LANG MIME SOUR TRAN=NOTE-TRAN
NOTE-TRAN LANG MIME
OBJE CROP TITL
OCCU *0
ORDN *0
PEDI *2
PLAC EXID FORM=PLAC-FORM LANG MAP NOTE SNOTE TRAN=PLAC-TRAN
PLAC-TRAN LANG
PROB *0
PROP *0
REFN TYPE
REPO CALN NOTE SNOTE
RETI *0
ROLE *2
ROOT FAM=record-FAM INDI=record-INDI OBJE=record-OBJE REPO=record-REPO SNOTE=record-SNOTE
    SOUR=record-SOUR SUBM=record-SUBM
SDATE PHRASE TIME
SLGC DATE FAMC NOTE PLAC SNOTE SOUR STAT=ord-STAT TEMP
SLGS *3
SOUR DATA=SOUR-DATA EVEN=SOUR-EVEN NOTE OBJE PAGE QUAY SNOTE
SOUR-DATA DATE TEXT
SOUR-EVEN PHRASE ROLE
SSN *0
TEXT LANG MIME
WIFE AGE
WILL *0
ord-STAT DATE=DATE-exact
record-FAM ANUL ASSO CENS=FAM-CENS CHAN CHIL CREA DIV DIVF ENGA EVEN=FAM-EVEN EXID
    FACT=FAM-FACT HUSB=FAM-HUSB MARB MARC MARL MARR MARS NCHI=FAM-NCHI NO NOTE OBJE REFN
    RESI=FAM-RESI RESN SLGS SNOTE SOUR SUBM UID WIFE=FAM-WIFE
record-INDI ADOP ALIA ANCI ASSO BAPL BAPM BARM BASM BIRT BLES BURI CAST CENS=INDI-CENS CHAN
    CHR CHRA CONF CONL CREA CREM DEAT DESI DSCR EDUC EMIG ENDL EVEN=INDI-EVEN EXID
    FACT=INDI-FACT FAMC=INDI-FAMC FAMS FCOM GRAD IDNO IMMI INIL NAME=INDI-NAME NATI NATU
    NCHI=INDI-NCHI NMR NO NOTE OBJE OCCU ORDN PROB PROP REFN RELI=INDI-RELI RESI=INDI-RESI
    RESN RETI SEX SLGC SNOTE SOUR SSN SUBM TITL=INDI-TITL UID WILL
record-OBJE CHAN CREA EXID FILE NOTE REFN RESN SNOTE SOUR UID
record-REPO ADDR CHAN CREA EMAIL EXID FAX NAME NOTE PHON REFN SNOTE UID WWW
record-SNOTE CHAN CREA EXID LANG MIME REFN SOUR TRAN=NOTE-TRAN UID
record-SOUR ABBR AUTH CHAN CREA DATA EXID NOTE OBJE PUBL REFN REPO SNOTE TEXT TITL UID

"""

# Record types by their record tag, and the record type each pointer-valued structure names.
RECORD_TYPES = {"FAM": "record-FAM", "INDI": "record-INDI", "OBJE": "record-OBJE",
                "REPO": "record-REPO", "SNOTE": "record-SNOTE", "SOUR": "record-SOUR",
                "SUBM": "record-SUBM"}
POINTS_TO = {
    "ADOP-FAMC": "FAM", "FAMC": "FAM", "FAMS": "FAM", "INDI-FAMC": "FAM", "ALIA": "INDI",
    "ASSO": "INDI", "CHIL": "INDI", "FAM-HUSB": "INDI", "FAM-WIFE": "INDI", "OBJE": "OBJE",
    "REPO": "REPO", "SNOTE": "SNOTE", "SOUR": "SOUR", "ANCI": "SUBM", "DESI": "SUBM",
    "SUBM": "SUBM",
}
# Structure types that take no payload, or only `Y`.
NO_PAYLOAD = frozenset({
    "BAPL", "CHAN", "CONL", "CREA", "CROP", "DATA", "ENDL", "HUSB", "INIL", "MAP", "SLGC",
    "SLGS", "SOUR-DATA", "WIFE", "record-FAM", "record-INDI", "record-OBJE", "record-REPO",
    "record-SOUR", "record-SUBM",
})
FLAG = frozenset({
    "ADOP", "ANUL", "BAPM", "BARM", "BASM", "BIRT", "BLES", "BURI", "CHR", "CHRA", "CONF",
    "CREM", "DEAT", "DIV", "DIVF", "EMIG", "ENGA", "FAM-CENS", "FCOM", "GRAD", "IMMI",
    "INDI-CENS", "MARB", "MARC", "MARL", "MARR", "MARS", "NATU", "ORDN", "PROB", "RETI", "WILL",
})
_EVENTS = frozenset(t for t in FLAG if "-" not in t) | {"CENS", "EVEN", "RESI", "FACT"}
# Enumerations (7.0 section 3.4); where OTHER is listed, an unknown value becomes OTHER with
# the original as its PHRASE.
ENUMS: dict[str, frozenset[str]] = {
    "FAMC-ADOP": frozenset({"HUSB", "WIFE", "BOTH"}),
    "FAMC-STAT": frozenset({"CHALLENGED", "DISPROVEN", "PROVEN"}),
    "MEDI": frozenset({"AUDIO", "BOOK", "CARD", "ELECTRONIC", "FICHE", "FILM", "MAGAZINE",
                       "MANUSCRIPT", "MAP", "NEWSPAPER", "PHOTO", "TOMBSTONE", "VIDEO",
                       "OTHER"}),
    "NAME-TYPE": frozenset({"AKA", "BIRTH", "IMMIGRANT", "MAIDEN", "MARRIED", "PROFESSIONAL",
                            "OTHER"}),
    "PEDI": frozenset({"ADOPTED", "BIRTH", "FOSTER", "SEALING", "OTHER"}),
    "QUAY": frozenset({"0", "1", "2", "3"}),
    "ROLE": frozenset({"CHIL", "CLERGY", "FATH", "FRIEND", "GODP", "HUSB", "MOTH", "MULTIPLE",
                       "NGHBR", "OFFICIATOR", "PARENT", "SPOU", "WIFE", "WITN", "OTHER"}),
    "SEX": frozenset({"M", "F", "X", "U"}),
    "SOUR-EVEN": _EVENTS,
    "NO": _EVENTS,
    "ord-STAT": frozenset({"BIC", "CANCELED", "CHILD", "COMPLETED", "EXCLUDED", "DNS",
                           "DNS_CAN", "INFANT", "PRE_1970", "STILLBORN", "SUBMITTED",
                           "UNCLEARED"}),
}
ENUM_LISTS: dict[str, frozenset[str]] = {
    "RESN": frozenset({"CONFIDENTIAL", "LOCKED", "PRIVACY"}),
    "DATA-EVEN": _EVENTS,
}
DATES = frozenset({"DATE", "SDATE", "DATE-exact", "DATA-EVEN-DATE", "NO-DATE"})
# Tags of 7.0 that 5.5.1 does not know (written there as `_TAG`, SNOTE as NOTE).
V7_ONLY = frozenset({"CREA", "CROP", "EXID", "HEIGHT", "INIL", "LEFT", "MIME", "NO", "PHRASE",
                     "ROLE", "SCHMA", "SDATE", "SNOTE", "TOP", "TRAN", "UID", "WIDTH"})


@cache
def substructures() -> dict[str, dict[str, str]]:
    """parent type -> {tag: child type}, read once from the table."""
    rows: list[str] = []
    for line in _TABLE.strip().splitlines():
        if line.startswith(" ") and rows:
            rows[-1] += line
        else:
            rows.append(line)
    groups: dict[str, dict[str, str]] = {}
    out: dict[str, dict[str, str]] = {}
    for row in rows:
        name, *items = row.split()
        kids: dict[str, str] = {}
        for item in items:
            if item.startswith("*"):
                kids.update(groups[item])
            else:
                tag, _, kind = item.partition("=")
                kids[tag] = kind or tag
        (groups if name.startswith("*") else out)[name] = kids
    return out


def child_type(parent: str | None, tag: str) -> str | None:
    """The 7.0 type of `tag` under a structure of type `parent`; None where 7.0 has none."""
    if parent is None:
        return None
    return substructures().get(parent, {}).get(tag)
