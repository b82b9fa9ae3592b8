"""The store is the only door to the database (issue 21, item 3): no module outside
`sleuth/store` runs a statement. (That none imports the table definitions is the import-linter
contract "store is the door" in pyproject.toml, which `make test` runs.)"""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src" / "sleuth"
RUNNERS = {"execute", "exec_driver_sql", "executemany", "scalar", "scalars"}


def test_no_module_outside_the_store_runs_a_statement() -> None:
    found = []
    for path in sorted(SRC.rglob("*.py")):
        if path.is_relative_to(SRC / "store"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr in RUNNERS
                    and isinstance(node.func.value, ast.Name)
                    and node.func.value.id in {"conn", "connection", "tx", "session", "cur",
                                               "cursor", "engine"}):
                found.append(f"{path.relative_to(SRC)}:{node.lineno}")
    assert found == []
