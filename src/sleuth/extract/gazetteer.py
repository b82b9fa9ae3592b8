"""Jurisdiction tables for place parsing: names and the abbreviations clerks and printers used.

Only levels that can be recognised from the name alone are listed (countries, US states and
territories, Canadian provinces, Australian states, British and Irish counties with their
Chapman codes). Counties of the United States are not listed: they are recognised by their
label ("Fulton Co.") or their position in a comma-separated place, never by name.

Lookup keys are lower-case with periods, apostrophes and spaces removed ("N. Y." -> "ny").
"""

from __future__ import annotations

import re

_KEY_DROP = re.compile(r"[.\s'’]+")


def key(text: str) -> str:
    """Lookup key: lower case without periods, apostrophes or spaces ("W. Va." -> "wva")."""
    return _KEY_DROP.sub("", text.lower())


US = "United States"
UK = "United Kingdom"
COLONIAL = "British Colonial America"

# State or territory: postal code, then other written forms (old abbreviations first).
_US_STATES = """
Alabama|AL|Ala|Alab
Alaska|AK|Alas|Alsk|Alaska Territory
Arizona|AZ|Ariz|Ariz Terr
Arkansas|AR|Ark|Ark Terr
California|CA|Cal|Calif|Cala
Colorado|CO|Colo|Col
Connecticut|CT|Conn|Ct|Connecticut Colony
Delaware|DE|Del
District of Columbia|DC|D C|Dist of Col|Dist Col|Washington DC|Wash DC|D of C
Florida|FL|Fla|Flor|Fla Terr
Georgia|GA|Ga
Hawaii|HI|Haw|T H|Territory of Hawaii
Idaho|ID|Ida|Ida Terr
Illinois|IL|Ill|Ills
Indiana|IN|Ind|Ind Terr
Iowa|IA|Ia
Kansas|KS|Kans|Kan|Ks|Kas
Kentucky|KY|Ky
Louisiana|LA|La
Maine|ME|Me
Maryland|MD|Md
Massachusetts|MA|Mass|Massachusetts Bay Colony|Mass Bay
Michigan|MI|Mich
Minnesota|MN|Minn
Mississippi|MS|Miss
Missouri|MO|Mo
Montana|MT|Mont
Nebraska|NE|Neb|Nebr
Nevada|NV|Nev
New Hampshire|NH|N H
New Jersey|NJ|N J
New Mexico|NM|N M|N Mex|New Mex
New York|NY|N Y
North Carolina|NC|N C|N Car|No Car
North Dakota|ND|N D|N Dak|No Dak
Ohio|OH|O
Oklahoma|OK|Okla|O T|Okla Terr
Oregon|OR|Ore|Oreg
Pennsylvania|PA|Pa|Penna|Penn|Penn'a|Pensylvania
Rhode Island|RI|R I
South Carolina|SC|S C|S Car|So Car
South Dakota|SD|S D|S Dak|So Dak
Tennessee|TN|Tenn
Texas|TX|Tex
Utah|UT|Ut|Utah Terr
Vermont|VT|Vt
Virginia|VA|Va|Virg
Washington|WA|Wash|Wash Terr|W T
West Virginia|WV|W Va|W Virginia
Wisconsin|WI|Wis|Wisc
Wyoming|WY|Wyo
Puerto Rico|PR|P R|Porto Rico
"""


# Province or state: written forms; country.
_PROVINCES = """
Ontario|Ont|Canada West|C W|Upper Canada|U C|ON|Canada
Quebec|Que|P Q|Canada East|C E|Lower Canada|L C|QC|Québec|Canada
Nova Scotia|N S|NS|Canada
New Brunswick|N B|NB|Canada
Manitoba|Man|MB|Canada
British Columbia|B C|BC|Canada
Prince Edward Island|P E I|PEI|PE|Canada
Saskatchewan|Sask|SK|Canada
Alberta|Alta|AB|Canada
Newfoundland|Nfld|NL|Newfoundland and Labrador|Canada
Yukon|Y T|YT|Yukon Territory|Canada
Northwest Territories|N W T|NWT|Canada
New South Wales|N S W|NSW|Australia
Victoria|Vic|Australia
Queensland|Qld|Australia
South Australia|Australia
Western Australia|Australia
Tasmania|Tas|Van Diemen's Land|Van Diemens Land|Australia
Northern Territory|Australia
England|Eng|Engl|United Kingdom
Scotland|Scot|United Kingdom
Wales|Wal|United Kingdom
Northern Ireland|N Ireland|NI|United Kingdom
Prussia|Preußen|Preussen|Germany
Bavaria|Bayern|Germany
Saxony|Sachsen|Germany
Württemberg|Wurttemberg|Wuerttemberg|Germany
Baden|Germany
Hanover|Hannover|Germany
Hesse|Hessen|Germany
Cape Province|Cape Colony|Cape of Good Hope|South Africa
"""
# Provinces whose name alone is also a common place elsewhere: need their country written.
AMBIGUOUS_PROVINCES = frozenset({"victoria", "baden", "hanover", "hesse", "wales", "newfoundland",
                                 "saxony", "vic", "man", "wal", "scot", "tas"})

# Country: written forms (and forms that mean it).
_COUNTRIES = """
United States|USA|U S A|US|U S|United States of America|U S of A|America|Amerika
United Kingdom|UK|U K|Great Britain|G B|Britain|United Kingdom of Great Britain and Ireland
Ireland|Irl|Eire|Éire|Irish Free State|Republic of Ireland
Canada|Can|Dominion of Canada|British North America
Australia|Aus|Aust
New Zealand|N Z|NZ
France|Fr|Frankreich
Germany|Deutschland|Ger|Germ|German Empire|Deutsches Reich
Austria|Österreich|Oesterreich|Austria-Hungary|Austro-Hungarian Empire
Hungary|Magyarország|Ungarn
Switzerland|Schweiz|Suisse|Svizzera|Helvetia
Netherlands|Holland|Nederland|The Netherlands
Belgium|Belgique|België
Luxembourg|Luxemburg
Denmark|Danmark
Norway|Norge
Sweden|Sverige
Finland|Suomi
Iceland|Ísland
Italy|Italia
Spain|España|Espana
Portugal
Poland|Polska
Russia|Russian Empire|Rossiya
Bohemia|Böhmen
Czech Republic|Czechoslovakia|Czechia
Greece
Mexico|México
Cuba
Jamaica
South Africa|Union of South Africa|RSA
India|British India
China
Japan
Philippines|Philippine Islands|P I
Argentina
Brazil|Brasil
Chile
Isle of Man|IOM
Channel Islands
British Colonial America|Colonial America|British America
"""

# Chapman code, county, other written forms; nation. Historic counties as used by FreeREG.
_UK_COUNTIES = """
BDF|Bedfordshire|Beds|Bedford Co|England
BRK|Berkshire|Berks|England
BKM|Buckinghamshire|Bucks|England
CAM|Cambridgeshire|Cambs|England
CHS|Cheshire|Ches|England
CON|Cornwall|Corn|England
CUL|Cumberland|Cumb|England
DBY|Derbyshire|Derbys|England
DEV|Devon|Devonshire|England
DOR|Dorset|Dorsetshire|England
DUR|Durham|Co Durham|County Durham|England
ESS|Essex|England
GLS|Gloucestershire|Glos|Gloucs|England
HAM|Hampshire|Hants|Southamptonshire|England
HEF|Herefordshire|Heref|Herefs|England
HRT|Hertfordshire|Herts|England
HUN|Huntingdonshire|Hunts|England
IOW|Isle of Wight|England
KEN|Kent|England
LAN|Lancashire|Lancs|Lancaster Co|England
LEI|Leicestershire|Leics|England
LIN|Lincolnshire|Lincs|England
LND|London|England
MDX|Middlesex|Middx|Mddx|England
NFK|Norfolk|England
NTH|Northamptonshire|Northants|Northhamptonshire|England
NBL|Northumberland|Northumb|Northd|England
NTT|Nottinghamshire|Notts|England
OXF|Oxfordshire|Oxon|England
RUT|Rutland|Rutlandshire|England
SAL|Shropshire|Salop|England
SOM|Somerset|Somersetshire|Som|England
STS|Staffordshire|Staffs|England
SFK|Suffolk|England
SRY|Surrey|England
SSX|Sussex|England
WAR|Warwickshire|Warks|England
WES|Westmorland|Westmoreland|England
WIL|Wiltshire|Wilts|England
WOR|Worcestershire|Worcs|England
YKS|Yorkshire|Yorks|England
ERY|East Riding of Yorkshire|East Riding|England
NRY|North Riding of Yorkshire|North Riding|England
WRY|West Riding of Yorkshire|West Riding|England
AGY|Anglesey|Wales
BRE|Brecknockshire|Breconshire|Brecon|Wales
CAE|Caernarvonshire|Carnarvonshire|Caernarfonshire|Wales
CGN|Cardiganshire|Wales
CMN|Carmarthenshire|Wales
DEN|Denbighshire|Wales
FLN|Flintshire|Wales
GLA|Glamorgan|Glamorganshire|Wales
MER|Merionethshire|Wales
MON|Monmouthshire|Mon|Wales
MGY|Montgomeryshire|Wales
PEM|Pembrokeshire|Wales
RAD|Radnorshire|Wales
ABD|Aberdeenshire|Scotland
ANS|Angus|Forfarshire|Scotland
ARL|Argyllshire|Argyll|Scotland
AYR|Ayrshire|Scotland
BAN|Banffshire|Scotland
BEW|Berwickshire|Scotland
BUT|Buteshire|Bute|Scotland
CAI|Caithness|Scotland
CLK|Clackmannanshire|Scotland
DFS|Dumfriesshire|Scotland
DNB|Dunbartonshire|Dumbartonshire|Scotland
ELN|East Lothian|Haddingtonshire|Scotland
FIF|Fife|Fifeshire|Scotland
INV|Inverness-shire|Invernessshire|Scotland
KCD|Kincardineshire|Scotland
KRS|Kinross-shire|Kinrossshire|Scotland
KKD|Kirkcudbrightshire|Scotland
LKS|Lanarkshire|Scotland
MLN|Midlothian|Edinburghshire|Scotland
MOR|Morayshire|Elginshire|Moray|Scotland
NAI|Nairnshire|Scotland
OKI|Orkney|Scotland
PEE|Peeblesshire|Scotland
PER|Perthshire|Scotland
RFW|Renfrewshire|Scotland
ROC|Ross and Cromarty|Ross-shire|Scotland
ROX|Roxburghshire|Scotland
SEL|Selkirkshire|Scotland
SHI|Shetland|Zetland|Scotland
STI|Stirlingshire|Scotland
SUT|Sutherland|Scotland
WLN|West Lothian|Linlithgowshire|Scotland
WIG|Wigtownshire|Scotland
ANT|Antrim|Ireland
ARM|Armagh|Ireland
CAR|Carlow|Ireland
CAV|Cavan|Ireland
CLA|Clare|Ireland
COR|Cork|Ireland
DON|Donegal|Ireland
DOW|Down|Ireland
DUB|Dublin|Ireland
FER|Fermanagh|Ireland
GAL|Galway|Ireland
KER|Kerry|Ireland
KID|Kildare|Ireland
KIK|Kilkenny|Ireland
LET|Leitrim|Ireland
LEX|Laois|Leix|Queen's County|Queens County|Ireland
LIM|Limerick|Ireland
LDY|Londonderry|Derry|Ireland
LOG|Longford|Ireland
LOU|Louth|Ireland
MAY|Mayo|Ireland
MEA|Meath|Ireland
MOG|Monaghan|Ireland
OFF|Offaly|King's County|Kings County|Ireland
ROS|Roscommon|Ireland
SLI|Sligo|Ireland
TIP|Tipperary|Ireland
TYR|Tyrone|Ireland
WAT|Waterford|Ireland
WEM|Westmeath|Ireland
WEX|Wexford|Ireland
WIC|Wicklow|Ireland
"""
# British and Irish county names that are also common US county or town names: a bare one
# is recognised as a county only with its nation or country written beside it.
_AMBIGUOUS_COUNTY_WORDS = (
    "Essex Middlesex Suffolk Norfolk Kent Cumberland Durham Somerset Hampshire Berkshire "
    "Rutland Sussex Cornwall Dorset Surrey Westmorland Westmoreland London Down Clare Cork "
    "Kerry Antrim Derry Dublin Galway Louth Mayo Meath Armagh Carlow Cavan Donegal Fife "
    "Angus Moray Bute Sutherland Orkney Leix Limerick Tyrone Waterford Wexford Wicklow "
    "Longford Sligo Kildare Monaghan Tipperary Fermanagh Leitrim Roscommon Laois Offaly Corn "
    "Som Mon Devon Lincoln Glamorgan Brecon Shetland Argyll"
)
AMBIGUOUS_COUNTIES = frozenset(key(w) for w in _AMBIGUOUS_COUNTY_WORDS.split())

# County towns written for their county ("Sulgrave, Northampton, Eng."): read as the county
# only with a narrower place before them and the nation written after them.
COUNTY_TOWNS: dict[str, str] = {
    "bedford": "Bedfordshire", "buckingham": "Buckinghamshire", "cambridge": "Cambridgeshire",
    "chester": "Cheshire", "derby": "Derbyshire", "gloucester": "Gloucestershire",
    "hereford": "Herefordshire", "hertford": "Hertfordshire", "huntingdon": "Huntingdonshire",
    "lancaster": "Lancashire", "leicester": "Leicestershire", "lincoln": "Lincolnshire",
    "northampton": "Northamptonshire", "northamps": "Northamptonshire",
    "nottingham": "Nottinghamshire", "oxford": "Oxfordshire", "stafford": "Staffordshire",
    "warwick": "Warwickshire", "warricks": "Warwickshire", "worcester": "Worcestershire",
    "york": "Yorkshire", "southampton": "Hampshire", "wilton": "Wiltshire",
}

# Jurisdiction labels: abbreviation -> expanded word, and the level it marks.
LABELS: dict[str, tuple[str, str]] = {
    "co": ("County", "county"), "cnty": ("County", "county"), "county": ("County", "county"),
    "cty": ("County", "county"), "twp": ("Township", "township"), "tp": ("Township", "township"),
    "twsp": ("Township", "township"), "township": ("Township", "township"),
    "par": ("Parish", "parish"), "parish": ("Parish", "parish"),
    "dist": ("District", "district"), "district": ("District", "district"),
    "boro": ("Borough", "borough"), "borough": ("Borough", "borough"),
    "hundred": ("Hundred", "hundred"), "hd": ("Hundred", "hundred"),
    "ward": ("Ward", "ward"), "precinct": ("Precinct", "precinct"), "pct": ("Precinct", "precinct"),
}


def _build() -> tuple[dict[str, str], dict[str, str], dict[str, tuple[str, str]],
                      dict[str, str], dict[str, tuple[str, str, str]]]:
    states: dict[str, str] = {}
    postal: dict[str, str] = {}
    for line in _US_STATES.strip().splitlines():
        name, code, *rest = line.split("|")
        states[key(name)] = name
        postal[code] = name
        for f in rest:
            states[key(f)] = name
    provinces: dict[str, tuple[str, str]] = {}
    for line in _PROVINCES.strip().splitlines():
        *forms, country = line.split("|")
        for f in forms:
            provinces[key(f)] = (forms[0], country)
    countries: dict[str, str] = {}
    for line in _COUNTRIES.strip().splitlines():
        forms = line.split("|")
        for f in forms:
            countries[key(f)] = forms[0]
    counties: dict[str, tuple[str, str, str]] = {}
    for line in _UK_COUNTIES.strip().splitlines():
        code, *forms, nation = line.split("|")
        entry = (forms[0], nation, code)
        counties[code.lower()] = entry
        for f in forms:
            counties[key(f)] = entry
    return states, postal, provinces, countries, counties


US_STATES, US_POSTAL, PROVINCES, COUNTRIES, UK_COUNTIES = _build()
US_STATE_NAMES = frozenset(US_STATES.values())
CHAPMAN = {code: name for name, _, code in UK_COUNTIES.values()}
