"""`sleuth verify` (issue 24): a claim against a file or a case's snapshot, a claims file,
JSON and text output, and one error line (file and line, exit 2) for bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sleuth.cli.app import app

runner = CliRunner()

PAGE = (
    "<html><head><title>Obituary</title><script>var x = 1;</script></head><body>"
    "<p>John Smith died in Blackville, New Brunswick, on 24 January 1957.</p>"
    "<p>He had joined the Miramichi Lumber Company in 1921.</p></body></html>"
)


def _json_lines(output: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in output.splitlines() if line.strip()]


def _one_error_line(result: object) -> str:
    assert result.exit_code == 2, result.output  # type: ignore[attr-defined]
    err = result.stderr.strip()  # type: ignore[attr-defined]
    assert "\n" not in err and "Traceback" not in err, err
    assert not result.stdout.strip()  # type: ignore[attr-defined]  # nothing half-printed
    return err


def test_a_claim_against_an_html_file_is_one_json_object(tmp_path: Path) -> None:
    page = tmp_path / "obit.html"
    page.write_text(PAGE, encoding="utf-8")
    res = runner.invoke(app, ["verify", "--claim", "Smith died in Blackville on 25 January "
                              "1957.", "--source", str(page)])  # fmt: skip
    assert res.exit_code == 0, res.output
    [out] = _json_lines(res.stdout)
    assert out["verdict"] == "contradicted" and out["id"] == ""
    assert out["unsupported_spans"] == [{"start": 28, "end": 43, "text": "25 January 1957"}]
    assert {"sentence_index", "start", "end", "text"} == set(out["evidence"][0])  # type: ignore[index]
    [used] = out["sentences"]  # type: ignore[misc]
    assert used["text"].startswith("John Smith died")  # type: ignore[index]
    assert "var x" not in res.stdout  # the page's visible text only


def test_text_format(tmp_path: Path) -> None:
    page = tmp_path / "obit.txt"
    page.write_text("John Smith died in Blackville, New Brunswick, on 24 January 1957.\n",
                    encoding="utf-8")  # fmt: skip
    res = runner.invoke(app, ["verify", "--claim", "Smith died in Blackville in 1957.",
                              "--source", str(page), "--format", "text"])  # fmt: skip
    assert res.exit_code == 0, res.output
    assert res.stdout.startswith("SUPPORTED  Smith died in Blackville in 1957.")
    assert "evidence sentence 0: 'Smith', 'died', 'Blackville', '1957'" in res.stdout
    # the sentence itself, to read the words in their context
    assert "    “John Smith died in Blackville, New Brunswick, on 24 January 1957.”" in res.stdout


def test_a_claims_file_gives_one_object_per_claim_in_order(tmp_path: Path) -> None:
    (tmp_path / "obit.html").write_text(PAGE, encoding="utf-8")
    lines = [
        {"id": "c1", "claim": "Smith joined the Miramichi Lumber Company in 1921.",
         "source": "obit.html"},
        {"id": "c2", "claim": "Smith joined the company in 1922.",
         "evidence": ["Smith joined the company in 1921.", "He left in 1930."]},
        {"id": "c3", "claim": "Tides follow the moon.", "evidence": ["Smith died in 1957."]},
    ]  # fmt: skip
    claims = tmp_path / "claims.jsonl"
    claims.write_text("\n".join(json.dumps(x) for x in lines) + "\n\n", encoding="utf-8")
    res = runner.invoke(app, ["verify", "--claims", str(claims)])
    assert res.exit_code == 0, res.output
    out = _json_lines(res.stdout)
    assert [(o["id"], o["verdict"]) for o in out] == [
        ("c1", "supported"),
        ("c2", "contradicted"),
        ("c3", "not_found"),
    ]


def test_a_snapshot_of_a_case_is_read_through_its_store(tmp_path: Path) -> None:
    from sleuth.store import Store
    from sleuth.store.snapshots import snapshot_meta

    case = tmp_path / "case"
    Store.create_case(case).close()
    page = tmp_path / "obit.html"
    page.write_text(PAGE, encoding="utf-8")
    assert runner.invoke(app, ["ingest", str(case), str(page)]).exit_code == 0
    store = Store.open_case(case)
    try:
        with store.engine.connect() as conn:
            [snap_id] = [sid for sid, _, _ in snapshot_meta(conn)]
    finally:
        store.close()
    res = runner.invoke(app, ["verify", "--claim", "Smith died in Blackville in 1957.",
                              "--source", snap_id, "--case", str(case)])  # fmt: skip
    assert res.exit_code == 0, res.output
    assert _json_lines(res.stdout)[0]["verdict"] == "supported"
    err = _one_error_line(runner.invoke(app, ["verify", "--claim", "x", "--source", "nosuch",
                                              "--case", str(case)]))  # fmt: skip
    assert "nosuch" in err


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ('{"id": "a", "claim": "x", "evidence": []}\n{"id": "b", "claim": \n', "claims.jsonl:2:"),
        ('[1, 2]\n', "claims.jsonl:1: not a JSON object"),
        ('{"id": "a", "evidence": ["x"]}\n', 'claims.jsonl:1: "claim" must be'),
        ('{"id": "a", "claim": "x", "evidence": "one"}\n', "claims.jsonl:1: \"evidence\" must"),
        ('{"id": "a", "claim": "x"}\n', "claims.jsonl:1: give exactly one of"),
        ('{"id": "a", "claim": "x", "source": "gone.pdf"}\n', "claims.jsonl:1: source 'gone.pdf'"),
        # two results of one id could not be told apart; a line without an id is its line
        ('{"id": "a", "claim": "x", "evidence": []}\n{"id": "a", "claim": "y", "evidence": []}\n',
         "claims.jsonl:2 [id]: duplicate id 'a' (first on line 1)"),
        ('{"claim": "x", "evidence": []}\n{"id": "1", "claim": "y", "evidence": []}\n',
         "claims.jsonl:2 [id]: duplicate id '1'"),
        ("", "claims.jsonl: no claims"),
        ("\n  \n", "claims.jsonl: no claims"),
    ],
)
def test_a_bad_line_is_one_error_naming_file_and_line(
    tmp_path: Path, content: str, expected: str
) -> None:
    claims = tmp_path / "claims.jsonl"
    claims.write_text(content, encoding="utf-8")
    err = _one_error_line(runner.invoke(app, ["verify", "--claims", str(claims)]))
    assert expected in err


def test_unreadable_sources_and_missing_options_are_one_error_line(tmp_path: Path) -> None:
    binary = tmp_path / "blob.txt"
    binary.write_bytes(b"\x00\xff\xfe\x00" * 50)
    for args, expected in (
        (["--claim", "x", "--source", str(tmp_path / "none.txt")], "none.txt: no such file"),
        (["--claim", "x", "--source", str(binary)], "blob.txt"),
        (["--claims", str(tmp_path / "none.jsonl")], "none.jsonl: no such file"),
        (["--claim", "x"], "--claims"),
        (["--claim", "x", "--source", str(binary), "--format", "xml"], "unknown format"),
        (["--claim", "x", "--source", "98945d413a51c4d97a80d856dcc0727d"],
         "name its case with --case"),  # a snapshot id without its case
    ):
        err = _one_error_line(runner.invoke(app, ["verify", *args]))
        assert expected in err, err


FAMILY = """0 HEAD
1 GEDC
2 VERS 5.5.1
1 CHAR UTF-8
0 @I1@ INDI
1 NAME Robert /Whitfield/
1 SEX M
1 BIRT
2 DATE 3 MAR 1930
1 DEAT
2 DATE 9 JAN 2011
1 FAMS @F1@
0 @I2@ INDI
1 NAME Emma /Whitfield/
1 SEX F
1 BIRT
2 DATE 12 MAY 1990
2 PLAC Springfield, Sangamon, Illinois, USA
1 RESI
2 ADDR 42 Elm Street, Springfield
1 EMAIL emma.whitfield@example.com
1 PHON (217) 555-0143
1 FAMC @F1@
0 @F1@ FAM
1 HUSB @I1@
1 CHIL @I2@
0 TRLR
"""


def _family_case(tmp_path: Path) -> tuple[Path, str]:
    from sleuth.store import Store
    from sleuth.store.snapshots import snapshot_meta

    case = tmp_path / "case"
    Store.create_case(case).close()
    ged = tmp_path / "family.ged"
    ged.write_text(FAMILY, encoding="utf-8")
    res = runner.invoke(app, ["ingest", str(case), str(ged)])
    assert res.exit_code == 0, res.output
    store = Store.open_case(case)
    try:
        with store.engine.connect() as conn:
            [snap_id] = [sid for sid, _, _ in snapshot_meta(conn)]
        assert "12 MAY 1990" in store.snapshot(snap_id).text  # the store keeps everything
    finally:
        store.close()
    return case, snap_id


def test_a_case_snapshot_is_read_through_the_censor(tmp_path: Path) -> None:
    """A living person's exact birth date, phone and e-mail in a case's snapshot never reach
    the verifier, so no evidence span or rationale can quote them."""
    from sleuth.cli.verify_cmd import _Sources

    case, snap_id = _family_case(tmp_path)
    sources = _Sources(case)
    try:
        text = " ".join(sources.sentences(snap_id, where=None).sentences)
    finally:
        sources.close()
    for secret in ("12 MAY 1990", "emma.whitfield@example.com", "555-0143"):
        assert secret not in text, secret
    assert "Emma /Whitfield/" in text and "9 JAN 2011" in text  # the rest is verbatim


def test_verify_on_a_case_never_quotes_a_living_persons_secrets(tmp_path: Path) -> None:
    case, snap_id = _family_case(tmp_path)
    # read raw, the first would be contradicted by the snapshot's exact day (quoted as the
    # contradicting span), the others supported by the masked date and e-mail
    for claim in ("Emma Whitfield was born on 13 May 1990.",
                  "Emma Whitfield was born on 12 May 1990.",
                  "Emma Whitfield wrote from emma.whitfield@example.com."):  # fmt: skip
        res = runner.invoke(app, ["verify", "--claim", claim, "--source", snap_id,
                                  "--case", str(case)])  # fmt: skip
        assert res.exit_code == 0, res.output
        [out] = _json_lines(res.stdout)
        assert out["verdict"] != "supported", out
        quoted = " ".join(e["text"] for e in out["evidence"])  # type: ignore[attr-defined]
        assert "MAY" not in quoted and "example" not in quoted, quoted
        text = runner.invoke(app, ["verify", "--claim", claim, "--source", snap_id, "--case",
                                   str(case), "--format", "text"]).stdout  # fmt: skip
        quoted = "\n".join(ln for ln in text.splitlines()
                           if "evidence sentence" in ln or ln.startswith("    “"))
        assert quoted and "MAY" not in quoted and "example" not in quoted, text
    # the dead father's dates are not secret: his death date is shown and quoted
    res = runner.invoke(app, ["verify", "--claim", "Robert Whitfield died on 9 January 2011.",
                              "--source", snap_id, "--case", str(case)])  # fmt: skip
    [out] = _json_lines(res.stdout)
    assert "9 JAN 2011" in [e["text"] for e in out["evidence"]], out  # type: ignore[attr-defined]


def test_paraphrase_option_reads_a_reworded_claim_as_supported(tmp_path: Path) -> None:
    pytest.importorskip("wordllama")
    page = tmp_path / "obit.txt"
    page.write_text("John Smith died at his home in Blackville, New Brunswick, on 24 January "
                    "1957.\n", encoding="utf-8")  # fmt: skip
    args = ["verify", "--claim", "John Smith perished at his home in Blackville, New "
            "Brunswick, on 24 January 1957.", "--source", str(page)]  # fmt: skip
    plain = _json_lines(runner.invoke(app, args).stdout)[0]
    soft = _json_lines(runner.invoke(app, [*args, "--paraphrase"]).stdout)[0]
    assert plain["verdict"] == "partially_supported"
    assert soft["verdict"] == "supported" and "'perished' read as a paraphrase" in str(
        soft["rationale"])


def test_evidence_on_a_paged_source_names_its_page() -> None:
    """A scanned report (SOU 1972:47, hOCR): each evidence sentence says the page it stands
    on, by its printed number and its place in the file, so a fact-checker can open it."""
    from shared_data import shared_path

    path = shared_path("documents", "swedish_gov",
                       "soukb__intermediate__1972__47__index.hocr.html.bz2")  # fmt: skip
    claim = "Edmund Rapaport tillkallades den 18 juni 1969."
    result = runner.invoke(app, ["verify", "--claim", claim, "--source", str(path)])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["verdict"] == "supported"
    [sentence] = out["sentences"]
    assert "Edmund Rapaport" in sentence["text"]
    assert (sentence["page"], sentence["page_label"]) == (2, "6")
    text = runner.invoke(app, ["verify", "--claim", claim, "--source", str(path),
                               "--format", "text"])
    assert "(p. 6, page 2 of the file):" in text.stdout


def test_evidence_on_an_unpaged_source_names_no_page(tmp_path: Path) -> None:
    source = tmp_path / "note.txt"
    source.write_text("Smith was born in Leeds in 1900.", encoding="utf-8")
    result = runner.invoke(app, ["verify", "--claim", "Smith was born in Leeds.",
                                 "--source", str(source)])
    assert "page" not in json.loads(result.stdout)["sentences"][0]
