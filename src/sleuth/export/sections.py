"""Report sections: a person's evidence as one compact table, a conflict, the open leads.

One row per fact and value: claims that state the same value (the same date range, the
same place less country words, the same text) are one row with every source that states
it, so five copies of a WikiTree profile are one fact with one note, not five bullets. The
Evidence column says what kind of sources they are, in words, and where the fact is
disputed whether this value is the preferred one and which conflict argues it.
"""

from __future__ import annotations

import re
from functools import cached_property

from sleuth.export.notes import Notes
from sleuth.extract.person_names import strip_title
from sleuth.gps.classify import classify
from sleuth.gps.conclusions import Family, Problem
from sleuth.gps.evidence import SourceBook
from sleuth.gps.kinds import SourceKind
from sleuth.gps.proof import QUESTION_ORDER, ProofWriter, Result
from sleuth.gps.ranking import value_key
from sleuth.gps.words import count_words, date_words, fact_value, field_label
from sleuth.model.citation import Citation
from sleuth.model.evidence import ResearchQuestion, SourceClass
from sleuth.model.graph import CaseGraph, Conflict
from sleuth.model.records import Assertion, AssertionStatus, Person

NO_CITATION = "no citation on file"
_WS = re.compile(r"\s+")
_HEX_ID = re.compile(r"\b[0-9a-f]{32}\b")
RELATION_FIELDS = frozenset({"parent", "father", "mother", "child", "spouse"})
NAME_PARTS = frozenset({"given_name", "surname"})
FIELD_ORDER = ("name", "birth_surname", "married_surname", "nickname", "title", "sex",
               "birth_date", "birth_place", "baptism_date", "baptism_place",
               "christening_date", "christening_place", "marriage_date", "marriage_place",
               "residence", "residence_date", "occupation", "religion", "sibling",
               "death_date", "death_place", "age_at_death", "cause_of_death", "burial_date",
               "burial_place", "deceased")
_RANK = {f: i for i, f in enumerate(FIELD_ORDER)}
MAX_LEADS = 20
_CHECK = re.compile(r"^Data-quality check [^:]*\([^)]*\): ")  # the rule's code name
_FAMILY = re.compile(r"\bF:([^+;]+)\+([^;]+?)(?= marriage|;|\.|$)")


def _cell(text: str) -> str:
    return _WS.sub(" ", text).strip().replace("|", "\\|")


class PersonTables:
    """Person sections of one censored graph (built once per report)."""

    def __init__(self, g: CaseGraph, family: Family, book: SourceBook, notes: Notes,
                 refs: dict[tuple[str, str], int]) -> None:
        self.g = g
        self.f = family
        self.book = book
        self.notes = notes
        self.refs = refs
        self.rows = 0
        self.conflicts = {(c.person_id, c.field): c for c in g.conflicts}
        self._class: dict[tuple[str, str], str] = {}

    @cached_property
    def index(self) -> dict[str, Assertion]:
        """Every claim by id (made when a conflict is first written: a page of a few
        persons needs none)."""
        return {a.id: a for lst in self.g.assertions.values() for a in lst}

    # -- words --------------------------------------------------------------------------
    def life(self, p: Person) -> str:
        """"21 July 1884 – 4 November 1956". A date a conflict prefers only tentatively
        reads "(tentative)" here too, not only in its row, and one another record rules out
        (kept as the only value on file) "(in doubt)": the pedigree is where a reader
        takes the dates from."""
        def year(gd: object, field: str) -> str:
            if gd is None:
                return ""
            words = date_words(gd)  # type: ignore[arg-type]
            c = self.conflicts.get((p.id, field))
            if c is None or not c.is_tentative:
                return words
            return f"{words} ({'in doubt' if len(c.competing) == 1 else 'tentative'})"

        born, died = year(p.birth, "birth_date"), year(p.death, "death_date")
        if born and died:
            return f"{born} – {died}"
        if born:
            return f"born {born}"
        return f"died {died}" if died else ""

    def kind(self, c: Citation, field: str) -> str:
        """The kind of evidence one citation is, in words (cached per source and field)."""
        k = (c.snapshot_id, field)
        if k not in self._class:
            raw = self.book.raw_snapshot(c.snapshot_id)
            info = self.book.truth(c.snapshot_id)
            if raw is None:
                self._class[k] = "source not in the case"
            else:
                src = classify(raw, info, field).source
                tree = info.kind in (SourceKind.WIKITREE_PROFILE, SourceKind.GEDCOM_FILE) or (
                    info.kind is SourceKind.FAMILYSEARCH_RECORD and info.event == "tree")
                self._class[k] = {SourceClass.ORIGINAL: "original record",
                                  SourceClass.DERIVATIVE: "derivative record",
                                  SourceClass.AUTHORED: "user tree" if tree
                                  else "compiled work"}[src]
        return self._class[k]

    def evidence(self, cites: list[Citation], field: str) -> str:
        """"two derivative records; one user tree" (distinct sources, not copies)."""
        by: dict[str, set[tuple[str, ...]]] = {}
        for c in cites:
            by.setdefault(self.kind(c, field), set()).add(self.notes.unit(c)[0])
        order = ("original record", "derivative record", "user tree", "compiled work",
                 "source not in the case")
        return "; ".join(count_words(len(by[k]), k) for k in order if k in by)

    # -- one person ---------------------------------------------------------------------
    def person(self, pid: str, relation: str) -> list[str]:
        p = self.f.by_id[pid]
        name = self.f.name(pid)
        subject = relation if relation else ""
        tail = " · ".join(x for x in (self.life(p), subject) if x)
        if p.is_living:
            tail = " · ".join(x for x in (self.life(p), "living — details redacted") if x)
        out = [f"### {_cell(name)}", ""]
        if tail:
            out += [f"*{_cell(tail)}*", ""]
        rows = self.relation_rows(pid) + self.fact_rows(pid)
        uncited = sum(1 for a in self.f.claims.get(pid, []) if not a.citations)
        if rows:
            out += ["| Fact | Value | Evidence | Sources |", "|---|---|---|---|", *rows, ""]
            self.rows += len(rows)
        else:
            out += ["No cited facts.", ""]
        if uncited:
            out += [f"*{uncited} claim(s) without a citation are not stated.*", ""]
        return out

    def relation_rows(self, pid: str) -> list[str]:
        rows: list[str] = []
        problem = self.refs.get((pid, "family"))
        linked: dict[str, list[str]] = {
            "parent": self.f.parents(pid), "spouse": self.f.spouses(pid),
            "child": self.f.children(pid)}
        for kind, others in linked.items():
            for x in others:
                sex = self.f.sex(x)
                label = {"parent": {"M": "Father", "F": "Mother"}.get(sex, "Parent"),
                         "spouse": "Spouse",
                         "child": {"M": "Son", "F": "Daughter"}.get(sex, "Child")}[kind]
                claims = self.f.link_claims(pid, x, kind)
                cites = [c for a in claims for c in a.citations]
                value = self.f.name(x)
                if problem is not None and kind == "parent":
                    value += f" (see Conflict {problem})"
                words = self.evidence(cites, "parent" if kind != "spouse" else "spouse")
                marks = self.notes.mark(cites, self.f.name(pid)) if cites else NO_CITATION
                rows.append(f"| {label} | {_cell(value)} | {words or '-'} | {marks} |")
        for kind, fields in (("parent", ("parent", "father", "mother")), ("spouse", ("spouse",)),
                             ("child", ("child",))):
            named: dict[str, list[Assertion]] = {}
            mine = self.f.links.get(pid, {})
            for a in (a for f in fields for a in mine.get(f, ())):
                if not any(self.f.names_person(a, x) for x in linked[kind]):
                    named.setdefault(" ".join(a.value.split()), []).append(a)
            for value, claims in sorted(named.items(), key=lambda kv: kv[0].casefold()):
                cites = [c for a in claims for c in a.citations]
                rows.append(f"| {kind.capitalize()} (named only) | {_cell(value)} "
                            f"(not linked to a person in the case) | "
                            f"{self.evidence(cites, kind)} | "
                            f"{self.notes.mark(cites, self.f.name(pid))} |")
        return rows

    def fact_rows(self, pid: str) -> list[str]:
        claims = [a for a in self.f.claims.get(pid, []) if a.citations
                  and a.field_name not in RELATION_FIELDS]
        has_name = any(a.field_name == "name" for a in claims)
        groups: dict[tuple[str, str], list[Assertion]] = {}
        for a in claims:
            if has_name and a.field_name in NAME_PARTS:
                continue
            value = strip_title(a.value) if a.field_name == "name" else a.value
            key, _ = value_key(a.field_name, value, a.date)
            groups.setdefault((a.field_name, key), []).append(a)

        def order(item: tuple[tuple[str, str], list[Assertion]]) -> tuple[object, ...]:
            (fld, key), _ = item
            return (_RANK.get(fld, len(_RANK)), field_label(fld), key)

        rows = []
        for (fld, _), group in sorted(groups.items(), key=order):
            shown = max(group, key=lambda a: (len(a.citations), len(a.value),
                                              -ord(a.value[:1] or " "), a.value))
            cites = [c for a in group for c in a.citations]
            words = self.evidence(cites, fld)
            role = self.role(pid, fld, group)
            if role:
                words = f"{words}; {role}" if words else role
            # a name as the person's, not with the "Mr."/"Miss" a notice gave it (the
            # quotes in Appendix A keep the words as printed)
            value = fact_value(fld, strip_title(shown.value) if fld == "name" else shown.value,
                               shown.date)
            rows.append(f"| {field_label(fld)} | {_cell(value)} | {words} | "
                        f"{self.notes.mark(cites, self.f.name(pid))} |")
        return rows

    def role(self, pid: str, field: str, group: list[Assertion]) -> str:
        """Whether a disputed value is preferred, agrees, or is not preferred."""
        c = self.conflicts.get((pid, field))
        if c is None:
            return ""
        n = self.refs.get((pid, field))
        ids = {a.id for a in group}
        for rc in c.competing:
            members = set(rc.assertion_ids or [rc.assertion_id])
            if not ids & members:
                continue
            if len(c.competing) == 1:
                word = "in doubt"  # the only value, and another record rules it out
            elif c.recommended_assertion_id in members:
                word = "preferred (tentatively)" if c.is_tentative else "preferred"
            elif rc.agrees:
                word = "agrees with the preferred value"
            else:
                word = "not preferred"
            return f"{word}, see Conflict {n}"
        if any(a.status is AssertionStatus.CONFLICTING for a in group):
            return f"not preferred, see Conflict {n}"
        return f"see Conflict {n}"

    # -- questions ------------------------------------------------------------------------
    def results(self, proof: ProofWriter, pid: str) -> list[tuple[ResearchQuestion, Result]]:
        out = []
        for q in QUESTION_ORDER:
            r = proof.result(pid, q)
            if r is not None:
                out.append((q, r))
        return out

    def with_records(self) -> list[str]:
        """Persons (not living) with at least one citation from a record, by name."""
        out = []
        for p in self.g.persons:
            if p.is_living:
                continue
            if any(self.kind(c, a.field_name) in ("original record", "derivative record")
                   for a in self.f.claims.get(p.id, []) for c in a.citations):
                out.append(p.id)
        return sorted(out, key=self.f.order)


def _strength(w: float) -> str:
    return "strong" if w >= 0.7 else "moderate" if w >= 0.4 else "weak"


def conflict_lines(n: int, c: Conflict | Problem, family: Family, tables: PersonTables,
                   notes: Notes) -> list[str]:
    """One conflict: every value with its sources and the decision, or a structural
    problem with the links at stake."""
    if isinstance(c, Problem):
        out = [f"### Conflict {n}: family links of {_cell(family.name(c.person_id))}", "",
               _cell(c.text), ""]
        rows = []
        for x in c.persons[1:]:
            for kind in ("parent", "spouse", "child"):
                claims = family.link_claims(c.person_id, x, kind)
                if kind == "parent" and x not in family.parents(c.person_id):
                    continue
                if kind == "spouse" and x not in family.spouses(c.person_id):
                    continue
                if kind == "child" and x not in family.children(c.person_id):
                    continue
                cites = [ct for a in claims for ct in a.citations]
                rows.append(f"| {_cell(family.name(x))} | {kind} | "
                            f"{notes.mark(cites) if cites else NO_CITATION} |")
        if c.kind == "ancestry":
            for i, x in enumerate(c.persons):
                up = c.persons[(i + 1) % len(c.persons)]
                cites = [ct for a in family.link_claims(x, up, "parent") for ct in a.citations]
                rows.append(f"| {_cell(family.name(up))} | parent of {_cell(family.name(x))} "
                            f"| {notes.mark(cites) if cites else NO_CITATION} |")
        if rows:
            out += ["| Person | Linked as | Sources |", "|---|---|---|", *rows, ""]
        return out
    flag = " (tentative)" if c.is_tentative else ""
    out = [f"### Conflict {n}: {field_label(c.field).lower()} of "
           f"{_cell(family.name(c.person_id))}{flag}", "",
           "| Value | Stated by | Support | Sources |", "|---|---|---|---|"]
    merged: dict[str, list] = {}
    for rc in sorted(c.competing, key=lambda r: r.rank):
        a = tables.index.get(rc.assertion_id)
        shown = fact_value(c.field, rc.value, a.date if a is not None else None)
        merged.setdefault(shown, []).append(rc)
    for shown, rcs in merged.items():
        ids = [x for rc in rcs for x in (rc.assertion_ids or [rc.assertion_id])]
        cites = [ct for x in ids if (a := tables.index.get(x)) is not None for ct in a.citations]
        win = any(c.recommended_assertion_id in (rc.assertion_ids or [rc.assertion_id])
                  for rc in rcs)
        label = f"{shown} (preferred)" if win else (
            f"{shown} (agrees)" if any(rc.agrees for rc in rcs) else shown)
        if len(c.competing) == 1:
            label = f"{shown} (the only value, in doubt)"
        reason = rcs[0].reason if "×" not in rcs[0].reason else \
            f"{rcs[0].evidence_type} evidence"
        reason = reason.removeprefix("stated by ")
        out.append(f"| {_cell(label)} | {_cell(reason)} | {_strength(max(r.weight for r in rcs))}"
                   f" | {notes.mark(cites) if cites else '-'} |")
    verdict = "Tentative: needs another record." if c.is_tentative else "Settled."
    out += ["", f"**Decision.** {_cell(c.rationale)} {verdict} All competing values are kept.",
            ""]
    return out


def leads(g: CaseGraph, family: Family) -> list[str]:
    """Open leads (hypotheses, never facts): deduplicated, best first, names for ids."""
    def words(text: str) -> str:
        return _HEX_ID.sub(lambda m: family.name(m.group(0)) if m.group(0) in family.by_id
                           else "another person", text)

    seen: dict[str, float] = {}
    for h in g.hypotheses:
        if h.status not in ("Pending", "InProgress") or h.hypothesis_type.startswith(
                "inferred"):  # an inference to test against records, not a search
            continue
        text = _CHECK.sub("", _cell(words(h.statement)))
        text = _FAMILY.sub(lambda m: f"the family of {m.group(1)} and {m.group(2)}", text)
        seen[text] = max(seen.get(text, 0.0), h.priority)
    if not seen:
        return []
    ranked = sorted(seen.items(), key=lambda kv: (-kv[1], kv[0].casefold()))
    out = ["Open leads (hypotheses to test, not facts):", ""]
    out += [f"- {text}" for text, _ in ranked[:MAX_LEADS]]
    if len(ranked) > MAX_LEADS:
        out.append(f"- … and {len(ranked) - MAX_LEADS} more leads of lower priority.")
    return [*out, ""]
