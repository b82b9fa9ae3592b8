# The two commands of the README's Quick start, and what CI runs.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: demo test lint bench setup

$(BIN)/sleuth: pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e ".[test]"
	touch $(BIN)/sleuth

setup: $(BIN)/sleuth

demo: setup
	$(BIN)/sleuth demo --out sleuth-demo

test: setup
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/mypy
	$(BIN)/lint-imports
	$(BIN)/pytest -q -n auto --dist loadfile

bench: setup
	$(BIN)/pip install -q -e ".[bench]"
	$(BIN)/python benchmarks/firewall.py
	$(BIN)/python benchmarks/store.py
	$(BIN)/python benchmarks/extraction.py
	$(BIN)/python benchmarks/verify.py
