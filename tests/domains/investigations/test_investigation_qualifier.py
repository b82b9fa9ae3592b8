"""A question's key noun outranks its qualifier (issue 24): for "German submarines" a report
of a submarine is quoted though it never says "German", and one that shares only "German"
("Three German aeroplanes were brought down") is not a report about the question."""

from __future__ import annotations

from shared_data import shared_path
from sleuth.domains.investigations.corpus import modifiers, question_names
from sleuth.domains.investigations.general import bearing, candidates
from sleuth.sources import load_file

QUESTION = "What did the newspapers report about German submarines in 1916?"
PAGES = ("19160807__sn91066782-ed-1_seq-1.txt", "19160712__sn90059228-ed-1_seq-1.txt")


def test_a_qualifier_is_no_name_and_alone_bears_on_nothing() -> None:
    assert modifiers(QUESTION) == {"german"} and question_names(QUESTION) == set()
    assert question_names("What did the newspapers report about Pancho Villa in 1916?") == {
        "pancho", "villa"}
    assert question_names("When was John Smith born?") == {"john", "smith"}  # no qualifier
    assert question_names("When was Wilson elected?") == {"wilson"}
    texts = {f"S{i}": load_file(shared_path("text", "chronam_1916_front_pages", "pages", p)
                                ).snapshot.text for i, p in enumerate(PAGES)}
    found = [c.text for c in candidates(QUESTION, texts)]
    assert not any("Three German aeroplanes" in t for t in found)
    assert any("Capt. Paul Koenig" in t for t in found)  # the Deutschland: no "German"
    assert all("submarine" in t.lower() or "sub marine" in t.lower() for t in found)
    assert bearing(QUESTION, "Three German aeroplanes were brought down on the Somme.") == 0
    assert bearing(QUESTION, "A German submarine sank the steamer off the coast.") > 0
