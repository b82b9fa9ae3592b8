"""A WikiTree edit page: the heading, the form's own name, date and place boxes as they
show them, the gender choice and the labelled family rows."""

from __future__ import annotations

import re

from selectolax.lexbor import LexborNode

from sleuth.extract.records.html_spans import Span, trim_span
from sleuth.extract.records.wikitree_page import (
    NOT_NAMES,
    PROFILE_HREF,
    WikiTreePage,
    closest_id,
    date_of,
    split_commas,
)

_EDIT_OF = re.compile(r"Edit Profile of (?P<name>[^\n]{1,120})")
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


class EditPage(WikiTreePage):
    """The edit form's view of a profile."""

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
            for part, psp in split_commas(self.text_of(span), span[0]):
                if part.casefold() not in NOT_NAMES:
                    self.emit("p1", "name_variant", part, psp, 0.9,
                              "'Other Last Names' field of the edit form")

    def _edit_field(self, node: LexborNode, field: str, label: str) -> None:
        got = self._field_value(node)
        if got and got[1] and got[1].casefold() not in NOT_NAMES and not got[1].startswith("["):
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
                gd = date_of(f"{qual} {value}")
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
            row = closest_id(label_node) if label_node.tag == "b" else label_node.parent
            if row is None:
                continue
            for link in row.css("a[href]"):
                m = PROFILE_HREF.search(link.attributes.get("href") or "")
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
