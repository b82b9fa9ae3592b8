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
from dataclasses import dataclass

from selectolax.lexbor import LexborHTMLParser, LexborNode

from sleuth.extract.dates import parse_date
from sleuth.extract.records.common import RecordDoc
from sleuth.extract.records.html_spans import (
    Span,
    node_span,
    shown_text,
    text_node_lines,
    trim_span,
)
from sleuth.model.dates import GenDate
from sleuth.model.records import Candidate, Snapshot

_PROFILE_HREF = re.compile(r"/wiki/(?P<id>[^/#?:\s]{1,80}-\d{1,9})$")
_DECADE = re.compile(r"^(?P<y>\d{3})0s$")
_QUAL_BEFORE = re.compile(r"(?:about|abt\.?|before|bef\.?|after|aft\.?|circa)\s*$", re.I)
_MARRIED = re.compile(r"[\u2014\u2013-]\s*married\b")
_IN_PLACE = re.compile(r"(?:^|(?<=\s))in\s+(?=\S)")
_SEX_LABEL = re.compile(r"(?P<w>Son|Daughter|Brother|Sister|Husband|Wife|Father|Mother)\s+of\b")
_SEX_OF_LABEL = {"son": "M", "brother": "M", "husband": "M", "father": "M",
                 "daughter": "F", "sister": "F", "wife": "F", "mother": "F"}
_PRIVACY = re.compile(r"Privacy Level: (?P<level>[A-Za-z][A-Za-z -]{1,40}?)(?: \(|\"|$)")
_EDIT_OF = re.compile(r"Edit Profile of (?P<name>[^\n]{1,120})")
# Placeholder "places" that WikiTree users type into the field; they name no place.
_NOT_PLACES = frozenset({"unmarried", "unknown", "n/a", "none"})
_REL_FIELD = {"parent": "parent", "sibling": "sibling", "spouse": "spouse", "children": "child"}
_EDIT_LABELS = {"Father:": "parent", "Mother:": "parent", "Siblings:": "sibling",
                "Spouses:": "spouse", "Children:": "child"}
# The person's own name fields on the edit form (input id -> field, the form's label).
_EDIT_NAMES = (("mPrefix", "name_prefix", "Prefix"),
               ("mFirstName", "given_name", "Proper First Name"),
               ("mRealName", "name_variant", "Preferred Name"),
               ("mNicknames", "nickname", "Other Nicknames"),
               ("mMiddleName", "middle_name", "Middle Name"),
               ("mLastNameCurrent", "surname", "Current Last Name"),
               ("mSuffix", "name_suffix", "Suffix"))
# What the form's date status buttons say ("guess" is labelled "about/uncertain").
_EDIT_STATUS = {"guess": "about", "before": "before", "after": "after"}
# Words typed into a name field when the name is not known: no name.
_NOT_NAMES = frozenset({"unknown", "anonymous"})
_SCAN_LIMIT = 4 * 1024 * 1024


@dataclass(frozen=True)
class PageInfo:
    """What kind of WikiTree page this is; `privacy` is the profile's own privacy level."""

    wiki_id: str | None
    page_type: str  # "read" | "edit" | "edit_family"
    privacy: str | None
    layout: str  # "classic" | "2025"


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
    page = _Page(tree, doc, info)
    if info.page_type == "read":
        page.read_view()
    else:
        page.edit_view()
    return doc.out


def page_info(raw: bytes) -> PageInfo | None:
    """Page type, WikiTree ID and privacy level (None when not a WikiTree profile)."""
    tree = _parse(raw)
    return None if tree is None else _page_info(tree)


def _parse(raw: bytes) -> LexborHTMLParser | None:
    from sleuth.text import decode_text

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
        m = _PROFILE_HREF.search(canon.attributes.get("href") or "")
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


# -- the page ---------------------------------------------------------------------------


class _Page:
    """One parsed page: node spans in the snapshot text plus the people found so far."""

    def __init__(self, tree: LexborHTMLParser, doc: RecordDoc, info: PageInfo) -> None:
        self.tree = tree
        self.doc = doc
        self.info = info
        self.node_lines: dict[int, list[Span]] = {}
        self.exact = self._index()
        self.cursor = 0
        self.keys: dict[str, str] = {}
        self.p1_name: str | None = None
        note = f"; privacy level {info.privacy}" if info.privacy and info.privacy != "Open" else ""
        self.note = f"WikiTree {info.page_type} page{note}"

    # -- grounding ----------------------------------------------------------------------
    def _index(self) -> bool:
        """Spans of every text node, rebuilt the way `html_text` builds the snapshot."""
        self.node_lines, rebuilt = text_node_lines(self.tree, self.doc.text)
        return rebuilt == self.doc.text

    def span(self, node: LexborNode | None) -> Span | None:
        """Where `node`'s visible text is in the snapshot (None when it shows nothing)."""
        if node is None:
            return None
        if self.exact:
            return node_span(node, self.node_lines)
        text = shown_text(node)
        found = self.doc.find(text, self.cursor) or self.doc.find(text)
        if found:
            self.cursor = found[1]
        return found

    def own_span(self, node: LexborNode) -> Span | None:
        """Span of `node` without trailing badges ("25°" distance, copy buttons)."""
        span = self.span(node)
        if span is None:
            return None
        for badge in node.css(".distanceFromYou, button, .copyWidget"):
            bspan = self.span(badge)
            if bspan and span[0] < bspan[0] < span[1]:
                span = (span[0], bspan[0])
        return trim_span(self.doc.text, span)

    def text_of(self, span: Span) -> str:
        return self.doc.text[span[0] : span[1]]

    # -- people -------------------------------------------------------------------------
    def relative(self, wiki_id: str | None, name: str) -> str:
        ident = wiki_id or f"name:{' '.join(name.split()).lower()}"
        if ident not in self.keys:
            self.keys[ident] = f"p{len(self.keys) + 2}"
        return self.keys[ident]

    def emit(self, subject: str, field: str, value: str, span: Span, conf: float, why: str,
             **kw: object) -> Candidate | None:
        return self.doc.emit(subject, field, value, span, conf, f"{why} ({self.note})",
                             **kw)  # type: ignore[arg-type]

    def emit_date(self, subject: str, field: str, span: Span, why: str,
                  related: str | None = None, related_name: str | None = None) -> None:
        span = trim_span(self.doc.text, span)
        gd = _date(self.text_of(span))
        if gd is None:
            return
        self.emit(subject, field, gd.iso(), span, 0.95, why, date=gd,
                  related=related, related_name=related_name)

    def emit_place(self, subject: str, field: str, span: Span, why: str,
                   related: str | None = None) -> None:
        span = trim_span(self.doc.text, span, " \t\n,.")
        value = " ".join(self.text_of(span).split())
        if not value or value.lower() in _NOT_PLACES or value.startswith("["):
            return
        self.emit(subject, field, value, span, 0.9, why, related=related)

    # -- read / private / logged-out views ----------------------------------------------
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
        block = _closest_vitals(given) if given is not None else None
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
                for part, psp in _split_commas(raw, span[0]):
                    self.emit("p1", "name_variant", part, psp, 0.9, "other last name ('aka')")

    def _field_value(self, node: LexborNode | None) -> tuple[Span, str] | None:
        """A field's trimmed span and its value, space-folded (None when it shows nothing)."""
        span = self.span(node)
        if span is None:
            return None
        span = trim_span(self.doc.text, span)
        return span, " ".join(self.text_of(span).split())

    def _name_field(self, node: LexborNode, field: str, why: str) -> None:
        got = self._field_value(node)
        if got and got[1] and not got[1].startswith("["):
            self.emit("p1", field, got[1], got[0], 0.95, why)

    def _emit_inner(self, field: str, span: Span, why: str) -> None:
        inner = trim_span(self.doc.text, (span[0] + 1, span[1] - 1))
        value = " ".join(self.text_of(inner).split())
        if value:
            self.emit("p1", field, value, inner, 0.9, why)

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
        m = _PROFILE_HREF.search(link.attributes.get("href") or "") if link else None
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
            block = _closest_vitals(node)
            btext = block.text(separator=" ") if block is not None else ""
            bid = block.mem_id if block is not None else None
            named = [n for n in nodes if (v := _closest_vitals(n)) is not None and v.mem_id == bid]
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
        holder = _closest_class(node, "spouse") or _closest_vitals(node)
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
        lines = [(a + start, b + start) for a, b in _line_spans(text[start:stop])]
        for k in range(len(lines), 0, -1):
            dspan = (lines[0][0], lines[k - 1][1])
            if _date(text[dspan[0] : dspan[1]]) is not None:
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
    def edit_view(self) -> None:
        """The heading, the form's fields as the boxes show them, and the family rows."""
        heading = _EDIT_OF.search(self.doc.text)
        if heading:
            name = heading.group("name").strip()
            self.p1_name = name
            self.emit("p1", "name", name, heading.span("name"), 0.9, "edit-page heading",
                      subject_name=name)
        # An add-family form ("Edit child of ...") holds a person not yet created, its
        # boxes pre-filled from the relative: they record nobody, so only EditPerson's.
        form = self.tree.css_first("form#editform")
        if form is not None and "EditPerson" in (form.attributes.get("action") or ""):
            self._edit_names(form)
            for event in ("Birth", "Death"):
                self._edit_event(form, event)
        self._edit_gender()
        self._edit_family()

    def _edit_names(self, form: LexborNode) -> None:
        lnab = form.css_first("input#birthLastName, input#mLastNameAtBirth")
        if lnab is not None and self.span(lnab):
            self._edit_field(lnab, "birth_surname", "Last Name at Birth")
        else:
            self._lnab_text(form)
        for ident, field, label in _EDIT_NAMES:
            node = form.css_first(f"input#{ident}")
            if node is not None:
                self._edit_field(node, field, label)
        other = form.css_first("input#mLastNameOther")
        span = self.span(other)
        if span is not None:
            for part, psp in _split_commas(self.text_of(span), span[0]):
                if part.casefold() not in _NOT_NAMES:
                    self.emit("p1", "name_variant", part, psp, 0.9,
                              "'Other Last Names' field of the edit form")

    def _edit_field(self, node: LexborNode, field: str, label: str) -> None:
        got = self._field_value(node)
        if got and got[1] and got[1].casefold() not in _NOT_NAMES and not got[1].startswith("["):
            self.emit("p1", field, got[1], got[0], 0.9, f"'{label}' field of the edit form")

    def _lnab_text(self, form: LexborNode) -> None:
        """Older forms print the last name at birth as text (a hidden input holds it)."""
        lnab = form.css_first("input[name=mLastNameAtBirth]")
        value = (lnab.attributes.get("value") or "").strip() if lnab else ""
        if not value or lnab is None or lnab.parent is None:
            return
        for sub in lnab.parent.traverse(include_text=True):
            if sub.is_text_node and (sub.text_content or "").strip() == value:
                span = self.span(sub)
                if span:
                    self.emit("p1", "birth_surname", value, span, 0.9, "Last Name at Birth")
                break

    def _edit_event(self, form: LexborNode, event: str) -> None:
        """Date and place boxes; a ticked before/after/about button qualifies the date, and
        the citation then runs from the date through that button's label."""
        field = event.lower()
        dspan = self.span(form.css_first(f"input#m{event}Date"))
        if dspan is not None:
            dspan = trim_span(self.doc.text, dspan)
            value = " ".join(self.text_of(dspan).split())
            radio = form.css_first(f"input[type=radio][name=mStatus_{event}Date][checked]")
            status = (radio.attributes.get("value") or "") if radio is not None else ""
            qual = _EDIT_STATUS.get(status)
            label = self._radio_label(radio) if qual and radio is not None else None
            if qual and label is not None and label[1] > dspan[1]:
                gd = _date(f"{qual} {value}")
                if gd is not None:
                    self.emit("p1", f"{field}_date", gd.iso(), (dspan[0], label[1]), 0.9,
                              f"'{event} Date' field of the edit form, marked"
                              f" '{' '.join(self.text_of(label).split())}'", date=gd)
            elif not qual:
                self.emit_date("p1", f"{field}_date", dspan,
                               f"'{event} Date' field of the edit form")
        pspan = self.span(form.css_first(f"input#m{event}Location"))
        if pspan is not None:
            self.emit_place("p1", f"{field}_place", pspan,
                            f"'{event} Place' field of the edit form")

    def _radio_label(self, radio: LexborNode) -> Span | None:
        """The ticked button's mark and its label text (label around it, or `for` its id)."""
        parent = radio.parent
        if parent is not None and parent.tag == "label":
            span = self.span(parent)
        else:
            ident = radio.attributes.get("id") or ""
            label = self.tree.css_first(f"label[for='{ident}']") if ident else None
            span = self.span(label) if label is not None else None
            mark = self.span(radio)
            if span is not None and mark is not None:
                span = (min(mark[0], span[0]), span[1])
        if span is None or "(*)" not in self.text_of(span):
            return None
        return trim_span(self.doc.text, span)

    def _edit_gender(self) -> None:
        option = self.tree.css_first("select[name=mGender] option[selected]")
        sspan = self.span(option)
        if sspan:
            sex = {"male": "M", "female": "F"}.get(self.text_of(sspan).strip().lower())
            if sex:
                self.emit("p1", "sex", sex, sspan, 0.9, "selected gender on the form")

    def _edit_family(self) -> None:
        for label_node in self.tree.css("td, b"):
            label = label_node.text(strip=True)
            field = _EDIT_LABELS.get(label)
            if field is None:
                continue
            row = _closest_id(label_node) if label_node.tag == "b" else label_node.parent
            if row is None:
                continue
            for link in row.css("a[href]"):
                m = _PROFILE_HREF.search(link.attributes.get("href") or "")
                if m is None or not link.text(strip=True):
                    continue
                span = self.span(link)
                if span is None:
                    continue
                span = trim_span(self.doc.text, span)
                name = " ".join(self.text_of(span).split())
                key = self.relative(m.group("id"), name)
                self.emit(key, "name", name, span, 0.95, f"{label} row of the family form",
                          subject_name=name)
                self.emit("p1", field, name, span, 0.95, f"{label} row of the family form",
                          subject_name=self.p1_name, related=key, related_name=name)
                if label in ("Father:", "Mother:"):
                    self.emit(key, "sex", "M" if label == "Father:" else "F", span, 0.9,
                              f"{label} row of the family form")


# -- helpers ----------------------------------------------------------------------------


def _date(text: str) -> GenDate | None:
    """WikiTree's display dates, plus the decades ("1910s") private profiles show."""
    s = " ".join(text.split())
    if not s or s.startswith("["):
        return None
    gd = parse_date(s)
    if gd is None:
        m = _DECADE.match(s)
        if m:
            y = int(m.group("y")) * 10
            gd = parse_date(f"BET {y} AND {y + 9}")
            if gd is not None:
                gd = gd.model_copy(update={"original": s})
    return gd




def _line_spans(text: str) -> list[Span]:
    out: list[Span] = []
    pos = 0
    for line in text.split("\n"):
        stripped = line.strip()
        if stripped:
            a = pos + line.index(stripped)
            out.append((a, a + len(stripped)))
        pos += len(line) + 1
    return out


def _split_commas(text: str, base: int) -> list[tuple[str, Span]]:
    out: list[tuple[str, Span]] = []
    pos = 0
    for part in text.split(","):
        stripped = part.strip()
        if stripped:
            a = base + pos + part.index(stripped)
            out.append((stripped, (a, a + len(stripped))))
        pos += len(part) + 1
    return out


def _closest_vitals(node: LexborNode | None) -> LexborNode | None:
    return _closest_class(node, "VITALS")


def _closest_class(node: LexborNode | None, cls: str) -> LexborNode | None:
    depth = 0
    while node is not None and depth < 12:
        if cls in (node.attributes.get("class") or "").split():
            return node
        node = node.parent
        depth += 1
    return None


def _closest_id(node: LexborNode | None) -> LexborNode | None:
    depth = 0
    while node is not None and depth < 6:
        if (node.attributes.get("id") or "") in ("Father", "Mother", "Siblings", "Spouses",
                                                  "Children"):
            return node
        node = node.parent
        depth += 1
    return None
