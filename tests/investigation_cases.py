"""Small inline corpora for the investigation tests, and the shared-data demo corpus."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from typer.testing import CliRunner

from sleuth.cli.app import app
from sleuth.domains.investigations.finale import body_lines
from sleuth.domains.investigations.render import FORBIDDEN_PHRASES
from sleuth.domains.investigations.state import load_state

QUESTION = "What did the 1969 inquiry into public access and secrecy decide, and who sat on it?"

REPORT = """SOU 1970:12

Till Statsrådet och chefen för justitiedepartementet

Genom beslut den 11 april 1969 bemyndigade Kungl. Maj:t chefen för justitiedepartementet att \
tillkalla högst fem sakkunniga för att utreda frågor om offentlighet och sekretess.

Med stöd av detta bemyndigande tillkallades den 9 maj 1969 som sakkunniga direktören Rune \
Hermansson, tillika ordförande, riksdagsledamoten Erik Adamsson och redaktören Sven Larsson.

De sakkunniga har antagit namnet offentlighetskommittén (OFK).

Till sekreterare förordnades den 27 juni 1969 assessorn Karl Lidin.

OFK föreslår att en datalag införs. OFK får härmed överlämna betänkandet Data och \
offentlighet. Stockholm i juni 1970.
"""

# A second source that dates the chair's appointment differently: a contested claim.
DISSENT = """Dir. 1971:3

Tilläggsdirektiv till offentlighetskommittén (OFK)

Med stöd av bemyndigandet tillkallades den 9 juni 1969 som sakkunniga direktören Rune \
Hermansson, tillika ordförande, för offentlighetskommittén (OFK) att utreda frågor om \
offentlighet och sekretess.
"""

UNRELATED = """The weather in Uppsala was mild in the spring of 1969, and the river rose early.
"""

# The shared documents the demonstration reads (../shared/data/documents/swedish_gov).
DEMO_FILES = (
    "soukb__intermediate__1972__47__index.hocr.html.bz2",
    "dirregeringen__downloaded__2016__15__dir.-201615-dataskyddsforordningen.pdf",
    "souregeringen__parsed__2017__66.xhtml",
    "propriksdagen__intermediate__1987-88__155__index.hocr.html.bz2",
)


def write_corpus(folder: Path, **files: str | bytes) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, body in files.items():
        path = folder / name.replace("__", ".")
        if isinstance(body, bytes):
            path.write_bytes(body)
        else:
            path.write_text(body, encoding="utf-8")
    return folder


def demo_corpus(shared: Path, folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name in DEMO_FILES:
        shutil.copy(shared / name, folder / name)
    return folder


def footnotes(summary: str) -> dict[str, str]:
    return dict(re.findall(r"^\[\^(\d+)\]: (.*)$", summary, re.M))


def assert_deliverable(case: Path) -> None:
    """Every summary sentence footnoted to a captured source with a verbatim quote, and
    VERIFIED in fact-check.md; no forbidden phrase."""
    summary = (case / "summary.md").read_text(encoding="utf-8")
    notes = footnotes(summary)
    lines = body_lines(summary)
    assert lines, "the summary states nothing"
    state = load_state(case)
    checks = state.verification["checks"]
    statements = {s["text"]: s for s in state.verification["statements"]}
    for line in lines:
        m = re.search(r"\[\^(\d+)\]$", line)
        assert m, f"not footnoted: {line}"
        note = notes[m.group(1)]
        sid = note.split(",")[0]
        rec = state.source(sid)
        assert rec is not None and rec.status == "captured"
        quote = re.search(r"“(.*)”$", note)
        assert quote
        text = (case / "evidence" / sid / "capture.txt").read_text(encoding="utf-8")
        assert quote.group(1) in " ".join(text.split())  # verbatim in the captured text
        st = statements[line[: m.start()]]
        assert checks[st["id"]]["verdict"] == "VERIFIED"
    for phrase in FORBIDDEN_PHRASES:
        assert phrase.lower() not in summary.lower()


def run(*args: object) -> tuple[int, str, str]:
    """`sleuth ARGS` in-process: (exit code, stdout, stderr); a crash is raised as it is."""
    result = CliRunner().invoke(app, [str(a) for a in args])
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr
