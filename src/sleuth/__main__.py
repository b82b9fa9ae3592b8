"""`python -m sleuth` runs the command line."""

from sleuth.cli.app import main

main()
