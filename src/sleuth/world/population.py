"""The ground-truth population of a simulated world, deterministic by seed.

A seed person (born 1880-1900 in the US), at least four generations of their ancestors with
whole families (siblings, infant deaths, remarriages), collateral lines of married siblings,
and the seed's own descendants down to people born recently and still living. Families
live in a small gazetteer of English parishes and US counties and migrate (parish to
parish, England to America, east to west). Children are named after their grandparents, so
same-name cousins occur as they do in real trees.

Everything is drawn from one `random.Random(seed)`; the calendar stops at `TODAY` (a fixed
date, not the clock) so that the same seed gives the same world on any day.
"""

from __future__ import annotations

import heapq
import random
from dataclasses import dataclass, field
from datetime import date, timedelta

TODAY = date(2025, 1, 1)


@dataclass(frozen=True)
class Place:
    """One gazetteer entry: an English parish (with its church) or a US town and county."""

    country: str  # "England" | "USA"
    locality: str
    county: str
    state: str = ""  # US state
    chapman: str = ""  # English county code (FreeREG)
    church: str = ""  # English parish church

    @property
    def full(self) -> str:
        if self.country == "England":
            return f"{self.locality}, {self.county}, England"
        return f"{self.locality}, {self.county}, {self.state}"

    @property
    def short(self) -> str:
        return f"{self.county}, {self.state}" if self.country == "USA" else self.full


_ENGLAND = [
    ("BDF", "Yielden", "St Mary", "Bedfordshire"), ("HRT", "Caldecote", "St Mary Magdalene",
                                                   "Hertfordshire"),
    ("DEV", "Landcross", "Holy Trinity", "Devon"), ("NFK", "Swaffham", "St Peter and St Paul",
                                                   "Norfolk"),
    ("KEN", "Cranbrook", "St Dunstan", "Kent"), ("SOM", "Wedmore", "St Mary", "Somerset"),
    ("YKS", "Haworth", "St Michael and All Angels", "Yorkshire"),
    ("LIN", "Louth", "St James", "Lincolnshire"), ("WIL", "Lacock", "St Cyriac", "Wiltshire"),
    ("SFK", "Lavenham", "St Peter and St Paul", "Suffolk"), ("CON", "Zennor", "St Senara",
                                                            "Cornwall"),
    ("GLS", "Bibury", "St Mary", "Gloucestershire"),
]
# (town, county, state), roughly east to west: migration moves to a later index.
_USA = [
    ("Poughkeepsie", "Dutchess County", "New York"), ("Lancaster", "Lancaster County",
                                                      "Pennsylvania"),
    ("Reading", "Berks County", "Pennsylvania"), ("Syracuse", "Onondaga County", "New York"),
    ("Springfield", "Clark County", "Ohio"), ("Xenia", "Greene County", "Ohio"),
    ("Indianapolis", "Marion County", "Indiana"), ("Ann Arbor", "Washtenaw County", "Michigan"),
    ("Springfield", "Sangamon County", "Illinois"), ("Madison", "Dane County", "Wisconsin"),
    ("Des Moines", "Polk County", "Iowa"), ("Olathe", "Johnson County", "Kansas"),
]
GAZETTEER: tuple[Place, ...] = tuple(
    [Place("England", p, c, chapman=code, church=ch) for code, p, ch, c in _ENGLAND]
    + [Place("USA", t, c, state=s) for t, c, s in _USA]
)
N_ENGLAND = len(_ENGLAND)

_MALE = [
    "John", "William", "James", "George", "Thomas", "Henry", "Charles", "Joseph",
    "Edward", "Robert", "Samuel", "David", "Richard", "Frederick", "Arthur", "Albert",
    "Walter", "Alfred", "Benjamin", "Daniel", "Isaac", "Jacob", "Matthew", "Nathaniel",
    "Stephen", "Edwin", "Francis", "Hugh",
]
_MALE_LATE = [
    "Frank", "Ernest", "Harold", "Raymond", "Donald", "Kenneth", "Paul", "Michael",
    "Steven", "Mark", "Brian", "Gary", "Ronald", "Larry", "Dennis", "Jeffrey", "Scott",
    "Eric", "Kevin", "Jason", "Ryan",
]
_FEMALE = [
    "Mary", "Elizabeth", "Sarah", "Ann", "Margaret", "Jane", "Hannah", "Martha",
    "Susannah", "Emma", "Alice", "Catherine", "Eliza", "Ellen", "Harriet", "Louisa",
    "Clara", "Florence", "Edith", "Ethel", "Ruth", "Rebecca", "Lydia", "Esther",
    "Charlotte", "Phoebe",
]
_FEMALE_LATE = [
    "Dorothy", "Helen", "Mildred", "Barbara", "Patricia", "Linda", "Susan", "Karen",
    "Carol", "Nancy", "Deborah", "Jennifer", "Lisa", "Sandra", "Donna", "Sharon",
    "Michelle", "Amy", "Laura",
]
SURNAMES = [
    "Whitfield", "Hartley", "Pavey", "Cowling", "Webb", "Tuttle", "Rowe", "Simmons",
    "Abberley", "Ashworth", "Newberry", "Wyatt", "Giles", "Golden", "Greenwood",
    "Strugnell", "Fairchild", "Cole", "Roseveare", "Harding", "Fenwick", "Toward",
    "Maxey", "Gell", "Horsford", "Drable", "Parker", "Foster", "Austin", "Beare",
    "Whittick", "Mercer", "Pritchard", "Dunmore", "Ketteridge", "Blanchard", "Osgood",
    "Pell", "Lambert", "Catchpole", "Dymond", "Tremayne", "Hobbs", "Sayer", "Lovell",
    "Brundle", "Oakes", "Pennington", "Rendell", "Coombe", "Tapp", "Gilbey", "Stroud",
    "Hatherley", "Wren", "Ashby", "Beckwith", "Colby", "Darnell", "Emmett", "Garside",
    "Holloway",
]
_OCC_M = [
    "farmer", "labourer", "blacksmith", "carpenter", "miner", "clerk", "merchant",
    "teacher", "wheelwright", "shoemaker", "miller", "engineer", "machinist",
]
_OCC_F = ["servant", "dressmaker", "teacher", "seamstress", "milliner"]
CEMETERIES = ("Woodland Cemetery", "Oak Hill Cemetery", "Greenlawn Cemetery", "Riverside "
              "Cemetery", "Mount Hope Cemetery", "Evergreen Cemetery", "Maple Grove Cemetery")


@dataclass
class Person:
    id: int
    sex: str  # "M" | "F"
    given: str  # given names, first and middle ("John Harlan")
    surname: str  # surname at birth
    birth: date
    birth_place: int  # index into GAZETTEER
    generation: int  # ancestors > 0, seed 0, descendants < 0 (collateral: their own)
    father: int | None = None
    mother: int | None = None
    death: date | None = None
    death_place: int | None = None
    baptism: date | None = None
    burial: date | None = None
    burial_place: int | None = None
    cemetery: str | None = None
    occupation: str = ""
    unions: list[int] = field(default_factory=list)
    married_surname: str = ""  # a married woman's last husband's surname
    ancestor: bool = False  # the seed or a direct ancestor
    descendant: bool = False  # a descendant of the seed
    notable: bool = False  # has a Wikidata entity

    @property
    def name(self) -> str:
        return f"{self.given} {self.surname}"

    @property
    def first(self) -> str:
        return self.given.split()[0]

    @property
    def living(self) -> bool:
        return self.death is None


@dataclass
class Union:
    id: int
    husband: int
    wife: int
    date: date
    place: int
    children: list[int] = field(default_factory=list)


@dataclass
class Population:
    seed: int
    seed_person: int
    persons: list[Person]
    unions: list[Union]

    def person(self, pid: int) -> Person:
        return self.persons[pid]

    def place(self, idx: int | None) -> Place | None:
        return None if idx is None else GAZETTEER[idx]

    def children(self, pid: int) -> list[int]:
        return [c for u in self.persons[pid].unions for c in self.unions[u].children]

    def spouses(self, pid: int) -> list[int]:
        p = self.persons[pid]
        return [self.unions[u].wife if p.sex == "M" else self.unions[u].husband for u in p.unions]

    def siblings(self, pid: int) -> list[int]:
        p = self.persons[pid]
        out: set[int] = set()
        for par in (p.father, p.mother):
            if par is not None:
                out.update(self.children(par))
        out.discard(pid)
        return sorted(out)

    def ancestors(self, pid: int, generations: int) -> dict[int, int]:
        """Person id -> generation (0 = the person) for `generations` generations back."""
        out = {pid: 0}
        frontier = [pid]
        for g in range(1, generations + 1):
            nxt = []
            for q in frontier:
                for par in (self.persons[q].father, self.persons[q].mother):
                    if par is not None and par not in out:
                        out[par] = g
                        nxt.append(par)
            frontier = nxt
        return out


def _years(d: date, years: float) -> date:
    return d + timedelta(days=round(years * 365.25))


class _Builder:
    def __init__(self, seed: int, target: int) -> None:
        self.r = random.Random(seed)
        self.seed = seed
        self.target = max(target, 40)
        self.persons: list[Person] = []
        self.unions: list[Union] = []
        self.queue: list[tuple[int, int, int]] = []  # (priority, order, union id)
        self.core: set[int] = set()  # unions whose deaths are settled after their children

    # -- people ---------------------------------------------------------------------------
    def given(self, sex: str, year: int) -> str:
        r = self.r
        pool = (_MALE if sex == "M" else _FEMALE)
        if year >= 1900 and r.random() < min(0.8, (year - 1880) / 100):
            pool = _MALE_LATE if sex == "M" else _FEMALE_LATE
        return r.choice(pool)

    def add(self, sex: str, given: str, surname: str, birth: date, place: int, gen: int,
            father: int | None = None, mother: int | None = None) -> Person:
        r = self.r
        if birth.year >= 1790 and r.random() < 0.3:
            pool = [n for n in (_MALE if sex == "M" else _FEMALE) if n != given.split()[0]]
            given = f"{given} {r.choice(pool)}"
        p = Person(len(self.persons), sex, given, surname, birth, place, gen, father, mother)
        if GAZETTEER[place].country == "England" and birth.year < 1900:
            p.baptism = birth + timedelta(days=r.randint(3, 60))
        if sex == "M" or r.random() < 0.15:
            p.occupation = r.choice(_OCC_M if sex == "M" else _OCC_F)
        self.persons.append(p)
        return p

    def lifespan(self, p: Person, adult: bool = False) -> None:
        """Draw a death (or none: living) with the era's infant and child mortality."""
        r, y = self.r, p.birth.year
        infant = 0.15 if y < 1880 else 0.08 if y < 1920 else 0.02
        child = 0.08 if y < 1880 else 0.04 if y < 1920 else 0.01
        u = r.random()
        if not adult and u < infant:
            age = r.uniform(0.01, 0.99)
        elif not adult and u < infant + child:
            age = r.uniform(1, 17)
        else:
            mean = 58 if y < 1850 else 66 if y < 1920 else 76
            age = min(102.0, max(18.5, r.gauss(mean, 14)))
        self.set_death(p, _years(p.birth, age) + timedelta(days=r.randint(0, 200)))

    def set_death(self, p: Person, when: date) -> None:
        if when >= TODAY:
            p.death = p.death_place = p.burial = p.burial_place = p.cemetery = None
            return
        p.death = max(when, p.birth + timedelta(days=1))
        p.death_place = self.residence(p)
        p.burial = p.death + timedelta(days=self.r.randint(2, 6))
        p.burial_place = p.death_place
        if GAZETTEER[p.death_place].country == "USA":
            p.cemetery = self.r.choice(CEMETERIES)

    def residence(self, p: Person) -> int:
        """Where someone lived last: their last union's place, else where they were born."""
        return self.unions[p.unions[-1]].place if p.unions else p.birth_place

    # -- places ---------------------------------------------------------------------------
    def move(self, place: int, year: int) -> int:
        """A place one generation earlier or later may differ: migration, by era."""
        r = self.r
        if place < N_ENGLAND:
            if 1830 <= year <= 1900 and r.random() < 0.3:
                return N_ENGLAND + r.randint(0, 3)  # emigrants land in the east
            return r.randrange(N_ENGLAND) if r.random() < 0.25 else place
        if r.random() < 0.25:
            return min(len(GAZETTEER) - 1, place + r.randint(1, 3))  # westward
        return place

    def back(self, place: int, year: int) -> int:
        """Where a parent was born, given where the child was (migration in reverse)."""
        r = self.r
        if place >= N_ENGLAND:
            if year < 1870 and (place < N_ENGLAND + 4 or r.random() < 0.3) and r.random() < 0.4:
                return r.randrange(N_ENGLAND)
            if year < 1800:
                return r.randrange(N_ENGLAND)
            return max(N_ENGLAND, place - (r.randint(1, 3) if r.random() < 0.3 else 0))
        return r.randrange(N_ENGLAND) if r.random() < 0.2 else place

    # -- families -------------------------------------------------------------------------
    def union(self, husband: Person, wife: Person, when: date, place: int,
              priority: int) -> Union:
        u = Union(len(self.unions), husband.id, wife.id, when, place)
        self.unions.append(u)
        husband.unions.append(u.id)
        wife.unions.append(u.id)
        wife.married_surname = husband.surname
        heapq.heappush(self.queue, (priority, u.id, u.id))
        return u

    def ancestors(self, child: Person, depth: int, max_depth: int) -> None:
        """Parents of `child` (and theirs, to max_depth) with the couple's union."""
        if depth > max_depth:
            return
        r = self.r
        fy, my = r.uniform(22, 40), r.uniform(19, 36)
        fb = _years(child.birth, -fy) - timedelta(days=r.randint(0, 300))
        mb = _years(child.birth, -my) - timedelta(days=r.randint(0, 300))
        fplace = self.back(child.birth_place, child.birth.year)
        mplace = fplace if r.random() < 0.7 else self.back(child.birth_place, child.birth.year)
        father = self.add("M", self.given("M", fb.year), child.surname, fb, fplace, depth)
        mother = self.add("F", self.given("F", mb.year), r.choice(SURNAMES), mb, mplace, depth)
        father.ancestor = mother.ancestor = True
        child.father, child.mother = father.id, mother.id
        first = child.birth - timedelta(days=r.randint(300, 2500))
        first = max(first, _years(max(fb, mb), 18.2))
        u = self.union(father, mother, min(first, child.birth - timedelta(days=300)),
                       mplace if GAZETTEER[mplace].country == "England" else
                       child.birth_place, depth)
        u.children.append(child.id)
        self.core.add(u.id)
        self.ancestors(father, depth + 1, max_depth)
        self.ancestors(mother, depth + 1, max_depth)

    def name_child(self, sex: str, year: int, father: Person, mother: Person,
                   taken: list[str]) -> str:
        """First son after the paternal grandfather, second after the maternal; daughters
        after the maternal then paternal grandmother (the English naming pattern)."""
        order = ((father.father, mother.father) if sex == "M" else (mother.mother, father.mother))
        for pid in order:
            if pid is not None:
                name = self.persons[pid].first
                if name not in taken:
                    return name
        if sex == "M" and father.first not in taken:
            return father.first
        if sex == "F" and mother.first not in taken:
            return mother.first
        return self.given(sex, year)

    def family(self, u: Union) -> None:
        """Children of a union: spaced births while both parents live and the mother is
        18-44; a child already placed (a direct-line ancestor) keeps its slot."""
        r = self.r
        h, w = self.persons[u.husband], self.persons[u.wife]
        y = u.date.year
        want = r.randint(3, 9) if y < 1900 else r.randint(1, 5) if y < 1950 else r.randint(1, 3)
        fixed = sorted(u.children, key=lambda c: self.persons[c].birth)
        when = u.date + timedelta(days=r.randint(280, 700))
        mother_end = _years(w.birth, 44)
        stop = min(mother_end, _years(h.birth, 54.5), TODAY - timedelta(days=400))
        if h.descendant or 0 in (h.id, w.id):
            want = max(want, 2)  # the seed's line reaches the living
        when = max(when, _years(h.birth, 17))
        if w.death and u.id not in self.core:
            stop = min(stop, w.death)
        if h.death and u.id not in self.core:
            stop = min(stop, h.death + timedelta(days=270))
        kids = list(fixed)
        taken = [self.persons[c].first for c in fixed]
        place = u.place
        while len(kids) < want and when < stop and len(self.persons) < self.target:
            if any(abs((self.persons[c].birth - when).days) < 330 for c in kids):
                when += timedelta(days=r.randint(330, 700))
                continue
            if when < _years(w.birth, 17):
                when = _years(w.birth, 17) + timedelta(days=r.randint(0, 300))
                continue
            sex = r.choice("MF")
            name = self.name_child(sex, when.year, h, w, taken)
            taken.append(name)
            c = self.add(sex, name, h.surname, when, place, h.generation - 1, h.id, w.id)
            c.descendant = h.descendant or w.descendant or 0 in (h.id, w.id)
            self.lifespan(c, adult=c.descendant)  # the seed's line reaches the living
            kids.append(c.id)
            when += timedelta(days=r.randint(450, 1200))
            if r.random() < 0.1:
                place = self.move(place, when.year)
        u.children = sorted(kids, key=lambda c: self.persons[c].birth)
        last = max(self.persons[c].birth for c in u.children) if u.children else u.date
        for parent in (h, w):
            if u.id in self.core and parent.death is None and parent.ancestor:
                self.ancestor_death(parent, last)
        for kid in u.children:
            self.marry(self.persons[kid])

    def ancestor_death(self, p: Person, last_child: date) -> None:
        r = self.r
        floor = last_child - timedelta(days=250) if p.sex == "M" else last_child
        floor = max(floor, _years(p.birth, 18.5))
        mean = 58 if p.birth.year < 1850 else 68
        age = min(100.0, max(18.5, r.gauss(mean, 13)))
        when = max(_years(p.birth, age), floor + timedelta(days=r.randint(1, 4000)))
        if p.unions and len(p.unions) == 1 and r.random() < 0.15:
            when = floor + timedelta(days=r.randint(1, 900))  # dies young: a remarriage follows
        self.set_death(p, when)
        self.remarry(p)

    def marry(self, p: Person) -> None:
        """An adult child may marry; the spouse joins the world and the union is queued."""
        r = self.r
        if p.unions or len(self.persons) >= self.target:
            return
        age = r.uniform(21, 32) if p.sex == "M" else r.uniform(18, 28)
        when = _years(p.birth, age)
        if (p.death and p.death <= when) or when >= TODAY:
            return
        if not p.descendant and (r.random() > 0.85 or p.birth.year > 1945):
            return  # collateral lines stop at the generation born after the war
        sp_sex = "F" if p.sex == "M" else "M"
        sb = _years(p.birth, r.uniform(-2, 5) if sp_sex == "F" else r.uniform(-5, 2))
        place = self.move(p.birth_place, when.year)
        s = self.add(sp_sex, self.given(sp_sex, sb.year), r.choice(SURNAMES), sb,
                     place, p.generation)
        s.descendant = False
        self.lifespan(s, adult=True)
        if s.death and s.death <= when:
            self.set_death(s, when + timedelta(days=r.randint(400, 9000)))
        h, w = (p, s) if p.sex == "M" else (s, p)
        prio = 0 if p.descendant else abs(p.generation) + (0 if p.ancestor else 2)
        self.union(h, w, when, place, prio)
        self.remarry(s)

    def remarry(self, dead: Person) -> None:
        """A widowed spouse under 50 remarries, one to three years later, half the time."""
        r = self.r
        if dead.death is None or not dead.unions or len(self.persons) >= self.target:
            return
        u = self.unions[dead.unions[-1]]
        other = self.persons[u.wife if dead.sex == "M" else u.husband]
        if len(other.unions) > 1:
            return
        when = dead.death + timedelta(days=r.randint(365, 1100))
        if (when >= TODAY or (other.death and other.death <= when)
                or _years(other.birth, 50) < when or r.random() > 0.5):
            return
        sp_sex = dead.sex
        sb = _years(other.birth, r.uniform(-6, 4))
        s = self.add(sp_sex, self.given(sp_sex, sb.year), r.choice(SURNAMES), sb,
                     u.place, other.generation)
        self.lifespan(s, adult=True)
        if s.death and s.death <= when:
            self.set_death(s, when + timedelta(days=r.randint(400, 9000)))
        h, w = (s, other) if sp_sex == "M" else (other, s)
        self.union(h, w, when, u.place, abs(other.generation) + 2)

    # -- the whole world ------------------------------------------------------------------
    def build(self) -> Population:
        r = self.r
        depth = 4 if self.target < 150 else 5 if self.target < 2000 else 6
        sex = r.choice("MF")
        birth = date(r.randint(1880, 1899), r.randint(1, 12), r.randint(1, 28))
        place = N_ENGLAND + r.randint(4, 8)
        seed = self.add(sex, self.given(sex, birth.year), r.choice(SURNAMES), birth, place, 0)
        seed.ancestor = True
        seed.occupation = seed.occupation or r.choice(_OCC_M)
        self.ancestors(seed, 1, depth)
        # The seed survives to marry and has a family of their own (the living line).
        self.set_death(seed, _years(seed.birth, r.uniform(62, 85)))
        when = _years(seed.birth, r.uniform(21, 28))
        sp_sex = "F" if sex == "M" else "M"
        sb = _years(seed.birth, r.uniform(-3, 3))
        s = self.add(sp_sex, self.given(sp_sex, sb.year), r.choice(SURNAMES), sb,
                     seed.birth_place, 0)
        self.set_death(s, _years(sb, r.uniform(60, 90)))
        h, w = (seed, s) if sex == "M" else (s, seed)
        u = self.union(h, w, when, seed.birth_place, 0)
        self.core.add(u.id)
        while self.queue and len(self.persons) < self.target:
            _, _, uid = heapq.heappop(self.queue)
            self.family(self.unions[uid])
        for p in self.persons:  # ancestors whose family the size limit left unvisited
            if p.ancestor and p.death is None and p.id != seed.id and p.generation > 0:
                last = max((self.persons[c].birth for c in self.children_of(p)),
                           default=p.birth)
                self.ancestor_death(p, last)
        if not any(p.living for p in self.persons):  # a small world still has the living
            youngest = max((p for p in self.persons if p.descendant), key=lambda p: p.birth,
                           default=None)
            if youngest is not None and youngest.birth.year > 1930:
                self.set_death(youngest, TODAY)
        self.notables()
        return Population(self.seed, seed.id, self.persons, self.unions)

    def children_of(self, p: Person) -> list[int]:
        return [c for u in p.unions for c in self.unions[u].children]

    def notables(self) -> None:
        """A few dead people (at least two direct ancestors) have Wikidata entities."""
        r = self.r
        dead = [p for p in self.persons if p.death is not None and p.birth.year < 1900]
        anc = [p for p in dead if p.ancestor and p.generation >= 2]
        for p in r.sample(anc, min(2, len(anc))):
            p.notable = True
        for p in dead:
            if r.random() < 0.02:
                p.notable = True


def generate(seed: int, persons: int = 200) -> Population:
    """The population of world `seed`, about `persons` people (at least 40)."""
    return _Builder(seed, persons).build()
