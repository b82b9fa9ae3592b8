"""The deliverable's statements, composed from the extraction for the question asked.

The question is read for what it asks (`asks_of`: who, what, when, why, where, how). The
subject is the source that answers it best (the first captured for the question) and every
source that names the same body; from them come, each as one `Statement`:

- what: the directive (decided, or changed), the name the body took, the report it handed
  over, what it proposes in its own words, when its proposal was to take effect;
- who: each appointment, grouped by date and role, with the source's role word;
- when: the dates of all of these.

Each statement's `text` is an English sentence; its `claim`, what the verifier checks, is
the same fact in the source's language and words (the verb, date phrase, role word and
names as printed), so that a Swedish source is checked in Swedish. A claim found
CONTRADICTED by another source is stated in the next iteration as its positions, each
attributed to its source (`contested`); a statement found NOT_FOUND is narrowed to what
its evidence showed (`revisions`), or withdrawn.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from typing import Any

from sleuth.domains.investigations.extraction import Extraction
from sleuth.domains.investigations.general import DIFFER, SECTION, asks_answered
from sleuth.domains.investigations.gloss import glossed, glosses
from sleuth.domains.investigations.model import SourceRecord, Statement, short_id
from sleuth.domains.investigations.proposals import proposer, proposes
from sleuth.domains.investigations.prose import join_split_words, one_line

ASKS = ("who", "what", "when", "why", "where", "how")
_ASK = {
    "who": re.compile(r"\bwho(m)?\b|\bmembers?\b|\bsat on\b|\bchair", re.I),
    "what": re.compile(r"\bwhat\b|\bdecid\w*|\bpropos\w*|\brecommend\w*|"
                       r"\bhow\s+(?:many|much|large|long)\b", re.I),
    "when": re.compile(r"\bwhen\b|\bdates?\b", re.I),
    "why": re.compile(r"\bwhy\b", re.I),
    "where": re.compile(r"\bwhere\b", re.I),
    "how": re.compile(r"\bhow\b(?!\s+(?:many|much|large|long)\b)", re.I),
}
# Which kinds of statement answer which part of a question.
ANSWERS = {
    "who": ("appointment", "position"),
    "what": ("directive", "report", "proposal", "committee", "in_force", "reported"),
    "when": ("directive", "appointment", "report", "in_force", "position"),
    "why": ("directive",),
    "where": ("report",),
    "how": ("directive", "proposal"),
}
SECTIONS = {"what": "What the inquiry decided", "who": "Who sat on it",
            "when": "When", "why": "Why", "where": "Where", "how": "How"}
# How an appointment reads: "was appointed {one}" / "were appointed {many}".
ROLE_EN = {"chair": ("chair of the inquiry", "chairs of the inquiry"),
           "investigator": ("special investigator", "special investigators of the inquiry"),
           "adviser": ("an adviser to the inquiry", "advisers to the inquiry"),
           "member": ("a member of the inquiry", "members of the inquiry"),
           "expert": ("an expert to assist the inquiry", "experts to assist the inquiry"),
           "secretary": ("secretary of the inquiry", "secretaries of the inquiry"),
           "assistant": ("assistant secretary of the inquiry",
                         "assistant secretaries of the inquiry")}
MAX_PROPOSALS = 3
MAX_REPORTED = 2
# A question about what someone said: answered by the sources' reported speech, quoted.
_ASKS_SAID = re.compile(r"\bsa(?:y|id)\b|\bstated?\b|\bstatements?\b|\bclaim(?:ed)?\b", re.I)
_WORD = re.compile(r"[^\W\d_]{4,}")
_CHANGED = re.compile(r"ändrades|tilläggsdirektiv|amended|changed|extended", re.I)
_REPORT_TITLE = re.compile(r"(?P<kind>del)?betänkande(?:t)?\s+(?P<title>[A-ZÅÄÖ][^,.;]{2,60})")


# What a report says it holds: "innehållande förslag till datalag jämte ändringar i bl. a.
# tryckfrihetsförordningen".
_CONTAINS = re.compile(r"innehållande\s+(?:bl\.\s?a\.\s+)?förslag\s+till\s+(?P<what>[^\W\d_]+)"
                       r"(?:\s+jämte\s+ändringar\s+i\s+(?P<among>bl\.\s?a\.\s+)?"
                       r"(?P<also>[^\W\d_]+(?:[-—–¬]\s+[^\W\d_]+)?))?", re.I)
_BROKEN = re.compile(r"(?<=[^\W\d_])[-—–¬]\s+(?=[a-zåäö])")  # "tryckfri— hetsförordningen"
_SPECIAL = re.compile(r"särskild\s+utredare|ensamutredare|special\s+investigator", re.I)
_ADVISER = re.compile(r"^sakkunnig", re.I)
_SERVED = re.compile(r"arbetat|tjänstgjort|served", re.I)


def _role(app: dict[str, Any], alone: bool) -> str:
    """How an appointment reads in English: a special investigator is no committee's chair;
    in a one-person inquiry (`alone`) its "sakkunniga" advise the investigator, they are no
    members; a secretary named "biträdande" assists the secretary."""
    if app["role"] == "chair" and _SPECIAL.search(app["role_text"]):
        return "investigator"
    if alone and app["role"] == "member" and _ADVISER.search(app["role_text"]):
        return "adviser"
    return "assistant" if app["role"] == "secretary" and app["assistant"] else app["role"]


def _appointed_en(names: list[str], as_: str, gloss: str, day: str, *, served: bool,
                  since: bool, alone: bool) -> str:
    """The English sentence of one appointment: "On D, X was appointed …"; "From D, X served
    as …" where the source says from when they served; a one-person inquiry as such."""
    if alone:
        on = f" on {date_en(day)}" if day else ""
        return f"The inquiry was a one-person inquiry: {names[0]} was appointed {as_}{gloss}{on}."
    many = len(names) > 1
    verb = "served as" if served else ("were appointed" if many else "was appointed")
    lead = (f"From {date_en(day)}, " if since else f"{_on(day, 'day')}, ") if day else ""
    text = f"{lead}{_and(names)} {verb} {as_}{gloss}."
    return text[0].upper() + text[1:]


def asks_of(question: str) -> list[str]:
    """What a question asks, in the order it asks it (at least 'what')."""
    found = {a: m.start() for a in ASKS if (m := _ASK[a].search(question))}
    return sorted(found, key=lambda a: found[a]) or ["what"]


def date_en(iso: str, precision: str = "day") -> str:
    if not iso:
        return ""
    d = date.fromisoformat(iso)
    return f"{d:%B} {d.year}" if precision == "month" else f"{d.day} {d:%B} {d.year}"


def _on(iso: str, precision: str) -> str:
    return ("In " if precision == "month" else "On ") + date_en(iso, precision)


def _and(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _numbers(*parts: str) -> list[str]:
    return sorted({n for p in parts for n in re.findall(r"\b\d{1,4}\b", p)})


def _english(term: str) -> str:
    """A Swedish term's gloss when the table has it ("datalag" -> "a Data Act"), else the
    term itself, quoted."""
    found = glosses(term)
    return found[0].english if found and found[0].printed.lower() == term.lower() \
        else f"“{term}”"


def _contents(quote: str) -> tuple[str, str]:
    """What a report says it contains ("innehållande förslag till datalag jämte ändringar i
    bl. a. tryckfrihetsförordningen"): the English clause that says so, with the Swedish in
    quotes, and the Swedish words the claim adds for the verifier; ("", "") when it says
    nothing of its contents."""
    m = _CONTAINS.search(quote)
    if not m:
        return "", ""
    what = m.group("what")
    text = f", which contains a proposal for {_english(what)} (“förslag till {what}”)"
    held = f"innehållande förslag till {what}"
    if m.group("also"):
        also = _BROKEN.sub("", m.group("also"))
        among = ", among others," if m.group("among") else ""
        text += f" and amendments to{among} {_english(also)} (“{also}”)"
        held += f" ändringar {also}"
    return text, held


@dataclass
class Composer:
    """Builds the statements of one synthesis from the extraction and the sources."""

    question: str
    extraction: Extraction
    sources: dict[str, SourceRecord]
    contested: dict[str, list[str]]  # statement id -> the sources whose positions differ
    revisions: dict[str, list[str]]  # statement id -> names its evidence did not show
    withdrawn: set[str]
    texts: dict[str, str]  # source id -> its captured text (quotes are slices of it)

    def lang(self, sid: str) -> str:
        rec = self.sources.get(sid)
        return rec.language if rec else "en"

    def _statement(self, kind: str, ask: str, text: str, claim: str, item: dict[str, Any],
                   *, names: list[str] | None = None, sort: str = "",
                   key: str = "") -> Statement:
        sid = item["source"]
        return Statement(
            id=short_id(kind, sid, key or str(item["start"])), kind=kind, ask=ask,
            text=text, claim=claim, source_id=sid,
            snapshot_id=self.sources[sid].snapshot_id if sid in self.sources else "",
            start=item["start"], end=item["end"], quote=item["quote"], page=item["page"],
            page_label=item["page_label"], names=names or [],
            numbers=_numbers(text), sort=f"{sort or '9999'}|{sid}|{item['start']:09d}",
            section=SECTIONS.get(ask, ask))

    # -- the subject ----------------------------------------------------------------------
    def subject_sources(self) -> list[str]:
        """The first captured source that names a body or appoints people to one (the first
        of all when none does), and every source naming the same body: a note captured before
        the inquiry's papers (a file repaired, or ranked first) does not take the subject from
        them, and a one-person inquiry's report (no body named) keeps it."""
        order = sorted(self.sources.values(), key=lambda s: s.id)
        if not order:
            return []
        bodies = ({c["source"] for c in self.extraction.committees}
                  | {a["source"] for a in self.extraction.appointments})  # an inquiry's paper
        order = [s for s in order if s.id in bodies] + [s for s in order if s.id not in bodies]
        first = order[0].id
        keys = {c["key"] for c in self.extraction.committees if c["source"] == first}
        abbrs = {c["abbreviation"] for c in self.extraction.committees
                 if c["source"] == first and c["abbreviation"]}
        names = {c["name"].lower() for c in self.extraction.committees if c["source"] == first}
        out = [first]
        for s in order[1:]:
            named = {c["key"] for c in self.extraction.committees if c["source"] == s.id}
            text = self.texts.get(s.id, "")
            if keys & named or any(f"({a})" in text for a in abbrs) or any(
                    n in text.lower() for n in names):
                out.append(s.id)
        return out

    def body(self, sids: list[str]) -> dict[str, Any] | None:
        """The inquiry's body: where a source says it took its name ("antagit namnet …"),
        else where it is first named (a report's cover: "Betänkande av …")."""
        named = [c for c in self.extraction.committees if c["source"] in sids]
        return next((c for c in named if c["verb"]), named[0] if named else None)

    # -- composing ------------------------------------------------------------------------
    def compose(self) -> list[Statement]:
        sids = self.subject_sources()
        body = self.body(sids)
        out: list[Statement] = []
        out += self._directives(sids)
        if body:
            out.append(self._committee(body))
        out += self._appointments(sids)
        out += self._reports(sids)
        out += self._proposals(sids, body)
        if _ASKS_SAID.search(self.question):
            out += self._reported(sids)
        return [s for s in out if s.id not in self.withdrawn]

    def _reported(self, sids: list[str]) -> list[Statement]:
        """What the sources report was said, quoted whole: the sentences that share the
        most words with the question (at least two), in text order."""
        words = {w.lower() for w in _WORD.findall(self.question)} - {"what", "said", "says",
                                                                      "about", "does"}
        scored = []
        for s in self.extraction.statements:
            if s["source"] in sids and s["kind"] == "reported":
                shared = words & {w.lower() for w in _WORD.findall(s["summary"])}
                if len(shared) >= 2:
                    scored.append((-len(shared), s["source"], s["start"], s))
        out = []
        for *_, s in sorted(scored, key=lambda t: t[:3])[:MAX_REPORTED]:
            text = f"The source reports: “{s['summary']}”"
            out.append(self._statement("reported", "what", text, s["summary"], s))
        return out

    def _directives(self, sids: list[str]) -> list[Statement]:
        out = []
        for e in self.extraction.events:
            if e["source"] not in sids or e["event_type"] != "directive_issued" or not e["date"]:
                continue
            sv = self.lang(e["source"]) == "sv"
            said = join_split_words(self.texts.get(e["source"], "")[e["start"]:e["end"]])
            changed = bool(_CHANGED.search(said or e["quote"]))  # "tilläggsdi-\nrektiv"
            if changed:
                text = f"{_on(e['date'], e['precision'])}, a government decision changed " \
                       "the inquiry's directive."
                verb = _CHANGED.search(said or e["quote"])
                what = verb.group(0) if verb else ""
                noun = "" if what.lower().endswith("direktiv") else " direktiv"
                claim = (f"{e['trigger'].capitalize()} den {e['date_original']} {what}{noun}."
                         if sv else
                         f"{e['trigger']} {e['date_original']} {verb.group(0) if verb else ''}"
                         " directive.")
            else:
                text = f"The inquiry's directive was decided on {date_en(e['date'])}."
                claim = (f"{e['trigger'].capitalize()} den {e['date_original']}." if sv else
                         f"{e['trigger']} {e['date_original']} directive.")
            out.append(self._statement("directive", "what", text, " ".join(claim.split()), e,
                                       sort=e["date"]))
        return out

    def _committee(self, c: dict[str, Any]) -> Statement:
        abbr = f" ({c['abbreviation']})" if c["abbreviation"] else ""
        text = f"The inquiry took the name “{c['name']}”{abbr}."
        claim = f"{c['verb'] or 'namnet'} {c['name']}{abbr}."
        return self._statement("committee", "what", text, claim, c, key=c["key"], sort="0000")

    def _appointments(self, sids: list[str]) -> list[Statement]:
        apps_of = [a for a in self.extraction.appointments
                   if a["source"] in sids and a["role"] in ROLE_EN]
        alone = len({a["key"] for a in apps_of if _role(a, False) == "investigator"}) == 1
        groups: dict[tuple[str, str, str, str], list[dict[str, Any]]] = {}
        phrase: dict[tuple[str, str, str, str], str] = {}
        for a in apps_of:
            role = _role(a, alone)
            k = (a["source"], a["date"], role, a["role_text"])
            if phrase.setdefault(k, a.get("date_phrase", "")) == a.get("date_phrase", ""):
                groups.setdefault(k, []).append(a)
            else:  # the same day written two ways ("den 19 september", "samma dag")
                groups.setdefault((a["source"], a["date"], role, f"{a['role_text']}\0"),
                                  []).append(a)
        contests = self._contests(groups)
        out = []
        for (sid, day, role, role_text), apps in groups.items():
            role_text = role_text.rstrip("\0")
            key = f"{day}|{role}|" + ",".join(a["key"] for a in apps)
            stmt_id = short_id("appointment", sid, key)
            contest, earliest = contests.get(stmt_id, ("", ""))
            dropped = set(self.revisions.get(stmt_id, []))
            apps = [a for a in apps if a["name"] not in dropped]
            if not apps:
                continue
            names = [a["name"] for a in apps]
            one, many = ROLE_EN[role]
            quote = {"source": sid, "start": min(a["start"] for a in apps),
                     "end": max(a["end"] for a in apps), "page": apps[0]["page"],
                     "page_label": apps[0]["page_label"]}
            first = apps[0]
            quote["quote"] = one_line(self.texts.get(sid, "")[quote["start"]:quote["end"]])
            sv = self.lang(sid) == "sv"
            gloss = f" (“{role_text}”)" if sv else ""
            verb = first["verb"] or ("tillkallades" if sv else "appointed")
            when = first["date_original"]
            if contest:
                title = self.sources[sid].title if sid in self.sources else sid
                text = (f"{title} dates the appointment of {_and(names)} as "
                        f"{one if len(names) == 1 else many}{gloss} to "
                        f"{date_en(day) or 'no date'}; the sources differ on it.")
                kind = "position"
            else:
                text = _appointed_en(names, one if len(names) == 1 else many, gloss, day,
                                     served=bool(_SERVED.search(verb)),
                                     since=bool(first.get("since")),
                                     alone=alone and role == "investigator")
                kind = "appointment"
            # the claim uses only the source's own words: its verb, date phrase, the names,
            # its role word, and "som"/"och" (or "as"/"and") only where it has them
            passage = quote["quote"].lower()
            conj = ("och" if sv else "and") if f" {'och' if sv else 'and'} " in passage else ","
            listed = (", ".join(names[:-1]) + f" {conj} " + names[-1]).replace(" , ", ", ") \
                if len(names) > 1 else names[0]
            as_ = ("som" if sv else "as") if f" {'som' if sv else 'as'} " in passage else ""
            on = ("den" if sv else "on") if f" {'den' if sv else 'on'} " in passage else ""
            dated = first.get("date_phrase") or (f"{on} {when}" if when else "")
            claim = f"{verb.capitalize()} {dated} {listed} {as_} {role_text}."
            st = self._statement(kind, "who", text, " ".join(claim.split()), quote, names=names,
                                 sort=day, key=key)
            st.id = stmt_id if kind == "appointment" else short_id("position", sid, key)
            if kind == "position":
                st.contested = contest
                st.position = f"{sid}: {date_en(day) or 'undated'}"
                st.sort = f"{earliest}|{contest}|{sid}|{quote['start']:09d}"  # side by side
            out.append(st)
        return out

    def unstated(self, statements: list[Statement], verified: set[str]) -> list[str]:
        """The people the subject's sources name in a role of the inquiry whom no verified
        statement of who sat on it names: the "who" is not fully answered while any is."""
        sids = self.subject_sources()
        stated = {n for s in statements if s.id in verified and answers(s, "who")
                  for n in s.names}
        return sorted({a["name"] for a in self.extraction.appointments
                       if a["source"] in sids and a["role"] in ROLE_EN
                       and a["name"] not in stated})

    def _contests(self, groups: dict[tuple[str, str, str, str], list[dict[str, Any]]]
                  ) -> dict[str, tuple[str, str]]:
        """Appointment statement id -> (the contested claim it is a position of, the claim's
        earliest date), both ways: the statement found CONTRADICTED, and each contradicting
        source's statement of the same person's appointment to the same role (which the
        verifier may have found only partly shown by the first source, not contradicted:
        the first source captured must not win by default). A statement in two contests
        takes the first key, so each is stated once; the date sorts the positions side by
        side."""
        info = {}
        for (sid, day, role, _), apps in groups.items():
            key = f"{day}|{role}|" + ",".join(a["key"] for a in apps)
            info[short_id("appointment", sid, key)] = (sid, day, role, {a["key"] for a in apps})
        member: dict[str, set[str]] = {}
        for k in sorted(self.contested):
            if k not in info:
                continue
            ksid, _, krole, kpeople = info[k]
            member.setdefault(k, set()).add(k)
            for gid, (sid, _, role, people) in info.items():
                if sid != ksid and sid in self.contested[k] and role == krole \
                        and people & kpeople:
                    member.setdefault(gid, set()).add(k)
        first = {gid: min(keys) for gid, keys in member.items()}
        days: dict[str, str] = {}
        for gid, k in first.items():
            days[k] = min(days.get(k, "9999"), info[gid][1] or "9999")
        return {gid: (k, days[k]) for gid, k in first.items()}

    def _reports(self, sids: list[str]) -> list[Statement]:
        out = []
        for e in self.extraction.events:
            if e["source"] not in sids or not e["date"]:
                continue
            sv = self.lang(e["source"]) == "sv"
            if e["event_type"] == "report_submitted":
                m = _REPORT_TITLE.search(one_line(e["quote"]).replace("- ", ""))
                kind_en = "interim report" if m and m.group("kind") else "report"
                title = f" “{m.group('title').strip()}”" if m else ""
                holds, held = _contents(one_line(join_split_words(e["quote"]))) if sv else ("", "")
                text = (f"{_on(e['date'], e['precision'])} the inquiry handed over its "
                        f"{kind_en}{title}{holds}.")
                word = ("delbetänkandet" if m.group("kind") else "betänkandet") if m else ""
                plain = title.replace("“", " ").replace("”", "")
                claim = (f"{e['trigger']} {word}{plain} {held} {e['date_original']}." if sv
                         else f"{e['trigger']} {kind_en}{title} {e['date_original']}.")
                out.append(self._statement("report", "what", text, " ".join(claim.split()), e,
                                           sort=e["date"]))
            elif e["event_type"] == "other" and re.search(r"kraft|force|apply", e["quote"], re.I):
                proposed = re.search(r"föreslås|propos", e["quote"], re.I)
                text = (f"The inquiry proposed that the legislation enter into force on "
                        f"{date_en(e['date'])}." if proposed else
                        f"The legislation was to enter into force on {date_en(e['date'])}.")
                claim = (f"{e['trigger']} träda i kraft den {e['date_original']}." if sv else
                         f"{e['trigger']} enter into force {e['date_original']}.")
                out.append(self._statement("in_force", "what", text, " ".join(claim.split()),
                                           e, sort=e["date"]))
        return out

    def _proposals(self, sids: list[str], body: dict[str, Any] | None) -> list[Statement]:
        """The sentences in which the inquiry makes a proposal (`proposals.proposes`; one
        that only mentions its proposals is none), the body's own in its name first."""
        who = body["abbreviation"] if body and body["abbreviation"] else ""
        used = [(e["start"], e["end"]) for e in self.extraction.events]
        found = []
        for s in self.extraction.statements:
            if s["source"] not in sids or s["kind"] != "proposal":
                continue
            by = proposer(s["summary"])
            if not proposes(s["summary"], who) or (by and by != who):
                continue  # no proposal made, or another body's
            if any(a <= s["start"] < b or s["start"] <= a < s["end"] for a, b in used):
                continue  # the report's own sentence: stated as the report
            found.append((not (who and by == who), s))
        out = []
        for own_name, s in sorted(found, key=lambda f: f[0])[:MAX_PROPOSALS]:
            speaker = "The inquiry" if own_name else who
            gloss = glossed(s["summary"]) if self.lang(s["source"]) == "sv" else ""
            text = (f"{speaker} proposed, in its own words: “{s['summary']}”"
                    + (f" ({gloss})" if gloss else ""))
            out.append(self._statement("proposal", "what", text, s["summary"], s))
        return out


def answers(st: Statement, ask: str) -> bool:
    """Whether a statement answers one part of a question: by its kind, or (a statement of
    the general composer, `general`) by what its sentence holds (`general.asks_answered`;
    its `ask`, the first part of the question it was chosen for, with the question's names
    read)."""
    if st.section in (SECTION, DIFFER):
        return ask in ("what", st.ask) or ask in asks_answered(st.claim)
    return st.kind in ANSWERS[ask]


def answered(asks: list[str], statements: list[Statement], verified: set[str]) -> dict[str, bool]:
    """Whether each ask of the question has a verified statement that answers it."""
    return {a: any(answers(s, a) and s.id in verified for s in statements) for a in asks}
