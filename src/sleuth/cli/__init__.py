"""Command-line interface (see ../shared/CLI.md for the contract). Each command imports its
work inside the command, for start-up time (see `app.py`)."""
