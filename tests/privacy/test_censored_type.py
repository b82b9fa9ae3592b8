"""Privacy as a type (issue 21): an output that forgets the Censor does not type-check.

Every function that prints or exports a case takes a `CensoredGraph`, which only
`sleuth.privacy.censor` makes. The type checker is run here on a caller that hands each of
them the raw graph: each call must be an error, and the same calls on the Censor's copy none.
"""

from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src" / "sleuth"

# (import line, call with {g} for the graph): every output that must see only the censored copy
VIEW_ONLY = [
    ("from sleuth.export.jsonld import jsonld_of_view", "jsonld_of_view({g})"),
    ("from sleuth.export.gedcom import gedcom_of_view", "gedcom_of_view({g})"),
    ("from sleuth.export.gedcomx import gedcomx_of_view", "gedcomx_of_view({g})"),
    ("from sleuth.export.report import report_of_view", "report_of_view({g}, {{}}, None)"),
    ("from sleuth.gps.timeline import timeline", "timeline({g}, 'p1')"),
    ("from sleuth.gps.fan import fan_hypotheses", "fan_hypotheses({g}, 'p1')"),
    ("from sleuth.gps.paths import relationship_path", "relationship_path({g}, 'a', 'b')"),
    ("from sleuth.quality.tree import tree_from_graph", "tree_from_graph({g})"),
    ("from sleuth.resolve.records import records_from_graph", "records_from_graph({g})"),
]


def test_only_the_censor_makes_a_censored_graph() -> None:
    """No module outside `sleuth/privacy` constructs or validates a CensoredGraph."""
    makers = []
    for path in sorted(SRC.rglob("*.py")):
        if path.is_relative_to(SRC / "privacy"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            target = node.func if isinstance(node, ast.Call) else None
            if isinstance(target, ast.Attribute):  # CensoredGraph.model_validate(...)
                target = target.value
            if isinstance(target, ast.Name) and target.id == "CensoredGraph":
                makers.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert makers == []


@pytest.mark.skipif(shutil.which("mypy", path=str(Path(sys.executable).parent)) is None,
                    reason="mypy is installed by the [test] extra")
def test_an_output_given_the_raw_graph_is_a_type_error(tmp_path: Path) -> None:
    lines = ["from sleuth.model import CaseGraph", "from sleuth.privacy import censor",
             *sorted({imp for imp, _ in VIEW_ONLY}), "", "raw = CaseGraph()",
             "safe = censor(raw)"]
    first_raw = len(lines) + 1
    lines += [call.format(g="raw") for _, call in VIEW_ONLY]
    lines += [call.format(g="safe") for _, call in VIEW_ONLY]
    # The model endpoint is an output path too: the client sends only a cleared prompt.
    lines += ["from sleuth.llm import LLMClient, LLMConfig",
              "from sleuth.llm.contracts import PingOutput",
              "from sleuth.privacy.outbound import fixed_prompt",
              "client = LLMClient(LLMConfig.load(env={}))",
              "msgs = [{'role': 'user', 'content': 'Jane Doe, born 1990'}]"]
    raw_prompt = len(lines) + 1
    lines += ["client.structured('verifier', msgs, PingOutput)",
              "client.structured('verifier', fixed_prompt(msgs), PingOutput)"]
    caller = tmp_path / "caller.py"
    caller.write_text("\n".join(lines) + "\n", encoding="utf-8")
    mypy = Path(sys.executable).parent / "mypy"
    env = {**os.environ, "MYPYPATH": str(ROOT / "src")}
    out = subprocess.run([str(mypy), str(caller)], cwd=ROOT, env=env, capture_output=True,
                         text=True, timeout=600).stdout
    errors = {int(m.group(1)): m.group(2)
              for m in re.finditer(r"caller\.py:(\d+): error: (.*)", out)}
    raw_lines = set(range(first_raw, first_raw + len(VIEW_ONLY)))
    assert set(errors) == raw_lines | {raw_prompt}, out
    assert all('"CaseGraph"; expected "CensoredGraph"' in errors[n] for n in raw_lines), out
    assert 'expected "ClearedPrompt"' in errors[raw_prompt], out


def test_only_the_privacy_gate_clears_a_prompt() -> None:
    """No module outside `sleuth/privacy` constructs a ClearedPrompt: a prompt reaches a
    model only through `clear_prompt` (or `fixed_prompt`, for text with no case data)."""
    makers = []
    for path in sorted(SRC.rglob("*.py")):
        if path.is_relative_to(SRC / "privacy"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id == "ClearedPrompt"):
                makers.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert makers == []
