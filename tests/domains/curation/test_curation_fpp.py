"""The curation domain's FPP reader (issue 25) on every `.fpp`/`.fppi` file of the shared
F´ folder (skips without ../shared): no file raises, every definition the independent line
census finds is read with the same type, owner and name, every candidate's evidence is the
file's own text at its lines and passes sleuth's firewall; unreadable text raises with its
line."""

from __future__ import annotations

import hashlib
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from shared_data import shared_path
from sleuth.domains.curation import census, fpp
from sleuth.domains.curation.candidates import file_candidates, folder_candidates
from sleuth.domains.curation.model import (
    CurationCandidate,
    as_candidate,
    evidence_at,
    evidence_holds,
    line_starts,
    span_of,
)
from sleuth.model import Snapshot
from sleuth.verify import Source, check_candidates


@pytest.fixture(scope="module")
def files() -> dict[str, str]:
    folder = shared_path("documents", "fprime")
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(Path(folder).iterdir())
            if p.suffix in (".fpp", ".fppi")}


def _entry(c: CurationCandidate) -> census.Entry:
    owner = c.owner.rsplit(".", 1)[-1] if c.owner else None
    return (c.candidate_type, owner, c.name)


def test_every_file_reads(files: dict[str, str]) -> None:
    assert len(files) == 29
    for doc, text in files.items():
        where = "component" if doc.endswith(".fppi") else "module"
        assert fpp.read(text, doc, ("X",), where) is not None


def test_counts_per_file_match_the_line_census(files: dict[str, str]) -> None:
    ref = census.census(files)
    assert set(ref) == set(files)
    got: dict[str, Counter[census.Entry]] = {}
    first: dict[str, list[int]] = {}
    for c in folder_candidates(files):
        got.setdefault(c.evidence.source.doc, Counter())[_entry(c)] += 1
        first.setdefault(c.evidence.source.doc, []).append(c.evidence.source.lines[0])
    for doc in files:
        assert got.get(doc, Counter()) == Counter(e for e, _ in ref[doc]), doc
        assert sorted(first.get(doc, [])) == sorted(n for _, n in ref[doc]), doc


def test_totals_the_index_states(files: dict[str, str]) -> None:
    kinds = Counter(c.candidate_type for c in folder_candidates(files))
    # INDEX.md: 9 components; 3+4+1+3 commands; 5+11+8+2+8+9+3 events; 2+5+1+3+5 channels;
    # Ref.RecvBuff's 2 parameters; 38 instances; 20 port types in the Fw/Svc/Drv port files.
    assert kinds["component"] == 9 and kinds["command"] == 11 and kinds["event"] == 46
    assert kinds["telemetry"] == 16 and kinds["parameter"] == 2 and kinds["instance"] == 38
    assert kinds["port_type"] == 20


def test_typed_payloads(files: dict[str, str]) -> None:
    by_key = {c.candidate_key: c for c in folder_candidates(files)}
    assert by_key["fprime:Svc:TlmChan"].candidate_payload["kind"] == "active"
    assert by_key["fprime:Svc:Health"].candidate_payload["kind"] == "queued"
    port = by_key["fprime:Svc:TlmChan:port:TlmRecv"].candidate_payload
    assert (port["type"], port["direction"], port["kind"]) == ("Fw.Tlm", "input", "guarded")
    arr = by_key["fprime:Svc:Health:port:PingSend"].candidate_payload
    assert (arr["type"], arr["size"], arr["direction"]) == ("Svc.Ping", "HealthPingPorts", "output")
    cmd = by_key["fprime:Svc:CommandDispatcher:command:CMD_TEST_CMD_1"].candidate_payload
    assert cmd["kind"] == "async" and cmd["opcode"] == "2"
    assert [(a["name"], a["type"]) for a in cmd["args"]] == [("arg1", "I32"), ("arg2", "F32"),
                                                              ("arg3", "U8")]
    s = by_key["fprime:Svc:Health:command:HLTH_CHNG_PING"].candidate_payload["args"][0]
    assert (s["type"], s["description"]) == ("string size 40", "The entry to modify")
    tlm = by_key["fprime:Svc:BufferManager:telemetry:NoBuffs"]
    assert tlm.candidate_payload["update"] == "on change" and tlm.candidate_payload["limits"]
    assert tlm.evidence.source == tlm.evidence.source.model_copy(
        update={"doc": "Svc__BufferManager__Telemetry.fppi", "lines": (11, 14)})
    ev = by_key["fprime:Svc:Health:event:HLTH_PING_LATE"].candidate_payload
    assert (ev["severity"], ev["format"]) == ("fatal", "Ping entry {} did not respond")
    prm = by_key["fprime:Ref:RecvBuff:parameter:parameter2"].candidate_payload
    assert (prm["type"], prm["default"], prm["set_opcode"]) == ("I16", "11", "2")
    ret = by_key["fprime:Fw:port_type:BufferGet"].candidate_payload
    assert ret["return_type"] == "Fw.Buffer" and ret["params"][0]["name"] == "size"
    inst = by_key["fprime:Ref:instance:cmdDisp"].candidate_payload
    assert (inst["component"], inst["base_id"], inst["queue_size"]) == (
        "Svc.CommandDispatcher", "0x0500", "20")
    con = by_key["fprime:Ref:Ref:connection:RateGroups:"
                 "rateGroupDriverComp.CycleOut[Ports_RateGroups.rateGroup1]->rateGroup1Comp.CycleIn"]
    assert con.candidate_payload["from"]["index"] == "Ports_RateGroups.rateGroup1"
    assert by_key["fprime:Ref:Ref:connection:health:health"].candidate_payload["pattern"]


def test_evidence_verbatim_and_firewall_passes_all(files: dict[str, str]) -> None:
    cands = folder_candidates(files)
    assert len({c.candidate_key for c in cands}) == len(cands)
    assert all(c.status == "pending" for c in cands)
    assert all(evidence_holds(c, files[c.evidence.source.doc]) for c in cands)
    snaps = {doc: Snapshot(sha256=hashlib.sha256(t.encode()).hexdigest(), path=doc,
                           source_name="fprime", text=t) for doc, t in files.items()}
    staged = [as_candidate(c, snaps[c.evidence.source.doc]) for c in cands]
    report = check_candidates(staged, {s.id: Source.of_snapshot(s) for s in snaps.values()})
    assert not report.rejected and len(report.passed) == len(cands)


def test_an_fppi_on_its_own_is_owned_by_its_folder(files: dict[str, str]) -> None:
    doc = "Svc__FileUplink__Events.fppi"
    cands = file_candidates(files[doc], doc)
    assert len(cands) == 9 and {c.owner for c in cands} == {"Svc.FileUplink"}
    assert all("including component" in c.confidence_reason for c in cands)


def test_negative_cases() -> None:
    with pytest.raises(fpp.FppSyntaxError, match=":3:"):
        fpp.read("module M {\n  passive component C {\n    frobnicate port X\n  }\n}\n", "x.fpp")
    with pytest.raises(fpp.FppSyntaxError, match="end of file"):
        fpp.read("module M {\n  port P\n", "x.fpp")
    with pytest.raises(fpp.FppSyntaxError, match=":1:"):
        fpp.read("module M { } }\n", "x.fpp")
    with pytest.raises(fpp.FppSyntaxError, match="cannot read"):
        fpp.tokens("port P ~\n", "x.fpp")
    with pytest.raises(fpp.FppSyntaxError, match="not found"):
        list(fpp.read_tree({"A__B__B.fpp": 'module A {\n passive component B {\n'
                                           '  include "Events.fppi"\n }\n}\n'}))
    cand = folder_candidates({"a.fpp": "module M {\n  port P(x: U32)\n}\n"})[0]
    assert evidence_holds(cand, "module M {\n  port P(x: U32)\n}\n")
    assert not evidence_holds(cand, "module M {\n  port Q(x: U32)\n}\n")
    assert not evidence_holds(cand, "")
    with pytest.raises(ValueError):
        span_of("one line\n", (2, 3))


_LINE = st.text(st.characters(blacklist_categories=["Cs"], blacklist_characters="\r\n"),
                max_size=30)


@settings(max_examples=200, deadline=None)
@given(st.lists(_LINE, min_size=1, max_size=12), st.data())
def test_evidence_lines_slice_back_to_the_text(lines: list[str], data: st.DataObject) -> None:
    text = "\n".join(lines) + data.draw(st.sampled_from(["", "\n"]))
    n = len(line_starts(text)) - 1
    assume(n >= 1)
    a = data.draw(st.integers(1, n))
    b = data.draw(st.integers(a, n))
    block = "\n".join(text.split("\n")[a - 1:b])
    if not block.strip():
        with pytest.raises(ValueError):
            evidence_at(text, "t.fpp", (a, b))
        return
    ev = evidence_at(text, "t.fpp", (a, b))
    assert ev.text == block.strip() and ev.source.lines == (a, b)
