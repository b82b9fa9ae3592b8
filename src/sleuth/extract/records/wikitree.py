"""WikiTree profile pages (read, private, logged-out, edit and 2025 layouts) as candidates.

The markup says which value is which field (schema.org microdata: `birthDate`, `givenName`,
`parent`, `spouse`...; the edit form's labelled family rows), but the snapshot text is the
page's *visible* text. We therefore rebuild that visible text from the parsed markup, node
by node, exactly as `sleuth.text.html_text` does, so every element knows its own
character span: a value is cited at the very place the page shows it, never at an earlier
look-alike elsewhere on the page. The visible text includes what the edit form shows in its
boxes (a field's value, the chosen option, a mark by the ticked "about/uncertain"), so the
edit page's names, dates and places are cited there. If the rebuild ever disagrees with the
snapshot (a change in `html_text`), values are grounded by a forward search instead, and a
value that is not in the visible text is never emitted (privacy-hidden data, attributes,
tooltips, form values of a snapshot stored before they were shown).
"""

from __future__ import annotations

import re

from selectolax.lexbor import LexborHTMLParser, LexborNode

from sleuth.extract.records.common import RecordDoc
from sleuth.extract.records.html_spans import Span, trim_span
from sleuth.extract.records.wikitree_edit import EditPage
from sleuth.extract.records.wikitree_page import (
    PROFILE_HREF,
    PageInfo,
    WikiTreePage,
    closest_class,
    closest_vitals,
    date_of,
    line_spans,
    split_commas,
)
from sleuth.model.records import Candidate, Snapshot
from sleuth.text import decode_text

_QUAL_BEFORE = re.compile(r"(?:about|abt\.?|before|bef\.?|after|aft\.?|circa)\s*$", re.I)
_MARRIED = re.compile(r"[\u2014\u2013-]\s*married\b")
_IN_PLACE = re.compile(r"(?:^|(?<=\s))in\s+(?=\S)")
_SEX_LABEL = re.compile(r"(?P<w>Son|Daughter|Brother|Sister|Husband|Wife|Father|Mother)\s+of\b")
_SEX_OF_LABEL = {"son": "M", "brother": "M", "husband": "M", "father": "M",
                 "daughter": "F", "sister": "F", "wife": "F", "mother": "F"}
_PRIVACY = re.compile(r"Privacy Level: (?P<level>[A-Za-z][A-Za-z -]{1,40}?)(?: \(|\"|$)")
_REL_FIELD = {"parent": "parent", "sibling": "sibling", "spouse": "spouse", "children": "child"}
_SCAN_LIMIT = 4 * 1024 * 1024


# -- detection --------------------------------------------------------------------------


def detect(snap: Snapshot, raw: bytes | None) -> bool:
    """A WikiTree person profile (any view): WikiTree markup with profile vitals or form."""
    if raw is None or not snap.media_type.startswith("text/html"):
        return False
    head = raw[:_SCAN_LIMIT]
    if b"wikitree" not in head.lower():
        return False
    if not (b"VITALS" in head or b"mBirthDate" in head or b"Special:EditFamily" in head):
        return False
    tree = _parse(raw)
    if tree is None:
        return False
    return _page_info(tree) is not None


# -- extraction -------------------------------------------------------------------------


def extract(snap: Snapshot, raw: bytes | None) -> list[Candidate]:
    """Candidates for the profile person (p1) and the relatives the page shows."""
    if raw is None:
        return []
    tree = _parse(raw)
    if tree is None:
        return []
    info = _page_info(tree)
    if info is None:
        return []
    doc = RecordDoc(snap.text, snap.id, evidence_type=snap.evidence_type, source_reliability=0.6)
    if info.page_type == "read":
        ReadPage(tree, doc, info).read_view()
    else:
        EditPage(tree, doc, info).edit_view()
    return doc.out


def page_info(raw: bytes) -> PageInfo | None:
    """Page type, WikiTree ID and privacy level (None when not a WikiTree profile)."""
    tree = _parse(raw)
    return None if tree is None else _page_info(tree)


def _parse(raw: bytes) -> LexborHTMLParser | None:
    try:
        html, _ = decode_text(raw, "wikitree page")
    except Exception:  # InputError or anything a broken byte stream raises
        return None
    tree = LexborHTMLParser(html)
    for node in tree.css("script, style, noscript, template"):
        node.decompose()
    return tree


def _page_info(tree: LexborHTMLParser) -> PageInfo | None:
    html_attrs = " ".join(
        (n.attributes.get("href") or "") for n in tree.css("link[rel=canonical], a[href]")[:400]
    )
    if "wikitree.com" not in html_attrs.lower():
        return None
    layout = "2025" if tree.css_first("section#person, .x-profile, .page--title") else "classic"
    privacy = None
    for node in tree.css("[title^='Privacy Level'], [data-bs-title^='Privacy Level']")[:1]:
        title = node.attributes.get("title") or node.attributes.get("data-bs-title") or ""
        m = _PRIVACY.search(title)
        privacy = m.group("level").strip() if m else None
    wiki_id = None
    canon = tree.css_first("link[rel=canonical]")
    if canon is not None:
        m = PROFILE_HREF.search(canon.attributes.get("href") or "")
        wiki_id = m.group("id") if m else None
    if tree.css_first("#mBirthDate, #mFirstName"):
        return PageInfo(wiki_id, "edit", privacy, layout)
    if tree.css_first("form[action*='EditFamily'], input[name=mStatus_BirthDate]"):
        return PageInfo(wiki_id, "edit_family", privacy, layout)
    for vitals in tree.css(".VITALS"):
        if vitals.css_first("[itemprop]") is not None or _vitals_word(vitals):
            return PageInfo(wiki_id, "read", privacy, layout)
    return None


def _vitals_word(node: LexborNode) -> bool:
    text = node.text(separator=" ", strip=True)
    return text.startswith(("Born", "Died"))


# -- the read, private and logged-out views ----------------------------------------------


class ReadPage(WikiTreePage):
    """The profile as a visitor reads it: microdata fields, vitals lines, family links."""

    def read_view(self) -> None:
        self._p1_name()
        self._name_parts()
        born = died = False
        for vitals in self.tree.css(".VITALS"):
            span = self.span(vitals)
            if span is None:
                continue
            text = self.text_of(span)
            if text.startswith("Born") and not born:
                born = self._event(vitals, span, "birth", "birthDate", "birthPlace")
            elif text.startswith("Died") and not died:
                died = self._event(vitals, span, "death", "deathDate", "deathPlace")
        self._sex()
        self._relatives()

    def _p1_name(self) -> None:
        node = self.tree.css_first("h1 [itemprop=name], h1[itemprop=name]")
        # Only the heading's own text: a "25°" distance badge can sit inside the same h1.
        span = self.own_span(node) if node is not None and node.tag == "h1" else self.span(node)
        if span is None:
            return
        span = trim_span(self.doc.text, span)
        name = " ".join(self.text_of(span).split())
        if name and not name.startswith("["):
            self.p1_name = name
            self.emit("p1", "name", name, span, 0.95, "profile name heading", subject_name=name)

    def _name_parts(self) -> None:
        given = self.tree.css_first(".VITALS [itemprop=givenName]")
        block = closest_vitals(given) if given is not None else None
        if block is None:
            return
        for prop, field in (("givenName", "given_name"), ("additionalName", "middle_name"),
                            ("honorificPrefix", "name_prefix"),
                            ("honorificSuffix", "name_suffix")):
            for node in block.css(f"[itemprop={prop}]"):
                self._name_field(node, field, f"WikiTree {prop}")
        lnab_meta = block.css_first("meta[itemprop=familyName]")
        lnab = (lnab_meta.attributes.get("content") or "").strip() if lnab_meta else ""
        surname_links = block.css("a[title='Click here for the surname index page'], "
                                  "a[title='Current Last Name'], a[title='Last Name at Birth']")
        current: tuple[str, Span] | None = None
        former: tuple[str, Span] | None = None
        for link in surname_links:
            span = self.span(link)
            if span is None:
                continue
            value = " ".join(self.text_of(span).split())
            if "formerly" in self.doc.text[max(0, span[0] - 12) : span[0]]:
                former = former or (value, span)
            else:
                current = current or (value, span)
        if current:
            self.emit("p1", "surname", current[0], current[1], 0.95, "current last name")
        birth = former or current
        if birth and birth[0] == lnab:
            why = "last name at birth ('formerly')" if former else "last name at birth"
            self.emit("p1", "birth_surname", birth[0], birth[1], 0.95, why)
        for strong in block.css("strong"):
            if strong.css_first("[itemprop], a") is not None:
                continue
            span = self.span(strong)
            if span is None:
                continue
            raw = self.text_of(span)
            before = self.doc.text[max(0, span[0] - 8) : span[0]]
            if len(raw) > 2 and raw[0] == raw[-1] == '"':
                self._emit_inner("nickname", span, "nickname in quotes")
            elif len(raw) > 2 and raw[0] == "(" and raw[-1] == ")":
                self._emit_inner("name_variant", span, "preferred first name in parentheses")
            elif "aka" in before:
                for part, psp in split_commas(raw, span[0]):
                    self.emit("p1", "name_variant", part, psp, 0.9, "other last name ('aka')")


    def _event(self, vitals: LexborNode, span: Span, event: str, date_prop: str,
               place_prop: str) -> bool:
        date_node = vitals.css_first(f"[itemprop={date_prop}]") or vitals.css_first(
            f"[data-cy={event}-date]"
        )
        dspan = self.span(date_node)
        label_end = span[0] + 4
        if dspan is None:
            # "Born 1920s." with no element around the date (older private view).
            tail = self.text_of((label_end, span[1]))
            m = re.match(r"\s*([^\n\[]{1,40}?)\s*(?:\.|\n|$)", tail)
            if m:
                dspan = (label_end + m.start(1), label_end + m.end(1))
        if dspan is not None:
            lead = self.doc.text[label_end : dspan[0]]
            q = _QUAL_BEFORE.search(lead)
            if q:
                dspan = (label_end + q.start(), dspan[1])
            self.emit_date("p1", f"{event}_date", dspan, f"'{event}' line of the profile vitals")
        place_node = vitals.css_first(f"[itemprop={place_prop}] [itemprop=name]")
        pspan = self.span(place_node)
        if pspan is None:
            start = dspan[1] if dspan else label_end
            m = _IN_PLACE.search(self.doc.text, start, span[1])
            if m:
                end = self.doc.text.find("\n", m.end(), span[1])
                end = span[1] if end < 0 else end
                cut = self.doc.text.find("[", m.end(), end)
                pspan = (m.end(), cut if cut >= 0 else end)
        if pspan is not None:
            self.emit_place("p1", f"{event}_place", pspan, f"'{event}' line of the profile vitals")
        return True

    def _sex(self) -> None:
        """The visible label of the family lines ("Son of", "Wife of") is the evidence."""
        for vitals in self.tree.css(".VITALS"):
            span = self.span(vitals)
            if span is None:
                continue
            m = _SEX_LABEL.match(self.doc.text, span[0], min(span[1], span[0] + 12))
            if m is None:
                continue
            sex = _SEX_OF_LABEL[m.group("w").lower()]
            self.emit("p1", "sex", sex, m.span("w"), 0.95, f"profile says '{m.group('w')} of'")
            return

    def _relatives(self) -> None:
        spouse_nodes = self.tree.css("[itemprop=spouse]")
        for prop, field in _REL_FIELD.items():
            # Some saved pages lost their microdata; the parents' ids survive there.
            extra = ", span#Father, span#Mother" if prop == "parent" else ""
            nodes = self.tree.css(f"[itemprop={prop}]{extra}")
            for i, node in enumerate(nodes):
                key = self._relative_node(node, field)
                if key is None:
                    continue
                if field == "parent":
                    self._parent_role(node, key, nodes)
                elif field == "spouse":
                    self._marriage(node, key, spouse_nodes, i)

    def _relative_node(self, node: LexborNode, field: str) -> str | None:
        name_node = node.css_first("[itemprop=name]") or node
        span = self.span(name_node)
        if span is None:
            return None
        span = trim_span(self.doc.text, span)
        name = " ".join(self.text_of(span).split())
        if not name or name.startswith("["):
            return None  # "[private brother]", "[father unknown]": nothing to name
        link = node.css_first("a[href]")
        m = PROFILE_HREF.search(link.attributes.get("href") or "") if link else None
        key = self.relative(m.group("id") if m else None, name)
        self.emit(key, "name", name, span, 0.95, f"{field} named on the profile",
                  subject_name=name)
        self.emit("p1", field, name, span, 0.95, f"listed as {field} of the profile person",
                  subject_name=self.p1_name, related=key, related_name=name)
        return key

    def _parent_role(self, node: LexborNode, key: str, nodes: list[LexborNode]) -> None:
        """Father or mother: markup ids and '[father unknown]' say so; order only suggests."""
        shown = self.span(node.css_first("[itemprop=name]") or node)
        span = trim_span(self.doc.text, shown or (0, 0))
        if span == (0, 0):
            return
        ident = (node.attributes.get("id") or "").lower()
        if ident.startswith(("father", "mother")):
            sex, fact, why = ("M" if ident.startswith("father") else "F"), True, "marked as"
        else:
            block = closest_vitals(node)
            btext = block.text(separator=" ") if block is not None else ""
            bid = block.mem_id if block is not None else None
            named = [n for n in nodes if (v := closest_vitals(n)) is not None and v.mem_id == bid]
            if "[father unknown]" in btext or "[father?]" in btext:
                sex, fact, why = "F", True, "the father is shown as unknown, so this is the"
            elif "[mother unknown]" in btext or "[mother?]" in btext:
                sex, fact, why = "M", True, "the mother is shown as unknown, so this is the"
            elif len(named) == 2:
                first = named[0].mem_id == node.mem_id
                sex, fact, why = ("M" if first else "F"), False, "hypothesis: listed order suggests"
            else:
                return
        role = "father" if sex == "M" else "mother"
        self.emit(key, "sex", sex, span, 0.9 if fact else 0.5, f"{why} {role}", is_fact=fact)

    def _marriage(self, node: LexborNode, key: str, spouses: list[LexborNode], i: int) -> None:
        name_span = self.span(node)
        holder = closest_class(node, "spouse") or closest_vitals(node)
        hspan = self.span(holder)
        if name_span is None or hspan is None:
            return
        end = hspan[1]
        for later in spouses[i + 1 :]:
            lspan = self.span(later)
            if lspan and name_span[1] <= lspan[0] < end:
                end = lspan[0]
                break
        text = self.doc.text
        m = _MARRIED.search(text, name_span[1], end)
        if m is None:
            return
        start = m.end()
        place = _IN_PLACE.search(text, start, end)
        stop = place.start() if place else end
        for ch in "[(":
            j = text.find(ch, start, stop)
            if j >= 0:
                stop = j
        lines = [(a + start, b + start) for a, b in line_spans(text[start:stop])]
        for k in range(len(lines), 0, -1):
            dspan = (lines[0][0], lines[k - 1][1])
            if date_of(text[dspan[0] : dspan[1]]) is not None:
                self.emit_date("p1", "marriage_date", dspan, "marriage shown with the spouse",
                               related=key)
                break
        if place is not None:
            pend = text.find("\n", place.end(), end)
            pend = end if pend < 0 else pend
            cut = text.find("[", place.end(), pend)
            self.emit_place("p1", "marriage_place", (place.end(), cut if cut >= 0 else pend),
                            "marriage shown with the spouse", related=key)

    # -- edit and add-family forms ------------------------------------------------------
