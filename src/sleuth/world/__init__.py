"""The simulated world: a ground-truth population rendered into source-shaped documents and
served on 127.0.0.1 in the real endpoints' URL and JSON shapes (`sleuth world`).

`World(seed, persons)` is deterministic: the same seed gives byte-identical documents.
`World.respond(url)` is the whole website as a pure function (the server adds rate limits,
faults and the request log around it), so a scorer can re-derive what any fetched URL said.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cached_property
from urllib.parse import parse_qsl, unquote, urlsplit

from sleuth.world.population import GAZETTEER, Population, generate
from sleuth.world.render import chronam, familysearch, freereg, memorial, wikidata, wikitree
from sleuth.world.render.common import Document, Stated

ROBOTS = "User-agent: *\nDisallow: /private/\nAllow: /\n"

__all__ = ["Document", "Stated", "World"]


def _not_found(source: str, what: str) -> Document:
    return Document(source, f"404:{what}", "application/json",
                    '{"error": "not found"}\n', [], status=404)


class World:
    """A population plus its sources; documents are rendered on demand and cached."""

    def __init__(self, seed: int, persons: int = 200) -> None:
        self.seed = seed
        self.size = persons
        self.pop: Population = generate(seed, persons)
        self._ocr: dict[str, Document] = {}

    # -- catalogues -------------------------------------------------------------------------
    @cached_property
    def wikitree(self) -> wikitree.WikiTree:
        return wikitree.WikiTree(self.pop)

    @cached_property
    def pages(self) -> dict[str, chronam.Page]:
        return chronam.catalogue(self.pop)

    @cached_property
    def registers(self) -> dict[str, freereg.Register]:
        return freereg.catalogue(self.pop)

    @cached_property
    def records(self) -> dict[str, familysearch.Record]:
        return familysearch.catalogue(self.pop)

    @cached_property
    def personas(self) -> dict[str, tuple[str, int]]:
        return familysearch.persona_index(self.pop, self.records)

    @cached_property
    def memorials(self) -> dict[int, int]:
        return memorial.catalogue(self.pop)

    @property
    def seed_person(self) -> int:
        return self.pop.seed_person

    def seed_query(self) -> dict[str, str]:
        """What a user would type about the seed person: name, birth year, birth place."""
        p = self.pop.persons[self.pop.seed_person]
        return {"given": p.first, "surname": p.surname, "name": p.name,
                "birth_year": str(p.birth.year), "place": GAZETTEER[p.birth_place].full}

    # -- documents --------------------------------------------------------------------------
    def ocr(self, key: str) -> Document:
        if key not in self._ocr:
            self._ocr[key] = chronam.ocr_page(self.pop, self.pages[key])
        return self._ocr[key]

    def documents(self, base: str = "http://127.0.0.1") -> Iterator[tuple[str, Document]]:
        """Every detail document (profile, entity, page, register, record, memorial) with
        the path it is served at: the corpus whose stated facts recall is measured on."""
        for pid, key in sorted(self.wikitree.keys.items()):
            yield f"/api.php?action=getProfile&key={key}", wikitree.get_profile(
                self.wikitree, key)
            del pid
        for p in self.pop.persons:
            if p.notable:
                q = wikidata.qid_person(p.id)
                yield (f"/w/api.php?action=wbgetentities&ids={q}&format=json",
                       wikidata.get_entities(self.pop, [q]))
        for key in sorted(self.pages):
            yield f"/resource/{key}/seq-1/ocr.txt", self.ocr(key)
        for key, reg in sorted(self.registers.items()):
            yield f"/freereg/{key}.csv", freereg.render(self.pop, reg)
        first: dict[str, str] = {}
        for persona, (rid, _) in sorted(self.personas.items()):
            first.setdefault(rid, persona)
        for rid, persona in sorted(first.items()):
            yield f"/platform/records/personas/{persona}", familysearch.render(
                self.pop, self.records[rid])
        for mid, pid in sorted(self.memorials.items()):
            yield f"/memorial/{mid}/{memorial.slug(self.pop, pid)}", memorial.render(
                self.pop, mid, pid)

    # -- the website ------------------------------------------------------------------------
    @staticmethod
    def source_of(path: str) -> str:
        """Which source a path belongs to (for limits, faults and the request log)."""
        if path == "/api.php":
            return "wikitree"
        if path.startswith("/w/api.php"):
            return "wikidata"
        if path.startswith(("/collections/chronicling-america", "/item/", "/resource/")):
            return "chronicling_america"
        if path.startswith("/platform/"):
            return "familysearch"
        if path.startswith("/freereg/"):
            return "freereg"
        if path.startswith("/memorial/"):
            return "find_a_grave"
        if path == "/robots.txt":
            return "robots"
        return "other"

    def respond(self, url: str, base: str = "http://127.0.0.1") -> Document:
        """The document served at `url` (a path with query, or an absolute URL)."""
        parts = urlsplit(url)
        path = unquote(parts.path) or "/"
        q = dict(parse_qsl(parts.query, keep_blank_values=True))
        src = self.source_of(path)
        if path == "/robots.txt":
            return Document("robots", "robots", "text/plain", ROBOTS, [])
        if src == "wikitree":
            return self._wikitree(q)
        if src == "wikidata":
            if q.get("action") == "wbgetentities":
                ids = [i for i in q.get("ids", "").split("|") if i][:50]
                return wikidata.get_entities(self.pop, ids)
            if q.get("action") == "wbsearchentities":
                return wikidata.search_entities(self.pop, q.get("search", ""))
            return _not_found(src, path)
        if src == "chronicling_america":
            return self._chronam(path, q, base)
        if src == "familysearch":
            return self._familysearch(path, q)
        if src == "freereg":
            return self._freereg(path, q)
        if src == "find_a_grave":
            return self._memorial(path, q)
        return _not_found(src, path)

    def _wikitree(self, q: dict[str, str]) -> Document:
        wt, action = self.wikitree, q.get("action", "")
        key = q.get("key", "")
        if action in ("getProfile", "getPerson"):
            return wikitree.get_profile(wt, key, action)
        if action == "getPeople":
            return wikitree.get_people(wt, [k for k in q.get("keys", "").split(",") if k][:100])
        if action in ("getAncestors", "getDescendants"):
            depth = int(q["depth"]) if q.get("depth", "").isdigit() else 1
            return wikitree.get_lineage(wt, key, depth, action == "getAncestors")
        if action == "getRelatives":
            return wikitree.get_relatives(wt, [k for k in q.get("keys", "").split(",") if k])
        if action == "searchPerson":
            start = int(q["start"]) if q.get("start", "").isdigit() else 0
            limit = min(100, int(q["limit"])) if q.get("limit", "").isdigit() else 10
            return wikitree.search_person(wt, q.get("FirstName", ""), q.get("LastName", ""),
                                          q.get("BirthDate", ""), q.get("DeathDate", ""),
                                          start, limit)
        return Document("wikitree", f"bad:{action}", "application/json",
                        '[{"status": "Invalid action"}]\n', [])

    def _chronam(self, path: str, q: dict[str, str], base: str) -> Document:
        if path.startswith("/collections/chronicling-america"):
            page = int(q["sp"]) if q.get("sp", "").isdigit() else 1
            return chronam.search(self.pop, self.pages, base, q.get("q", ""), max(1, page),
                                  lambda k: self.ocr(k).body)
        if path.startswith("/item/"):
            key = path.removeprefix("/item/").strip("/")
            if key in self.pages:
                return chronam.item_json(base, self.pages[key])
        if path.startswith("/resource/") and path.endswith("/seq-1/ocr.txt"):
            key = path.removeprefix("/resource/").removesuffix("/seq-1/ocr.txt")
            if key in self.pages:
                return self.ocr(key)
        return _not_found("chronicling_america", path)

    def _familysearch(self, path: str, q: dict[str, str]) -> Document:
        import json

        if path.startswith("/platform/records/personas/"):
            pid = path.rsplit("/", 1)[-1]
            hit = self.personas.get(pid)
            if hit is not None:
                return familysearch.render(self.pop, self.records[hit[0]])
            return _not_found("familysearch", path)
        if path == "/platform/tree/search":
            given = q.get("q.givenName", "").lower()
            sur = q.get("q.surname", "").lower()
            by = q.get("q.birthLikeDate", "")
            entries = []
            for pers, (_, ident) in sorted(self.personas.items()):
                p = self.pop.persons[ident]
                if sur and sur not in (p.surname.lower(), p.married_surname.lower()):
                    continue
                if given and not p.given.lower().startswith(given):
                    continue
                if by[:4].isdigit() and abs(p.birth.year - int(by[:4])) > 3:
                    continue
                entries.append({"id": pers, "title": p.name, "score": 1.0,
                                "links": {"persona": {
                                    "href": f"/platform/records/personas/{pers}"}}})
            body = json.dumps({"results": len(entries), "entries": entries[:100]}, indent=1)
            return Document("familysearch", f"search:{q}", "application/json", body, [])
        return _not_found("familysearch", path)

    def _freereg(self, path: str, q: dict[str, str]) -> Document:
        if path == "/freereg/search":
            sur, fore = q.get("surname", "").lower(), q.get("forename", "").lower()
            kind = q.get("type", "").upper()
            for key in sorted(self.registers):
                reg = self.registers[key]
                if kind and reg.kind != kind:
                    continue
            rows: dict[str, list[int]] = {}
            for key, reg in sorted(self.registers.items()):
                if kind and reg.kind != kind:
                    continue
                for ident in reg.entries:
                    people = ([self.pop.unions[ident].husband, self.pop.unions[ident].wife]
                              if reg.kind == "MA" else [ident])
                    if any((not sur or sur in (self.pop.persons[x].surname.lower(),
                                               self.pop.persons[x].married_surname.lower()))
                           and self.pop.persons[x].given.lower().startswith(fore)
                           for x in people):
                        rows.setdefault(key, []).append(ident)
            if not rows:
                return Document("freereg", "search:none", "text/csv",
                                "+INFO,sleuth-world@example.invalid,password,SEQUENCED,"
                                "BAPTISMS,utf8\n", [])
            key = sorted(rows)[0]  # one register per answer: the CSV has one record type
            return freereg.render(self.pop, self.registers[key], rows[key])
        key = path.removeprefix("/freereg/").removesuffix(".csv").upper()
        if key in self.registers:
            return freereg.render(self.pop, self.registers[key])
        return _not_found("freereg", path)

    def _memorial(self, path: str, q: dict[str, str]) -> Document:
        if path == "/memorial/search":
            return memorial.search(self.pop, self.memorials, q.get("firstname", ""),
                                   q.get("lastname", ""), q.get("birthyear", ""),
                                   q.get("deathyear", ""))
        parts = path.split("/")
        if len(parts) >= 3 and parts[2].isdigit() and int(parts[2]) in self.memorials:
            mid = int(parts[2])
            return memorial.render(self.pop, mid, self.memorials[mid])
        return _not_found("find_a_grave", path)
