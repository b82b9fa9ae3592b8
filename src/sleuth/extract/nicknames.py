"""Given-name data: diminutives, clerks' abbreviations and the sex a given name implies.

One line per formal name: sex, the formal name(s) separated by "/", then its diminutives
and variant spellings (an indented line continues the one above). A name may sit in several
groups ("Nell" is Eleanor, Ellen and Helen), so equivalence is "shares a group", not "maps
to one canonical form".
"""

from __future__ import annotations

_GROUPS = """
M Aaron: Ron Ronnie
M Abel: Abe
M Abner: Ab
M Abraham/Abram: Abe Abie Bram
F Abigail: Abby Abbie Gail Nabby
M Adam: Ad
F Adelaide/Adeline/Adela/Adele: Addie Addy Ada Della Heidi Lina
M Adolphus/Adolph: Dolph Ad Dolly
F Agnes: Aggie Nessie Nancy Nan
M Albert: Al Bert Bertie Albie
M Alexander: Alex Alec Aleck Sandy Sandie Eck Xander Alick
F Alexandra/Alexandrina: Alex Alexa Sandra Sandy Alix Zandra
M Alfred: Al Alf Alfie Fred Freddie
F Alice/Alicia/Alisa: Allie Elsie Lisa Ally
F Almira: Myra Mira
M Alonzo: Lon Lonnie Lonzo Al
M Alphonso: Al Fonso Phonso Lon
F Amanda: Mandy Manda
F Amelia/Emily/Emelia: Millie Milly Emmy Em Amy Emma
M Ambrose: Brose Amby
M Amos: Mose
F Ann/Anne/Anna/Annie/Hannah/Nancy: Nan Nanny Nannie Annette Anita Nettie Nance Ana
F Antoinette: Nettie Toni Net Tony
M Anthony/Antony: Tony Ant Anton
F Arabella/Arabelle: Bella Belle Arry
M Archibald: Archie Arch Baldie
M Arthur: Art Artie
M Augustus/August/Augustine: Gus Gussie Gustus Austin Aug
F Augusta: Gussie Gusta Aggie
M Bartholomew: Bart Bat Bartie Mewes Tolly
F Barbara: Bab Babs Barb Barbie Bobbie
M Benjamin: Ben Benny Bennie Benj Bennet Jamie
M Bernard: Barney Bernie Bern
F Bridget/Bridgette/Brigid: Biddy Bridie Bride Delia Bridey
M Caleb: Cal
F Caroline/Carolyn/Carol/Carrie: Callie Caddie Lynn Carol Carole Cassie Lina
F Catherine/Katherine/Catharine/Katharine/Kathryn/Kathleen: Kate Katie Kitty Kit Cathy Kathy Kay
  Kattie Katy Caty Cassie Trina Kittie Cate Kat
F Cecilia/Cecily/Cecile: Cissy Sissy Celia Cis
M Charles/Carl/Karl: Charlie Charley Chas Chuck Chaz Chick Carlo Chas
F Charlotte: Lottie Lotty Lotta Char Carlotta Totty
F Christiana/Christina/Christine/Christian: Chris Christy Kit Kitty Tina Teenie Chrissy Kirsty
  Kristin Kristina
M Christopher: Chris Kit Christy Kester Topher Kris
M Christian: Chris Kit Christy
F Clara/Clarissa/Clarice: Clare Claire Clary Cissy
M Clement: Clem
M Cornelius: Neil Neal Corny Con Connie Niles
F Cornelia: Nell Nelly Corny Connie Neely
M Cyrus: Cy
M Daniel: Dan Danny Dannie Danl
M David: Dave Davy Davie Day Taffy
F Deborah/Debora: Debbie Deb Debby Debra
F Delilah: Lila Del
M Dennis/Denis: Denny Den
M Dominic/Dominick: Dom Nick Nicky
F Dorothy/Dorothea: Dolly Dora Dot Dottie Dotty Doll Thea
M Ebenezer: Eben Eb Ebbie
M Edmund/Edmond: Ed Eddie Ned Ted Ted Edd
M Edward: Ed Eddie Eddy Ned Ted Teddy Ward Edw Ned Neddy
M Edwin: Ed Eddie Win Ned Ted
F Eleanor/Elinor/Eleanora/Leonora/Ellen/Helen/Helena: Nell Nellie Nelly Ella Ellie Elly Lena
  Leonora Nora Norah Elaine Lainie Nel
F Elizabeth/Elisabeth/Eliza/Elise/Elsie/Isabel/Isabella/Isabelle: Betsy Betsey Bess Bessie Beth
  Betty Bettie Betts Lizzie Lizzy Liza Libby Lisa Liz Lib Elsa Eliz Elise Ilse Bella Belle Tibbie
  Izzy Lilly Lily
M Elijah/Elias: Eli Lige Lije
M Eleazer/Eleazar/Lazarus: Eli Lazar Laz
M Elisha: Eli Lish
F Emma/Emmeline/Emeline: Em Emmy Emmie Emm
M Emanuel/Emmanuel/Manuel: Manny Man Manuel Mannie
M Ephraim: Eph
M Erasmus: Ras Rastus
M Ernest: Ernie Ern
F Esther/Hester/Hesther: Essie Hetty Hettie Hessy Hester Etty
F Euphemia: Effie Effy Phemie Pheny Eppie
F Eva/Eve/Evelyn/Evaline: Evie Eve Lina Eva
M Ezekiel: Zeke Zeek Ez
M Ezra: Ez
M Francis/Frank/Franklin/Francesco/Franz: Frank Frankie Fran Franny Fritz
F Frances/Francesca/Fanny: Fanny Fannie Fran Frankie Frannie Cissy Franky
M Frederick/Frederic/Friedrich/Fredric: Fred Freddie Freddy Fritz Derick Rick Fredk
F Frederica: Freda Frieda Freddie Ricka
M Gabriel: Gabe Gabby
M Geoffrey/Jeffrey/Godfrey: Jeff Geoff Jeffy Fred Freddy
M George: Geo Georgie Geordie Geo Georgy
F Georgiana/Georgina/Georgia: Georgie Gina Georgy
M Gerald/Gerard: Gerry Jerry Jerrie
F Gertrude: Gertie Trudy Gert Trudie
M Gilbert: Gil Bert Gib Gibbie
F Grace/Gracie: Gracie Grace
M Gregory: Greg Gregg
M Gustavus/Gustav/Gustave: Gus Gussie Gustus
F Harriet/Harriett/Harriette: Hattie Hatty Hat Hetty Harry Etta
M Henry/Harry/Heinrich/Henri: Hank Hal Harry Hen Henny Hy Heine Hal
M Harold: Harry Hal Hal
F Henrietta: Hetty Hettie Etta Nettie Retta Hennie Yetta
M Herbert: Herb Bert Herbie
M Hezekiah: Hez Ky Kiah
M Hiram: Hi Hy
M Horace/Horatio: Horry Race Hod
M Hugh/Hugo/Hubert: Hughie Hugo Hub Bert
M Ichabod: Ike Icky
M Ignatius: Iggy Nate Natius
M Isaac/Isaak: Ike Ikey Zack
M Isaiah: Zay Ike
F Jane/Jean/Janet/Joan/Jennet/Jeanette/Jennie: Jenny Jennie Jen Janie Jinny Nettie Jan Jessie Janey
  Jeanie Jean Joanie
M James/Jacobus/Jaime/Jacques: Jim Jimmy Jimmie Jamie Jem Jas Jimmey
M Jacob/Jakob/Jacobus: Jake Jaap Jacky Jock Koos
M Jasper: Jap Jas Cas
M Jeremiah/Jeremy: Jerry Jem Jere Miah
M Jerome: Jerry Rome
F Jemima: Mima Mimi Jem Jemmy
F Jessica/Jessie: Jess Jessie Jessy
M Job: Joby
M John/Jonathan/Johann/Johannes/Jan/Juan/Jean/Jno: Jack Jackie Johnny Jock Jon Jonny Hans Jno Jonty
  Jon Jonathon
M Joseph/Josef/Josiah/Joe: Joe Joey Jos Jody Jo Jos Joss
F Josephine: Jo Josie Jose Fina Pheny Josey
M Joshua: Josh Jos
M Julius/Julian: Jule Jules Jule
F Julia/Juliana/Julianne/Juliet: Julie Jule Jill Juley
F Lavinia: Vinnie Vina Viney Ina
M Lawrence/Laurence: Larry Lawrie Laurie Lars Lorry Lon
M Leonard/Leonardo/Leon: Len Lenny Leo Lonny Leo
F Letitia/Lettice: Lettie Letty Tish Tisha
M Lemuel: Lem
M Lewis/Louis/Ludwig: Lou Louie Lew Lewie Lute
F Louisa/Louise: Lou Lulu Lula Lou Lois Eliza Weezy Lousie
F Lucinda/Lucy/Lucia/Lucille: Lucy Cindy Lou Lulu Luce
F Lydia: Liddy Lyddy
F Magdalene/Magdalena/Madeline/Madeleine: Maggie Lena Maddie Maud Madge Magda Lenny
F Margaret/Margery/Marjorie/Margarete/Marguerite/Margaretta/Margretta: Maggie Meg Peggy Peg Madge
  Daisy Margie Marge Maisie Gretta Greta Gretchen Mamie Midge Meta Molly Rita Maggy Margt Marg Pegg
F Martha: Mattie Matty Patty Patsy Marty Mat
F Mary/Maria/Marie/Mariah/Miriam/Marian/Marion/Maryann/Mae/May: Polly Molly Mollie Mamie Mame
  Minnie Mitzi Mae May Mimi Moll Poll Mally Maura Maureen Mayme
M Matthew/Matthias/Mathias: Matt Mat Matty Thias Thys
F Matilda/Mathilda/Mathilde: Tilly Tillie Matty Mattie Maud Maude Patty Til
M Michael: Mike Mick Micky Mickey Mikey
M Mordecai: Mord Mort Mordy
M Morris/Maurice: Mo Morry Maury Moss
M Moses: Mo Mose Moss Moe
M Nathan/Nathaniel: Nat Nate Natty Than Nath
F Nicole/Nicola: Nicky Nikki Cole
M Nicholas/Nicolas/Nicolaus/Claus/Klaus: Nick Nicky Nico Claus Colin Nichol Cole Klaas
M Obadiah: Obed Diah Obie
M Oliver: Ollie Noll Nol
F Olivia: Liv Livia Ollie Livvy
M Oswald: Ozzie Oz Ossy Waldo
M Patrick: Pat Paddy Patsy Patty
M Peter/Pierre/Pieter/Petrus/Piers: Pete Peate
F Patience/Patricia: Patty Patsy Pat Tricia Trisha Pattie
M Paul/Paulus: Paulie Pauly
F Pauline/Paula: Polly Paula Pauly
F Penelope: Penny Nelly Pen
M Philip/Phillip/Philipp: Phil Pip Flip Philly
F Philippa: Pippa Phil Pip
F Phoebe: Phebe Pheobe Phebie
F Priscilla: Prissy Cilla Silla Priss
F Rachel: Ray Rae Shelly
M Randolph/Randal/Randall: Randy Dolph
M Raymond: Ray
F Rebecca/Rebekah: Becky Beck Becca Reba Beckie
M Reuben/Rubin: Rube Ruby
M Richard/Ricardo: Dick Rick Ricky Rich Richie Dickie Dicky Hick Rich Dickon
M Robert/Rupert/Roberto: Bob Bobby Bobbie Rob Robbie Robby Bert Bertie Dob Dobbin Hob Robin Rab
  Robt Rupe
F Roberta: Bobbie Bertie Robbie Berta
M Roger/Rodger: Rodge Hodge Roge
M Roland/Rowland/Orlando: Rollo Rolly Lanny Roley
M Ronald: Ron Ronnie Ronny
F Rosalind/Rosamond/Rosanna/Rosabella/Rose/Rosa/Rosalie: Rosie Rosy Roz Rose Rosa Rosa
M Samuel/Samson/Sampson: Sam Sammy Saml Sammie
F Sarah/Sara/Sally/Sadie: Sally Sal Sadie Sade Sairy Sallie Sara Surry
M Sebastian: Bastian Seb Bas
F Selina/Celina: Lina Selie Sena
M Seymour: Morey
M Sidney/Sydney: Sid Syd
M Silas/Silvester/Sylvester: Si Sy Vester Syl
M Simeon/Simon: Sim Si Simmy
M Solomon: Sol Solly Saul Sal
F Sophia/Sophie/Sophronia: Sophy Sophie Fronia Sophy Fronie Phia
M Stephen/Steven/Stefan: Steve Steph Stevie Steen
F Susan/Susannah/Susanna/Suzanne: Sue Susie Suzy Sukey Sukie Susy Sookie Hannah Zanna
F Tabitha: Tabby Tibby
M Theodore/Theodoric/Theophilus: Ted Teddy Theo Dory Ned Dore
F Theodora/Theodosia: Dora Theo Docia Dosia
F Theresa/Teresa: Tess Tessie Terry Tessa Tracy Tracey Trissie
M Thomas/Tomas: Tom Tommy Thos Tam Tommie Thom Tommey
M Timothy: Tim Timmy Timmie
M Tobias: Toby Tobe Bias
F Ursula: Sula Sulie
F Victoria: Vic Vicky Tory Vickie Vita
M Vincent: Vince Vinny Vin Vinnie
F Virginia: Jennie Ginny Ginger Virgie Jinny
M Walter: Walt Wally Wat Watty
M William/Wilhelm/Willem/Guillaume/Wilfred: Bill Billy Billie Will Willie Willy Wm Wim Liam Wil
  Bill Willis Wills
F Wilhelmina: Minnie Mina Willa Wilma Billie Minna Helma Mina
F Winifred: Winnie Freddie Win Wynn Freda
M Zachariah/Zachary/Zacharias/Zechariah: Zach Zack Zak Zeke Zach Zacky
M Absalom: Ab Abbie
M Alvin: Al Vin
M Andrew/Andreas/Andre/Anders: Andy Drew Dandy Andie
M Asa: Ace
M Barnabas/Barnaby: Barney Barny
M Calvin: Cal Vin
M Clarence: Clare Clarry
M Conrad/Konrad: Con Connie Kurt Curt
M Cuthbert: Cuddy Bert
M Donald: Don Donnie Donny
M Douglas: Doug Dougie
M Eugene: Gene
M Everett: Ev Eve
M Gideon: Gid
M Harvey: Harve
M Humphrey: Humph Hump Free
M Jedediah: Jed Diah
M Levi: Lee Lev
M Lorenzo: Loren Renz Larry
M Marcus/Mark/Marcellus: Marc Marky Marty
M Martin: Marty Mart Tin
M Melvin: Mel
M Nehemiah: Hemi Miah
M Noah: Noey
M Percival: Percy Perce
M Reginald: Reg Reggie Rex Naldo
M Rufus: Rufe
M Rudolph/Rudolf: Rudy Dolph Rolf Ralph
M Ralph: Raff Rafe
M Sanford/Stanford/Stanley: Sandy Stan
M Squire: Squ
M Uriah: Riah Ri
M Valentine: Val
M Wesley: Wes
M Wilbur: Will Bill Willie
M Willard: Will Bill
F Adeline/Madeline: Lina Addie
F Alberta/Albertine: Bertie Bert Berta Allie
F Almeda/Almedia: Meda Allie
F Angelina/Angela/Angelica: Angie Angel Lina
F Belinda: Linda Belle
F Beatrice/Beatrix: Bea Trixie Beattie Trix
F Bertha: Bertie Birdie Bert
F Clementine/Clementina: Clem Clemmie Tina
F Cynthia: Cindy Cinthy
F Delia/Adelia/Cordelia: Della Dell Delia Cordy
F Diana/Diane/Dinah: Di Dina Dinah
F Drusilla: Drusie Silla
F Edith: Edie Edy Ede
F Elvira: Vira Elvie
F Ernestine: Tina Erna Ernie
F Estelle/Estella: Stella Essie
F Florence: Flo Flossie Florrie Floss Florry
F Harriot: Hattie Harriet
F Ida: Idy
F Jemima/Jemina: Mima
F Johanna/Joanna/Joann/Jo: Jo Joan Hannah Jody Josie Hanne
F Laura/Lorinda/Lauretta/Loretta: Laurie Lolly Lottie Lori Retta Etta
F Lillian/Lilian/Lilias: Lil Lily Lilly Lillie
F Lorraine: Lori Rainy
F Lucretia: Creasey Lucy Creasy
F Mabel: Mab Mabs Mae Amabel
F Melinda/Malinda/Melissa: Linda Mel Mindy Lindy Missy Lissa
F Mercy/Mercedes: Mercie Sadie
F Minerva: Minnie Nerva
F Nancy: Ann Nan Nanny Agnes
F Ophelia: Phelia Ophie
F Pamela: Pam Pammy
F Parthenia: Teeny Thenia Parsuny Pasoonie
F Prudence: Prudy Prue Pru
F Rhoda: Rodie Rhodie
F Ruth: Ruthie
F Samantha: Sam Sammy Mantha
F Tamar/Tamara: Tammy
F Temperance: Tempe Tempy
F Thomasina/Thomasine: Tamsin Tammy Tommie
F Vivian/Vivienne: Viv Vivi
"""

# Clerks' and newspapers' abbreviations of given names (written with or without a period).
ABBREVIATIONS: dict[str, str] = {
    "wm": "William", "willm": "William", "geo": "George", "jas": "James", "chas": "Charles",
    "thos": "Thomas", "jno": "John", "saml": "Samuel", "sam'l": "Samuel", "benj": "Benjamin",
    "benjn": "Benjamin", "robt": "Robert", "rob't": "Robert", "eliz": "Elizabeth",
    "elizth": "Elizabeth", "elizh": "Elizabeth", "margt": "Margaret", "marg't": "Margaret",
    "mgt": "Margaret", "danl": "Daniel", "dan'l": "Daniel", "edw": "Edward", "edwd": "Edward",
    "jos": "Joseph", "josh": "Joshua", "richd": "Richard", "rich'd": "Richard",
    "rich": "Richard", "nathl": "Nathaniel", "nath'l": "Nathaniel", "nath": "Nathaniel",
    "abm": "Abraham", "abr": "Abraham", "abrm": "Abraham", "alexr": "Alexander",
    "alex": "Alexander", "andw": "Andrew", "ant": "Anthony",
    "anth": "Anthony", "bart": "Bartholomew", "barth": "Bartholomew", "cath": "Catherine",
    "cathe": "Catherine", "cathn": "Catherine", "chris": "Christopher", "christ": "Christopher",
    "xtopher": "Christopher", "xpher": "Christopher", "dav": "David", "ebenr": "Ebenezer",
    "ezek": "Ezekiel", "fras": "Francis", "fredk": "Frederick", "fred": "Frederick",
    "gilb": "Gilbert", "hen": "Henry", "hy": "Henry", "hny": "Henry", "humph": "Humphrey",
    "isc": "Isaac", "jac": "Jacob", "jere": "Jeremiah", "jno.": "John", "jona": "Jonathan",
    "jonn": "Jonathan", "jonth": "Jonathan", "leond": "Leonard", "lawr": "Lawrence",
    "math": "Matthew", "mattw": "Matthew", "mich": "Michael", "michl": "Michael",
    "nich": "Nicholas", "nichs": "Nicholas", "patk": "Patrick", "pet": "Peter",
    "phil": "Philip", "phill": "Philip", "ric": "Richard", "reb": "Rebecca",
    "sus": "Susanna", "susna": "Susanna", "tim": "Timothy", "walt": "Walter",
    "zach": "Zachariah", "hanh": "Hannah", "sar": "Sarah",
    "sarh": "Sarah", "xtian": "Christian", "xr": "Christopher",
    "jn": "John", "steph": "Stephen", "theo": "Theodore", "theoph": "Theophilus",
    "wilm": "William", "greg": "Gregory", "herb": "Herbert", "alf": "Alfred",
    "augs": "Augustus", "aug": "Augustus", "cha": "Charles", "ch": "Charles",
    "jno'": "John", "marg": "Margaret", "kath": "Katherine",
}

# Abbreviations that are also names or nicknames in their own right ("Fred", "Phil"): expanded
# only when written with a period. The others ("Wm", "Jno", "Thos") always are.
_NAME_LIKE_WORDS = (
    "alex fred phil tim walt herb greg theo chris christ jos josh hen dav pet ric reb sus aug "
    "alf jac jere jona math nath nich rich ant bart cath barth kath marg cha ch steph sar "
    "mich and ann anth humph gilb ezek"
)
_NAME_LIKE = frozenset(_NAME_LIKE_WORDS.split())
CLERICAL = frozenset(k for k in ABBREVIATIONS if k not in _NAME_LIKE)

# Male or female given names without diminutives worth listing, for "Mrs. John Smith".
_MORE_MALE = """Alonzo Amasa Ansel Asahel Augustin Baxter Burton Byron Carlton Chester Clifford
Clinton Cyril Dwight Earl Elmer Elbert Ellis Elmore Emery Emil Emmett Enoch Ernst Everett Floyd
Forrest Franklin Fred Garrett Gottlieb Grover Guy Hans Harlan Harley Herman Hermann Homer Howard
Irvin Irving Ivan Jackson Jesse Jethro Joel Jonas Josiah Lafayette Leander Lee Leroy Lester
Lloyd Lorenzo Luther Lyman Marion Marshall Milton Morgan Nelson Newton Norman Olaf Orville Oscar
Otis Otto Owen Perry Pleasant Preston Ray Roy Russell Seth Sherman Shadrach Sylvanus Ulysses
Virgil Wallace Warren Wayne Wiley Willis Wilson Woodrow Zebulon"""
_MORE_FEMALE = """Ada Adah Alma Alta Amy Ava Belle Bessie Beulah Blanche Cora Daisy Della Dora Edna
Effie Ella Ellen Elsie Elva Ethel Etta Eunice Fannie Flora Frieda Gladys Gussie Hattie Hazel
Ina Inez Irene Iva Jennie Josie Lela Lena Leona Lettie Lila Lillie Lizzie Lottie Lou Lula
Mabel Mae Maggie Mamie Mattie Maud Maude Mina Minnie Myrtle Nellie Nettie Nora Ola Olive Opal
Pearl Rosa Sadie Stella Tillie Vera Verna Viola Zella Zora Hulda Ingrid Karin Kerstin Brita"""


def _build() -> tuple[dict[str, frozenset[int]], dict[str, str]]:
    groups: dict[str, set[int]] = {}
    formal_sex: dict[str, set[str]] = {}
    dim_sex: dict[str, set[str]] = {}
    for gid, line in enumerate(_GROUPS.strip().replace("\n  ", " ").splitlines()):
        s, rest = line.split(" ", 1)
        formal, _, variants = rest.partition(":")
        for nm in formal.split("/"):
            groups.setdefault(nm.strip().lower(), set()).add(gid)
            formal_sex.setdefault(nm.strip().lower(), set()).add(s)
        for nm in variants.split():
            groups.setdefault(nm.lower(), set()).add(gid)
            dim_sex.setdefault(nm.lower(), set()).add(s)
    for s, words in (("M", _MORE_MALE), ("F", _MORE_FEMALE)):
        for word in words.split():
            formal_sex.setdefault(word.lower(), set()).add(s)
    # A name used for both sexes (Jean, Marion, Christian) implies neither.
    sex = {k: next(iter(v)) for k, v in formal_sex.items() if len(v) == 1}
    for k, v in dim_sex.items():
        if k not in formal_sex and len(v) == 1:
            sex[k] = next(iter(v))
    return {k: frozenset(v) for k, v in groups.items()}, sex


GROUPS, SEX = _build()
