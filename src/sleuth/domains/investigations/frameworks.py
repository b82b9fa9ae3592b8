"""/questions: the seed's frameworks, each asking concrete questions of the extraction.

Deterministic: the same extraction asks the same questions, each with a stable id, so a
question asked once is not asked again. A question carries the words the research phase
searches the corpus for (`query`, all of which a file must hold to be a lead); one without
a query is answered from what is already captured, or recorded as a check to make.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from sleuth.domains.investigations.corpus import query_terms, question_names
from sleuth.domains.investigations.extraction import Extraction
from sleuth.domains.investigations.general import ASKING_WORDS
from sleuth.domains.investigations.model import Question, short_id

Asker = Callable[[Extraction, dict[str, Any]], list[tuple[str, list[str]]]]
MAX_PER_FRAMEWORK = 6


def _subject(x: Extraction) -> tuple[str, str]:
    """The body the investigation is about: its name and its abbreviation (or name)."""
    c = x.committees[0] if x.committees else None
    if c is None:
        return "the inquiry", ""
    return f"{c['name']}" + (f" ({c['abbreviation']})" if c["abbreviation"] else ""), (
        c["abbreviation"] or c["name"].split()[-1])


def _people(x: Extraction, role: str | None = None) -> list[dict[str, Any]]:
    return [p for p in x.people if p["public"] and (role is None or role in p["roles"])]


def _topic(ctx: dict[str, Any]) -> tuple[str, list[str], list[str]]:
    """A general question's subject in its own words ("Wilson and Hughes"), its names and
    its other search words, lower-cased ("presidential", "election")."""
    question = str(ctx.get("topic") or "")
    names = question_names(question)
    shown = list(dict.fromkeys(w for w in re.findall(r"[^\W\d_][\w'-]*", question)
                               if w.lower() in names))
    words = [w for w in query_terms(question, glossary=False)
             if w not in names and not w.isdigit() and w not in ASKING_WORDS]
    subject = " and ".join(shown) if shown else " ".join(words[:3]) or "the question"
    return subject, [n.lower() for n in shown], words



def _general(kind: str, ctx: dict[str, Any]) -> list[tuple[str, list[str]]]:
    """The 5W1H of a question about no inquiry, in the question's own terms: the words a
    search asks for are the question's names and words, never an inquiry's."""
    subject, names, words = _topic(ctx)
    table: dict[str, list[tuple[str, list[str]]]] = {
        "who": [(f"Who else do the sources name beside {subject}, and in what part?",
                 names[:2])],
        "what": [(f"What do the sources report about {subject}?", [*names[:2], *words[:1]])],
        "when": [(f"On which dates do the sources report on {subject}, and do they agree on "
                  "when things happened?", [])],
        "where": [(f"Where do the sources place what they report about {subject}?", [])],
        "why": [(f"What reasons do the sources give for what they report about {subject}?",
                 [])],
        "how": [(f"How do the sources' accounts of {subject} change from the earliest to the "
                 "latest?", [])],
    }
    return table[kind]


def _core(kind: str) -> Asker:
    def ask(x: Extraction, ctx: dict[str, Any]) -> list[tuple[str, list[str]]]:
        if not x.committees:
            return _general(kind, ctx)
        name, key = _subject(x)
        k = [key] if key else []
        table: dict[str, list[tuple[str, list[str]]]] = {
            "who": [(f"Who chaired {name}, and who were its members?", [*k, "ordförande"])],
            "what": [(f"What did {name} propose or decide?", [*k, "förslag"])],
            "when": [(f"When was {name}'s directive decided and its report handed over?",
                      [*k, "betänkande"])],
            "where": [(f"Where did {name} sign its report?", [])],
            "why": [(f"Why was {name} appointed: what does its directive say?",
                     [*k, "direktiv"])],
            "how": [(f"How did the directive of {name} change while it worked?",
                     [*k, "tilläggsdirektiv"])],
        }
        return table[kind]
    return ask


def _stakeholder(x: Extraction, ctx: dict[str, Any]) -> list[tuple[str, list[str]]]:
    return [(f"What part did {b['name']} play?", [b["name"].lower()])
            for b in x.entities if b["type"] in ("ministry", "agency")]


def _relationships(x: Extraction, ctx: dict[str, Any]) -> list[tuple[str, list[str]]]:
    return [(f"Where else do the sources name {p['name']}?", [p["name"].lower()])
            for p in _people(x) if p["needs_investigation"]]


def _sense(x: Extraction, ctx: dict[str, Any]) -> list[tuple[str, list[str]]]:
    dated = sorted(e["date"] for e in x.events if e["date"])
    if not dated:
        return []
    return [(f"In what order did the events between {dated[0]} and {dated[-1]} happen, and "
             "what connects them?", [])]


def _ach(x: Extraction, ctx: dict[str, Any]) -> list[tuple[str, list[str]]]:
    return [(f"Which evidence decides between the positions on {c['description']}?",
             [c["name"].lower()]) for c in x.contradictions]


def _assumptions(x: Extraction, ctx: dict[str, Any]) -> list[tuple[str, list[str]]]:
    out: list[tuple[str, list[str]]] = [
        (f"Is the {p['name']} of {' and '.join(p['sources'])} one person?", [])
        for p in _people(x) if len(p["sources"]) > 1]
    if x.committees:
        name, _ = _subject(x)
        out.append((f"Does every source mean the same body by {name}?", []))
    else:
        subject, _, _ = _topic(ctx)
        out.append((f"Does every source mean the same by {subject}?", []))
    return out


def _patterns(x: Extraction, ctx: dict[str, Any]) -> list[tuple[str, list[str]]]:
    return [(f"Which other inquiries did {b['name']} set up?", [b["name"].lower(), "tillkalla"])
            for b in x.entities if b["type"] == "ministry"]


def _meta(x: Extraction, ctx: dict[str, Any]) -> list[tuple[str, list[str]]]:
    return [(f"Which of the corpus's {ctx.get('corpus_files', 0)} files has the research not "
             "read, and could any of them bear on the question?", [])]


def _five_whys(x: Extraction, ctx: dict[str, Any]) -> list[tuple[str, list[str]]]:
    _, key = _subject(x)
    return [(f"Why was the directive changed on {e['date']}?", [key, "direktiv"] if key else [])
            for e in x.events if e["event_type"] == "directive_issued"
            and re.search(r"ändrades|tilläggsdirektiv|amended|changed", e["quote"], re.I)]


def _pre_mortem(x: Extraction, ctx: dict[str, Any]) -> list[tuple[str, list[str]]]:
    single = [p for p in _people(x) if len(p["sources"]) == 1][:3]
    return [(f"If the summary were wrong about {p['name']}, which source would show it?",
             [p["name"].lower()]) for p in single]


def _bias(x: Extraction, ctx: dict[str, Any]) -> list[tuple[str, list[str]]]:
    sources = sorted({m["source"] for p in x.people for m in p["mentions"]})
    if len(sources) == 1:
        _, key = _subject(x)
        return [(f"Does every finding rest on {sources[0]} alone?", [key] if key else [])]
    return []


def _uncomfortable(x: Extraction, ctx: dict[str, Any]) -> list[tuple[str, list[str]]]:
    return [("Who is named in the sources but left out of the summary, and why?", [])]


def _counterfactual(x: Extraction, ctx: dict[str, Any]) -> list[tuple[str, list[str]]]:
    name, key = _subject(x)
    out = [(f"Does any source name a different chair for {name}?", [key, "ordförande"]
            if key else [])] if x.committees else []
    out += [(f"Would the record differ had {p['name']} not been appointed?", [p["name"].lower()])
            for p in _people(x, "chair")]
    return out


def _cognitive(x: Extraction, ctx: dict[str, Any]) -> list[tuple[str, list[str]]]:
    return [("Was the first source captured also trusted most (anchoring)?", [])]


def _second_order(x: Extraction, ctx: dict[str, Any]) -> list[tuple[str, list[str]]]:
    out: list[tuple[str, list[str]]] = []
    for s in x.statements:
        m = re.search(r"förslag till (\w{4,})|proposed (?:a |an |the )?(\w{4,})", s["summary"])
        if m:
            thing = (m.group(1) or m.group(2)).lower()
            out.append((f"What became of the proposed {thing}?", [thing]))
    return out


FRAMEWORKS: dict[str, Asker] = {
    **{k: _core(k) for k in ("who", "what", "when", "where", "why", "how")},
    "stakeholder": _stakeholder,
    "relationships": _relationships,
    "sense-making": _sense,
    "ach": _ach,
    "assumptions": _assumptions,
    "patterns": _patterns,
    "meta": _meta,
    "five-whys": _five_whys,
    "pre-mortem": _pre_mortem,
    "bias-check": _bias,
    "uncomfortable": _uncomfortable,
    "counterfactual": _counterfactual,
    "cognitive-bias": _cognitive,
    "second-order": _second_order,
}


def ask(frameworks: tuple[str, ...], stage: str, x: Extraction, ctx: dict[str, Any], *,
        iteration: int, known: set[str]) -> list[Question]:
    """The new questions the frameworks ask of the extraction (ids not in `known`)."""
    out: list[Question] = []
    for fw in frameworks:
        seen: set[str] = set()
        for text, query in FRAMEWORKS[fw](x, ctx)[:MAX_PER_FRAMEWORK]:
            qid = short_id(fw, text)
            if qid in known or qid in seen:
                continue
            seen.add(qid)
            out.append(Question(qid, fw, stage, text, [q for q in query if q],
                                critical=stage == "late", asked_in=iteration))
    return out
