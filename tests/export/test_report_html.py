"""to_html: the Markdown report as one self-contained, escaped HTML file whose footnotes link
to highlighted excerpts in the stored source texts; living persons redacted as in Markdown."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from types import ModuleType

from hypothesis import given, settings
from hypothesis import strategies as st

from sleuth.export import to_report
from sleuth.export.html import _inline, to_html
from sleuth.model import CaseGraph
from sleuth.store import Store


class _Collect(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.hrefs: list[str] = []
        self.tags: set[str] = set()
        self.marks: dict[str, str] = {}
        self._mark: str | None = None
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        self.tags.add(tag)
        if a.get("id"):
            self.ids.add(str(a["id"]))
        if a.get("href"):
            self.hrefs.append(str(a["href"]))
        if tag == "mark":
            self._mark = str(a.get("id"))
            self.marks[self._mark] = ""

    def handle_endtag(self, tag: str) -> None:
        if tag == "mark":
            self._mark = None

    def handle_data(self, data: str) -> None:
        self.text.append(data)
        if self._mark:
            self.marks[self._mark] += data


def _parse(doc: str) -> _Collect:
    p = _Collect()
    p.feed(doc)
    return p


def test_every_footnote_links_to_its_highlighted_excerpt(
        family: CaseGraph, fam: ModuleType) -> None:
    doc = to_html(family, today=fam.TODAY)
    p = _parse(doc)
    assert doc.startswith("<!DOCTYPE html>") and "<script" not in doc
    assert not [h for h in p.hrefs if not h.startswith("#")]  # self-contained
    assert all(h[1:] in p.ids for h in p.hrefs)  # no dangling link
    report = to_report(family, today=fam.TODAY)
    quotes = report[report.index("## Appendix A"): report.index("## Appendix B")]
    excerpts: dict[str, list[str]] = {}
    current = ""
    for line in quotes.splitlines():
        if m := re.match(r"^(\d+)\. ", line):
            current = m.group(1)
        elif m := re.match(r"^   - “(.*)” \(copy", line):
            excerpts.setdefault(current, []).append(m.group(1))
    assert len(excerpts) >= 4
    for n, quoted in excerpts.items():
        m = re.search(rf'<li id="fn-{n}" value="{n}">.*?<a href="#(ex-[\d-]+)">', doc)
        assert m is not None, n
        # the highlight holds one of the note's quotations (whitespace folded)
        mark = " ".join(p.marks[m.group(1)].split())
        assert any(" ".join(q.split()) in mark for q in quoted)
    assert {"h1", "h2", "table", "mark", "sup"} <= p.tags


def test_note_marks_are_separated_and_each_linked(family: CaseGraph, fam: ModuleType) -> None:
    doc = to_html(family, today=fam.TODAY)
    assert "</sup><sup" not in doc  # never "125" for notes 1, 2 and 5
    runs = re.findall(r'<sup class="refs">\[(.*?)\]</sup>', doc)
    assert runs and any(", " in r for r in runs)
    for run in runs:
        links = re.findall(r'<a href="#fn-(\d+)" class="ref" data-ref="\1">\1</a>', run)
        assert ", ".join(f'<a href="#fn-{n}" class="ref" data-ref="{n}">{n}</a>'
                         for n in links) == run


def test_living_persons_redacted_as_in_markdown(family: CaseGraph, fam: ModuleType) -> None:
    doc = to_html(family, today=fam.TODAY).lower()
    for secret in fam.EMMA_SECRETS:
        assert secret.lower() not in doc, secret
    masked = to_html(family, today=fam.TODAY, mask_names=True)
    assert "Emma" not in masked and "Daniel Reyes" not in masked and "[Living]" in masked


def test_case_text_is_escaped(family: CaseGraph, fam: ModuleType) -> None:
    evil = family.model_copy(update={"title": "<script>alert(1)</script> & co"})
    doc = to_html(evil, today=fam.TODAY)
    assert "<script>" not in doc and "&lt;script&gt;alert(1)&lt;/script&gt; &amp; co" in doc


@settings(max_examples=200, deadline=None)
@given(st.text())
def test_inline_never_lets_markup_through(text: str) -> None:
    out = _inline(text)
    stripped = re.sub(r"</?(strong|em|code)>|<sup class=\"refs\">|</sup>|"
                      r"<a href=\"#fn-\d+\" class=\"ref\" data-ref=\"\d+\">|</a>", "", out)
    assert "<" not in stripped and ">" not in stripped


def test_gps_case_html_has_checklist_and_windows_into_a_long_record(store: Store) -> None:
    from shared_data import shared_path
    from sleuth.export.html import FULL_TEXT_LIMIT
    from sleuth.gps.proof import load_inputs
    from sleuth.pipeline.ingest import ingest_path
    from sleuth.store import case_graph

    path = shared_path("recorded", "familysearch", "saved_fetch_objects",
                       "us_va_death_1955_elmer_davis.json")
    ingest_path(store, path)
    g = case_graph(store, title="Davis")
    assert len(next(iter(g.snapshots.values())).text) > FULL_TEXT_LIMIT
    doc = to_html(g, gps=load_inputs(store, g))
    p = _parse(doc)
    assert "<strong>5. GPS checklist.</strong>" in doc and "not yet" in doc
    assert "characters before" in doc and p.marks
    assert all(h[1:] in p.ids for h in p.hrefs)
