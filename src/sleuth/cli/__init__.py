"""Command-line interface (see ../shared/CLI.md for the contract)."""
