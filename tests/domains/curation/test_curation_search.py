"""Search over a curation case (issue 25 item 7): the batch functions (chunking, entities,
embeddings) and `sleuth search`, on SQLite and PostgreSQL. Every hit's citation is the
stored snapshot's own text at its lines; without an embedding model search is lexical."""

from __future__ import annotations

import hashlib
import json
import socket
import sys
import types
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from shared_data import shared_path
from sleuth.cli.app import app
from sleuth.domains.curation import search as s
from sleuth.domains.curation.chunking import lines_of
from sleuth.domains.curation.embeddings import ENV, load_embedder, normalised
from sleuth.model import InputError, Snapshot
from sleuth.store import Store
from sleuth.store import search_index as ix

FILES = ("Svc__CmdDispatcher__CmdDispatcher.fpp", "Svc__CmdDispatcher__docs__sdd.md",
         "Svc__PrmDb__PrmDb.fpp", "Svc__PrmDb__docs__sdd.md", "Svc__Health__docs__sdd.md",
         "Svc__TlmChan__TlmChan.fpp", "Svc__TlmChan__docs__sdd.md")


class HashEmbedder:
    """A deterministic stand-in model: hashed word counts (what the hook may load)."""

    name = "test-hash-64"

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        m = np.zeros((len(texts), 64), dtype=np.float32)
        for i, text in enumerate(texts):
            for w in s.query_words(text):
                m[i, int(hashlib.sha256(w.encode()).hexdigest(), 16) % 64] += 1
        return normalised(m)


def _store_files(store: Store, folder: Path, names: Sequence[str]) -> None:
    for name in names:
        raw = (folder / name).read_bytes()
        snap = Snapshot(sha256=hashlib.sha256(raw).hexdigest(), path=name,
                        source_name="fprime", text=raw.decode("utf-8"))
        with store.transaction() as tx:
            store.put_snapshot(tx, raw, snap)


@pytest.fixture
def fprime() -> Path:
    return shared_path("documents", "fprime")


@pytest.fixture
def indexed(store: Store, fprime: Path) -> Store:
    _store_files(store, fprime, FILES)
    s.build_index(store, embedder=HashEmbedder())
    return store


def _verbatim(store: Store, hit: s.Hit) -> None:
    c = hit.chunk
    text = store.snapshot(c.snapshot_id).text
    assert c.text == "\n".join(lines_of(text)[c.start_line - 1:c.end_line])


def test_build_is_incremental_and_every_row_has_a_vector(indexed: Store, fprime: Path) -> None:
    again = s.build_index(indexed, embedder=HashEmbedder())
    assert (again.snapshots, again.chunks, again.deleted, again.embedded) == (0, 0, 0, 0)
    rows = sum(v for k, v in again.counts.items() if not k.startswith("vectors:"))
    assert again.counts["vectors:test-hash-64"] == rows > 100
    _store_files(indexed, fprime, ["Svc__Health__Health.fpp"])
    more = s.build_index(indexed, embedder=HashEmbedder())
    assert more.snapshots == 1 and more.chunks == more.embedded > 10


@pytest.mark.parametrize("mode", ["lexical", "embedding", "hybrid"])
def test_hits_cite_the_stored_text_at_their_lines(indexed: Store, mode: str) -> None:
    hits = s.search(indexed, "opcode registration dispatch table", limit=8, mode=mode,
                    embedder=HashEmbedder())
    assert len(hits) == 8 and [h.rank for h in hits] == list(range(1, 9))
    assert all(h.method == mode for h in hits)
    for h in hits:
        _verbatim(indexed, h)
        cite = h.as_json()["citation"]
        assert cite["lines"] == [h.chunk.start_line, h.chunk.end_line]
        assert cite["doc"] in FILES and cite["excerpt"] == h.chunk.text


def test_lexical_search_finds_what_the_sdds_say(indexed: Store) -> None:
    def top(q: str, n: int = 3) -> list[tuple[str, int, int]]:
        return [(h.chunk.doc, h.chunk.start_line, h.chunk.end_line)
                for h in s.search(indexed, q, limit=n, mode="lexical")]

    # "3.2.1 Command Registration" of the dispatcher's SDD
    assert ("Svc__CmdDispatcher__docs__sdd.md", 45, 47) in top(
        "how are opcodes registered with the dispatcher")
    # the PrmDb command that saves the parameter file (its FPP declaration)
    got = top("command to save parameters to the file")
    assert any(d == "Svc__PrmDb__PrmDb.fpp" for d, _, _ in got)
    # an abbreviation spelled out: TlmChan's port table found by "telemetry channel"
    assert any(d.startswith("Svc__TlmChan") for d, _, _ in top("telemetry channel ports"))


def test_auto_is_hybrid_with_vectors_and_lexical_without(indexed: Store) -> None:
    assert s.search(indexed, "watchdog", mode="auto", embedder=HashEmbedder())[0].method \
        == "hybrid"
    assert s.search(indexed, "watchdog", mode="auto", embedder=None)[0].method == "lexical"
    with pytest.raises(InputError, match="no embedding model"):
        s.search(indexed, "watchdog", mode="embedding", embedder=None)
    with pytest.raises(InputError, match="unknown search mode"):
        s.search(indexed, "watchdog", mode="fuzzy")
    with pytest.raises(InputError, match="empty"):
        s.search(indexed, "  ")


def test_entities_are_ranked_with_the_chunks_and_cite_their_evidence(indexed: Store) -> None:
    with indexed.engine.connect() as conn:
        sid = next(c.snapshot_id for c in ix.chunks(conn) if c.doc == FILES[2])
    text = indexed.snapshot(sid).text
    line = next(n for n, x in enumerate(lines_of(text), 1) if "PRM_SAVE_FILE" in x)
    ent = s.EntityDoc(key="fprime:Svc:PrmDb:command:PRM_SAVE_FILE", entity_type="command",
                      name="PRM_SAVE_FILE", snapshot_id=sid, doc=FILES[2], start_line=line,
                      end_line=line, evidence=lines_of(text)[line - 1],
                      summary="component Svc.PrmDb")
    report = s.index_entities(indexed, [ent])
    assert report.entities == 1 and report.chunks == 1
    for mode in ("lexical", "hybrid"):
        hits = s.search(indexed, "PRM_SAVE_FILE command", limit=5, mode=mode,
                        embedder=HashEmbedder())
        assert not any(s._overlap(a.chunk, b.chunk) for a in hits for b in hits if a is not b)
        if mode == "hybrid":
            continue  # the stand-in model ranks by hashed words: only "one place" holds
        found = [h for h in hits if ent.key in (h.chunk.entity_key, *h.entities)]
        assert len(found) == 1  # the entity and the declaration that holds it: one place
        shown = found[0].as_json()
        assert ent.key in (shown.get("entity_key"), *shown.get("entities", []))
        _verbatim(indexed, found[0])
    assert s.index_entities(indexed, []).chunks == 0  # gone when no longer promoted
    with indexed.engine.connect() as conn:
        assert "entity" not in ix.counts(conn)


def test_an_entity_and_the_chunk_holding_it_are_one_result() -> None:
    def row(kind: str, a: int, b: int, key: str | None = None) -> ix.StoredChunk:
        return ix.StoredChunk(f"{kind}{a}", a, "snap", "d.fpp", kind, "", a, b, "t", "",
                              key, "v")

    decl, ent = row("declaration", 10, 14), row("entity", 11, 12, "k")
    other = row("section", 20, 22)
    got = s.collapsed([(decl, 3.0, {}), (other, 2.0, {}), (ent, 1.0, {})], 10)
    assert [(c.id, ents) for c, _, _, ents in got] == [("declaration10", ("k",)),
                                                       ("section20", ())]
    got = s.collapsed([(ent, 3.0, {}), (decl, 2.0, {}), (other, 1.0, {})], 10)
    assert [c.id for c, _, _, _ in got] == ["entity11", "section20"]
    assert len(s.collapsed([(decl, 3.0, {}), (other, 2.0, {})], 1)) == 1


def test_the_embedder_hook_and_the_lexical_fallback(monkeypatch: pytest.MonkeyPatch) -> None:
    mod = types.ModuleType("sleuth_test_embedder")
    mod.make = HashEmbedder  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "sleuth_test_embedder", mod)
    monkeypatch.setenv(ENV, "sleuth_test_embedder:make")
    got = load_embedder()
    assert got is not None and got.name == "test-hash-64"
    assert np.allclose(np.linalg.norm(got.embed(["a b", "c"]), axis=1), 1.0)
    assert load_embedder("none") is None
    with pytest.raises(InputError):
        load_embedder("no_such_module_here:make")
    monkeypatch.setitem(sys.modules, "wordllama", None)  # the extra not installed
    assert load_embedder("auto") is None
    with pytest.raises(InputError, match="sleuth\\[embed\\]"):
        load_embedder("wordllama")


def test_wordllama_loads_from_the_wheel_without_the_network(monkeypatch: pytest.MonkeyPatch
                                                            ) -> None:
    pytest.importorskip("wordllama")

    def refuse(*_: object, **__: object) -> None:
        raise AssertionError("the embedding model tried to reach the network")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    model = load_embedder("wordllama")
    assert model is not None and model.name == "wordllama-l2_supercat-256"
    v = model.embed(["telemetry channel", "the telemetry channels", "parameter database"])
    assert v.shape == (3, 256) and np.allclose(np.linalg.norm(v, axis=1), 1.0)
    assert v[0] @ v[1] > v[0] @ v[2]


# -- the command ---------------------------------------------------------------------------

runner = CliRunner()


@pytest.fixture
def curation_case(tmp_path: Path, db_url: str, fprime: Path) -> Path:
    case = tmp_path / "case"
    store = Store.create_case(case, None if db_url.startswith("sqlite") else db_url,
                              domain="curation")
    try:
        _store_files(store, fprime, FILES[:4])
    finally:
        store.close()
    return case


def test_sleuth_search_json_and_text(curation_case: Path, monkeypatch: pytest.MonkeyPatch
                                     ) -> None:
    monkeypatch.setenv(ENV, "none")
    res = runner.invoke(app, ["search", str(curation_case), "save the parameter file",
                              "--limit", "3", "--format", "json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["method"] == "lexical" and out["index_refreshed"] and len(out["results"]) == 3
    first = out["results"][0]
    assert first["citation"]["doc"].startswith("Svc__PrmDb")
    a, b = first["citation"]["lines"]
    text = (shared_path("documents", "fprime") / first["citation"]["doc"]).read_text()
    assert first["citation"]["excerpt"] == "\n".join(text.split("\n")[a - 1:b])
    res = runner.invoke(app, ["search", str(curation_case), "save the parameter file",
                              "-n", "2"])
    assert res.exit_code == 0 and "2 results for 'save the parameter file' (lexical)" \
        in res.stdout
    assert f"1. {first['citation']['doc']}:{a}-{b}" in res.stdout


def test_sleuth_search_refuses_what_it_cannot_do(curation_case: Path, tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV, "none")
    res = runner.invoke(app, ["search", str(curation_case), "x", "--format", "xml"])
    assert res.exit_code == 2 and "unknown format" in res.stderr
    res = runner.invoke(app, ["search", str(curation_case), "x", "--mode", "embedding"])
    assert res.exit_code == 2 and "no embedding model" in res.stderr
    genealogy = tmp_path / "gen"
    Store.create_case(genealogy).close()
    res = runner.invoke(app, ["search", str(genealogy), "x"])
    assert res.exit_code == 2 and "curation cases" in res.stderr


def test_while_another_command_writes_the_case_search_reads_the_index_as_it_stands(
        curation_case: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from contextlib import contextmanager

    import sleuth.store.lock as lock
    from sleuth.model.errors import CaseBusy

    monkeypatch.setenv(ENV, "none")
    assert runner.invoke(app, ["search", str(curation_case), "opcode"]).exit_code == 0

    @contextmanager
    def busy(*_: object, **__: object):  # type: ignore[no-untyped-def]
        raise CaseBusy("case is being written by pid 1 (work)")
        yield

    monkeypatch.setattr(lock, "case_lock", busy)
    res = runner.invoke(app, ["search", str(curation_case), "opcode", "--format", "json"])
    assert res.exit_code == 0 and "not refreshed" in res.stderr
    out = json.loads(res.stdout)
    assert out["index_refreshed"] is False and out["results"]


def test_init_ingest_work_search_finds_the_promoted_entity(tmp_path: Path, fprime: Path,
                                                           monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    monkeypatch.setenv(ENV, "none")
    case = tmp_path / "prm"
    assert runner.invoke(app, ["init", str(case), "--domain", "curation"]).exit_code == 0
    res = runner.invoke(app, ["ingest", str(case), str(fprime / "Svc__PrmDb__PrmDb.fpp"),
                              str(fprime / "Svc__PrmDb__docs__sdd.md")])
    assert res.exit_code == 0, res.output
    res = runner.invoke(app, ["work", str(case)])
    assert res.exit_code == 0, res.output
    # `work` indexed what it promoted: the search after it has nothing left to add
    assert "search index: " in res.stdout and "lexical only" in res.stdout
    store = Store.open_case(case)
    try:
        with store.engine.connect() as conn:
            indexed = ix.counts(conn)
        assert indexed.get("entity", 0) > 0 and len(indexed) > 1
        again = s.build_index(store, entities=s.case_entities)
        assert (again.snapshots, again.chunks, again.deleted) == (0, 0, 0)
        assert again.counts == indexed
    finally:
        store.close()
    res = runner.invoke(app, ["search", str(case), "PRM_SAVE_FILE", "--format", "json"])
    assert res.exit_code == 0, res.output
    results = json.loads(res.stdout)["results"]
    key = "fprime:Svc:PrmDb:command:PRM_SAVE_FILE"
    hit = next(r for r in results if key in (r.get("entity_key"), *r.get("entities", [])))
    assert hit["citation"]["doc"] == "Svc__PrmDb__PrmDb.fpp"
    a, b = hit["citation"]["lines"]
    text = (fprime / "Svc__PrmDb__PrmDb.fpp").read_text(encoding="utf-8").split("\n")
    assert hit["citation"]["excerpt"].strip() in "\n".join(text[a - 1:b])
